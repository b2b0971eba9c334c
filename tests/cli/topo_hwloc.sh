#!/usr/bin/env bash
# simsched topo import --hwloc on real hwloc XML files, v2 and v1, written by
# the test tool tests/tools/gen_hwloc_xml (libhwloc's synthetic topology +
# XML export; no lstopo, no downloaded file): the printed YAML and levels,
# the main job on the imported file, an asymmetric distance matrix, and the
# error paths (missing file, garbage XML: exit 1, a clear message, nothing
# written). Without hwloc at build time there is no generator (third
# argument): the CLI must say so, and the test is skipped (exit 77).
set -euo pipefail
bin=$1
src=$2
gen=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wl=$src/workloads/netperf-tcp-rr.yaml

fail() { echo "FAIL: $*"; exit 1; }
has() {   # has FILE REGEX: the file has a line matching
	grep -E -- "$2" "$1" > /dev/null || { echo "--- $1:"; cat "$1"; fail "no line matching '$2' in $(basename "$1")"; }
}

if [ -z "$gen" ]; then
	printf '<topology/>\n' > "$tmp/x.xml"
	set +e
	"$bin" topo import --hwloc "$tmp/x.xml" 2> "$tmp/err"
	rc=$?
	set -e
	[ "$rc" = 2 ] || fail "without hwloc: exit $rc, expected 2"
	has "$tmp/err" "simsched was built without hwloc"
	echo "skipped: simsched built without hwloc"
	exit 77
fi

# --- a 2-socket SMT machine, 3 L3 groups per socket, SLIT 10/21: v2 and v1 XML
"$gen" "$tmp/m2.xml"
"$gen" --v1 "$tmp/m1.xml"
has "$tmp/m2.xml" '<topology version="2'
grep -E '<topology version="2' "$tmp/m1.xml" > /dev/null && fail "the --v1 file is v2 XML"
for v in 2 1; do
	"$bin" topo import --hwloc "$tmp/m$v.xml" --name hw24 > "$tmp/m$v.yaml" 2> "$tmp/m$v.err"
	[ -s "$tmp/m$v.err" ] && { cat "$tmp/m$v.err"; fail "v$v: warnings on a complete machine"; }
	has "$tmp/m$v.yaml" "^# Imported by .simsched topo import --hwloc. from .*m$v.xml"
	has "$tmp/m$v.yaml" '^# 24 CPUs, 2 packages, 2 nodes, 6 LLCs \(LLC = L3\), 12 clusters, 12 cores; vendor from the hwloc CPUVendor info\.$'
	has "$tmp/m$v.yaml" '^name: "hw24"$'
	has "$tmp/m$v.yaml" '^vendor: intel$'
	has "$tmp/m$v.yaml" '^    - \[10, 21\]$'
	has "$tmp/m$v.yaml" '^    - \[21, 10\]$'
	has "$tmp/m$v.yaml" '^              - \[0, 1\]$'
	"$bin" topo --topology "$tmp/m$v.yaml" > "$tmp/m$v.topo"
	has "$tmp/m$v.topo" '^machine hw24: vendor intel, 24 CPUs, 2 packages, 2 nodes, 2 dies, 6 LLCs, 12 clusters, 12 cores, 2 threads/core$'
	has "$tmp/m$v.topo" '^levels: SMT\(2\) -> MC\(4\) -> DIE\(12\) -> NUMA\(24\)$'
done
# v1 and v2 give the same file, apart from the header line naming the XML file
cmp <(tail -n +2 "$tmp/m1.yaml") <(tail -n +2 "$tmp/m2.yaml") || fail "v1 and v2 imports differ"
# --out writes the same YAML
"$bin" topo import --hwloc "$tmp/m2.xml" --name hw24 --out "$tmp/out.yaml"
cmp "$tmp/out.yaml" "$tmp/m2.yaml" || fail "--out differs from stdout"
# the main job on the imported machine
"$bin" run --topology "$tmp/m2.yaml" --workload "$wl" --policy sis_util --warmup 10ms --duration 50ms \
	--json "$tmp/m2.json" > "$tmp/m2.run"
has "$tmp/m2.run" '^simsched run: hw24 \(24 CPUs, 24 allowed\), netperf-tcp-rr'
has "$tmp/m2.json" '"throughput"'
grep -E '^throughput +0\.000 ' "$tmp/m2.run" > /dev/null && fail "no transactions on the imported machine"

