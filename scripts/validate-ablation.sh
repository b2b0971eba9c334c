#!/usr/bin/env bash
# The seed experiments with the high-load costs switched off: does the
# placement logic stand on its own? Copies experiments/*.yaml into
# DIR/experiments/ with a top-level `set:` holding the switches (every run
# of every series gets them, as `--set`), runs `simsched validate` on the
# experiments listed into DIR (resumable) and prints the scorecard.
#
#   scripts/validate-ablation.sh [--only S03,S09,...] [--off 'cost.a: 0, cost.b: 0']
#                                [--out DIR] [--build DIR] [--jobs N] [--precision P|none]
#
# Default experiments: the neutral (S03, S09, S11) and exact (S06, S07, S13)
# ones. Default switches: background work (cost.background), working sets
# (the three cost.refill_* to 0), and the contention costs (cost.coherence,
# cost.line_queue, cost.rq_lock_ns, cost.claim_after_scan, cost.newidle_time);
# docs/model.md gives each. With --precision (default 1%) the runs use
# `--precision P --warmup auto`; none runs the files' fixed warmup and
# duration. A check-only experiment (no series: S06, S07) takes no `set:`
# and runs unchanged. Long: run by hand, never in CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export LC_ALL=C
only=S03,S09,S11,S06,S07,S13
off='cost.background: 0, cost.refill_llc_ns_per_kib: 0, cost.refill_cross_llc_ns_per_kib: 0, cost.refill_cross_node_ns_per_kib: 0, cost.coherence: 0, cost.line_queue: 0, cost.rq_lock_ns: 0, cost.claim_after_scan: 0, cost.newidle_time: 0'
out=ablation-out
build=$root/build
jobs=""
precision=1%
while [ $# -gt 0 ]; do
	case $1 in
	--only) only=$2; shift ;;
	--off) off=$2; shift ;;
	--out) out=$2; shift ;;
	--build) build=$2; shift ;;
	--jobs) jobs="--jobs $2"; shift ;;
	--precision) precision=$2; shift ;;
	-h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "validate-ablation.sh: unknown argument '$1' (expected --only, --off, --out, --build, --jobs, --precision)" >&2; exit 2 ;;
	esac
	shift
done
bin=$(cd "$build" && pwd)/simsched
[ -x "$bin" ] || { echo "validate-ablation.sh: no simsched in $build (build first)" >&2; exit 2; }
mkdir -p "$out/experiments"
out=$(cd "$out" && pwd)
# the files name their machine and workload relative to themselves (../topologies/...)
for d in topologies workloads; do
	[ -e "$out/$d" ] || ln -s "$root/$d" "$out/$d"
done
for f in "$root"/experiments/*.yaml; do
	if grep -q '^set:' "$f"; then
		echo "validate-ablation.sh: $f has its own top-level set: (merge it by hand)" >&2
		exit 2
	fi
	if grep -q '^series:' "$f"; then
		{ cat "$f"; printf '\n# validate-ablation.sh: every run with these switches\nset: {%s}\n' "$off"; } > "$out/experiments/$(basename "$f")"
	else
		# a check-only file (S06, S07): its fixtures are constructed states
		# priced by no cost the switches name; it runs as it is
		cp "$f" "$out/experiments/"
	fi
done
pre=()
[ "$precision" = none ] || pre=(--precision "$precision" --warmup auto)
echo "switches: $off" >&2
# shellcheck disable=SC2086
"$bin" validate "$only" --experiments "$out/experiments" --out "$out" $jobs "${pre[@]}" -f markdown
