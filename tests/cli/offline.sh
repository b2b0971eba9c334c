#!/usr/bin/env bash
# Offline CPUs: a shipped machine with CPU 5 (and its sibling's pair broken)
# marked offline keeps its CPU numbers in `simsched topo` and in the run's
# JSON; an affinity with no online CPU is an error at its file:line:col.
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{ cat "$src/topologies/desktop-8c16t.yaml"; echo 'offline: "5"'; } > "$tmp/m.yaml"
"$bin" topo "$tmp/m.yaml" > "$tmp/topo.txt"
grep '^offline CPUs: 5 (15 online' "$tmp/topo.txt" > /dev/null
grep '^cpu5 offline$' "$tmp/topo.txt" > /dev/null
grep '^levels of CPUs 13: MC(15)$' "$tmp/topo.txt" > /dev/null
# topo --format yaml keeps them: it loads to the same domains and prints to the same bytes
"$bin" topo --format yaml "$tmp/m.yaml" > "$tmp/y.yaml"
grep '^offline: "5"' "$tmp/y.yaml" > /dev/null
"$bin" topo --format yaml "$tmp/y.yaml" | cmp - "$tmp/y.yaml"
cmp <("$bin" topo "$tmp/m.yaml" | sed 1d) <("$bin" topo "$tmp/y.yaml" | sed 1d)
"$bin" run -t "$tmp/m.yaml" -w "$src/workloads/netperf-tcp-rr.yaml" --load 100% --warmup 0 --duration 10ms \
	--quiet --json "$tmp/r.json"
python3 - "$tmp/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["run"]["nr_cpus"] == 16 and r["run"]["online_cpus"] == 15, r["run"]
assert r["run"]["offline_cpus"] == "5" and r["run"]["instances"] == 15, r["run"]
cpus = [c["cpu"] for c in r["per_cpu"]]
assert cpus == [c for c in range(16) if c != 5], cpus
PY
cat > "$tmp/w.yaml" <<'YAML'
name: pinned
instance: task
instances_per_cpu: 0.1
metric: {name: throughput, unit: transactions/s, higher_is_better: true}
tasks:
  - name: t
    cpus: "5"
    program: [run: 1us]
YAML
set +e
"$bin" run -t "$tmp/m.yaml" -w "$tmp/w.yaml" --duration 1ms --quiet --json "$tmp/p.json" 2> "$tmp/err"
rc=$?
set -e
[ "$rc" = 1 ]
grep "w.yaml:7:11: cpus '5' of role 't' has no CPU the task may use" "$tmp/err" > /dev/null
[ ! -e "$tmp/p.json" ]
echo "offline ok"
