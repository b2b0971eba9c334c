/*
 * Import a machine from a Linux sysfs tree (/sys/devices/system/{cpu,node})
 * as topology YAML (docs/topologies.md, "Import").
 *
 * The groupings follow what kernel v6.6 builds from the same information:
 * packages from physical_package_id, SMT siblings from thread_siblings_list,
 * clusters from cluster_cpus_list (cpu_clustergroup_mask()), the LLC from the
 * highest Unified/Data cache's shared_cpu_list (cpu_coregroup_mask()), nodes
 * from node*\/cpulist and the SLIT from node*\/distance. Where sysfs lacks
 * something, the kernel's own fallback is used and a warning is returned.
 */
#include "simsched/topology.h"
#include "simsched/error.h"
#include "topology_import.h"

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

void ss_imp_warn(struct ss_imp *im, const char *fmt, ...)
{
	va_list ap;

	if (!im->warnings)
		return;
	va_start(ap, fmt);
	g_ptr_array_add(im->warnings, g_strdup_vprintf(fmt, ap));
	va_end(ap);
}

uint64_t *ss_imp_mask(struct ss_imp *im, unsigned lv, unsigned cpu)
{
	return im->lv[lv] + (size_t)cpu * im->nw;
}

/*
 * sysfs attribute files hold at most one page (fs/sysfs/file.c
 * sysfs_kf_seq_show() formats into a PAGE_SIZE buffer, 4096 bytes on x86 and
 * most arm64 kernels); proc/cpuinfo grows with the CPUs, so it gets more room.
 */
#define SYSFS_ATTR_MAX 4096u
#define CPUINFO_MAX (16u << 20)

/*
 * Read a small regular file (after following symlinks; a FIFO, device or
 * directory is refused before anything is read) of at most max bytes,
 * stripped of surrounding white space. Returns 1 with *out (g_free), 0 if
 * the file does not exist and optional, -1 with *err otherwise.
 */
static int read_file_max(const char *path, bool optional, size_t max, char **out, GError **err)
{
	struct stat st;
	char *txt;
	size_t len = 0;
	int fd;

	*out = NULL;
	if (stat(path, &st) != 0) {
		int e = errno;

		if (optional && e == ENOENT)
			return 0;
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read (%s)", path, g_strerror(e));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: not a regular file (expected a sysfs attribute file)", path);
		return -1;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read (%s)", path,
			    fd >= 0 ? "not a regular file" : g_strerror(e));
		return -1;
	}
	txt = g_malloc(max + 2);
	while (len <= max) {
		ssize_t r = read(fd, txt + len, max + 1 - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			g_free(txt);
			g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read (%s)", path, g_strerror(e));
			return -1;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (len > max) {
		g_free(txt);
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: larger than %zu bytes (expected %s)", path, max,
			    max == SYSFS_ATTR_MAX ? "a sysfs attribute file, at most one page" : "a proc/cpuinfo file");
		return -1;
	}
	txt[len] = 0;
	if (strlen(txt) != len) {
		/* NUL bytes at the end only (a copied tree: "0-3\n\0", as in hwloc's test tarballs): the text
		 * ends at the first, as for hwloc, which reads attributes as C strings */
		for (size_t i = strlen(txt); i < len; i++)
			if (txt[i] != '\0') {
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: contains a NUL byte before its end (expected text)",
					    path);
				g_free(txt);
				return -1;
			}
	}
	g_strstrip(txt);
	*out = txt;
	return 1;
}

/* A sysfs attribute file (at most one page): read_file_max(). */
static int read_file(const char *path, bool optional, char **out, GError **err)
{
	return read_file_max(path, optional, SYSFS_ATTR_MAX, out, err);
}

void ss_imp_set_online(struct ss_imp *im, const uint64_t *online, const uint64_t *more, const char *src)
{
	unsigned nw_all = ss_cpumask_words(SS_MAX_CPUS), n = ss_cpumask_weight(online, nw_all), top = 0, k = 0;
	uint64_t *off = g_new0(uint64_t, nw_all);

	for (unsigned c = ss_cpumask_first(online, SS_MAX_CPUS); c < SS_MAX_CPUS; c = ss_cpumask_next(online, SS_MAX_CPUS, c + 1))
		top = c;
	for (unsigned c = 0; c < top; c++)
		if (!ss_cpumask_test(online, c))
			ss_cpumask_set(off, c);
	if (more)
		for (unsigned c = ss_cpumask_first(more, SS_MAX_CPUS); c < SS_MAX_CPUS; c = ss_cpumask_next(more, SS_MAX_CPUS, c + 1))
			if (!ss_cpumask_test(online, c))
				ss_cpumask_set(off, c);
	im->nr_cpus = n;
	im->nw = ss_cpumask_words(n);
	if (ss_cpumask_empty(off, nw_all)) {
		im->nr_ids = n;
		g_free(off);
		return;
	}
	/* v6.6 keeps the numbers of offline CPUs: nr_cpu_ids covers them */
	im->nr_ids = top + 1;
	for (unsigned c = ss_cpumask_first(off, SS_MAX_CPUS); c < SS_MAX_CPUS; c = ss_cpumask_next(off, SS_MAX_CPUS, c + 1))
		im->nr_ids = MAX(im->nr_ids, c + 1);
	im->cpu_id = g_new(unsigned, n);
	im->dense_of = g_new(unsigned, SS_MAX_CPUS);
	for (unsigned c = 0; c < SS_MAX_CPUS; c++)
		im->dense_of[c] = UINT_MAX;
	for (unsigned c = ss_cpumask_first(online, SS_MAX_CPUS); c < SS_MAX_CPUS; c = ss_cpumask_next(online, SS_MAX_CPUS, c + 1)) {
		im->cpu_id[k] = c;
		im->dense_of[c] = k++;
	}
	im->offline = g_new0(uint64_t, ss_cpumask_words(im->nr_ids));
	ss_cpumask_copy(im->offline, off, ss_cpumask_words(im->nr_ids));
	{
		unsigned len = 6 * SS_MAX_CPUS;
		char *buf = g_malloc(len);

		bool one = ss_cpumask_weight(off, ss_cpumask_words(im->nr_ids)) == 1;

		ss_imp_warn(im, "%s: %s %s %s offline: written as 'offline' (%s kept; v6.6 leaves "
			    "%s out of every sibling mask and sched domain)", src, one ? "CPU" : "CPUs",
			    ss_cpumask_format_list(off, im->nr_ids, buf, len), one ? "is" : "are",
			    one ? "its number is" : "their numbers are", one ? "it" : "them");
		g_free(buf);
	}
	g_free(off);
}

/* Importer CPUs (dense) of a mask of real CPU numbers (SS_MAX_CPUS bits); CPUs not online are dropped. */
static void dense_mask(const struct ss_imp *im, const uint64_t *real, uint64_t *m)
{
	ss_cpumask_zero(m, im->nw);
	for (unsigned c = ss_cpumask_first(real, SS_MAX_CPUS); c < SS_MAX_CPUS; c = ss_cpumask_next(real, SS_MAX_CPUS, c + 1))
		if (im->dense_of[c] != UINT_MAX)
			ss_cpumask_set(m, im->dense_of[c]);
}

/*
 * Parse a cpulist file into m (the importer's CPUs): CPUs that are not
 * online are dropped (sysfs masks may name possible-but-offline CPUs).
 */
static int parse_cpulist(const struct ss_imp *im, const char *path, const char *txt, uint64_t *m, GError **err)
{
	unsigned nr_cpus = im->nr_cpus;
	uint64_t big[SS_MAX_CPUS / 64];
	unsigned bad = 0;

	if (!*txt) {
		/* an empty list: a memory-only node's cpulist */
		ss_cpumask_zero(m, ss_cpumask_words(nr_cpus));
		return 0;
	}
	if (ss_cpumask_parse_list(txt, big, SS_MAX_CPUS, &bad) != 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: bad cpulist \"%s\" at character %u (expected a kernel cpulist like \"0-3,8\", CPUs < %u)",
			    path, txt, bad + 1, SS_MAX_CPUS);
		return -1;
	}
	/*
	 * A CPU that is possible but not online is dropped below (v6.6 cacheinfo
	 * and some arch sibling masks name such CPUs); one the machine cannot
	 * have at all is inconsistent content.
	 */
	if (im->known) {
		for (unsigned c = ss_cpumask_first(big, SS_MAX_CPUS); c < SS_MAX_CPUS; c = ss_cpumask_next(big, SS_MAX_CPUS, c + 1)) {
			if (!ss_cpumask_test(im->known, c)) {
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s: names CPU %u, which is not in %s (expected CPUs of the machine)", path, c,
					    im->known_src);
				return -1;
			}
		}
	}
	if (im->dense_of) {
		dense_mask(im, big, m);
		return 0;
	}
	ss_cpumask_copy(m, big, ss_cpumask_words(nr_cpus));
	for (unsigned c = nr_cpus; c < ss_cpumask_words(nr_cpus) * 64; c++)
		ss_cpumask_clear_cpu(m, c);
	return 0;
}

