#!/bin/bash
# install.out_of_tree: Weft installed to a fresh prefix serves a program and a hardware
# thread built outside the tree (docs/install.md):
#   1. cmake --install of this build into a temporary prefix;
#   2. examples/out-of-tree, copied out of the tree, configured with find_package(Weft)
#      only, built (its thread verilated by weft_add_hw_thread) and run: it checks its
#      sums itself;
#   3. apps/hello built with nothing but pkg-config against the prefix, run with an
#      installed image;
#   4. the installed libweft_sim.so takes its default image directory from where it
#      lies (the prefix's lib/weft/images), not from the build it came from;
#   5. the installed Python package runs an installed image;
#   6. the installed weft command: a thread made by `weft new-thread` builds and passes its
#      test bench and its program as made, and `weft info` names the build's platform;
#   7. a thread with one port more than the slot boundary fails the configure with a
#      message that names the boundary and the port.
#
# usage: out_of_tree_test.sh BUILD_DIR SOURCE_DIR GENERATOR PYTHON
set -euo pipefail
build=$1 src=$2 generator=$3 python=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/weft-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

echo "== cmake --install into $prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null

echo "== examples/out-of-tree, from a copy"
cp -r "$src/examples/out-of-tree" "$work/app"
rm -rf "$work/app/build" # a build someone made in the example's directory is not ours
cmake -S "$work/app" -B "$work/app/build" -G "$generator" -DCMAKE_PREFIX_PATH="$prefix" \
    >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/app/build" >"$work/build.log" || { cat "$work/build.log"; exit 1; }
"$work/app/build/sum-blocks"

echo "== apps/hello with pkg-config"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
cc -std=c11 -Wall -Werror -o "$work/hello" "$src/apps/hello/hello.c" \
    $(pkg-config --cflags --libs weft-sim) -Wl,-rpath,"$prefix/lib"
"$work/hello" "$prefix/lib/weft/images/hwt_task_fib.so"

echo "== the installed library's image directory"
dir=$("$python" -c 'import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
lib.weft_sim_installed_image_dir.restype = ctypes.c_char_p
print(lib.weft_sim_installed_image_dir().decode())' "$prefix/lib/libweft_sim.so")
if [ "$(realpath "$dir")" != "$(realpath "$prefix/lib/weft/images")" ]; then
    echo "installed libweft_sim.so looks for images in $dir, not $prefix/lib/weft/images" >&2
    exit 1
fi
echo "$dir"

echo "== the installed Python package"
PYTHONPATH=$prefix/lib/python3/dist-packages PYTHONDONTWRITEBYTECODE=1 "$python" - "$prefix" <<'PY'
import sys, weft, weftd
with weft.Fabric() as fab:
    t = fab.hwthread(sys.argv[1] + "/lib/weft/images/hwt_task_fib.so", init_data=30)
    st = t.join(timeout=60)
    assert (st.kind, st.value) == ("normal", 832040), st
    print("F(30) =", st.value, "from the installed package; weftd client", weftd.__name__)
PY

echo "== weft new-thread, built and tested as made"
(cd "$work" && "$prefix/bin/weft" new-thread hwt_made >/dev/null)
cmake -S "$work/hwt_made" -B "$work/hwt_made/build" -G "$generator" -DCMAKE_PREFIX_PATH="$prefix" \
    >"$work/made.log" 2>&1 && cmake --build "$work/hwt_made/build" >>"$work/made.log" 2>&1 ||
    { cat "$work/made.log"; exit 1; }
ctest --test-dir "$work/hwt_made/build" --output-on-failure >"$work/made-test.log" 2>&1 ||
    { cat "$work/made-test.log"; exit 1; }
tail -1 "$work/made-test.log"
"$prefix/bin/weft" info >"$work/info.txt"
grep -q "^platform .*share/weft/platform/platform.yaml): [0-9]* slots at" "$work/info.txt" ||
    { cat "$work/info.txt"; exit 1; }
head -1 "$work/info.txt"

echo "== a thread off the slot boundary"
# busy_o is driven, so the thread itself is clean: only the boundary is wrong.
sed -i -e 's/`include "weft_slot_ports.svh"/`include "weft_slot_ports.svh",\n  output logic busy_o/' \
    -e 's/^endmodule/  assign busy_o = 1'"'"'b0;\nendmodule/' "$work/app/hwt_sum.sv"
if cmake -S "$work/app" -B "$work/bad" -G "$generator" -DCMAKE_PREFIX_PATH="$prefix" \
    >"$work/bad.log" 2>&1; then
    echo "a thread with an extra port configured without an error" >&2
    exit 1
fi
grep -q "does not match the slot boundary" "$work/bad.log" && grep -q "busy_o" "$work/bad.log" ||
    { cat "$work/bad.log"; exit 1; }
echo "refused, naming the boundary and busy_o"
