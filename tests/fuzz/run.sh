#!/bin/sh
# tests/fuzz/run.sh TARGET MINUTES [BUILD_DIR]
#
# One libFuzzer campaign of MINUTES minutes on one target of tests/fuzz
# (topology_yaml, workload_yaml, rtapp_json, sweep_spec, experiment,
# hwloc_xml, sysfs; `all` runs each in turn). Builds the targets with clang,
# -DSIMSCHED_FUZZ=ON and AddressSanitizer + UndefinedBehaviorSanitizer into
# BUILD_DIR (default build-fuzz/ in the source tree), starts from the
# target's seeds (the shipped files of its kind, as ctest feeds the
# standalone build) plus BUILD_DIR/corpus/TARGET/ (kept between campaigns),
# and writes any crash, leak or timeout to BUILD_DIR/artifacts/TARGET/.
# A crash found: copy the artifact to tests/fuzz/regressions/TARGET/ with
# the fix, so ctest replays it. Ends with a summary line per target:
#   TARGET: N execs in S s, cov C, ft F, corpus K files, artifacts A
# MINUTES 0 replays the seeds and corpus once (a smoke test) instead.
# Never in CI (machine time: 30 minutes a target is the issue's bar).
# Exit status: 0 when no artifact was written, 1 when one was, 2 for usage.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
target=${1:-}
minutes=${2:-}
build=${3:-$src/build-fuzz}
all="topology_yaml workload_yaml rtapp_json sweep_spec experiment hwloc_xml sysfs"
case $minutes in
'' | *[!0-9]*) echo "usage: tests/fuzz/run.sh TARGET|all MINUTES [BUILD_DIR]" >&2; exit 2 ;;
esac
if [ "$target" = all ]; then
	targets=$all
else
	case " $all " in
	*" $target "*) targets=$target ;;
	*) echo "tests/fuzz/run.sh: unknown target '$target' (one of: $all, all)" >&2; exit 2 ;;
	esac
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
		-DSIMSCHED_FUZZ=ON -DSIMSCHED_SANITIZE=ON >/dev/null
fi
for t in $targets; do
	cmake --build "$build" -j2 --target "fuzz_$t" >/dev/null
done

seeds() {
	case $1 in
	topology_yaml) echo "$src/topologies $src/tests/data/topology" ;;
	workload_yaml) echo "$src/workloads $src/tests/data/workload" ;;
	rtapp_json) echo "$src/workloads/rt-app $src/tests/data/rtapp" ;;
	sweep_spec) echo "$src/docs/examples $src/tests/fuzz/seeds/sweep_spec" ;;
	experiment) echo "$src/experiments" ;;
	*) echo "$src/tests/fuzz/seeds/$1" ;;
	esac
}

status=0
for t in $targets; do
	corpus=$build/corpus/$t
	art=$build/artifacts/$t
	mkdir -p "$corpus" "$art"
	dirs=""
	for d in $(seeds "$t") "$src/tests/fuzz/regressions/$t"; do
		[ -d "$d" ] && dirs="$dirs $d"
	done
	log=$build/fuzz-$t.log
	# -max_total_time=0 would mean "no limit" to libFuzzer
	if [ "$minutes" -eq 0 ]; then limit=-runs=0; else limit=-max_total_time=$((minutes * 60)); fi
	# libhwloc's leak on a bad XML is suppressed (lsan.supp), which needs full
	# malloc stacks: libhwloc has no frame pointers
	asan=detect_leaks=1:allocator_may_return_null=1
	[ "$t" != hwloc_xml ] || asan=$asan:fast_unwind_on_malloc=0
	# libFuzzer's own limits: 2 s per input, 2 GiB RSS; inputs up to 64 KiB
	# (the parsers' size limits are tested by tests/cli, not here)
	ASAN_OPTIONS=$asan \
	LSAN_OPTIONS=suppressions=$src/tests/fuzz/lsan.supp \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	"$build/tests/fuzz_$t" $limit -timeout=2 -rss_limit_mb=2048 \
		-max_len=65536 -print_final_stats=1 -artifact_prefix="$art/" \
		"$corpus" $dirs >"$log" 2>&1 || true
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	nart=$(find "$art" -type f | wc -l)
	ncorp=$(find "$corpus" -type f | wc -l)
	echo "$t: ${execs:-?} execs in ${secs:-?} s, cov ${cov:-?}, ft ${ft:-?}, corpus $ncorp files, artifacts $nart (log $log)"
	[ "$nart" -eq 0 ] || status=1
done
exit $status
