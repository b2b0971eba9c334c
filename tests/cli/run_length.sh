#!/usr/bin/env bash
# Run length by statistics (docs/output.md "Run length"): run --warmup auto
# and --precision write run_length, give the figures of a fixed run of the
# lengths chosen, and rerun byte-identically; bad values are refused before
# running; compare --precision prints its Delta95 row; a sweep with
# precision runs its policies side by side, and a record of it reruns alone;
# a percentile metric and jobs give the same bytes.
#   run_length.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"
T=topologies/kunpeng920.yaml W=workloads/netperf-tcp-rr.yaml

# chosen lengths; the same figures as a fixed run of those lengths
"$bin" run -t $T -w $W --nodes 0 --warmup auto:2s --precision 1% -q --json "$tmp/a.json"
read -r warm dur < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["run"]; print(r["warmup_ns"], r["duration_ns"])' "$tmp/a.json")
"$bin" run -t $T -w $W --nodes 0 --warmup ${warm}ns --duration ${dur}ns -q --json "$tmp/f.json"
python3 - "$tmp/a.json" "$tmp/f.json" <<'EOF'
import json, sys
a, f = (json.load(open(p)) for p in sys.argv[1:3])
rl = a.pop("run_length")
assert "run_length" not in f
assert rl["warmup"]["rule"] == "MSER-5" and rl["warmup"]["max_ns"] == 2000000000, rl
assert rl["warmup"]["ns"] >= rl["warmup"]["truncation_ns"] and rl["warmup"]["ns"] % 5000000 == 0, rl
w = rl["window"]
assert w["stopped"] == "precision" and w["precision"] == 0.01 and w["max_ns"] == 60000000000, w
assert 20 <= w["batches"] < 40 and w["batches"] * w["batch_len_ns"] == a["run"]["duration_ns"], w
assert w["half_width_pct"] <= 1.0 and abs(w["mean"] - a["metric"]["value"]) <= 1e-6 * w["mean"], w
pa, pf = a.pop("provenance"), f.pop("provenance")
assert pa["warmup_auto"] is True and pa["precision"] == 0.01 and pa["batch_ns"] == 0, pa
assert "precision" not in pf and "warmup_auto" not in pf
for d in (a, f):
    d["engine"].pop("events")
assert a == f, [k for k in a if a[k] != f.get(k)]
EOF
# the rerun chooses the same lengths again
"$bin" run --rerun "$tmp/a.json" -q --json "$tmp/b.json"
cmp "$tmp/a.json" "$tmp/b.json"
# the text report says how the length was chosen
"$bin" run --rerun "$tmp/a.json" > "$tmp/a.txt"
grep -q '^run length: warmup by MSER-5 (truncation .* window until +-1 % at 95 %: .* batches of .* stopped by precision' "$tmp/a.txt"

# refused before running, with what was expected
for bad in "--precision 0%" "--precision 100%" "--precision 1e-2" "--precision -1%" "--warmup auto:" "--warmup auto:5" \
	"--warmup automatic" "--batch 1ms" "--precision 1% --batch 500ns" "--precision 1% --duration 1ms --batch 2ms"; do
	if "$bin" run -t $T -w $W $bad -q --json "$tmp/x.json" 2> "$tmp/err"; then
		echo "accepted: $bad" >&2; exit 1
	fi
	grep -q "expected\|goes with" "$tmp/err" || { echo "no reason for $bad: $(cat "$tmp/err")" >&2; exit 1; }
	[ ! -e "$tmp/x.json" ]
done
# a finish-time figure has no run length to choose
if "$bin" run -t $T -w workloads/hackbench-process-pipes.yaml --precision 1% -q --json "$tmp/x.json" 2> "$tmp/err"; then
	echo "hackbench with --precision accepted" >&2; exit 1
fi
grep -q "finish time" "$tmp/err"

# a percentile metric (schbench's p99): decided on the intervals' percentiles; --jobs-free bytes
"$bin" run -t topologies/desktop-8c16t.yaml -w workloads/schbench.yaml --warmup auto:300ms --precision 10% -d 1s -q --json "$tmp/s.json"
python3 - "$tmp/s.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
rl = d["run_length"]
assert rl["window"]["stopped"] in ("precision", "cap"), rl
assert d["metric"]["unit"] == "us" and rl["window"]["mean"] > 0, rl
EOF

# compare --precision: paired, a Delta95 row, and the same table for any --jobs
for j in 1 2; do
	"$bin" compare -t $T -w $W --nodes 0 --policies sis_prop,sis_util_linear --load 50%,100% --seeds 2 \
		--warmup auto:500ms --precision 1% -d 200ms --jobs $j -q --out "$tmp/c$j.txt"
done
cmp "$tmp/c1.txt" "$tmp/c2.txt"
grep -q '^Delta95   50% ' "$tmp/c1.txt"
grep -q 'runs until each paired delta is within +-1 % at 95 %' "$tmp/c1.txt"
"$bin" compare -t $T -w $W --nodes 0 --policies sis_prop,sis_util_linear --load 50% --seeds 1 \
	--warmup auto:500ms --precision 1% -d 200ms -q --format json --out "$tmp/c.json"
