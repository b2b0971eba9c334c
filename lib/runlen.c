/*
 * Run length chosen by statistics (simsched/runlen.h): MSER-5 for the end of
 * the warmup, batch means for the length of the window, for one run or for
 * runs side by side on their paired Δ. The runs are stepped by the observer
 * of core.c (ss_run_step): it pauses a run every observation interval
 * without moving any event, and the window is begun and ended at a pause
 * exactly as a fixed --warmup and --duration of that length would do, so
 * the figures are those of such a fixed run.
 */
#include "ss_sched.h"
#include "simsched/runlen.h"
#include "simsched/error.h"

#include <math.h>
#include <string.h>

unsigned ss_mser(const double *z, unsigned n, unsigned max_d, double *stat)
{
	double mean = 0, s1 = 0, s2 = 0, best = INFINITY;
	unsigned bd = 0;

	if (n < 2) {
		if (stat)
			*stat = 0;
		return 0;
	}
	if (max_d > n - 2)
		max_d = n - 2;
	for (unsigned i = 0; i < n; i++)
		mean += z[i];
	mean /= n;
	/* suffix sums of the centred series, from the end: m = n - d values */
	for (unsigned d = n; d-- > 0;) {
		double x = z[d] - mean;
		unsigned m = n - d;

		s1 += x;
		s2 += x * x;
		if (d > max_d)
			continue;
		double ss = s2 - s1 * s1 / m;
		double v = (ss > 0 ? ss : 0) / ((double)m * m);
		if (v <= best) {   /* <=: of equal values the lowest d, as d falls */
			best = v;
			bd = d;
		}
	}
	if (stat)
		*stat = best;
	return bd;
}

unsigned ss_mser5(const double *y, unsigned n, unsigned *nr_batches)
{
	unsigned nb = n / 5;
	double *z = g_new(double, nb ? nb : 1);

	for (unsigned i = 0; i < nb; i++)
		z[i] = (y[5 * i] + y[5 * i + 1] + y[5 * i + 2] + y[5 * i + 3] + y[5 * i + 4]) / 5;
	unsigned d = ss_mser(z, nb, nb, NULL);
	g_free(z);
	if (nr_batches)
		*nr_batches = nb;
	return 5 * d;
}

double ss_t975(unsigned df)
{
	/* Student's t, 0.975 quantile, df 1..40 (any table of t critical values,
	 * e.g. the NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.2) */
	static const double t[41] = {
		NAN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
		2.040, 2.037, 2.035, 2.032, 2.030, 2.028, 2.026, 2.024, 2.023, 2.021,
	};
	if (df == 0)
		return NAN;
	if (df <= 40)
		return t[df];
	/* Cornish-Fisher, two terms: z + (z³ + z) / (4 df) + (5z⁵ + 16z³ + 3z) / (96 df²), z = 1.959964
	 * (Abramowitz & Stegun 26.7.5; within 0.0002 of the exact value above 40) */
	{
		const double z = 1.959964, z3 = z * z * z, z5 = z3 * z * z, v = (double)df;
		return z + (z3 + z) / (4.0 * v) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v);
	}
}

bool ss_batch_means(const double *x, unsigned k, double *mean, double *half_width, double *vn_z)
{
	double m = 0, ss = 0, sd2 = 0;

	if (k < 2)
		return false;
	for (unsigned j = 0; j < k; j++)
		m += x[j];
	m /= k;
	for (unsigned j = 0; j < k; j++)
		ss += (x[j] - m) * (x[j] - m);
	for (unsigned j = 0; j + 1 < k; j++)
		sd2 += (x[j + 1] - x[j]) * (x[j + 1] - x[j]);
	*mean = m;
	*half_width = ss_t975(k - 1) * sqrt(ss / (k - 1) / k);
	if (vn_z) {
		/* von Neumann: C = 1 − Σ(Δx)² / (2 Σ(x − x̄)²), var C = (k − 2) / (k² − 1) under independence */
		double c = ss > 0 ? 1.0 - sd2 / (2.0 * ss) : 0.0;
		*vn_z = k > 2 ? c / sqrt((double)(k - 2) / ((double)k * k - 1.0)) : 0.0;
	}
	return true;
}

