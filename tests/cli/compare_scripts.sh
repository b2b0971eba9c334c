#!/usr/bin/env bash
# docs/examples/compare.sh (bash + jq) and compare.py (standard library):
# the verdict on a constructed table with known answers, and on a live
# comparison, where both scripts must agree.
#   compare_scripts.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v jq > /dev/null || { echo "jq is needed for docs/examples/compare.sh"; exit 1; }
# lower is better: b is significantly better at 25% and 50%, worse at 100%, not significant at 12.5%
cat > "$tmp/t.json" <<'JSON'
{"metric":"latency_p99","unit":"ns","higher_is_better":false,"mean":"Amean","seeds":3,
 "policies":["a","b"],
 "rows":[
  {"load_pct":12.5,"cells":[{"policy":"a","mean":10,"diff_pct":0,"significant":false},{"policy":"b","mean":9,"diff_pct":10,"significant":false}]},
  {"load_pct":25,"cells":[{"policy":"a","mean":10,"diff_pct":0,"significant":false},{"policy":"b","mean":9,"diff_pct":10,"significant":true}]},
  {"load_pct":50,"cells":[{"policy":"a","mean":10,"diff_pct":0,"significant":false},{"policy":"b","mean":8,"diff_pct":20,"significant":true}]},
  {"load_pct":100,"cells":[{"policy":"a","mean":10,"diff_pct":0,"significant":false},{"policy":"b","mean":12,"diff_pct":-20,"significant":true}]}]}
JSON
want="b better than a at 2/4 loads (significant): 25% 50%; worse at 1/4: 100%; latency_p99, lower is better"
[ "$(bash "$src/docs/examples/compare.sh" --input "$tmp/t.json")" = "$want" ]
[ "$(python3 "$src/docs/examples/compare.py" --input "$tmp/t.json")" = "$want" ]
# a cell without a value (null: prev_cpu has no probes_per_call) is "not compared", never better or worse
cat > "$tmp/n.json" <<'JSON'
{"metric":"probes_per_call","unit":"runqueues","higher_is_better":false,"mean":"Amean","seeds":2,
 "policies":["a","b"],
 "rows":[
  {"load_pct":50,"cells":[{"policy":"a","mean":2,"diff_pct":0,"significant":false},{"policy":"b","mean":null,"diff_pct":null,"significant":false,"missing_seeds":2}]},
  {"load_pct":100,"cells":[{"policy":"a","mean":2,"diff_pct":0,"significant":false},{"policy":"b","mean":1,"diff_pct":50,"significant":true}]}]}
JSON
want="b better than a at 1/2 loads (significant): 100%; worse at 0/2; not compared at 1/2 (no value): 50%; probes_per_call, lower is better"
[ "$(bash "$src/docs/examples/compare.sh" --input "$tmp/n.json")" = "$want" ]
[ "$(python3 "$src/docs/examples/compare.py" --input "$tmp/n.json")" = "$want" ]
# live: the scripts run simsched compare and agree with each other
args=(--topology "$src/topologies/desktop-8c16t.yaml" --workload "$src/workloads/netperf-tcp-rr.yaml"
      --policies sis_prop,sis_util,prev_cpu --load 50%,150% --seeds 3 --duration 20ms --warmup 10ms)
SIMSCHED=$bin bash "$src/docs/examples/compare.sh" "${args[@]}" > "$tmp/sh.txt"
SIMSCHED=$bin python3 "$src/docs/examples/compare.py" "${args[@]}" > "$tmp/py.txt"
cmp "$tmp/sh.txt" "$tmp/py.txt"
[ "$(wc -l < "$tmp/sh.txt")" -eq 2 ]
grep -Eq '^sis_util better than sis_prop at [0-2]/2 loads \(significant\).*; worse at [0-2]/2.*; throughput, higher is better$' "$tmp/sh.txt"
# a failing compare fails the script
if SIMSCHED=$bin bash "$src/docs/examples/compare.sh" "${args[@]}" --metric nope 2> /dev/null; then exit 1; fi
echo "compare scripts ok"
