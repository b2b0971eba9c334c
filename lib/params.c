/*
 * The parameter table: every tunable with its section, unit, default, range
 * and source. --set SECTION.KEY=VALUE writes into struct ss_params through it.
 */
#include "simsched/params.h"
#include "simsched/error.h"
#include "simsched/topology.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ss_sched.h"

enum ptype { P_NS, P_INT, P_RATIO1024 };

struct pdef {
	const char *section, *key;
	enum ptype type;
	size_t off;
	uint64_t def, min, max;
	const char *unit, *doc;
};

#define F(field) offsetof(struct ss_params, field)

static const struct pdef pdefs[] = {
	{ "kernel", "hz", P_INT, F(hz), 250, 100, 1000, "Hz",
	  "CONFIG_HZ; TICK_NSEC = 10^9/HZ; jiffies-based intervals scale with it (Debian/arm64 default 250)" },
	{ "kernel", "freq_ratio", P_RATIO1024, F(freq_capacity), 1024, 1, 1024, "fraction of max frequency",
	  "current/max frequency, as arch_scale_freq_capacity() (×1024); runs slow down and PELT scales (pelt.h update_rq_clock_pelt)" },
	{ "kernel", "base_slice_ns", P_NS, F(base_slice_ns), 0, 0, 1000000000, "ns",
	  "sysctl_sched_base_slice; 0 = 0.75 ms × (1 + ilog2(min(CPUs, 8))) as update_sysctl() scales it (fair.c v6.6)" },
	{ "kernel", "migration_cost_ns", P_NS, F(migration_cost_ns), 500000, 0, 1000000000, "ns",
	  "sysctl_sched_migration_cost (fair.c): initial avg_idle = 2×, max_idle_balance_cost floor" },
	{ "kernel", "nr_migrate", P_INT, F(nr_migrate), 32, 1, 4096, "tasks",
	  "sysctl_sched_nr_migrate: at most this many tasks examined per detach_tasks() pass (fair.c v6.6; 8 on PREEMPT_RT)" },
	{ "kernel", "preemption", P_INT, F(preemption), 1, 0, 1, "bool",
	  "CONFIG_PREEMPTION: newidle balance stops after detaching one task (detach_tasks, fair.c v6.6); Debian's PREEMPT_DYNAMIC kernels have it" },
	{ "kernel", "idle_before_ns", P_NS, F(idle_before_ns), UINT64_C(60000000000), 0, UINT64_C(86400000000000), "ns",
	  "how long the machine has been up and idle before the run starts (t = 0): jiffies stand that far past every balance "
	  "timestamp, so the first busy tick balances each level at once (rebalance_domains(), fair.c v6.6), and each LLC's "
	  "nr_idle_scan holds what update_idle_cpu_scan() wrote over the idle LLC; 0 = a machine booted at t = 0 "
	  "(sd->last_balance = jiffies, nr_idle_scan 0 after the domain build) (docs/model.md \"Start state\")" },
	{ "cost", "probe_self_ns", P_NS, F(probe_self_ns), 0, 0, 10000000, "ns",
	  "reading the waking CPU's own rq in select_idle_sibling (L1-hot)" },
	{ "cost", "probe_smt_ns", P_NS, F(probe_smt_ns), 7, 0, 10000000, "ns",
	  "reading an SMT sibling's rq; default: topology costs.probe_smt_ns, else 7 ns (Xeon 6242 SMT c2c, reference A.2)" },
	{ "cost", "probe_cluster_ns", P_NS, F(probe_cluster_ns), 35, 0, 10000000, "ns",
	  "reading a rq in the same cluster; default: topology, else 35 ns (Kunpeng 920 same-cluster c2c, reference A.1)" },
	{ "cost", "probe_llc_ns", P_NS, F(probe_llc_ns), 50, 0, 10000000, "ns",
	  "reading a rq in the same LLC; default: topology, else 50 ns (Skylake-SP same-socket c2c, reference §5)" },
	{ "cost", "probe_package_ns", P_NS, F(probe_package_ns), 80, 0, 10000000, "ns",
	  "reading a rq in another LLC of the same package; default: topology costs.probe_package_ns, else 80 ns (Kunpeng 920 other die 80.5 ns, reference A.1)" },
	{ "cost", "probe_remote_ns", P_NS, F(probe_remote_ns), 140, 0, 10000000, "ns",
	  "reading a rq on another package; default: topology costs.probe_remote_ns, else 140 ns (Xeon 6242 cross-socket c2c 141 ns, reference A.2; estimate for Kunpeng)" },
	{ "cost", "clear_target_ns", P_NS, F(clear_target_ns), 10, 0, 1000000, "ns",
	  "SIS_CLEAR_TARGET: clearing target's bit in the scan mask, paid on every select_idle_cpu() call (a locked clear_bit on a local line; estimate)" },
	{ "cost", "ipi_ns", P_NS, F(ipi_ns), 1500, 0, 1000000, "ns",
	  "wakeup / reschedule IPI delivery (reference §5: ~1-3 µs, secondary sources)" },
	{ "cost", "context_switch_ns", P_NS, F(context_switch_ns), 2000, 0, 1000000, "ns",
	  "direct cost of a context switch (reference §5: ~1-5 µs; 2 µs suggested default)" },
	{ "cost", "lb_pass_ns", P_NS, F(lb_pass_ns), 1000, 0, 1000000000, "ns",
	  "one load_balance() pass at one domain level besides reading the span's runqueues (each read costs cost.probe_* by distance): lb_env setup, should_we_balance, find_busiest_queue, rq locks; estimate. Feeds newidle's max_newidle_lb_cost and delays the balancing CPU's running task" },
	{ "cost", "smt_contention_pct", P_INT, F(smt_contention_pct), 60, 0, 1000, "% per extra busy sibling",
	  "a thread's speed with k busy threads on its core is 1 / (1 + pct/100 × (k-1)); default: topology costs.smt_contention_pct, "
	  "else 60 (two busy x86 hyperthreads each at 62.5 %, a core at 1.25× one thread: the usual 15-30 % SMT gain; model choice)" },
	{ "cost", "refill_llc_ns_per_kib", P_NS, F(refill_llc_ns_per_kib), 30, 0, 1000000, "ns per KiB",
	  "extra run time of a task that moved to another core of the same LLC, per KiB of working set (refill L1/L2 from L3 at ~32 GB/s; model choice)" },
	{ "cost", "refill_cross_llc_ns_per_kib", P_NS, F(refill_cross_llc_ns_per_kib), 80, 0, 1000000, "ns per KiB",
	  "the same after a move to another LLC of the node (refill from memory at ~12 GB/s per core; model choice)" },
	{ "cost", "refill_cross_node_ns_per_kib", P_NS, F(refill_cross_node_ns_per_kib), 150, 0, 1000000, "ns per KiB",
	  "the same after a move to another NUMA node (remote memory at ~6.5 GB/s per core; model choice)" },
	{ "cost", "node_bandwidth_mbps", P_INT, F(node_bandwidth_mbps), 60000, 0, 100000000, "MB/s",
	  "memory bandwidth of one node, shared by running tasks homed there; tasks slow by bandwidth/demand when the demand exceeds it; "
	  "0 = unlimited; default: topology costs.node_bandwidth_mbps, else 60 GB/s (model choice)" },
	{ "cost", "rq_lock_ns", P_NS, F(rq_lock_ns), 200, 0, 1000000, "ns",
	  "rq lock hold time of one operation under it (a remote direct enqueue, ttwu_do_activate under the target's rq lock: ~3 remote cache lines; "
	  "also __schedule(), a wake-list drain, a detach with cost.rq_lock_all); takers serialise on it (model choice); 0 = no rq lock modelled" },
	{ "cost", "coherence", P_INT, F(coherence), 1, 0, 1, "bool",
	  "a probe reads the probed rq's scheduler line (and select_idle_sibling() the LLC's sd_llc_shared line): a hit in the "
	  "reader's cache (cost.line_cached_ns) if nobody wrote it since this CPU last read it, else a transfer from the CPU "
	  "that wrote it last at the cost.probe_* latency of their distance; 0 = every probe costs cost.probe_* by the distance "
	  "to the probed CPU (docs/model.md \"Contention\")" },
	{ "cost", "line_cached_ns", P_NS, F(line_cached_ns), 4, 0, 10000000, "ns",
	  "with cost.coherence: reading a line still valid in the reader's own cache, an L2 hit; default: topology "
	  "costs.line_cached_ns, else 4 ns (Skylake-SP L2 load-to-use 14 cycles, Intel optimization manual; ~4 ns at 3.5 GHz) [estimate]" },
	{ "cost", "line_queue", P_INT, F(line_queue), 1, 0, 1, "bool",
	  "with cost.coherence: transfers of one line are served one at a time at its home (the LLC slice / directory that "
	  "orders requests to an address), each occupying it for its transfer time; a read arriving while others are queued "
	  "waits for them (model choice; docs/model.md \"Contention\")" },
	{ "cost", "claim_after_scan", P_INT, F(claim_after_scan), 1, 0, 1, "bool",
	  "the CPU a wakeup chose counts as taken (idle_cpu() false) only from the end of its scan: when ttwu_pending is set "
	  "(__ttwu_queue_wakelist()) or the task is enqueued under the rq lock (ttwu_do_activate()), core.c v6.6/v5.17; "
	  "another waker scanning meanwhile may choose it too (contention.wakeups_stacked); 0 = taken at the decision" },
	{ "cost", "rq_lock_all", P_INT, F(rq_lock_all), 1, 0, 1, "bool",
	  "besides remote direct enqueues, the owner's __schedule(), the wake-list drain (sched_ttwu_pending()) and the "
	  "balancer's detach_tasks() under the busiest rq's lock (load_balance()) hold the rq lock for cost.rq_lock_ns "
	  "each; a taker waits on its own CPU (time_lost_ns.rq_lock); 0 = remote direct enqueues only" },
	{ "cost", "idle_states", P_INT, F(idle_states), 1, 0, 1, "bool",
	  "cpuidle states from the topology's idle_states table: a menu-like choice at idle entry, exit latency paid by the wakee, polling states need no IPI" },
	{ "cost", "background", P_INT, F(background), 1, 0, 1, "bool",
	  "background work of a real server: the tick's own cost (cost.tick_ns) and a kworker per CPU (cost.kthread_rate_hz, "
	  "cost.kthread_ns), docs/model.md \"Background work\"; 0 = neither (the clean machine)" },
	{ "cost", "tick_ns", P_NS, F(tick_ns), 2300, 0, 1000000, "ns",
	  "the local timer interrupt of a busy CPU's tick (tick_sched_timer -> scheduler_tick), stolen from the task it "
	  "interrupts (time_lost_ns.tick); default: topology costs.tick_ns, else 2300 ns (local_timer irq_noise of 1845 and "
	  "2848 ns in Documentation/trace/osnoise-tracer.rst, an x86 VM) [estimate for bare metal]; 0 = free" },
	{ "cost", "kthread_rate_hz", P_INT, F(kthread_rate_hz), 11, 0, 100000, "per s",
	  "activations per second of each CPU's kworker, a task pinned to its CPU (Poisson; a deferrable timer, so it runs at "
	  "the first tick of its CPU at or after it is due); default: topology costs.kthread_rate_hz, else 11 (the mean "
	  "THREAD interference count per CPU-second of the 8 CPUs in Documentation/trace/osnoise-tracer.rst); 0 = no kworkers" },
	{ "cost", "kthread_ns", P_NS, F(kthread_ns), 3000, 1, 100000000, "ns",
	  "CPU time of one kworker activation (work at capacity 1024); default: topology costs.kthread_ns, else 3000 ns "
	  "(the thread_noise of migration/8, 3068 ns, in Documentation/trace/osnoise-tracer.rst)" },
	{ "cost", "newidle_time", P_INT, F(newidle_time), 1, 0, 1, "bool",
	  "a newidle_balance() that pulls nothing holds its CPU for its modelled time (cost.lb_pass_ns + the span's reads "
	  "per domain pass) before the switch to idle: the CPU is busy and not idle_cpu() (rq->curr is still the task that "
	  "blocked, fair.c/core.c v6.6 and v5.17), a task enqueued meanwhile is picked when the pass in progress ends, and a "
	  "wakeup of the task that blocked goes to its own CPU's wake list (WF_ON_CPU, no select_task_rq()); counter "
	  "time_lost_ns.newidle_balance; 0 = the CPU is idle at once (the balance takes no time unless it pulls)" },
	{ "balance", "busy_factor", P_INT, F(busy_factor), 16, 1, 1024, "factor",
	  "sd->busy_factor: balance interval multiplier on a busy CPU (topology.c sd_init: 16)" },
	{ "balance", "nohz", P_INT, F(nohz), 1, 0, 1, "bool",
	  "NOHZ idle balancing: kicks (nohz_balancer_kick) let an idle CPU balance for idle CPUs" },
	{ "balance", "newidle_llc_only", P_INT, F(newidle_llc_only), 0, 0, 1, "bool",
	  "newidle balance stops at the LLC domain: an interpretation of the title of seeds/004 patch 4 (docs/policies.md)" },
	{ "balance", "load_balance", P_INT, F(load_balance), 1, 0, 1, "bool",
	  "1: load_balance() moves tasks (periodic, newidle, NOHZ, active); 0: its passes stop after find_busiest_queue() (statistics and SIS_UTIL's nr_idle_scan only), so only wakeups move tasks: isolates the balancer's share of a result" },
	{ "sis", "nr_fixed", P_INT, F(sis_nr_fixed), 0, 0, 4096, "CPUs",
	  "a simulator knob, no kernel equivalent: when > 0, select_idle_cpu() probes at most this many CPUs of its scan mask "
	  "whatever the policy, in place of the SIS_PROP / SIS_UTIL budget (not the idle-core walk); 0 = off (the policy's budget)" },
	{ "stats", "burst_window_ns", P_NS, F(burst_window_ns), 4000000, 1000, 10000000000, "ns",
	  "the window after each burst that bursts.idle_with_work_pct covers (seed experiment S19: 4 ms); a measurement setting, changes no simulated behaviour" },
	{ "stats", "startup_window_ns", P_NS, F(startup_window_ns), 100000000, 10000, 10000000000, "ns",
	  "the start of the run that the startup figures cover, from t = 0 whatever --warmup is: per-CPU busy % and runqueue depth "
	  "(nr_running), and their series in 10 slices of a tenth of it (docs/output.md \"Start-up\"); a measurement setting, changes no simulated behaviour" },
};

