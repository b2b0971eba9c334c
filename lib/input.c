/* Reading an input file (topology, workload) whole, refusing what is not a
 * regular file of reasonable size: /dev/zero, a FIFO or a directory would
 * otherwise hang or exhaust memory. */
#include "ss_input.h"
#include "simsched/error.h"

#include <sys/stat.h>

bool ss_read_input_file(const char *path, const char *what, char **buf, size_t *len, GError **err)
{
	GStatBuf st;
	GError *e = NULL;
	gsize n = 0;

	if (!path) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "no %s file name given", what);
		return false;
	}
	if (g_stat(path, &st) != 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read the %s file: %s", path, what, g_strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: not a regular file (expected a %s YAML file)", path, what);
		return false;
	}
	if ((uint64_t)st.st_size > SS_MAX_INPUT_BYTES) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: %llu bytes is too large for a %s file (at most %u MiB)", path,
			    (unsigned long long)st.st_size, what, (unsigned)(SS_MAX_INPUT_BYTES >> 20));
		return false;
	}
	if (!g_file_get_contents(path, buf, &n, &e)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read the %s file: %s", path, what, e->message);
		g_error_free(e);
		return false;
	}
	*len = n;
	return true;
}
