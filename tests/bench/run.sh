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

# Cost per event against machine size: netperf TCP_RR at 100 % on generated
# machines of 8 .. 4096 CPUs (32-CPU nodes = LLCs, clusters of 4, SLIT 10/20).
echo
printf '%-6s %14s %12s %14s %10s\n' cpus events wall_s events/s ns/event
for n in 8 64 512 4096; do
	python3 - "$n" > "$tmp/m$n.yaml" <<'PY'
import sys
n = int(sys.argv[1]); per = min(32, n); nodes = n // per
print(f"name: gen{n}\nvendor: arm")
print("numa:\n  distance:")
for i in range(nodes):
    print("    - [" + ", ".join("10" if i == j else "20" for j in range(nodes)) + "]")
print("nodes:")
print(f"  - repeat: {nodes}\n    clusters:\n      - repeat: {per // 4}\n        cores: \"0-3\"")
PY
	ms=$(( 2048 / n > 10 ? 2048 / n : 10 ))
	start=$(date +%s.%N)
	taskset -c 0 "$bin" run --topology "$tmp/m$n.yaml" --workload "$root/workloads/netperf-tcp-rr.yaml" \
		--load 100% --warmup 0 --duration "${ms}ms" --quiet --json "$tmp/m.json"
	end=$(date +%s.%N)
	events=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["engine"]["events"])' "$tmp/m.json")
	python3 -c "
import sys
n, e, s, t = int('$n'), int('$events'), float('$start'), float('$end')
print(f'{n:<6} {e:>14} {t-s:>12.3f} {e/(t-s):>14.0f} {1e9*(t-s)/e:>10.1f}')"
done