#define NR_PDEFS (sizeof pdefs / sizeof pdefs[0])

static uint64_t *pfield(struct ss_params *p, const struct pdef *d)
{
	return (uint64_t *)(void *)((char *)p + d->off);
}

void ss_params_defaults(struct ss_params *p, const struct ss_topology *t)
{
	memset(p, 0, sizeof *p);
	for (size_t i = 0; i < NR_PDEFS; i++)
		*pfield(p, &pdefs[i]) = pdefs[i].def;
	if (t) {
		if (t->probe_smt_ns)
			p->probe_smt_ns = t->probe_smt_ns;
		if (t->probe_cluster_ns)
			p->probe_cluster_ns = t->probe_cluster_ns;
		if (t->probe_llc_ns)
			p->probe_llc_ns = t->probe_llc_ns;
		if (t->probe_package_ns)
			p->probe_package_ns = t->probe_package_ns;
		if (t->probe_remote_ns)
			p->probe_remote_ns = t->probe_remote_ns;
		if (t->line_cached_ns)
			p->line_cached_ns = t->line_cached_ns;
		if (t->smt_contention_pct)
			p->smt_contention_pct = t->smt_contention_pct;
		if (t->node_bandwidth_mbps)
			p->node_bandwidth_mbps = t->node_bandwidth_mbps;
		if (t->tick_ns)
			p->tick_ns = t->tick_ns;
		if (t->kthread_rate_hz)
			p->kthread_rate_hz = t->kthread_rate_hz;
		if (t->kthread_ns)
			p->kthread_ns = t->kthread_ns;
	}
}

