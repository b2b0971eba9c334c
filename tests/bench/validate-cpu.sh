#!/usr/bin/env bash
# CPU-seconds (user + sys) of `simsched validate` with the run length chosen
# by statistics (--precision, paired Δ within ±P at 95 %, --warmup auto),
# for the experiments named (default S08 and S01), each into a fresh
# output directory; prints the scorecard line and the CPU-seconds of each.
# CPU-seconds, not wall time: the machine's wall clock is shared. Never in CI.
#   tests/bench/validate-cpu.sh [BUILD_DIR] [EXPERIMENTS] [PRECISION] [JOBS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "${1:-$root/build}" && pwd)/simsched
list=${2:-S08,S01} prec=${3:-1%} jobs=${4:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
IFS=, read -ra xs <<< "$list"
for x in "${xs[@]}"; do
	python3 - "$bin" "$root/experiments" "$tmp/$x" "$x" "$prec" "$jobs" <<'PY'
import resource, subprocess, sys
bin, xdir, out, x, prec, jobs = sys.argv[1:]
p = subprocess.run([bin, "validate", x, "--experiments", xdir, "--out", out, "--precision", prec, "--warmup", "auto",
                    "--jobs", jobs, "-q"], capture_output=True, text=True)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
line = next((l for l in p.stdout.splitlines() if l.startswith(x)), p.stderr.strip())
print(f"{x}: {u.ru_utime + u.ru_stime:.1f} CPU-s (--precision {prec}, --warmup auto, --jobs {jobs}): {line[:160]}")
PY
done
