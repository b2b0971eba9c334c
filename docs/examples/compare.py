#!/usr/bin/env python3
"""Run `simsched compare --format json` and print a verdict per policy against
the baseline (the first of --policies), e.g.

  sis_util better than sis_prop at 3/8 loads (significant): 100% 150% 200%; worse at 0/8; throughput, higher is better

Python standard library only. The simsched binary is $SIMSCHED (default:
simsched in PATH). Arguments are passed to `simsched compare`:

  docs/examples/compare.py --topology topologies/kunpeng920.yaml \\
      --workload workloads/netperf-tcp-rr.yaml --policies sis_prop,sis_util --seeds 3
  docs/examples/compare.py --input table.json     # a saved `compare --format json`
"""
import json
import os
import subprocess
import sys


def load_label(pct):
    return f"{int(pct)}%" if pct == int(pct) else f"{pct}%"


def verdicts(table):
    rows, base = table["rows"], table["policies"][0]
    direction = "higher" if table["higher_is_better"] else "lower"
    for p, pol in enumerate(table["policies"][1:], start=1):
        better = [load_label(r["load_pct"]) for r in rows
                  if r["cells"][p]["significant"] and r["cells"][p]["diff_pct"] > 0]
        worse = [load_label(r["load_pct"]) for r in rows
                 if r["cells"][p]["significant"] and r["cells"][p]["diff_pct"] < 0]
        # null: no value or no % change (the figure had no samples); never compared
        none = [load_label(r["load_pct"]) for r in rows if r["cells"][p]["diff_pct"] is None]
        line = f"{pol} better than {base} at {len(better)}/{len(rows)} loads (significant)"
        line += (": " + " ".join(better)) if better else ""
        line += f"; worse at {len(worse)}/{len(rows)}"
        line += (": " + " ".join(worse)) if worse else ""
        if none:
            line += f"; not compared at {len(none)}/{len(rows)} (no value): " + " ".join(none)
        line += f"; {table['metric']}, {direction} is better"
        yield line


def main(argv):
    if argv[:1] == ["--input"]:
        with open(argv[1]) as f:
            table = json.load(f)
    else:
        simsched = os.environ.get("SIMSCHED", "simsched")
        out = subprocess.run([simsched, "compare", *argv, "--format", "json"],
                             check=True, stdout=subprocess.PIPE, text=True).stdout
        table = json.loads(out)
    for line in verdicts(table):
        print(line)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except subprocess.CalledProcessError as e:
        sys.exit(e.returncode)
