#!/usr/bin/env python3
"""weftd_demo.py: `make weftd-demo` (docs/server.md).

Starts weftd with a configuration on a socket of its own, runs the C client
(weftd-client-demo) and the Python client (weftd_client_demo.py) at the same time against
it, both using both partitions, then stops the server with SIGTERM. Exit 0 when the server
started and stopped cleanly and both clients' results matched their references.

usage: weftd_demo.py --build DIR [--rounds N] [--quiet]
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True, help="the build directory")
    ap.add_argument("--config", help="weftd's configuration (default: the build's example)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    config = args.config or os.path.join(build, "server", "weftd-example.json")
    sys.path.insert(0, os.path.join(build, "python"))
    import weftd
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"))
    failed = 0
    with weftd.Server(os.path.join(build, "server", "weftd"), config) as srv:
        print(srv.banner, end="")
        common = ["--socket", srv.socket, "--rounds", str(args.rounds)] + (
            ["--quiet"] if args.quiet else [])
        c_client = subprocess.Popen([os.path.join(build, "apps", "weftd-client-demo")] + common,
                                    stdout=subprocess.PIPE, text=True)
        py_client = subprocess.Popen([sys.executable, os.path.join(HERE, "weftd_client_demo.py")]
                                     + common, stdout=subprocess.PIPE, text=True, env=env)
        for name, p in (("C client", c_client), ("Python client", py_client)):
            out = p.communicate()[0]
            print("---- %s (exit %d)" % (name, p.returncode))
            print(out, end="")
            failed += p.returncode != 0
    print(srv.closing, end="")
    print("weftd_demo.py: %s" % ("ok: both clients' results matched" if not failed
                                 else "FAILED"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