/* Read an optional cpulist file of cpuN; 1 = read into m (online CPUs only), 0 = absent. */
/*
 * The mask twin of a *list attribute, as older kernels (2.6.x; e.g. hwloc's
 * 16em64t-4s2c2t tree) have only the mask: node/cpulist -> cpumap,
 * thread_siblings_list -> thread_siblings, core_siblings_list ->
 * core_siblings, core_cpus_list -> core_cpus, cluster_cpus_list ->
 * cluster_cpus, cache shared_cpu_list -> shared_cpu_map (hwloc's Linux
 * backend reads the masks). NULL when path has no twin.
 */
static char *mask_twin(const char *path)
{
	static const char *const twin[][2] = { { "/cpulist", "/cpumap" }, { "/shared_cpu_list", "/shared_cpu_map" },
					       { "_list", "" } };

	for (unsigned i = 0; i < G_N_ELEMENTS(twin); i++)
		if (g_str_has_suffix(path, twin[i][0]))
			return g_strdup_printf("%.*s%s", (int)(strlen(path) - strlen(twin[i][0])), path, twin[i][1]);
	return NULL;
}

/*
 * A kernel bitmap as sysfs prints it (lib/bitmap.c bitmap_print_to_pagebuf()
 * with %*pb: 32-bit hex words, most significant first, separated by commas)
 * as a cpulist; NULL with err set when it is not one.
 */
static char *mask_to_cpulist(const char *path, const char *txt, GError **err)
{
	gchar **w = g_strsplit(txt, ",", -1);
	guint n = g_strv_length(w);
	GString *l = g_string_new(NULL);

	for (guint i = 0; i < n; i++) {
		const char *x = g_strstrip(w[i]);
		size_t len = strlen(x);
		bool ok = len >= 1 && len <= 8;

		for (size_t k = 0; ok && k < len; k++)
			ok = g_ascii_isxdigit(x[k]);
		if (!ok) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: bad CPU mask \"%s\" (expected 32-bit hex words "
				    "separated by commas, e.g. 00000000,0000ffff)", path, txt);
			g_strfreev(w);
			g_string_free(l, TRUE);
			return NULL;
		}
		uint32_t v = (uint32_t)strtoul(x, NULL, 16);
		for (unsigned b = 0; b < 32; b++)
			if (v & (1u << b))
				g_string_append_printf(l, "%s%u", l->len ? "," : "", (n - 1 - i) * 32 + b);
	}
	g_strfreev(w);
	return g_string_free(l, FALSE);
}

static int read_cpulist(struct ss_imp *im, const char *path, bool optional, uint64_t *m, GError **err)
{
	char *txt, *twin;
	int r = read_file(path, true, &txt, err);

	if (r < 0)
		return r;
	if (r == 0 && (twin = mask_twin(path))) {
		char *mask;
		r = read_file(twin, true, &mask, err);
		if (r > 0) {
			txt = mask_to_cpulist(twin, mask, err);
			g_free(mask);
			if (!txt) {
				g_free(twin);
				return -1;
			}
			r = parse_cpulist(im, twin, txt, m, err);
			g_free(txt);
			g_free(twin);
			return r < 0 ? -1 : 1;
		}
		g_free(twin);
		if (r < 0)
			return r;
	}
	if (r == 0)
		return optional ? 0 : read_file(path, false, &txt, err);   /* the missing file's error */
	r = parse_cpulist(im, path, txt, m, err);
	g_free(txt);
	return r < 0 ? -1 : 1;
}

/* Read an integer file; 1 = read, 0 = absent (optional), -1 = error. */
static int read_int(const char *path, bool optional, gint64 min, gint64 max, gint64 *val, GError **err)
{
	char *txt;
	GError *e = NULL;
	int r = read_file(path, optional, &txt, err);

	if (r <= 0)
		return r;
	if (!g_ascii_string_to_signed(txt, 10, min, max, val, &e)) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: bad value \"%s\" (expected an integer %" G_GINT64_FORMAT
			    "..%" G_GINT64_FORMAT ")", path, txt, min, max);
		g_error_free(e);
		g_free(txt);
		return -1;
	}
	g_free(txt);
	return 1;
}

static char *cpu_path(struct ss_imp *im, unsigned cpu, const char *rel)
{
	char dir[32];

	g_snprintf(dir, sizeof(dir), "cpu%u", ss_imp_id(im, cpu));
	return g_build_filename(im->cpu_dir, dir, rel, NULL);
}

/*
 * Check that the per-CPU masks of one level form a partition of the CPUs:
 * every CPU is in its own mask, and every CPU of a mask has that same mask.
 * what/file name the level for the message.
 */
static bool check_partition(struct ss_imp *im, unsigned lv, const char *file, GError **err)
{
	unsigned *count = g_new0(unsigned, im->nr_cpus);
	bool ok = true;

	for (unsigned c = 0; c < im->nr_cpus && ok; c++) {
		const uint64_t *m = ss_imp_mask(im, lv, c);
		unsigned r = ss_cpumask_first(m, im->nr_cpus);
		char *p = cpu_path(im, c, file);

		if (!ss_cpumask_test(m, c)) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: does not contain cpu%u itself (expected the CPUs sharing it, including itself)", p,
				    ss_imp_id(im, c));
			ok = false;
		} else if (!ss_cpumask_equal(m, ss_imp_mask(im, lv, r), im->nw)) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: disagrees with cpu%u's (expected every CPU of the list to report the same list)", p,
				    ss_imp_id(im, r));
			ok = false;
		} else {
			count[r]++;
		}
		g_free(p);
	}
	for (unsigned c = 0; c < im->nr_cpus && ok; c++) {
		const uint64_t *m = ss_imp_mask(im, lv, c);
		unsigned r = ss_cpumask_first(m, im->nr_cpus);

		if (r == c && count[c] != ss_cpumask_weight(m, im->nw)) {
			char *p = cpu_path(im, c, file);

			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: lists CPUs that report a different list (expected every CPU of the list to report the same list)", p);
			g_free(p);
			ok = false;
		}
	}
	g_free(count);
	return ok;
}

/* Restrict level lv to level parent (mask &= parent's); true if anything was cut. */
bool ss_imp_restrict(struct ss_imp *im, unsigned lv, unsigned parent)
{
	bool cut = false;

	for (unsigned c = 0; c < im->nr_cpus; c++) {
		uint64_t *m = ss_imp_mask(im, lv, c);
		const uint64_t *p = ss_imp_mask(im, parent, c);

		if (!ss_cpumask_subset(m, p, im->nw))
			cut = true;
		ss_cpumask_and(m, m, p, im->nw);
	}
	return cut;
}

bool ss_imp_is_x86(const char *vendor)
{
	return !strcmp(vendor, "intel") || !strcmp(vendor, "amd") || !strcmp(vendor, "hygon") ||
	       !strcmp(vendor, "zhaoxin");
}

