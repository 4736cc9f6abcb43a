"""The open synthesis and place-and-route tools the area and timing reports run.

Yosys (area: synth_xilinx; timing: synth_ecp5) and nextpnr-ecp5 come from PyPI's yowasp
packages, pinned and installed by scripts/setup.sh into /opt/weft-tools/yowasp: current
releases that run anywhere Python does (WebAssembly), so every machine places and routes
with the same versions. They see only their working directory and below, so every run
copies its sources into its own directory first (stage()). Debian's Yosys 0.23 is still
what the formal proofs use (tests/formal): it is the one yosys-smtbmc there comes with.

WEFT_YOWASP_DIR names another install of the packages (a directory pip installed them
into with --target); a tool whose path is given outright (--yosys PATH) is run as it is.
"""
import json
import os
import shutil
import subprocess

DEFAULT_YOWASP_DIR = "/opt/weft-tools/yowasp"

# The timing flow's part: Lattice ECP5 LFE5U-85F, speed grade 8, in its 381-ball package.
ECP5_ARGS = ["--85k", "--speed", "8", "--package", "CABGA381"]

# The static region's blocks, as both reports name them: the area report finds each in
# the synthesised region; the timing report places and routes each alone, with these
# parameters over its defaults (the default platform's shape: four slots, a slot at
# both ends of links, the FRI as the memory master's urgent requester).
_LINKS_BOTH_WAYS = {"TxMask": "32'hffffffff", "RxMask": "32'hffffffff"}
STATIC_BLOCKS = [
    ("weft_slot_if", "one slot's OS interface (OSIF + MEMIF FIFOs, link router, windows, registers)",
     _LINKS_BOTH_WAYS),
    ("weft_call_router", "the calls served inside it: mailbox calls on links, semaphore, "
                         "mutex and condition calls to the synchronisation manager", _LINKS_BOTH_WAYS),
    ("weft_mem_windows", "every slot's memory windows and their one checker (an IOMMU)", {}),
    ("weft_memif_master", "AXI4 memory master with round-robin arbiter",
     {"NumSlots": "5", "UrgentLast": "1"}),
    ("weft_fri", "reconfiguration interface: bitstream reads, checks, pacing, decoupling", {}),
    ("weft_axil_regs", "AXI4-Lite register window (global registers, decode)", {}),
    ("weft_sync", "synchronisation manager: objects, waiters in priority then arrival order, "
                  "priority inheritance, timeouts", {}),
    ("weft_sync_sw", "the synchronisation manager's software contexts (registers, interrupt)", {}),
    ("weft_tm", "thread manager: records, ids, join, the decision, with its scheduler", {}),
    ("weft_sched", "the scheduler inside it: ready queues, FIFO per priority, priority encoder", {}),
    ("weft_tm_regs", "the thread manager's command registers and interrupt", {}),
    ("weft_tm_events", "CBIS and timers: bindings, edges, pending events, the timers",
     {"NumLines": "5"}),
]


def yowasp_dir():
    return os.environ.get("WEFT_YOWASP_DIR", DEFAULT_YOWASP_DIR)


def tool(name):
    """The command line that runs yowasp tool `name` (yosys, nextpnr-ecp5), or None."""
    d = yowasp_dir()
    exe = os.path.join(d, "bin", f"yowasp-{name}")
    if os.access(exe, os.X_OK):
        return [exe]
    found = shutil.which(f"yowasp-{name}")
    return [found] if found else None


def tool_env():
    """The environment a yowasp tool runs in (its Python packages on the path)."""
    env = dict(os.environ)
    d = yowasp_dir()
    if os.path.isdir(d):
        env["PYTHONPATH"] = d + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def yosys_command(given=None):
    """The Yosys to run: the one given, else yowasp's, else Debian's; None if none is."""
    if given:
        return [given]
    debian = shutil.which("yosys")
    return tool("yosys") or ([debian] if debian else None)


def version(cmd):
    try:
        out = subprocess.run(cmd + ["-V"], capture_output=True, text=True, env=tool_env(),
                             timeout=300).stdout.strip()
        return out.split(" (")[0] if out else " ".join(cmd)
    except (OSError, subprocess.TimeoutExpired):
        return " ".join(cmd)


def stage(workdir, sources, includes=()):
    """Copy the sources and the include directories' headers into workdir; returns the
    sources' names there, in order. Two sources of one name are an error: the flat copy
    would lose one."""
    os.makedirs(workdir, exist_ok=True)
    names = []
    for src in sources:
        base = os.path.basename(src)
        if base in names:
            raise RuntimeError(f"two sources named {base}")
        shutil.copyfile(src, os.path.join(workdir, base))
        names.append(base)
    for d in includes:
        for f in sorted(os.listdir(d)):
            if f.endswith((".svh", ".vh")) and f not in names:
                shutil.copyfile(os.path.join(d, f), os.path.join(workdir, f))
    return names


