#!/usr/bin/env bash
# Benchmark: the main job (kunpeng920, netperf TCP_RR) on one core, printing
# events per wall second and simulated seconds per wall second for each
# policy and load. It prints; it asserts nothing (speed is not a test).
#   tests/bench/run.sh [build-dir] [simulated seconds]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
dur=${2:-2}
bin=$build/simsched
[ -x "$bin" ] || { echo "build first: cmake -S . -B build && cmake --build build" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-10s %-6s %14s %12s %14s %12s\n' policy load events wall_s events/s sim_s/wall_s
for policy in sis_util sis_prop; do
	for load in 25% 100% 200%; do
		start=$(date +%s.%N)
		taskset -c 0 "$bin" run --topology "$root/topologies/kunpeng920.yaml" \
			--workload "$root/workloads/netperf-tcp-rr.yaml" --policy "$policy" --load "$load" \
			--warmup 0 --duration "${dur}s" --quiet --json "$tmp/out.json"
		end=$(date +%s.%N)
		events=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["engine"]["events"])' "$tmp/out.json")
		python3 - "$policy" "$load" "$events" "$start" "$end" "$dur" <<'PY'
import sys
policy, load, events, start, end, dur = sys.argv[1:]
wall = float(end) - float(start)
print(f"{policy:<10} {load:<6} {int(events):>14} {wall:>12.3f} {int(events)/wall:>14.0f} {float(dur)/wall:>12.3f}")
PY
	done
done
