/*
 * simsched/runlen.h — run length chosen by statistics: where the warmup
 * ends (MSER-5) and how long the measured window runs (batch means), for one
 * run or for runs compared side by side.
 *
 * Methods (docs/output.md "Run length"):
 *  - MSER-5: K. P. White, Jr., "An effective truncation heuristic for bias
 *    reduction in simulation output", Simulation 69(6), 1997; K. P. White,
 *    M. J. Cobb, S. C. Spratt, "A comparison of five steady-state truncation
 *    heuristics for simulation", WSC 2000. The series is cut into batches of
 *    5 observations, z_1..z_n; the truncation d* minimises
 *    MSER(d) = Σ_{i>d} (z_i − z̄_d)² / (n − d)²; a d* in the second half of
 *    the series means the run is too short to tell.
 *  - Non-overlapping batch means with a fixed number of batches (20..39;
 *    B. Schmeiser, "Batch size effects in the analysis of simulation
 *    output", Operations Research 30(3), 1982: 10 to 30 batches), the batch
 *    size doubling when 40 are full (as in G. S. Fishman, L. S. Yarberry,
 *    "An implementation of the batch means method", INFORMS J. Computing
 *    9(3), 1997, LBATCH), the 95 % interval x̄ ± t_{k−1,0.975} s/√k (A. M.
 *    Law, "Simulation Modeling and Analysis", 5th ed., §9.5.3), and von
 *    Neumann's ratio test of the batch means' independence at 10 % (J. von
 *    Neumann, "Distribution of the ratio of the mean square successive
 *    difference to the variance", Ann. Math. Stat. 12, 1941; the test LBATCH
 *    uses).
 *  - A paired Δ between runs with common random numbers (the same seed):
 *    the ratio of the two means R = ȳ_B / ȳ_A, with the interval of the
 *    ratio estimator from the batch differences d_j = y_B,j − R·y_A,j (Law,
 *    §9.5.3 and §10.2).
 */
#ifndef SIMSCHED_RUNLEN_H
#define SIMSCHED_RUNLEN_H

#include <stdbool.h>
#include <glib.h>

#include "simsched/sim.h"

/**
 * Batches of the window: SS_RL_MIN_BATCHES to SS_RL_MAX_BATCHES − 1; when
 * SS_RL_MAX_BATCHES are full, neighbours merge. The window is judged only
 * when it has SS_RL_MIN_BATCHES batches (first at 32 observations, then at
 * each merge, as its length doubles), and ends after SS_RL_LOOKS judgements
 * in a row that pass.
 */
#define SS_RL_MIN_BATCHES 32
#define SS_RL_MAX_BATCHES 64
#define SS_RL_LOOKS 2
/** MSER-5 batches (of 5 observations) before a truncation point is accepted. */
#define SS_RL_MSER_MIN 20
/** Evaluations in a row (one per MSER-5 batch) with the truncation in the first half before the warmup ends. */
#define SS_RL_MSER_HOLD 10
/** The observation interval when ss_run_config.batch_ns is 0: 1 ms. */
#define SS_RL_BATCH_NS_DEFAULT UINT64_C(1000000)
/** --warmup auto's cap when none is given: 10 s. */
#define SS_RL_WARMUP_MAX_DEFAULT UINT64_C(10000000000)

/**
 * MSER on z[0..n) (already batch means): the truncation d* in batches,
 * 0..min(max_d, n−2), that minimises Σ_{i≥d} (z_i − z̄_d)² / (n − d)²; the
 * lowest d of equal values. n < 2: 0. *stat (may be NULL) gets MSER(d*).
 * The controller searches all but the last tenth (at least 5 batches: two
 * equal last batches have MSER 0 and would win) and calls the series steady
 * when d* ≤ n/2 (White's rule).
 */
unsigned ss_mser(const double *z, unsigned n, unsigned max_d, double *stat);
/**
 * MSER-5 on raw observations y[0..n): batches of 5 (a last partial batch is
 * left out), ss_mser() on their means. Returns the truncation in
 * observations (a multiple of 5); *nr_batches (may be NULL) gets n / 5.
 */
