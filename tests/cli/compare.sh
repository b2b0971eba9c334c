#!/usr/bin/env bash
# simsched compare: a small table, identical with --jobs 1 and --jobs 2, every
# format, and clear errors for bad options.
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(compare --topology "$src/topologies/desktop-8c16t.yaml" --workload "$src/workloads/netperf-tcp-rr.yaml"
      --policies sis_prop,sis_util --load 50%..90%/40% --seeds 2 --warmup 20ms --duration 30ms)
"$bin" "${args[@]}" --jobs 1 > "$tmp/j1.txt" 2> "$tmp/j1.err"
[ ! -s "$tmp/j1.err" ]   # no progress line when stderr is not a terminal
"$bin" "${args[@]}" --jobs 2 --out "$tmp/j2.txt" > /dev/null
cmp "$tmp/j1.txt" "$tmp/j2.txt"
grep -q "^Hmean     50%" "$tmp/j1.txt"
grep -q "^Hmean     90%" "$tmp/j1.txt"
grep -q "^CoeffVar  90%" "$tmp/j1.txt"
for f in markdown csv json; do "$bin" "${args[@]}" --format "$f" > "$tmp/o.$f"; done
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["policies"]==["sis_prop","sis_util"] and len(d["rows"])==2' "$tmp/o.json"
grep -q "^throughput,50.00,sis_util," "$tmp/o.csv"
grep -q "^| Hmean | 90% |" "$tmp/o.markdown"
bad() {
	if "$bin" "$@" > /dev/null 2> "$tmp/err"; then echo "accepted: $*"; exit 1; fi
	grep -q "^simsched: " "$tmp/err" || { echo "no message for: $*"; cat "$tmp/err"; exit 1; }
}
bad "${args[@]}" --policies sis_prop,bogus
bad "${args[@]}" --load 200%..25%/25%
bad "${args[@]}" --metric nope
bad "${args[@]}" --format xml
bad "${args[@]}" --seeds 0
bad compare --topology "$src/topologies/desktop-8c16t.yaml"
# duplicates and the load limit: usage errors (exit 2) that name the problem
usage() {
	local want=$1; shift
	set +e; "$bin" "$@" > /dev/null 2> "$tmp/err"; local rc=$?; set -e
	[ "$rc" -eq 2 ] || { echo "exit $rc, expected 2: $*"; cat "$tmp/err"; exit 1; }
	grep -F -- "$want" "$tmp/err" > /dev/null || { echo "no '$want' for: $*"; cat "$tmp/err"; exit 1; }
}
usage "policy 'sis_util' is named twice" "${args[@]}" --policies sis_util,sis_prop,sis_util
usage "load 50% is given twice" "${args[@]}" --load 50%,50%
usage "load 50% is given twice, as '50%' (item 1) and '0.5' (item 3)" "${args[@]}" --load 50%,75%,0.5
usage "1000000 loads asked, at most 1000" "${args[@]}" --load 0.01%..10000%/0.01%
usage "1001 loads asked, at most 1000" "${args[@]}" --load "$(seq -s, -f '%g%%' 1 1001)"
echo "compare ok"
