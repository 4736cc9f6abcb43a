#!/usr/bin/env python3
"""Validate a Weft platform description and generate what the build needs from it.

Usage: gen_platform.py DESCRIPTION.yaml [--cmake OUT.cmake] [--c-header OUT.h]
                      [--area AREA.json]

The description (platform/default.yaml) is the one place where the fabric's slots, the
hardware links between them, the DMA region and the per-slot options are written down.
It is checked against platform/description.schema.json (structure, types, ranges) and
then for what a schema cannot say (links between existing, distinct slots; unique link
names; the DMA region inside the 32-bit bus; partitions of existing slots, each slot in
at most one, none empty; tasks of existing partitions; the OS services: events only with
the thread manager, partitions only with the reconfiguration port, the synchronisation
manager's clients at most 32; with --area, the area report of
tools/area_report.py, every task's image within its partition's slot shape). Every
problem is reported as `FILE:LINE: field.path: what is wrong`.

Outputs:
  --cmake     CMake variables: the static region's parameters as Verilator -G options
              and as Yosys parameters, the slot count and the DMA region.
  --c-header  weft/platform_config.h: the same facts for C (simulation defaults, link
              numbers by name, partitions and their slots), every one with a Doxygen
              comment: the header is part of the API reference (docs/Doxyfile).
"""
import argparse
import json
import pathlib
import sys

import jsonschema  # Debian python3-jsonschema: schema checks with precise error paths
import yaml  # Debian python3-yaml: the YAML parser, with node positions for messages

SCHEMA = pathlib.Path(__file__).resolve().parent.parent / "platform" / "description.schema.json"

# Limits fixed by the register window (protocol/osif.yaml): 24 LINK_INFO entries, four
# WIN_* windows and eight LINK_BIND entries per slot.
MAX_LINKS = 24
SLOT_DEFAULTS = {"osif_depth": 16, "mem_windows": 2, "link_binds": 4}
LINK_DEFAULT_DEPTH = 64
# The reconfiguration port's rate unless a description sets one: FRED's measured PCAP,
# 338 KB in 2.755 ms at 100 MHz.
FRI_DEFAULT_BYTES_PER_CYCLE = 1.2
# The OS services and their sizes unless a description says (docs/platform.md,
# "Services"): a description without a services section gets every one.
SERVICE_DEFAULTS = {
    "sync": {"objects": 32, "sw_contexts": 4},
    "threads": {"threads": 256, "priorities": 128},
    "events": {"timers": 4},
    "reconfiguration": {"bytes_per_cycle": FRI_DEFAULT_BYTES_PER_CYCLE},
}
# The synchronisation manager's clients: the slots, then the software contexts.
SYNC_MAX_CLIENTS = 32
# SERVICES register bits (protocol/osif.yaml, WEFT_SERVICE_*).
SERVICE_BITS = {"sync": 0x1, "threads": 0x2, "events": 0x4, "reconfiguration": 0x8, "links": 0x10}


class DescriptionError(Exception):
    """One or more problems, each already formatted as FILE:LINE: path: message."""


def _path_text(path):
    text = ""
    for p in path:
        text += f"[{p}]" if isinstance(p, int) else (f".{p}" if text else str(p))
    return text or "(top level)"