def run(cmd, workdir, log, timeout=None, what=None):
    """Runs a tool in workdir with its output in log; raises RuntimeError (what failed,
    the log's tail) when it fails."""
    with open(log, "w") as f:
        try:
            rc = subprocess.run(cmd, cwd=workdir, stdout=f, stderr=subprocess.STDOUT,
                                env=tool_env(), timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
    if rc != 0:
        with open(log) as f:
            tail = "".join(f.readlines()[-25:])
        raise RuntimeError(f"{what or os.path.basename(cmd[0]) + ' failed'} (exit {rc}), "
                           f"see {log}\n{tail}")


def reads(names, defines=("SYNTHESIS",)):
    defs = "".join(f" -D{d}" for d in defines)
    return f"read_verilog -sv{defs} " + " ".join(names)


def chparams(params):
    return "".join(f" -chparam {k} {v}" for k, v in (params or {}).items())


def ports(yosys, workdir, names, top, params):
    """The top's ports, {name: (direction, width)}, from a Yosys run in workdir."""
    script = os.path.join(workdir, "ports.ys")
    with open(script, "w") as f:
        f.write(f"{reads(names)}\nhierarchy -check -top {top}{chparams(params)}\n"
                "proc\nwrite_json ports.json\n")
    run(yosys + ["-q", "ports.ys"], workdir, os.path.join(workdir, "ports.log"))
    with open(os.path.join(workdir, "ports.json")) as f:
        mods = json.load(f)["modules"]
    mod = next(m for m, v in mods.items() if v.get("attributes", {}).get("top"))
    return {n: (p["direction"], len(p["bits"])) for n, p in mods[mod]["ports"].items()}


# The simulation hints of Weft's blocks (docs/architecture.md, "Holding"): outputs that
# only tell the simulator when it may skip work, and the count of skipped edges it gives
# back. A board leaves the outputs open and ties the input to 0, so a board build of a
# block (board_wrapper(), harness()) goes without them, and without the logic that only
# they use.
HINT_INPUTS = ("skip_i",)
HINT_OUTPUTS = ("quiet_o", "hold_o", "still_o", "idle_o", "slot_idle_o")


def _split_ports(port_list, clock, reset, board):
    """(inputs, outputs, hint connections) of an instance of the top: the inputs and
    outputs a board drives and uses, [(name, width)], and with board the hints' own
    connections (inputs to 0, outputs open)."""
    hints = HINT_INPUTS + HINT_OUTPUTS if board else ()
    ins = [(n, w) for n, (d, w) in port_list.items()
           if d == "input" and n not in (clock, reset) and n not in hints]
    outs = [(n, w) for n, (d, w) in port_list.items() if d == "output" and n not in hints]
    tied = [f".{n}('0)" for n, (d, _) in port_list.items() if d == "input" and n in hints]
    tied += [f".{n}()" for n, (d, _) in port_list.items() if d == "output" and n in hints]
    return ins, outs, tied


def _instance(top, params, conns):
    plist = ", ".join(f".{k}({v})" for k, v in (params or {}).items())
    head = f"{top} #({plist})" if plist else top
    return f"{head} u_dut ({', '.join(conns)});"


def board_wrapper(top, params, port_list, name="weft_board_top"):
    """The top as a board builds it: a module `name` with the top's ports but the
    simulation hints, which it ties to 0 (inputs) or leaves open (outputs)."""
    ins, outs, tied = _split_ports(port_list, None, None, board=True)
    decl = [f"input logic [{w - 1}:0] {n}" for n, w in ins] + \
        [f"output logic [{w - 1}:0] {n}" for n, w in outs]
    conns = [f".{n}({n})" for n, _ in ins + outs] + tied
    return "\n".join([
        "// Generated by tools/synth_flow.py: the area report's board build of a block.",
        f"module {name} (", "  " + ",\n  ".join(decl), ");",
        f"  {_instance(top, params, conns)}", "endmodule", ""])


def harness(top, params, port_list, clock="clk_i", reset="rst_ni", board=True):
    """An out-of-context harness: every input of the top comes from a register of one
    shift chain fed by a single pin, every output goes into a register and all of them
    are folded by XOR into a single registered pin. The block's paths then start and end
    at registers, as in a design around it, and the pins (a package has a few hundred)
    do not limit what can be placed; nothing of the block is left unused. With board, the
    simulation hints are left out as a board leaves them (HINT_INPUTS, HINT_OUTPUTS)."""
    ins, outs, tied = _split_ports(port_list, clock, reset, board)
    nin = max(2, sum(w for _, w in ins))
    nout = max(1, sum(w for _, w in outs))
    conns = [f".{clock}(clk_i)"] + ([f".{reset}(rst_ni)"] if reset in port_list else []) + tied
    off = 0
    for n, w in ins:
        conns.append(f".{n}(in_q[{off + w - 1}:{off}])")
        off += w
    off = 0
    for n, w in outs:
        conns.append(f".{n}(out_d[{off + w - 1}:{off}])")
        off += w
    return "\n".join([
        "// Generated by tools/synth_flow.py: the timing report's out-of-context harness.",
        "module weft_ooc_top (input logic clk_i, input logic rst_ni, input logic din_i,",
        "                     output logic dout_o);",
        f"  logic [{nin - 1}:0] in_q;",
        f"  logic [{nout - 1}:0] out_d, out_q;",
        "  always_ff @(posedge clk_i) begin",
        f"    in_q <= {{in_q[{nin - 2}:0], din_i}};",
        "    out_q <= out_d;",
        "    dout_o <= ^out_q;",
        "  end",
        f"  {_instance(top, params, conns)}",
        "endmodule",
        ""])
