/* cli/cli.h — the commands of the simsched tool that live outside main.c. */
#ifndef SIMSCHED_CLI_H
#define SIMSCHED_CLI_H

#include <stdbool.h>

#include <glib.h>

/*
 * cli/common.c. ss_cli_check_stdout_at_exit(): at exit, a failed write to
 * stdout (flush, error flag or close) prints "simsched: cannot write to
 * standard output: REASON" and exits 1 (or the status main set with
 * ss_cli_set_exit_status(), if non-zero).
 */
void ss_cli_check_stdout_at_exit(void);
void ss_cli_set_exit_status(int rc);
/** fputs(s, stdout) and fflush, keeping a failure's errno for the check at exit. */
void ss_cli_print(const char *s);

/**
 * Add entries to ctx and parse argv like g_option_context_parse(); a value
 * that does not convert from the locale's character set gets an error naming
 * its option (GOption's own names none). false + *err on failure.
 */
bool ss_cli_parse(GOptionContext *ctx, const GOptionEntry *entries, int *argc, char ***argv, GError **err);

/**
 * Check a result path before any work: not empty, not a directory, in an
 * existing directory where files can be created, not one of the inputs
 * (NULL entries skipped). Prints "simsched: OPT PATH: ..." and returns false.
 */
bool ss_cli_check_out(const char *opt, const char *path, const char *const *inputs, unsigned nr_inputs);
/*
 * The input files of a command for ss_cli_check_out(): a and b (either may
 * be NULL) and every --policy-plugin file, NULL-terminated; *n gets the
 * count. g_free the array (the strings are borrowed).
 */
const char **ss_cli_inputs(const char *a, const char *b, char **plugins, unsigned *n);

/**
 * The command line as the user typed it (argv shell-quoted and joined,
 * ss_shell_join()), kept by main() before any option is parsed; results
 * record it (provenance.command). ss_cli_command_line() returns "" until set.
 */
void ss_cli_set_command_line(int argc, char **argv);
const char *ss_cli_command_line(void);

/** A seed, 0..SS_SEED_MAX (2^53 - 1); prints the error naming opt and returns false. */
bool ss_cli_parse_seed(const char *opt, const char *s, guint64 *seed);

/** simsched pelt (cli/pelt.c): argv[0] is "pelt". Returns the exit status. */
/**
 * *path (g_malloc'd, may be NULL) names a shipped topology/workload (kind
 * "topologies"/"workloads"): replace it with the file's path, so that the
 * results' provenance names the file read (cli/data.c).
 */
void ss_cli_resolve_data(char **path, const char *kind);
int ss_cli_pelt(int argc, char **argv);

struct ss_workload;
/** Print the workload's loader warnings (simsched/rtapp.h) to stderr, one line each. */
void ss_cli_workload_warnings(const struct ss_workload *w);
struct ss_topology;
/** Print the machine's build warnings (ss_topology_warnings()) to stderr, one line each. */
void ss_cli_topology_warnings(const struct ss_topology *t);

/**
 * --policy-plugin FILE.so (repeatable; run, compare, sweep, policies; cli/main.c):
 * load each plugin and register its policy (docs/policies.md). files may be
 * NULL. Returns 0, or the exit status (1) after printing the loader's error.
 * *name is the policy of the only plugin given (NULL with none or several).
 */
int ss_cli_load_plugins(char **files, const char **name);

/** simsched sweep --spec FILE --out FILE [--jobs N] [--shard K/N] [--resume] [--policy-plugin FILE.so]... (cli/sweep.c). */
int ss_cli_sweep(int argc, char **argv);
/** simsched report FILE... [--metric M] [--format F] [--policies A,B] [--out FILE] (cli/sweep.c). */
int ss_cli_report(int argc, char **argv);

/** simsched validate [S01,S08,...] [--experiments DIR] [--quick] [--jobs N] [--out DIR] [--shard K/N] [--format F] (cli/validate.c). */
int ss_cli_validate(int argc, char **argv);

/* simsched run's trace options (cli/trace.c; docs/output.md "kernel trace"). */
struct ss_cli_trace {
	char *path, *window, *cpus;   /* --trace, --trace-window, --trace-cpus */
	int ns;                       /* --trace-ns (gboolean) */
};
/**
 * Check the trace options before any work: the window's syntax, the path as
 * a result file (not an input, not the --json file). Prints the error and
 * returns 2, or 0.
 */
int ss_cli_trace_check(const struct ss_cli_trace *o, const char *json_path, const char *const *inputs,
		       unsigned nr_inputs);
struct ss_topology;
struct ss_ftrace;
/** Open the trace for a run on t (NULL without --trace: *rc 0); on error print it, *rc = exit status, NULL. */
struct ss_ftrace *ss_cli_trace_open(const struct ss_cli_trace *o, const struct ss_topology *t, int *rc);

#endif
