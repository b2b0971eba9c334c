/* lib/ss_sweep.h — shared between sweep.c and report.c (internal). */
#ifndef SIMSCHED_INTERNAL_SWEEP_H
#define SIMSCHED_INTERNAL_SWEEP_H

/**
 * The key of a result line (NUL-terminated, without its '\n') if it is a
 * sweep record: a JSON object with a string "key" and an object "metrics".
 * g_free; NULL when the line is not a record.
 */
char *ss_sweep_record_key(const char *line);

#endif
