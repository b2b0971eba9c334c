#!/usr/bin/env bash
# simsched sweep / report through the CLI: shards merge into the full sweep,
# a sweep killed with SIGKILL half way and resumed holds the same records as
# an uninterrupted one (nothing lost, nothing twice), report equals compare,
# and bad specs or options give clear errors.
#   sweep.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/spec.yaml" <<YAML
topologies: [$src/topologies/desktop-8c16t.yaml]
workloads: [$src/workloads/netperf-tcp-rr.yaml]
policies: [sis_prop, sis_util]
loads: 50%..200%/50%
seeds: 2
duration: 30ms
warmup: 10ms
YAML
# 16 points: the full sweep, and the same as two shards
"$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/full.jsonl" --jobs 2 2> "$tmp/full.err"
grep -q "16 points in the grid, 16 in shard 1/1, 0 already in the file, 16 run now" "$tmp/full.err"
[ "$(wc -l < "$tmp/full.jsonl")" -eq 16 ]
"$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/s1.jsonl" --shard 1/2 --jobs 1 2> /dev/null
"$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/s2.jsonl" --shard 2/2 --jobs 1 2> /dev/null
[ "$(wc -l < "$tmp/s1.jsonl")" -eq 8 ]
cmp <(sort "$tmp/full.jsonl") <(sort "$tmp/s1.jsonl" "$tmp/s2.jsonl")
# report: the merged shards give the same tables as the full run, and as compare
"$bin" report "$tmp/full.jsonl" > "$tmp/full.txt"
"$bin" report "$tmp/s1.jsonl" "$tmp/s2.jsonl" "$tmp/full.jsonl" > "$tmp/merged.txt"
cmp "$tmp/full.txt" "$tmp/merged.txt"
"$bin" compare --topology "$src/topologies/desktop-8c16t.yaml" --workload "$src/workloads/netperf-tcp-rr.yaml" \
	--policies sis_prop,sis_util --load 50%..200%/50% --seeds 2 --duration 30ms --warmup 10ms > "$tmp/compare.txt"
cmp <(tail -n +2 "$tmp/full.txt") "$tmp/compare.txt"
for f in markdown csv json; do "$bin" report "$tmp/full.jsonl" --format "$f" --metric latency_p99 > "$tmp/r.$f"; done
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); g=d["groups"]; assert len(g)==1 and g[0]["table"]["policies"]==["sis_prop","sis_util"] and len(g[0]["table"]["rows"])==4' "$tmp/r.json"
grep -q '^desktop-8c16t,netperf-tcp-rr,,,,30000000,10000000,latency_p99,100.00,sis_util,' "$tmp/r.csv"

# refuse to append without --resume
if "$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/full.jsonl" 2> "$tmp/err"; then echo "appended without --resume"; exit 1; fi
grep -q -- "--resume" "$tmp/err"

# kill -9 half way (one job, so points finish one by one), then resume
"$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/killed.jsonl" --jobs 1 2> /dev/null &
pid=$!
for _ in $(seq 1 600); do
	[ -f "$tmp/killed.jsonl" ] && [ "$(wc -l < "$tmp/killed.jsonl")" -ge 5 ] && break
	sleep 0.02
done
kill -9 "$pid"
{ wait "$pid"; } 2> /dev/null || true
n=$(wc -l < "$tmp/killed.jsonl")
if [ "$n" -ge 16 ]; then echo "the sweep finished before it was killed ($n lines)"; exit 1; fi
printf '{"key":"topology=' >> "$tmp/killed.jsonl"   # and a torn last line, as a crash mid-write leaves
"$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/killed.jsonl" --resume --jobs 2 2> "$tmp/resume.err"
grep -q "$n already in the file, $((16 - n)) run now, a torn last line of 17 bytes dropped" "$tmp/resume.err"
cmp <(sort "$tmp/full.jsonl") <(sort "$tmp/killed.jsonl")
[ "$(sort "$tmp/killed.jsonl" | uniq -d | wc -l)" -eq 0 ]

# errors: a bad spec names file:line:col and exits 1; bad options exit 2
printf 'topologies: [%s]\nworkloads: [%s]\npolicies: [sis_prop, nope]\nloads: 50%%\nseeds: 2\n' \
	"$src/topologies/desktop-8c16t.yaml" "$src/workloads/netperf-tcp-rr.yaml" > "$tmp/bad.yaml"
set +e
"$bin" sweep --spec "$tmp/bad.yaml" --out "$tmp/bad.jsonl" 2> "$tmp/err"; rc=$?
set -e
[ "$rc" -eq 1 ] && grep -q "^simsched: $tmp/bad.yaml:3:22: unknown policy 'nope'" "$tmp/err"
[ ! -e "$tmp/bad.jsonl" ]
usage() {
	set +e
	"$bin" "$@" > /dev/null 2> "$tmp/err"; rc=$?
	set -e
	[ "$rc" -eq 2 ] || { echo "exit $rc for: $*"; cat "$tmp/err"; exit 1; }
}
usage sweep --spec "$tmp/spec.yaml" --out "$tmp/x.jsonl" --shard 3/2
usage sweep --spec "$tmp/spec.yaml"
usage report
usage report "$tmp/full.jsonl" --metric nope
usage report "$tmp/full.jsonl" --format xml
echo 'not json' > "$tmp/garbage.jsonl"
set +e
"$bin" report "$tmp/full.jsonl" "$tmp/garbage.jsonl" > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ "$rc" -eq 1 ] && grep -q "garbage.jsonl:1: not a JSON object" "$tmp/err"
echo "sweep ok"
