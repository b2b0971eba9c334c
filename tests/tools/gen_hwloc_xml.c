/*
 * gen_hwloc_xml — write a small hwloc XML export for the CLI tests
 * (tests/cli/topo_hwloc.sh), so that `simsched topo import --hwloc` is tried
 * on a real file without lstopo or a downloaded one. libhwloc builds the
 * machine from a synthetic description (hwloc_topology_set_synthetic), adds
 * the vendor and a FROM_OS latency matrix (hwloc_distances_add_create, as
 * the Linux backend adds the SLIT) and exports it as v2 XML, or as v1 XML
 * (hwloc 1.x format) with --v1.
 *
 *   gen_hwloc_xml [--v1] [--asym] OUT.xml
 *
 * Default machine: 2 sockets, one NUMA node each, 3 L3 groups per socket,
 * 2 cores per L3, 2 threads per core (24 CPUs), GenuineIntel, SLIT 10/21.
 * --asym: 2 sockets x 2 L3 groups, one NUMA node per L3 group, 2 cores x 2
 * threads (16 CPUs) and the asymmetric matrix of docs/topologies.md
 * ("Odd machines"): rows 10 20 20 20 / 20 10 20 30 / 30 20 10 20 / 30 30 20 10.
 * Exit status 0, or 1 with a message on stderr; usage errors 2.
 */
#include <hwloc.h>
#include <stdio.h>
#include <string.h>

static const hwloc_uint64_t asym4[16] = {
	10, 20, 20, 20,
	20, 10, 20, 30,
	30, 20, 10, 20,
	30, 30, 20, 10,
};

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "gen_hwloc_xml: %s%s%s\n", what, path ? ": " : "", path ? path : "");
	return 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: gen_hwloc_xml [--v1] [--asym] OUT.xml\n");
	return 2;
}

int main(int argc, char **argv)
{
	int v1 = 0, asym = 0, rc = 1;
	const char *out = NULL;
	hwloc_topology_t t;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--v1"))
			v1 = 1;
		else if (!strcmp(argv[i], "--asym"))
			asym = 1;
		else if (argv[i][0] != '-' && !out)
			out = argv[i];
		else
			return usage();
	}
	if (!out)
		return usage();
	if (hwloc_topology_init(&t) < 0)
		return fail("hwloc_topology_init failed", NULL);
	if (hwloc_topology_set_synthetic(t, asym ? "pack:2 l3:2 group:1 [numa] core:2 pu:2"
						 : "pack:2 [numa] l3:3 core:2 pu:2") < 0 ||
	    hwloc_topology_load(t) < 0) {
		fail("cannot build the synthetic topology", NULL);
		goto out;
	}
	hwloc_obj_add_info(hwloc_get_root_obj(t), "Architecture", "x86_64");
	for (hwloc_obj_t p = NULL; (p = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_PACKAGE, p));)
		hwloc_obj_add_info(p, "CPUVendor", "GenuineIntel");
	{
		unsigned nn = (unsigned)hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
		hwloc_obj_t objs[4];
		hwloc_uint64_t v[16];
		hwloc_distances_add_handle_t h;

		if (nn > 4) {
			fail("more than 4 NUMA nodes", NULL);
			goto out;
		}
		for (unsigned i = 0; i < nn; i++) {
			objs[i] = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, i);
			for (unsigned j = 0; j < nn; j++)
				v[i * nn + j] = asym ? asym4[i * 4 + j] : i == j ? 10 : 21;
		}
		h = hwloc_distances_add_create(t, "NUMALatency",
					       HWLOC_DISTANCES_KIND_FROM_OS | HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0);
		if (!h || hwloc_distances_add_values(t, h, nn, objs, v, 0) < 0 ||
		    hwloc_distances_add_commit(t, h, 0) < 0) {
			fail("cannot add the distance matrix", NULL);
			goto out;
		}
	}
	if (hwloc_topology_export_xml(t, out, v1 ? HWLOC_TOPOLOGY_EXPORT_XML_FLAG_V1 : 0) < 0) {
		fail("cannot write", out);
		goto out;
	}
	rc = 0;
out:
	hwloc_topology_destroy(t);
	return rc;
}