unsigned ss_mser5(const double *y, unsigned n, unsigned *nr_batches);
/** t_{df, 0.975}, the two-sided 95 % quantile of Student's t (df ≥ 1). */
double ss_t975(unsigned df);
/**
 * Batch means of x[0..k) (k ≥ 2): *mean, the 95 % half-width t s/√k in
 * *half_width, von Neumann's statistic C_k / sqrt((k−2)/(k²−1)) in *vn_z
 * (NULL to skip), C_k = 1 − Σ (x_{j+1} − x_j)² / (2 Σ (x_j − x̄)²); 0 for
 * constant x. false for k < 2.
 */
bool ss_batch_means(const double *x, unsigned k, double *mean, double *half_width, double *vn_z);
/** The von Neumann test's one-sided 10 % critical value (z_0.90): a statistic above it rejects independence. */
#define SS_RL_VN_CRIT 1.2816
/**
 * The largest lag-1 autocorrelation of the batch means a judgement accepts:
 * sin(0.927) = 0.80, ASAP3's bound for its AR(1) correction (Steiger, Lada,
 * Wilson, Joines, Alexopoulos and Goldsman, ACM TOMACS 15(1), 2005).
 */
#define SS_RL_PHI_MAX 0.80
/**
 * The AR(1) correction of a batch-means half-width (after ASAP3, above):
 * r = Σ_j (x_j − x̄)(x_{j+1} − x̄) / Σ_j (x_j − x̄)², the lag-1 sample
 * autocorrelation of x[0..k), and φ = (k r + 1)/(k − 3), r corrected for its
 * bias in a short AR(1) series (E r ≈ φ − (1 + 3φ)/k; Marriott and Pope,
 * Biometrika 41, 1954). The variance of x̄ under an AR(1) model of the
 * batch means is about (1 + φ)/(1 − φ) times the independent one; returns
 * the half-width factor √((1 + φ⁺)/(1 − φ⁺)), φ⁺ = max(φ, 0) (a negative φ
 * never narrows the interval), INFINITY when φ ≥ 1. *phi (may be NULL) gets
 * φ; 0 for k < 4 or constant x (factor 1).
 */
double ss_ar1_inflation(const double *x, unsigned k, double *phi);

/**
 * Run cfg with its run length chosen by statistics (cfg->warmup_auto,
 * cfg->precision): what ss_simulate() does for such a config. The figures
 * are those of a fixed --warmup and --duration of the lengths chosen
 * (results.run_length says which and why). Errors as ss_simulate(), plus
 * SS_ERROR_USAGE for a finish-time metric (one figure per run: use seeds).
 */
struct ss_results *ss_runlen_simulate(const struct ss_run_config *cfg, GError **err);

/**
 * Run n ≥ 2 configurations side by side, in lockstep (the same machine,
 * workload, load and seed; typically different policies or kernels), with a
 * common warmup (each cfg's warmup, or with cfgs[0].warmup_auto the latest of
 * their MSER-5 points) and a common window that runs until the 95 % interval
 * of every run's Δ against cfgs[0] is within ±precision (0.01 = ±1
 * percentage point) or cfgs[0].duration_ns is reached. res[0..n) get the
 * results (each as a fixed run of that warmup and window). On error res is
 * left all NULL and *err names the run that failed.
 */
bool ss_simulate_paired(const struct ss_run_config *cfgs, unsigned n, double precision, struct ss_results **res,
			GError **err);

/**
 * --precision's value: "1%" (percent) or "0.01" (a fraction), exact decimals
 * (at most 6 fraction digits), in (0, 1) as a fraction. false otherwise.
 */
bool ss_parse_precision(const char *s, double *precision);
/**
 * --warmup's value: a time with a unit (or 0), at most 10^6 s (*warmup_auto
 * false); "auto" (MSER-5, capped at SS_RL_WARMUP_MAX_DEFAULT) or "auto:CAP"
 * (*warmup_auto true, *ns the cap, > 0). false for anything else.
 */
bool ss_parse_warmup(const char *s, bool *warmup_auto, uint64_t *ns);

#endif
