#!/usr/bin/env bash
# rt-app JSON import through the CLI: the shipped examples run on kunpeng920,
# loose JSON is accepted with one warning line per kind, conditions nobody
# wakes are warned about, and unknown events or unmodelled policies exit 1
# naming their JSON path.
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
topo="$src/topologies/kunpeng920.yaml"

for f in "$src"/workloads/rt-app/*.json; do
	"$bin" run -t "$topo" -w "$f" --warmup 20ms --duration 50ms --format json > "$tmp/r.json" 2> "$tmp/err"
	python3 - "$tmp/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run"]["instances"] == 1 and d["run"]["instance_unit"] == "taskset", d["run"]
assert d["metric"]["name"] == "activations" and d["metric"]["value"] > 0, d["metric"]
assert d["wakeup_latency_ns"]["count"] > 0
PY
	# every warning is one line naming the file
	if grep -v "^simsched: warning: $f: " "$tmp/err"; then echo "unexpected stderr for $f"; exit 1; fi
done
# 200 % = the task set twice
"$bin" run -t "$topo" -w "$src/workloads/rt-app/producer-consumer.json" --load 200% --warmup 0 --duration 20ms \
	2> /dev/null | grep "= 2 tasksets (16 tasks)" > /dev/null

# loose JSON, detected by its content without the .json extension
cat > "$tmp/loose.rtapp" <<'JSON'
/* rt-app accepts this */
{
	"tasks" : {
		"t" : {
			"instance" : 2,
			"run" : 1000,
			"sleep" : 3000,
			"run" : 500,   // a second run event
			"sleep" : 1000,
		},
	},
}
JSON
"$bin" run -t "$topo" -w "$tmp/loose.rtapp" --warmup 0 --duration 30ms > "$tmp/out" 2> "$tmp/err"
grep -q "trailing commas" "$tmp/err"
grep -q "2 comments" "$tmp/err"
grep -q "duplicate keys.*tasks.t.run -> run1, tasks.t.sleep -> sleep1" "$tmp/err"
test "$(grep -c "^simsched: warning: $tmp/loose.rtapp: " "$tmp/err")" -eq 3
grep -q "1 taskset (3 tasks)" "$tmp/out"
# the same file through simsched pelt: 1.5 ms of 5.5 ms
"$bin" pelt -w "$tmp/loose.rtapp" --task 't[1]' --summary --hz 0 2> /dev/null | grep "running 27\.[23][0-9] %" > /dev/null

# a timer through simsched pelt: exact, 5 ms busy of every 10 ms; a channel is refused by name
echo '{"tasks": {"t": {"run": 5000, "timer": {"ref": "u", "period": 10000}}}}' > "$tmp/timer.json"
"$bin" pelt -w "$tmp/timer.json" --task t --summary --hz 0 2> /dev/null | grep "running 50\.00 %" > /dev/null
printf 'name: x\ninstance: i\nmetric: {name: m, unit: transactions/s, higher_is_better: true}\ntasks:\n  - name: a\n    program: [loop: {forever: true, do: [run: 1ms, send: b]}]\n  - name: b\n    channel: 4\n    program: [loop: {forever: true, do: [recv, run: 1ms]}]\n' > "$tmp/chan.yaml"
set +e
"$bin" pelt -w "$tmp/chan.yaml" --task a --summary > /dev/null 2> "$tmp/err"
rc=$?
set -e
test "$rc" -ne 0
grep -q "uses 'send'" "$tmp/err"

# rt-app's conditions: a thread nobody resumes is named in one warning line; the run goes on
data="$src/tests/data/rtapp"
"$bin" run -t "$topo" -w "$data/suspend-unresumed.json" --warmup 0 --duration 50ms > /dev/null 2> "$tmp/err"
grep -q "^simsched: warning: $data/suspend-unresumed.json: conditions that no signal, broad, sync or resume wakes: 'consumer' (tasks.consumer.suspend);" "$tmp/err"
# alone on a CPU nobody signals a condition: a wait blocks --wait-time (9 ms, then 1 ms of run: 10 %), or is refused
"$bin" pelt -w "$data/signal-lost.json" --task waiter --summary --hz 0 --wait-time 9ms 2> /dev/null | grep "running 10\.00 %" > /dev/null
set +e
"$bin" pelt -w "$data/signal-lost.json" --task waiter --summary --hz 0 > /dev/null 2> "$tmp/err"
rc=$?
set -e
test "$rc" -eq 1
grep -q "task taskset\[0\]/waiter waits on a condition variable at 5000000 ns; alone on a CPU nobody signals it" "$tmp/err"

