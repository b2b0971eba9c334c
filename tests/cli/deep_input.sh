#!/usr/bin/env bash
# Deeply nested input is refused before the document loaders see it
# (libyaml's takes time quadratic in the depth): 100 000 levels of '[' or
# '{a: ' in a topology, a workload, a sweep spec and an experiment file
# give "file:line:col: nesting deeper than 64 lists and mappings" at the
# 65th level, exit 1 and no result file; 64 levels pass the guard (the
# loader then says what is wrong with them). rt-app JSON deeper than
# cJSON's 1000 levels says so instead of "syntax error". rt-app: 20 000
# threads are refused before any is read; 20 000 duplicate keys load
# (numbered as workgen does, linear), the warning naming the first 20.
# A plan whose tasks would need more than 4 GiB is refused before it is
# allocated, with the estimate; compare refuses a grid over 10^6 points.
# `timeout` guards against a hang; nothing here is timed.
#   deep_input.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'EOF2'
import sys
d = sys.argv[1]
open(f"{d}/seq.yaml", "w").write("[" * 100000)
open(f"{d}/map.yaml", "w").write("{a: " * 100000)
open(f"{d}/nested.yaml", "w").write("name: x\nnested: " + "[" * 100000)
open(f"{d}/spec.yaml", "w").write("topologies: " + "[" * 100000)
open(f"{d}/S99.yaml", "w").write("id: S99\nseries: " + "[" * 100000)
# 64 levels in all (the root mapping is the first): the guard lets it through
open(f"{d}/d64.yaml", "w").write("name: x\nnested: " + "[" * 63 + "]" * 63 + "\n")
open(f"{d}/d65.yaml", "w").write("name: x\nnested: " + "[" * 64 + "]" * 64 + "\n")
open(f"{d}/deep.json", "w").write('{"tasks": ' + "[" * 100000)
import json
open(f"{d}/threads.json", "w").write(json.dumps({"tasks": {f"t{i}": {"run": 1000, "sleep": 1000} for i in range(20000)}}))
open(f"{d}/dups.json", "w").write('{"tasks": {"a": {"run": 1000' + "".join(f', "run": {i + 1}' for i in range(20000)) + ', "sleep": 1000}}}')
EOF2
expect() {   # exit status, message pattern, command...
	local want=$1 pat=$2; shift 2
	set +e
	timeout 60 "$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	set -e
	[ $rc = "$want" ] || { echo "exit $rc (expected $want): $*" >&2; cat "$tmp/err" >&2; exit 1; }
	grep -q -- "$pat" "$tmp/err" || { echo "no '$pat': $*" >&2; cat "$tmp/err" >&2; exit 1; }
}
deep="nesting deeper than 64 lists and mappings (expected at most 64)"
expect 1 "seq.yaml:1:65: $deep" "$bin" topo -t "$tmp/seq.yaml"
expect 1 "map.yaml:1:257: $deep" "$bin" topo -t "$tmp/map.yaml"
expect 1 "nested.yaml:2:72: $deep" "$bin" run -t "$src/topologies/desktop-8c16t.yaml" -w "$tmp/nested.yaml" --json "$tmp/r.json"
[ ! -e "$tmp/r.json" ]
expect 1 "spec.yaml:1:76: $deep" "$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/r.jsonl"
[ ! -e "$tmp/r.jsonl" ]
mkdir "$tmp/x" && mv "$tmp/S99.yaml" "$tmp/x/"
expect 1 "S99.yaml:2:72: $deep" "$bin" validate S99 --experiments "$tmp/x" --out "$tmp/vo"
# the limit itself: 64 levels reach the loader, 65 do not
expect 1 "unknown key 'nested'" "$bin" topo -t "$tmp/d64.yaml"
expect 1 "d65.yaml:2:72: $deep" "$bin" topo -t "$tmp/d65.yaml"
expect 1 "deep.json:1:1010: nesting deeper than 1000 arrays and objects (expected at most 1000, the JSON parser's limit)" \
	"$bin" run -t "$src/topologies/desktop-8c16t.yaml" -w "$tmp/deep.json"
expect 1 "threads.json: tasks: 20000 threads (expected at most 4096)" \
	"$bin" run -t "$src/topologies/desktop-8c16t.yaml" -w "$tmp/threads.json"
expect 0 "accepted 20000 duplicate keys, numbered as rt-app's workgen numbers them .*tasks.a.run -> run20, \.\.\.$" \
	"$bin" run -t "$src/topologies/desktop-8c16t.yaml" -w "$tmp/dups.json" --warmup 0 --duration 1ms
grep -q "tasks.a.run -> run1, tasks.a.run -> run2," "$tmp/err"
! grep -q "run21" "$tmp/err"
cat > "$tmp/many.yaml" <<'EOF2'
name: many
instance: group
metric: {name: throughput, unit: transactions/s, higher_is_better: true}
tasks:
  - name: t
    count: 4000
    program: [run: 1ms]
EOF2
expect 2 "workload 'many': 8960000 tasks need about 10.0 GiB (expected at most 4 GiB for the tasks of a run, 1200 bytes each: at most 3579139 tasks; a lower --load)" \
	"$bin" run -t "$src/topologies/spr224.yaml" -w "$tmp/many.yaml" --load 1000% --warmup 0 --duration 1ms
expect 2 "a grid of 2000000 points (expected at most 1000000" \
	"$bin" compare -t "$src/topologies/desktop-8c16t.yaml" -w "$src/workloads/netperf-tcp-rr.yaml" --policies sis_util,sis_prop \
	--load 1%..1000%/1% --seeds 1000 -q --out "$tmp/c.txt"
[ ! -e "$tmp/c.txt" ]
echo ok
