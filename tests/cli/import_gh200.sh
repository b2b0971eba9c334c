#!/usr/bin/env bash
# topo import --sysfs of a generated 4 x GH200 tree, its node distances as
# numactl -H prints them on one (numactl/numactl issue #224): four Grace
# nodes with CPUs (10 local, 40 between them) and 32 memory-only nodes, 8
# per GPU (80 from their own Grace node, 120 from the others, 255 =
# unreachable between any two of them). Each Grace node is scaled down to
# 4 Neoverse V2 cores (72 on the real one) under one L3; the distances and
# the memory-only nodes are as on the machine. The import keeps the four
# nodes with CPUs, their 10/40 distances, and the domains v6.6 builds:
# MC(4) -> NUMA(16).
#   import_gh200.sh SIMSCHED_BINARY
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/gh200" <<'PY'
import os, sys
root = sys.argv[1]
def put(rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)
grace, per, gpu_nodes = 4, 4, 8
ncpu = grace * per
put("proc/cpuinfo", "".join(f"processor\t: {c}\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd4f\n\n" for c in range(ncpu)))
put("sys/devices/system/cpu/online", f"0-{ncpu - 1}\n")
put("sys/devices/system/cpu/possible", f"0-{ncpu - 1}\n")
for c in range(ncpu):
    g = c // per
    d = f"sys/devices/system/cpu/cpu{c}/"
    put(d + "topology/physical_package_id", f"{g}\n")
    put(d + "topology/core_id", f"{c % per}\n")
    put(d + "topology/thread_siblings_list", f"{c}\n")
    put(d + "topology/core_cpus_list", f"{c}\n")
    put(d + "topology/cluster_cpus_list", f"{c}\n")
    for i, (lvl, typ, shared) in enumerate([(1, "Data", f"{c}"), (1, "Instruction", f"{c}"), (2, "Unified", f"{c}"),
                                             (3, "Unified", f"{g * per}-{g * per + per - 1}")]):
        put(d + f"cache/index{i}/level", f"{lvl}\n")
        put(d + f"cache/index{i}/type", f"{typ}\n")
        put(d + f"cache/index{i}/shared_cpu_list", f"{shared}\n")
nodes = grace + grace * gpu_nodes
def dist(a, b):
    if a == b:
        return 10
    if a < grace and b < grace:
        return 40
    if a >= grace and b >= grace:
        return 255
    cpu, mem = (a, b) if a < grace else (b, a)
    return 80 if (mem - grace) // gpu_nodes == cpu else 120
for n in range(nodes):
    cpus = f"{n * per}-{n * per + per - 1}" if n < grace else ""
    put(f"sys/devices/system/node/node{n}/cpulist", cpus + "\n")
    put(f"sys/devices/system/node/node{n}/distance", " ".join(str(dist(n, m)) for m in range(nodes)) + "\n")
PY
"$bin" topo import --sysfs "$tmp/gh200" --name gh200 --out "$tmp/gh200.yaml" 2> "$tmp/err"
grep -q "node: 32 node(s) without online CPUs left out" "$tmp/err" || { cat "$tmp/err" >&2; echo "no word of the memory-only nodes" >&2; exit 1; }
"$bin" topo "$tmp/gh200.yaml" > "$tmp/topo"
grep -q "16 CPUs, 4 packages, 4 nodes" "$tmp/topo" || { cat "$tmp/topo" >&2; echo "not 4 Grace nodes" >&2; exit 1; }
grep -q "^levels: MC(4) -> NUMA(16)$" "$tmp/topo" || { grep levels "$tmp/topo" >&2; exit 1; }
grep -q "numa levels (sched_domains_numa_distance): 10 40$" "$tmp/topo" || { grep "numa levels" "$tmp/topo" >&2; exit 1; }
grep -A5 "^node distances" "$tmp/topo" > "$tmp/dist"   # (no pipe into grep -q: pipefail and SIGPIPE)
grep -q "^  3:   40  40  40  10$" "$tmp/dist" || { cat "$tmp/dist" >&2; exit 1; }
echo ok
