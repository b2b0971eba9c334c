#!/usr/bin/env bash
# Bad input: a clear "simsched: file:line:col: message" (or option message),
# a non-zero exit, no crash, and no result file left behind.
set -uo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
topo=$src/topologies/kunpeng920.yaml
wl=$src/workloads/netperf-tcp-rr.yaml

expect_fail() { # name, expected regex in stderr, command...
	local name=$1 re=$2
	shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	if [ $rc -eq 0 ] || [ $rc -ge 128 ]; then
		echo "FAIL $name: exit $rc (expected a clean non-zero exit)"; fails=$((fails + 1)); return
	fi
	if ! grep -Eq -- "$re" "$tmp/err"; then
		echo "FAIL $name: stderr does not match /$re/:"; cat "$tmp/err"; fails=$((fails + 1)); return
	fi
	if [ -e "$tmp/result.json" ]; then
		echo "FAIL $name: a result file was written"; fails=$((fails + 1)); rm -f "$tmp/result.json"; return
	fi
	echo "ok $name: $(head -c 200 "$tmp/err" | head -n 1)"
}

run() { "$bin" run --warmup 0 --duration 10ms --json "$tmp/result.json" "$@"; }

# every bad topology and workload file of the corpus, through the CLI
for f in "$src"/tests/data/topology/*.yaml; do
	expect_fail "topology $(basename "$f")" "^simsched: .*$(basename "$f"):[0-9]+:[0-9]+: " run --topology "$f" --workload "$wl"
done
for f in "$src"/tests/data/workload/*.yaml; do
	expect_fail "workload $(basename "$f")" "^simsched: .*$(basename "$f"):[0-9]+:[0-9]+: " run --topology "$topo" --workload "$f"
done
printf 'name: x\nvendor: arm\ncores: "0-3"\n  bad: [\n' > "$tmp/syntax.yaml"
expect_fail "topology syntax" "syntax.yaml:[0-9]+:[0-9]+: " run --topology "$tmp/syntax.yaml" --workload "$wl"
# a cpus list valid on the machine but outside --nodes: found at run start, at the field
printf 'name: p\ninstance: one\nmetric: {name: x, unit: transactions/s, higher_is_better: true}\ntasks:\n  - name: pinned\n    cpus: "0-3"\n    program: [run: 1ms]\n' > "$tmp/pinned.yaml"
expect_fail "cpus outside --nodes" "^simsched: .*pinned.yaml:6:11: cpus '0-3' of role 'pinned' .*as restricted by --nodes" run --topology "$topo" --workload "$tmp/pinned.yaml" --nodes 2
expect_fail "missing file" "no-such.yaml" run --topology "$tmp/no-such.yaml" --workload "$wl"
expect_fail "directory" "simsched: " run --topology "$tmp" --workload "$wl"
expect_fail "unknown policy" "unknown policy 'bogus'.*sis_util" run --topology "$topo" --workload "$wl" --policy bogus
expect_fail "unknown feature" "unknown sched feature" run --topology "$topo" --workload "$wl" --sched-features SIS_FOO
expect_fail "unknown --set key" "unknown key 'nope'.*cost.ipi_ns" run --topology "$topo" --workload "$wl" --set cost.nope=1
expect_fail "unknown --set section" "unknown section" run --topology "$topo" --workload "$wl" --set foo.bar=1
expect_fail "bad --set value" "kernel.hz takes" run --topology "$topo" --workload "$wl" --set kernel.hz=fast
expect_fail "load 0" "--load" run --topology "$topo" --workload "$wl" --load 0%
expect_fail "load negative" "--load" run --topology "$topo" --workload "$wl" --load -5%
expect_fail "load text" "--load" run --topology "$topo" --workload "$wl" --load abc
expect_fail "duration 0" "--duration" run --topology "$topo" --workload "$wl" --duration 0
expect_fail "nodes" "--nodes" run --topology "$topo" --workload "$wl" --nodes 9
expect_fail "format" "--format" run --topology "$topo" --workload "$wl" --format xml
expect_fail "unwritable json" "simsched: " "$bin" run --topology "$topo" --workload "$wl" --warmup 0 --duration 10ms --json "$tmp/no/such/dir/out.json"
expect_fail "dev zero topology" "not a regular file" run --topology /dev/zero --workload "$wl"
expect_fail "dev zero workload" "not a regular file" run --topology "$topo" --workload /dev/zero
expect_fail "duration without unit" "--duration" run --topology "$topo" --workload "$wl" --duration 100
expect_fail "load hex" "--load" run --topology "$topo" --workload "$wl" --load 0x10
expect_fail "load exponent" "--load" run --topology "$topo" --workload "$wl" --load 1e2
expect_fail "seed negative" "--seed" run --topology "$topo" --workload "$wl" --seed -1
expect_fail "empty feature list" "no feature named" run --topology "$topo" --workload "$wl" --sched-features ,
cp "$wl" "$tmp/w.yaml"
expect_fail "json over input" "input file" "$bin" run --topology "$topo" --workload "$tmp/w.yaml" --json "$tmp/w.yaml"
cmp -s "$wl" "$tmp/w.yaml" || { echo "FAIL json over input: the input was changed"; fails=$((fails + 1)); }
expect_fail "topo format" "unknown|format" "$bin" topo --topology "$topo" --format xml
expect_fail "no command" "usage" "$bin"
expect_fail "unknown command" "unknown command" "$bin" frobnicate

[ $fails -eq 0 ] || { echo "$fails failures"; exit 1; }
echo "bad input ok"
