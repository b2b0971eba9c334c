#!/usr/bin/env bash
# One seed range for every command (docs/compare.md "Seed range"):
# 0..2^53-1 for run, compare, pelt and a sweep's seeds; errors state that
# limit, compare names an overflowing --seed + --seeds - 1, and --seeds
# errors speak of --seeds alone.
#   seeds.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
topo=$src/topologies/desktop-8c16t.yaml
wl=$src/workloads/netperf-tcp-rr.yaml
max=9007199254740991
short=(--warmup 0 --duration 10ms)
cmp_args=(compare -t "$topo" -w "$wl" --policies sis_prop,sis_util --load 50% "${short[@]}")

# expect STATUS PATTERN ARGS...: exit STATUS, stderr matching PATTERN
expect() {
	local want=$1 pat=$2
	shift 2
	set +e
	"$bin" "$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	set -e
	if [ "$rc" -ne "$want" ]; then echo "exit $rc (expected $want): $*"; cat "$tmp/err"; exit 1; fi
	grep -e "$pat" "$tmp/err" > /dev/null || { echo "stderr lacks '$pat': $*"; cat "$tmp/err"; exit 1; }
}
# the largest seed works everywhere, and the JSON holds it exactly
"$bin" run -t "$topo" -w "$wl" "${short[@]}" --seed $max --format json > "$tmp/run.json"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["run"]["seed"] == int(sys.argv[2])' "$tmp/run.json" $max
"$bin" "${cmp_args[@]}" --seed $((max - 2)) --seeds 3 > /dev/null
"$bin" pelt --workload "$wl" --task client --wait-time 1ms --seed $max --json --sample 100ms > "$tmp/pelt.json"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["pattern"]["seed"] == int(sys.argv[2])' "$tmp/pelt.json" $max
# one above: refused with the limit, by each command
limit="expected an integer in 0\.\.$max (2^53 - 1"
expect 2 "^simsched: --seed '9007199254740992': $limit" run -t "$topo" -w "$wl" --seed 9007199254740992
expect 2 "^simsched: --seed '18446744073709551615': $limit" run -t "$topo" -w "$wl" --seed 18446744073709551615
expect 2 "^simsched: --seed '18446744073709551612': $limit" "${cmp_args[@]}" --seed 18446744073709551612 --seeds 3
expect 2 "^simsched: --seed '-1': $limit" "${cmp_args[@]}" --seed -1
expect 2 "^simsched: --seed '9007199254740992': $limit" pelt --workload "$wl" --task client --seed 9007199254740992
# compare: the last seed overflows, named as such
expect 2 "^simsched: --seed $((max - 1)) --seeds 3: the last seed, --seed + --seeds - 1 = 9007199254740992, exceeds $max" \
	"${cmp_args[@]}" --seed $((max - 1)) --seeds 3
# --seeds speaks of itself only
expect 2 "^simsched: --seeds 0: expected a seed count in 1\.\.1000$" "${cmp_args[@]}" --seeds 0
expect 2 "^simsched: --seeds 1001: expected a seed count in 1\.\.1000$" "${cmp_args[@]}" --seeds 1001
grep -e "--jobs" "$tmp/err" > /dev/null && { echo "--seeds error mentions --jobs"; exit 1; }
expect 2 "^simsched: --jobs 2000: " "${cmp_args[@]}" --jobs 2000
# a sweep: the same limit
cat > "$tmp/spec.yaml" <<YAML
topologies: [$topo]
workloads: [$wl]
policies: [sis_util]
loads: [50%]
seeds: 2
first_seed: $((max - 1))
duration: 10ms
warmup: 0
YAML
"$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/r.jsonl" --quiet
python3 -c 'import json,sys; s=sorted(json.loads(l)["seed"] for l in open(sys.argv[1])); assert s == [int(sys.argv[2]) - 1, int(sys.argv[2])], s' "$tmp/r.jsonl" $max
"$bin" report "$tmp/r.jsonl" | grep "^Hmean     50%" > /dev/null
sed -i "s/^seeds: 2/seeds: 3/" "$tmp/spec.yaml"
expect 1 "first_seed + seeds - 1 exceeds 2^53 - 1" sweep --spec "$tmp/spec.yaml" --out "$tmp/r2.jsonl"
echo ok
