#!/usr/bin/env bash
# A result reproduces itself: run --json records what determines it
# (provenance: files with their SHA-256, every parameter as given and as
# resolved, the command line), and `run --rerun RESULT --json NEW` writes the
# same bytes. The README's main job (shortened), a variant with --set,
# --nodes, --sched-features, --load and --seed, a policy plugin, and a sweep
# record; a changed or missing file is an error naming it; --rerun takes no
# parameter of its own.
#   rerun.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
plugins=$(dirname "$bin")/plugins
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"   # the README's relative paths, as a user types them

# the main job, shortened
"$bin" run --topology topologies/kunpeng920.yaml --workload workloads/netperf-tcp-rr.yaml --policy sis_util \
	--warmup 20ms --duration 40ms --json "$tmp/a.json" > "$tmp/a.txt"
"$bin" run --rerun "$tmp/a.json" --json "$tmp/b.json" > "$tmp/b.txt"
cmp "$tmp/a.json" "$tmp/b.json"
cmp "$tmp/a.txt" "$tmp/b.txt"
"$bin" run --rerun "$tmp/a.json" --format json | cmp - "$tmp/a.json"
python3 - "$tmp/a.json" "$bin" <<'EOF'
import json, sys, hashlib
d = json.load(open(sys.argv[1]))
p = d["provenance"]
assert list(d)[-1] == "provenance", list(d)
assert p["command"] == sys.argv[2] + " run --topology topologies/kunpeng920.yaml --workload workloads/netperf-tcp-rr.yaml --policy sis_util --warmup 20ms --duration 40ms --json " + sys.argv[1], p["command"]
for k, f in (("topology", "topologies/kunpeng920.yaml"), ("workload", "workloads/netperf-tcp-rr.yaml")):
    assert p[k]["file"] == f, p[k]
    assert p[k]["sha256"] == hashlib.sha256(open(f, "rb").read()).hexdigest(), k
assert p["policy"] == {"name": "sis_util", "plugin": None, "params": {}}, p["policy"]
assert p["set"] == [] and p["sched_features"] is None, p
assert p["nodes"] == {"given": None, "ids": [0, 1, 2, 3], "cpus": "0-127"}, p["nodes"]
assert p["params"]["kernel.hz"] == 250 and p["params"]["cost.ipi_ns"] == 1500, p["params"]
assert (p["load_pct"], p["seed"], p["warmup_ns"], p["duration_ns"], p["sample_interval_ns"]) == (100, 1, 20000000, 40000000, 100000000)
assert p["simsched_version"] == d["simsched_version"] and p["kernel_model"] == "v6.6"
EOF

# --set, --nodes, --sched-features, --load, --seed, --sample-interval; the rerun keeps the original command
"$bin" run -t topologies/kunpeng920.yaml -w workloads/netperf-tcp-rr.yaml -p sis_prop --set cost.ipi_ns=2us \
	--set kernel.freq_ratio=0.8 --set kernel.hz=1000 --nodes 1-2 --sched-features NO_TTWU_QUEUE,SIS_UTIL \
	--load 0.5 -s 7 --warmup 10ms -d 30ms --sample-interval 5ms -q --json "$tmp/v.json"
"$bin" run --rerun "$tmp/v.json" -q --json "$tmp/v2.json"
cmp "$tmp/v.json" "$tmp/v2.json"
# a rerun of the rerun is the same again
"$bin" run --rerun "$tmp/v2.json" -q --json "$tmp/v3.json"
cmp "$tmp/v.json" "$tmp/v3.json"
python3 - "$tmp/v.json" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))["provenance"]
assert "--rerun" not in p["command"] and "--set cost.ipi_ns=2us" in p["command"], p["command"]
assert p["set"] == [{"given": "cost.ipi_ns=2us", "key": "cost.ipi_ns", "value": 2000},
                    {"given": "kernel.freq_ratio=0.8", "key": "kernel.freq_ratio", "value": 819 / 1024},
                    {"given": "kernel.hz=1000", "key": "kernel.hz", "value": 1000}], p["set"]
