#!/usr/bin/env bash
# topo import --sysfs of trees as they come from the field: attribute
# files that end in NUL bytes after their text (hwloc's test tarballs, e.g.
# its 128arm-2pa2n8cluster4co) import as the same machine; a NUL before the
# end is an error naming the file; a tree without cpu/online (kernels
# before 2.6.27) takes its CPUs from the cpuN directories, each online
# unless its cpuN/online is 0, with a warning, as hwloc reads them.
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
echo ok
