#!/usr/bin/env bash
# Side-by-side cost against a peer simulator: fillien/schedsim (C++,
# https://github.com/fillien/schedsim, commit adbf0ad measured) and simsched
# simulate the same 50-task periodic set on the same 4-CPU machine for the
# same simulated time, one after the other on one core; the script prints the
# CPU-seconds (user + sys) of each, the median of REPS runs, and their ratio.
# It prints; it asserts nothing (speed is not a test). Never in CI: it is not
# registered with ctest, and it needs a schedsim that the repository does not
# hold (no schedsim code is downloaded, vendored or committed by it).
#
#   tests/bench/peer-schedsim.sh SCHEDSIM [simsched-build-dir]
#   SCHEDSIM=DIR tests/bench/peer-schedsim.sh
#
# SCHEDSIM is one of
#   - a schedsim build directory (apps/schedsim and apps/schedgen inside), or a
#     directory holding the two binaries;
#   - a schedsim source checkout: built (Release) into the cache below;
#   - a schedsim git directory (a clone's .git, or a bare mirror): commit
#     $SCHEDSIM_COMMIT (default adbf0ad) is extracted with `git archive` into
#     the cache below and built there.
# The build uses cmake (Ninja if present), clang++ (schedsim's CMakeLists
# default; g++ if there is no clang++), C++23, and RapidJSON from the system:
# Debian `apt-get install -y rapidjson-dev` (cmake, clang, ninja-build
# likewise). It is configured with FETCHCONTENT_FULLY_DISCONNECTED so that
# schedsim's CMake cannot download RapidJSON or GoogleTest; tests and Python
# bindings off; only the schedsim and schedgen targets, -j1.
# simsched-build-dir defaults to build/ (build/simsched).
#
# Environment: SIM_SECONDS (simulated seconds, default 3000), REPS (runs of
# each, default 5), BENCH_CPU (the core, default 1), SEED (schedgen's seed,
# default 42), UTIL (total utilisation, default 3.0 = 75 % of 4 CPUs),
# SCHEDSIM_COMMIT (default adbf0ad), SCHEDSIM_CACHE (build cache, default
# ${TMPDIR:-/tmp}/simsched-peer-schedsim; outside the repository).
#
# The task set: schedsim's own generator,
#   schedgen -n 50 -u $UTIL --umax 1.0 --period-mode range -d $SIM_SECONDS --seed $SEED
# (UUniFast utilisations, periods log-uniform in 10..1000 ms, implicit
# deadlines, every job's duration = its WCET, arrivals at 0, P, 2P, ...).
# schedsim reads that JSON with a 4-CPU platform (one cluster, perf 1.0, one
# frequency) and runs its EDF scheduler (global EDF with a CBS server per
# task, its default) with `--format null` (no trace written) for SIM_SECONDS.
# simsched gets the same 50 (period, WCET) pairs, converted to ns, as a
# workload of 50 roles, each `loop forever: [run: WCET, timer: {period: P,
# anchor: start}]` (arrivals at 0, P, 2P, ...), on a 4-CPU topology (4 cores,
# one LLC), and runs its model of Linux v6.6 (EEVDF and CFS's wakeup
# placement and load balancing, with its default costs and background work:
# ticks and kworkers) with --warmup 0 --duration SIM_SECONDS.
# The schedulers differ (EDF there, EEVDF/CFS here): what is compared is the
# cost of simulating the same task set for the same simulated time, each
# with its own scheduler, not the schedules.
#
# schedsim's figure is the whole process: it takes every job from the JSON
# file and queues all their arrivals before it starts, a setup that grows a
# little faster than the run (a fifth of its CPU time at 1000 s, a quarter at
# 3000 s). Figures: docs/benchmarks.md. "of which its setup" is the same command with -d 1e-9 (read,
# queue, stop), and the ratio "without its setup" subtracts it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
peer=${1:-${SCHEDSIM:-}}
build=${2:-$root/build}
sim_s=${SIM_SECONDS:-3000}
reps=${REPS:-5}
cpu=${BENCH_CPU:-1}
seed=${SEED:-42}
util=${UTIL:-3.0}
commit=${SCHEDSIM_COMMIT:-adbf0ad}
cache=${SCHEDSIM_CACHE:-${TMPDIR:-/tmp}/simsched-peer-schedsim}

die() { echo "peer-schedsim.sh: $*" >&2; exit 1; }
[ -n "$peer" ] || die "usage: $0 SCHEDSIM [simsched-build-dir] (SCHEDSIM: a schedsim build dir, source checkout or git dir; or set SCHEDSIM=...)"
[ -e "$peer" ] || die "$peer: no such file or directory"
peer=$(cd "$peer" && pwd)
bin=$build/simsched
[ -x "$bin" ] || die "$bin not found: build simsched first (cmake -S . -B build && cmake --build build -j1)"
for t in python3 taskset git; do command -v $t >/dev/null || die "$t not found (Debian: python3, util-linux, git)"; done

