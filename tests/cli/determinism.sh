#!/usr/bin/env bash
# Same inputs and seed give byte-identical JSON; another seed does not.
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(run --topology "$src/topologies/xeon6148.yaml" --workload "$src/workloads/netperf-tcp-rr.yaml"
      --policy sis_prop --load 60% --warmup 50ms --duration 100ms)
"$bin" "${args[@]}" --quiet --seed 3 --json "$tmp/a.json"
"$bin" "${args[@]}" --quiet --seed 3 --json "$tmp/b.json"
"$bin" "${args[@]}" --quiet --seed 4 --json "$tmp/c.json"
cmp "$tmp/a.json" "$tmp/b.json"
if cmp -s "$tmp/a.json" "$tmp/c.json"; then
	echo "different seeds gave identical results" >&2
	exit 1
fi
# stdout JSON equals the file
"$bin" "${args[@]}" --seed 3 --format json > "$tmp/d.json"
cmp "$tmp/a.json" "$tmp/d.json"
echo "determinism ok"