double ss_ar1_inflation(const double *x, unsigned k, double *phi)
{
	double m = 0, ss = 0, sc = 0, f;

	if (phi)
		*phi = 0;
	if (k < 4)
		return 1.0;
	for (unsigned j = 0; j < k; j++)
		m += x[j];
	m /= k;
	for (unsigned j = 0; j < k; j++)
		ss += (x[j] - m) * (x[j] - m);
	if (!(ss > 0))
		return 1.0;
	for (unsigned j = 0; j + 1 < k; j++)
		sc += (x[j] - m) * (x[j + 1] - m);
	/* the lag-1 sample autocorrelation r is biased low in short series, E r ≈ φ − (1 + 3φ)/k
	 * for an AR(1) with an estimated mean (Marriott and Pope, Biometrika 41, 1954): φ ≈ (k r + 1)/(k − 3) */
	f = ((double)k * (sc / ss) + 1.0) / ((double)k - 3.0);
	if (phi)
		*phi = f;
	if (f >= 1.0)
		return INFINITY;
	if (f < 0)
		f = 0;
	return sqrt((1.0 + f) / (1.0 - f));
}

/* ---- the controller ---- */

struct rl_side {
	struct ss_run *run;
	struct ss_run_obs o;            /* the observation at the last pause */
	GArray *mser;                   /* double: the figure of each MSER-5 batch since mser_base */
	unsigned mser_base;             /* MSER-5 batches before the series (cut at an interval without a figure) */
	uint64_t mser_c0;               /* the count at the current MSER batch's start */
	struct ss_lat_hist *mser_h0;    /* percentile metrics: the histogram there */
	bool steady;                    /* MSER-5's truncation inside the first half, SS_RL_MSER_HOLD times in a row */
	bool evaluated;                 /* MSER-5 was computed at least once */
	unsigned hold;                  /* evaluations in a row with the truncation inside the first half */
	unsigned mser_d, mser_n;        /* its d* (from t = 0) and n at the last evaluation */
	uint64_t cum[SS_RL_MAX_BATCHES + 1];       /* counts at the window's batch boundaries */
	struct ss_lat_hist *snap;                  /* percentile: SS_RL_MAX_BATCHES + 1 histograms there */
	double val[SS_RL_MAX_BATCHES];
	double mean, hw, vn, phi;       /* NAN until computed; hw AR(1)-corrected, phi the batches' lag-1 autocorrelation */
	double delta, delta_hw, delta_phi;   /* against side 0, % (hw corrected), and the differences' phi; NAN until computed */
};

struct rl {
	unsigned n;
	struct rl_side *s;
	double precision;               /* 0: a fixed duration after the warmup */
	bool paired, warmup_auto;
	uint64_t batch_ns, warmup_cap, duration;
	unsigned measure, pct_x10;
	uint64_t bpt;
	struct ss_lat_hist tmp;
	unsigned nobs;                  /* observations since t = 0 */
	bool in_window, capped, waited_scan, exited;
	uint64_t win_start, exited_ns;
	unsigned nobs_w, k, b;          /* window: observations, complete batches, observations per batch */
	unsigned passes;                /* judgements in a row that passed */
	const char *stopped;
	bool no_interval;               /* the interval could not be computed (a batch without a figure, a mean of 0) */
};

static uint64_t obs_count(const struct rl *rl, const struct ss_run_obs *o)
{
	return rl->measure == SS_MEASURE_MEM_BW ? o->mem_traffic_bytes : o->transactions;
}

