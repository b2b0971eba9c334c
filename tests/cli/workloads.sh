#!/bin/bash
# Every shipped workload runs briefly on kunpeng920 and xeon6148 and reports
# its figure in its metric unit, with the direction of "better".
set -euo pipefail
BIN=$1 SRC=$2
fail=0
for f in "$SRC"/workloads/*.yaml; do
	# long enough for one wakeup of the figure's tasks: schbench-old's
	# message threads wake their workers every ~95 ms
	dur=50ms
	case $(basename "$f") in schbench-old.yaml) dur=300ms ;; esac
	for t in kunpeng920 xeon6148; do
		out=$("$BIN" run --topology "$SRC/topologies/$t.yaml" --workload "$f" --load 100% \
			--warmup 20ms --duration $dur --format json) || { echo "FAIL $f $t: exit $?"; fail=1; continue; }
		unit=$(sed -n 's/^[[:space:]]*unit:[[:space:]]*\([^,}]*\).*/\1/p;s/.*metric: {.*unit: \([^,}]*\).*/\1/p' "$f" | head -1)
		if ! printf '%s' "$out" | python3 -c '
import json, sys
j = json.load(sys.stdin); m = j["metric"]
assert m["unit"] == sys.argv[1], (m["unit"], sys.argv[1])
assert m["value"] > 0, m
assert m["better"] in ("higher", "lower") and (m["better"] == "higher") == m["higher_is_better"]
' "$unit"; then
			echo "FAIL $f $t"; fail=1
		else
			echo "ok $(basename "$f") $t"
		fi
	done
done
exit $fail
