#!/usr/bin/env bash
# simsched validate --quick (CI): the exact checks and the files' quick
# neutral checks of experiments/, and a small fixture grid on 8 CPUs run
# through the sweep machinery: a second run resumes (runs nothing, prints
# the same), two shards graded with --no-run print the same scorecard.
#   validate_quick.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"

"$bin" validate --quick --out "$tmp/q" > "$tmp/quick" 2> "$tmp/quick.err"
grep -q '^S06  A  kernel 5.17 (v5.17-rc7)  PASS$' "$tmp/quick"
grep -q '^S07  A  kernel 6.6 (v5.17-rc7)  PASS$' "$tmp/quick"

fx=tests/data/experiments
"$bin" validate T01 --quick --experiments "$fx" --out "$tmp/a" -j 2 > "$tmp/a.txt" 2> "$tmp/a.err"
grep -q '^simsched: validate: 1 experiments, 8 points in their grids, 8 run now' "$tmp/a.err"
grep -q '^T01  A  kernel 6.6 (v6.6)  PASS$' "$tmp/a.txt"
grep -q '^  quick (quick, grade A): PASS$' "$tmp/a.txt"
grep -q '^  pairs | real Δ % | sign | sis_util Δ % \[95 %\] | sign | probes_per_call sis_prop | probes_per_call sis_util | no_such_figure sis_prop | no_such_figure sis_util$' "$tmp/a.txt"
grep -q '^  2 | +0.5 | 0 | .* | n/a | n/a$' "$tmp/a.txt"
# a point two experiments share runs once: T04 has T01's grid
"$bin" validate T01,T04 --quick --experiments "$fx" --out "$tmp/b" -j 2 > /dev/null 2> "$tmp/b.err"
grep -q '^simsched: validate: 2 experiments, 16 points in their grids, 8 run now' "$tmp/b.err"
# the generated spec reruns with simsched sweep into the same records
spec=$(ls "$tmp/a/specs/"T01-TCP_RR-1.yaml)
"$bin" sweep --spec "$spec" --out "$tmp/again.jsonl" -q
cmp <(sort "$tmp/a/results.jsonl") <(sort "$tmp/again.jsonl")
# resumable: nothing runs again, the same scorecard
"$bin" validate T01 --quick --experiments "$fx" --out "$tmp/a" -j 2 > "$tmp/a2.txt" 2> "$tmp/a2.err"
grep -q '8 points in their grids, 0 run now' "$tmp/a2.err"
cmp "$tmp/a.txt" "$tmp/a2.txt"
# shards, then the scorecard from their files
"$bin" validate T01 --quick --experiments "$fx" --out "$tmp/s" --shard 1/2 -q > /dev/null
"$bin" validate T01 --quick --experiments "$fx" --out "$tmp/s" --shard 2/2 -q > /dev/null
[ -s "$tmp/s/results-1-of-2.jsonl" ] && [ -s "$tmp/s/results-2-of-2.jsonl" ]
"$bin" validate T01 --quick --experiments "$fx" --out "$tmp/s" --no-run -q > "$tmp/s.txt"
cmp "$tmp/a.txt" "$tmp/s.txt"
# --no-run on an empty directory: every point INVALID, "not run"
"$bin" validate T01 --quick --experiments "$fx" --out "$tmp/e" --no-run -q > "$tmp/e.txt"
grep -q '^T01  A  kernel 6.6 (v6.6)  INVALID (quick: TCP_RR 2 pairs: seed 1 of sis_prop not run' "$tmp/e.txt"

# kernel 5.17: INVALID naming the sweep's refusal where the build has no such kernel, else (nothing run) "not run"
"$bin" validate T03 --experiments "$fx" --out "$tmp/k" --no-run -q > "$tmp/k.txt"
grep -q "^T03  A  kernel 5.17 (v5.17-rc7)  INVALID (direction#1: TCP_RR 2 pairs: seed 1 of sis_prop not run" "$tmp/k.txt"
grep -q '^kernel: "5.17"$' "$tmp/k/specs/T03-TCP_RR-1.yaml"

# a series with workload parameters: run where the sweep takes workload.NAME, else INVALID naming it
"$bin" validate T02 --experiments "$fx" --out "$tmp/w" -j 2 -q > "$tmp/w.txt"
# workload parameters reach the sweep; the machine starts up and idle, its
# budgets written before t = 0, so the 20-loop hackbench is graded (the
# fixture's made-up table fails)
grep -q '^  "workload.num_fds": "2"$' "$tmp/w/specs/T02-pipes-1.yaml"
grep -q '^T02  B  kernel 6.6 (v6.6)  FAIL (direction#1: pipes: 1 miss of 3 scored loads' "$tmp/w.txt"
grep -q '^loads: \["50.00%", "100.00%", "200.00%"\]$' "$tmp/w/specs/T02-pipes-1.yaml"
echo ok
