#!/usr/bin/env bash
# How runs start (docs/model.md "Start state", docs/workloads.md): the
# benchmarks fork their tasks through the fork path from the harness's CPU,
# on a machine that has been up and idle (kernel.idle_before_ns).
#  1. netperf pairs at 25 % on kunpeng920: each client is forked by its
#     harness on CPU 0, each server by netserver on the CPU the client's
#     connect woke it on; each starts where its find_idlest_cpu line says
#     (and sched_wakeup_new shows), client and server on different CPUs
#     unless netserver forked from the client's LLC, where
#     find_idlest_group_cpu() may take the CPU the client (asleep, waiting
#     for the server's answer) left idle last.
#  2. a hackbench group of 40 (20 fds) on epyc9654: its children start in
#     more than one 16-CPU LLC.
#  3. spr224 --nodes 0 (one 112-CPU LLC): nr_idle_scan holds the idle
#     LLC's 112 at t = 0, and the first busy tick (4 ms at HZ 250) balances
#     the LLC domain and writes the busy value; booted at t = 0
#     (kernel.idle_before_ns=0) nothing is written in the first 10 ms and a
#     short run warns.
#  4. the startup figures (docs/output.md "Start-up") of netperf at 25 % on
#     kunpeng920 over a 20 ms run: the harness's and netserver's 32 shares
#     each start on CPU 0 (depth 64), and every CPU's busy %, mean and
#     largest nr_running and each slice's busy CPUs equal what the run's
#     trace gives (sched_switch, the nr_running_cpuN counters).
#   startup.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. netperf at 25 %: 32 pairs, pids 4i+1 harness, 4i+2 netserver, 4i+3 client, 4i+4 server
"$bin" topo -t "$src/topologies/kunpeng920.yaml" --json > "$tmp/kp.json"
"$bin" run -t "$src/topologies/kunpeng920.yaml" -w "$src/workloads/netperf-tcp-rr.yaml" --load 25% \
	--warmup 5ms --duration 1ms --trace "$tmp/np.trace" --trace-window 0..5ms -q --json "$tmp/np.json"
python3 - "$tmp/np.trace" "$tmp/kp.json" <<'PY'
import json, re, sys
llc = {c["cpu"]: c["llc"] for c in json.load(open(sys.argv[2]))["cpus"]}
fork, new, woke, moved = {}, {}, {}, {}
for l in open(sys.argv[1]):
    m = re.search(r"\[(\d+)\].*find_idlest_cpu: comm=(\S+) pid=(\d+) parent_cpu=(\d+) levels=(\S+) result=(\d+)", l)
    if m:
        fork[int(m.group(3))] = (m.group(2), int(m.group(1)), int(m.group(4)), int(m.group(6)))
    m = re.search(r"sched_wakeup_new: comm=(\S+) pid=(\d+) prio=\d+ target_cpu=(\d+)", l)
    if m:
        new[int(m.group(2))] = int(m.group(3))
    m = re.search(r"sched_wakeup: comm=netserver pid=(\d+) prio=\d+ target_cpu=(\d+)", l)
    if m and int(m.group(1)) not in woke:
        woke[int(m.group(1))] = int(m.group(2))
    m = re.search(r"sched_migrate_task: comm=netserver pid=(\d+) prio=\d+ orig_cpu=\d+ dest_cpu=(\d+)", l)
    if m and int(m.group(1)) in woke:
        moved.setdefault(int(m.group(1)), []).append(int(m.group(2)))
