#!/usr/bin/env bash
# A run whose tasks all block for ever (no runnable task, no timer or
# wakeup pending that could release one) is found by the engine: a warning
# on stderr, in the text report and in the JSON (warnings[],
# run.deadlock_at_ns), and exit status 3 after the output is written.
# Workloads that finish (every task exits; rt-app's main thread left in
# pthread_join) are not deadlocks. A workload timed to its finish that
# deadlocks fails with status 3. compare, sweep and report say so too.
#   deadlock.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d="$src/topologies/desktop-8c16t.yaml"
short=(--warmup 1ms --duration 10ms)
# run_rc OUT ERR COMMAND...: run it with stdout and stderr to the files, its status in $rc
run_rc() { local out=$1 err=$2; shift 2; set +e; "$@" > "$out" 2> "$err"; rc=$?; set -e; }

# 50 round trips, then a waits for a wake that b never sends: both blocked for ever
cat > "$tmp/stop.yaml" <<'YAML'
name: ping-then-stop
instance: pair
metric: {name: throughput, unit: transactions/s, higher_is_better: true}
tasks:
  - name: a
    program:
      - loop: {count: 50, do: [transaction: begin, run: 5us, wake: b, wait: 1, transaction: end]}
      - wait: 1
  - name: b
    program: [loop: {forever: true, do: [wait: 1, run: 5us, wake: a]}]
YAML
run_rc "$tmp/stop.txt" "$tmp/stop.err" "$bin" run -t "$d" -w "$tmp/stop.yaml" --load 25% --warmup 0 --duration 10ms --json "$tmp/stop.json"
[ "$rc" = 3 ]
grep -Eq '^simsched: warning: deadlock at 0\.00[0-9]+ s: 8 of 8 tasks blocked for ever \(e\.g\. pair\[0\]/a in wait\)' "$tmp/stop.err" || { cat "$tmp/stop.err"; exit 1; }
grep -q '^warning: deadlock at ' "$tmp/stop.txt"
python3 - "$tmp/stop.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
at = j["run"]["deadlock_at_ns"]
assert isinstance(at, int) and 0 < at < j["run"]["warmup_ns"] + j["run"]["duration_ns"], at
assert len(j["warnings"]) == 1 and j["warnings"][0].startswith("deadlock at "), j["warnings"]
assert j["throughput"]["transactions"] > 0   # the round trips before it count
PY

# a lock-order inversion (ABBA): blocked in lock
cat > "$tmp/abba.yaml" <<'YAML'
name: abba
instance: pair
metric: {name: throughput, unit: transactions/s, higher_is_better: true}
tasks:
  - name: x
    program: [loop: {forever: true, do: [lock: A, run: 20us, lock: B, transaction: begin, run: 1us, transaction: end, unlock: B, unlock: A, sleep: 10us]}]
  - name: y
    program: [loop: {forever: true, do: [lock: B, run: 20us, lock: A, run: 1us, unlock: A, unlock: B, sleep: 10us]}]
YAML
run_rc /dev/null "$tmp/abba.err" "$bin" run -t "$d" -w "$tmp/abba.yaml" --load 25% "${short[@]}" -q
[ "$rc" = 3 ]
grep -q 'in lock) with no task able to run' "$tmp/abba.err" || { cat "$tmp/abba.err"; exit 1; }

# every task exits: finished, not deadlocked
cat > "$tmp/done.yaml" <<'YAML'
name: ping-then-exit
instance: pair
metric: {name: throughput, unit: transactions/s, higher_is_better: true}
tasks:
  - name: a
    program:
      - loop: {count: 50, do: [transaction: begin, run: 5us, wake: b, wait: 1, transaction: end]}
      - wake: b
  - name: b
    program:
      - loop: {count: 50, do: [wait: 1, run: 5us, wake: a]}
      - wait: 1
YAML
run_rc "$tmp/done.json" "$tmp/done.err" "$bin" run -t "$d" -w "$tmp/done.yaml" --load 25% "${short[@]}" --format json
[ "$rc" = 0 ]
[ ! -s "$tmp/done.err" ]
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["run"]["deadlock_at_ns"] is None and j["warnings"] == [], j["warnings"]' "$tmp/done.json"
# a phase that ends (stop_after): the client exits, the server left in wait is past its
# stop_after too (it would exit at its next statement): finished
cat > "$tmp/phase.yaml" <<'YAML'
name: phase
instance: pair
metric: {name: throughput, unit: transactions/s, higher_is_better: true}
tasks:
  - name: client
    stop_after: 3ms
    program: [loop: {forever: true, do: [transaction: begin, wake: server, wait: 1, transaction: end]}]
  - name: server
    stop_after: 3ms
    program: [loop: {forever: true, do: [wait: 1, run: 5us, wake: client]}]
