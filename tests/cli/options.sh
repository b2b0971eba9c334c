#!/usr/bin/env bash
# One meaning per short option across every command, as README.md's table
# ("Short options") says: each command's --help pairs each letter with the
# long option the table gives it, and the table lists every command that has
# it. Options that used to mean something else are refused (exit 2), not
# misread: run -j, compare -n, sweep -s, pelt -f and -j. A load is a
# percentage or a fraction <= 1: a bare number above 1 is refused with the
# percentage it probably meant, in run, compare (lists and ranges) and
# sweep specs (file:line:col).
#   options.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for cmd in run compare sweep report topo "topo import" pelt policies validate; do
	# shellcheck disable=SC2086
	"$bin" $cmd --help > "$tmp/help.$(echo "$cmd" | tr ' ' _)"
done
python3 - "$tmp" "$src/README.md" <<'EOF'
import os, re, sys
tmp, readme = sys.argv[1], sys.argv[2]
helps = {}
for f in os.listdir(tmp):
    if f.startswith("help."):
        cmd = f[5:].replace("_", " ")
        helps[cmd] = {m.group(1): m.group(2) for m in re.finditer(r"^\s+-(\w), --([\w-]+)", open(os.path.join(tmp, f)).read(), re.M)}
# README: | `-X` | `--long` (or `--a` / `--b`) | commands |
text = open(readme).read()
sec = text[text.index("Short options"):]
table = {}
for m in re.finditer(r"^\| `-(\w)` \| ([^|]+) \| ([^|]+) \|", sec, re.M):
    longs = set(re.findall(r"`--([\w-]+)`", m.group(2)))
    cmds = {c.strip() for c in m.group(3).split(",")}
    table[m.group(1)] = (longs, cmds)
assert table, "no short-option table in README.md"
bad = []
by_letter = {}
for cmd, pairs in helps.items():
    for letter, long in pairs.items():
        by_letter.setdefault(letter, set()).add(long)
        if letter not in table:
            bad.append(f"{cmd}: -{letter} (--{long}) is not in README.md's table")
            continue
        longs, cmds = table[letter]
        if long not in longs:
            bad.append(f"{cmd}: -{letter} is --{long}, README.md says {sorted(longs)}")
        if cmd not in cmds and "every command" not in cmds:
            bad.append(f"{cmd}: has -{letter}, README.md does not list it for -{letter}")
for letter, (longs, cmds) in table.items():
    for cmd in cmds:
        if cmd == "every command":
            continue
        if helps.get(cmd, {}).get(letter) not in longs:
            bad.append(f"README.md: -{letter} listed for {cmd}, which has no such option")
# one meaning: the only letter with two long names is -p, --policy of run and --policies of compare and report
for letter, longs in by_letter.items():
    if len(longs) > 1 and longs != {"policy", "policies"}:
        bad.append(f"-{letter} means {sorted(longs)}")
assert not bad, "\n".join(bad)
EOF

expect() { # status message args...
	local want=$1 msg=$2 rc=0
	shift 2
	"$bin" "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
	[ "$rc" = "$want" ] || { echo "exit $rc, expected $want: $*"; cat "$tmp/err"; exit 1; }
	grep -qF -- "$msg" "$tmp/err" || { echo "expected '$msg' for: $*"; cat "$tmp/err"; exit 1; }
	[ ! -e "$tmp/2" ] || { echo "a file named 2 was written: $*"; exit 1; }
}
topo=$src/topologies/desktop-8c16t.yaml
wl=$src/workloads/netperf-tcp-rr.yaml
cd "$tmp"
expect 2 "Unknown option -j" run -t "$topo" -w "$wl" -j 2
expect 2 "Unknown option -n" compare -t "$topo" -w "$wl" -p sis_prop,sis_util -n 2
expect 2 "Unknown option -s" sweep -s "$tmp/sweep.yaml" -o "$tmp/r.jsonl"
expect 2 "Unknown option -f" pelt -P 10ms -b 50% -f 0.5
expect 2 "Unknown option -j" pelt -P 10ms -b 50% -j

# loads
expect 2 "simsched: --load '50': a bare number is a fraction of one instance per CPU (0.5 = 50%), at most 1 (did you mean 50%?)" \
	run -t "$topo" -w "$wl" --load 50