/* The workload's figure over an interval of len ns: a count c, or for a percentile metric the histogram b − a. */
static double figure(struct rl *rl, uint64_t c, const struct ss_lat_hist *a, const struct ss_lat_hist *b, uint64_t len)
{
	double per_s = 1e9 / (double)len;

	switch ((enum ss_wl_measure)rl->measure) {
	case SS_MEASURE_TXN_RATE:
		return (double)c * per_s;
	case SS_MEASURE_TXN_BYTES:
		return (double)c * (double)rl->bpt / 1e6 * per_s;
	case SS_MEASURE_MEM_BW:
		return (double)c / 1e6 * per_s;
	case SS_MEASURE_WAKEUP_PCT:
		/* the interval's own percentile, at the histogram's resolution */
		rl->tmp.n = b->n - a->n;
		if (!rl->tmp.n)
			return NAN;
		for (unsigned i = 0; i < SS_LAT_BUCKETS; i++)
			rl->tmp.count[i] = b->count[i] - a->count[i];
		rl->tmp.max = UINT64_MAX;
		return (double)ss_lat_hist_quantile(&rl->tmp, (double)rl->pct_x10 / 1000.0) / 1000.0;
	case SS_MEASURE_FINISH:
		break;
	}
	return NAN;
}

/* An MSER-5 batch ended at this pause: its figure, and whether the side looks steady now. */
static void mser_batch(struct rl *rl, struct rl_side *sd)
{
	uint64_t c = obs_count(rl, &sd->o);
	double v = figure(rl, c - sd->mser_c0, sd->mser_h0, sd->o.metric_latency, 5 * rl->batch_ns);
	unsigned n, d;

	sd->mser_c0 = c;
	if (sd->mser_h0)
		*sd->mser_h0 = *sd->o.metric_latency;
	if (!isfinite(v)) {
		/* an interval without a figure (no wakeups): the steady part starts after it */
		sd->mser_base += sd->mser->len + 1;
		g_array_set_size(sd->mser, 0);
		sd->hold = 0;
		sd->steady = false;
		return;
	}
	g_array_append_val(sd->mser, v);
	n = sd->mser->len;
	if (n < SS_RL_MSER_MIN)
		return;
	/*
	 * d* over all but the last tenth (at least 5 batches: a short tail of
	 * equal batches, quantised counts, has MSER 0 and would win); steady
	 * when it lies in the first half (White 1997).
	 */
	d = ss_mser((const double *)(void *)sd->mser->data, n, n - MAX(5u, n / 10), NULL);
	sd->evaluated = true;
	sd->mser_d = sd->mser_base + d;
	sd->mser_n = sd->mser_base + n;
	sd->hold = d <= n / 2 ? sd->hold + 1 : 0;
	sd->steady = sd->hold >= SS_RL_MSER_HOLD;
}

static void boundary(struct rl *rl, struct rl_side *sd, unsigned j)
{
	sd->cum[j] = obs_count(rl, &sd->o);
	if (sd->snap)
		sd->snap[j] = *sd->o.metric_latency;
}

static void begin_window(struct rl *rl)
{
	rl->in_window = true;
	rl->win_start = rl->s[0].o.now_ns;
	rl->nobs_w = rl->k = 0;
	rl->b = 1;
	for (unsigned i = 0; i < rl->n; i++) {
		ss_run_begin_window(rl->s[i].run);
		boundary(rl, &rl->s[i], 0);
		if (!rl->precision)
			ss_run_end_window_at(rl->s[i].run, rl->win_start + rl->duration);
	}
}

/*
 * The k batches' figures of every side, their means and intervals, and the
 * Δs against side 0; whether every one is within the target. A batch
 * without a figure or a baseline mean of 0 leaves the intervals NAN.
 */
