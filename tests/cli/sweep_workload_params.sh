#!/usr/bin/env bash
# Workload parameters in a sweep spec: `set: {workload.NAME: [values]}`
# gives one record per value, each run as `--set workload.NAME=VALUE`
# would run it (the same figures as `run`), with the value in the point's
# key, the record's `set` and its provenance; `run --rerun` writes each
# record again byte for byte. A parameter some workload of the spec does
# not declare, or a value it refuses, is an error at the spec's line:col
# before anything runs.
#   sweep_workload_params.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
topo=$src/topologies/desktop-8c16t.yaml
hb=$src/workloads/hackbench-process-pipes.yaml
cat > "$tmp/spec.yaml" <<YAML
topologies: [$topo]
workloads: [$hb]
policies: [sis_util]
loads: [50%]
seeds: 1
duration: 2s
warmup: 0s
set:
  workload.num_fds: [2, 4, 6]
  workload.loops: 10
  cost.ipi_ns: 2us
YAML
"$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/r.jsonl" --jobs 2 -q
[ "$(wc -l < "$tmp/r.jsonl")" -eq 3 ]
python3 - "$tmp/r.jsonl" <<'EOF'
import json, sys
recs = sorted((json.loads(l) for l in open(sys.argv[1])), key=lambda r: r["grid"]["point"])
assert [r["set"] for r in recs] == [{"workload.num_fds": v, "workload.loops": "10", "cost.ipi_ns": "2us"}
                                    for v in ("2", "4", "6")], [r["set"] for r in recs]
for r, fds in zip(recs, (2, 4, 6)):
    assert "|set=cost.ipi_ns=2us;workload.loops=10;workload.num_fds=%d" % fds in r["key"], r["key"]
    p = r["provenance"]
    assert p["workload_params"]["num_fds"] == fds and p["workload_params"]["loops"] == 10, p["workload_params"]
    assert [(s["given"], s["value"]) for s in p["set"]] == [("workload.num_fds=%d" % fds, fds),
                                                            ("workload.loops=10", 10), ("cost.ipi_ns=2us", 2000)], p["set"]
# more fds per group: more tasks, so the runs differ
assert len({r["counts"]["wakeups"] for r in recs}) == 3, [r["counts"] for r in recs]
EOF
# each record is the run --set workload.NAME=VALUE makes, and reruns byte for byte
for n in 1 2 3; do
	"$bin" run --rerun "$tmp/r.jsonl" --record $n -q --json "$tmp/rec.jsonl"
	sed -n "${n}p" "$tmp/r.jsonl" | cmp - "$tmp/rec.jsonl"
done
"$bin" run -t "$topo" -w "$hb" --load 50% --warmup 0s --duration 2s --set workload.num_fds=4 \
	--set workload.loops=10 --set cost.ipi_ns=2us -q --json "$tmp/run.json"
python3 - "$tmp/r.jsonl" "$tmp/run.json" <<'EOF'
import json, sys
rec = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["set"]["workload.num_fds"] == "4"][0]
run = json.load(open(sys.argv[2]))
assert rec["counts"]["wakeups"] == run["wakeups"]["total"], (rec["counts"], run["wakeups"])
assert rec["metrics"]["workload"] == run["metric"]["value"], (rec["metrics"]["workload"], run["metric"])
# the figures validate reads: every new metric by name, and when nr_idle_scan was written and the run ended
for m in ("full_mask_fail_pct", "idle_with_work_allowed_pct", "burst_idle_with_work_pct", "burst_idle_1ms_pct",
          "burst_makespan_ns", "sic_time_mode_ns", "sic_time_8us_512us_pct"):
    assert m in rec["metrics"], m
# S05's histogram figures: the run's time per select_idle_cpu call in us buckets, carried into the record
sic = run["select_idle_cpu"]
assert sic["calls"] > 0, sic
assert rec["metrics"]["sic_time_mode_ns"] == sic["time_per_call_mode_ns"], (rec["metrics"], sic)
assert round(rec["metrics"]["sic_time_8us_512us_pct"], 3) == sic["time_per_call_8us_512us_pct"], (rec["metrics"], sic)
assert sum(b["count"] for b in sic["time_per_call_us"]["buckets"]) == sic["calls"]
# (the run JSON rounds percentages to 3 decimals, the records do not)
assert round(rec["metrics"]["idle_with_work_allowed_pct"], 3) == run["idle_with_work_elsewhere"]["allowed_pct"]
assert round(rec["metrics"]["full_mask_fail_pct"], 3) == run["sis_scan"]["full_mask_fail_pct"]
assert rec["ended_ns"] == run["run"]["ended_ns"] < 2000000000, rec["ended_ns"]   # hackbench exits before the end
assert rec["nr_idle_scan_written_ns"] == run["sis"]["nr_idle_scan_written_ns"]
keys = list(rec)
assert keys[keys.index("deadlock_at_ns") + 1:] == ["nr_idle_scan_written_ns", "ended_ns", "window_start_ns", "provenance"], keys
# hackbench measures from its first begin, not from the (0 s) warmup: the record carries the run's own window start
assert rec["window_start_ns"] == run["run"]["warmup_ns"] > rec["warmup_ns"] == 0, (rec["window_start_ns"], run["run"]["warmup_ns"])
EOF

# errors, before any run: no result file
expect() {   # expect MESSAGE SPEC_TAIL
	printf 'topologies: [%s]\nworkloads: [%s, %s]\npolicies: [sis_util]\nloads: [50%%]\nseeds: 1\n%s\n' \
		"$topo" "$hb" "$2" "$3" > "$tmp/bad.yaml"
	if "$bin" sweep --spec "$tmp/bad.yaml" --out "$tmp/bad.jsonl" 2> "$tmp/err"; then
		echo "FAIL: accepted: $3"; exit 1
	fi
	grep -qF -- "$1" "$tmp/err" || { echo "FAIL: expected '$1', got:"; cat "$tmp/err"; exit 1; }
	[ ! -e "$tmp/bad.jsonl" ] || { echo "FAIL: a result file was created"; exit 1; }
}
nb=$src/workloads/netperf-tcp-rr.yaml
expect "bad.yaml:7:3: set key 'workload.num_fds': workload $nb has no parameter 'num_fds'" "$nb" \
	"set:
  workload.num_fds: 4"
expect "bad.yaml:7:3: set key 'workload.nope': workload $hb has no parameter 'nope' (expected one of: num_fds, loops, buffer_msgs)" \
	"$src/workloads/hackbench-process-sockets.yaml" \
	"set:
  workload.nope: 4"
expect "bad.yaml:7:25: set workload.num_fds=0 for workload $hb: " "$src/workloads/hackbench-process-sockets.yaml" \
	"set:
  workload.num_fds: [2, 0]"
echo "sweep workload params ok"