expect 2 "(did you mean 1.5%?)" run -t "$topo" -w "$wl" -l 1.5
expect 2 "simsched: --load '25%,50,100': '50' is a bare number, which is a fraction of one instance per CPU (0.5 = 50%), at most 1 (did you mean 25%,50%,100%?)" \
	compare -t "$topo" -w "$wl" -p sis_prop,sis_util --load 25%,50,100
expect 2 "(did you mean 25%..200%/25%?)" compare -t "$topo" -w "$wl" -p sis_prop,sis_util --load 25..200/25
cat > "$tmp/sweep.yaml" <<EOF
topologies: [$topo]
workloads: [$wl]
policies: [sis_util]
loads: [50%, 80]
seeds: 1
EOF
expect 1 "simsched: $tmp/sweep.yaml:4:14: load '80': a bare number is a fraction of one instance per CPU (0.5 = 50%), at most 1 (did you mean 80%?)" \
	sweep --spec "$tmp/sweep.yaml" --out "$tmp/r.jsonl"
[ ! -e "$tmp/r.jsonl" ]
# a fraction <= 1 and a percentage are the same load
"$bin" run -t "$topo" -w "$wl" --load 0.5 --warmup 0 -d 5ms -f json > "$tmp/half.json"
"$bin" run -t "$topo" -w "$wl" --load 50% --warmup 0 -d 5ms -f json > "$tmp/pct.json"
python3 - "$tmp/half.json" "$tmp/pct.json" <<'EOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["run"]["load_pct"] == b["run"]["load_pct"] == 50 and a["run"]["instances"] == 8
del a["provenance"]["command"], b["provenance"]["command"]
assert a == b
EOF
"$bin" run -t "$topo" -w "$wl" --load 1 --warmup 0 -d 5ms -f json | grep '"load_pct":	100,' > /dev/null
# -q: nothing but warnings and errors, in every command that has it
"$bin" run -t "$topo" -w "$wl" --warmup 0 -d 5ms -q --json "$tmp/q.json" > "$tmp/q.out"
"$bin" compare -t "$topo" -w "$wl" -p sis_prop,sis_util -l 50% --seeds 1 --warmup 0 -d 5ms -q -o "$tmp/q.txt" >> "$tmp/q.out"
sed -i 's/loads: \[50%, 80\]/loads: [50%]/' "$tmp/sweep.yaml"
sed -i 's/seeds: 1/seeds: 1\nduration: 5ms\nwarmup: 0/' "$tmp/sweep.yaml"
"$bin" sweep --spec "$tmp/sweep.yaml" -o "$tmp/q.jsonl" -q >> "$tmp/q.out" 2> "$tmp/q.err"
[ ! -s "$tmp/q.out" ] && [ ! -s "$tmp/q.err" ] && [ -s "$tmp/q.json" ] && [ -s "$tmp/q.txt" ] && [ -s "$tmp/q.jsonl" ]
# a short option's value against it, as getopt() takes it (GOption alone read
# "-j2" as -j with the next argument for its value)
"$bin" sweep --spec "$tmp/sweep.yaml" -o"$tmp/j.jsonl" -j2 -q
cmp "$tmp/q.jsonl" "$tmp/j.jsonl"
"$bin" sweep --spec "$tmp/sweep.yaml" -qo "$tmp/k.jsonl" -qj2   # after flags in one argument, as getopt()
cmp "$tmp/q.jsonl" "$tmp/k.jsonl"
"$bin" run -t"$topo" -w"$wl" -psis_util -l50% --warmup 0 -d5ms -q --json "$tmp/a.json"
"$bin" run -t "$topo" -w "$wl" -p sis_util -l 50% --warmup 0 -d 5ms -q --json "$tmp/b.json"
python3 - "$tmp/a.json" "$tmp/b.json" <<'EOF'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
del a["provenance"]["command"], b["provenance"]["command"]
assert a == b
EOF
expect 2 "Cannot parse integer value “x” for -j" sweep --spec "$tmp/sweep.yaml" -o "$tmp/x.jsonl" -jx
expect 2 "Missing argument for -j" sweep --spec "$tmp/sweep.yaml" -o "$tmp/x.jsonl" -j
[ ! -e "$tmp/x.jsonl" ]
# the value of the option before it is not split
expect 2 "Unknown option -j2" run -t "$topo" -w "$wl" -j2
"$bin" run -t "$topo" -w "$wl" --warmup 0 -d 5ms -q --json -d5ms
[ -s "$tmp/-d5ms" ] && rm -- "$tmp/-d5ms"
echo "options ok"