/* The vendor: ROOT/proc/cpuinfo, else cpu/modalias, else uname (live root only). */
static int read_vendor(struct ss_imp *im, GError **err)
{
	char *path = g_build_filename(im->root, "proc", "cpuinfo", NULL);
	char *txt = NULL;
	int r = read_file_max(path, true, CPUINFO_MAX, &txt, err);

	if (r < 0) {
		g_free(path);
		return -1;
	}
	if (r > 0) {
		gchar **lines = g_strsplit(txt, "\n", -1);

		/* the first processor's block: its vendor and (x86) its family */
		for (gchar **l = lines; *l && (!im->vendor || !im->x86_family); l++) {
			char *colon = strchr(*l, ':');

			if (!colon) {
				if (im->vendor)
					break;   /* the end of the first block */
				continue;
			}
			*colon = 0;
			char *key = g_strstrip(*l), *val = g_strstrip(colon + 1);

			if (!strcmp(key, "vendor_id")) {
				if (!strcmp(val, "GenuineIntel"))
					im->vendor = g_strdup("intel");
				else if (!strcmp(val, "AuthenticAMD"))
					im->vendor = g_strdup("amd");
				else if (!strcmp(val, "HygonGenuine"))
					im->vendor = g_strdup("hygon");
				else if (!strcmp(val, "CentaurHauls") || !strcmp(val, "Shanghai"))
					im->vendor = g_strdup("zhaoxin");
			} else if (!strcmp(key, "cpu family") && !im->x86_family) {
				im->x86_family = (unsigned)strtoul(val, NULL, 10);
			} else if (!strcmp(key, "CPU implementer")) {
				im->vendor = g_strdup("arm");
			} else if (!strcmp(key, "isa") && g_str_has_prefix(val, "rv")) {
				im->vendor = g_strdup("riscv");
			} else if (!strcmp(key, "CPU Family") && strstr(val, "Loongson")) {
				im->vendor = g_strdup("loongarch");
			}
		}
		g_strfreev(lines);
		if (im->vendor)
			im->vendor_src = "proc/cpuinfo";
	}
	g_free(txt);
	g_free(path);
	if (im->vendor)
		return 0;

	/* cpu:type:x86,ven0002fam0019...  /  cpu:type:aarch64:feature:... */
	path = g_build_filename(im->cpu_dir, "modalias", NULL);
	txt = NULL;
	r = read_file(path, true, &txt, err);
	if (r < 0) {
		g_free(path);
		return -1;
	}
	if (r > 0) {
		if (g_str_has_prefix(txt, "cpu:type:x86,ven")) {
			char hex[5] = { 0 };
			unsigned v;

			strncpy(hex, txt + strlen("cpu:type:x86,ven"), 4);   /* "ven%04X" */
			v = (unsigned)strtoul(hex, NULL, 16);
			/* "...ven%04Xfam%04X" (arch/x86/kernel/cpu/match.c, the x86 cpu modalias) */
			const char *fam = strstr(txt, "fam");
			if (fam && fam - txt == (ptrdiff_t)strlen("cpu:type:x86,ven") + 4) {
				strncpy(hex, fam + 3, 4);
				im->x86_family = (unsigned)strtoul(hex, NULL, 16);
			}

			/* arch/x86/include/asm/processor.h X86_VENDOR_* */
			im->vendor = g_strdup(v == 0 ? "intel" : v == 2 ? "amd" : v == 9 ? "hygon" :
					      v == 5 || v == 10 ? "zhaoxin" : "generic");
		} else if (g_str_has_prefix(txt, "cpu:type:aarch64") || g_str_has_prefix(txt, "cpu:type:arm")) {
			im->vendor = g_strdup("arm");
		} else if (g_str_has_prefix(txt, "cpu:type:riscv")) {
			im->vendor = g_strdup("riscv");
		} else if (g_str_has_prefix(txt, "cpu:type:loongarch")) {
			im->vendor = g_strdup("loongarch");
		}
		if (im->vendor)
			im->vendor_src = "sys/devices/system/cpu/modalias";
	}
	g_free(txt);
	g_free(path);
	if (im->vendor)
		return 0;

	if (!strcmp(im->root, "/")) {
		struct utsname u;

		if (uname(&u) == 0) {
			if (!strcmp(u.machine, "aarch64") || g_str_has_prefix(u.machine, "arm"))
				im->vendor = g_strdup("arm");
			else if (g_str_has_prefix(u.machine, "riscv"))
				im->vendor = g_strdup("riscv");
			else if (g_str_has_prefix(u.machine, "loongarch"))
				im->vendor = g_strdup("loongarch");
			if (im->vendor)
				im->vendor_src = "uname";
		}
	}
	if (!im->vendor) {
		im->vendor = g_strdup("generic");
		im->vendor_src = "default";
		ss_imp_warn(im, "%s: CPU vendor not found in proc/cpuinfo nor sys/devices/system/cpu/modalias; "
		     "using vendor \"generic\" (the kernel's default topology table)", im->root);
	}
	return 0;
}

static int read_online(struct ss_imp *im, GError **err)
{
	char *path = g_build_filename(im->cpu_dir, "online", NULL);
	char *txt = NULL;
	uint64_t big[SS_MAX_CPUS / 64];
	unsigned bad = 0;
	int rc = -1;

	int have = read_file(path, true, &txt, err);
	if (have < 0)
		goto out;
	if (!have) {
		/*
		 * No cpu/online (kernels before 2.6.27, and trees copied from
		 * them): the CPUs are the cpuN directories, each online unless its
		 * cpuN/online holds 0, as hwloc's look_sysfscpu() (topology-linux.c)
		 * reads them.
		 */
		GDir *d = g_dir_open(im->cpu_dir, 0, NULL);
		GString *list = g_string_new(NULL);
		const char *n;
		uint64_t seen[SS_MAX_CPUS / 64] = { 0 };

		while (d && (n = g_dir_read_name(d))) {
			char *end;
			unsigned long c;
			if (strncmp(n, "cpu", 3) || !g_ascii_isdigit(n[3]) || (c = strtoul(n + 3, &end, 10), *end) ||
			    c >= SS_MAX_CPUS)
				continue;
			char *op = g_strdup_printf("%s/%s/online", im->cpu_dir, n), *ot = NULL;
			int r = read_file(op, true, &ot, err);
			g_free(op);
			if (r < 0) {
				g_free(ot);
				g_dir_close(d);
				g_string_free(list, TRUE);
				goto out;
			}
			if (!r || strcmp(ot, "0"))
				ss_cpumask_set(seen, (unsigned)c);
			g_free(ot);
		}
		if (d)
			g_dir_close(d);
		for (unsigned c = 0; c < SS_MAX_CPUS; c++) {
			if (!ss_cpumask_test(seen, c))
				continue;
			unsigned e = c;
			while (e + 1 < SS_MAX_CPUS && ss_cpumask_test(seen, e + 1))
				e++;
			g_string_append_printf(list, list->len ? ",%u" : "%u", c);
			if (e > c)
				g_string_append_printf(list, "-%u", e);
			c = e;
		}
		if (!list->len) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: missing, and no cpuN directory beside it (expected cpu/online, or cpu0, cpu1, ...)", path);
			g_string_free(list, TRUE);
			goto out;
		}
		ss_imp_warn(im, "%s: missing (a kernel before 2.6.27?): the online CPUs %s are the cpuN directories whose "
			    "online file is not 0, as hwloc reads them", path, list->str);
		txt = g_string_free(list, FALSE);
	}
	if (ss_cpumask_parse_list(txt, big, SS_MAX_CPUS, &bad) != 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: bad cpulist \"%s\" at character %u (expected a kernel cpulist like \"0-7\", CPUs < %u)",
			    path, txt, bad + 1, SS_MAX_CPUS);
		goto out;
	}
	if (ss_cpumask_empty(big, SS_MAX_CPUS / 64)) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: no online CPU (expected a cpulist like \"0-7\")", path);
		goto out;
	}
	/*
	 * CPUs missing from "online" below its highest CPU are offline; so are
	 * the "present" ones above it. They keep their numbers (the file's
	 * 'offline' list).
	 */
	{
		char *ppath = g_build_filename(im->cpu_dir, "present", NULL), *ptxt = NULL;
		uint64_t present[SS_MAX_CPUS / 64];
		bool have_present = false;

		if (read_file(ppath, true, &ptxt, err) < 0) {
			g_free(ppath);
			goto out;
		}
		if (ptxt && *ptxt) {
			if (ss_cpumask_parse_list(ptxt, present, SS_MAX_CPUS, &bad) != 0) {
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s: bad cpulist \"%s\" at character %u (expected a kernel cpulist like \"0-7\", CPUs < %u)",
					    ppath, ptxt, bad + 1, SS_MAX_CPUS);
				g_free(ptxt);
				g_free(ppath);
				goto out;
			}
			have_present = true;
		}
		g_free(ptxt);
		g_free(ppath);
		ss_imp_set_online(im, big, have_present ? present : NULL, path);

		/*
		 * The CPUs a sibling, cache or node list may name: cpu/possible
		 * (cache shared_cpu_list can hold possible-but-offline CPUs), else
		 * cpu/present, else the CPUs up to the highest online or offline one.
		 */
		ppath = g_build_filename(im->cpu_dir, "possible", NULL);
		ptxt = NULL;
		if (read_file(ppath, true, &ptxt, err) < 0) {
			g_free(ppath);
			goto out;
		}
		im->known = g_new0(uint64_t, SS_MAX_CPUS / 64);
		if (ptxt && *ptxt) {
			if (ss_cpumask_parse_list(ptxt, im->known, SS_MAX_CPUS, &bad) != 0) {
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s: bad cpulist \"%s\" at character %u (expected a kernel cpulist like \"0-7\", CPUs < %u)",
					    ppath, ptxt, bad + 1, SS_MAX_CPUS);
				g_free(ptxt);
				g_free(ppath);
				goto out;
			}
			im->known_src = "cpu/possible";
		} else if (have_present) {
			ss_cpumask_copy(im->known, present, SS_MAX_CPUS / 64);
			im->known_src = "cpu/present";
		} else {
			for (unsigned c = 0; c < im->nr_ids; c++)
				ss_cpumask_set(im->known, c);
			im->known_src = "cpu/online";
		}
		ss_cpumask_or(im->known, im->known, big, SS_MAX_CPUS / 64);
		g_free(ptxt);
		g_free(ppath);
	}
	rc = 0;
