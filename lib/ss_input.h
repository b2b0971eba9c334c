/* lib/ss_input.h — reading input files (internal). */
#ifndef SIMSCHED_INTERNAL_INPUT_H
#define SIMSCHED_INTERNAL_INPUT_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "simsched/data.h"   /* ss_data_find(): shipped files by name */

#define SS_MAX_INPUT_BYTES (UINT64_C(64) << 20)   /* 64 MiB */

/**
 * Read `path` whole into *buf (g_free) / *len. Refuses anything but a regular
 * file of at most SS_MAX_INPUT_BYTES. `what` names the file's role in
 * messages ("topology", "workload"). false + *err (SS_ERROR_IO) on failure.
 */
bool ss_read_input_file(const char *path, const char *what, char **buf, size_t *len, GError **err);

#endif