bool ss_parse_duration(const char *s, uint64_t *ns)
{
	/* DIGITS[.DIGITS][UNIT], exact in integers: no sign, exponent, hex,
	 * inf or nan (strtod() would take them), and a whole number of ns */
	static const struct { const char *unit; uint64_t mult; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "µs", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	uint64_t ip = 0, frac = 0, scale = 1, mult = 0, v;
	const char *p = s;
	unsigned nd = 0, nf = 0;

	if (!s)
		return false;
	for (; *p >= '0' && *p <= '9'; p++, nd++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return false;
		ip = ip * 10 + (uint64_t)(*p - '0');
	}
	if (!nd)
		return false;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, nf++) {
			if (nf >= 18)
				return false;   /* more than 18 decimals: finer than any unit's ns */
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
		if (!nf)
			return false;
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(p, units[i].unit))
			mult = units[i].mult;
	if (!mult)
		return false;
	/* the fraction must come to whole ns: frac × mult divisible by 10^nf */
	if ((unsigned __int128)frac * mult % scale)
		return false;
	if (ip > (uint64_t)(UINT64_C(18000000000000000000) / mult))
		return false;
	v = ip * mult + (uint64_t)((unsigned __int128)frac * mult / scale);
	if (v > UINT64_C(18000000000000000000))
		return false;
	*ns = v;
	return true;
}