assert p["nodes"] == {"given": "1-2", "ids": [1, 2], "cpus": "32-95"}, p["nodes"]
assert p["sched_features"] == "NO_TTWU_QUEUE,SIS_UTIL" and p["policy"]["name"] == "sis_prop"
assert (p["load_pct"], p["seed"], p["sample_interval_ns"]) == (50, 7, 5000000), p
EOF
# the command line is shell-quoted: pasted back into a shell, it runs the same
"$bin" run -t topologies/desktop-8c16t.yaml -w workloads/netperf-tcp-rr.yaml --warmup 0 --duration 5ms \
	--sched-features 'NO_TTWU_QUEUE' --json "$tmp/it's here.json" -q
cmd=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["provenance"]["command"])' "$tmp/it's here.json")
case "$cmd" in *" --json '$tmp/it'\\''s here.json' -q") ;; *) echo "not shell-quoted: $cmd"; exit 1;; esac
mv "$tmp/it's here.json" "$tmp/first.json"
eval "$cmd"
cmp "$tmp/first.json" "$tmp/it's here.json"

# a policy plugin: its file and hash are recorded, and the rerun loads it
cp "$plugins/cluster_first.so" "$tmp/cf.so"
"$bin" run -t topologies/desktop-8c16t.yaml -w workloads/netperf-tcp-rr.yaml --policy-plugin "$tmp/cf.so" \
	--set policy.cluster_only=1 --warmup 5ms --duration 20ms -q --json "$tmp/p.json"
