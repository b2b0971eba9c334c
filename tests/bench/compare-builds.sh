#!/usr/bin/env bash
# Output identity between two builds: runs a matrix of machines, workloads,
# policies and loads on both and compares the JSON results, ignoring only
# engine.events (the number of events an engine needs is not a result:
# an engine may queue more or fewer events for the same run). Then two runs
# with --trace (docs/output.md), whose trace files must be byte-identical.
# Both run as `simsched` (argv[0]) with the same --json name in a directory
# of their own, so the command lines they record (provenance.command) match.
# Exits 1 on the first difference set, printing which runs differ.
#   tests/bench/compare-builds.sh OLD_BUILD NEW_BUILD [quick|full]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
old=$(cd "$1" && pwd)/simsched new=$(cd "$2" && pwd)/simsched mode=${3:-full}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
run_pair() {   # name, args...
	local name=$1; shift
	mkdir -p "$tmp/old" "$tmp/new"
	(cd "$tmp/old" && exec -a simsched "$old" run "$@" --quiet --json result.json) 2>"$tmp/a.err"; local ra=$?
	(cd "$tmp/new" && exec -a simsched "$new" run "$@" --quiet --json result.json) 2>"$tmp/b.err"; local rb=$?
	mv -f "$tmp/old/result.json" "$tmp/a.json" 2>/dev/null
	mv -f "$tmp/new/result.json" "$tmp/b.json" 2>/dev/null
	n=$((n + 1))
	if [ $ra -ne $rb ] || ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
		echo "DIFF exit/stderr: $name ($ra vs $rb)"; fail=1; return
	fi
	[ $ra -ne 0 ] && return
	if ! python3 - "$tmp/a.json" "$tmp/b.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
a["engine"].pop("events", None); b["engine"].pop("events", None)
sys.exit(0 if json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True) else 1)
PY
	then echo "DIFF json: $name"; fail=1; fi
	# byte identity apart from the events line
	if ! diff -q <(grep -v '"events"' "$tmp/a.json") <(grep -v '"events"' "$tmp/b.json") >/dev/null; then
		echo "DIFF bytes: $name"; fail=1
	fi
}
T=$root/topologies W=$root/workloads
if [ "$mode" = quick ]; then
	topos="kunpeng920 xeon6148"; pols="sis_util sis_prop"; loads="50% 100% 200%"; dur=30ms
else
	topos="kunpeng920 xeon6148 epyc7713-nps4 desktop-8c16t spr224"
	pols="sis_util sis_prop sis_util_linear sis_clear_target full_scan prev_cpu burst_threshold"
	loads="25% 100% 200%"; dur=40ms
fi
for t in $topos; do for p in $pols; do for l in $loads; do
	run_pair "$t netperf-tcp-rr $p $l" -t $T/$t.yaml -w $W/netperf-tcp-rr.yaml -p $p --load $l --warmup 10ms --duration $dur
done; done; done
for t in kunpeng920 xeon6148; do for w in $W/*.yaml $W/rt-app/*.json; do for p in sis_util sis_prop; do
	run_pair "$t $(basename $w) $p" -t $T/$t.yaml -w $w -p $p --warmup 10ms --duration $dur
done; done; done
# the v5.17 model (CFS, its balancer) on the seeds' one- and two-node set-ups
for l in 25% 100%; do for p in sis_prop sis_util_linear; do
	run_pair "kunpeng920 -N 0-1 v5.17 udp-rr $p $l" -t $T/kunpeng920.yaml -N 0-1 --kernel 5.17 -w $W/netperf-udp-rr.yaml \
		-p $p --load $l --warmup 10ms --duration $dur
done; done
# an asymmetric-capacity machine (SD_ASYM_CPUCAPACITY: select_idle_capacity(), misfit, the capacity bounds)
cat > "$tmp/bl8.yaml" <<'YAML'
name: bl8
vendor: arm
llcs:
  - clusters:
      - {capacity: 1024, cores: "0-3"}
      - {capacity: 446, cores: "4-7"}
YAML
for w in netperf-tcp-rr hackbench-process-pipes; do for l in 50% 200%; do
	run_pair "bl8 $w $l" -t "$tmp/bl8.yaml" -w $W/$w.yaml --load $l --warmup 10ms --duration $dur
done; done
run_pair "kunpeng920 tcp-rr 100% seed 7 1s" -t $T/kunpeng920.yaml -w $W/netperf-tcp-rr.yaml --load 100% --seed 7 --warmup 0 --duration 200ms
trace_pair() {   # name, args...: the --trace files byte for byte
	local name=$1; shift
	(cd "$tmp/old" && exec -a simsched "$old" run "$@" --quiet --trace trace.txt) >/dev/null 2>&1
	(cd "$tmp/new" && exec -a simsched "$new" run "$@" --quiet --trace trace.txt) >/dev/null 2>&1
	n=$((n + 1))
	if [ ! -s "$tmp/old/trace.txt" ] || ! cmp -s "$tmp/old/trace.txt" "$tmp/new/trace.txt"; then
		echo "DIFF trace: $name"; fail=1
	fi
	rm -f "$tmp/old/trace.txt" "$tmp/new/trace.txt"
}
trace_pair "trace kunpeng920 tcp-rr 100% sis_util 20ms" -t $T/kunpeng920.yaml -w $W/netperf-tcp-rr.yaml -p sis_util --load 100% --warmup 0 --duration 20ms
trace_pair "trace xeon6148 hackbench-process-pipes" -t $T/xeon6148.yaml -w $W/hackbench-process-pipes.yaml --warmup 0 --duration 20ms
echo "$n runs compared: $([ $fail = 0 ] && echo identical || echo DIFFERENT)"
exit $fail
