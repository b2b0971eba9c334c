/*
 * simsched/experiment.h — the seed threads' experiments as data
 * (experiments/S*.yaml, format in docs/experiments.md), their pass rules,
 * and `simsched validate`: the grids run through the sweep machinery, Δ %
 * per load with 95 % intervals, the rules applied, a scorecard.
 *
 * An experiment is loaded once (ss_experiment_load); its simulated figures
 * are a struct ss_xp_data, filled either from sweep records (the runner,
 * ss_validate_run) or by hand (the rule self-test, unit tests); the rules
 * grade a data set (ss_xp_grade).
 */
#ifndef SIMSCHED_EXPERIMENT_H
#define SIMSCHED_EXPERIMENT_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

struct ss_workload;
struct ss_topology;

/** A policy column: a built-in or plugin policy with its own --set values. */
struct ss_xp_policy {
	char *label;            /* unique in the file; the policy name when not given */
	char *policy;
	char **set;             /* "SECTION.KEY=VALUE", NULL-terminated (never NULL) */
};

struct ss_xp_series {
	char *name;
	char *workload_file;    /* as written */
	char *workload_path;    /* resolved against the experiment file's directory */
	char *topology_file, *topology_path, *nodes;   /* the series' machine (its own or the experiment's) */
	char **params;          /* workload parameters "NAME=VALUE", NULL-terminated (never NULL) */
	char **set;             /* the series' extra --set values, NULL-terminated (never NULL) */
	char *metric;           /* a compare --metric name; "workload" by default */
	bool latency;           /* the figure is a tail latency (ε 10 %, neutral band 15 %) */
	char *unit;             /* the thread's word: pairs, clients, groups, threads, copies */
	char *unit_param;       /* unit by parameter: the parameter the value sets (NULL: instance unit) */
	unsigned unit_instances;/* unit by parameter: instances of each run */
	unsigned nr_loads;
	double *loads;          /* in `unit`, the thread's order */
	double *real;           /* Δ % per load (positive = better); NAN where the thread gives none */
	bool *unscored;
	char *real_source;
	uint64_t warmup_ns, duration_ns;
	unsigned nr_seeds;
	uint64_t *seeds;
	unsigned line;          /* of the series in the file (1-based), for messages */
};

enum ss_xp_rule_kind {
	SS_XP_DIRECTION, SS_XP_CROSSOVER, SS_XP_RANGE, SS_XP_SIGN, SS_XP_PEAK,
	SS_XP_COUNTER, SS_XP_COUNTER_RATIO, SS_XP_CONTRAST, SS_XP_CHECK,
};

struct ss_xp_rule {
	enum ss_xp_rule_kind kind;
	char grade;             /* 'A' or 'B' */
	char *id;               /* printed when it fails: given, or "KIND#N" */
	char **series;          /* names, NULL-terminated; NULL = every series */
	char *policy;           /* the compared column (label); NULL = the second policy */
	double epsilon;         /* NAN = the metric's default */
	double neutral_max;     /* direction: NAN = 5 % / 15 % latency */
	int misses;             /* direction: -1 = floor(k / 4) */
	double threshold;       /* crossover */
	bool sustain;
	unsigned nr_loads;      /* range, sign, counter, counter_ratio: the loads (0 = all scored) */
	double *loads;
	unsigned nr_at;         /* peak: `at`; crossover: `within` */
	double *at;
	unsigned steps;         /* peak */
	bool by_abs;            /* peak by |Δ| */
	double min, max;        /* NAN = not given */
	bool abs;               /* range: bound |Δ| */
	int at_least;           /* range: -1 = every load */
	bool of_mean;           /* range: of the mean Δ */
	char sign;              /* sign: '+', '-' or '0' */
	char *metric;           /* counter, counter_ratio */
	char *num, *den;        /* counter_ratio: policy labels */
	bool strict;
	char *other;            /* contrast */
	double load, other_load, max_ratio;
	char *check;            /* check: its name */
	unsigned line;          /* of the rule in the file, 1-based */
};