static bool evaluate(struct rl *rl)
{
	uint64_t len = (uint64_t)rl->b * rl->batch_ns;
	bool ok = true;

	rl->no_interval = false;
	for (unsigned i = 0; i < rl->n; i++) {
		struct rl_side *sd = &rl->s[i];
		bool finite = rl->k >= 2;

		sd->mean = sd->hw = sd->vn = sd->phi = sd->delta = sd->delta_hw = sd->delta_phi = NAN;
		for (unsigned j = 0; j < rl->k; j++) {
			sd->val[j] = figure(rl, sd->cum[j + 1] - sd->cum[j], sd->snap ? &sd->snap[j] : NULL,
					    sd->snap ? &sd->snap[j + 1] : NULL, len);
			finite &= isfinite(sd->val[j]);
		}
		if (!finite) {
			rl->no_interval = true;
			ok = false;
			continue;
		}
		ss_batch_means(sd->val, rl->k, &sd->mean, &sd->hw, &sd->vn);
		sd->hw *= ss_ar1_inflation(sd->val, rl->k, &sd->phi);   /* the AR(1)-corrected half-width */
		if (!rl->paired && (!(sd->mean != 0) || !(sd->hw <= rl->precision * fabs(sd->mean)) || sd->phi > SS_RL_PHI_MAX))
			ok = false;
		if (!rl->paired && !(sd->mean != 0))
			rl->no_interval = true;
	}
	if (rl->no_interval || !rl->paired)
		return ok;
	for (unsigned i = 1; i < rl->n; i++) {
		struct rl_side *a = &rl->s[0], *bs = &rl->s[i];
		double d[SS_RL_MAX_BATCHES], r, dm, dhw, dvn, dphi;

		if (!(a->mean != 0)) {
			rl->no_interval = true;
			return false;
		}
		/* the ratio estimator: R = ȳ_B / ȳ_A, d_j = y_B,j − R y_A,j, half-width t s_d / (√k ȳ_A) */
		r = bs->mean / a->mean;
		for (unsigned j = 0; j < rl->k; j++)
			d[j] = bs->val[j] - r * a->val[j];
		ss_batch_means(d, rl->k, &dm, &dhw, &dvn);
		dhw *= ss_ar1_inflation(d, rl->k, &dphi);
		bs->delta = 100.0 * (r - 1.0);
		bs->delta_hw = 100.0 * dhw / fabs(a->mean);
		bs->delta_phi = dphi;
		if (!(bs->delta_hw <= 100.0 * rl->precision) || dphi > SS_RL_PHI_MAX)
			ok = false;
	}
	return ok;
}

/*
 * A window batch boundary at this pause: record it; merge 64 into 32; judge
 * the window when it has 32 batches (its length doubled since the last
 * judgement). true when the window ends here: SS_RL_LOOKS judgements in a
 * row passed, or another batch would pass the cap.
 */
static bool window_batch(struct rl *rl)
{
	bool judge = false;

	for (unsigned i = 0; i < rl->n; i++)
		boundary(rl, &rl->s[i], rl->k + 1);
	rl->k++;
	if (rl->k == SS_RL_MAX_BATCHES) {
		for (unsigned i = 0; i < rl->n; i++) {
			struct rl_side *sd = &rl->s[i];

			for (unsigned j = 0; j <= SS_RL_MAX_BATCHES / 2; j++) {
				sd->cum[j] = sd->cum[2 * j];
				if (sd->snap)
					sd->snap[j] = sd->snap[2 * j];
			}
		}
		rl->k = SS_RL_MAX_BATCHES / 2;
		rl->b *= 2;
		judge = true;
	} else if (rl->k == SS_RL_MIN_BATCHES && rl->b == 1) {
		judge = true;
	}
	if (judge) {
		rl->passes = evaluate(rl) ? rl->passes + 1 : 0;
		if (rl->passes >= SS_RL_LOOKS) {
			rl->stopped = "precision";
			return true;
		}
	}
	/* the window is a whole number of batches, at most the cap */
	if (rl->s[0].o.now_ns - rl->win_start + (uint64_t)rl->b * rl->batch_ns > rl->duration) {
		if (!judge)
			evaluate(rl);   /* what the window holds, for the report */
		rl->stopped = "cap";
		return true;
	}
	return false;
}