"$bin" run --rerun "$tmp/p.json" -q --json "$tmp/p2.json"
cmp "$tmp/p.json" "$tmp/p2.json"
python3 - "$tmp/p.json" "$tmp/cf.so" <<'EOF'
import json, sys, hashlib
p = json.load(open(sys.argv[1]))["provenance"]["policy"]
assert p["name"] == "cluster_first" and p["plugin"]["file"] == sys.argv[2], p
assert p["plugin"]["sha256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
assert p["params"] == {"policy.cluster_only": 1}, p
EOF

# errors: exit 1 naming the file whose content changed (or that is gone), exit 2 for a misuse
expect() { # status message args...
	local want=$1 msg=$2 rc=0
	shift 2
	"$bin" "$@" > "$tmp/out" 2> "$tmp/err" || rc=$?
	[ "$rc" = "$want" ] || { echo "exit $rc, expected $want: $*"; cat "$tmp/err"; exit 1; }
	grep -qF -- "$msg" "$tmp/err" || { echo "expected '$msg' for: $*"; cat "$tmp/err"; exit 1; }
}
cp topologies/desktop-8c16t.yaml "$tmp/m.yaml"
"$bin" run -t "$tmp/m.yaml" -w workloads/netperf-tcp-rr.yaml --warmup 0 --duration 5ms -q --json "$tmp/m.json"
echo "# edited" >> "$tmp/m.yaml"
expect 1 "$tmp/m.json: the topology $tmp/m.yaml has changed since the run (its SHA-256 is" run --rerun "$tmp/m.json" --json "$tmp/m2.json"
[ ! -e "$tmp/m2.json" ]
rm "$tmp/m.yaml"
expect 1 "$tmp/m.json: the topology $tmp/m.yaml cannot be read" run --rerun "$tmp/m.json"
echo garbage > "$tmp/cf.so"
expect 1 "$tmp/p.json: the policy plugin $tmp/cf.so has changed since the run" run --rerun "$tmp/p.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["provenance"]; json.dump(d, open(sys.argv[2], "w"))' "$tmp/a.json" "$tmp/old.json"
expect 1 "$tmp/old.json: no \"provenance\"" run --rerun "$tmp/old.json"
expect 2 "--rerun $tmp/a.json: --seed cannot be given with it" run --rerun "$tmp/a.json" --seed 3
expect 2 "--rerun $tmp/a.json: --topology cannot be given with it" run --rerun "$tmp/a.json" -t topologies/desktop-8c16t.yaml
expect 2 "--record goes with --rerun" run -t topologies/desktop-8c16t.yaml -w workloads/netperf-tcp-rr.yaml --record 2
expect 2 "that is an input file" run --rerun "$tmp/a.json" --json "$tmp/a.json"
cmp "$tmp/a.json" "$tmp/b.json"   # not overwritten

# a sweep record: each carries its provenance (no command line: records do not depend on the shard),
# and `run --rerun FILE --record LINE` writes that line again
cat > "$tmp/sweep.yaml" <<EOF
topologies: [$src/topologies/desktop-8c16t.yaml]
workloads: [$src/workloads/netperf-tcp-rr.yaml]
policies: [sis_prop, sis_util]
loads: [50%, 1]
seeds: 1
duration: 20ms
warmup: 5ms
set:
  cost.ipi_ns: [1us, 3us]
nodes: "0"
EOF
"$bin" sweep --spec "$tmp/sweep.yaml" --out "$tmp/r.jsonl" --jobs 2 -q
[ "$(wc -l < "$tmp/r.jsonl")" -eq 8 ]
for n in 1 5 8; do
	"$bin" run --rerun "$tmp/r.jsonl" --record $n -q --json "$tmp/rec.jsonl"
	sed -n "${n}p" "$tmp/r.jsonl" | cmp - "$tmp/rec.jsonl"
done
sed -n 4p "$tmp/r.jsonl" > "$tmp/one.jsonl"
"$bin" run --rerun "$tmp/one.jsonl" --format json | cmp - "$tmp/one.jsonl"
"$bin" run --rerun "$tmp/one.jsonl" | grep "^simsched run: desktop-8c16t" > /dev/null
python3 - "$tmp/r.jsonl" "$tmp/sweep.yaml" "$src" <<'EOF'
import json, sys, hashlib
for line in open(sys.argv[1]):
    r = json.loads(line)
    p = r["provenance"]
    assert "command" not in p and p["spec"]["file"] == sys.argv[2], p
    assert p["spec"]["sha256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
    assert p["topology"]["file"] == sys.argv[3] + "/topologies/desktop-8c16t.yaml"
    assert p["set"] == [{"given": "cost.ipi_ns=" + r["set"]["cost.ipi_ns"], "key": "cost.ipi_ns",
                         "value": 1000 if r["set"]["cost.ipi_ns"] == "1us" else 3000}], p["set"]
    assert p["nodes"] == {"given": "0", "ids": [0], "cpus": "0-15"} and p["load_pct"] == r["load_pct"]
    assert p["policy"]["name"] == r["policy"] and p["seed"] == r["seed"] == 1
EOF
expect 2 "--record 9: $tmp/r.jsonl has 8 lines" run --rerun "$tmp/r.jsonl" --record 9
expect 2 "$tmp/r.jsonl: not one result but 8 lines" run --rerun "$tmp/r.jsonl"
expect 1 "$tmp/a.json:2: not a sweep record" run --rerun "$tmp/a.json" --record 2
# workload parameters (--set workload.NAME=VALUE) are recorded with their values and rerun
"$bin" run -t "$src/topologies/desktop-8c16t.yaml" -w "$src/workloads/hackbench-process-pipes.yaml" \
	--set workload.num_fds=4 --set workload.loops=10 --load 50% -q --json "$tmp/hb.json"
"$bin" run --rerun "$tmp/hb.json" --json "$tmp/hb2.json" -q
cmp "$tmp/hb.json" "$tmp/hb2.json"
python3 - "$tmp/hb.json" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))["provenance"]
assert [s["value"] for s in p["set"]] == [4, 10], p["set"]
assert p["workload_params"]["num_fds"] == 4 and p["workload_params"]["loops"] == 10, p["workload_params"]
EOF
# a result of a model this one does not run (a parameter added since, a default changed) is refused,
# and nothing is written
python3 - "$tmp/a.json" "$tmp/old.json" "$tmp/chg.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
del d["provenance"]["params"]["cost.background"]
json.dump(d, open(sys.argv[2], "w"), indent="\t")
d = json.load(open(sys.argv[1]))
d["provenance"]["params"]["cost.tick_ns"] = 1000
json.dump(d, open(sys.argv[3], "w"), indent="\t")
EOF
expect 1 "$tmp/old.json: the result records no cost.background: it was made by a simsched without that parameter" \
	run --rerun "$tmp/old.json" --json "$tmp/old2.json"
expect 1 "$tmp/chg.json: the result ran with cost.tick_ns = 1000, this simsched would run 2300" \
	run --rerun "$tmp/chg.json" --json "$tmp/chg2.json"
[ ! -e "$tmp/old2.json" ] && [ ! -e "$tmp/chg2.json" ]
echo "rerun ok"