python3 - "$tmp/c.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
cells = d["rows"][0]["cells"]
assert cells[0]["delta_half_width_pct"] is None and cells[1]["delta_half_width_pct"] >= 0, cells
assert cells[1]["capped_seeds"] > 0 or cells[1]["delta_half_width_pct"] <= 1.0, cells
assert d["precision"] == 0.01 and "interval" in d["significance"], d["significance"]
EOF
# the CSV carries the same run-length columns
"$bin" compare -t $T -w $W --nodes 0 --policies sis_prop,sis_util_linear --load 50% --seeds 1 \
	--warmup auto:500ms --precision 1% -d 200ms -q --format csv --out "$tmp/c.csv"
head -1 "$tmp/c.csv" | grep -q ',values,delta_half_width_pct,capped_seeds$'
[ "$(sed -n 3p "$tmp/c.csv" | awk -F, '{ print NF }')" = 12 ]
# another --metric: the run lengths' intervals are the workload figure's, so
# its significance is the t-test and there is no Delta95 row
"$bin" compare -t $T -w $W --nodes 0 --policies sis_prop,sis_util_linear --load 50% --seeds 2 \
	--warmup auto:500ms --precision 1% -d 200ms -q --metric busy_pct --out "$tmp/cm.txt"
grep -q "paired t-test on this metric" "$tmp/cm.txt"
if grep -q '^Delta95' "$tmp/cm.txt"; then echo "Delta95 row for another metric" >&2; exit 1; fi
"$bin" compare -t $T -w $W --nodes 0 --policies sis_prop,sis_util_linear --load 50% --seeds 2 \
	--warmup auto:500ms --precision 1% -d 200ms -q --metric busy_pct --format json --out "$tmp/cm.json"
python3 - "$tmp/cm.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["significance"].startswith("paired t-test"), d["significance"]
assert "delta_half_width_pct" not in d["rows"][0]["cells"][1], d["rows"][0]["cells"][1]
EOF

# a sweep with precision: groups of policies side by side; a record reruns alone, byte for byte
cat > "$tmp/spec.yaml" <<EOF
topologies: [$src/$T]
workloads: [$src/$W]
policies: [sis_prop, sis_util_linear]
loads: ["50%"]
seeds: [1, 2]
nodes: "0"
warmup: auto:500ms
precision: 1%
duration: 200ms
EOF
"$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/r.jsonl" --jobs 2 2> /dev/null
[ "$(wc -l < "$tmp/r.jsonl")" = 4 ]
# each record says how its length was chosen and why its window stopped
python3 - "$tmp/r.jsonl" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
for r in recs:
    rl = r["run_length"]
    assert rl["warmup"]["rule"] == "MSER-5" and rl["window"]["stopped"] in ("precision", "cap"), rl
    assert rl["window"]["precision"] == 0.01 and rl["paired"]["index"] in (0, 1), rl
    assert rl["window"]["ns"] == r["ended_ns"] - r["window_start_ns"] or r["ended_ns"] < r["window_start_ns"] + rl["window"]["ns"], r
assert any("delta_pct" in r["run_length"]["paired"] for r in recs), recs
EOF
"$bin" run --rerun "$tmp/r.jsonl" --record 2 --json "$tmp/rec.json" -q
sed -n 2p "$tmp/r.jsonl" | cmp - "$tmp/rec.json"
"$bin" report "$tmp/r.jsonl" > "$tmp/rep.txt"
grep -q 'duration until +-1 % at 95 % (at most 200ms), warmup by MSER-5 (at most 500ms)' "$tmp/rep.txt"
# a window that reaches its cap first: the record says so and report warns
sed -e 's/^precision: 1%/precision: 0.01%/' -e 's/^duration: 200ms/duration: 64ms/' -e 's/^warmup: auto:500ms/warmup: 100ms/' \
	-e 's/^seeds: \[1, 2\]/seeds: [1]/' "$tmp/spec.yaml" > "$tmp/capspec.yaml"
"$bin" sweep --spec "$tmp/capspec.yaml" --out "$tmp/cap.jsonl" 2> /dev/null
grep -q '"stopped":"cap"' "$tmp/cap.jsonl"
"$bin" report "$tmp/cap.jsonl" > /dev/null 2> "$tmp/caperr.txt"
grep -q 'policy sis_prop at load 50.00%, seed 1 reached its duration cap before its precision' "$tmp/caperr.txt"
# --resume with one record missing runs its group again and writes only that record
head -n 3 "$tmp/r.jsonl" > "$tmp/r3.jsonl"
"$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/r3.jsonl" --resume 2> /dev/null
sort "$tmp/r.jsonl" > "$tmp/a.sorted"
sort "$tmp/r3.jsonl" > "$tmp/b.sorted"
cmp "$tmp/a.sorted" "$tmp/b.sorted"
echo ok