def _line_of(node, path):
    """Line (1-based) of the YAML node at path, or of the deepest node that exists."""
    for p in path:
        if isinstance(node, yaml.MappingNode):
            nxt = next((v for k, v in node.value if k.value == p), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(p, int) and p < len(node.value):
            nxt = node.value[p]
        else:
            nxt = None
        if nxt is None:
            break
        node = nxt
    return node.start_mark.line + 1


def load(path):
    """Parse and validate a description; returns it with every default filled in."""
    text = pathlib.Path(path).read_text(encoding="utf-8")
    try:
        root = yaml.compose(text)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        raise DescriptionError(f"{path}:{line}: not valid YAML: {getattr(exc, 'problem', exc)}")
    if root is None:
        raise DescriptionError(f"{path}:1: the file is empty")

    problems = []

    def report(where, message):
        problems.append((_line_of(root, where), f"{path}:{_line_of(root, where)}: {_path_text(where)}: {message}"))

    if isinstance(data, dict) and "reconfiguration" in data:  # where it was before services
        report(["reconfiguration"], "the reconfiguration port is one of the services now: "
                                    "write it as services: {reconfiguration: {...}}")
        data = {k: v for k, v in data.items() if k != "reconfiguration"}
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    for err in validator.iter_errors(data):
        report(list(err.absolute_path), err.message)
    if problems:
        raise DescriptionError("\n".join(m for _, m in sorted(problems)))

    slots = [dict(SLOT_DEFAULTS, **s) for s in data["slots"]]
    links = [dict({"depth": LINK_DEFAULT_DEPTH}, **l) for l in data.get("links", [])]
    nslots = len(slots)
    _check_unique_names(links, "links", report)
    for i, link in enumerate(links):
        for end in ("from", "to"):
            if link[end] >= nslots:
                report(["links", i, end], f"{link[end]} is not a slot of this platform (slots 0-{nslots - 1})")
        if link["from"] == link["to"]:
            report(["links", i, "to"], f"a link joins two different slots; both ends are slot {link['to']}")
    dma = data["dma"]
    if dma["bus_base"] + dma["size"] > 1 << 32:
        report(["dma", "size"], f"the region {dma['bus_base']:#x} + {dma['size']:#x} ends past the 32-bit bus")
    partitions = data.get("partitions", [])
    tasks = data.get("tasks", [])
    _check_partitions(partitions, tasks, nslots, report)
    services = _services(data, nslots, report)
    for part in partitions:
        part["mask"] = sum(1 << s for s in part["slots"])  # the slots, bit i: slot i
    if problems:
        raise DescriptionError("\n".join(m for _, m in sorted(problems)))
    # The port's rate as FRI_RATE holds it: bytes a cycle in 8.8 fixed point.
    rate = services.get("reconfiguration", SERVICE_DEFAULTS["reconfiguration"])["bytes_per_cycle"]
    fri_rate = max(1, round(rate * 256))
    return {"name": data["name"], "clock_mhz": data["clock_mhz"], "dma": dma, "slots": slots, "links": links,
            "fri_rate": fri_rate, "services": services,
            "partitions": partitions, "tasks": tasks, "root": root, "path": str(path)}


def _services(data, nslots, report):
    """The services the static region holds, each with every size filled in; checks what
    a schema cannot say (events need threads, partitions the reconfiguration port, the
    manager's clients fit in 32)."""
    if "services" not in data:
        return {name: dict(size) for name, size in SERVICE_DEFAULTS.items()}
    services = {name: dict(SERVICE_DEFAULTS[name], **(size or {}))
                for name, size in data["services"].items()}
    if "events" in services and "threads" not in services:
        report(["services", "events"], "events signal managed threads: the platform needs services.threads too")
    if "reconfiguration" not in services:
        for section in ("partitions", "tasks"):
            if data.get(section):
                report([section], f"{section} are loaded through the reconfiguration port: the platform needs "
                                  "services.reconfiguration")
    sync = services.get("sync")
    if sync and nslots + sync["sw_contexts"] > SYNC_MAX_CLIENTS:
        report(["services", "sync", "sw_contexts"],
               f"the manager has {SYNC_MAX_CLIENTS} clients: {nslots} slots leave room for "
               f"{max(0, SYNC_MAX_CLIENTS - nslots)} software contexts, not {sync['sw_contexts']}")
    return services


def services_mask(desc):
    """What the SERVICES register of the platform's static region reads."""
    mask = sum(SERVICE_BITS[name] for name in desc["services"])
    return mask | (SERVICE_BITS["links"] if desc["links"] else 0)


def _check_unique_names(items, section, report):
    """Every item of a section has its own name."""
    first = {}
    for i, item in enumerate(items):
        if item["name"] in first:
            report([section, i, "name"], f"'{item['name']}' already names {section}[{first[item['name']]}]")
        first.setdefault(item["name"], i)


def _check_partitions(partitions, tasks, nslots, report):
    """Partitions of existing slots, a slot in at most one, none empty; tasks of existing
    partitions; unique names."""
    _check_unique_names(partitions, "partitions", report)
    _check_unique_names(tasks, "tasks", report)
    names = {p["name"] for p in partitions}
    owner = {}
    for i, part in enumerate(partitions):
        if not part["slots"]:
            report(["partitions", i, "slots"], "a partition has at least one slot")
        for j, slot in enumerate(part["slots"]):
            if slot >= nslots:
                report(["partitions", i, "slots", j], f"{slot} is not a slot of this platform (slots 0-{nslots - 1})")
            elif slot in owner:
                report(["partitions", i, "slots", j], f"slot {slot} is already in partition '{owner[slot]}'")
            else:
                owner[slot] = part["name"]
    for i, task in enumerate(tasks):
        if task["partition"] not in names:
            known = ", ".join(p["name"] for p in partitions) or "none"
            report(["tasks", i, "partition"], f"'{task['partition']}' is not a partition of this platform ({known})")


# What a slot shape offers, and the area report's figure for it (tools/area_report.py):
# the benchmark record's key, then the report's own.
SHAPE_AREA = (("lut", ("lut_total", "luts_total"), "LUTs"), ("ff", ("ff", "ffs"), "flip-flops"),
              ("bram36", ("bram36_equivalent", "brams"), "RAMB36"), ("dsp", ("dsp", "dsps"), "DSPs"))


def _area_entries(area_path):
    """Module name -> figures, from either file tools/area_report.py writes (its report,
    with the threads apart, or the benchmark record)."""
    try:
        doc = json.loads(pathlib.Path(area_path).read_text(encoding="utf-8"))
        entries = dict(doc["modules"])
        entries.update(doc.get("threads", {}))
        return entries
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise DescriptionError(f"{area_path}: not an area report of tools/area_report.py ({exc})")


def _figure(entry, keys):
    for k in keys:
        if isinstance(entry.get(k), (int, float)):
            return entry[k]
    return None


def check_fits(desc, area_path):
    """Every task's image within a slot of its partition, by the area report."""
    modules = _area_entries(area_path)
    shapes = {p["name"]: p["shape"] for p in desc["partitions"]}
    problems = []
    for i, task in enumerate(desc["tasks"]):
        where = ["tasks", i, "image"]
        line = _line_of(desc["root"], where)
        prefix = f"{desc['path']}:{line}: {_path_text(where)}"
        if task["image"] not in modules:
            problems.append(f"{prefix}: {task['image']} is not in the area report {area_path}")
            continue
        need, offer = modules[task["image"]], shapes[task["partition"]]
        if not isinstance(need, dict) or any(_figure(need, keys) is None for _, keys, _ in SHAPE_AREA):
            why = need.get("error") or ("skipped" if need.get("skipped") else "no figures") \
                if isinstance(need, dict) else "no figures"
            problems.append(f"{prefix}: the area report has no area of {task['image']} ({why})")
            continue
        for key, keys, unit in SHAPE_AREA:
            have = _figure(need, keys)
            if have > offer[key]:
                problems.append(f"{prefix}: {task['image']} needs {have:,} {unit}, a slot of "
                                f"partition '{task['partition']}' offers {offer[key]:,}")
    if problems:
        raise DescriptionError("\n".join(problems))


def _packed(values, width, count=None):
    """A Verilog constant holding `values` as fields of `width` bits, element 0 lowest."""
    count = len(values) if count is None else count
    total = 0
    for i, v in enumerate(values):
        total |= v << (i * width)
    return f"{count * width}'h{total:x}"


def rtl_params(desc):
    """weft_static's parameters for this platform, in declaration order."""
    slots, links, svc = desc["slots"], desc["links"], desc["services"]
    return [
        ("NumSlots", str(len(slots))),
        ("NumLinks", str(len(links))),
        ("ClockMhz", str(desc["clock_mhz"])),
        ("SlotOsifDepth", _packed([s["osif_depth"] for s in slots], 16)),
        ("SlotWindows", _packed([s["mem_windows"] for s in slots], 4)),
        ("SlotBinds", _packed([s["link_binds"] for s in slots], 4)),
        ("LinkSrc", _packed([l["from"] for l in links], 8, MAX_LINKS)),
        ("LinkDst", _packed([l["to"] for l in links], 8, MAX_LINKS)),
        ("LinkDepth", _packed([l["depth"] for l in links], 16, MAX_LINKS)),
        ("FriRate", f"16'd{desc['fri_rate']}"),
        ("SyncObjs", str(svc.get("sync", {}).get("objects", 0))),
        ("SyncSwCtx", str(svc.get("sync", {}).get("sw_contexts", 0))),
        ("TmThreads", str(svc.get("threads", {}).get("threads", 0))),
        ("TmPrios", str(svc.get("threads", SERVICE_DEFAULTS["threads"])["priorities"])),
        ("TmEvents", str(int("events" in svc))),
        ("TmTimers", str(svc.get("events", {}).get("timers", 0))),
        ("Fri", str(int("reconfiguration" in svc))),
    ]


def cmake_text(desc, src):
    params = rtl_params(desc)
    out = [f"# Generated by tools/gen_platform.py from {src}. Do not edit: change the description."]
    out.append(f'set(WEFT_PLATFORM_NAME "{desc["name"]}")')
    out.append(f"set(WEFT_PLATFORM_NUM_SLOTS {len(desc['slots'])})")
    out.append(f"set(WEFT_PLATFORM_DMA_SIZE {desc['dma']['size']})")
    out.append(f"set(WEFT_PLATFORM_DMA_BUS {desc['dma']['bus_base']})")
    out.append("set(WEFT_PLATFORM_VERILATOR_PARAMS")
    out += [f'  "-G{name}={value}"' for name, value in params]
    out.append(")")
    out.append("set(WEFT_PLATFORM_YOSYS_PARAMS")
    out += [f'  "{name}={value}"' for name, value in params]
    out.append(")")
    out.append("# Hardware tasks: name, image, partition, the partition's slots (bit i: slot i).")
    out.append("set(WEFT_PLATFORM_TASKS")
    masks = {p["name"]: p["mask"] for p in desc["partitions"]}
    out += [f'  "{t["name"]}:{t["image"]}:{t["partition"]}:{masks[t["partition"]]}"' for t in desc["tasks"]]
    out.append(")")
    return "\n".join(out) + "\n"


def c_header_text(desc, src):
    out = []
    w = out.append
    w("/**")
    w(" * @file platform_config.h")
    w(" * @brief The platform the build is for: its slots, fabric clock, DMA region, hardware")
    w(" *        links, partitions and hardware tasks.")
    w(" *")
    w(f" * Generated from the platform description {src} by tools/gen_platform.py, which")
    w(" * also gives the static region its parameters from it, so that software and fabric")
    w(" * agree (docs/platform.md explains every field; the CMake cache variable WEFT_PLATFORM")
    w(" * names the description, platform/default.yaml unless set). Do not edit: change the")
    w(" * description.")
    w(" */")
    w("#ifndef WEFT_PLATFORM_CONFIG_H")
    w("#define WEFT_PLATFORM_CONFIG_H")
    w("")
    w(f'#define WEFT_PLATFORM_NAME "{desc["name"]}" /**< the platform\'s name, from its description */')
    w(f"#define WEFT_PLATFORM_NUM_SLOTS {len(desc['slots'])}u /**< slots of the fabric, numbered from 0 */")
    w(f"#define WEFT_PLATFORM_CLOCK_MHZ {desc['clock_mhz']}u "
      "/**< nominal fabric clock in MHz; the static region times link calls with it */")
    w(f"#define WEFT_PLATFORM_DMA_SIZE {desc['dma']['size']:#x}u "
      "/**< bytes of the DMA region, the memory shared by the CPU and the hardware threads */")
    w(f"#define WEFT_PLATFORM_DMA_BUS {desc['dma']['bus_base']:#x}u /**< bus address of the DMA region's first byte */")
    w(f"#define WEFT_PLATFORM_NUM_LINKS {len(desc['links'])}u /**< hardware links between slots (WEFT_LINK_*) */")
    w(f"/** FRI_RATE after reset: {desc['fri_rate'] / 256:.3f} bytes a cycle, 8.8 fixed point: how fast the")
    w(" *  reconfiguration port takes a bitstream (WEFT_REG_FRI_RATE). */")
    w(f"#define WEFT_PLATFORM_FRI_RATE {desc['fri_rate']}u")
    names = ", ".join(sorted(desc["services"])) or "none"
    w(f"/** The OS services of the static region ({names}): what WEFT_REG_SERVICES reads,")
    w(" *  WEFT_SERVICE_* bits (docs/platform.md, \"Services\"). */")
    w(f"#define WEFT_PLATFORM_SERVICES {services_mask(desc):#x}u")
    w("")
    w("/* Hardware links by name: the number weft_link_get() takes. */")
    for i, l in enumerate(desc["links"]):
        w(f"#define WEFT_LINK_{l['name'].upper()} {i}u /**< hardware link {l['name']}: "
          f"slot {l['from']} -> slot {l['to']}, {l['depth']} words */")
    w("")
    w("/* Partitions by name: their number, and their slots (bit i: slot i). */")
    w(f"#define WEFT_PLATFORM_NUM_PARTITIONS {len(desc['partitions'])}u "
      "/**< partitions, groups of slots that hardware tasks are loaded into */")
    for i, p in enumerate(desc["partitions"]):
        w(f"#define WEFT_PARTITION_{p['name'].upper()} {i}u "
          f"/**< partition {p['name']}: its index in WEFT_PLATFORM_PARTITION_LIST */")
        w(f"#define WEFT_SLOTS_OF_{p['name'].upper()} {p['mask']:#x}u "
          f"/**< slots of partition {p['name']} (bit i: slot i) */")
    w("")
    w("/** A hardware task of the description: a thread image and the partition whose slots it")
    w(" *  is loaded into. */")
    w("typedef struct weft_platform_task {")
    w("    const char *name;   /**< the task's name */")
    w("    const char *image;  /**< the thread image's name: NAME.so in the image directory, its bitstream "
      "NAME.wbit */")
    w("    unsigned partition; /**< its partition: index in WEFT_PLATFORM_PARTITION_LIST */")
    w("    int accelerator;    /**< 1: an HLS-style accelerator, docs/hls.md; 0: a Weft hardware thread */")
    w("} weft_platform_task_t;")
    w("")
    w("/** The partitions, in WEFT_PARTITION_* order, as an initialiser of an array of")
    w(" *  weft_reconf_partition_t (weft/reconf.h): name and slots. */")
    parts = ", ".join(f'{{"{p["name"]}", {p["mask"]:#x}u}}' for p in desc["partitions"])
    w(f"#define WEFT_PLATFORM_PARTITION_LIST {{{parts}}}")
    index = {p["name"]: i for i, p in enumerate(desc["partitions"])}
    w(f"#define WEFT_PLATFORM_NUM_TASKS {len(desc['tasks'])}u "
      "/**< hardware tasks of the description (entries of WEFT_PLATFORM_TASK_LIST) */")
    w("/** The hardware tasks, in the description's order, as an initialiser of an array of")
    w(" *  weft_platform_task_t. */")
    tasks = ", ".join(f'{{"{t["name"]}", "{t["image"]}", {index[t["partition"]]}u, '
                      f'{int(t.get("kind") == "accelerator")}}}' for t in desc["tasks"])
    w(f"#define WEFT_PLATFORM_TASK_LIST {{{tasks}}}")
    w("")
    w("#endif /* WEFT_PLATFORM_CONFIG_H */")
    return "\n".join(out) + "\n"


def write_if_changed(path, text):
    """Leave an up-to-date output untouched, so a reconfigure rebuilds nothing."""
    p = pathlib.Path(path)
    if p.exists() and p.read_text(encoding="utf-8") == text:
        return
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("description")
    ap.add_argument("--cmake")
    ap.add_argument("--c-header")
    ap.add_argument("--area", help="area report (tools/area_report.py JSON): check that every task fits")
    args = ap.parse_args(argv)
    try:
        desc = load(args.description)
        if args.area:
            check_fits(desc, args.area)
    except OSError as exc:
        print(f"gen_platform: {args.description}: {exc.strerror}", file=sys.stderr)
        return 1
    except DescriptionError as exc:
        print(exc, file=sys.stderr)
        return 1
    src = pathlib.Path(args.description).name
    if args.cmake:
        write_if_changed(args.cmake, cmake_text(desc, src))
    if args.c_header:
        write_if_changed(args.c_header, c_header_text(desc, src))
    return 0


if __name__ == "__main__":
    sys.exit(main())
