/*
 * simsched/provenance.h — what a result was made from, recorded in it: the
 * files (as named and the SHA-256 of their bytes), the command line, every
 * parameter as given and as resolved (docs/output.md, "provenance"); and
 * reading that back to run the same again (simsched run --rerun).
 *
 * A run's JSON and a sweep record carry a "provenance" object, the last key
 * of the result. Everything in it is a function of the inputs, so the same
 * inputs give the same bytes; a rerun reproduces the original byte for byte.
 */
#ifndef SIMSCHED_PROVENANCE_H
#define SIMSCHED_PROVENANCE_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "simsched/params.h"

#include "simsched/sim.h"

/**
 * The SHA-256 of the bytes of the file at path (GLib's GChecksum), as 64
 * lowercase hex digits; g_free. NULL + *err (SS_ERROR_IO, "path: cannot
 * read (...)") if it cannot be read or is not a regular file.
 */
char *ss_file_sha256(const char *path, GError **err);

/**
 * argv[0..argc-1] joined with spaces, each argument quoted for a POSIX
 * shell where it needs it: left bare if it consists of A-Z a-z 0-9 and
 * _ @ % + = : , . / -, else in single quotes (a ' inside as '\''); an empty
 * argument as ''. Bytes that are not UTF-8 are replaced by U+FFFD (a JSON
 * string holds text). g_free.
 */
char *ss_shell_join(int argc, const char *const *argv);

/**
 * The file a loaded policy plugin came from (the path as given to
 * ss_policy_plugin_load()), or NULL for a built-in policy or an unknown
 * name. The string lives as long as the program.
 */
const char *ss_policy_plugin_file(const char *policy);

/**
 * What a result was made from, beyond struct ss_run_config (which gives the
 * resolved parameters, the seed, load, times, --nodes and --sched-features
 * as given). Strings are borrowed.
 */
struct ss_provenance {
	const char *command;                  /* a run: its command line (ss_shell_join()); NULL in sweep records */
	const char *spec_file, *spec_sha256;  /* a sweep record: --spec as given and its SHA-256; NULL for a run */
	const char *topology_file, *topology_sha256; /* the path the machine was loaded from; its SHA-256 */
	const char *workload_file, *workload_sha256;
	const char *plugin_file, *plugin_sha256;     /* the policy's plugin (ss_policy_plugin_file()); NULL: built in */
	const char *const *sets;              /* --set SECTION.KEY=VALUE as given, in the order applied */
	unsigned nr_sets;
};

/**
 * The JSON of ss_results_to_json() with one more top-level key, last:
 * "provenance" (docs/output.md). cfg is the configuration the results came
 * from (its topology must be loaded; cfg->nodes must be a valid node list of
 * it, as it was for the run). g_free.
 */
char *ss_results_to_json_provenance(const struct ss_results *r, const struct ss_run_config *cfg,
				    const struct ss_provenance *p);

/** A result to run again: what ss_rerun_load() read from a run's JSON or a sweep record. */
struct ss_rerun {
	char *where;                 /* "FILE" (a run's JSON) or "FILE:LINE" (a sweep record), for messages */
	bool is_record;              /* a sweep record (simsched sweep), not a run's JSON (simsched run) */
	char *line;                  /* a sweep record: its line as read, without '\n' */
	char *version;               /* simsched_version of the writer */
	char *command;               /* a run: the recorded command line */
	char *topology_file, *topology_sha256, *workload_file, *workload_sha256;
	char *policy, *plugin_file, *plugin_sha256;  /* plugin: NULL for a built-in policy */
	char **sets;                 /* NULL-terminated, as given, in the order applied */
	char *nodes, *sched_features;/* as given; NULL: not given */
	unsigned kernel;             /* enum ss_kernel: provenance.kernel_model (--kernel) */
	unsigned load_pct_x100;
	uint64_t seed, warmup_ns, duration_ns, sample_ns;
	bool warmup_auto;            /* --warmup auto (warmup_ns its cap) */
	double precision;            /* --precision, 0 = none (duration_ns its cap otherwise) */
	uint64_t batch_ns;           /* --batch, 0 = the default */
	/* provenance.params: every model parameter in force for the result
	 * ("SECTION.KEY" and its value); NULL when the result has none */
	char **param_keys;           /* NULL-terminated */
	double *param_values;
};

/**
 * Read the provenance of the result in path: a run's JSON (simsched run
 * --json), or a sweep result file (JSON lines) and its record on line
 * `record` (1-based; 0 = the file's only record). Errors (SS_ERROR_IO for
 * an unreadable file, SS_ERROR_USAGE for a record number the file does not
 * have, SS_ERROR_INVALID otherwise): "FILE[:LINE]: what is wrong (what was
 * expected)", e.g. a result without "provenance" (written before simsched
 * recorded it). Free with ss_rerun_free().
 */
struct ss_rerun *ss_rerun_load(const char *path, unsigned record, GError **err);
void ss_rerun_free(struct ss_rerun *rr);

/**
 * Check that p (defaults for the recorded topology, then the recorded --set
 * values, under policy) holds the parameters the result was made with: each
 * parameter of this simsched is in the result's provenance.params with the
 * same value. A parameter missing there was added since the result was
 * written (a model the result did not run, e.g. cost.background); a value
 * that differs is a changed default. false + *err (SS_ERROR_INVALID)
 * naming the first such parameter: the rerun would not give the result's
 * figures. true when the result records no parameters (nothing to check).
 */
bool ss_rerun_check_params(const struct ss_rerun *rr, const struct ss_params *p, const char *policy, GError **err);

/**
 * Check that the recorded files (topology, workload, plugin) exist and hold
 * the bytes they held: their SHA-256 is the recorded one. false + *err
 * (SS_ERROR_INVALID) naming the first file that is missing or changed.
 */
bool ss_rerun_check_files(const struct ss_rerun *rr, GError **err);

#endif