assert len(fork) == 64, len(fork)
for i in range(32):
    h, ns, c, s = 4 * i + 1, 4 * i + 2, 4 * i + 3, 4 * i + 4
    comm_c, on_c, parent_c, cpu_c = fork[c]
    comm_s, on_s, parent_s, cpu_s = fork[s]
    assert comm_c == "client" and comm_s == "server", (fork[c], fork[s])
    # the harness forks on CPU 0; netserver forks where the connect woke it,
    # or where the balancer moved it before it ran (its wakeup stacked on a
    # CPU another task took during the client's scan: cost.claim_after_scan)
    assert on_c == parent_c == 0, fork[c]
    assert on_s == parent_s == (moved[ns][-1] if ns in moved else woke[ns]), (fork[s], woke.get(ns), moved.get(ns))
    # each starts where its fork placement put it, client and server apart
    # unless the server's fork searched from the client's LLC (its most
    # recently idle CPU may be the sleeping client's)
    assert new[c] == cpu_c and new[s] == cpu_s, (new[c], cpu_c, new[s], cpu_s)
    assert cpu_c != cpu_s or llc[on_s] == llc[cpu_c], (i, cpu_c, cpu_s, on_s)
print("netperf start ok")
PY

# 2. hackbench, one group of 40 on epyc9654 (20 fds: 1/40 per CPU, 384 CPUs -> --load 2.60 % = 1 group)
"$bin" topo -t "$src/topologies/epyc9654.yaml" --json > "$tmp/epyc.json"
"$bin" run -t "$src/topologies/epyc9654.yaml" -w "$src/workloads/hackbench-process-sockets.yaml" --load 0.01% \
	--set workload.loops=5 --duration 10s --trace "$tmp/hb.trace" -q --json "$tmp/hb.json"
python3 - "$tmp/hb.trace" "$tmp/epyc.json" "$tmp/hb.json" <<'PY'
import json, re, sys
llc = {c["cpu"]: c["llc"] for c in json.load(open(sys.argv[2]))["cpus"]}
assert json.load(open(sys.argv[3]))["run"]["instances"] == 1
cpus = [int(m.group(2)) for m in (re.search(r"find_idlest_cpu: comm=(receiver|sender) .* result=(\d+)", l)
                                  for l in open(sys.argv[1])) if m]
assert len(cpus) == 40, len(cpus)
llcs = {llc[c] for c in cpus}
assert len(llcs) > 1, llcs
print("hackbench start ok: 40 children over", len(llcs), "LLCs")
PY

# 3. spr224 --nodes 0: the first busy tick writes nr_idle_scan
run3() { # idle_before
	"$bin" run -t "$src/topologies/spr224.yaml" --nodes 0 -w "$src/workloads/netperf-tcp-rr.yaml" --load 100% \
		--warmup 10ms --duration 1ms --set kernel.idle_before_ns="$1" --trace "$tmp/spr-$1.trace" \
		--trace-window 0..10ms --trace-ns -q --json "$tmp/spr-$1.json" 2> "$tmp/spr-$1.err"
}
run3 60s
run3 0
python3 - "$tmp" <<'PY'
import json, re, sys
d = sys.argv[1]
def writes(f):
    out = []
    for l in open(f):
        m = re.search(r" (\d+)\.(\d{9}): tracing_mark_write: C\|0\|nr_idle_scan_llc0\|(\d+)", l)
        if m:
            out.append((int(m.group(1)) * 1000000000 + int(m.group(2)), int(m.group(3))))
    return out
