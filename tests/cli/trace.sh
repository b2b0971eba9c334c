#!/usr/bin/env bash
# simsched run --trace (docs/output.md "kernel trace"): every line in the kernel's
# layout; per-CPU busy time and migrations summed from the trace equal the
# JSON over the same window; a trace of some CPUs is the full trace's lines of
# those CPUs; tracing changes no result; the same seed gives the same bytes;
# bad options and failed runs leave no file.
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/llc2.yaml" <<'EOF'
name: llc2
vendor: arm
packages:
  - nodes:
      - llcs:
          - cores: "0-3"
          - cores: "4-7"
EOF
wl=$src/workloads/netperf-tcp-rr.yaml

# 1. Layout: the header of a v6.6 trace file, then trace_print_context() lines
"$bin" run -t "$src/topologies/kunpeng920.yaml" -w "$wl" --load 100% --warmup 10ms --duration 2ms \
	--trace "$tmp/k.txt" --trace-window 10ms..12ms --trace-cpus 0-7 -q
head -n 12 "$tmp/k.txt" > "$tmp/head.txt"
n=$(grep -vc '^#' "$tmp/k.txt")
cat > "$tmp/head.want" <<EOF
# tracer: nop
#
# entries-in-buffer/entries-written: $n/$n   #P:128
#
#                                _-----=> irqs-off/BH-disabled
#                               / _----=> need-resched
#                              | / _---=> hardirq/softirq
#                              || / _--=> preempt-depth
#                              ||| / _-=> migrate-disable
#                              |||| /     delay
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
EOF
diff "$tmp/head.want" "$tmp/head.txt"
[ "$n" -gt 1000 ] || { echo "too few lines: $n" >&2; exit 1; }
ctx='^ *[^ ]{1,16}-[0-9]+ +\[00[0-7]\] [d.][N.][hs.][0-9.]\.     0\.01[0-2][0-9]{3}: '
bad=$(grep -v '^#' "$tmp/k.txt" | grep -Evc "${ctx}(sched_switch: prev_comm=[^ ]+ prev_pid=[0-9]+ prev_prio=[0-9]+ prev_state=(R|R\+|S|Z) ==> next_comm=[^ ]+ next_pid=[0-9]+ next_prio=[0-9]+|(sched_waking|sched_wakeup|sched_wakeup_new): comm=[^ ]+ pid=[0-9]+ prio=[0-9]+ target_cpu=[0-9]{3}|sched_migrate_task: comm=[^ ]+ pid=[0-9]+ prio=[0-9]+ orig_cpu=[0-9]+ dest_cpu=[0-9]+|tracing_mark_write: (C\|0\|[a-z_]+[0-9]+\|[0-9]+|I\|[0-9]+\|[a-z_]+: [^|]*))$" || true)
[ "$bad" -eq 0 ] || { echo "$bad lines not in the kernel's layout" >&2; exit 1; }
for kind in sched_switch sched_waking sched_wakeup select_idle_sibling select_task_rq nr_running_cpu nr_idle_scan_llc; do
	grep -q "$kind" "$tmp/k.txt" || { echo "no $kind line" >&2; exit 1; }
done

# 2. Reconciliation with the JSON over the measured window (20..24 ms)
# kernel.migration_cost_ns=0 turns task_hot() off (a real sysctl), so the balancer pulls in the window and the trace has migrations to reconcile
args=(run -t "$tmp/llc2.yaml" -w "$wl" --load 90% --warmup 20ms --duration 4ms --set kernel.migration_cost_ns=0)
"$bin" "${args[@]}" -q --json "$tmp/plain.json"
"$bin" "${args[@]}" -q --json "$tmp/r.json" --trace "$tmp/full.txt" --trace-ns --trace-window 20ms..24ms
# the model does not change when traced: the same JSON but for the recorded command line
python3 - "$tmp/plain.json" "$tmp/r.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
assert "--trace" in b["provenance"]["command"] and "--trace" not in a["provenance"]["command"]
a["provenance"].pop("command"); b["provenance"].pop("command")
assert a == b, "the JSON changed when traced"
PY
cat > "$tmp/sum.awk" <<'EOF'
# per-CPU busy ns and sched_migrate_task lines of a --trace-ns trace over (from, to]
function ns(s,  a) { sub(/:$/, "", s); split(s, a, "."); return a[1] * 1000000000 + a[2] * 10 ^ (9 - length(a[2])) }
/^#/ { next }
{ cpu = substr($2, 2, 3) + 0; t = ns($4) }
$5 == "sched_migrate_task:" { mig++ }
$5 == "sched_switch:" {
	match($0, / prev_pid=[0-9]+/); prev = substr($0, RSTART + 10, RLENGTH - 10) + 0
	match($0, / next_pid=[0-9]+/); nxt = substr($0, RSTART + 10, RLENGTH - 10) + 0
	if (!(cpu in seen)) { seen[cpu] = 1; if (prev) since[cpu] = from }
	if (prev) busy[cpu] += t - since[cpu]
	if (nxt) since[cpu] = t; else delete since[cpu]
}
END {
	for (c in since) busy[c] += to - since[c]
	printf "migrations %d\n", mig
	for (c in seen) printf "cpu %d %.0f\n", c, busy[c]
}
EOF
awk -v from=20000000 -v to=24000000 -f "$tmp/sum.awk" "$tmp/full.txt" > "$tmp/sum.txt"
[ "$(grep -c '^cpu ' "$tmp/sum.txt")" -eq 8 ] || { echo "a CPU without sched_switch in the window" >&2; exit 1; }
mig=$(awk '$1 == "migrations" { print $2 }' "$tmp/sum.txt")
[ "$mig" -gt 0 ] || { echo "no migration in the window: nothing reconciled" >&2; exit 1; }
[ "$mig" -eq "$(jq '.migrations.total' "$tmp/r.json")" ] || { echo "migrations: trace $mig, JSON $(jq '.migrations.total' "$tmp/r.json")" >&2; exit 1; }
while read -r _ cpu busy; do
	json=$(jq ".per_cpu[] | select(.cpu == $cpu) | .busy_pct" "$tmp/r.json")
	# busy_pct is rounded to 3 decimals: within half a unit of the last one
	awk -v b="$busy" -v j="$json" 'BEGIN { d = 100 * b / 4000000 - j; if (d < 0) d = -d; exit !(d <= 0.0005 + 1e-9) }' ||
		{ echo "CPU $cpu: trace busy $busy ns, JSON busy_pct $json" >&2; exit 1; }
