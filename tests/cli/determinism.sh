#!/usr/bin/env bash
# Same inputs and seed give byte-identical JSON; another seed does not. The
# command line is an input (the JSON records it, provenance.command): the
# same command run twice, in two directories, writes the same bytes.
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/1" "$tmp/2" "$tmp/3"
args=(run --topology "$src/topologies/xeon6148.yaml" --workload "$src/workloads/netperf-tcp-rr.yaml"
      --policy sis_prop --load 60% --warmup 50ms --duration 100ms)
(cd "$tmp/1" && "$bin" "${args[@]}" --quiet --seed 3 --json out.json)
(cd "$tmp/2" && "$bin" "${args[@]}" --quiet --seed 3 --json out.json)
(cd "$tmp/3" && "$bin" "${args[@]}" --quiet --seed 4 --json out.json)
cmp "$tmp/1/out.json" "$tmp/2/out.json"
if cmp -s "$tmp/1/out.json" "$tmp/3/out.json"; then
	echo "different seeds gave identical results" >&2
	exit 1
fi
# stdout JSON equals the file
(cd "$tmp/3" && "$bin" "${args[@]}" --seed 3 --json out.json --format json > stdout.json)
cmp "$tmp/3/out.json" "$tmp/3/stdout.json"
echo "determinism ok"