/** Inputs of the named checks (the experiment's `check:` mapping). */
struct ss_xp_check_s06 {
	uint64_t period_ns;
	double freq_ratio;
	unsigned nr_points;
	double *busy_pct, *real;
	double slope_min, slope_max, tol_pct, tol_units;
	unsigned at_least;
};
struct ss_xp_check_s07_fixture {
	unsigned llc, pinned;               /* one LLC of llc CPUs, CPU-bound tasks pinned to CPUs 0..pinned-1 */
	char **policies;                    /* NULL-terminated */
	int **found;                        /* per policy: per target 0..pinned-1, the CPU found (-1: none) */
	unsigned **probes;                  /* per policy: per target, runqueues probed */
	unsigned *nr_idle_scan;             /* per policy: the budget written (sis_util*); UINT_MAX = not checked */
};
struct ss_xp_check_s07 {
	unsigned llc;
	unsigned nr_utils;
	unsigned *util_pct;                 /* average util in % of capacity */
	unsigned *linear, *quadratic;       /* expected nr_idle_scan (quadratic may be NULL) */
	unsigned nr_fixtures;
	struct ss_xp_check_s07_fixture *fixtures;
	unsigned kernel;                    /* enum ss_kernel the fixtures run on: the file's kernel ("newest" = 6.6) */
};

/* s13_probe_identity: S13's Pass A on constructed states (docs/experiments.md) */
struct ss_xp_check_s13 {
	unsigned nr_fixtures;
	unsigned *llc, *pinned;             /* per fixture: LLC size; CPUs 0..pinned-1 each run a pinned hog */
	char *base, *variant;               /* the experiment's first two policies (plain names) */
	unsigned kernel;                    /* enum ss_kernel: the file's kernel ("newest" = 6.6) */
};

struct ss_xp_quick {
	bool present;
	char **series;          /* NULL-terminated; NULL = every series */
	unsigned nr_loads;
	double *loads;          /* loads of those series (real sign 0 at each) */
	unsigned nr_seeds;
	uint64_t warmup_ns, duration_ns;
	double max_abs;         /* |Δ| bound; NAN = the neutral band (5 %, 15 % latency) */
};

struct ss_experiment {
	char *file, *dir;
	char *id, *title, *source, *kernel, *seed_kernel, *notes;
	char grade;
	char *topology_file, *topology_path, *nodes;
	unsigned nr_policies;
	struct ss_xp_policy *policies;
	char **set;             /* NULL-terminated (never NULL) */
	uint64_t warmup_ns, duration_ns;
	unsigned nr_seeds;
	uint64_t *seeds;
	unsigned nr_series;
	struct ss_xp_series *series;
	unsigned nr_rules;
	struct ss_xp_rule *rules;
	struct ss_xp_quick quick;
	/* named-check inputs (NULL when the file has none) */
	struct ss_xp_check_s06 *s06;
	struct ss_xp_check_s07 *s07;
	struct ss_xp_check_s13 *s13;
	double check_max_abs;   /* s13 (2), s17 (3) */
	double check_gate_pct;  /* s13: full-mask-fail rate at which the gate opens (2) */
	char **check_series;    /* s17: control series; s19: the burst series (NULL: all) */
	double check_min_base_pct, check_min_reduction_pct;  /* s19 (5, 30) */
	double check_min_load;  /* s19: loads >= this value are checked */
};

/**
 * Load an experiment file. Relative paths are resolved against the file's
 * directory; machine and workload files are loaded to check them (a
 * workload with the series' parameters). Errors: "file:line:col: what is
 * wrong (what was expected)" (SS_ERROR_INVALID / SS_ERROR_PARSE), SS_ERROR_IO.
 * NULL + *err. Free with ss_experiment_free.
 */
struct ss_experiment *ss_experiment_load(const char *path, GError **err);
void ss_experiment_free(struct ss_experiment *x);

/** The experiment files of dir (*.yaml, sorted by name), g_strfreev; NULL + *err if dir cannot be read. */
char **ss_experiment_files(const char *dir, GError **err);

/**
 * The --load of a series' load value: the smallest load_pct_x100 whose
 * instance count (ss_workload_instantiate()'s rounding) on nr_allowed CPUs
 * equals `instances`. false + *err (SS_ERROR_INVALID) if no load gives it
 * exactly or it is out of 1..10^6 % range.
 */
