#!/usr/bin/env bash
# Robustness of a seed experiment's series to the model's parameters: the
# series is rerun with each parameter at x0.5 and x2 of its effective value,
# one at a time (issue "background work ... calibration", Robustness), and a
# table gives, per variant, the Δ % per load, the peak load with its 95 %
# interval and whether the peak stays within one load step of the base run's
# and keeps its sign ("no base effect" when the base peak's interval holds 0).
#
#   scripts/robustness.sh EXPERIMENT SERIES [--params a,b,...] [--factors 0.5,2]
#                         [--out DIR] [--build DIR] [--jobs N] [--precision P]
#                         [--seeds N] [--warmup T] [--duration T]
#
# EXPERIMENT is an id of experiments/ (S08), SERIES one of its series names
# (K64-TCP_RR). One experiment file is generated under DIR/xp/ with one series
# per variant (the series' own `set` plus the variant's --set value) and run
# by `simsched validate` into DIR (resumable: rerun the same command to
# finish an interrupted run). The effective values (a topology's `costs:`
# included) are read from a short run's JSON provenance. Default parameters:
# the costs the high-load work added (docs/model.md "Contention", "Background
# work", working-set refills, the load-balance pass that newidle holds).
# With --precision (default 1%) the runs use `--precision P --warmup auto`;
# --precision none runs the experiment's fixed warmup and duration;
# --seeds, --warmup and --duration replace the experiment's (a quick look).
# Prints a markdown table on stdout. Long: run by hand, never in CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export LC_ALL=C

[ $# -ge 2 ] || { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
xp=$1 series=$2
shift 2
params=cost.line_cached_ns,cost.rq_lock_ns,cost.tick_ns,cost.kthread_rate_hz,cost.kthread_ns,cost.refill_llc_ns_per_kib,cost.refill_cross_llc_ns_per_kib,cost.refill_cross_node_ns_per_kib,cost.lb_pass_ns
factors=0.5,2
out=robustness-out
build=$root/build
jobs=""
precision=1%
seeds="" warmup="" duration=""
while [ $# -gt 0 ]; do
	case $1 in
	--params) params=$2; shift ;;
	--factors) factors=$2; shift ;;
	--out) out=$2; shift ;;
	--build) build=$2; shift ;;
	--jobs) jobs="--jobs $2"; shift ;;
	--precision) precision=$2; shift ;;
	--seeds) seeds=$2; shift ;;
	--warmup) warmup=$2; shift ;;
	--duration) duration=$2; shift ;;
	*) echo "robustness.sh: unknown argument '$1' (expected --params, --factors, --out, --build, --jobs, --precision, --seeds, --warmup, --duration)" >&2; exit 2 ;;
	esac
	shift
done
bin=$(cd "$build" && pwd)/simsched
[ -x "$bin" ] || { echo "robustness.sh: no simsched in $build (build first)" >&2; exit 2; }
src=$root/experiments/$xp.yaml
[ -f "$src" ] || { echo "robustness.sh: no experiment file $src" >&2; exit 2; }
mkdir -p "$out/xp"
out=$(cd "$out" && pwd)

python3 - "$bin" "$src" "$series" "$params" "$factors" "$out" "$seeds" "$warmup" "$duration" <<'PY'
import json, os, re, subprocess, sys, tempfile
bin, src, series, params, factors, out, o_seeds, o_warmup, o_duration = sys.argv[1:]
params = [p for p in params.split(',') if p]
factors = [float(f) for f in factors.split(',') if f]
lines = open(src).read().split('\n')
srcdir = os.path.dirname(src)

def top(key):
    for l in lines:
        m = re.match(r'^%s:\s*(.*?)\s*(#.*)?$' % key, l)
        if m:
            return m.group(1).strip('"')
    return None

# the series block: from "  - name: SERIES" to the next item or top-level key
start = next((i for i, l in enumerate(lines) if re.match(r'^  - name:\s*%s\s*$' % re.escape(series), l)), None)
if start is None:
    sys.exit("robustness.sh: %s has no series '%s'" % (src, series))
end = start + 1
while end < len(lines) and not re.match(r'^(  - |\S)', lines[end]):
    end += 1
block = lines[start + 1:end]
field = {}
for l in block:
    m = re.match(r'^    (\w+):\s*(.*?)\s*(#.*)?$', l)
    if m:
        field[m.group(1)] = m.group(2)
def absp(p):
    return os.path.normpath(os.path.join(srcdir, p.strip('"')))

topology = absp(field.get('topology', top('topology')))
nodes = field.get('nodes', top('nodes'))
nodes = nodes.strip('"') if nodes else None
workload = absp(field['workload'])
kernel = top('kernel')
base_set = {}
if 'set' in field:
    for kv in field['set'].strip('{}').split(','):
        if ':' in kv:
            k, v = kv.split(':', 1)
            base_set[k.strip()] = v.strip()
for k in [l for l in lines if l.startswith('set:')]:
    for kv in k[4:].strip().strip('{}').split(','):
        if ':' in kv:
            a, b = kv.split(':', 1)
            base_set.setdefault(a.strip(), b.strip())

