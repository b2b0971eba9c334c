/*
 * simsched/rtapp.h — rt-app JSON task sets as workloads.
 *
 * rt-app (github.com/scheduler-tools/rt-app, doc/tutorial.txt) describes
 * threads as phases of events (run, sleep, timer, lock, signal, wait,
 * barrier, ...). ss_rtapp_load_string() compiles such a file into the same
 * internal form as a workload YAML file, so `--workload file.json` works
 * wherever a workload is accepted (ss_workload_load() detects the format).
 * The mapping, the looseness accepted and the errors: docs/workloads.md,
 * section "rt-app import".
 */
#ifndef SIMSCHED_RTAPP_H
#define SIMSCHED_RTAPP_H

#include <stdbool.h>
#include <stddef.h>
#include <glib.h>

#include "simsched/workload.h"

/**
 * Is this workload file rt-app JSON? True if the name ends in ".json"
 * (any case) or the first character that is not white space or a comment
 * is '{' (a YAML workload is a mapping of plain keys, never a JSON object).
 */
bool ss_rtapp_detect(const char *name, const char *text, size_t len);

/**
 * Compile rt-app JSON text. `name` is the file name used in messages.
 * Errors (*err, SS_ERROR_PARSE for syntax with file:line:col,
 * SS_ERROR_INVALID otherwise, as "file: json.path: what is wrong"): NULL.
 * Each kind of accepted looseness or ignored setting adds one line to the
 * workload's warnings (ss_workload_warnings). Caller owns the result
 * (ss_workload_free).
 */
struct ss_workload *ss_rtapp_load_string(const char *text, size_t len, const char *name, GError **err);

/**
 * Warnings the loader recorded for w (what was accepted beyond strict JSON,
 * settings that were ignored and why), in file order; NULL-terminated,
 * owned by w. Empty for YAML files.
 */
const char *const *ss_workload_warnings(const struct ss_workload *w);

#endif
