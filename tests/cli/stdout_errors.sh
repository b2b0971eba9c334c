#!/usr/bin/env bash
# Every command that prints results fails (exit 1, one line naming the cause)
# when standard output cannot be written (/dev/full), instead of exiting 0
# with its output lost; and result-path options (--json, --out) are checked
# before any work: a directory, a missing or read-only directory, exit 2.
#   stdout_errors.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
topo=$src/topologies/desktop-8c16t.yaml
wl=$src/workloads/netperf-tcp-rr.yaml
short=(--warmup 0 --duration 20ms)
cat > "$tmp/spec.yaml" <<YAML
topologies: [$topo]
workloads: [$wl]
policies: [sis_prop, sis_util]
loads: [50%]
seeds: 2
duration: 20ms
warmup: 0
YAML
"$bin" sweep --spec "$tmp/spec.yaml" --out "$tmp/r.jsonl" --quiet

# [stdout_full status] ARGS...: the command to /dev/full exits 1 with the message
full() {
	set +e
	"$bin" "$@" > /dev/full 2> "$tmp/err"
	local rc=$?
	set -e
	if [ "$rc" -ne 1 ]; then echo "exit $rc (expected 1) writing to /dev/full: $*"; cat "$tmp/err"; exit 1; fi
	grep "^simsched: cannot write to standard output: No space left on device$" "$tmp/err" > /dev/null ||
		{ echo "no stdout error for: $*"; cat "$tmp/err"; exit 1; }
}
full version
full --version
full policies
full topo "$src/topologies/kunpeng920.yaml"
full topo --topology "$topo" --format json
full topo import --sysfs "$src/tests/data/sysfs/x86-2s"
full run -t "$topo" -w "$wl" "${short[@]}"
full run -t "$topo" -w "$wl" "${short[@]}" --format json
full run --set help
full run --help
full compare -t "$topo" -w "$wl" --policies sis_prop,sis_util --load 50% --seeds 2 "${short[@]}"
full report "$tmp/r.jsonl"
full pelt --period 10ms --busy 50%
full pelt --period 10ms --busy 50% --json --sample 10ms
# the same commands to a working stdout still exit 0
"$bin" version > /dev/null
"$bin" report "$tmp/r.jsonl" > /dev/null
# --quiet writes nothing: nothing to fail
"$bin" run -t "$topo" -w "$wl" "${short[@]}" --quiet > /dev/full
# --quiet with --format json and no --json FILE would print nothing: refused before running
set +e
"$bin" run -t "$topo" -w "$wl" "${short[@]}" --quiet --format json > "$tmp/qj.out" 2> "$tmp/qj.err"
rc=$?
set -e
[ "$rc" = 2 ] && [ ! -s "$tmp/qj.out" ] && grep -q "^simsched: run: --format json prints the result on stdout, which --quiet silences" "$tmp/qj.err" \
	|| { echo "--quiet --format json: exit $rc"; cat "$tmp/qj.err"; exit 1; }
# a result file on a full device: the reason is in the message
set +e
"$bin" run -t "$topo" -w "$wl" "${short[@]}" --quiet --json /dev/full 2> "$tmp/full.err"
rc=$?
set -e
[ "$rc" = 1 ] && grep -q "^simsched: /dev/full: cannot write the result file ([^)]\+)$" "$tmp/full.err" \
	|| { echo "--json /dev/full: exit $rc"; cat "$tmp/full.err"; exit 1; }

# [early] ARGS...: refused with exit 2 before running, naming the option
early() {
	local opt=$1
	shift
	set +e
	"$bin" "$@" > /dev/null 2> "$tmp/err"
	local rc=$?
	set -e
	if [ "$rc" -ne 2 ]; then echo "exit $rc (expected 2): $*"; cat "$tmp/err"; exit 1; fi
	grep "^simsched: $opt[ :]" "$tmp/err" > /dev/null || { echo "no $opt message for: $*"; cat "$tmp/err"; exit 1; }
}
mkdir "$tmp/dir" "$tmp/ro"
chmod a-w "$tmp/ro"
cmp_args=(compare -t "$topo" -w "$wl" --policies sis_prop,sis_util --load 50%..200%/50% --seeds 2 --duration 2s)
for p in "$tmp/dir" "$tmp/nodir/x.txt" "$tmp/ro/x.txt"; do
	case $p in "$tmp/ro/x.txt") [ "$(id -u)" -eq 0 ] && continue ;; esac   # root writes anywhere
	# compare with a 2 s grid: refused at once (the time limit catches a run of the grid)
	SECONDS=0
	early --out "${cmp_args[@]}" --out "$p"
	[ "$SECONDS" -lt 5 ] || { echo "compare --out $p refused only after running"; exit 1; }
	early --json run -t "$topo" -w "$wl" --json "$p"
	early --out report "$tmp/r.jsonl" --out "$p"
	early --out topo import --sysfs "$src/tests/data/sysfs/x86-2s" --out "$p"
	early --out sweep --spec "$tmp/spec.yaml" --out "$p"
done
early --out "${cmp_args[@]}" --out "$wl"
early --out report "$tmp/r.jsonl" --out "$tmp/r.jsonl"
early --out sweep --spec "$tmp/spec.yaml" --out "$tmp/spec.yaml"
early --out report "$tmp/r.jsonl" --out ""
[ ! -e "$tmp/nodir" ]
echo ok