# the effective values: a short run's provenance
with tempfile.TemporaryDirectory() as td:
    cmd = [bin, 'run', '-t', topology, '-w', workload, '-p', 'sis_prop', '--load', '25%', '--warmup', '1ms',
           '--duration', '1ms', '--quiet', '--json', td + '/r.json', '--kernel', kernel]
    if nodes:
        cmd += ['--nodes', nodes]
    for k, v in base_set.items():
        cmd += ['--set', '%s=%s' % (k, v)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    eff = json.load(open(td + '/r.json'))['provenance']['params']
variants = [('base', None, None, None)]
for p in params:
    if p not in eff:
        sys.exit("robustness.sh: parameter %s is not in the run's provenance" % p)
    for f in factors:
        v = eff[p] * f
        vs = ('%d' % round(v)) if float(eff[p]).is_integer() else ('%g' % v)
        variants.append(('%s x%g' % (p, f), p, vs, eff[p]))

def name(i):
    return 'v%02d' % i

with open(out + '/xp/R.yaml', 'w') as f:
    f.write('# generated by scripts/robustness.sh from %s, series %s\n' % (src, series))
    f.write('id: R\ntitle: robustness of %s %s\ngrade: B\nsource: %s\n' % (os.path.basename(src)[:-5], series, top('source')))
    f.write('kernel: "%s"\nseed_kernel: %s\ntopology: %s\n' % (kernel, top('seed_kernel'), topology))
    if nodes:
        f.write('nodes: "%s"\n' % nodes)
    f.write('policies: %s\nseeds: %s\nwarmup: %s\nduration: %s\nseries:\n' %
            (top('policies'), o_seeds or top('seeds'), o_warmup or top('warmup'), o_duration or top('duration')))
    for i, (label, p, v, _) in enumerate(variants):
        s = dict(base_set)
        if p:
            s[p] = v
        f.write('  - name: %s\n' % name(i))
        for l in block:
            if re.match(r'^    (set|topology|workload|nodes|seeds|warmup|duration):', l):
                continue
            f.write(l + '\n')
        f.write('    workload: %s\n' % workload)
        if s:
            f.write('    set: {%s}\n' % ', '.join('%s: %s' % kv for kv in s.items()))
    f.write('rules:\n  - rule: range\n    id: any\n    series: [%s]\n    abs: true\n    max: 1000\n' %
            ', '.join(name(i) for i in range(len(variants))))
json.dump([list(v) for v in variants], open(out + '/variants.json', 'w'))
PY

pre=()
[ "$precision" = none ] || pre=(--precision "$precision" --warmup auto)
# shellcheck disable=SC2086
"$bin" validate R --experiments "$out/xp" --out "$out" $jobs "${pre[@]}" -f json > "$out/validate.json"

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
variants = json.load(open(out + '/variants.json'))
v = json.load(open(out + '/validate.json'))
xp = v['experiments'][0] if 'experiments' in v else v
ser = {s['name']: s for s in xp['series']}
def deltas(i):
    s = ser['v%02d' % i]
    c = s['columns'][0]
    return s['loads'], c['delta_pct'], c.get('ci95_lo'), c.get('ci95_hi')
loads, base, blo, bhi = deltas(0)
def peak(d):
    j = max(range(len(d)), key=lambda k: (d[k] if d[k] is not None else -1e9))
    return j
def ci(lo, hi, j):
    if lo is None or hi is None or lo[j] is None or hi[j] is None:
        return ''
    return ' [%+.1f, %+.1f]' % (lo[j], hi[j])
bp = peak(base)
# A sign and a load step can only be held by an effect: when the base run's
# peak has a 95 % interval that includes 0, there is none to hold, and the
# last column says so instead of a yes that means nothing.
testable = blo is None or bhi is None or blo[bp] is None or bhi[bp] is None or blo[bp] > 0 or bhi[bp] < 0
print('| variant | value | ' + ' | '.join(str(l) for l in loads) + ' | peak | peak Δ [95 %] | within 1 step, same sign |')
print('|---|---|' + '---|' * len(loads) + '---|---|---|')
for i, (label, p, val, eff) in enumerate(variants):
    l, d, lo, hi = deltas(i)
    pk = peak(d)
    ok = d[pk] is not None and base[bp] is not None and abs(pk - bp) <= 1 and (d[pk] > 0) == (base[bp] > 0)
    cells = ' | '.join('%+.1f' % x if x is not None else '-' for x in d)
    value = '%s (base %s)' % (val, eff) if p else ''
    verdict = 'base' if i == 0 else ('no base effect' if not testable else ('yes' if ok else '**no**'))
    print('| %s | %s | %s | %s | %s%s | %s |' % (label, value, cells, loads[pk], '%+.1f' % d[pk] if d[pk] is not None else '-', ci(lo, hi, pk), verdict))
if not testable:
    print()
    print('The base run has no effect to hold: its peak, %+.1f %% at %s, has a 95 %% interval%s that includes 0.'
          % (base[bp], loads[bp], ci(blo, bhi, bp)))
PY