YAML
run_rc /dev/null "$tmp/phase.err" "$bin" run -t "$d" -w "$tmp/phase.yaml" --load 25% --warmup 0 --duration 10ms -q
[ "$rc" = 0 ]
[ ! -s "$tmp/phase.err" ]
# the same server with a later stop_after is blocked for ever before it: a deadlock
sed '0,/stop_after: 3ms/! s/stop_after: 3ms/stop_after: 1s/' "$tmp/phase.yaml" > "$tmp/phase2.yaml"
grep -q 'stop_after: 1s' "$tmp/phase2.yaml"
run_rc /dev/null "$tmp/phase2.err" "$bin" run -t "$d" -w "$tmp/phase2.yaml" --load 25% --warmup 0 --duration 10ms -q
[ "$rc" = 3 ]
grep -q '/server in wait' "$tmp/phase2.err"
# rt-app threads that end: the main thread stays in pthread_join, the run has finished
cat > "$tmp/finite.json" <<'JSON'
{ "tasks": { "worker": { "instance": 4, "loop": 5, "run": 1000, "sleep": 1000 } } }
JSON
run_rc /dev/null "$tmp/rt.err" "$bin" run -t "$d" -w "$tmp/finite.json" "${short[@]}" -q
[ "$rc" = 0 ]
if grep -q deadlock "$tmp/rt.err"; then cat "$tmp/rt.err"; exit 1; fi
# the shipped hackbench finishes: no warning
run_rc /dev/null "$tmp/hb.err" "$bin" run -t "$d" -w "$src/workloads/hackbench-process-pipes.yaml" --load 25% --warmup 0 --duration 100ms -q
[ "$rc" = 0 ]
[ ! -s "$tmp/hb.err" ]

# a figure that needs every task to exit: the run fails with status 3, no result file
sed 's/metric: {name: throughput, unit: transactions\/s, higher_is_better: true}/metric: {name: time, unit: s, higher_is_better: false}/' "$tmp/stop.yaml" > "$tmp/stop-time.yaml"
run_rc /dev/null "$tmp/t.err" "$bin" run -t "$d" -w "$tmp/stop-time.yaml" --load 25% "${short[@]}" --json "$tmp/t.json"
[ "$rc" = 3 ]
grep -q 'deadlock at .* it never finishes (raising --duration will not help)' "$tmp/t.err" || { cat "$tmp/t.err"; exit 1; }
[ ! -e "$tmp/t.json" ]

# compare prints its table, warns and exits 3
run_rc "$tmp/cmp.txt" "$tmp/cmp.err" "$bin" compare -t "$d" -w "$tmp/stop.yaml" --policies sis_util,sis_prop --load 25% --seeds 1 "${short[@]}"
[ "$rc" = 3 ]
grep -q '^Hmean' "$tmp/cmp.txt"
grep -q '^simsched: warning: 2 of 2 runs deadlocked .*the first: sis_util at 25.00%, seed 1: deadlock at' "$tmp/cmp.err"
# sweep writes the records (deadlock_at_ns), warns and exits 3; report names them
cat > "$tmp/spec.yaml" <<YAML
topologies: [$d]
workloads: [$tmp/stop.yaml]
policies: [sis_util]
loads: [25%]
seeds: 1
duration: 10ms
warmup: 1ms
YAML
run_rc /dev/null "$tmp/sw.err" "$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/s.jsonl"
[ "$rc" = 3 ]
grep -q '^simsched: warning: 1 of the 1 runs deadlocked' "$tmp/sw.err"
python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).readline()); assert r["deadlock_at_ns"] > 0' "$tmp/s.jsonl"
"$bin" report "$tmp/s.jsonl" > /dev/null 2> "$tmp/rep.err"
grep -q "s.jsonl:1: policy sis_util at load 25.00%, seed 1 deadlocked at 0.00" "$tmp/rep.err"

# an rt-app thread left in a condition wait: its signal came before it waited (lost)
cat > "$tmp/lost.json" <<'JSON'
{ "tasks": {
    "sig":    { "loop": 1, "run": 100, "signal": "c" },
    "waiter": { "loop": 1, "sleep": 2000, "wait": { "ref": "c", "mutex": "m" }, "run": 100 } } }
JSON
run_rc /dev/null "$tmp/lost.err" "$bin" run -t "$d" -w "$tmp/lost.json" --warmup 10ms --duration 20ms -q --json "$tmp/lost.out.json"
[ "$rc" = 3 ]
grep -q '/waiter in a condition wait) with no task able to run' "$tmp/lost.err" || { cat "$tmp/lost.err"; exit 1; }
