#!/usr/bin/env bash
# simsched topo import --sysfs: a fake tree imports to a file that loads and
# runs; a malformed tree is a clear error with nothing written.
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" topo import --sysfs "$src/tests/data/sysfs/x86-2s" --name fake2s --out "$tmp/m.yaml" > /dev/null
"$bin" topo --topology "$tmp/m.yaml" > "$tmp/topo.txt"
grep -q "machine fake2s" "$tmp/topo.txt"
"$bin" run --topology "$tmp/m.yaml" --workload "$src/workloads/netperf-tcp-rr.yaml" --warmup 0 --duration 10ms --quiet
if "$bin" topo import --sysfs "$src/tests/data/sysfs/bad-distance" --out "$tmp/bad.yaml" 2> "$tmp/err"; then
	echo "a malformed tree was accepted"; exit 1
fi
grep -q "^simsched: " "$tmp/err"
[ ! -e "$tmp/bad.yaml" ]
# --hwloc: an unreadable file is an error naming it, nothing written; both sources at once is usage
if "$bin" topo import --hwloc "$tmp/none.xml" --out "$tmp/h.yaml" 2> "$tmp/err"; then
	echo "a missing hwloc file was accepted"; exit 1
fi
grep -q "^simsched: .*none.xml" "$tmp/err"
[ ! -e "$tmp/h.yaml" ]
set +e
"$bin" topo import --sysfs --hwloc "$tmp/none.xml" 2> /dev/null
rc=$?
set -e
[ "$rc" = 2 ]
echo "import ok"