up = writes(f"{d}/spr-60s.trace")
# t = 0: the trace's opening value, then the idle LLC's 112 (update_idle_cpu_scan() of an idle LLC)
assert up[0] == (0, 0) and up[1] == (0, 112), up[:3]
# the first busy tick, jiffy 1 = 4 ms, balances the LLC domain (CPU_NOT_IDLE) and writes the busy value
assert up[2][0] == 4000000 and up[2][1] < 112, up[:3]
lb = [l for l in open(f"{d}/spr-60s.trace") if "load_balance: " in l and "sd=MC idle=CPU_NOT_IDLE" in l]
assert lb and " 0.004000000: " in lb[0], lb[:1]
j = json.load(open(f"{d}/spr-60s.json"))
assert j["sis"]["nr_idle_scan_written_ns"] == 0 and j["warnings"] == [], (j["sis"], j["warnings"])
# booted at t = 0: the domain build's 0 throughout (the busy MC interval is 112 ms x 16), and a warning
boot = writes(f"{d}/spr-0.trace")
assert boot == [(0, 0)], boot
j = json.load(open(f"{d}/spr-0.json"))
assert j["sis"]["nr_idle_scan_written_ns"] is None
assert any("before every LLC's nr_idle_scan was written" in w for w in j["warnings"]), j["warnings"]
assert "before every LLC's nr_idle_scan was written" in open(f"{d}/spr-0.err").read()
print("first busy tick ok:", up[:3])
PY
# 4. the startup figures against the trace
"$bin" run -t "$src/topologies/kunpeng920.yaml" -w "$src/workloads/netperf-tcp-rr.yaml" --load 25% \
	--warmup 0 --duration 20ms --trace "$tmp/su.trace" --trace-ns -q --json "$tmp/su.json"
python3 - "$tmp/su.trace" "$tmp/su.json" <<'PY'
import json, re, sys
st = json.load(open(sys.argv[2]))["startup"]
end = st["end_ns"]
# the window is 100 ms; the run ends at 20 ms: two 10 ms slices
assert st["window_ns"] == 100000000 and end == 20000000, st
assert [(s["from_ns"], s["to_ns"]) for s in st["series"]] == [(0, 10**7), (10**7, 2 * 10**7)], st["series"]
busy, since, slices = {}, {}, [0, 0]
depth, dmax, dsince, dval = {}, {}, {}, {}
def ns(s):
    a, b = s.rstrip(":").split(".")
    return int(a) * 10**9 + int(b)
def add_busy(c, a, b):
    busy[c] = busy.get(c, 0) + b - a
    for k in range(2):
        lo, hi = max(a, k * 10**7), min(b, (k + 1) * 10**7)
        slices[k] += max(0, hi - lo)
for l in open(sys.argv[1]):
    if l.startswith("#"):
        continue
    f = l.split()
    cpu, t, ev = int(f[1][1:-1]), ns(f[3]), f[4]
    if ev == "sched_switch:":
        # busy from a switch to a task to the next switch to the idle task
        prev = int(re.search(r" prev_pid=(\d+)", l).group(1))
        nxt = int(re.search(r" next_pid=(\d+)", l).group(1))
        if prev and cpu in since:
            add_busy(cpu, since.pop(cpu), t)
        if nxt:
            since[cpu] = t
    m = re.search(r"C\|0\|nr_running_cpu(\d+)\|(\d+)", l)
    if m:
        c, v = int(m.group(1)), int(m.group(2))
        if c in dsince:
            depth[c] = depth.get(c, 0) + dval[c] * (t - dsince[c])
        dsince[c], dval[c] = t, v
        dmax[c] = max(dmax.get(c, 0), v)
for c, t0 in since.items():
    add_busy(c, t0, end)
for c in dsince:
    depth[c] = depth.get(c, 0) + dval[c] * (end - dsince[c])
pc = {e["cpu"]: e for e in st["per_cpu"]}
assert sorted(pc) == list(range(128)), sorted(pc)
for c, e in pc.items():
    # JSON rounds to 3 decimals (half a unit of the last, and the float error of a half-way case)
    assert abs(e["busy_pct"] - 100 * busy.get(c, 0) / end) <= 0.0005 + 1e-9, (c, e, busy.get(c))
    assert abs(e["rq_depth_mean"] - depth.get(c, 0) / end) <= 0.0005 + 1e-9, (c, e, depth.get(c))
    assert e["rq_depth_max"] == dmax.get(c, 0), (c, e, dmax.get(c))
assert pc[0]["rq_depth_max"] == 64, pc[0]
for k, s in enumerate(st["series"]):
    assert abs(s["busy_cpus"] - slices[k] / 1e7) <= 0.0005 + 1e-9, (s, slices[k])
print("startup figures ok:", st["series"])
PY
echo "startup ok"