# --- an asymmetric matrix (docs/topologies.md, "Odd machines"): kept as read, row = from
"$gen" --asym "$tmp/a.xml"
"$gen" --asym --v1 "$tmp/a1.xml"
for f in a a1; do
	"$bin" topo import --hwloc "$tmp/$f.xml" --name asym16 > "$tmp/$f.yaml" 2> "$tmp/$f.err"
	has "$tmp/$f.err" "^simsched: warning: .*$f.xml: asymmetric NUMA distances \(node0->node2 is 20, node2->node0 is 30\): kept as they are; each node's NUMA spans come from its own row"
	has "$tmp/$f.yaml" '^    # asymmetric: row = from node, column = to node'
	has "$tmp/$f.yaml" '^    - \[10, 20, 20, 20\]$'
	has "$tmp/$f.yaml" '^    - \[20, 10, 20, 30\]$'
	has "$tmp/$f.yaml" '^    - \[30, 20, 10, 20\]$'
	has "$tmp/$f.yaml" '^    - \[30, 30, 20, 10\]$'
done
cmp <(tail -n +2 "$tmp/a1.yaml") <(tail -n +2 "$tmp/a.yaml") || fail "asymmetric: v1 and v2 imports differ"
"$bin" topo --topology "$tmp/a.yaml" > "$tmp/a.topo" 2> "$tmp/a.topo.err"
has "$tmp/a.topo.err" "^simsched: warning: .*a.yaml: the NUMA distance matrix is asymmetric \(distance\[0\]\[2\] is 20, distance\[2\]\[0\] is 30\)"
has "$tmp/a.topo" '^numa levels \(sched_domains_numa_distance\): 10 20 30$'
has "$tmp/a.topo" '^levels of CPUs 0-3: SMT\(2\) -> MC\(4\) -> NUMA\(16\)$'
has "$tmp/a.topo" '^levels of CPUs 4-11: SMT\(2\) -> MC\(4\) -> NUMA\(12\) -> NUMA\(16\)$'
has "$tmp/a.topo" '^levels of CPUs 12-15: SMT\(2\) -> MC\(4\) -> NUMA\(8\) -> NUMA\(16\)$'
"$bin" run --topology "$tmp/a.yaml" --workload "$wl" --policy sis_util --warmup 10ms --duration 50ms \
	--json "$tmp/a.json" > "$tmp/a.run" 2> "$tmp/a.run.err"
has "$tmp/a.run.err" 'the NUMA distance matrix is asymmetric'
has "$tmp/a.run" '^  at NUMA-30 '
has "$tmp/a.json" '"throughput"'