out:
	g_free(txt);
	g_free(path);
	return rc;
}

/* physical_package_id, thread siblings, cluster, capacity. */
static int read_cpu_topology(struct ss_imp *im, GError **err)
{
	static const char *const id_file[4] = { "topology/physical_package_id", "topology/die_id",
						"topology/cluster_id", "topology/core_id" };
	const gint64 NO_ID = G_MININT64;   /* the file is missing */
	gint64 *pkg = g_new0(gint64, im->nr_cpus), *core_id = g_new0(gint64, im->nr_cpus);
	gint64 (*ids)[4] = g_malloc_n(im->nr_cpus, sizeof(*ids));
	bool no_pkg = false, no_core = false, no_cls = false, have_cap = false;
	int rc = -1;

	for (unsigned c = 0; c < im->nr_cpus; c++) {
		char *p = cpu_path(im, c, NULL);
		bool isdir = g_file_test(p, G_FILE_TEST_IS_DIR);

		if (!isdir) {
			g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: missing (expected a directory for every online CPU)", p);
			g_free(p);
			goto out;
		}
		g_free(p);

		/*
		 * physical_package_id: -1 where firmware gives none (arm64). v6.6
		 * drivers/base/arch_topology.c update_siblings_masks() compares the
		 * ids as they are (package_id != package_id), so -1 is a package of
		 * its own: the CPUs reporting -1 share it, and no CPU reporting 0.
		 */
		p = cpu_path(im, c, "topology/physical_package_id");
		int r = read_int(p, true, -1, G_MAXINT32, &pkg[c], err);
		g_free(p);
		if (r < 0)
			goto out;
		if (r == 0) {
			no_pkg = true;
			pkg[c] = 0;
		}
		ids[c][0] = r > 0 ? pkg[c] : NO_ID;
		p = cpu_path(im, c, "topology/die_id");
		r = read_int(p, true, -1, G_MAXINT32, &ids[c][1], err);
		g_free(p);
		if (r < 0)
			goto out;
		if (r == 0)
			ids[c][1] = NO_ID;
		p = cpu_path(im, c, "topology/cluster_id");
		r = read_int(p, true, -1, G_MAXINT32, &ids[c][2], err);
		g_free(p);
		if (r < 0)
			goto out;
		if (r == 0)
			ids[c][2] = NO_ID;
		p = cpu_path(im, c, "topology/core_id");
		r = read_int(p, true, -1, G_MAXINT32, &core_id[c], err);
		g_free(p);
		if (r < 0)
			goto out;
		ids[c][3] = r > 0 ? core_id[c] : NO_ID;
		if (r == 0)
			core_id[c] = -1 - (gint64)c;   /* unique: the CPU alone */

		/* SMT siblings: thread_siblings_list, or core_cpus_list (its newer name) */
		uint64_t *core = ss_imp_mask(im, LV_CORE, c);
		p = cpu_path(im, c, "topology/thread_siblings_list");
		r = read_cpulist(im, p, true, core, err);
		g_free(p);
		if (r == 0) {
			p = cpu_path(im, c, "topology/core_cpus_list");
			r = read_cpulist(im, p, true, core, err);
			g_free(p);
		}
		if (r < 0)
			goto out;
		if (r == 0)
			no_core = true;

		uint64_t *cls = ss_imp_mask(im, LV_CLS, c);
		p = cpu_path(im, c, "topology/cluster_cpus_list");
		r = read_cpulist(im, p, true, cls, err);
		g_free(p);
		if (r < 0)
			goto out;
		if (r == 0)
			no_cls = true;

		gint64 cap = 1024;
		p = cpu_path(im, c, "cpu_capacity");
		r = read_int(p, true, 1, 1024, &cap, err);
		g_free(p);
		if (r < 0)
			goto out;
		if (r > 0)
			have_cap = true;
		im->capacity[c] = (unsigned)cap;
	}
	(void)have_cap;

	/* packages: CPUs with the same physical_package_id */
	for (unsigned c = 0; c < im->nr_cpus; c++)
		for (unsigned d = 0; d < im->nr_cpus; d++)
			if (pkg[c] == pkg[d])
				ss_cpumask_set(ss_imp_mask(im, LV_PKG, c), d);
	if (no_pkg)
		ss_imp_warn(im, "%s/cpu*/topology/physical_package_id: missing; CPUs without it are in package 0", im->cpu_dir);

	if (no_core) {
		/* no sibling lists: CPUs of one package with the same core_id (the CPU alone without core_id) */
		ss_imp_warn(im, "%s/cpu*/topology/thread_siblings_list: missing; SMT siblings taken from core_id "
		     "(no SMT where core_id is missing too)", im->cpu_dir);
		for (unsigned c = 0; c < im->nr_cpus; c++) {
			uint64_t *m = ss_imp_mask(im, LV_CORE, c);

			ss_cpumask_zero(m, im->nw);
			for (unsigned d = 0; d < im->nr_cpus; d++)
				if (pkg[c] == pkg[d] && core_id[c] == core_id[d])
					ss_cpumask_set(m, d);
		}
	}
	if (no_cls) {
		/* without cluster information the kernel's cluster is the core */
		for (unsigned c = 0; c < im->nr_cpus; c++)
			ss_cpumask_copy(ss_imp_mask(im, LV_CLS, c), ss_imp_mask(im, LV_CORE, c), im->nw);
	}
	if (!check_partition(im, LV_CORE, "topology/thread_siblings_list", err))
		goto out;
	/*
	 * SMT siblings agree on every id: v6.6 update_siblings_masks() makes
	 * CPUs thread siblings only within one package, cluster and core_id
	 * (x86 match_smt() within one package and die). Lists that say
	 * otherwise are inconsistent; merging them would invent a package.
	 * Except core_id on x86: v6.6 arch/x86/kernel/smpboot.c match_smt()
	 * with TOPOEXT also pairs CPUs of one package, die and LLC whose
	 * core_id differs but whose compute unit (cu_id, CPUID 0x8000001e) is
	 * the same: AMD family 15h's modules, two cores sharing an L2 and an
	 * FPU, are SMT siblings to the scheduler (amd.c amd_get_topology()
	 * sets cu_id for family 0x15 only). sysfs does not show cu_id; on such
	 * a machine the kernel's thread_siblings_list is the pairing, as it is.
	 */
	bool cu_pairs = im->vendor && !strcmp(im->vendor, "amd") && im->x86_family == 0x15;
	for (unsigned c = 0; c < im->nr_cpus; c++) {
		const uint64_t *m = ss_imp_mask(im, LV_CORE, c);

		for (unsigned d = ss_cpumask_next(m, im->nr_cpus, c + 1); d < im->nr_cpus; d = ss_cpumask_next(m, im->nr_cpus, d + 1)) {
			for (unsigned k = 0; k < 4; k++) {
				if (ids[c][k] == NO_ID || ids[d][k] == NO_ID || ids[c][k] == ids[d][k] || (k == 3 && cu_pairs))
					continue;
				char *pc = cpu_path(im, c, id_file[k]), *pd = cpu_path(im, d, id_file[k]);
				char *sib = cpu_path(im, c, "topology/thread_siblings_list");

				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s: %" G_GINT64_FORMAT " but its SMT sibling's %s: %" G_GINT64_FORMAT
					    " (expected the threads of one core, cpu%u and cpu%u by %s, to have the same %s)",
					    pc, ids[c][k], pd, ids[d][k], ss_imp_id(im, c), ss_imp_id(im, d), sib, id_file[k] + 9);
				g_free(pc);
				g_free(pd);
				g_free(sib);
				goto out;
			}
		}
	}
	if (!no_cls && !check_partition(im, LV_CLS, "topology/cluster_cpus_list", err))
		goto out;
	rc = 0;
out:
	g_free(pkg);
	g_free(core_id);
	g_free(ids);
	return rc;
}

