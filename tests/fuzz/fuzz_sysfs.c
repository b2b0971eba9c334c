/*
 * Fuzz target: the sysfs attribute parsers. A fixed small tree (8 CPUs in
 * two clusters, one LLC, one node, cpu/online, the cpuN topology, cache and
 * capacity files, the node's cpulist and distance) is written once; the
 * input's first byte picks one of its files and the rest becomes that
 * file's contents; then ss_topology_import_sysfs() reads the tree and the
 * YAML it writes is loaded back. The file is put back after each input.
 */
#include "fuzz.h"
#include "simsched/topology.h"

#include <glib/gstdio.h>
#include <string.h>

static char *root;
static GPtrArray *files, *texts;   /* paths, their original text */

static void put(const char *rel, const char *text)
{
	char *p = g_build_filename(root, rel, NULL), *d = g_path_get_dirname(p);
	g_mkdir_with_parents(d, 0755);
	g_file_set_contents(p, text, -1, NULL);
	g_ptr_array_add(files, p);
	g_ptr_array_add(texts, g_strdup(text));
	g_free(d);
}

static void make_tree(void)
{
	char rel[160], txt[64];

	root = g_dir_make_tmp("simsched-fuzz-sysfs-XXXXXX", NULL);
	files = g_ptr_array_new();
	texts = g_ptr_array_new();
	put("proc/cpuinfo", "processor\t: 0\nCPU implementer\t: 0x48\n");
	put("sys/devices/system/cpu/online", "0-7\n");
	put("sys/devices/system/cpu/possible", "0-7\n");
	for (unsigned c = 0; c < 8; c++) {
		static const char *const f[][2] = {
			{ "topology/physical_package_id", "0\n" }, { "topology/cluster_id", NULL },
			{ "topology/core_id", NULL }, { "topology/thread_siblings_list", NULL },
			{ "topology/cluster_cpus_list", NULL }, { "topology/core_siblings_list", "0-7\n" },
			{ "cache/index2/level", "3\n" }, { "cache/index2/type", "Unified\n" },
			{ "cache/index2/shared_cpu_list", "0-7\n" }, { "cpu_capacity", "1024\n" },
		};
		for (unsigned i = 0; i < G_N_ELEMENTS(f); i++) {
			const char *v = f[i][1];
			if (i == 1)
				g_snprintf(txt, sizeof txt, "%u\n", c / 4), v = txt;
			else if (i == 2 || i == 3)
				g_snprintf(txt, sizeof txt, "%u\n", c), v = txt;
			else if (i == 4)
				v = c < 4 ? "0-3\n" : "4-7\n";
			g_snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%u/%s", c, f[i][0]);
			/* CPUs 4-7 have the old kernels' cache mask instead of the list (topology_import.c mask_twin()) */
			if (c >= 4 && i == 8)
				g_snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%u/cache/index2/shared_cpu_map", c),
					v = "000000ff\n";
			put(rel, v);
		}
	}
	put("sys/devices/system/node/node0/cpumap", "00000000,000000ff\n");   /* a mask, as before node cpulist */
	put("sys/devices/system/node/node0/distance", "10\n");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GError *err = NULL;
	GPtrArray *warnings;
	unsigned k;
	char *yaml;

	if (!size || size > FUZZ_MAX_INPUT)
		return 0;
	if (!root)
		make_tree();
	k = data[0] % files->len;
	g_file_set_contents(g_ptr_array_index(files, k), (const char *)data + 1, (gssize)size - 1, NULL);
	warnings = g_ptr_array_new_with_free_func(g_free);
	yaml = ss_topology_import_sysfs(root, "fuzz", warnings, &err);
	g_clear_error(&err);
	if (yaml) {
		struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "imported.yaml", &err);
		g_clear_error(&err);
		ss_topology_free(t);
	}
	g_free(yaml);
	g_ptr_array_free(warnings, TRUE);
	g_file_set_contents(g_ptr_array_index(files, k), g_ptr_array_index(texts, k), -1, NULL);
	return 0;
}
