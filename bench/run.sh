#!/usr/bin/env bash
# Run every benchmark, both case studies and the area synthesis, then bench/report.py.
#
#   bench/run.sh BUILD_DIR          the full run of `make bench`: BUILD_DIR/bench/
#   bench/run.sh BUILD_DIR --quick  every program with tiny settings and the report, end to
#                                   end, in BUILD_DIR/bench/quick/ (`make bench QUICK=1`,
#                                   and the test bench.quick): it proves the bench runs,
#                                   its figures mean nothing
#
# Benchmarks print figures and write JSON; they assert nothing (docs/benchmarks.md). A
# program that fails stops the run with its exit status.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 || ( $# -eq 2 && "$2" != "--quick" ) ]]; then
  echo "usage: bench/run.sh BUILD_DIR [--quick]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
quick=${2:-}
src=$(cd "$(dirname "$0")/.." && pwd)
python=/usr/bin/python3
bin=$build/bench
apps=$build/apps

if [[ -n "$quick" ]]; then
  out=$build/bench/quick
  os_args=(--reps 3)
  sched_args=(--reps 5)
  cbis_args=(--reps 5)
  softcore_args=(--quick)
  comm_args=(--reps 1)
  sim_args=(--window 0.1 --idle 0.1 --reps 1)
  sort_args=(--chunks 8 --words 256)
  image_args=(--config all --w 3 --block 40 --frames 1)
  reconf_args=(--reps 1)
  workload_args=(--rounds 2 --threads 2)
  weftd_args=(--reps 1)
  rta_args=(--sets 1 --jobs 2)
  trace_frames=1
  # Two slots, one link, 16 thread ids and 4 objects: every static-region module, the only
  # synthesis `make test` runs (the full size's thread manager alone takes over a minute).
  area_args=(--quick --param NumSlots=2 --param NumLinks=1 --param TmThreads=16
             --param SyncObjs=4)
else
  out=$build/bench
  os_args=()
  sched_args=()
  cbis_args=()
  softcore_args=()
  comm_args=()
  sim_args=()
  sort_args=()
  image_args=(--config all --w 3,5 --block 4,8,20,40,80 --frames 12)
  reconf_args=()
  workload_args=(--rounds 12 --threads 4)
  weftd_args=()
  rta_args=(--sets 6 --jobs 10)
  trace_frames=4
  area_args=()
fi
mkdir -p "$out"

step() {
  local start=$SECONDS
  echo "== $*"
  "$@"
  echo "== $(($SECONDS - start)) s"
}

step "$bin/weft-bench-os-overhead" "${os_args[@]}" --out "$out/os_overhead.json"
step "$bin/weft-bench-sched-ops" "${sched_args[@]}" --out "$out/sched_ops.json"
step "$bin/weft-bench-cbis" "${cbis_args[@]}" --out "$out/cbis_delay.json"
step "$bin/weft-bench-softcore" "${softcore_args[@]}" --out "$out/softcore.json"
step "$bin/weft-bench-communication" "${comm_args[@]}" --out "$out/communication.json"
step "$bin/weft-bench-sim-speed" "${sim_args[@]}" --out "$out/sim_speed.json"
step "$bin/weft-bench-reconfiguration" "${reconf_args[@]}" --out "$out/reconfiguration.json"
step "$apps/weft-reconf" "${workload_args[@]}" --quiet --json "$out/reconf_workload.json"
step "$bin/weft-bench-weftd" "${weftd_args[@]}" --out "$out/weftd.json"
step "$python" "$src/bench/weftd_rta.py" --build "$build" "${rta_args[@]}" --out "$out/weftd_rta.json"
step "$apps/weft-sort" "${sort_args[@]}" --sync both --json "$out/sort_study.json" --trace "$out/sort_trace"
step "$apps/weft-image" "${image_args[@]}" --json "$out/image_study.json"
for c in a d; do
  config=$([[ $c == a ]] && echo sw-sw-sw || echo sw-hw-hw-db)
  step "$apps/weft-image" --config "$config" --frames "$trace_frames" \
    --trace "$out/image_trace_$c.json"
  step "$python" "$src/tools/trace_plot.py" "$out/image_trace_$c.json" \
    "$out/image_timeline_$c.png" --title "image pipeline, configuration $c"
done
# The build's arguments first: a later --param overrides an earlier one.
step "$python" "$src/tools/area_report.py" @"$build/bench/area_args.txt" "${area_args[@]}" \
  --out "$out/area" --json "$out/area.json"
# Place and route (tools/timing_report.py) is `make timing`'s: longer than the rest of the
# bench together. The quick run places one small thread, to prove the flow runs; the
# full run's report shows the figures of the last `make timing` (build/bench/timing.json).
if [[ -n "$quick" ]]; then
  step "$python" "$src/tools/timing_report.py" @"$build/bench/area_args.txt" --only hwt_bad \
    --out "$out/timing" --json "$out/timing.json"
fi
step "$python" "$src/bench/report.py" "$out"
echo "bench: report in $out/report.md"