/*
 * LLC of each CPU: the shared_cpu_list of its highest-level Unified or Data
 * cache. 1 = every CPU has one, 0 = no CPU has any (the kernel's fallback),
 * -1 = error, also when only some CPUs have cache information or their
 * highest levels differ (inconsistent: v6.6 cacheinfo fills every CPU alike).
 */
static int read_caches(struct ss_imp *im, GError **err)
{
	gint64 *lvl = g_new(gint64, im->nr_cpus);
	unsigned with = UINT_MAX, without = UINT_MAX, empty_cache_warned = 0;
	int rc = -1;

	for (unsigned c = 0; c < im->nr_cpus; c++) {
		char *dir = cpu_path(im, c, "cache");
		GDir *d = g_dir_open(dir, 0, NULL);
		gint64 best = -1;
		const char *ent;

		lvl[c] = -1;
		if (!d) {
			g_free(dir);
			if (without == UINT_MAX)
				without = c;
			continue;
		}
		while ((ent = g_dir_read_name(d))) {
			if (!g_str_has_prefix(ent, "index"))
				continue;
			char *p = g_build_filename(dir, ent, "type", NULL), *type = NULL;
			int r = read_file(p, true, &type, err);
			if (r > 0 && strcmp(type, "Unified") && strcmp(type, "Data") && strcmp(type, "Instruction")) {
				/* v6.6 drivers/base/cacheinfo.c type_show(): one of these three */
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s: unknown cache type \"%s\" (expected Data, Instruction or Unified)", p, type);
				r = -1;
			}
			g_free(p);
			if (r < 0) {
				g_free(type);
				goto fail;
			}
			if (r == 0 || !strcmp(type, "Instruction")) {
				g_free(type);
				continue;
			}
			g_free(type);
			gint64 level;
			p = g_build_filename(dir, ent, "level", NULL);
			r = read_int(p, true, 0, 16, &level, err);
			g_free(p);
			if (r < 0)
				goto fail;
			if (r == 0 || level <= best)
				continue;
			p = g_build_filename(dir, ent, "shared_cpu_list", NULL);
			r = read_cpulist(im, p, true, ss_imp_mask(im, LV_LLC, c), err);
			if (r > 0 && !ss_cpumask_weight(ss_imp_mask(im, LV_LLC, c), im->nw)) {
				/*
				 * An empty sharing list (ia64 kernels print them, e.g. hwloc's
				 * 8ia64-2n2s2c): the cache is the CPU's own, as hwloc's Linux
				 * backend takes it ("mask is wrong (happens on ia64)").
				 */
				ss_cpumask_set(ss_imp_mask(im, LV_LLC, c), c);
				if (!empty_cache_warned++) {
					char *dn = g_path_get_dirname(p);
					ss_imp_warn(im, "%s: shares the cache with no CPU; taken as cpu%u's own (as hwloc does)", dn,
						    ss_imp_id(im, c));
					g_free(dn);
				}
			}
			g_free(p);
			if (r < 0)
				goto fail;
			if (r > 0)
				best = level;
			continue;
fail:
			g_dir_close(d);
			g_free(dir);
			goto out;
		}
		g_dir_close(d);
		g_free(dir);
		lvl[c] = best;
		if (best < 0 && without == UINT_MAX)
			without = c;
		if (best >= 0 && with == UINT_MAX)
			with = c;
	}
	if (with == UINT_MAX) {
		rc = 0;
		goto out;
	}
	if (without != UINT_MAX) {
		char *p = cpu_path(im, without, "cache"), *q = cpu_path(im, with, "cache");

		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: no Unified or Data cache with level and shared_cpu_list, but %s has one (expected cache "
			    "information for every online CPU or for none)", p, q);
		g_free(p);
		g_free(q);
		goto out;
	}
	/* the CPU with the highest last level is the reference: the others lack a level */
	for (unsigned c = 0; c < im->nr_cpus; c++)
		if (lvl[c] > lvl[with])
			with = c;
	for (unsigned c = 0; c < im->nr_cpus; c++) {
		if (lvl[c] != lvl[with]) {
			char *p = cpu_path(im, c, "cache"), *q = cpu_path(im, with, "cache");

			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: highest Unified/Data cache is level %" G_GINT64_FORMAT ", but %s's is level %"
				    G_GINT64_FORMAT " (expected every CPU's last-level cache at the same level)", p, lvl[c], q,
				    lvl[with]);
			g_free(p);
			g_free(q);
			goto out;
		}
	}
	rc = check_partition(im, LV_LLC, "cache/index*/shared_cpu_list (highest level)", err) ? 1 : -1;
out:
	g_free(lvl);
	return rc;
}

static unsigned *parse_distance_row(const char *path, const char *txt, unsigned n, GError **err)
{
	gchar **tok = g_strsplit_set(txt, " \t", -1);
	unsigned *row = g_new0(unsigned, n), k = 0;

	for (gchar **t = tok; *t; t++) {
		guint64 v;

		if (!**t)
			continue;
		if (k >= n) {
			k++;
			continue;
		}
		if (!g_ascii_string_to_unsigned(*t, 10, 0, 255, &v, NULL)) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: bad distance \"%s\" (expected integers 10..254 separated by spaces)", path, *t);
			goto bad;
		}
		row[k++] = (unsigned)v;
	}
	if (k != n) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: %u distances (expected %u, one per online node)", path, k, n);
		goto bad;
	}
	g_strfreev(tok);
	return row;
bad:
	g_strfreev(tok);
	g_free(row);
	return NULL;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* Nodes: node*\/cpulist and node*\/distance. */
static int read_nodes(struct ss_imp *im, GError **err)
{
	GDir *nd = g_dir_open(im->node_dir, 0, NULL);
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(unsigned));
	const char *ent;
	int rc = -1;

	if (nd) {
		while ((ent = g_dir_read_name(nd))) {
			guint64 v;

			if (!g_str_has_prefix(ent, "node") || !g_ascii_isdigit(ent[4]))
				continue;   /* online, possible, has_cpu, ... */
			/* sparse ids are kept as they are (node0, node2, ...) */
			if (!g_ascii_string_to_unsigned(ent + 4, 10, 0, G_MAXUINT32 - 1, &v, NULL)) {
				char *p = g_build_filename(im->node_dir, ent, NULL);

				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s: not a node directory name (expected nodeN, N a node number below %u)", p,
					    G_MAXUINT32 - 1);
				g_free(p);
				g_dir_close(nd);
				goto out;
			}
			unsigned u = (unsigned)v;
			g_array_append_val(ids, u);
		}
		g_dir_close(nd);
	}
	im->cpu_node = g_new(unsigned, im->nr_cpus);
	for (unsigned c = 0; c < im->nr_cpus; c++)
		im->cpu_node[c] = G_MAXUINT;
	if (ids->len == 0) {
		ss_imp_warn(im, "%s: no node directories; one NUMA node with distance 10", im->node_dir);
		im->nr_nodes = 1;
		im->node_ids = g_new0(unsigned, 1);
		im->dist = g_new(unsigned, 1);
		im->dist[0] = 10;
		im->have_dist = true;
		for (unsigned c = 0; c < im->nr_cpus; c++)
			im->cpu_node[c] = 0;
		goto masks;
	}
	qsort(ids->data, ids->len, sizeof(unsigned), cmp_uint);
	im->nr_nodes = ids->len;
	im->node_ids = g_new(unsigned, ids->len);
	memcpy(im->node_ids, ids->data, ids->len * sizeof(unsigned));
	im->dist = g_new0(unsigned, (size_t)im->nr_nodes * im->nr_nodes);
	im->have_dist = true;
	for (unsigned i = 0; i < im->nr_nodes; i++) {
		char name[32];
		uint64_t *m = g_new0(uint64_t, im->nw);

		g_snprintf(name, sizeof(name), "node%u", im->node_ids[i]);
		char *p = g_build_filename(im->node_dir, name, "cpulist", NULL);
		int r = read_cpulist(im, p, false, m, err);
		if (r < 0) {
			g_free(p);
			g_free(m);
			goto out;
		}
		for (unsigned c = ss_cpumask_first(m, im->nr_cpus); c < im->nr_cpus; c = ss_cpumask_next(m, im->nr_cpus, c + 1)) {
			if (im->cpu_node[c] != G_MAXUINT) {
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s: cpu%u is also in node%u (expected each CPU in one node)", p, ss_imp_id(im, c),
					    im->node_ids[im->cpu_node[c]]);
				g_free(p);
				g_free(m);
				goto out;
			}
			im->cpu_node[c] = i;
		}
		g_free(p);
		g_free(m);

		p = g_build_filename(im->node_dir, name, "distance", NULL);
		char *txt = NULL;
		r = read_file(p, true, &txt, err);
		if (r < 0) {
			g_free(p);
			goto out;
		}
		if (r == 0) {
			im->have_dist = false;
		} else {
			unsigned *row = parse_distance_row(p, txt, im->nr_nodes, err);
			if (!row) {
				g_free(txt);
				g_free(p);
				goto out;
			}
			memcpy(im->dist + (size_t)i * im->nr_nodes, row, im->nr_nodes * sizeof(unsigned));
			g_free(row);
		}
		g_free(txt);
		g_free(p);
	}
	for (unsigned c = 0; c < im->nr_cpus; c++) {
		if (im->cpu_node[c] == G_MAXUINT) {
			char *p = cpu_path(im, c, NULL);

			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: online CPU in no %s/node*/cpulist (expected every online CPU in one node)", p, im->node_dir);
			g_free(p);
			goto out;
		}
	}
	if (!im->have_dist) {
		ss_imp_warn(im, "%s/node*/distance: missing; using 10 locally and 20 (REMOTE_DISTANCE) between nodes", im->node_dir);
		for (unsigned i = 0; i < im->nr_nodes; i++)
			for (unsigned j = 0; j < im->nr_nodes; j++)
				im->dist[i * im->nr_nodes + j] = i == j ? 10 : 20;
	}
	/*
	 * ACPI SLIT rules, as ss_topology_load checks them, between the nodes
	 * with CPUs: a memory-only node (a GPU's HBM on GH200, CXL memory) may
	 * be 255, unreachable, from or to the others (numactl -H prints what
	 * node_distance() gives), and the machine written keeps only the nodes
	 * with CPUs anyway.
	 */
	bool *has_cpu = g_new0(bool, im->nr_nodes);
	for (unsigned c = 0; c < im->nr_cpus; c++)
		has_cpu[im->cpu_node[c]] = true;
	for (unsigned i = 0; i < im->nr_nodes; i++) {
		for (unsigned j = 0; j < im->nr_nodes; j++) {
			unsigned v = im->dist[i * im->nr_nodes + j];
			const char *what = NULL;

			if (!has_cpu[i] || !has_cpu[j])
				continue;

			if (i == j && v != 10)
				what = "local distance is not 10 (expected 10 on the diagonal)";
			else if (i != j && (v < 11 || v > 254))
				what = "remote distance out of range (expected 11..254)";
			/* node<i>/distance is node_distance(i, *), a row: it may differ from column i */
			if (what) {
				char name[32];

				g_snprintf(name, sizeof(name), "node%u", im->node_ids[i]);
				char *p = g_build_filename(im->node_dir, name, "distance", NULL);
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: entry %u (node%u) is %u: %s", p, j,
					    im->node_ids[j], v, what);
				g_free(p);
				g_free(has_cpu);
				goto out;
			}
		}
	}
	g_free(has_cpu);
