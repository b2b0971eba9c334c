#!/bin/bash
# --kernel 5.17|6.6 (docs/model.md "By kernel version", docs/policies.md
# "Policies and kernels"): what each run records, the policy × kernel table
# and its refusals, the version's features table, --rerun of a v5.17 result,
# and every shipped workload under v5.17 (v6.6: cli_workloads).
set -euo pipefail
BIN=$1 SRC=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$SRC"
T=topologies/desktop-8c16t.yaml
short=(--warmup 10ms --duration 20ms)

expect_fail() {   # expect_fail CODE MESSAGE-REGEX -- ARGS...
	local code=$1 re=$2; shift 3
	set +e
	"$BIN" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	set -e
	if [ "$rc" != "$code" ] || ! grep -Eq -e "$re" "$tmp/err"; then
		echo "FAIL: $* -> exit $rc (expected $code), stderr:"; cat "$tmp/err"; exit 1
	fi
	[ ! -s "$tmp/out" ] || { echo "FAIL: $*: wrote to stdout"; exit 1; }
}

# v5.17's default policy is its features.h default (SIS_PROP); JSON and text say so
"$BIN" run --topology $T --workload workloads/netperf-tcp-rr.yaml --kernel 5.17 "${short[@]}" \
	--json "$tmp/a.json" >"$tmp/a.txt"
grep -q '^policy sis_prop, kernel model v5.17,' "$tmp/a.txt"
grep -q '^sched features: .*GENTLE_FAIR_SLEEPERS' "$tmp/a.txt"
if grep -q 'PLACE_LAG\|SIS_UTIL ' "$tmp/a.txt"; then echo "FAIL: v6.6 features listed under v5.17"; exit 1; fi
python3 - "$tmp/a.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
r = j["run"]
assert r["kernel_model"] == "v5.17" and r["policy"] == "sis_prop" and r["policy_base"] == "v5.17", r
assert j["provenance"]["kernel_model"] == "v5.17"
f = r["sched_features"].split()
assert "NO_SIS_UTIL" not in f and "SIS_UTIL" not in f and "START_DEBIT" in f, f
PY
# a v5.17 result runs again as v5.17, byte for byte
"$BIN" run --rerun "$tmp/a.json" --format json | cmp - "$tmp/a.json"
expect_fail 2 "--kernel cannot be given with it" -- run --rerun "$tmp/a.json" --kernel 6.6

# v6.6 stays the default and records itself; a patch records what it is against
"$BIN" run --topology $T --workload workloads/netperf-tcp-rr.yaml --kernel v6.6 --policy sis_util_linear \
	"${short[@]}" --format json >"$tmp/b.json"
python3 - "$tmp/b.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["run"]
assert r["kernel_model"] == "v6.6" and r["policy_base"] == "v5.17 patch ported to v6.6", r
f = r["sched_features"].split()
assert "PLACE_LAG" in f and "GENTLE_FAIR_SLEEPERS" not in f and "NO_GENTLE_FAIR_SLEEPERS" not in f, f
PY

# policy × kernel: what v5.17 does not have is refused, with the reason and the alternatives
expect_fail 2 "policy 'sis_util' does not run on kernel v5.17: SIS_UTIL was merged in v6.0.*policies on v5.17: sis_prop" -- \
	run --topology $T --workload workloads/netperf-tcp-rr.yaml --kernel 5.17 --policy sis_util "${short[@]}"
expect_fail 2 "policy 'burst_threshold' does not run on kernel v5.17" -- \
	run --topology $T --workload workloads/netperf-tcp-rr.yaml --kernel 5.17 --policy burst_threshold "${short[@]}"
# --sched-features against that version's features.h
expect_fail 2 "sched feature 'SIS_UTIL' does not exist in kernel v5.17 \(its features.*GENTLE_FAIR_SLEEPERS" -- \
	run --topology $T --workload workloads/netperf-tcp-rr.yaml --kernel 5.17 --sched-features SIS_UTIL "${short[@]}"
expect_fail 2 "sched feature 'NO_RUN_TO_PARITY' does not exist in kernel v5.17" -- \
	run --topology $T --workload workloads/netperf-tcp-rr.yaml --kernel 5.17 --sched-features NO_RUN_TO_PARITY "${short[@]}"
expect_fail 2 "sched feature 'GENTLE_FAIR_SLEEPERS' does not exist in kernel v6.6" -- \
	run --topology $T --workload workloads/netperf-tcp-rr.yaml --sched-features GENTLE_FAIR_SLEEPERS "${short[@]}"
expect_fail 2 "kernel '4.19' is not modelled \(expected 6.6 or 5.17\)" -- \
	run --topology $T --workload workloads/netperf-tcp-rr.yaml --kernel 4.19 "${short[@]}"
# a v5.17 feature switches: NO_GENTLE_FAIR_SLEEPERS is accepted and changes the run
"$BIN" run --topology $T --workload workloads/netperf-tcp-rr.yaml --kernel 5.17 --load 200% \
	--sched-features NO_GENTLE_FAIR_SLEEPERS,NO_LAST_BUDDY "${short[@]}" --format json >"$tmp/c.json"
grep -q '"sched_features":	"NO_NEXT_BUDDY .*NO_GENTLE_FAIR_SLEEPERS START_DEBIT NO_LAST_BUDDY' "$tmp/c.json"

