#!/usr/bin/env bash
# --policy-plugin: the example plugin (built by CMake into <build>/plugins)
# runs under run, compare and policies; a missing file, a file that is not a
# shared object, a plugin without the entry point and one with another ABI
# version each give their own message and exit 1.
set -euo pipefail
bin=$1
src=$2
plugins=$(dirname "$bin")/plugins
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=(run --topology "$src/topologies/kunpeng920.yaml" --workload "$src/workloads/netperf-tcp-rr.yaml"
     --load 70% --warmup 20ms --duration 20ms)

# the plugin's policy is the default when it is the only plugin, and works with --policy
"$bin" "${run[@]}" --policy-plugin "$plugins/cluster_first.so" --json "$tmp/a.json" > "$tmp/a.txt"
grep -q "^policy cluster_first," "$tmp/a.txt"
grep -q "^  domain searches " "$tmp/a.txt"
"$bin" "${run[@]}" --policy-plugin "$plugins/cluster_first.so" --policy cluster_first --json "$tmp/b.json" > "$tmp/b.txt"
cmp "$tmp/a.txt" "$tmp/b.txt"
# the same JSON but for the command lines they record
python3 - "$tmp/a.json" "$tmp/b.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["provenance"]["command"] != b["provenance"]["command"]
del a["provenance"]["command"], b["provenance"]["command"]
assert a == b
PY
python3 - "$tmp/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run"]["policy"] == "cluster_first"
s = d["sis_scan"]
assert s["calls"] > 0 and s["domain_searches"] > 0, s
assert s["calls"] == d["select_idle_sibling"]["calls"]
assert sum(l["calls"] for l in s["llc"]) == s["calls"]
assert abs(s["success_rate_pct"] - round(100.0 * (s["calls"] - s["failures"]) / s["calls"], 3)) < 1e-9
PY
# a built-in policy still runs with the plugin loaded
"$bin" "${run[@]}" --policy-plugin "$plugins/cluster_first.so" --policy sis_util | grep "^policy sis_util," > /dev/null
"$bin" policies --policy-plugin "$plugins/cluster_first.so" | grep "^cluster_first " > /dev/null
"$bin" policies --policy-plugin "$plugins/cluster_first.so" | grep "policy.cluster_only = 0 0/1" > /dev/null
"$bin" compare --topology "$src/topologies/kunpeng920.yaml" --workload "$src/workloads/netperf-tcp-rr.yaml" \
	--policy-plugin "$plugins/cluster_first.so" --policies sis_util,cluster_first --load 70% --seeds 1 \
	--warmup 10ms --duration 10ms --format csv | grep ",cluster_first," > /dev/null
# sweep: the plugin's policy in a spec, records as compare's points, report of them
printf 'topologies: [%s]\nworkloads: [%s]\npolicies: [sis_util, cluster_first]\nloads: [70%%]\nseeds: 2\nduration: 10ms\nwarmup: 10ms\n' \
	"$src/topologies/kunpeng920.yaml" "$src/workloads/netperf-tcp-rr.yaml" > "$tmp/sweep.yaml"
"$bin" sweep --spec "$tmp/sweep.yaml" --out "$tmp/sweep.jsonl" --policy-plugin "$plugins/cluster_first.so" --jobs 2 2> "$tmp/sweep.err" \
	|| { cat "$tmp/sweep.err"; exit 1; }
grep -F "4 points in the grid, 4 in shard 1/1, 0 already in the file, 4 run now" "$tmp/sweep.err" > /dev/null
python3 - "$tmp/sweep.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert sorted((r["policy"], r["seed"]) for r in recs) == \
	[("cluster_first", 1), ("cluster_first", 2), ("sis_util", 1), ("sis_util", 2)], recs
assert all(r["counts"]["wakeups"] > 0 for r in recs)
PY
"$bin" report "$tmp/sweep.jsonl" --format csv | grep ",cluster_first," > /dev/null
# the same figures as compare with the plugin (the plugin's policy really ran)
"$bin" report "$tmp/sweep.jsonl" > "$tmp/report.txt"
"$bin" compare --topology "$src/topologies/kunpeng920.yaml" --workload "$src/workloads/netperf-tcp-rr.yaml" \
	--policy-plugin "$plugins/cluster_first.so" --policies sis_util,cluster_first --load 70% --seeds 2 \
	--warmup 10ms --duration 10ms > "$tmp/compare.txt"
cmp <(tail -n +2 "$tmp/report.txt") "$tmp/compare.txt"
# without the plugin the spec's policy is unknown, and the message says what is missing
set +e
"$bin" sweep --spec "$tmp/sweep.yaml" --out "$tmp/sweep2.jsonl" 2> "$tmp/err"; rc=$?
set -e
[ "$rc" -eq 1 ] && grep -F "unknown policy 'cluster_first'" "$tmp/err" | grep -F -- "--policy-plugin" > /dev/null
[ ! -e "$tmp/sweep2.jsonl" ]
# without the plugin its name is unknown
if "$bin" "${run[@]}" --policy cluster_first > /dev/null 2>&1; then echo "cluster_first without its plugin"; exit 1; fi

bad() {
	local want=$1
	shift
	set +e
	"$bin" "$@" > /dev/null 2> "$tmp/err"
	local rc=$?
	set -e
	if [ "$rc" != 1 ]; then echo "exit $rc (expected 1): $*"; cat "$tmp/err"; exit 1; fi
	grep -q "^simsched: .*$want" "$tmp/err" || { echo "expected '$want' for: $*"; cat "$tmp/err"; exit 1; }
}
bad "no such policy plugin file" "${run[@]}" --policy-plugin "$tmp/none.so"
bad "not a shared object" "${run[@]}" --policy-plugin "$src/workloads/netperf-tcp-rr.yaml"
bad "does not export the function ss_policy_plugin_v1" "${run[@]}" --policy-plugin "$plugins/plugin_no_symbol.so"
bad "ABI version 42, but this simsched has ABI version 1" "${run[@]}" --policy-plugin "$plugins/plugin_bad_abi.so"
bad "does not export" compare --topology "$src/topologies/kunpeng920.yaml" --workload "$src/workloads/netperf-tcp-rr.yaml" \
	--policies sis_util --policy-plugin "$plugins/plugin_no_symbol.so"
bad "no such policy plugin file" policies --policy-plugin "$tmp/none.so"
bad "does not export" sweep --spec "$tmp/sweep.yaml" --out "$tmp/sweep3.jsonl" --policy-plugin "$plugins/plugin_no_symbol.so"
[ ! -e "$tmp/sweep3.jsonl" ]
echo ok
