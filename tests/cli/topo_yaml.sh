#!/usr/bin/env bash
# simsched topo --format yaml is a loadable topology: for every shipped
# machine, load what it prints and get the same machine and sched domains
# (the text output of both is identical), and printing that again gives the
# same YAML (the form is canonical).
#   topo_yaml.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for f in "$src"/topologies/*.yaml; do
	m=$(basename "$f" .yaml)
	"$bin" topo --topology "$f" --format yaml > "$tmp/$m.yaml"
	"$bin" topo --topology "$f" > "$tmp/$m.orig.txt"
	"$bin" topo --topology "$tmp/$m.yaml" > "$tmp/$m.again.txt" \
		|| { echo "$m: topo --format yaml does not load"; exit 1; }
	cmp "$tmp/$m.orig.txt" "$tmp/$m.again.txt" || { echo "$m: other domains after the round trip"; diff "$tmp/$m.orig.txt" "$tmp/$m.again.txt" | head; exit 1; }
	"$bin" topo --topology "$tmp/$m.yaml" --format yaml | cmp - "$tmp/$m.yaml"
	# the levels are in the comments
	grep -F "#   $(grep '^levels' "$tmp/$m.orig.txt")" "$tmp/$m.yaml" > /dev/null
	n=$((n + 1))
done
[ "$n" -ge 9 ]
echo "topo yaml round trip ok ($n machines)"
