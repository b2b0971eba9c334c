#!/usr/bin/env bash
# Shipped machines and workloads by name (simsched/data.h): a program of the
# build tree finds them in the source tree; SIMSCHED_DATADIR replaces the
# data directory; a name found nowhere is reported as the missing file; a
# file of that name in the working directory wins over the shipped one.
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

# by name = by path, byte for byte (provenance names the file read)
"$bin" topo kunpeng920 > by_name.txt
"$bin" topo "$src/topologies/kunpeng920.yaml" > by_path.txt
cmp by_name.txt by_path.txt
"$bin" run --topology desktop-8c16t --workload netperf-tcp-rr --warmup 5ms --duration 5ms --json a.json > a.txt
"$bin" run --topology "$src/topologies/desktop-8c16t.yaml" --workload "$src/workloads/netperf-tcp-rr.yaml" \
	--warmup 5ms --duration 5ms --json b.json > b.txt
cmp a.txt b.txt
python3 - a.json "$src" <<'PY'
import json, os, sys
p = json.load(open(sys.argv[1]))["provenance"]
src = os.path.realpath(sys.argv[2])
assert os.path.realpath(p["topology"]["file"]) == os.path.join(src, "topologies/desktop-8c16t.yaml"), p["topology"]
assert os.path.realpath(p["workload"]["file"]) == os.path.join(src, "workloads/netperf-tcp-rr.yaml"), p["workload"]
PY
# the name with its extension, and a workload in a subdirectory
"$bin" topo kunpeng920.yaml > ext.txt
cmp ext.txt by_path.txt

# SIMSCHED_DATADIR replaces the data directory
mkdir -p d/topologies
sed 's/^name: .*/name: renamed/' "$src/topologies/desktop-8c16t.yaml" > d/topologies/kunpeng920.yaml
SIMSCHED_DATADIR=$tmp/d "$bin" topo kunpeng920 > renamed.txt
grep -q "^machine renamed: .* 16 CPUs" renamed.txt
if SIMSCHED_DATADIR=$tmp/d "$bin" topo xeon6148 2> err.txt; then exit 1; fi
grep -q "^simsched: xeon6148: cannot read the topology file: No such file or directory" err.txt

# a name found nowhere: the missing file is the name
if "$bin" run --topology no-such-machine --workload netperf-tcp-rr 2> err.txt; then exit 1; fi
grep -q "no-such-machine" err.txt

# a file in the working directory wins
cp "$src/topologies/desktop-8c16t.yaml" kunpeng920
"$bin" topo kunpeng920 > local.txt
grep -q "^machine desktop-8c16t: .* 16 CPUs" local.txt
