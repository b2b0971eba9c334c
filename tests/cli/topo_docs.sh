#!/usr/bin/env bash
# docs/topologies.md's table of shipped machines matches `simsched topo`:
# every file in topologies/ has a row, and the row's levels are the
# `levels:` line simsched prints (the table writes -> as →).
set -euo pipefail
bin=$1
src=$2
doc="$src/docs/topologies.md"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
n=0
for f in "$src"/topologies/*.yaml; do
	m=$(basename "$f" .yaml)
	row=$(grep -F "| \`$m\` (" "$doc" || true)
	if [ -z "$row" ]; then
		echo "topologies/$m.yaml has no row in docs/topologies.md"; exit 1
	fi
	want=$(printf '%s\n' "$row" | awk -F'|' '{print $6}' | sed 's/→/->/g; s/^ *//; s/ *$//')
	got=$("$bin" topo "$f" | sed -n 's/^levels: //p')
	if [ "$want" != "$got" ]; then
		echo "$m: docs say '$want', simsched topo says '$got'"; exit 1
	fi
	# the tree and the domain table are there
	"$bin" topo "$f" > "$tmp"
	grep -q '^tree (package > node > llc' "$tmp"
	grep -q '^  level name  span_weight imbalance_pct  CPUs  flags' "$tmp"
	n=$((n + 1))
done
[ "$n" -ge 9 ]
echo "docs table ok ($n machines)"
