#!/usr/bin/env bash
# Run `simsched compare --format json` and print a verdict per policy against
# the baseline (the first of --policies), e.g.
#   sis_util better than sis_prop at 3/8 loads (significant): 100% 150% 200%; worse at 0/8; throughput, higher is better
# Loads where a cell has no value or no % change (null: the figure had no
# samples, docs/compare.md) are listed as "not compared". Needs bash and jq. The simsched binary is $SIMSCHED (default: simsched in PATH).
#   docs/examples/compare.sh --topology topologies/kunpeng920.yaml \
#       --workload workloads/netperf-tcp-rr.yaml --policies sis_prop,sis_util --seeds 3
#   docs/examples/compare.sh --input table.json     # a saved `compare --format json`
set -euo pipefail
if [ "${1:-}" = "--input" ]; then
	json=$(cat "$2")
else
	json=$("${SIMSCHED:-simsched}" compare "$@" --format json)
fi
jq -r '
  def load: (if . == (. | floor) then (. | floor | tostring) else (. | tostring) end) + "%";
  (.rows | length) as $n
  | .policies[0] as $base
  | (if .higher_is_better then "higher" else "lower" end) as $dir
  | .metric as $metric
  | range(1; .policies | length) as $p
  | .policies[$p] as $pol
  | [.rows[] | {load: .load_pct, c: .cells[$p]}] as $cells
  | [$cells[] | select(.c.significant and .c.diff_pct > 0) | .load | load] as $better
  | [$cells[] | select(.c.significant and .c.diff_pct < 0) | .load | load] as $worse
  | [$cells[] | select(.c.diff_pct == null) | .load | load] as $none
  | "\($pol) better than \($base) at \($better | length)/\($n) loads (significant)"
    + (if ($better | length) > 0 then ": " + ($better | join(" ")) else "" end)
    + "; worse at \($worse | length)/\($n)"
    + (if ($worse | length) > 0 then ": " + ($worse | join(" ")) else "" end)
    + (if ($none | length) > 0 then "; not compared at \($none | length)/\($n) (no value): " + ($none | join(" ")) else "" end)
    + "; \($metric), \($dir) is better"
' <<< "$json"
