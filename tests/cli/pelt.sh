#!/usr/bin/env bash
# simsched pelt: the reference's periodic table (kernel-sched.md 1.8.4) through
# the command, JSON output, a workload task, and clear errors.
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the done-when: 10 ms period, 50 % busy -> 485..538 at every HZ
for hz in 1000 250 0; do
	"$bin" pelt --period 10ms --busy 50% --hz "$hz" > "$tmp/p.txt"
	grep -q "^steady state 3000.000000..4000.000000 ms: util_avg 485..538, runnable_avg 485..538, running 50.00 %" "$tmp/p.txt" \
		|| { echo "hz $hz:"; tail -1 "$tmp/p.txt"; exit 1; }
done
# one row per ms of 4 s, after two header lines and the column line, then the summary
test "$(wc -l < "$tmp/p.txt")" -eq 4004
# rows of the table as the reference's protocol sees them: 4 ms ticks (HZ 250)
"$bin" pelt --period 10ms --busy 50% --summary > "$tmp/s.txt"
test "$(wc -l < "$tmp/s.txt")" -eq 3
grep -q "util_avg 485..538" "$tmp/s.txt"
# other rows of the table, and 1.8.5 invariance
"$bin" pelt --period 10ms --busy 80% --hz 1000 --summary | grep "util_avg 802..836" > /dev/null
"$bin" pelt --period 10ms --busy 80% --freq-ratio 0.5 --summary | grep "util_avg 384..435" > /dev/null
"$bin" pelt --period 10ms --busy 50% --capacity 512 --summary | grep "util_avg 236..276" > /dev/null
"$bin" pelt --period 10ms --busy 5ms --hz 0 --summary | grep "util_avg 485..538" > /dev/null

# JSON
"$bin" pelt --period 10ms --busy 50% --json --sample 10ms > "$tmp/p.json"
python3 - "$tmp/p.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["steady_state"]
assert (s["util_avg_min"], s["util_avg_max"]) == (485, 538), s
assert d["pattern"]["period_ns"] == 10000000 and d["pattern"]["busy_ns"] == 5000000
assert len(d["samples"]) == 400 and d["samples"][0]["event"] == "fork"
assert all(x["time_ns"] == i * 10000000 for i, x in enumerate(d["samples"]))
PY
# deterministic
"$bin" pelt --period 10ms --busy 50% --json --sample 10ms | cmp - "$tmp/p.json"

# a workload task alone: netperf's client waits for its server
"$bin" pelt --workload "$src/workloads/netperf-tcp-rr.yaml" --task client --wait-time 6us --duration 200ms \
	--summary > "$tmp/w.txt"
grep -q "^# workload .*task pair\[0\]/client alone" "$tmp/w.txt"
grep -q "^steady state 150.000000..200.000000 ms: util_avg " "$tmp/w.txt"
"$bin" pelt --workload "$src/workloads/netperf-tcp-rr.yaml" --task 'pair[3]/server' --wait-time 6us \
	--duration 20ms --summary | grep "task pair\[3\]/server" > /dev/null

bad() {
	local want=$1
	shift
	set +e
	"$bin" "$@" > /dev/null 2> "$tmp/err"
	local rc=$?
	set -e
	if [ "$rc" -ne "$want" ]; then echo "exit $rc (expected $want): $*"; cat "$tmp/err"; exit 1; fi
	grep -q "^simsched: " "$tmp/err" || { echo "no message for: $*"; exit 1; }
}
bad 2 pelt --period 10ms
bad 2 pelt --period 10ms --busy 101%
bad 2 pelt --period 10ms --busy 11ms
bad 2 pelt --period 0 --busy 50%
# degenerate periods: each refused with its reason (docs/pelt.md)
bad 2 pelt --period 1ns --busy 50%
grep -F "shorter than PELT's time unit of 1024 ns" "$tmp/err" > /dev/null
bad 2 pelt --period 1023ns --busy 50%
bad 2 pelt --period 2501s --busy 50%
grep -F "expected a period of 1024ns..2500s" "$tmp/err" > /dev/null
bad 2 pelt --period 1024ns --busy 0.01%
grep -F "rounds to 0 ns of running" "$tmp/err" > /dev/null
bad 2 pelt --period 10ms --busy 50% --duration 9ms
grep -F "nothing repeats" "$tmp/err" > /dev/null
bad 2 pelt --period 10us --busy 50% --duration 101s --sample 1s
grep -F "10100000 periods of 10us, more than 10^7" "$tmp/err" > /dev/null
# the bounds themselves are accepted
"$bin" pelt --period 1024ns --busy 0.1% --summary | grep "running 0.10 % of the time" > /dev/null
"$bin" pelt --period 2500s --busy 50% --sample 1000s --summary | grep "util_avg 0..1024" > /dev/null
bad 2 pelt --period 10ms --busy 50% --freq-ratio 0
bad 2 pelt --period 10ms --busy 50% --freq-ratio 1.5
bad 2 pelt --period 10ms --busy 50% --capacity 2000
bad 2 pelt --period 10ms --busy 50% --hz 50
bad 2 pelt --period 10ms --busy 50% --steady-from 5s
bad 2 pelt --period 10ms --busy 50% --workload "$src/workloads/netperf-tcp-rr.yaml"
bad 2 pelt --workload "$src/workloads/netperf-tcp-rr.yaml" --task nobody
bad 1 pelt --workload "$src/workloads/netperf-tcp-rr.yaml" --task client
grep -q "pair\[0\]/client waits" "$tmp/err"
bad 1 pelt --workload "$tmp/missing.yaml" --task client
echo "pelt ok"
