#!/usr/bin/env bash
# The experiment files (experiments/*.yaml, docs/experiments.md) against the
# tree, with the CLI alone: every topology and workload path they name
# exists (relative to the experiment file's directory), every series'
# `params` name is a parameter of its workload with an accepted value, the
# `load.param` of a {unit: threads, param: NAME} load takes every value of
# `loads`, `nodes` exist on the machine, and every policy (with its `set`
# values) and every series' `set` is accepted: one `simsched run` of 1 ms
# at the smallest load per case (a timed workload that has not finished by
# then is fine; any other error fails).
# The files are read line by line in the layout they are written in (one
# key per line, flow mappings and lists on one line); a series or policy
# the reader cannot make out is an error, not a skip.
#   experiments_files.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
nfiles=0
nseries=0
nruns=0
bad() { echo "FAIL: $*"; fail=1; }

# one simsched run; ok if it ran, or stopped only because a timed workload
# (hackbench) had not finished within the 1 ms
try() {
	local what=$1
	shift
	nruns=$((nruns + 1))
	if "$bin" run "$@" --load 0.01% --warmup 0 --duration 1ms -q > "$tmp/out" 2>&1; then
		return 0
	fi
	if grep -q 'still alive at 0.001 s' "$tmp/out"; then
		return 0
	fi
	bad "$what: simsched run $*: $(head -c 400 "$tmp/out")"
}

# "{a: 1, b: x}" -> lines "a=1", "b=x"
pairs() {
	echo "$1" | sed -e 's/^ *{//' -e 's/} *$//' | tr ',' '\n' | sed -e 's/^ *//' -e 's/ *$//' \
		-e 's/: */=/' -e 's/"//g' | grep -v '^$' || true
}
# "[1, 2, 3]" -> lines
items() {
	echo "$1" | sed -e 's/^ *\[//' -e 's/\] *$//' | tr ',' '\n' | sed -e 's/^ *//' -e 's/ *$//' -e 's/"//g' |
		grep -v '^$' || true
}

