/*
 * Shared by the fuzz targets (tests/fuzz/fuzz_*.c): each defines
 * LLVMFuzzerTestOneInput(), the libFuzzer entry point. Built with
 * SIMSCHED_FUZZ=ON (clang, tests/fuzz/run.sh) they are libFuzzer binaries;
 * in every other build they link tests/fuzz/standalone.c, a main() that
 * feeds them files and directories (the seeds and the regression inputs:
 * ctest runs them, so every crash once found stays a test).
 */
#ifndef SIMSCHED_FUZZ_H
#define SIMSCHED_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <glib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Inputs larger than this are skipped (the loaders' own limits are tested elsewhere; keep runs fast). */
#define FUZZ_MAX_INPUT (256u * 1024u)

/*
 * The input as a file for loaders that take a path: written to NAME (which
 * may hold subdirectories, e.g. "experiments/S99.yaml") under a directory
 * made once per process and removed at exit, which also holds symlinks
 * topologies/ and workloads/ to the source tree's, so that an experiment's
 * or sweep spec's relative paths to the shipped files resolve and the
 * loader goes past them. The previous input file is removed. Returns the
 * path (owned here, valid until the next call); aborts if the file cannot
 * be written.
 */
const char *fuzz_file(const uint8_t *data, size_t size, const char *name);

#endif
