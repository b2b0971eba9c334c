#!/usr/bin/env bash
# Workload parameters from the command line: --set workload.NAME=VALUE on
# run and compare changes the workload (hackbench's num_fds: tasks per group
# and groups per load), the model's --set sections still apply beside it,
# --set help lists the workload's parameters, and a bad one exits 2 with
# one line naming the file, the parameter and what is expected.
#   workload_params.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
topo=$src/topologies/spr224.yaml
hb=$src/workloads/hackbench-thread-sockets.yaml
fail=0
check() { if ! eval "$2"; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi; }

# seed 000's hackbench: 14 fds, 28 tasks per group, groups 1..8 at 25 %..200 % of 112 CPUs
"$bin" run -t "$topo" --nodes 0 -w "$hb" --load 25% --set workload.num_fds=14 --set workload.loops=20 \
	--json "$tmp/g1.json" -q
# the model's sections still apply beside the workload's
"$bin" run -t "$topo" --nodes 0 -w "$hb" --load 25% --set workload.num_fds=14 --set cost.context_switch_ns=20us \
	--set workload.loops=20 --json "$tmp/hz.json" -q
"$bin" run -t "$topo" --nodes 0 -w "$hb" --load 200% --set workload.num_fds=14 --set workload.loops=20 \
	--json "$tmp/g8.json" -q
"$bin" run -t "$topo" --nodes 0 -w "$hb" --load 100% --json "$tmp/def.json" -q
check "25% = 1 group of 28 + its parent" \
	"python3 -c 'import json; r=json.load(open(\"$tmp/g1.json\"))[\"run\"]; assert (r[\"instances\"], r[\"tasks\"]) == (1, 29), r'"
check "200% = 8 groups" \
	"python3 -c 'import json; r=json.load(open(\"$tmp/g8.json\"))[\"run\"]; assert (r[\"instances\"], r[\"tasks\"]) == (8, 232), r'"
check "default num_fds 20: 112 / 40 = 2.8 -> 3 groups of 41 tasks" \
	"python3 -c 'import json; r=json.load(open(\"$tmp/def.json\"))[\"run\"]; assert (r[\"instances\"], r[\"tasks\"]) == (3, 123), r'"

# compare takes them too, for every point
"$bin" compare -t "$topo" --nodes 0 -w "$hb" --policies sis_util,sis_prop --load 25% --seeds 1 \
	--set workload.num_fds=14 --set workload.loops=20 --format csv > "$tmp/cmp.csv"
check "compare runs the same workload as run" \
	"python3 -c 'import json,csv; v=json.load(open(\"$tmp/g1.json\"))[\"metric\"][\"value\"]; rows=list(csv.DictReader(open(\"$tmp/cmp.csv\"))); c=[r for r in rows if r[\"policy\"]==\"sis_util\"][0]; assert c[\"metric\"]==\"time\" and abs(float(c[\"values\"])-v) < 5e-7, (c, v)'"
check "cost.context_switch_ns beside workload.*" \
	"python3 -c 'import json; a=json.load(open(\"$tmp/hz.json\")); b=json.load(open(\"$tmp/g1.json\")); assert a[\"run\"][\"tasks\"] == 29 and a[\"metric\"][\"value\"] != b[\"metric\"][\"value\"]'"

# --set help lists the workload's parameters with defaults and ranges
"$bin" run --set help -w "$hb" > "$tmp/help.txt"
check "help lists workload.num_fds" "grep -q 'workload.num_fds *default 20, 1..4096' \"$tmp/help.txt\""
check "help lists workload.buffer_msgs" "grep -q 'workload.buffer_msgs *default 238' \"$tmp/help.txt\""

# errors: exit 2, one line
expect2() {
	local what=$1 msg=$2
	shift 2
	set +e
	"$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	set -e
	if [ $rc -ne 2 ] || [ "$(wc -l < "$tmp/err")" -ne 1 ] || ! grep -qF "$msg" "$tmp/err" || [ -s "$tmp/out" ]; then
		echo "FAIL: $what: rc $rc: $(cat "$tmp/err")"; fail=1
	else
		echo "ok: $what"
	fi
}
expect2 "unknown parameter" "hackbench-thread-sockets.yaml: no workload parameter 'fds' (expected one of: num_fds, loops or buffer_msgs)" \
	"$bin" run -t "$topo" -w "$hb" --set workload.fds=14
expect2 "out of range" "parameter num_fds = 0 is out of range (expected 1..4096)" \
	"$bin" run -t "$topo" -w "$hb" --set workload.num_fds=0
expect2 "not an integer" "parameter loops = '1e3' is not an integer in range (expected an integer in 1..1000000)" \
	"$bin" compare -t "$topo" -w "$hb" --policies sis_util --load 25% --set workload.loops=1e3
expect2 "rt-app file" "an rt-app file has no workload parameters" \
	"$bin" run -t "$topo" -w "$src/workloads/rt-app/periodic-taskset.json" --set workload.x=1
exit $fail
