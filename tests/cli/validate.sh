#!/usr/bin/env bash
# simsched validate, the exact checks and bad input (docs/validation.md):
# S06 and S07 pass and print in every format; an unknown experiment, a bad
# option and a bad experiment file are refused with the right status and a
# file:line:col message; nothing here runs a sweep.
#   validate.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"

"$bin" validate S06,S07 --out "$tmp/o" -q > "$tmp/text"
grep -q '^# 2 experiments: 2 PASS, 0 FAIL, 0 INVALID$' "$tmp/text"
grep -q '^S06  A  kernel 5.17 (v5.17-rc7)  PASS$' "$tmp/text"
grep -q '^S07  A  kernel 6.6 (v5.17-rc7)  PASS$' "$tmp/text"
grep -q 'llc 6 sis_util_linear: util 1024, nr_idle_scan 4, found/probes t0:-1/3 t1:-1/3 t2:5/3 t3:5/2 t4:5/1' "$tmp/text"

"$bin" validate S06 --out "$tmp/o" -q --format markdown > "$tmp/md"
grep -q '^| S06 | A | 5.17 (v5.17-rc7) | exact check | - | PASS |$' "$tmp/md"
"$bin" validate S07 --out "$tmp/o" -q --format json > "$tmp/json"
python3 - "$tmp/json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
(x,) = d["experiments"]
assert x["id"] == "S07" and x["status"] == "PASS" and x["rules"][0]["rule"] == "check", x
PY

# --precision and --warmup auto reach the generated specs, except a finish-time series (hackbench: one
# number per run), which keeps its fixed lengths (--no-run: the specs only, nothing runs)
"$bin" validate S01,S02 --no-run --precision 1% --warmup auto --out "$tmp/p" -q > /dev/null || true
grep -q '^precision: "1%"$' "$tmp/p/specs/S01-TCP_RR-1.yaml"
# every digit the option may have reaches the spec (six decimals of a fraction would round this one)
"$bin" validate S01 --no-run --precision 0.123456% --warmup auto --out "$tmp/p6" -q > /dev/null || true
grep -q '^precision: "0.123456%"$' "$tmp/p6/specs/S01-TCP_RR-1.yaml"
grep -q '^warmup: auto:' "$tmp/p/specs/S01-TCP_RR-1.yaml"
if grep -q 'precision\|warmup: auto' "$tmp/p/specs/S02-process-pipe-1.yaml"; then echo "S02 spec has precision"; exit 1; fi

# bad options: exit 2, one line
set +e
"$bin" validate S99 --out "$tmp/o" 2> "$tmp/err"; rc=$?
set -e
[ "$rc" -eq 2 ]
grep -q "^simsched: validate: no experiment 'S99' in experiments (expected one of: .*S06, S07" "$tmp/err"
for bad in "--format xml" "--shard 3/2" "--jobs -1"; do
	set +e
	# shellcheck disable=SC2086
	"$bin" validate S06 --out "$tmp/o" $bad 2> "$tmp/err"; rc=$?
	set -e
	[ "$rc" -eq 2 ] || { echo "validate $bad: exit $rc, expected 2"; exit 1; }
	[ "$(wc -l < "$tmp/err")" -eq 1 ]
done

# a bad experiment file: exit 1, file:line:col, no result written
mkdir "$tmp/x"
sed 's/^grade: A$/grade: Z/' experiments/S06.yaml > "$tmp/x/S06.yaml"
set +e
"$bin" validate --experiments "$tmp/x" --out "$tmp/o2" 2> "$tmp/err"; rc=$?
set -e
[ "$rc" -eq 1 ]
grep -q "^simsched: $tmp/x/S06.yaml:4:8: grade 'Z' (expected A or B)$" "$tmp/err"
[ ! -e "$tmp/o2" ]
set +e
"$bin" validate --experiments "$tmp/none" 2> "$tmp/err"; rc=$?
set -e
[ "$rc" -eq 1 ]
grep -q "^simsched: --experiments: " "$tmp/err"
echo ok