# --- errors: exit 1, "simsched: FILE: what", nothing written
expect_fail() {   # name, message regex, import args...
	local name=$1 re=$2
	shift 2
	rm -f "$tmp/bad.yaml"
	set +e
	"$bin" topo import "$@" --out "$tmp/bad.yaml" > "$tmp/bad.out" 2> "$tmp/bad.err"
	local rc=$?
	set -e
	[ "$rc" = 1 ] || fail "$name: exit $rc, expected 1"
	has "$tmp/bad.err" "$re"
	[ ! -e "$tmp/bad.yaml" ] || fail "$name: a YAML file was written"
	[ ! -s "$tmp/bad.out" ] || fail "$name: output on stdout"
}
expect_fail "missing file" "^simsched: .*/none\.xml: cannot read" --hwloc "$tmp/none.xml"
printf 'this is not XML at all\n' > "$tmp/garbage.xml"
expect_fail "garbage" "^simsched: .*/garbage\.xml: not a valid hwloc XML topology" --hwloc "$tmp/garbage.xml"
head -c 300 "$tmp/m2.xml" > "$tmp/cut.xml"
expect_fail "truncated XML" "^simsched: .*/cut\.xml: not a valid hwloc XML topology" --hwloc "$tmp/cut.xml"
# an export of a newer hwloc than the one built in says so (hwloc 2.x reads v1 and v2 exports)
sed 's/<topology version="2.0"/<topology version="3.0"/' "$tmp/m2.xml" > "$tmp/v3.xml"
expect_fail "hwloc 3 XML" "^simsched: .*/v3\.xml: an hwloc 3\.x XML export .*, which libhwloc [0-9.]*, built into simsched, cannot read .expected a v1 or v2 export" --hwloc "$tmp/v3.xml"
# an object with a cpuset but no complete_cpuset crashes libhwloc 2.9's loader (hwloc PR #783): refused first, with its place
awk '/<object type="Core"/ && !done { sub(/ complete_cpuset="[^"]*"/, ""); done = 1 } { print }' "$tmp/m2.xml" > "$tmp/nocc.xml"
line=$(grep -m1 -n '<object type="Core"' "$tmp/m2.xml" | cut -d: -f1)
expect_fail "no complete_cpuset" "^simsched: .*/nocc\.xml:$line:[0-9]*: an <object type=\"Core\"> without complete_cpuset .expected cpuset, complete_cpuset, nodeset and complete_nodeset" --hwloc "$tmp/nocc.xml"
# a special object (Misc, I/O) with a cpuset: hwloc's own rule refuses it (PR #783's check)
awk '{ print } /<object type="Machine"/ && !done { print "    <object type=\"Misc\" cpuset=\"0x1\" name=\"x\"/>"; done = 1 }' "$tmp/m2.xml" > "$tmp/misc.xml"
line=$(( $(grep -m1 -n '<object type="Machine"' "$tmp/m2.xml" | cut -d: -f1) + 1 ))
expect_fail "Misc with a cpuset" "^simsched: .*/misc\.xml:$line:[0-9]*: a special <object type=\"Misc\"> with a cpuset .expected none" --hwloc "$tmp/misc.xml"
# a set that is no bitmap hwloc writes (a leading comma: hwloc_bitmap_sscanf() aborts on it); ",," between words is hwloc's zero word
awk '/complete_nodeset="/ && !done { sub(/complete_nodeset="/, "complete_nodeset=\","); done = 1 } { print }' "$tmp/m2.xml" > "$tmp/comma.xml"
line=$(grep -m1 -n 'complete_nodeset="' "$tmp/m2.xml" | cut -d: -f1)
expect_fail "bitmap with a leading comma" "^simsched: .*/comma\.xml:$line:[0-9]*: complete_nodeset=\",0x[0-9a-f]*\" is not a bitmap as hwloc writes one" --hwloc "$tmp/comma.xml"
# a NUL byte (libhwloc's reader crashed on one in an attribute value)
{ head -3 "$tmp/m2.xml"; printf 'x\0y\n'; tail -n +4 "$tmp/m2.xml"; } > "$tmp/nul.xml"
expect_fail "NUL byte" "^simsched: .*/nul\.xml:4:2: a NUL byte .expected text" --hwloc "$tmp/nul.xml"
# a PU without os_index would make libhwloc allocate a 2^32-bit cpuset (seconds, 512 MiB): refused first
awk '/<object type="PU"/ && !done { sub(/ os_index="[0-9]*"/, ""); done = 1 } { print }' "$tmp/m2.xml" > "$tmp/noidx.xml"
line=$(grep -m1 -n '<object type="PU"' "$tmp/m2.xml" | cut -d: -f1)
expect_fail "PU without os_index" "^simsched: .*/noidx\.xml:$line:[0-9]*: an <object type=\"PU\"> without an os_index .expected a CPU number 0\.\.4095" --hwloc "$tmp/noidx.xml"
# a <topology version=...> tag with no '>' after it: libhwloc 2.9 takes NULL + 1 as the document (fuzz finding)
line=$(grep -m1 -n '<topology version=' "$tmp/m2.xml" | cut -d: -f1)
sed 's/>//g' "$tmp/m2.xml" > "$tmp/nogt.xml"
expect_fail "topology tag without '>'" "^simsched: .*/nogt\.xml:$line:1: a <topology version=\.\.\.> start tag without its '>'" --hwloc "$tmp/nogt.xml"
# a v2 file whose root object is a NUMANode (the tag after <topology ...>'s '>'): libhwloc 2.9 dereferences NULL (fuzz finding)
expect_fail "v2 NUMANode root" "^simsched: .*/v2-numanode-root-crash\.xml:3:3: the root object \\(the first tag after <topology \\.\\.\\.>\\) is of type \"NUMANode\"" --hwloc "$src/tests/fuzz/regressions/hwloc_xml/v2-numanode-root-crash.xml"
# a file on which libhwloc 2.9 itself crashes (its root removed as empty, then read; fuzz finding): the
# load is tried in a child process first, so this is an error, not a crash of simsched
expect_fail "libhwloc crash" "^simsched: .*/root-removed-empty-crash\.xml: not a valid hwloc XML topology: libhwloc [0-9.]* crashed loading it" --hwloc "$src/tests/fuzz/regressions/hwloc_xml/root-removed-empty-crash.xml"
echo "topo import --hwloc ok"
