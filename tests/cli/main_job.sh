#!/usr/bin/env bash
# CLI test of the main job: kunpeng920 + netperf TCP_RR under sis_prop and
# sis_util at 25 % and 100 %: the JSON has the documented keys, SIS_UTIL's
# nr_idle_scan follows utilisation, and sis_util probes at most its budget
# per select_idle_cpu call.
#   main_job.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # policy load
	"$bin" run --topology "$src/topologies/kunpeng920.yaml" --workload "$src/workloads/netperf-tcp-rr.yaml" \
		--policy "$1" --load "$2" --warmup 200ms --duration 200ms --json "$tmp/$1-${2%\%}.json" > "$tmp/$1-${2%\%}.txt"
}
run sis_prop 25%
run sis_prop 100%
run sis_util 25%
run sis_util 100%

grep -q "transactions/s" "$tmp/sis_util-100.txt"
grep -q "@nsecs (time per select_idle_cpu call)" "$tmp/sis_util-100.txt"

python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
r = {k: json.load(open(f"{d}/{k}.json")) for k in ("sis_prop-25", "sis_prop-100", "sis_util-25", "sis_util-100")}
for k, j in r.items():
    for key in ("run", "metric", "throughput", "wakeup_latency_ns", "cpu", "select_idle_cpu",
                "select_idle_sibling", "nr_idle_scan", "per_cpu", "engine", "migrations", "balance"):
        assert key in j, (k, key)
    assert j["run"]["nr_cpus"] == 128 and j["run"]["kernel_model"] == "v6.6"
    assert j["throughput"]["transactions"] > 0, k
    assert len(j["per_cpu"]) == 128 and len(j["nr_idle_scan"]["llc"]) == 4
    # per-CPU probe counts add up to the scans' total, and scans did probe
    assert sum(c["rqs_probed"] for c in j["per_cpu"]) == j["select_idle_sibling"]["rqs_probed"] > 0, k
    lat = j["wakeup_latency_ns"]
    assert lat["count"] > 0 and lat["p50"] <= lat["p99"] <= lat["max"], (k, lat)
    assert j["run"]["instances"] == (32 if k.endswith("-25") else 128)
# SIS_UTIL: budget large at 25 %, small on saturated LLCs at 100 %, over the
# four LLCs (an LLC whose last write came while the start-up still left it
# idle keeps that budget: a busy CPU's next LLC balance is 32 ms x
# busy_factor 16 later, after this window)
def llc_mean(k):
    ls = r[k]["nr_idle_scan"]["llc"]
    return sum(l["mean"] for l in ls) / len(ls)
mean25, mean100 = llc_mean("sis_util-25"), llc_mean("sis_util-100")
assert mean25 > 16 and mean100 < mean25 / 2, (mean25, mean100)
for l in r["sis_util-25"]["nr_idle_scan"]["llc"]:
    assert len(l["series"]) == len(l["util_series"]) > 0
    assert all(0 <= v <= l["nr_cpus"] for v in l["series"])
# SIS_PROP never writes nr_idle_scan
assert all(l["writes"] == 0 and l["final"] == 0 for l in r["sis_prop-100"]["nr_idle_scan"]["llc"])
# at 100 %: sis_util probes at most its budget per call (the budget the first
# busy tick wrote holds through this window: the next LLC balance of a busy
# CPU is 32 ms x busy_factor 16 later)
p = r["sis_prop-100"]["select_idle_cpu"]; u = r["sis_util-100"]["select_idle_cpu"]
assert p["calls"] > 0 and u["calls"] > 0
assert u["probes_per_call"] <= max(l["mean"] for l in r["sis_util-100"]["nr_idle_scan"]["llc"]) + 1e-9, u["probes_per_call"]
print("main job ok:", {k: (round(j["throughput"]["transactions_per_s"]), j["select_idle_cpu"]["probes_per_call"]) for k, j in r.items()})
PY