static GString *valid_keys(const char *section, const char *policy)
{
	GString *s = g_string_new(NULL);
	if (!strcmp(section, "policy")) {
		const struct ss_policy *pol = ss_policy_find(policy ? policy : "sis_util");
		for (unsigned i = 0; pol && i < pol->nr_params; i++)
			g_string_append_printf(s, "%spolicy.%s", s->len ? ", " : "", pol->params[i].key);
		if (!s->len)
			g_string_append_printf(s, "none: policy %s has no parameters", policy ? policy : "sis_util");
		return s;
	}
	for (size_t i = 0; i < NR_PDEFS; i++)
		if (!strcmp(pdefs[i].section, section))
			g_string_append_printf(s, "%s%s.%s", s->len ? ", " : "", section, pdefs[i].key);
	return s;
}

bool ss_params_set(struct ss_params *p, const char *policy, const char *assignment, GError **err)
{
	const char *eq = strchr(assignment, '='), *dot = strchr(assignment, '.');
	if (!eq || !dot || dot > eq) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--set '%s': expected SECTION.KEY=VALUE (sections: cost, policy, balance, kernel, sis, stats)",
			    assignment);
		return false;
	}
	g_autofree char *section = g_strndup(assignment, (gsize)(dot - assignment));
	g_autofree char *key = g_strndup(dot + 1, (gsize)(eq - dot - 1));
	const char *val = eq + 1;

	if (strcmp(section, "cost") && strcmp(section, "policy") && strcmp(section, "balance") && strcmp(section, "kernel") &&
	    strcmp(section, "sis") && strcmp(section, "stats")) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--set '%s': unknown section '%s' (valid: cost, policy, balance, kernel, sis, stats)",
			    assignment, section);
		return false;
	}
	if (!strcmp(section, "policy")) {
		const struct ss_policy *pol = ss_policy_find(policy ? policy : "sis_util");
		for (unsigned i = 0; pol && i < pol->nr_params; i++) {
			const struct ss_policy_param *pp = &pol->params[i];
			char *end;
			long long v;
			if (strcmp(pp->key, key))
				continue;
			errno = 0;
			v = strtoll(val, &end, 10);
			if (errno || end == val || *end || v < pp->min || v > pp->max) {
				g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
					    "--set '%s': policy.%s takes an integer in %lld..%lld (%s)", assignment, key,
					    (long long)pp->min, (long long)pp->max, pp->unit);
				return false;
			}
			p->policy_values[i] = v;
			p->policy_set[i] = true;
			return true;
		}
		GString *vk = valid_keys(section, policy);
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--set '%s': unknown key '%s' (valid: %s)", assignment, key, vk->str);
		g_string_free(vk, TRUE);
		return false;
	}
	for (size_t i = 0; i < NR_PDEFS; i++) {
		const struct pdef *d = &pdefs[i];
		uint64_t v;
		if (strcmp(d->section, section) || strcmp(d->key, key))
			continue;
		if (d->type == P_NS) {
			if (!ss_parse_duration(val, &v))
				goto bad;
		} else if (d->type == P_INT) {
			char *end;
			errno = 0;
			if (*val == '-')
				goto bad;
			v = strtoull(val, &end, 10);
			if (errno || end == val || *end)
				goto bad;
		} else {
			char *end;
			double f;
			errno = 0;
			f = strtod(val, &end);
			if (errno || end == val || *end || !(f > 0.0) || f > 1.0)
				goto bad;
			v = (uint64_t)(f * 1024.0 + 0.5);
			if (v < 1)
				v = 1;
		}
		if (v < d->min || v > d->max)
			goto bad;
		*pfield(p, d) = v;
		return true;
	bad:
		if (d->type == P_RATIO1024)
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--set '%s': %s.%s takes a number in (0, 1]", assignment,
				    section, key);
		else
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--set '%s': %s.%s takes %s in %llu..%llu%s%s", assignment,
				    section, key, d->type == P_NS ? "a duration (ns, or with a unit us/ms/s)" : "an integer",
				    (unsigned long long)d->min, (unsigned long long)d->max, d->type == P_NS ? " ns" : "",
				    "");
		return false;
	}
	GString *vk = valid_keys(section, policy);
	g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--set '%s': unknown key '%s' (valid: %s)", assignment, key, vk->str);
	g_string_free(vk, TRUE);
	return false;
}

