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
import tempfile

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
    with tempfile.TemporaryDirectory(prefix="weftd-demo-") as tmp:
        sock = os.path.join(tmp, "weftd.sock")
        server = subprocess.Popen([os.path.join(build, "server", "weftd"), "--config", config,
                                   "--socket", sock], stdout=subprocess.PIPE, text=True)
        line = server.stdout.readline()  # "weftd: serving ..." once it listens
        print(line, end="")
        if not line.startswith("weftd: serving"):
            server.wait()
            print("weftd_demo.py: weftd did not start", file=sys.stderr)
            return 1
        common = ["--socket", sock, "--rounds", str(args.rounds)] + (
            ["--quiet"] if args.quiet else [])
        env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"))
        c_client = subprocess.Popen([os.path.join(build, "apps", "weftd-client-demo")] + common,
                                    stdout=subprocess.PIPE, text=True)
        py_client = subprocess.Popen([sys.executable, os.path.join(HERE, "weftd_client_demo.py")]
                                     + common, stdout=subprocess.PIPE, text=True, env=env)
        outs = [(name, p, p.communicate()[0]) for name, p in
                (("C client", c_client), ("Python client", py_client))]
        server.terminate()
        rest = server.communicate(timeout=60)[0]
        failed = 0
        for name, p, out in outs:
            print("---- %s (exit %d)" % (name, p.returncode))
            print(out, end="")
            failed += p.returncode != 0
        print(rest, end="")
        if server.returncode != 0:
            print("weftd_demo.py: weftd exited with %d" % server.returncode, file=sys.stderr)
            failed += 1
        print("weftd_demo.py: %s" % ("ok: both clients' results matched" if not failed
                                     else "FAILED"))
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