static void fill_info(const struct rl *rl, unsigned i, struct ss_results *r)
{
	const struct rl_side *sd = &rl->s[i];
	struct ss_run_length *x = &r->run_length;

	x->on = true;
	x->warmup_auto = rl->warmup_auto;
	x->warmup_max_ns = rl->warmup_auto ? rl->warmup_cap : 0;
	x->mser_truncation_ns = rl->warmup_auto ? (uint64_t)sd->mser_d * 5 * rl->batch_ns : 0;
	x->mser_batches = rl->warmup_auto ? sd->mser_n : 0;
	x->warmup_capped = rl->capped;
	x->waited_nr_idle_scan = rl->waited_scan;
	x->precision = rl->precision;
	x->max_duration_ns = rl->precision ? rl->duration : 0;
	x->batch_ns = rl->batch_ns;
	x->stopped = rl->stopped;
	x->mean = x->half_width = x->von_neumann_z = x->lag1_autocorrelation = x->delta_pct = x->delta_half_width_pct =
		x->delta_lag1_autocorrelation = NAN;
	if (rl->precision) {
		x->batches = rl->k;
		x->batch_len_ns = (uint64_t)rl->b * rl->batch_ns;
		x->mean = sd->mean;
		x->half_width = sd->hw;
		x->von_neumann_z = sd->vn;
		x->lag1_autocorrelation = sd->phi;
	}
	x->paired = rl->paired;
	x->paired_index = i;
	if (rl->paired && i) {
		x->delta_pct = sd->delta;
		x->delta_half_width_pct = sd->delta_hw;
		x->delta_lag1_autocorrelation = sd->delta_phi;
	}
	if (rl->exited)
		ss_results_warn(r, g_strdup_printf("every task of the workload exited at %.6f s: the window ended at the "
						   "next observation, and there is no steady state to measure after it",
						   (double)rl->exited_ns / 1e9));
	else if (rl->precision && !strcmp(rl->stopped, "cap")) {
		g_autofree char *what = rl->no_interval
			? g_strdup("no interval could be computed (a batch without a figure, e.g. no wakeups, or a mean of 0)")
			: rl->paired
			? g_strdup_printf("the paired delta's 95 %% interval is still wider than +-%g %%, or its batches' "
					  "lag-1 autocorrelation above %.2f", 100.0 * rl->precision, SS_RL_PHI_MAX)
			: g_strdup_printf("the 95 %% interval of the figure is still wider than +-%g %% of its mean, or its "
					  "batches' lag-1 autocorrelation above %.2f", 100.0 * rl->precision, SS_RL_PHI_MAX);
		ss_results_warn(r, g_strdup_printf("--precision: %s at the cap of %.3f s (%u batches of %.3f s; raise "
						   "--duration, or ask for less)", what, (double)rl->duration / 1e9, rl->k,
						   (double)x->batch_len_ns / 1e9));
	}
	if (rl->capped) {
		const char *why = rl->waited_scan ? "an LLC's nr_idle_scan was still unwritten when MSER-5 found it steady"
				: !sd->evaluated ? "the cap came before MSER-5 could decide (it needs 20 batches of 5 "
						    "observations with a figure, then 10 evaluations in a row)"
				: "MSER-5 found no steady state (its truncation point stayed at the end of the first half)";
		ss_results_warn(r, g_strdup_printf("--warmup auto: %s, by its cap of %.3f s: the window starts there", why,
						   (double)rl->warmup_cap / 1e9));
	}
}

static bool run_group(const struct ss_run_config *cfgs, unsigned n, double precision, bool paired,
		      struct ss_results **res, GError **err)
{
	struct rl rl = { .n = n, .precision = precision, .paired = paired };
	struct ss_run_ctl ctl;
	bool ok = false;