masks:
	for (unsigned c = 0; c < im->nr_cpus; c++)
		for (unsigned d = 0; d < im->nr_cpus; d++)
			if (im->cpu_node[c] == im->cpu_node[d])
				ss_cpumask_set(ss_imp_mask(im, LV_NODE, c), d);
	rc = 0;
out:
	g_array_free(ids, TRUE);
	return rc;
}

/* Union-find over CPUs, to join packages that a node spans. */
static unsigned uf_find(unsigned *p, unsigned x)
{
	while (p[x] != x)
		x = p[x] = p[p[x]];
	return x;
}

void ss_imp_join_packages(struct ss_imp *im)
{
	unsigned *p = g_new(unsigned, im->nr_cpus);
	bool joined = false;

	for (unsigned c = 0; c < im->nr_cpus; c++)
		p[c] = c;
	for (unsigned lv = LV_PKG; lv <= LV_NODE; lv++)
		for (unsigned c = 0; c < im->nr_cpus; c++) {
			unsigned a = uf_find(p, c), b = uf_find(p, ss_cpumask_first(ss_imp_mask(im, lv, c), im->nr_cpus));
			if (a != b)
				p[a < b ? b : a] = a < b ? a : b;
		}
	for (unsigned c = 0; c < im->nr_cpus; c++) {
		uint64_t *m = ss_imp_mask(im, LV_PKG, c);
		uint64_t *n = g_new0(uint64_t, im->nw);

		for (unsigned d = 0; d < im->nr_cpus; d++)
			if (uf_find(p, c) == uf_find(p, d))
				ss_cpumask_set(n, d);
		if (!ss_cpumask_equal(m, n, im->nw))
			joined = true;
		ss_cpumask_copy(m, n, im->nw);
		g_free(n);
	}
	if (joined)
		ss_imp_warn(im, "%s: a NUMA node spans several packages; those packages are joined into one "
		     "(v6.6 builds no domain from the package except through the node)", im->node_dir);
	g_free(p);
}

static void emit_cpus(GString *s, struct ss_imp *im, const uint64_t *m)
{
	unsigned len = 6 * SS_MAX_CPUS;   /* "4095," per CPU at worst */
	char *buf = g_malloc(len);

	if (im->cpu_id) {
		/* back to the real CPU numbers */
		uint64_t *real = g_new0(uint64_t, ss_cpumask_words(im->nr_ids));

		for (unsigned c = ss_cpumask_first(m, im->nr_cpus); c < im->nr_cpus; c = ss_cpumask_next(m, im->nr_cpus, c + 1))
			ss_cpumask_set(real, im->cpu_id[c]);
		g_string_append_printf(s, "\"%s\"", ss_cpumask_format_list(real, im->nr_ids, buf, len));
		g_free(real);
	} else {
		g_string_append_printf(s, "\"%s\"", ss_cpumask_format_list(m, im->nr_cpus, buf, len));
	}
	g_free(buf);
}

static void emit_core(GString *s, struct ss_imp *im, unsigned first, const char *ind)
{
	const uint64_t *m = ss_imp_mask(im, LV_CORE, first);
	unsigned cap = im->capacity[first];
	bool sep = false;

	g_string_append_printf(s, "%s  - ", ind);
	if (cap != 1024)
		g_string_append(s, "{cpus: ");
	g_string_append_c(s, '[');
	for (unsigned c = first; c < im->nr_cpus; c = ss_cpumask_next(m, im->nr_cpus, c + 1)) {
		g_string_append_printf(s, "%s%u", sep ? ", " : "", ss_imp_id(im, c));
		sep = true;
		if (im->capacity[c] != cap) {
			/* sysfs: the cpu_capacity file; hwloc: the XML file */
			char *p = im->root ? cpu_path(im, c, "cpu_capacity") : g_strdup(im->cpu_dir);

			ss_imp_warn(im, "%s: cpu%u's capacity %u differs from its SMT sibling cpu%u's %u; using %u for the core",
				    p, ss_imp_id(im, c), im->capacity[c], ss_imp_id(im, first), cap, cap);
			g_free(p);
		}
	}
	g_string_append_c(s, ']');
	if (cap != 1024)
		g_string_append_printf(s, ", capacity: %u}", cap);
	g_string_append_c(s, '\n');
}

static void emit_dies(GString *s, struct ss_imp *im, const uint64_t *node, unsigned depth, bool clusters,
		      unsigned *node_order, unsigned *nr_order);

/* The entries of level lv inside mask `in`, each in first-CPU order. */
static void emit_level(GString *s, struct ss_imp *im, unsigned lv, const uint64_t *in, unsigned depth,
		       bool clusters, unsigned *node_order, unsigned *nr_order)
{
	static const char *const key[NR_LV] = { "packages", "nodes", "llcs", "clusters", "cores" };
	char ind[64];

	if (lv == LV_CLS && !clusters) {
		emit_level(s, im, LV_CORE, in, depth, clusters, node_order, nr_order);
		return;
	}
	memset(ind, ' ', sizeof(ind));
	ind[MIN(depth * 2, sizeof(ind) - 1)] = 0;
	g_string_append_printf(s, "%s%s:\n", ind, key[lv]);
	for (unsigned c = ss_cpumask_first(in, im->nr_cpus); c < im->nr_cpus; c = ss_cpumask_next(in, im->nr_cpus, c + 1)) {
		const uint64_t *m = ss_imp_mask(im, lv, c);

		if (ss_cpumask_first(m, im->nr_cpus) != c)
			continue;
		if (lv == LV_CORE) {
			emit_core(s, im, c, ind);
			continue;
		}
		if (lv == LV_NODE)
			node_order[(*nr_order)++] = im->cpu_node[c];
		g_string_append_printf(s, "%s  - cpus: ", ind);
		emit_cpus(s, im, m);
		if (lv == LV_NODE)
			g_string_append_printf(s, "    # node%u\n%s    id: %u", im->node_ids[im->cpu_node[c]], ind,
					       im->node_ids[im->cpu_node[c]]);
		g_string_append_c(s, '\n');
		if (lv == LV_NODE && im->die)
			emit_dies(s, im, m, depth + 2, clusters, node_order, nr_order);
		else
			emit_level(s, im, lv + 1, m, depth + 2, clusters, node_order, nr_order);
	}
}