# ---- find or build schedsim ----------------------------------------------
build_schedsim() {   # source dir, build dir
	local src=$1 out=$2 gen=() cxx cc
	command -v cmake >/dev/null || die "cmake not found: apt-get install -y cmake"
	if command -v clang++ >/dev/null; then cxx=clang++ cc=clang
	elif command -v g++ >/dev/null; then cxx=g++ cc=gcc
	else die "no C++ compiler: apt-get install -y clang (schedsim needs C++23)"; fi
	if [ ! -f /usr/include/rapidjson/document.h ] && [ ! -f /usr/local/include/rapidjson/document.h ]; then
		die "RapidJSON headers not found: apt-get install -y rapidjson-dev (without them schedsim's CMake would download RapidJSON; this script does not let it)"
	fi
	command -v ninja >/dev/null && gen=(-G Ninja)
	echo "building schedsim in $out ($cxx, Release, -j1) ..." >&2
	cmake -S "$src" -B "$out" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" \
		-DSCHEDSIM_BUILD_TESTS=OFF -DBUILD_PYTHON=OFF -DFETCHCONTENT_FULLY_DISCONNECTED=ON \
		>"$out.cmake.log" 2>&1 || die "schedsim's cmake configure failed, see $out.cmake.log"
	cmake --build "$out" -j1 --target schedsim schedgen >"$out.build.log" 2>&1 \
		|| die "schedsim's build failed, see $out.build.log"
}
peer_rev=""
if [ -x "$peer/apps/schedsim" ] && [ -x "$peer/apps/schedgen" ]; then
	ssbin=$peer/apps
elif [ -x "$peer/schedsim" ] && [ -x "$peer/schedgen" ] && [ ! -d "$peer/schedsim" ]; then
	ssbin=$peer
elif [ -f "$peer/CMakeLists.txt" ] && [ -f "$peer/apps/simulator.cpp" ]; then
	peer_rev=$(git -C "$peer" rev-parse HEAD 2>/dev/null || echo "unknown (not a git checkout)")
	key=$(printf '%s' "$peer" | sha256sum | cut -c1-12)
	mkdir -p "$cache"
	[ -x "$cache/checkout-$key/apps/schedsim" ] || build_schedsim "$peer" "$cache/checkout-$key"
	ssbin=$cache/checkout-$key/apps
elif git --git-dir="$peer" rev-parse --git-dir >/dev/null 2>&1; then
	peer_rev=$(git --git-dir="$peer" rev-parse --verify -q "$commit^{commit}") \
		|| die "commit $commit is not in $peer (git --git-dir=$peer log --oneline | head)"
	git --git-dir="$peer" cat-file -e "$peer_rev:apps/simulator.cpp" 2>/dev/null \
		|| die "$peer at $commit has no apps/simulator.cpp: not fillien/schedsim?"
	dir=$cache/${peer_rev:0:12}
	if [ ! -x "$dir/build/apps/schedsim" ] || [ ! -x "$dir/build/apps/schedgen" ]; then
		rm -rf "$dir/src" && mkdir -p "$dir/src"
		git --git-dir="$peer" archive "$peer_rev" | tar -x -C "$dir/src"
		build_schedsim "$dir/src" "$dir/build"
	fi
	ssbin=$dir/build/apps
else
	die "$peer: neither a schedsim build dir (apps/schedsim, apps/schedgen), a source checkout nor a git directory"
fi
[ -n "$peer_rev" ] || peer_rev="unknown (prebuilt binaries)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- the task set, the machine, for both --------------------------------
"$ssbin/schedgen" -n 50 -u "$util" --umax 1.0 --period-mode range -d "$sim_s" --seed "$seed" \
	-o "$tmp/taskset.json" >/dev/null || die "schedgen failed"
echo '{"clusters": [{"procs": 4, "perf_score": 1.0, "effective_freq": 1000.0}]}' > "$tmp/quad.json"
printf 'name: quad\nvendor: generic\ndescription: "4 single-thread cores, one LLC"\ncores: "0-3"\n' > "$tmp/quad.yaml"
python3 - "$tmp/taskset.json" "$tmp/taskset.yaml" > "$tmp/summary" <<'PY'
import hashlib, json, sys
src, out = sys.argv[1:3]
tasks = json.load(open(src))["tasks"]
ns = lambda x: int(round(x * 1e9))
pairs = [(ns(t["period"]), ns(t["wcet"])) for t in tasks]
with open(out, "w") as w:
    w.write("# generated by tests/bench/peer-schedsim.sh from schedsim's schedgen output\n")
    w.write("name: schedsim-taskset\ninstance: taskset\ninstances_per_cpu: 1/4\n")
    w.write("metric: {name: jobs, unit: transactions/s, higher_is_better: true}\ntasks:\n")
    for t, (p, c) in zip(tasks, pairs):
        w.write(f"  - name: t{t['id']}\n    program:\n      - loop:\n          forever: true\n          do:\n"
                f"            - transaction: begin\n            - run: {c}ns\n            - transaction: end\n"
                f"            - timer: {{period: {p}ns, anchor: start}}\n")
