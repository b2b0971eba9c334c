#!/usr/bin/env bash
# cpu.busy_pct is over the allowed CPUs (online, within --nodes), the
# machine-wide figure is cpu.busy_pct_machine, and every consumer (text,
# compare --metric busy_pct, sweep records, report) reads the allowed one;
# the run JSON and sweep records carry schema_version 2.
#   busy_pct.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
x="$src/topologies/xeon6148.yaml"   # 2 nodes x 40 CPUs
nrr="$src/workloads/netperf-tcp-rr.yaml"
short=(--warmup 10ms --duration 20ms)

# node 0 of 2 at 200 %: its 40 CPUs are all busy, half the machine is
"$bin" run -t "$x" -w "$nrr" --nodes 0 --load 200% "${short[@]}" --format json > "$tmp/n0.json"
python3 - "$tmp/n0.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["schema_version"] == 2, j.get("schema_version")
assert j["run"]["allowed_cpus"] == 40 and j["run"]["nr_cpus"] == 80
c = j["cpu"]
assert c["busy_pct"] >= 99.9, c
assert abs(c["busy_pct_machine"] - c["busy_pct"] / 2) < 0.01, c
# the per-CPU figures agree: the mean over node 0's CPUs is busy_pct
per = [e["busy_pct"] for e in j["per_cpu"] if e["cpu"] < 20 or 40 <= e["cpu"] < 60]
assert len(per) == 40 and abs(sum(per) / 40 - c["busy_pct"]) < 0.01, (sum(per) / 40, c)
PY
"$bin" run -t "$x" -w "$nrr" --nodes 0 --load 200% "${short[@]}" > "$tmp/n0.txt"
grep -Eq '^CPU busy +100\.00 % of the 40 allowed CPUs \(50\.00 % of the machine.s 80 online\)$' "$tmp/n0.txt" || { cat "$tmp/n0.txt"; exit 1; }

# every CPU allowed: the two figures are one
"$bin" run -t "$x" -w "$nrr" --load 50% "${short[@]}" --format json > "$tmp/all.json"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["cpu"]; assert c["busy_pct"]==c["busy_pct_machine"] and 0<c["busy_pct"]<100, c' "$tmp/all.json"

# affinity does not shrink the denominator: 10 CPUs of the 40 allowed spin
cat > "$tmp/spin-pinned.yaml" <<'YAML'
name: spin-pinned
instance: task
metric: {name: throughput, unit: transactions/s, higher_is_better: true}
tasks:
  - name: spin
    cpus: "0-9"
    program: [loop: {forever: true, do: [transaction: begin, run: 1ms, transaction: end]}]
YAML
"$bin" run -t "$x" -w "$tmp/spin-pinned.yaml" --nodes 0 --load 50% "${short[@]}" --format json > "$tmp/pin.json"
python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["cpu"]; assert abs(c["busy_pct"]-25)<0.5 and abs(c["busy_pct_machine"]-12.5)<0.25, c' "$tmp/pin.json"

# compare --metric busy_pct reads the allowed figure
"$bin" compare -t "$x" -w "$nrr" --nodes 0 --policies sis_util,sis_prop --load 200% --seeds 1 "${short[@]}" \
	--metric busy_pct --format json > "$tmp/cmp.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=[c["mean"] for c in d["rows"][0]["cells"]]; assert all(v>=99.9 for v in m), m' "$tmp/cmp.json"

# sweep records: schema_version 2 and the allowed busy_pct; report shows it
cat > "$tmp/spec.yaml" <<YAML
topologies: [$x]
workloads: [$nrr]
policies: [sis_util]
loads: [200%]
seeds: 1
nodes: "0"
duration: 20ms
warmup: 10ms
YAML
"$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/s.jsonl" --jobs 1 2> /dev/null
python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).readline()); assert r["schema_version"]==2 and r["metrics"]["busy_pct"]>=99.9, r' "$tmp/s.jsonl"
"$bin" report "$tmp/s.jsonl" --metric busy_pct --format csv | grep -Eq ',busy_pct,200\.00,sis_util,(99\.9|100\.0)'