/* The dies of a node (a loaded machine only): written where the node holds more than one. */
static void emit_dies(GString *s, struct ss_imp *im, const uint64_t *node, unsigned depth, bool clusters,
		      unsigned *node_order, unsigned *nr_order)
{
	unsigned first = ss_cpumask_first(node, im->nr_cpus);
	char ind[64];

	if (ss_cpumask_equal(im->die + (size_t)first * im->nw, node, im->nw)) {
		emit_level(s, im, LV_LLC, node, depth, clusters, node_order, nr_order);
		return;
	}
	memset(ind, ' ', sizeof(ind));
	ind[MIN(depth * 2, sizeof(ind) - 1)] = 0;
	g_string_append_printf(s, "%sdies:\n", ind);
	for (unsigned c = first; c < im->nr_cpus; c = ss_cpumask_next(node, im->nr_cpus, c + 1)) {
		const uint64_t *m = im->die + (size_t)c * im->nw;

		if (ss_cpumask_first(m, im->nr_cpus) != c)
			continue;
		g_string_append_printf(s, "%s  - cpus: ", ind);
		emit_cpus(s, im, m);
		g_string_append_c(s, '\n');
		emit_level(s, im, LV_LLC, m, depth + 2, clusters, node_order, nr_order);
	}
}

static char *sanitize(const char *s)
{
	char *r = g_strdup(s);

	for (char *p = r; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return r;
}

char *ss_imp_emit_yaml(struct ss_imp *im, const char *name, const char *llc_note)
{
	GString *s = g_string_new(NULL);
	unsigned *order = g_new(unsigned, im->nr_nodes), nr_order = 0;
	bool clusters = false, asym = false;
	unsigned counts[NR_LV] = { 0 };
	char *origin = sanitize(im->origin);

	for (unsigned c = 0; c < im->nr_cpus; c++) {
		if (!ss_cpumask_equal(ss_imp_mask(im, LV_CLS, c), ss_imp_mask(im, LV_CORE, c), im->nw))
			clusters = true;
		for (unsigned lv = 0; lv < NR_LV; lv++)
			if (ss_cpumask_first(ss_imp_mask(im, lv, c), im->nr_cpus) == c)
				counts[lv]++;
	}
	/* body first (it fixes the node order), header after */
	GString *body = g_string_new(NULL);
	uint64_t *all = g_new0(uint64_t, im->nw);
	for (unsigned c = 0; c < im->nr_cpus; c++)
		ss_cpumask_set(all, c);
	emit_level(body, im, LV_PKG, all, 0, clusters, order, &nr_order);
	g_free(all);

	if (im->header) {
		g_string_append(s, im->header);
	} else {
		g_string_append_printf(s, "# Imported by %s.\n", origin);
		if (im->offline) {
			unsigned len = 6 * SS_MAX_CPUS;
			char *buf = g_malloc(len);

			g_string_append_printf(s, "# %u CPUs (%u online, offline %s), ", im->nr_ids, im->nr_cpus,
					       ss_cpumask_format_list(im->offline, im->nr_ids, buf, len));
			g_free(buf);
		} else {
			g_string_append_printf(s, "# %u CPUs, ", im->nr_cpus);
		}
		g_string_append_printf(s, "%u packages, %u nodes, %u LLCs%s%s, %u clusters, %u cores; "
				       "vendor from %s.\n", counts[LV_PKG], counts[LV_NODE], counts[LV_LLC],
				       llc_note ? " " : "", llc_note ? llc_note : "", counts[LV_CLS],
				       counts[LV_CORE], im->vendor_src);
		g_string_append(s, "# No frequency and no costs: add them by hand (docs/topologies.md).\n");
	}
	if (nr_order < im->nr_nodes)
		ss_imp_warn(im, "%s: %u node(s) without online CPUs left out (the topology format has no memory-only nodes)",
		     im->node_dir, im->nr_nodes - nr_order);
	g_string_append(s, "name: \"");
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_printf(s, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)   /* a loaded machine's name may hold any character */
			g_string_append_printf(s, "\\x%02x", *p);
		else
			g_string_append_c(s, (char)*p);
	}
	g_string_append(s, "\"\n");
	g_string_append_printf(s, "vendor: %s\n", im->vendor);
	if (im->offline) {
		unsigned len = 6 * SS_MAX_CPUS;
		char *buf = g_malloc(len);

		g_string_append_printf(s, "offline: \"%s\"             # not online: numbers kept, no place in the machine\n",
				       ss_cpumask_format_list(im->offline, im->nr_ids, buf, len));
		g_free(buf);
	}
	if (im->extra)
		g_string_append(s, im->extra);
	g_string_append(s, "numa:\n  distance:                    # SLIT, rows in the node order below\n");
	/* asymmetric: written as it is (row = from), which the loader and v6.6 sched_init_numa() read so */
	for (unsigned i = 0; i < nr_order && !asym; i++)
		for (unsigned j = i + 1; j < nr_order && !asym; j++) {
			unsigned ij = im->dist[order[i] * im->nr_nodes + order[j]];
			unsigned ji = im->dist[order[j] * im->nr_nodes + order[i]];

			if (ij != ji) {
				asym = true;
				ss_imp_warn(im, "%s: asymmetric NUMA distances (node%u->node%u is %u, node%u->node%u is %u): "
					    "kept as they are; each node's NUMA spans come from its own row, as v6.6 "
					    "sched_init_numa() builds them", im->node_dir, im->node_ids[order[i]],
					    im->node_ids[order[j]], ij, im->node_ids[order[j]], im->node_ids[order[i]], ji);
				g_string_append(s, "    # asymmetric: row = from node, column = to node (node_distance(row, column))\n");
			}
		}
	for (unsigned i = 0; i < nr_order; i++) {
		g_string_append(s, "    - [");
		for (unsigned j = 0; j < nr_order; j++)
			g_string_append_printf(s, "%s%u", j ? ", " : "", im->dist[order[i] * im->nr_nodes + order[j]]);
		g_string_append(s, "]\n");
	}
	g_string_append(s, body->str);
	g_string_free(body, TRUE);
	g_free(order);
	g_free(origin);
	return g_string_free(s, FALSE);
}

bool ss_imp_check_name(const char **name, GError **err)
{
	if (!*name)
		*name = "imported";
	for (const char *p = *name; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
				    "name: contains a control character (expected printable text)");
			return false;
		}
	}
	if (!**name) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "name: empty (expected a machine name)");
		return false;
	}
	return true;
}

void ss_imp_clear(struct ss_imp *im)
{
	for (unsigned lv = 0; lv < NR_LV; lv++)
		g_free(im->lv[lv]);
	g_free(im->capacity);
	g_free(im->node_ids);
	g_free(im->cpu_node);
	g_free(im->dist);
	g_free(im->vendor);
	g_free(im->cpu_dir);
	g_free(im->node_dir);
	g_free(im->origin);
	g_free(im->cpu_id);
	g_free(im->dense_of);
	g_free(im->offline);
	g_free(im->die);
	g_free(im->known);
	memset(im, 0, sizeof(*im));
}

/*
 * Per-CPU masks of one level from the dense ids of a loaded machine, over
 * the writer's CPUs (the online ones, im->cpu_id: their real numbers).
 */
static uint64_t *masks_of_ids(const struct ss_topology *t, const struct ss_imp *im, size_t id_off)
{
	unsigned n = im->nr_cpus, nw = im->nw;
	uint64_t *by_id = g_new0(uint64_t, (size_t)n * nw);   /* ids of online CPUs are < their number */
	uint64_t *per_cpu = g_new0(uint64_t, (size_t)n * nw);

	for (unsigned c = 0; c < n; c++) {
		unsigned id = *(const unsigned *)(const void *)((const char *)&t->cpu[ss_imp_id(im, c)] + id_off);
		ss_cpumask_set(by_id + (size_t)id * nw, c);
	}
	for (unsigned c = 0; c < n; c++) {
		unsigned id = *(const unsigned *)(const void *)((const char *)&t->cpu[ss_imp_id(im, c)] + id_off);
		memcpy(per_cpu + (size_t)c * nw, by_id + (size_t)id * nw, nw * sizeof(uint64_t));
	}
	g_free(by_id);
	return per_cpu;
}