	memset(res, 0, n * sizeof *res);
	rl.warmup_auto = cfgs[0].warmup_auto;
	rl.batch_ns = cfgs[0].batch_ns ? cfgs[0].batch_ns : SS_RL_BATCH_NS_DEFAULT;
	rl.warmup_cap = cfgs[0].warmup_ns;
	rl.duration = cfgs[0].duration_ns;
	rl.measure = ss_workload_metric(cfgs[0].wl)->measure;
	if (rl.measure == SS_MEASURE_FINISH) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "workload %s: its figure is a finish time, one number per run: --warmup auto and --precision do not "
			    "apply (use seeds for its spread)", ss_workload_name(cfgs[0].wl));
		return false;
	}
	if (precision > 0 && rl.duration < (uint64_t)SS_RL_LOOKS * SS_RL_MIN_BATCHES * rl.batch_ns) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "--duration %.6f s is shorter than the shortest window --precision can end at (%u observations of "
			    "--batch %.6f s: %.6f s; expected a longer --duration or a shorter --batch)",
			    (double)rl.duration / 1e9, SS_RL_LOOKS * SS_RL_MIN_BATCHES, (double)rl.batch_ns / 1e9,
			    (double)SS_RL_LOOKS * SS_RL_MIN_BATCHES * (double)rl.batch_ns / 1e9);
		return false;
	}
	if (rl.batch_ns > cfgs[0].duration_ns) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "the observation interval (%.6f s) is longer than --duration",
			    (double)rl.batch_ns / 1e9);
		return false;
	}
	rl.pct_x10 = ss_workload_metric(cfgs[0].wl)->percentile_x10;
	rl.bpt = ss_workload_metric(cfgs[0].wl)->bytes_per_txn;
	ctl = (struct ss_run_ctl){ .batch_ns = rl.batch_ns, .warmup = rl.warmup_auto, .stop = true,
				   .first_ns = rl.warmup_auto ? rl.batch_ns : cfgs[0].warmup_ns };
	rl.s = g_new0(struct rl_side, n);
	for (unsigned i = 0; i < n; i++) {
		struct rl_side *sd = &rl.s[i];

		sd->mean = sd->hw = sd->vn = sd->phi = sd->delta = sd->delta_hw = sd->delta_phi = NAN;
		if (!(sd->run = ss_run_open(&cfgs[i], &ctl, err)))
			goto out;
		sd->mser = g_array_new(FALSE, FALSE, sizeof(double));
		if (rl.measure == SS_MEASURE_WAKEUP_PCT) {
			sd->mser_h0 = g_new0(struct ss_lat_hist, 1);
			sd->snap = g_new0(struct ss_lat_hist, SS_RL_MAX_BATCHES + 1);
		}
	}
	for (;;) {
		bool all = true, exited = false;

		for (unsigned i = 0; i < n; i++)
			if (!ss_run_step(rl.s[i].run))
				all = false;
		if (!all)
			break;   /* the stop of a fixed window, or a fatal error: ss_run_close tells */
		for (unsigned i = 0; i < n; i++) {
			ss_run_observe(rl.s[i].run, &rl.s[i].o);
			exited |= rl.s[i].o.all_exited;
		}
		if (exited) {
			/* every task gone: nothing steady is left to measure */
			rl.exited = true;
			rl.exited_ns = rl.s[0].o.now_ns;
			if (!rl.in_window)
				begin_window(&rl);
			rl.stopped = "exited";
			for (unsigned i = 0; i < n; i++)
				ss_run_end_window(rl.s[i].run);
			break;
		}
		if (!rl.in_window) {
			if (!rl.warmup_auto) {   /* the first pause is the fixed warmup's end */
				begin_window(&rl);
				continue;
			}
			bool decide = !(++rl.nobs % 5), steady = true, scan = false;
			for (unsigned i = 0; i < n; i++) {
				if (decide)
					mser_batch(&rl, &rl.s[i]);
				steady &= rl.s[i].steady;
				scan |= rl.s[i].o.nr_idle_scan_pending;
			}
			if (decide && steady && scan)
				rl.waited_scan = true;
			if (decide && steady && !scan) {
				begin_window(&rl);
			} else if (rl.s[0].o.now_ns >= rl.warmup_cap) {
				rl.capped = true;
				rl.waited_scan = steady && scan;
				begin_window(&rl);
			}
			continue;
		}
		if (!rl.precision)
			continue;   /* to the stop at the window's fixed end */
		if (++rl.nobs_w % rl.b)
			continue;
		if (window_batch(&rl)) {
			for (unsigned i = 0; i < n; i++)
				ss_run_end_window(rl.s[i].run);
			break;
		}
	}
	if (!rl.stopped)
		rl.stopped = "duration";
	for (unsigned i = 0; i < n; i++)
		ss_run_end_window(rl.s[i].run);   /* a run left paused (another's fatal error) ends now */
	ok = true;
	for (unsigned i = 0; i < n; i++) {
		GError *e = NULL;

		res[i] = ss_run_close(rl.s[i].run, &e);
		rl.s[i].run = NULL;
		if (!res[i]) {
			if (ok) {
				if (n > 1)
					g_prefix_error(&e, "%s: ", cfgs[i].policy ? cfgs[i].policy : "the default policy");
				g_propagate_error(err, e);
			} else {
				g_clear_error(&e);
			}
			ok = false;
		}
	}
	if (ok) {
		for (unsigned i = 0; i < n; i++)
			fill_info(&rl, i, res[i]);
	} else {
		for (unsigned i = 0; i < n; i++) {
			ss_results_free(res[i]);
			res[i] = NULL;
		}
	}
