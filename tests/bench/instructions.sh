#!/usr/bin/env bash
# Instructions per simulated second (callgrind: counts instructions, not
# seconds, so the figure repeats whatever else the machine is doing) of
# the main job: kunpeng920, netperf TCP_RR at 100 %, sis_util, 100 ms of
# warmup + 50 ms measured. One line per build given: instructions, engine
# events, instructions per event, instructions per simulated second, and
# the ratio to the first build. Needs valgrind. Never in CI.
#   tests/bench/instructions.sh BUILD_DIR [BUILD_DIR...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [BUILD_DIR...]" >&2; exit 2; }
command -v valgrind > /dev/null || { echo "$0: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sim_s=0.15
printf '%-40s %16s %12s %10s %18s %8s\n' build instructions events insn/event insn/sim-second ratio
first=
for b in "$@"; do
	bin=$(cd "$b" && pwd)/simsched
	[ -x "$bin" ] || { echo "$0: no simsched in $b" >&2; exit 1; }
	(cd "$tmp" && valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$bin" run \
		-t "$root/topologies/kunpeng920.yaml" -w "$root/workloads/netperf-tcp-rr.yaml" -p sis_util --load 100% \
		--warmup 100ms --duration 50ms --quiet --json "$tmp/r.json" 2> "$tmp/vg.err") || { cat "$tmp/vg.err" >&2; exit 1; }
	insn=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/vg.err")
	events=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["engine"]["events"])' "$tmp/r.json")
	first=${first:-$insn}
	python3 - "$b" "$insn" "$events" "$sim_s" "$first" <<'PY'
import sys
b, insn, ev, sim, first = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
print(f"{b[-40:]:<40} {insn:>16,} {ev:>12,} {insn/ev:>10.0f} {insn/sim:>18,.0f} {first/insn:>7.2f}x")
PY
done
