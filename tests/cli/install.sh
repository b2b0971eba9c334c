#!/usr/bin/env bash
# `cmake --install` into a temporary prefix, then use the installation as a
# user would (docs/library.md): the tool finds the shipped machines and
# workloads by name from any directory (and SIMSCHED_DATADIR replaces
# them); `pkg-config --cflags --libs simsched` builds a program against
# libsimsched.so; docs/examples/policy-ci builds with find_package(simsched)
# and its CMocka tests pass. In the sanitizer build the example and the
# program are compiled with the same sanitizers (the installed library
# needs the ASan runtime first in the process).
set -euo pipefail
bin=$1
src=$2
build=$(dirname "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
p=$tmp/prefix

cmake --install "$build" --prefix "$p" > "$tmp/install.log"
libdir=$(ls -d "$p"/lib*/ | head -1)
libdir=${libdir%/}
for f in bin/simsched include/simsched/policy.h include/simsched/state.h include/simsched/version.h \
	share/simsched/topologies/kunpeng920.yaml share/simsched/workloads/netperf-tcp-rr.yaml \
	share/doc/simsched/help/simsched-run.txt share/doc/simsched/library.md; do
	[ -f "$p/$f" ] || { echo "not installed: $f"; exit 1; }
done
[ -f "$libdir/libsimsched.a" ] && [ -L "$libdir/libsimsched.so" ] && [ -f "$libdir/cmake/simsched/simschedConfig.cmake" ]
sover=$(sed -n 's/^#define SS_SOVERSION \([0-9]*\).*/\1/p' "$src/lib/include/simsched/version.h")
[ "$(readlink "$libdir/libsimsched.so")" = "libsimsched.so.$sover" ]
readelf -d "$libdir/libsimsched.so" | grep -q "Library soname: \[libsimsched.so.$sover\]"
grep -q "^Usage:" "$p/share/doc/simsched/help/simsched-run.txt"

# the installed tool, from elsewhere, by name; nothing of the build or source tree is needed
cd "$tmp"
"$p/bin/simsched" topo kunpeng920 > topo.txt
grep -q "^machine kunpeng920: vendor arm, 128 CPUs" topo.txt
"$p/bin/simsched" run --topology xeon6148 --workload netperf-tcp-rr --warmup 5ms --duration 5ms > run.txt
grep -q "^simsched run: xeon6148 (80 CPUs" run.txt
mkdir -p d/topologies
cp "$src/topologies/desktop-8c16t.yaml" d/topologies/kunpeng920.yaml
SIMSCHED_DATADIR=$tmp/d "$p/bin/simsched" topo kunpeng920 > topo2.txt
grep -q "^machine desktop-8c16t:" topo2.txt

san_flags=""
if grep -q "^SIMSCHED_SANITIZE:BOOL=ON" "$build/CMakeCache.txt"; then
	san_flags="-fsanitize=address,undefined -fno-sanitize-recover=all"
fi

# pkg-config
export PKG_CONFIG_PATH=$libdir/pkgconfig
pkg-config --exists --print-errors "simsched >= 0.1"
cflags=$(pkg-config --cflags simsched)
libs=$(pkg-config --libs simsched)
cat > v.c <<'C'
#include <stdio.h>
#include <string.h>
#include <simsched/data.h>
#include <simsched/params.h>
#include <simsched/version.h>
int main(void)
{
	char *d = ss_data_dir();
	printf("%s %u %s\n", ss_version(), ss_version_number(), d ? d : "-");
	return strcmp(ss_version(), SS_VERSION_STRING) != 0 || ss_version_number() != SS_VERSION_NUMBER;
}
C
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror $san_flags $cflags v.c -o v $libs -Wl,-rpath,"$libdir"
./v > v.txt
ver=$(sed -n 's/^#define SS_VERSION_STRING "\(.*\)"/\1/p' "$src/lib/include/simsched/params.h")
datadir=$(cd "$p/share/simsched" && pwd -P)
grep -qx "$ver [0-9]* $datadir" v.txt || { cat v.txt; exit 1; }
# the exported list is all a program sees: an internal function does not link
cat > internal.c <<'C'
struct ss_sim;
struct ss_sim *ss_sim_create(const void *cfg, void **err);
int main(void) { return ss_sim_create(0, 0) != 0; }
C
# shellcheck disable=SC2086
if cc $san_flags internal.c -o internal $libs 2> internal.txt; then
	echo "ss_sim_create (internal) links against libsimsched.so"
	exit 1
fi
grep -q "undefined reference to .ss_sim_create" internal.txt

# the out-of-tree example: find_package(simsched), a plugin, CMocka tests
cmake -S "$src/docs/examples/policy-ci" -B ex -DCMAKE_PREFIX_PATH="$p" \
	-DCMAKE_C_FLAGS="-Wall -Wextra -Wno-unused-parameter -Werror $san_flags" \
	-DCMAKE_EXE_LINKER_FLAGS="$san_flags" -DCMAKE_MODULE_LINKER_FLAGS="$san_flags" > ex-configure.log
cmake --build ex > ex-build.log
ctest --test-dir ex --output-on-failure > ex-test.log || { cat ex-test.log; exit 1; }
grep -q "100% tests passed, 0 tests failed out of 3" ex-test.log
