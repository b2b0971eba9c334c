#!/usr/bin/env bash
# Figures without samples are null in JSON and "-" in text, never 0 (0 would
# read as the best value): rates with a zero denominator (select_idle_cpu
# never called under prev_cpu), latency statistics of no wakeups. compare
# and report show such a point as "-" with a note, never as "100 % better";
# sweep records hold null. A report mixing records of schema versions 1 and
# 2 for a figure that changed meaning is refused.
#   no_samples.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d="$src/topologies/desktop-8c16t.yaml"
nrr="$src/workloads/netperf-tcp-rr.yaml"
short=(--warmup 10ms --duration 20ms)

# prev_cpu never reaches select_idle_sibling(): its rates have no value
"$bin" run -t "$d" -w "$nrr" --policy prev_cpu "${short[@]}" --format json > "$tmp/prev.json"
python3 - "$tmp/prev.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
s = j["select_idle_cpu"]
assert s["calls"] == 0 and s["rqs_probed"] == 0 and s["found_idle"] == 0, s   # counts stay 0
for k in ("probes_per_call", "found_idle_pct"):
    assert s[k] is None, (k, s[k])
assert s["time_per_call_ns"]["count"] == 0 and s["time_per_call_ns"]["mean"] is None
for k in ("time_per_call_ns_idle_core", "time_per_call_ns_idle_cpu"):
    assert s[k]["count"] == 0 and s[k]["mean"] is None, (k, s[k])
assert s["idle_core_calls"] == 0 and s["idle_cpu_calls"] == 0 and s["time_per_call_us"]["count"] == 0, s
for k in ("probes_per_call_idle_core", "probes_per_call_idle_cpu", "time_per_call_mode_ns", "time_per_call_8us_512us_pct"):
    assert s[k] is None, (k, s[k])
t = j["sis_scan"]
assert t["calls"] == 0
for k in ("rqs_scanned_per_call", "search_efficiency_pct", "domain_efficiency_pct", "fast_rate_pct", "success_rate_pct"):
    assert t[k] is None, (k, t[k])
for l in j["nr_idle_scan"]["llc"]:
    assert l["sic_calls"] == 0 and l["sic_probes_per_call"] is None and l["sic_found_idle_pct"] is None, l
# true figures keep their values
assert j["wakeup_latency_ns"]["count"] > 0 and j["wakeup_latency_ns"]["p99"] > 0
assert j["throughput"]["transactions_per_s"] > 0
PY
"$bin" run -t "$d" -w "$nrr" --policy prev_cpu "${short[@]}" > "$tmp/prev.txt"
grep -Eq '^  runqueues probed per call +-$' "$tmp/prev.txt"
grep -Eq '^  calls that found an idle CPU +-$' "$tmp/prev.txt"
grep -Eq '^  time per call, mean \(ns\) +-$' "$tmp/prev.txt"
grep -Eq '^select_idle_cpu calls +0$' "$tmp/prev.txt"

# tasks that never sleep: no wakeup, so no wakeup latency (not 0 us)
cat > "$tmp/spin.yaml" <<'YAML'
name: spin
instance: task
metric: {name: throughput, unit: transactions/s, higher_is_better: true}
tasks:
  - name: spin
    program: [loop: {forever: true, do: [transaction: begin, run: 1ms, transaction: end]}]
YAML
"$bin" run -t "$d" -w "$tmp/spin.yaml" --load 50% "${short[@]}" --format json > "$tmp/spin.json"
python3 - "$tmp/spin.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
w = j["wakeup_latency_ns"]
assert w["count"] == 0, w
for k in ("mean", "p50", "p90", "p99", "p999", "max"):
    assert w[k] is None, (k, w)
assert j["transaction_latency_ns"]["count"] > 0 and j["transaction_latency_ns"]["p99"] > 0
PY
"$bin" run -t "$d" -w "$tmp/spin.yaml" --load 50% "${short[@]}" > "$tmp/spin.txt"
grep -Eq '^wakeup latency \(us\) +mean -  p50 -  p99 -  max -  \(0 wakeups\)$' "$tmp/spin.txt"

# compare: prev_cpu has no probes_per_call: "-" and a note, not "100 % better"
cmp_args=(compare -t "$d" -w "$nrr" --policies sis_util,prev_cpu --load 100% --seeds 2 "${short[@]}" --metric probes_per_call)
"$bin" "${cmp_args[@]}" > "$tmp/cmp.txt"
grep -Eq '^Amean     100% +[0-9.]+ \(   0\.00%\) +-$' "$tmp/cmp.txt" || { cat "$tmp/cmp.txt"; exit 1; }
grep -q '^# "-": prev_cpu has no probes_per_call at 100% (2 of 2 runs without samples' "$tmp/cmp.txt"
if grep -q '100\.00%' "$tmp/cmp.txt"; then echo "a missing figure compared as 100 % better"; exit 1; fi
"$bin" "${cmp_args[@]}" --format json > "$tmp/cmp.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); c = d["rows"][0]["cells"][1]
assert c["policy"] == "prev_cpu" and c["mean"] is None and c["diff_pct"] is None and c["missing_seeds"] == 2 and c["values"] == [None, None], c
assert d["notes"] and "prev_cpu" in d["notes"][0]' "$tmp/cmp.json"
# and the same through a sweep and report: null in the record, "-" in the table
cat > "$tmp/spec.yaml" <<YAML
topologies: [$d]
workloads: [$nrr]
policies: [sis_util, prev_cpu]
loads: [100%]
seeds: 2
duration: 20ms
warmup: 10ms
YAML
"$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/s.jsonl" --jobs 2 2> /dev/null
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    assert r["schema_version"] == 2
    if r["policy"] == "prev_cpu":
        assert r["metrics"]["probes_per_call"] is None and r["metrics"]["found_idle_pct"] is None, r["metrics"]
    else:
        assert r["metrics"]["probes_per_call"] >= 0' "$tmp/s.jsonl"
"$bin" report "$tmp/s.jsonl" --metric probes_per_call > "$tmp/rep.txt"
cmp <(tail -n +2 "$tmp/rep.txt") "$tmp/cmp.txt"

# a record of schema version 1 (no schema_version) beside version 2 ones, for a figure
# that changed meaning: refused, naming both records
python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
out = []
for l in lines:
    r = json.loads(l)
    if r["policy"] == "prev_cpu" and r["seed"] == 1:
        del r["schema_version"]
        r["metrics"]["probes_per_call"] = 0   # how version 1 wrote "no calls"
    out.append(json.dumps(r, separators=(",", ":")))
open(sys.argv[2], "w").write("\n".join(out) + "\n")' "$tmp/s.jsonl" "$tmp/mixed.jsonl"
if "$bin" report "$tmp/mixed.jsonl" --metric probes_per_call > /dev/null 2> "$tmp/err"; then echo "mixed schema versions accepted"; exit 1; fi
grep -q "records of schema versions 1 (.*mixed.jsonl:[0-9]*) and 2 (.*) in one table, and metric 'probes_per_call' changed meaning in version 2" "$tmp/err" || { cat "$tmp/err"; exit 1; }
# throughput did not change meaning: the same files report
"$bin" report "$tmp/mixed.jsonl" --metric throughput > /dev/null