out:
	for (unsigned i = 0; i < n; i++) {
		ss_run_free(rl.s[i].run);
		if (rl.s[i].mser)
			g_array_free(rl.s[i].mser, TRUE);
		g_free(rl.s[i].mser_h0);
		g_free(rl.s[i].snap);
	}
	g_free(rl.s);
	return ok;
}

struct ss_results *ss_runlen_simulate(const struct ss_run_config *cfg, GError **err)
{
	struct ss_results *r = NULL;

	struct ss_run *run;

	if (!cfg->topo || !cfg->wl || !cfg->duration_ns)   /* ss_run_open's usage errors */
		return (run = ss_run_open(cfg, NULL, err)) ? ss_run_close(run, err) : NULL;
	if (!run_group(cfg, 1, cfg->precision, false, &r, err))
		return NULL;
	return r;
}

bool ss_simulate_paired(const struct ss_run_config *cfgs, unsigned n, double precision, struct ss_results **res,
			GError **err)
{
	if (n < 2 || !(precision > 0)) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "a paired run needs two runs or more and a precision above 0");
		return false;
	}
	for (unsigned i = 0; i < n; i++)
		if (!cfgs[i].topo || !cfgs[i].wl || !cfgs[i].duration_ns) {
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "a run needs a topology, a workload and a --duration above 0");
			return false;
		}
	return run_group(cfgs, n, precision, true, res, err);
}

bool ss_parse_precision(const char *s, double *precision)
{
	size_t n = s ? strlen(s) : 0;
	uint64_t v, scale = 1;
	const char *p = s;
	bool pct = n && s[n - 1] == '%';
	uint64_t whole = 0, frac = 0;
	unsigned nd = 0;

	if (!n || n > 12)
		return false;
	/* DIGITS[.DIGITS][%]: exact decimal, no sign or exponent */
	while (g_ascii_isdigit(*p))
		whole = whole * 10 + (uint64_t)(*p++ - '0');
	if (p == s)
		return false;
	if (*p == '.') {
		p++;
		while (g_ascii_isdigit(*p) && nd < 6) {
			frac = frac * 10 + (uint64_t)(*p++ - '0');
			scale *= 10;
			nd++;
		}
		if (!nd)
			return false;
	}
	if (pct ? (p != s + n - 1) : (*p != '\0'))
		return false;
	v = whole * scale + frac;
	*precision = (double)v / (double)scale / (pct ? 100.0 : 1.0);
	return *precision > 0 && *precision < 1;
}

bool ss_parse_warmup(const char *s, bool *warmup_auto, uint64_t *ns)
{
	if (!s)
		return false;
	if (!strcmp(s, "auto")) {
		*warmup_auto = true;
		*ns = SS_RL_WARMUP_MAX_DEFAULT;
		return true;
	}
	if (!strncmp(s, "auto:", 5)) {
		size_t n = strlen(s + 5);
		*warmup_auto = true;
		return n && g_ascii_isalpha(s[4 + n]) && ss_parse_duration(s + 5, ns) && *ns > 0 &&
		       *ns <= UINT64_C(1000000) * 1000000000u;
	}
	*warmup_auto = false;
	{
		size_t n = strlen(s);
		if (!(n && (g_ascii_isalpha(s[n - 1]) || !strcmp(s, "0"))))
			return false;
	}
	return ss_parse_duration(s, ns) && *ns <= UINT64_C(1000000) * 1000000000u;
}
