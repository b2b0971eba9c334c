#!/usr/bin/env bash
# libsimsched.so exports exactly the committed list lib/libsimsched.symbols
# (`nm -D`), and that list is exactly the functions and objects the public
# headers (lib/include/simsched/*.h) declare and the library defines: a new
# public function must be added to the list, a removed one taken out of it
# and the SONAME (SS_SOVERSION, simsched/version.h) bumped (docs/library.md).
# The simsched tool, which policy plugins resolve the API in, exports no
# ss_ name outside the list either.
set -euo pipefail
bin=$1
src=$2
build=$(dirname "$bin")
lib=$build/libsimsched.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sort -u "$src/lib/libsimsched.symbols" > "$tmp/list"
cmp -s "$tmp/list" "$src/lib/libsimsched.symbols" || { echo "lib/libsimsched.symbols: not sorted or has duplicates"; exit 1; }

# 1. what the shared library exports
nm -D --defined-only "$lib" | awk '{ print $3 }' | sed 's/@.*//' | sort -u > "$tmp/exported"
if ! diff -u "$tmp/list" "$tmp/exported"; then
	echo "libsimsched.so exports differ from lib/libsimsched.symbols (+: exported, not listed)"
	exit 1
fi

# 2. the SONAME carries SS_SOVERSION
sover=$(sed -n 's/^#define SS_SOVERSION \([0-9]*\).*/\1/p' "$src/lib/include/simsched/version.h")
readelf -d "$lib" | grep -q "Library soname: \[libsimsched.so.$sover\]"

# 3. the public headers' declarations, preprocessed (no comments), that the static library defines
for h in "$src"/lib/include/simsched/*.h; do echo "#include \"simsched/$(basename "$h")\""; done > "$tmp/all.c"
# shellcheck disable=SC2046
cc -E -P -I "$src/lib/include" $(pkg-config --cflags glib-2.0) "$tmp/all.c" |
	grep -oE '\bss_[a-z0-9_]+\b' | sort -u > "$tmp/declared"
nm -g --defined-only "$build/libsimsched.a" | awk 'NF == 3 && $2 ~ /[TDRB]/ { print $3 }' | sort -u > "$tmp/defined"
comm -12 "$tmp/declared" "$tmp/defined" > "$tmp/public"
if ! diff -u "$tmp/list" "$tmp/public"; then
	echo "lib/libsimsched.symbols differs from the public headers' functions (+: declared and defined, not listed)"
	exit 1
fi

# 4. the tool exports no other ss_ names (policy plugins resolve the public API in it)
nm -D --defined-only "$bin" | awk '$3 ~ /^ss_/ { print $3 }' | sed 's/@.*//' | sort -u > "$tmp/tool"
comm -23 "$tmp/tool" "$tmp/list" > "$tmp/tool_extra"
if [ -s "$tmp/tool_extra" ]; then
	echo "the simsched tool exports names outside lib/libsimsched.symbols:"
	cat "$tmp/tool_extra"
	exit 1
fi
grep -qx ss_select_idle_sibling_scan "$tmp/tool"
# a plugin calling an internal function does not load into the tool, and says which symbol
if "$bin" policies --policy-plugin "$build/plugins/plugin_internal.so" > "$tmp/out" 2> "$tmp/err"; then
	echo "a plugin calling ss_update_rq_clock (internal) loaded"
	exit 1
fi
grep -q "undefined symbol: ss_update_rq_clock" "$tmp/err" || { cat "$tmp/err"; exit 1; }
