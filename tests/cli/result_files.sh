#!/usr/bin/env bash
# A failed run leaves no result file: when the JSON cannot be written, the
# trace is not written either, and a trace that cannot be written takes the
# JSON with it. A start_cpu the task may not use is reported at its
# file:line:col with the CPUs it may use. A --policy-plugin file is an
# input like the others: --json, --trace and --out onto it are refused,
# and it is left as it was.
#   result_files.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d="$src/topologies/desktop-8c16t.yaml"
wl="$src/workloads/netperf-tcp-rr.yaml"
short=(--load 25% --warmup 1ms --duration 2ms -q)

set +e
"$bin" run -t "$d" -w "$wl" "${short[@]}" --trace /dev/full --json "$tmp/j.json" 2> "$tmp/e1"; rc=$?
set -e
[ "$rc" = 1 ] || { echo "trace to /dev/full: exit $rc"; exit 1; }
[ ! -e "$tmp/j.json" ] || { echo "the JSON was left behind"; exit 1; }
grep -q 'trace' "$tmp/e1"

set +e
"$bin" run -t "$d" -w "$wl" "${short[@]}" --json /dev/full --trace "$tmp/t.txt" 2> "$tmp/e2"; rc=$?
set -e
[ "$rc" = 1 ] || { echo "json to /dev/full: exit $rc"; exit 1; }
[ ! -e "$tmp/t.txt" ] || { echo "the trace was left behind"; exit 1; }
[ -z "$(ls "$tmp" | grep -v '^e[12]$')" ] || { echo "temporary files left:"; ls "$tmp"; exit 1; }

# both succeed: both written
"$bin" run -t "$d" -w "$wl" "${short[@]}" --json "$tmp/j.json" --trace "$tmp/t.txt"
[ -s "$tmp/j.json" ] && [ -s "$tmp/t.txt" ]

cat > "$tmp/sc.yaml" <<'YAML'
name: x
instance: pair
metric: {name: throughput, unit: transactions/s, higher_is_better: true}
tasks:
  - name: a
    start_cpu: 16
    program: [run: 1us]
YAML
set +e
"$bin" run -t "$d" -w "$tmp/sc.yaml" "${short[@]}" 2> "$tmp/e3"; rc=$?
set -e
[ "$rc" = 1 ] || { echo "start_cpu 16: exit $rc"; exit 1; }
grep -Eq "sc.yaml:6:16: start_cpu 16 of task pair\[0\]/a is not a CPU the task may use on desktop-8c16t \(expected one of 0-15\)$" "$tmp/e3" || { cat "$tmp/e3"; exit 1; }
x="$src/topologies/xeon6148.yaml"
set +e
"$bin" run -t "$x" -w "$tmp/sc.yaml" --nodes 1 "${short[@]}" 2> "$tmp/e4"; rc=$?
set -e
[ "$rc" = 1 ]
grep -Eq "start_cpu 16 of task pair\[0\]/a is not a CPU the task may use on xeon6148 \(expected one of [0-9,-]+, the CPUs of --nodes 1\)$" "$tmp/e4" || { cat "$tmp/e4"; exit 1; }
# a policy plugin is an input file: no result is written over it
plugin="$(dirname "$bin")/plugins/cluster_first.so"
cp "$plugin" "$tmp/pl.so"
printf 'topologies: [%s]\nworkloads: [%s]\npolicies: [sis_util]\nloads: [25%%]\nseeds: 1\n' "$d" "$wl" > "$tmp/spec.yaml"
for c in "run -t $d -w $wl --json" "run -t $d -w $wl --trace" "compare -t $d -w $wl --policies sis_util --out" \
	"sweep --spec $tmp/spec.yaml --out"; do
	set +e
	# shellcheck disable=SC2086
	"$bin" ${c% *} --policy-plugin "$tmp/pl.so" ${c##* } "$tmp/pl.so" 2> "$tmp/e5"; rc=$?
	set -e
	[ "$rc" = 2 ] || { echo "$c onto the plugin: exit $rc"; exit 1; }
	grep -q "that is an input file ($tmp/pl.so) of this command" "$tmp/e5" || { cat "$tmp/e5"; exit 1; }
	cmp -s "$plugin" "$tmp/pl.so" || { echo "$c wrote over the plugin"; exit 1; }
done
echo "result files: ok"