bad() {
	local want=$1 file=$2 msg=$3
	set +e
	"$bin" run -t "$topo" -w "$file" --warmup 0 --duration 10ms > /dev/null 2> "$tmp/err"
	local rc=$?
	set -e
	if [ "$rc" -ne "$want" ]; then echo "exit $rc (expected $want) for $file"; cat "$tmp/err"; exit 1; fi
	grep -qF -- "$msg" "$tmp/err" || { echo "expected '$msg', got:"; cat "$tmp/err"; exit 1; }
}
echo '{"tasks": {"thread0": {"phases": {"p1": {"run": 100, "mem": 1000}}}}}' > "$tmp/mem.json"
bad 1 "$tmp/mem.json" "simsched: $tmp/mem.json: tasks.thread0.phases.p1.mem: event 'mem' is not modelled by simsched"
echo '{"tasks": {"t": {"run": 100, "spin": 5}}}' > "$tmp/unknown.json"
bad 1 "$tmp/unknown.json" "$tmp/unknown.json: tasks.t.spin: unknown event or key 'spin'"
echo '{"tasks": {"t": {"policy": "SCHED_FIFO", "priority": 50, "run": 100, "sleep": 100}}}' > "$tmp/fifo.json"
bad 1 "$tmp/fifo.json" "$tmp/fifo.json: tasks.t.policy: policy 'SCHED_FIFO' is not modelled by simsched"
printf '{\n "tasks": {\n  "t": {"run": 1 "sleep": 2}\n }\n}\n' > "$tmp/syntax.json"
bad 1 "$tmp/syntax.json" "$tmp/syntax.json:3:"
# global settings rt-app does not read (Android's "frag", LISA's "logstats") run, named in a warning,
# as rt-app's parse_global() ignores them
echo '{"global": {"frag": 6, "logstats": true}, "tasks": {"t": {"run": 1000, "sleep": 1000}}}' > "$tmp/frag.json"
bad 0 "$tmp/frag.json" "$tmp/frag.json: global: ignored, settings rt-app does not read either (its parse_global() takes the ones it knows by name): frag, logstats"
# taskgroup "/" is the root group (every task is in it); dl-runtime of a SCHED_OTHER thread is a custom slice from v6.12;
# a memory event named as written
echo '{"tasks": {"t": {"taskgroup": "/", "run": 1000, "sleep": 1000}}}' > "$tmp/root.json"
"$bin" run -t "$topo" -w "$tmp/root.json" --warmup 0 --duration 10ms > /dev/null 2> "$tmp/err"
! grep -q "task groups" "$tmp/err"
echo '{"tasks": {"t": {"dl-runtime": 1000, "run": 1000, "sleep": 1000}}}' > "$tmp/slice.json"
bad 0 "$tmp/slice.json" "$tmp/slice.json: tasks.t.dl-runtime: ignored: rt-app passes it as sched_attr.sched_runtime, which Linux uses as a SCHED_OTHER task's custom slice from v6.12"
echo '{"tasks": {"t": {"phases": {"p": {"run": 100, "memrun": 10}}}}}' > "$tmp/memrun.json"
bad 1 "$tmp/memrun.json" "$tmp/memrun.json: tasks.t.phases.p.memrun: event 'memrun' (rt-app's memory workload: read, write or chase over a buffer) is not modelled by simsched"
# rt-app's semaphore events (rt-app 28dccb8) and yield run; yields are counted
echo '{"tasks": {"t": {"run": 100, "sem_post": "s", "sem_wait": "s", "yield": 0}}}' > "$tmp/sem.json"
"$bin" run -t "$topo" -w "$tmp/sem.json" --warmup 0 --duration 10ms --json "$tmp/sem.out" > /dev/null
grep -Eq '"yields":[[:space:]]*[1-9][0-9]+' "$tmp/sem.out" || { echo "no yields counted"; cat "$tmp/sem.out"; exit 1; }
# an affinity change between phases runs; a phase's set with no CPU of the machine is refused where it is given
echo '{"tasks": {"t": {"phases": {"a": {"cpus": [1], "run": 100}, "b": {"cpus": [200], "run": 100}}}}}' > "$tmp/aff.json"
bad 1 "$tmp/aff.json" "$tmp/aff.json: tasks.t.phases.b.cpus: cpus '200' has no CPU the task may use on kunpeng920"
echo '{"tasks": {"t": {"phases": {"a": {"cpus": [1], "run": 100, "sleep": 100}, "b": {"cpus": [2], "run": 100}}}}}' > "$tmp/aff.json"
"$bin" run -t "$topo" -w "$tmp/aff.json" --warmup 0 --duration 10ms --json "$tmp/aff.out" > /dev/null
grep -Eq '"affinity":[[:space:]]*[1-9][0-9]+' "$tmp/aff.out" || { echo "no affinity migrations"; cat "$tmp/aff.out"; exit 1; }
echo '{"tasks": {"t": {"sem_wait": "s", "run": 100}}}' > "$tmp/semdl.json"
bad 3 "$tmp/semdl.json" "$tmp/semdl.json: semaphores that no sem_post posts: 's' (tasks.t.sem_wait)"
echo '{"tasks": {"t": {"run": 100, "sem_wait": ""}}}' > "$tmp/sem0.json"
bad 1 "$tmp/sem0.json" "$tmp/sem0.json: tasks.t.sem_wait: empty sem_wait name (expected the name of a semaphore)"
echo '{"tasks": {"t": {"phases": {"p": {"loop": 5, "yield": 0}}, "loop": 1}}}' > "$tmp/yield.json"
bad 1 "$tmp/yield.json" "a yield takes no time"
# a NUL inside a string (\u0000) is refused where it is; an escaped backslash before u0000 is text
printf '{"tasks": {"a\\u0000b": {"run": 1000, "sleep": 1000}}}' > "$tmp/nul.json"
bad 1 "$tmp/nul.json" "$tmp/nul.json:1:14: a \\u0000 escape, a NUL character in a string"
printf '{"tasks": {"a\\\\u0000b": {"run": 1000, "sleep": 1000}}}' > "$tmp/bs.json"
"$bin" run -t "$topo" -w "$tmp/bs.json" --warmup 0 --duration 1ms > /dev/null
echo "rtapp ok"