char *ss_imp_emit_topology(const struct ss_topology *t, const char *header, const char *extra)
{
	static const size_t off[NR_LV] = {
		[LV_PKG] = offsetof(struct ss_cpu_topo, package), [LV_NODE] = offsetof(struct ss_cpu_topo, node),
		[LV_LLC] = offsetof(struct ss_cpu_topo, llc), [LV_CLS] = offsetof(struct ss_cpu_topo, cluster),
		[LV_CORE] = offsetof(struct ss_cpu_topo, core),
	};
	struct ss_imp im = { 0 };
	char *yaml;

	if (t->nr_active < t->nr_cpus) {
		/* offline CPUs: the online ones numbered densely, the others written as 'offline' */
		uint64_t *on = g_new0(uint64_t, ss_cpumask_words(SS_MAX_CPUS));
		uint64_t *all = g_new0(uint64_t, ss_cpumask_words(SS_MAX_CPUS));

		ss_cpumask_copy(on, t->active_mask, t->nr_words);
		for (unsigned c = 0; c < t->nr_cpus; c++)
			ss_cpumask_set(all, c);
		ss_imp_set_online(&im, on, all, "");   /* no warnings list: silent */
		g_free(on);
		g_free(all);
	} else {
		im.nr_cpus = t->nr_cpus;
		im.nw = t->nr_words;
	}
	for (unsigned lv = 0; lv < NR_LV; lv++)
		im.lv[lv] = masks_of_ids(t, &im, off[lv]);
	im.die = masks_of_ids(t, &im, offsetof(struct ss_cpu_topo, die));
	im.capacity = g_new(unsigned, im.nr_cpus);
	im.cpu_node = g_new(unsigned, im.nr_cpus);
	for (unsigned c = 0; c < im.nr_cpus; c++) {
		im.capacity[c] = t->cpu[ss_imp_id(&im, c)].capacity;
		im.cpu_node[c] = t->cpu[ss_imp_id(&im, c)].node;
	}
	im.nr_nodes = t->nr_nodes;
	im.node_ids = g_new(unsigned, t->nr_nodes);
	for (unsigned n = 0; n < t->nr_nodes; n++)
		im.node_ids[n] = ss_node_id(t, n);
	im.dist = g_memdup2(t->distance, (gsize)t->nr_nodes * t->nr_nodes * sizeof(unsigned));
	im.have_dist = true;
	im.vendor = g_strdup(t->vendor);
	im.vendor_src = "the machine";
	im.origin = g_strdup("simsched topo --format yaml");   /* unused: header replaces it */
	im.header = header;
	im.extra = extra;
	yaml = ss_imp_emit_yaml(&im, t->name ? t->name : "unnamed", NULL);
	ss_imp_clear(&im);
	return yaml;
}

char *ss_topology_import_sysfs(const char *root, const char *name, GPtrArray *warnings, GError **err)
{
	struct ss_imp im = { 0 };
	char *out = NULL;

	g_return_val_if_fail(err == NULL || *err == NULL, NULL);
	im.root = root && *root ? root : "/";
	im.warnings = warnings;
	if (!ss_imp_check_name(&name, err))
		return NULL;
	im.cpu_dir = g_build_filename(im.root, "sys", "devices", "system", "cpu", NULL);
	im.node_dir = g_build_filename(im.root, "sys", "devices", "system", "node", NULL);
	if (!g_file_test(im.cpu_dir, G_FILE_TEST_IS_DIR)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: not a directory (expected a sysfs tree under %s)",
			    im.cpu_dir, im.root);
		goto out;
	}
	if (read_online(&im, err) < 0)
		goto out;
	for (unsigned lv = 0; lv < NR_LV; lv++)
		im.lv[lv] = g_new0(uint64_t, (size_t)im.nr_cpus * im.nw);
	im.capacity = g_new(unsigned, im.nr_cpus);
	if (read_vendor(&im, err) < 0)
		goto out;
	if (read_cpu_topology(&im, err) < 0)
		goto out;
	if (read_nodes(&im, err) < 0)
		goto out;
	ss_imp_join_packages(&im);
	if (ss_imp_restrict(&im, LV_NODE, LV_PKG)) /* cannot happen after join_packages */
		ss_imp_warn(&im, "%s: node split at package boundaries", im.node_dir);

	/* SMT siblings must lie within one node */
	for (unsigned c = 0; c < im.nr_cpus; c++) {
		if (!ss_cpumask_subset(ss_imp_mask(&im, LV_CORE, c), ss_imp_mask(&im, LV_NODE, c), im.nw)) {
			char *p = cpu_path(&im, c, "topology/thread_siblings_list");
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: SMT siblings in different NUMA nodes (expected a core's threads in one node)", p);
			g_free(p);
			goto out;
		}
	}

	int llc = read_caches(&im, err);
	if (llc < 0)
		goto out;
	if (llc == 0) {
		if (ss_imp_is_x86(im.vendor)) {
			/*
			 * x86 (v6.6 arch/x86/kernel/smpboot.c): cpu_coregroup_mask() is
			 * cpu_llc_shared_mask(), which without an LLC id holds the CPU
			 * alone; build_sched_domain() then widens MC to its SMT child
			 * ("arch topology borken"), so the LLC is the core.
			 */
			ss_imp_warn(&im, "%s/cpu*/cache: no cache information; each core is its own LLC "
			     "(x86 cpu_llc_shared_mask() without an LLC id, widened to the SMT siblings)", im.cpu_dir);
			for (unsigned c = 0; c < im.nr_cpus; c++)
				ss_cpumask_copy(ss_imp_mask(&im, LV_LLC, c), ss_imp_mask(&im, LV_CORE, c), im.nw);
		} else {
			/*
			 * arm64/riscv (v6.6 drivers/base/arch_topology.c): cpu_coregroup_mask()
			 * is the package (core_sibling) within the node when no LLC is known.
			 */
			ss_imp_warn(&im, "%s/cpu*/cache: no cache information; the LLC is the package within the node "
			     "(arch_topology cpu_coregroup_mask() without llc_sibling)", im.cpu_dir);
			for (unsigned c = 0; c < im.nr_cpus; c++)
				ss_cpumask_and(ss_imp_mask(&im, LV_LLC, c), ss_imp_mask(&im, LV_PKG, c),
					       ss_imp_mask(&im, LV_NODE, c), im.nw);
		}
	}
	if (ss_imp_restrict(&im, LV_LLC, LV_NODE))
		ss_imp_warn(&im, "%s/cpu*/cache: an LLC spans several NUMA nodes (or packages); split at node boundaries, "
		     "as x86 match_llc() does for Sub-NUMA Clustering", im.cpu_dir);
	for (unsigned c = 0; c < im.nr_cpus; c++) {
		if (!ss_cpumask_subset(ss_imp_mask(&im, LV_CORE, c), ss_imp_mask(&im, LV_LLC, c), im.nw)) {
			char *p = cpu_path(&im, c, "topology/thread_siblings_list");
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: SMT siblings do not share the LLC (expected a core's threads within one cache/index*/shared_cpu_list)", p);
			g_free(p);
			goto out;
		}
	}
	if (ss_imp_restrict(&im, LV_CLS, LV_LLC))
		ss_imp_warn(&im, "%s/cpu*/topology/cluster_cpus_list: a cluster is larger than its LLC; cut to the LLC",
		     im.cpu_dir);
	for (unsigned c = 0; c < im.nr_cpus; c++) {
		if (!ss_cpumask_subset(ss_imp_mask(&im, LV_CORE, c), ss_imp_mask(&im, LV_CLS, c), im.nw)) {
			ss_imp_warn(&im, "%s/cpu*/topology/cluster_cpus_list: cpu%u's cluster does not hold its SMT siblings; "
			     "cluster information ignored (one cluster per core)", im.cpu_dir, ss_imp_id(&im, c));
			for (unsigned d = 0; d < im.nr_cpus; d++)
				ss_cpumask_copy(ss_imp_mask(&im, LV_CLS, d), ss_imp_mask(&im, LV_CORE, d), im.nw);
			break;
		}
	}
	im.origin = g_strdup_printf("`simsched topo import --sysfs` from %s (sys/devices/system/cpu, "
				    "sys/devices/system/node)", im.root);
	out = ss_imp_emit_yaml(&im, name, llc > 0 ? NULL : "(no cache information: kernel fallback)");
out:
	ss_imp_clear(&im);
	return out;
}