for f in "$src"/experiments/*.yaml; do
	[ -e "$f" ] || continue
	nfiles=$((nfiles + 1))
	dir=$(dirname "$f")
	name=$(basename "$f")
	# S = series: name|workload|topology|nodes|params|set|load|loads
	# P = policy: name-or-flow-mapping ; T = top: key|value
	awk '
		function val(s) { sub(/^[^:]*: */, "", s); gsub(/^"|"$/, "", s); return s }
		function flush() { if (sname != "") print "S|" sname "|" wl "|" topo "|" nodes "|" params "|" set "|" load "|" loads; sname = "" }
		/^[ \t]*#/ || /^[ \t]*$/ { next }
		{ sub(/[ \t]+#.*$/, "") }
		/^[A-Za-z_]+:/ {
			flush(); sec = ""
			key = $0; sub(/:.*/, "", key)
			if (key == "series") { sec = "series"; next }
			if (key == "policies") {
				v = val($0)
				if (v == "") { sec = "policies"; next }
				gsub(/^\[|\]$/, "", v); n = split(v, a, /, */)
				for (i = 1; i <= n; i++) print "P|" a[i]
				next
			}
			if (key == "topology" || key == "nodes") print "T|" key "|" val($0)
			next
		}
		sec == "policies" && /^  - / { p = $0; sub(/^  - */, "", p); print "P|" p; next }
		sec == "series" && /^  - name:/ { flush(); sname = val($0); wl = topo = nodes = params = set = load = loads = ""; next }
		sec == "series" && /^    workload:/ { wl = val($0); next }
		sec == "series" && /^    topology:/ { topo = val($0); next }
		sec == "series" && /^    nodes:/ { nodes = val($0); next }
		sec == "series" && /^    params:/ { params = val($0); next }
		sec == "series" && /^    set:/ { set = val($0); next }
		sec == "series" && /^    load:/ { load = val($0); next }
		sec == "series" && /^    loads:/ { loads = val($0); next }
		END { flush() }
	' "$f" > "$tmp/parsed"

	top_topo=$(awk -F'|' '$1 == "T" && $2 == "topology" { print $3 }' "$tmp/parsed")
	top_nodes=$(awk -F'|' '$1 == "T" && $2 == "nodes" { print $3 }' "$tmp/parsed")
	if [ -n "$top_topo" ] && [ ! -f "$dir/$top_topo" ]; then
		bad "$name: topology $top_topo does not exist"
	fi
	declared=$(grep -c '^  - name:' "$f" || true)
	found=$(grep -c '^S|' "$tmp/parsed" || true)
	if [ "$declared" != "$found" ]; then
		bad "$name: $declared series declared, $found read"
	fi

	first_args=()
	while IFS='|' read -r tag sname wl topo nodes params set load loads; do
		[ "$tag" = S ] || continue
		nseries=$((nseries + 1))
		topo=${topo:-$top_topo}
		nodes=${nodes:-$top_nodes}
		if [ -z "$wl" ] || [ -z "$topo" ] || [ -z "$loads" ] || [ -z "$load" ]; then
			bad "$name: series $sname: workload, topology, load or loads missing"
			continue
		fi
		[ -f "$dir/$wl" ] || { bad "$name: series $sname: workload $wl does not exist"; continue; }
		[ -f "$dir/$topo" ] || { bad "$name: series $sname: topology $topo does not exist"; continue; }
		args=(-t "$dir/$topo" -w "$dir/$wl")
		[ -n "$nodes" ] && args+=(--nodes "$nodes")
		while IFS='=' read -r k v; do
			args+=(--set "workload.$k=$v")
		done < <(pairs "$params")
		while IFS='=' read -r k v; do
			args+=(--set "$k=$v")
		done < <(pairs "$set")
		[ ${#first_args[@]} -eq 0 ] && first_args=("${args[@]}")
		lparam=$(pairs "$load" | awk -F= '$1 == "param" { print $2 }')
		if [ -n "$lparam" ]; then
			while read -r v; do
				try "$name: series $sname, $lparam = $v" "${args[@]}" --set "workload.$lparam=$v"
			done < <(items "$loads")
		else
			try "$name: series $sname" "${args[@]}"
		fi
	done < "$tmp/parsed"

	# policies, with their set values, on the first series' workload and machine
	while IFS='|' read -r tag p; do
		[ "$tag" = P ] || continue
		if [ ${#first_args[@]} -eq 0 ]; then
			bad "$name: policies without a series to run them on"
			break
		fi
		if [[ $p == \{* ]]; then
			pol=$(pairs "$(echo "$p" | sed -e 's/set: *{[^}]*}//')" | awk -F= '$1 == "policy" { print $2 }')
			pset=$(echo "$p" | sed -n 's/.*set: *\({[^}]*}\).*/\1/p')
			pargs=(--policy "$pol")
			while IFS='=' read -r k v; do
				pargs+=(--set "$k=$v")
			done < <(pairs "$pset")
		else
			pol=$p
			pargs=(--policy "$pol")
		fi
		if [ -z "$pol" ]; then
			bad "$name: policy entry '$p' names no policy"
			continue
		fi
		try "$name: policy $p" "${first_args[@]}" "${pargs[@]}"
	done < "$tmp/parsed"
done

# the reader itself: a file it cannot make out must fail
mkdir -p "$tmp/x/experiments"
cp "$src/experiments/S01.yaml" "$tmp/x/experiments/S01.yaml"
sed -i 's|workload: ../workloads/netperf-udp-rr.yaml|workload: ../workloads/netperf-udp-rq.yaml|' \
	"$tmp/x/experiments/S01.yaml"
if [ "$(basename "$src")" != x ]; then
	ln -s "$src/workloads" "$tmp/x/workloads"
	ln -s "$src/topologies" "$tmp/x/topologies"
	if bash "$0" "$bin" "$tmp/x" > "$tmp/self.out" 2>&1; then
		bad "a missing workload path passed: $(cat "$tmp/self.out")"
	elif ! grep -q 'netperf-udp-rq.yaml does not exist' "$tmp/self.out"; then
		bad "a missing workload path failed for another reason: $(cat "$tmp/self.out")"
	fi
	cp "$src/experiments/S16.yaml" "$tmp/x/experiments/S01.yaml"
	sed -i 's|param: workers|param: worker|' "$tmp/x/experiments/S01.yaml"
	if bash "$0" "$bin" "$tmp/x" > "$tmp/self.out" 2>&1; then
		bad "an unknown load parameter passed"
	elif ! grep -q "no workload parameter 'worker'" "$tmp/self.out"; then
		bad "an unknown load parameter failed for another reason: $(cat "$tmp/self.out")"
	fi
fi

if [ "$nfiles" -lt 1 ] || [ "$nseries" -lt 1 ]; then
	bad "no experiment files or series found under $src/experiments"
fi
echo "$nfiles files, $nseries series, $nruns runs"
exit $fail
