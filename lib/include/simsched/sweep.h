/*
 * simsched/sweep.h — grids of runs (topologies × workloads × --set values ×
 * policies × loads × seeds) written as JSON lines, sharded and resumable,
 * and the report that merges such files into compare's tables
 * (docs/sweeps.md).
 *
 * A result file is append-only: one line per finished point, each line one
 * JSON object ending in '\n', written by a single writer thread and made
 * durable (fsync) before the next. An interrupted sweep therefore loses at
 * most the points in flight and at most one torn last line, which --resume
 * drops. Records hold no wall-clock time: a point gives the same line
 * whichever machine, shard or thread ran it.
 */
#ifndef SIMSCHED_SWEEP_H
#define SIMSCHED_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "simsched/compare.h"

/** A parsed sweep spec with its machines and workloads loaded. Opaque. */
struct ss_sweep_spec;

/**
 * Load a sweep spec (YAML; format in docs/sweeps.md). Relative topology and
 * workload paths are resolved against the spec file's directory, and the
 * files are loaded; every --set value is checked against every policy of the
 * spec. NULL + *err on failure: "file:line:col: what is wrong" for the spec
 * (SS_ERROR_PARSE / SS_ERROR_INVALID; an error inside a named topology or
 * workload file is prefixed by the spec position that names it),
 * SS_ERROR_IO when a file cannot be read. Free with ss_sweep_spec_free.
 */
struct ss_sweep_spec *ss_sweep_spec_load(const char *path, GError **err);
void ss_sweep_spec_free(struct ss_sweep_spec *s);

/** Points in the grid (the product of the dimensions' lengths, ≤ 10^7). */
uint64_t ss_sweep_nr_points(const struct ss_sweep_spec *s);

/**
 * The canonical key of point idx (< ss_sweep_nr_points): every coordinate
 * that determines the run (files as written in the spec, policy, load,
 * seed, --set values sorted by key, duration, warmup, sched features,
 * nodes). Equal keys mean the same run. g_free.
 */
char *ss_sweep_point_key(const struct ss_sweep_spec *s, uint64_t idx);

struct ss_run_config;
struct ss_results;
struct ss_provenance;
/**
 * Rerun of a record (simsched run --rerun FILE --record LINE): the record
 * `line` (as read, without '\n') with the figures of r, which the caller
 * ran with cfg as the record's provenance says (ss_rerun_load()). Its
 * coordinates (key, files as written in the spec, set values, grid
 * indices) and provenance.spec come from `line`; names, figures and the
 * rest of the provenance from cfg, r and p (p->command and p->spec_* are
 * ignored). For unchanged files and the same simsched this is `line` again,
 * byte for byte, with its '\n'. g_free; NULL + *err (SS_ERROR_INVALID) if
 * line is not a record with its coordinates.
 */
char *ss_sweep_record_rerun(const char *line, const struct ss_run_config *cfg, const struct ss_results *r,
			    const struct ss_provenance *p, GError **err);

/** A shard: points with index % n == k - 1; k = n = 1 (or 0) is the whole grid. */
bool ss_sweep_parse_shard(const char *text, unsigned *k, unsigned *n, GError **err);

struct ss_sweep_opts {
	const char *out_path;   /* the JSON-lines result file */
	unsigned jobs;          /* worker threads (GThreadPool); 0 = number of cores */
	unsigned shard_k, shard_n;   /* 1 ≤ k ≤ n; n = 0 means 1/1 */
	/*
	 * false: out_path must not exist (SS_ERROR_USAGE otherwise).
	 * true: out_path may exist; a last line without '\n' is cut off
	 * (ftruncate), every complete line must be a record (else
	 * "file:line: ..." SS_ERROR_INVALID and nothing is changed), and points
	 * whose key is already there are skipped.
	 */
	bool resume;
	/* optional, called by the writer thread after each record is durable */
	void (*progress)(void *ctx, unsigned done, unsigned total);
	void *progress_ctx;
};

struct ss_sweep_stats {
	uint64_t grid;          /* points in the grid */
	uint64_t shard;         /* of those, in this shard */
	uint64_t done_before;   /* of those, found in the file (--resume) */
	uint64_t ran;           /* records written by this call */
	uint64_t foreign;       /* records in the file that are not points of this shard */
	uint64_t torn_bytes;    /* bytes of a torn last line that --resume cut off */
	bool failed;            /* a run failed: the sweep stopped (false on success) */
	uint64_t failed_point;  /* if failed: the lowest failed point index (canonical order) */
	bool out_removed;       /* the sweep created out_path, failed and wrote nothing: the file was removed */
	uint64_t deadlocked;    /* runs of this call that deadlocked (their records have deadlock_at_ns) */
};

/**
 * Run the shard's unfinished points on a thread pool; one writer thread
 * appends each finished record to out_path (write, fsync). The file is
 * locked (flock) against a second sweep writing it. On a failed run the
 * sweep stops taking new points, writes those in flight and returns false
 * with the failure of the lowest point index ("point N (coordinates)
 * failed: why"); records already written stay valid, so --resume continues
 * after the cause is fixed. A failed sweep that created out_path and wrote no
 * record removes it (st->out_removed): no empty result file is left; a file
 * that existed before (--resume) is never removed. *st is filled in both
 * cases (may be NULL).
 */
bool ss_sweep_run(const struct ss_sweep_spec *s, const struct ss_sweep_opts *o, struct ss_sweep_stats *st,
		  GError **err);

/** Records of one or more result files, merged by key. Opaque. */
struct ss_report;

/**
 * Read result files and merge their records as a set: records with the same
 * key and the same figures are one record; the same key with different
 * figures is an error naming both places ("file:line"). A last line without
 * '\n' (a sweep still writing, or killed) is skipped with a warning appended
 * to warnings (g_free'd strings; may be NULL), and so is each record of a
 * run that deadlocked (deadlock_at_ns); any other line that is not a
 * record is an error "file:line: ...". NULL + *err.
 */
struct ss_report *ss_report_load(const char *const *files, unsigned nr_files, GPtrArray *warnings, GError **err);
void ss_report_free(struct ss_report *r);
/** Distinct records merged. */
unsigned ss_report_nr_records(const struct ss_report *r);

/**
 * Compare's tables of the merged records, one per group of equal topology,
 * workload, --set values, duration, warmup, sched features and nodes (groups
 * in spec order): rows are loads, columns policies in spec order (or those of
 * `policies`, NULL-terminated, when given; the first is the baseline), cells
 * over the group's seeds. format: text, markdown, csv or json. Every (load,
 * policy) cell of a group must have the same seeds (else SS_ERROR_INVALID
 * naming the missing point). g_free; NULL + *err.
 */
char *ss_report_render(const struct ss_report *r, enum ss_cmp_metric metric, const char *const *policies,
		       const char *format, GError **err);

#endif