char *ss_params_help(const char *policy, const struct ss_topology *t)
{
	GString *s = g_string_new(NULL);
	struct ss_params defaults;
	ss_params_defaults(&defaults, t);
	for (size_t i = 0; i < NR_PDEFS; i++) {
		const struct pdef *d = &pdefs[i];
		uint64_t def = *pfield(&defaults, d);
		if (d->type == P_RATIO1024)
			g_string_append_printf(s, "  %s.%-20s default %.3f (%s)\n      %s\n", d->section, d->key,
					       (double)def / 1024.0, d->unit, d->doc);
		else
			g_string_append_printf(s, "  %s.%-20s default %llu %s\n      %s\n", d->section, d->key,
					       (unsigned long long)def, d->unit, d->doc);
	}
	const struct ss_policy *pol = ss_policy_find(policy ? policy : "sis_util");
	for (unsigned i = 0; pol && i < pol->nr_params; i++)
		g_string_append_printf(s, "  policy.%-20s default %lld %s\n      %s\n", pol->params[i].key,
				       (long long)pol->params[i].def, pol->params[i].unit, pol->params[i].doc);
	return g_string_free(s, FALSE);
}

bool ss_params_nth(unsigned i, const char **section, const char **key)
{
	if (i >= NR_PDEFS)
		return false;
	*section = pdefs[i].section;
	*key = pdefs[i].key;
	return true;
}