bool ss_xp_load_for_instances(const struct ss_workload *w, unsigned nr_allowed, uint64_t instances,
			      unsigned *load_pct_x100, GError **err);
/** Instances ss_workload_instantiate() makes at load_pct_x100 on nr_cpus CPUs (>= 1). */
uint64_t ss_xp_instances_at(const struct ss_workload *w, unsigned load_pct_x100, unsigned nr_cpus);
/** CPUs a run may use: the online CPUs of t within nodes (NULL: all). false + *err for a bad list. */
bool ss_xp_nr_allowed(const struct ss_topology *t, const char *nodes, unsigned *nr, GError **err);

/* ------------------------------------------------------------ figures and grades */

enum ss_xp_status { SS_XP_PASS, SS_XP_FAIL, SS_XP_INVALID, SS_XP_SKIP };
const char *ss_xp_status_name(enum ss_xp_status s);   /* "PASS", "FAIL", "INVALID", "SKIP" */

/** Δ of one column against the baseline at one load. */
struct ss_xp_cell {
	bool have;              /* a value (false: missing / invalid, see why) */
	double delta;           /* %, positive = better */
	double lo, hi;          /* 95 % interval (Student t on per-seed paired differences) */
	bool invalid;           /* INVALID point: why says what */
	bool unknown_validity;  /* the records cannot tell whether the window was valid */
	char *why;
};

/** Per-record reader of a counter: the mean over seeds of metric for (series, policy column, load). */
struct ss_xp_data;
typedef double (*ss_xp_counter_fn)(const struct ss_xp_data *d, unsigned series, unsigned policy, unsigned load,
				   const char *metric, char **why);

struct ss_xp_data {
	const struct ss_experiment *x;
	/* cells[s][p * nr_loads + l] for policy columns p = 0..nr_policies-1 (p = 0: the baseline, have = false) */
	struct ss_xp_cell **cells;
	/* records[s][(p * nr_loads + l) * nr_seeds + k]: cJSON * sweep records (NULL: missing), or NULL for hand-made data */
	void ***records;
	bool synthetic;         /* the self-test: real tables graded as simulated; counter rules and checks SKIP */
	/* the --quick reduction in force: loads outside it are absent */
	bool quick;
};

/** Empty data for x (every cell missing). Free with ss_xp_data_free. */
struct ss_xp_data *ss_xp_data_new(const struct ss_experiment *x);
void ss_xp_data_free(struct ss_xp_data *d);
/**
 * Fill the cells from the records: per load, Δ = 100·(mean_new/mean_base − 1)
 * (higher is better) or 100·(1 − mean_new/mean_base), the interval from the
 * per-seed paired differences (Student t, n − 1 degrees of freedom) scaled
 * the same way. A point whose record is INVALID makes the cell invalid.
 */
void ss_xp_data_compute(struct ss_xp_data *d);
/** The real table graded as if simulated (Δ = real, zero-width interval); `transform`: 0 as is, 1 zeros, 2 sign flip at the peak. */
struct ss_xp_data *ss_xp_data_from_real(const struct ss_experiment *x, int transform);

/** Mean over seeds of a record metric (counter rules and checks); NAN + *why when missing. */
double ss_xp_counter(const struct ss_xp_data *d, unsigned series, unsigned policy, unsigned load, const char *metric,
		     char **why);

/**
 * Validity of one sweep record (a cJSON object): 0 valid, 1 INVALID (*why:
 * the window starts before every LLC's nr_idle_scan was written, or the run
 * ended before its window), 2 cannot tell (the record has no validity
 * fields). The one place that reads the validity fields.
 */
int ss_xp_record_validity(const void *record, char **why);

struct ss_xp_rule_result {
	enum ss_xp_status status;
	char *why;              /* what failed, or why INVALID/SKIP */
};

struct ss_xp_grade {
	enum ss_xp_status status;   /* of the experiment */
	char *why;                  /* failed rules / invalid reasons */
	unsigned nr_rules;
	struct ss_xp_rule_result *rules;
	bool validity_unknown;      /* some point's validity cannot be told */
};

