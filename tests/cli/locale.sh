#!/usr/bin/env bash
# Locales: a UTF-8 option value (a machine --name) works in a UTF-8 locale;
# in the C locale a non-ASCII value is refused with an error naming its
# option; and output is the same bytes whatever the locale (a decimal-comma
# de_DE.UTF-8 included, built with localedef when the system lacks it).
#   locale.sh SIMSCHED_BINARY SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sysfs=$src/tests/data/sysfs/x86-2s
utf8=C.UTF-8
locale -a | grep -i '^c\.utf-\?8$' > /dev/null || { echo "no C.UTF-8 locale: skipped"; exit 77; }

# a UTF-8 name in a UTF-8 locale: kept as it is
LC_ALL=$utf8 "$bin" topo import --sysfs "$sysfs" --name 'ü☃' > "$tmp/u.yaml"
grep '^name: "ü☃"$' "$tmp/u.yaml" > /dev/null || { echo "name not kept:"; head -5 "$tmp/u.yaml"; exit 1; }
LC_ALL=$utf8 "$bin" topo "$tmp/u.yaml" | grep 'ü☃' > /dev/null
# in the C locale: exit 2, the message names the option
for args in "topo import --sysfs $sysfs --name ü☃" "topo import --sysfs $sysfs -n ü☃" \
	    "topo import --sysfs $sysfs --name=ü☃"; do
	set +e
	# shellcheck disable=SC2086
	LC_ALL=C "$bin" $args > /dev/null 2> "$tmp/err"
	rc=$?
	set -e
	[ "$rc" -eq 2 ] || { echo "exit $rc (expected 2): $args"; cat "$tmp/err"; exit 1; }
	grep "^simsched: --name '.*': not text in the locale's character set" "$tmp/err" > /dev/null ||
		{ echo "message names no option: $args"; cat "$tmp/err"; exit 1; }
done
# the value stuck to a short option after a flag, and given after such a cluster
for v in "-qpü☃" "-qp ü☃" "-pü☃"; do
	set +e
	# shellcheck disable=SC2086
	LC_ALL=C "$bin" run -t "$src/topologies/desktop-8c16t.yaml" -w "$src/workloads/netperf-tcp-rr.yaml" $v \
		> /dev/null 2> "$tmp/err"
	rc=$?
	set -e
	[ "$rc" -eq 2 ] && grep "^simsched: --policy '.*': not text in the locale's character set" "$tmp/err" > /dev/null ||
		{ echo "run $v: exit $rc"; cat "$tmp/err"; exit 1; }
done
set +e
LC_ALL=C "$bin" compare -t "$src/topologies/desktop-8c16t.yaml" -w "$src/workloads/netperf-tcp-rr.yaml" \
	--policies 'sis_util,ü' > /dev/null 2> "$tmp/err"
rc=$?
set -e
[ "$rc" -eq 2 ] && grep "^simsched: --policies '" "$tmp/err" > /dev/null || { echo "compare --policies: exit $rc"; cat "$tmp/err"; exit 1; }

# the same output in every locale
locales=(C "$utf8")
de=de_DE.UTF-8
if locale -a | grep -i '^de_DE\.utf-\?8$' > /dev/null; then
	locales+=("$de")
elif command -v localedef > /dev/null && mkdir -p "$tmp/loc" && localedef -i de_DE -f UTF-8 "$tmp/loc/$de" > /dev/null 2>&1; then
	export LOCPATH=$tmp/loc
	locales+=("$de")
fi
if [ "${#locales[@]}" -eq 3 ]; then
	# the locale really is a decimal-comma one
	[ "$(LC_ALL=$de /usr/bin/printf '%.1f' 0,5)" = "0,5" ] || { echo "de_DE.UTF-8 prints no decimal comma"; exit 1; }
else
	echo "note: no de_DE.UTF-8 locale: C and $utf8 only"
fi
topo=$src/topologies/desktop-8c16t.yaml
wl=$src/workloads/netperf-tcp-rr.yaml
for l in "${locales[@]}"; do
	export LC_ALL=$l
	"$bin" run -t "$topo" -w "$wl" --load 75% --warmup 10ms --duration 30ms --format json > "$tmp/run.$l.json"
	"$bin" run -t "$topo" -w "$wl" --load 75% --warmup 10ms --duration 30ms > "$tmp/run.$l.txt"
	"$bin" compare -t "$topo" -w "$wl" --policies sis_prop,sis_util --load 50%,0.75 --seeds 2 --warmup 0 \
		--duration 20ms --format json > "$tmp/cmp.$l.json"
	"$bin" compare -t "$topo" -w "$wl" --policies sis_prop,sis_util --load 50%,0.75 --seeds 2 --warmup 0 \
		--duration 20ms > "$tmp/cmp.$l.txt"
	"$bin" pelt --period 10ms --busy 12.5% --freq-ratio 0.5 --json --sample 50ms > "$tmp/pelt.$l.json"
	"$bin" topo "$topo" --format json > "$tmp/topo.$l.json"
	unset LC_ALL
done
grep '\.[0-9]' "$tmp/run.C.json" > /dev/null   # there are decimals to get wrong
for l in "${locales[@]}"; do
	for f in run.json run.txt cmp.json cmp.txt pelt.json topo.json; do
		cmp "$tmp/${f%%.*}.C.${f#*.}" "$tmp/${f%%.*}.$l.${f#*.}" || { echo "$f differs under LC_ALL=$l"; exit 1; }
	done
done
echo ok