# simsched policies lists the kernels each policy runs on, with its base there
"$BIN" policies >"$tmp/pol.txt"
grep -A3 '^sis_util ' "$tmp/pol.txt" | grep -qx '                  kernels: 6.6 (v6.6)'
grep -A3 '^sis_clear_target ' "$tmp/pol.txt" | grep -qx '                  kernels: 6.6 (v5.16-rc1 patch ported to v6.6), 5.17 (v5.16-rc1 patch)'

# compare: kernels as a dimension, one column per policy and kernel, the first the baseline
"$BIN" compare --topology $T --workload workloads/hackbench-process-pipes.yaml --policies sis_prop,full_scan \
	--kernels 5.17,6.6 --load 100% --seeds 1 --warmup 10ms --duration 20ms --format json >"$tmp/cmp.json"
python3 - "$tmp/cmp.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["policies"] == ["sis_prop@5.17", "sis_prop@6.6", "full_scan@5.17", "full_scan@6.6"], j["policies"]
assert [c["policy"] for c in j["rows"][0]["cells"]] == j["policies"]
PY
# one kernel: columns are plain policy names; --kernel 5.17 runs v5.17
"$BIN" compare --topology $T --workload workloads/hackbench-process-pipes.yaml --policies sis_prop --kernel 5.17 \
	--load 100% --seeds 1 --warmup 10ms --duration 20ms --format json >"$tmp/cmp1.json"
python3 - "$tmp/cmp1.json" "$tmp/cmp.json" <<'PY'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["policies"] == ["sis_prop"]
# the same runs as the sis_prop@5.17 column
assert a["rows"][0]["cells"][0]["values"] == b["rows"][0]["cells"][0]["values"]
PY
expect_fail 2 "policy 'sis_util' does not run on kernel v5.17" -- compare --topology $T \
	--workload workloads/netperf-tcp-rr.yaml --policies sis_prop,sis_util --kernels 6.6,5.17 --load 50% --seeds 1
expect_fail 2 "kernel 5.17 is named twice" -- compare --topology $T --workload workloads/netperf-tcp-rr.yaml \
	--policies sis_prop --kernels 5.17,5.17 --load 50% --seeds 1
expect_fail 2 "give one" -- compare --topology $T --workload workloads/netperf-tcp-rr.yaml \
	--policies sis_prop --kernel 5.17 --kernels 5.17,6.6 --load 50% --seeds 1

# sweep: `kernel:` is a dimension of the grid, in the point key and the record; report's columns
cat >"$tmp/spec.yaml" <<EOF2
topologies: $PWD/$T
workloads: $PWD/workloads/netperf-tcp-rr.yaml
policies: sis_prop
kernel: [6.6, 5.17]
loads: 50%
seeds: 1
duration: 20ms
warmup: 10ms
EOF2
"$BIN" sweep --spec "$tmp/spec.yaml" --out "$tmp/r.jsonl" 2>/dev/null
python3 - "$tmp/r.jsonl" <<'PY'
import json, sys
recs = sorted((json.loads(l) for l in open(sys.argv[1])), key=lambda r: r["grid"]["point"])
assert [r["kernel"] for r in recs] == ["6.6", "5.17"], [r["kernel"] for r in recs]
assert "|kernel=" not in recs[0]["key"] and "|policy=sis_prop|kernel=5.17|" in recs[1]["key"], recs[1]["key"]
assert recs[1]["provenance"]["kernel_model"] == "v5.17"
PY
for n in 1 2; do "$BIN" run --rerun "$tmp/r.jsonl" --record $n --format json | cmp - <(sed -n ${n}p "$tmp/r.jsonl"); done
"$BIN" report "$tmp/r.jsonl" | grep -Eq 'sis_prop +sis_prop@5.17'
sed 's/^kernel: .*/kernel: [5.17]/; s/^policies: .*/policies: [sis_util]/' "$tmp/spec.yaml" >"$tmp/bad.yaml"
expect_fail 1 "bad.yaml:4:9: policy 'sis_util' does not run on kernel v5.17" -- sweep --spec "$tmp/bad.yaml" --out "$tmp/bad.jsonl"
sed 's/^kernel: .*/kernel: 4.19/' "$tmp/spec.yaml" >"$tmp/bad.yaml"
expect_fail 1 "bad.yaml:4:9: kernel '4.19' is not modelled" -- sweep --spec "$tmp/bad.yaml" --out "$tmp/bad.jsonl"
printf 'sched_features: SIS_UTIL\n' >>"$tmp/spec.yaml"
expect_fail 1 "sched_features: sched feature 'SIS_UTIL' does not exist in kernel v5.17" -- sweep --spec "$tmp/spec.yaml" --out "$tmp/bad.jsonl"

# every shipped workload runs under v5.17 (short runs, a 16-CPU machine)
fail=0
for f in workloads/*.yaml; do
	dur=20ms
	case $(basename "$f") in schbench-old.yaml) dur=300ms ;; esac
	for t in desktop-8c16t; do
		if ! out=$("$BIN" run --topology "topologies/$t.yaml" --workload "$f" --kernel 5.17 --warmup 10ms \
			--duration $dur --format json); then
			echo "FAIL $f $t: exit"; fail=1; continue
		fi
		printf '%s' "$out" | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["run"]["kernel_model"] == "v5.17"
assert j["metric"]["value"] > 0, j["metric"]' || { echo "FAIL $f $t"; fail=1; }
	done
done
exit $fail
