/*
 * simsched/data.h — the machines and workloads shipped with simsched, found
 * by name.
 *
 * An installed simsched keeps them in PREFIX/share/simsched/topologies/ and
 * PREFIX/share/simsched/workloads/; ss_topology_load() and
 * ss_workload_load() accept their names (`kunpeng920`, `netperf-tcp-rr`)
 * wherever they accept a path, so `simsched run --topology kunpeng920` works
 * from any directory. docs/library.md describes the search.
 */
#ifndef SIMSCHED_DATA_H
#define SIMSCHED_DATA_H

#ifdef __cplusplus
extern "C" {
#endif

/** The environment variable that replaces the shipped data directory. */
#define SS_DATADIR_ENV "SIMSCHED_DATADIR"

/**
 * The data directory: $SIMSCHED_DATADIR when set and not empty; else
 * share/simsched of the installation the running program or libsimsched.so
 * belongs to (found from their own file names, so an installation can be
 * moved); else, for a program of the build tree, the source tree (its
 * topologies/ and workloads/). NULL when there is none. g_free.
 */
char *ss_data_dir(void);

/**
 * The file `name` stands for, as a topology (kind "topologies") or a
 * workload (kind "workloads"): name itself when a file of that name exists
 * or when it is absolute or starts with "./" or "../"; else DIR/kind/name,
 * then DIR/kind/name.yaml in ss_data_dir()'s DIR (`kunpeng920`,
 * `rt-app/x.json`). NULL when name is none of these (the caller reports
 * name as the missing file). g_free.
 */
char *ss_data_find(const char *kind, const char *name);

#ifdef __cplusplus
}
#endif

#endif
