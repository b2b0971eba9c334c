#!/usr/bin/env bash
# topo import --sysfs of trees as they come from the field: attribute
# files that end in NUL bytes after their text (hwloc's test tarballs, e.g.
# its 128arm-2pa2n8cluster4co) import as the same machine; a NUL before the
# end is an error naming the file; a tree without cpu/online (kernels
# before 2.6.27) takes its CPUs from the cpuN directories, each online
# unless its cpuN/online is 0, with a warning, as hwloc reads them. A
# memory-only node (a GPU's memory on a GH200, generated here as numactl -H
# shows one: no CPUs, 255 = unreachable in the distance rows) imports,
# and the machine keeps the nodes with CPUs; 255 between nodes with CPUs
# is still an error.
#   import_quirks.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
body() { grep -v '^#' "$1"; }   # the machine, without the header naming the tree
cp -r "$src/tests/data/sysfs/arm-cls" "$tmp/plain"
"$bin" topo import --sysfs "$tmp/plain" --name arm --out "$tmp/plain.yaml" 2> /dev/null

cp -r "$tmp/plain" "$tmp/nul"
find "$tmp/nul/sys" -type f -exec sh -c 'printf "\0\0" >> "$1"' _ {} \;
"$bin" topo import --sysfs "$tmp/nul" --name arm --out "$tmp/nul.yaml" 2> /dev/null
cmp <(body "$tmp/plain.yaml") <(body "$tmp/nul.yaml")

cp -r "$tmp/plain" "$tmp/mid"
printf '0-3\0junk\n' > "$tmp/mid/sys/devices/system/node/node0/cpulist"
if "$bin" topo import --sysfs "$tmp/mid" --out "$tmp/mid.yaml" 2> "$tmp/err"; then
	echo "a NUL inside a file was accepted" >&2; exit 1
fi
grep -q "node0/cpulist: contains a NUL byte before its end (expected text)" "$tmp/err"
[ ! -e "$tmp/mid.yaml" ]

cp -r "$tmp/plain" "$tmp/old"
rm -f "$tmp/old/sys/devices/system/cpu/online" "$tmp/old/sys/devices/system/cpu/present" "$tmp/old/sys/devices/system/cpu/possible"
"$bin" topo import --sysfs "$tmp/old" --name arm --out "$tmp/old.yaml" 2> "$tmp/err"
grep -q "cpu/online: missing (a kernel before 2.6.27?): the online CPUs 0-7 are the cpuN directories whose online file is not 0" "$tmp/err"
cmp <(body "$tmp/plain.yaml") <(body "$tmp/old.yaml")
cp -r "$tmp/plain" "$tmp/gh"
n="$tmp/gh/sys/devices/system/node"
printf '10 255 255\n' > "$n/node0/distance"
for i in 1 2; do
	mkdir -p "$n/node$i"
	printf '\n' > "$n/node$i/cpulist"
done
printf '255 10 255\n' > "$n/node1/distance"
printf '255 255 10\n' > "$n/node2/distance"
"$bin" topo import --sysfs "$tmp/gh" --name arm --out "$tmp/gh.yaml" 2> /dev/null
cmp <(body "$tmp/plain.yaml") <(body "$tmp/gh.yaml")
# between two nodes with CPUs 255 is refused
cp -r "$src/tests/data/sysfs/x86-2s" "$tmp/x2"
d0=$(cat "$tmp/x2/sys/devices/system/node/node0/distance")
printf '10 255\n' > "$tmp/x2/sys/devices/system/node/node0/distance"
if "$bin" topo import --sysfs "$tmp/x2" --out "$tmp/x2.yaml" 2> "$tmp/err"; then
	echo "255 between CPU nodes accepted ($d0)" >&2; exit 1
fi
grep -q "node0/distance: entry 1 (node1) is 255: remote distance out of range (expected 11..254)" "$tmp/err"
echo ok
