/*
 * simsched/error.h — error reporting. Library functions return a status and
 * fill a GError in the SS_ERROR domain; they never print or exit. Messages
 * about input files are "file:line:col: what is wrong (what was expected)",
 * line and column 1-based, as compilers print them.
 */
#ifndef SIMSCHED_ERROR_H
#define SIMSCHED_ERROR_H

#include <glib.h>

#define SS_ERROR (ss_error_quark())
GQuark ss_error_quark(void);

enum ss_error_code {
	SS_ERROR_PARSE,    /* malformed YAML/JSON (syntax) */
	SS_ERROR_INVALID,  /* well-formed but not a valid description/value */
	SS_ERROR_IO,       /* a file could not be read or written */
	SS_ERROR_USAGE,    /* a bad option or parameter (--set, --policy, ...) */
	SS_ERROR_DEADLOCK, /* a run whose figure needs its tasks to finish deadlocked (the CLI exits 3) */
};

#endif