u = [c / p for p, c in pairs]
jobs = sum(len(t["jobs"]) for t in tasks)
h = hashlib.sha256(repr(pairs).encode()).hexdigest()[:16]
print(f"{len(tasks)} {sum(u):.4f} {max(u):.4f} {min(p for p, _ in pairs) / 1e6:.2f} "
      f"{max(p for p, _ in pairs) / 1e6:.2f} {jobs} {h}")
PY
read -r n_tasks sum_u max_u pmin pmax ss_jobs set_hash < "$tmp/summary"

cputime() {   # command...: prints the child's user+sys CPU-seconds, a comma, its wall seconds
	python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
t = time.monotonic() - t
if r.returncode != 0:
    sys.exit(f"failed ({r.returncode}): {' '.join(sys.argv[1:])}")
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{u.ru_utime + u.ru_stime:.3f},{t:.3f}")
PY
}
ss_cmd=(taskset -c "$cpu" "$ssbin/schedsim" -i "$tmp/taskset.json" -p "$tmp/quad.json" --format null)
sm_cmd=(taskset -c "$cpu" "$bin" run -t "$tmp/quad.yaml" -w "$tmp/taskset.yaml" --warmup 0
	--duration "${sim_s}s" -q --json "$tmp/r.json")

echo "task set: $n_tasks periodic tasks (schedgen --seed $seed), U = $sum_u on 4 CPUs (max $max_u), periods $pmin..$pmax ms, set $set_hash"
echo "simulated: $sim_s s each; $reps runs each on CPU $cpu, interleaved; median of user+sys CPU-seconds"
echo "schedsim:  $ssbin/schedsim, commit $peer_rev (EDF + CBS, --format null)"
echo "simsched:  $bin, $("$bin" version 2>/dev/null | head -1), commit $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo '+dirty') (v6.6 EEVDF, sis_util)"
ss_t=() ld_t=() sm_t=()
for ((i = 0; i < reps; i++)); do
	ss_t+=("$(cputime "${ss_cmd[@]}" -d "$sim_s")")
	sm_t+=("$(cputime "${sm_cmd[@]}")")
	ld_t+=("$(cputime "${ss_cmd[@]}" -d 1e-9)")
done
python3 - "$tmp/r.json" "$ss_jobs" "${ss_t[*]}" "${ld_t[*]}" "${sm_t[*]}" <<'PY'
import json, statistics, sys
res = json.load(open(sys.argv[1]))
ss_jobs = int(sys.argv[2])
ss, ld, sm = ([[float(y) for y in x.split(",")] for x in a.split()] for a in sys.argv[3:6])
wall = sum(x[1] for v in (ss, ld, sm) for x in v)
busy = sum(x[0] for v in (ss, ld, sm) for x in v)
ss, ld, sm = ([x[0] for x in v] for v in (ss, ld, sm))
mss, mld, msm = (statistics.median(v) for v in (ss, ld, sm))
ev, jobs = res["engine"]["events"], res["throughput"]["transactions"]
runs = lambda v: " ".join(f"{x:.2f}" for x in v)
print()
print(f"{'':28}{'CPU-s':>8}   runs")
print(f"{'schedsim (whole process)':28}{mss:8.2f}   {runs(ss)}")
print(f"{'  of which its setup':28}{mld:8.2f}   {runs(ld)}   (JSON read, every job queued)")
print(f"{'simsched':28}{msm:8.2f}   {runs(sm)}")
print()
print(f"schedsim: {ss_jobs} jobs released, {ss_jobs / mss:,.0f} jobs per CPU-second "
      f"({ss_jobs / max(mss - mld, 1e-9):,.0f} without its setup)")
print(f"simsched: {jobs} jobs completed, {jobs / msm:,.0f} jobs per CPU-second; "
      f"{ev} events, {ev / msm / 1e6:.2f} M events per CPU-second")
r = msm / mss
print(f"CPU-seconds simsched/schedsim: {r:.3f} = {1 / r:.2f}x fewer "
      f"({(mss - mld) / msm:.2f}x fewer than schedsim without its setup)")
print(f">= 4x fewer CPU-seconds than schedsim: {'yes' if 1 / r >= 4 else 'NO'}")
if wall > 1.1 * busy:
    print(f"note: the runs got {100 * busy / wall:.0f} % of their wall time on the CPU: "
          f"other processes shared it, which inflates CPU-seconds too (caches)")
PY
