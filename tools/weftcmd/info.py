"""weft info: what a platform description says, as tables (or JSON): the fabric's clock
and DMA region, the OS services of its static region, each slot with its OSIF depth,
memory windows, link binds and partition, the hardware links, the partitions and the
hardware tasks."""
import json
import pathlib

from .common import CommandError


def add_parser(sub):
    p = sub.add_parser("info", help="the platform: slots, partitions, links, windows, tasks",
                       description=__doc__)
    p.add_argument("description", nargs="?",
                   help="a platform description (default: the one Weft was built for)")
    p.add_argument("--json", action="store_true", help="print it as JSON instead")
    p.set_defaults(run=run)


def default_description(root):
    # Installed: the build's description, copied as platform.yaml; the tree: its default.
    for name in ("platform.yaml", "default.yaml"):
        path = pathlib.Path(root) / "platform" / name
        if path.is_file():
            return path
    raise CommandError(f"no platform description under {root}/platform; name one")


def table(rows):
    widths = [max(len(str(r[i])) for r in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]


def run(args, root):
    import gen_platform  # the build's own loader and checks (tools/gen_platform.py)

    path = pathlib.Path(args.description) if args.description else default_description(root)
    try:
        desc = gen_platform.load(path)
    except OSError as e:
        raise CommandError(f"cannot read {path}: {e.strerror}")
    except gen_platform.DescriptionError as e:
        raise CommandError(f"{path} is not a valid platform description:\n{e}")
    desc.pop("root")
    if args.json:
        print(json.dumps(desc, indent=2))
        return 0
    part_of = {s: p["name"] for p in desc["partitions"] for s in p["slots"]}
    dma = desc["dma"]
    out = [f"platform {desc['name']} ({desc['path']}): {len(desc['slots'])} slots at "
           f"{desc['clock_mhz']} MHz",
           f"DMA region: {dma['size']:#x} bytes at bus address {dma['bus_base']:#x}",
           "", "OS services of the static region:"]
    services = desc["services"]
    out += table([("service", "size")] +
                 [(name, " ".join(f"{k}={v}" for k, v in services[name].items()) if name in services
                   else "not built")
                  for name in gen_platform.SERVICE_DEFAULTS])
    out += ["", "slots:"]
    out += table([("slot", "osif_depth", "mem_windows", "link_binds", "partition")] +
                 [(i, s["osif_depth"], s["mem_windows"], s["link_binds"], part_of.get(i, "-"))
                  for i, s in enumerate(desc["slots"])])
    if desc["links"]:
        out += ["", "hardware links:"]
        out += table([("name", "from", "to", "depth")] +
                     [(l["name"], l["from"], l["to"], l["depth"]) for l in desc["links"]])
    if desc["partitions"]:
        out += ["", "partitions:"]
        out += table([("name", "slots", "shape")] +
                     [(p["name"], ",".join(map(str, p["slots"])),
                       " ".join(f"{k}={v}" for k, v in p.get("shape", {}).items()))
                      for p in desc["partitions"]])
    if desc["tasks"]:
        out += ["", "hardware tasks:"]
        out += table([("name", "image", "partition", "kind")] +
                     [(t["name"], t["image"], t["partition"], t.get("kind", "thread"))
                      for t in desc["tasks"]])
    print("\n".join(out))
    return 0