done < <(grep '^cpu ' "$tmp/sum.txt")

# 3. Some CPUs: exactly the full trace's lines of those CPUs
"$bin" "${args[@]}" -q --trace "$tmp/sub.txt" --trace-ns --trace-window 20ms..24ms --trace-cpus 1,4-6
grep -v '^#' "$tmp/full.txt" | grep -E '^ *[^ ]+ +\[00[1456]\]' > "$tmp/sub.want" || true
grep -v '^#' "$tmp/sub.txt" > "$tmp/sub.got" || true
[ -s "$tmp/sub.want" ]
cmp "$tmp/sub.want" "$tmp/sub.got"

# 4. The same seed, the same bytes; another seed, other bytes
"$bin" "${args[@]}" -q --trace "$tmp/again.txt" --trace-ns --trace-window 20ms..24ms
cmp "$tmp/full.txt" "$tmp/again.txt"
"$bin" "${args[@]}" -q --seed 2 --trace "$tmp/seed2.txt" --trace-ns --trace-window 20ms..24ms
if cmp -s "$tmp/full.txt" "$tmp/seed2.txt"; then echo "another seed gave the same trace" >&2; exit 1; fi

# 5. A pipe is written in place
"$bin" "${args[@]}" -q --trace /dev/stdout --trace-ns --trace-window 20ms..24ms | cmp - "$tmp/full.txt"

# 5b. A plugin's domain searches have their select_idle_cpu lines, one per call the JSON counts
plugins=$(dirname "$bin")/plugins
"$bin" run -t "$tmp/llc2.yaml" -w "$wl" --load 60% --warmup 20ms --duration 4ms -q \
	--policy-plugin "$plugins/cluster_first.so" --json "$tmp/p.json" --trace "$tmp/p.txt" --trace-ns --trace-window 20ms..24ms
calls=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["select_idle_cpu"]["calls"])' "$tmp/p.json")
lines=$(grep -c 'tracing_mark_write: I|[0-9]*|select_idle_cpu: ' "$tmp/p.txt" || true)
[ "$calls" -gt 0 ] && [ "$lines" -eq "$calls" ] || { echo "plugin: $lines select_idle_cpu lines, $calls calls in the JSON" >&2; exit 1; }

# 6. Bad options and failed runs: a clear message, exit status, no file left
mkdir "$tmp/out"
expect_fail() { # status, regex, args...
	local want=$1 re=$2 rc=0
	shift 2
	"$bin" run -t "$tmp/llc2.yaml" -w "$wl" --warmup 0 --duration 1ms -q "$@" 2> "$tmp/err" || rc=$?
	[ "$rc" -eq "$want" ] || { echo "exit $rc, expected $want: $*" >&2; cat "$tmp/err" >&2; exit 1; }
	grep -Eq -- "$re" "$tmp/err" || { echo "stderr does not match /$re/: $*" >&2; cat "$tmp/err" >&2; exit 1; }
	[ -z "$(ls -A "$tmp/out")" ] || { echo "a file was left behind: $*" >&2; ls -la "$tmp/out" >&2; exit 1; }
}
expect_fail 2 "^simsched: --trace-window '1s': expected FROM..TO" --trace "$tmp/out/t.txt" --trace-window 1s
expect_fail 2 "^simsched: --trace-window '2s..1s'" --trace "$tmp/out/t.txt" --trace-window 2s..1s
expect_fail 2 "^simsched: --trace-cpus '0-8': not a CPU list of llc2 \(expected CPUs of 0-7" --trace "$tmp/out/t.txt" --trace-cpus 0-8
expect_fail 2 "need --trace FILE" --trace-cpus 0-3
expect_fail 2 "the same file as --json" --trace "$tmp/out/t.txt" --json "$tmp/out/t.txt"
expect_fail 2 "^simsched: --trace $tmp/nodir/t.txt: no directory" --trace "$tmp/nodir/t.txt"
expect_fail 1 "still alive" -w "$src/workloads/hackbench-process-pipes.yaml" --trace "$tmp/out/t.txt"
echo "trace ok"