bool ss_params_resolve(const struct ss_params *p, const char *policy, const char *key, double *value)
{
	const char *eq = strchr(key, '='), *dot = strchr(key, '.');
	size_t len = eq ? (size_t)(eq - key) : strlen(key);

	if (!dot || dot >= key + len)
		return false;
	g_autofree char *section = g_strndup(key, (gsize)(dot - key));
	g_autofree char *name = g_strndup(dot + 1, (gsize)(key + len - dot - 1));
	if (!strcmp(section, "policy")) {
		const struct ss_policy *pol = ss_policy_find(policy ? policy : "sis_util");

		for (unsigned i = 0; pol && i < pol->nr_params && i < G_N_ELEMENTS(p->policy_values); i++) {
			if (strcmp(pol->params[i].key, name))
				continue;
			*value = (double)(p->policy_set[i] ? p->policy_values[i] : pol->params[i].def);
			return true;
		}
		return false;
	}
	for (size_t i = 0; i < NR_PDEFS; i++) {
		const struct pdef *d = &pdefs[i];

		if (strcmp(d->section, section) || strcmp(d->key, name))
			continue;
		uint64_t v = *(const uint64_t *)(const void *)((const char *)p + d->off);
		*value = d->type == P_RATIO1024 ? (double)v / 1024.0 : (double)v;
		return true;
	}
	return false;
}
