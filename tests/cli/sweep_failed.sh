#!/usr/bin/env bash
# simsched sweep when a point fails: exit 1, a summary that says the sweep
# stopped, which point failed and why; the result file keeps exactly the
# finished points (docs/sweeps.md), and a sweep that finished none leaves
# no result file (a file that existed before --resume is kept).
#   sweep_failed.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# pinned to CPUs 100-103: cannot run on a 16-CPU machine (fails at run time, not when the spec loads)
printf 'name: pinned\ninstance: one\nmetric: {name: x, unit: transactions/s, higher_is_better: true}\ntasks:\n  - name: pinned\n    cpus: "100-103"\n    program: [run: 1ms]\n' > "$tmp/pinned.yaml"
spec() {   # spec FILE WORKLOAD...
	local f=$1; shift
	local wls
	wls=$(IFS=,; echo "$*")
	printf 'topologies: [%s]\nworkloads: [%s]\npolicies: [sis_util]\nloads: [50%%]\nseeds: 2\nduration: 5ms\nwarmup: 1ms\n' \
		"$src/topologies/desktop-8c16t.yaml" "$wls" > "$f"
}
run_fail() {   # run_fail OUT ARGS...: must exit 1
	local out=$1; shift
	set +e
	"$bin" sweep --out "$out" --jobs 1 "$@" 2> "$tmp/err"; local rc=$?
	set -e
	[ "$rc" -eq 1 ] || { echo "exit $rc, expected 1"; cat "$tmp/err"; exit 1; }
}

# the first point fails: nothing finished, no (empty) result file left
spec "$tmp/only.yaml" "$tmp/pinned.yaml"
run_fail "$tmp/only.jsonl" --spec "$tmp/only.yaml"
[ ! -e "$tmp/only.jsonl" ] || { echo "a failed sweep left $(wc -c < "$tmp/only.jsonl") bytes in a result file"; exit 1; }
grep -F "sweep $tmp/only.jsonl stopped at a failed point: 2 points in the grid, 2 in shard 1/1, 0 already in the file, 0 finished before it stopped; no point finished, so no result file is left" "$tmp/err" > /dev/null
grep -F "simsched: point 0 (topology $src/topologies/desktop-8c16t.yaml, workload $tmp/pinned.yaml, policy sis_util, load 50.00%, seed 1) failed: " "$tmp/err" > /dev/null
grep -F "cpus '100-103' of role 'pinned' has no CPU the task may use on desktop-8c16t" "$tmp/err" > /dev/null
# the same with --resume on a file that did not exist
run_fail "$tmp/only.jsonl" --spec "$tmp/only.yaml" --resume
[ ! -e "$tmp/only.jsonl" ]

# good points first (one job: in order), then the failing workload: exactly the 2 finished points stay
spec "$tmp/mixed.yaml" "$src/workloads/netperf-tcp-rr.yaml" "$tmp/pinned.yaml"
run_fail "$tmp/mixed.jsonl" --spec "$tmp/mixed.yaml"
[ "$(wc -l < "$tmp/mixed.jsonl")" -eq 2 ]
python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert sorted(r["grid"]["point"] for r in recs) == [0, 1], recs
assert all(r["workload"] == "netperf-tcp-rr" for r in recs)
' "$tmp/mixed.jsonl"
grep -F "stopped at a failed point: 4 points in the grid, 4 in shard 1/1, 0 already in the file, 2 finished before it stopped; the file holds the finished points only (fix the cause, then --resume)" "$tmp/err" > /dev/null
grep -F "simsched: point 2 (" "$tmp/err" > /dev/null
# --resume of that file fails again at point 2: the file is kept as it was
cp "$tmp/mixed.jsonl" "$tmp/before.jsonl"
run_fail "$tmp/mixed.jsonl" --spec "$tmp/mixed.yaml" --resume
cmp "$tmp/mixed.jsonl" "$tmp/before.jsonl"
grep -F "2 already in the file, 0 finished before it stopped; the file holds the finished points only" "$tmp/err" > /dev/null
# an existing empty file given to --resume is not removed either
: > "$tmp/empty.jsonl"
run_fail "$tmp/empty.jsonl" --spec "$tmp/only.yaml" --resume
[ -e "$tmp/empty.jsonl" ]
echo "sweep_failed ok"