/** Apply every rule of d->x to d. Free with ss_xp_grade_free. */
struct ss_xp_grade *ss_xp_grade(const struct ss_xp_data *d);
void ss_xp_grade_free(struct ss_xp_grade *g);

/** ε of a series' metric: 10 for tail latency, else 3 (percent). */
double ss_xp_epsilon(const struct ss_xp_series *s);
/** The real sign at load l: '+', '-', '0' or 'u' (unscored or no value). */
char ss_xp_real_sign(const struct ss_xp_series *s, unsigned l, double eps);

/** Named checks that need no sweep: S06 (PELT) and S07 (budgets); *why is the report. */
enum ss_xp_status ss_xp_check_s06_pelt(const struct ss_xp_check_s06 *c, char **why);
enum ss_xp_status ss_xp_check_s07_budgets(const struct ss_xp_check_s07 *c, char **why);
/*
 * S13's accounting identity: per fixture and target, the variant (target
 * cleared from the mask) finds the base policy's CPU with the base's probes
 * less one exactly when the base walked the whole mask and found none.
 * Builds and runs small simulations; *why (g_free) lists every call.
 */
enum ss_xp_status ss_xp_check_s13_identity(const struct ss_xp_check_s13 *c, char **why);

/* ------------------------------------------------------------ simsched validate */

/** Reduce x to its `quick:` grid in place (series, loads, seeds, durations); false if it has none. */
bool ss_experiment_apply_quick(struct ss_experiment *x);

struct ss_validate_opts {
	const char *out_dir;    /* specs/ (generated sweep specs) and results*.jsonl go here; created if missing */
	unsigned jobs;          /* worker threads per sweep; 0 = number of cores */
	unsigned shard_k, shard_n;   /* run only this shard (results-K-of-N.jsonl); n = 0: all (results.jsonl) */
	bool quick;             /* experiments already reduced with ss_experiment_apply_quick() */
	bool no_run;            /* grade what the result files hold, run nothing */
	/* run length by statistics (simsched/runlen.h): each experiment's warmup and duration become the caps */
	bool warmup_auto;       /* MSER-5 ends each warmup (at most the experiment's) */
	double precision;       /* > 0: each (load, seed) runs its policies side by side until every paired Δ is within
				   ±precision (percentage points / 100), at most the experiment's duration */
	void (*progress)(void *ctx, const char *spec, unsigned done, unsigned total);
	void *progress_ctx;
	/* optional: the points finished of every grid's (the sweeps' records, as they are written) */
	void (*point_progress)(void *ctx, uint64_t done, uint64_t total);
};

/** What validate ran and found: per experiment its data and grade. */
struct ss_validate_result {
	unsigned nr;
	struct ss_experiment **x;      /* borrowed */
	struct ss_xp_data **data;
	struct ss_xp_grade **grade;
	char ***spec_files;            /* per experiment: the generated specs, NULL-terminated */
	uint64_t points_run;           /* points this call ran */
	uint64_t points_total;         /* points of every grid */
	void *records;                 /* internal: the records read (cJSON array) */
};

/**
 * Write each experiment's grid as sweep specs into out_dir/specs (one per
 * series × group of policies with equal --set values × load for a unit by
 * parameter), run them with --resume semantics into one result file (points
 * whose key is there already — of this or another experiment — are not run
 * again), read the records and grade. A spec the sweep machinery refuses (a
 * kernel or a --set key this build does not know) or a failed run makes its
 * points INVALID with the reason; it is not an error of the call. false +
 * *err only for I/O errors on out_dir.
 */
bool ss_validate_run(struct ss_experiment **xs, unsigned nr, const struct ss_validate_opts *o,
		     struct ss_validate_result **out, GError **err);
void ss_validate_result_free(struct ss_validate_result *r);

/**
 * The scorecard and the per-experiment tables: format "text", "markdown" or
 * "json". g_free; NULL + *err for another format.
 */
char *ss_validate_render(const struct ss_validate_result *r, const char *format, GError **err);

#endif
