/*
 * test_benchmarks.c — the shipped benchmark workloads against their
 * programs (reference topologies-workloads.md B.1, B.4, B.7 and each
 * file's header): hackbench in its four modes, schbench before the 2023
 * rewrite and the 2016 file's worker count, the UnixBench tests, the wide
 * burst of S19. For each, the sleep/wake graph as the
 * interpreter gives it (messages per loop, fan-out, which wakeups carry
 * WF_SYNC, how tasks are created, the timing parameters, the parameters'
 * effect), then a short run on a shipped machine whose per-task actions and
 * figure must be those of the benchmark.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "simsched/error.h"
#include "simsched/rng.h"
#include "simsched/sim.h"
#include "simsched/topology.h"
#include "simsched/workload.h"

#define WL(f) SS_SOURCE_DIR "/workloads/" f
#define US 1000ull
#define MS 1000000ull

static struct ss_topology *kunpeng, *spr, *epyc;

static int setup(void **state)
{
	GError *err = NULL;

	(void)state;
	kunpeng = ss_topology_load(SS_SOURCE_DIR "/topologies/kunpeng920.yaml", &err);
	spr = ss_topology_load(SS_SOURCE_DIR "/topologies/spr224.yaml", &err);
	epyc = ss_topology_load(SS_SOURCE_DIR "/topologies/epyc9654.yaml", &err);
	return !kunpeng || !spr || !epyc;
}

static int teardown(void **state)
{
	(void)state;
	ss_topology_free(kunpeng);
	ss_topology_free(spr);
	ss_topology_free(epyc);
	return 0;
}

static struct ss_workload *load(const char *path, const char *const *set)
{
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_params(path, set, &err);

	if (!w)
		fail_msg("%s: %s", path, err->message);
	return w;
}

static struct ss_wl_plan *plan(const struct ss_workload *w, unsigned load_pct_x100, unsigned cpus)
{
	GError *err = NULL;
	struct ss_wl_plan *p = ss_workload_instantiate(w, load_pct_x100, cpus, &err);

	if (!p)
		fail_msg("%s", err->message);
	return p;
}

/* ---- walking one task's program ---- */

struct walk {
	const struct ss_wl_plan *p;
	uint32_t task;
	struct ss_wl_cursor c;
	struct ss_rng r;
};

static void walk_init(struct walk *k, const struct ss_wl_plan *p, uint32_t task)
{
	k->p = p;
	k->task = task;
	ss_wl_cursor_init(&k->c);
	ss_rng_seed(&k->r, 1, ss_rng_stream_id(p->task[task].path));
}

static struct ss_wl_action step(struct walk *k, enum ss_wl_action_kind kind)
{
	struct ss_wl_action a;

	ss_wl_next(k->p, k->task, &k->c, &k->r, &a);
	if (a.kind != kind)
		fail_msg("%s: action %d, expected %d", k->p->task[k->task].path, (int)a.kind, (int)kind);
	return a;
}

/* a RUN / RUN_WALL / SLEEP of lo..hi ns */
static void run_in(struct walk *k, enum ss_wl_action_kind kind, uint64_t lo, uint64_t hi)
{
	struct ss_wl_action a = step(k, kind);

	if (a.ns < lo || a.ns > hi)
		fail_msg("%s: %llu ns, expected %llu..%llu", k->p->task[k->task].path, (unsigned long long)a.ns,
			 (unsigned long long)lo, (unsigned long long)hi);
}

/* a WAKE or SEND to target (first of a set of nr with pick), its WF_SYNC and if_waiting */
static void to(struct walk *k, enum ss_wl_action_kind kind, uint32_t target, uint32_t nr, uint8_t pick, bool sync,
	       bool if_waiting)
{
	struct ss_wl_action a = step(k, kind);

	assert_int_equal(a.target, target);
	assert_int_equal(a.nr, nr);
	assert_int_equal(a.pick, pick);
	assert_int_equal(a.sync, sync);
	assert_int_equal(a.if_waiting, if_waiting);
}

static void counted(struct walk *k, enum ss_wl_action_kind kind, uint32_t count)
{
	assert_int_equal(step(k, kind).count, count);
}

static void spawns(struct walk *k, uint32_t target, uint32_t nr, uint32_t count)
{
	struct ss_wl_action a = step(k, SS_ACT_SPAWN);

	assert_int_equal(a.target, target);
	assert_int_equal(a.nr, nr);
	assert_int_equal(a.count, count);
}

/* ---- recording a run ---- */

#define MAXA 400000
#include "action_trace.h"

static unsigned count(const struct trace *tr, unsigned task, enum ss_wl_action_kind k)
{
	unsigned n = 0;

	for (unsigned i = 0; i < tr->n; i++)
		n += tr->e[i].task == task && tr->e[i].a.kind == k;
	return n;
}

static struct ss_results *simulate(const struct ss_topology *t, const struct ss_workload *w, const char *nodes,
				   unsigned load_pct_x100, uint64_t warmup, uint64_t duration, struct trace *tr)
{
	GError *err = NULL;
	struct ss_run_config c = { 0 };
	struct ss_results *r;

	c.topo = t;
	c.wl = w;
	c.nodes = nodes;
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = load_pct_x100;
	c.seed = 5;
	c.warmup_ns = warmup;
	c.duration_ns = duration;
	c.trace = tr ? record : NULL;
	c.trace_ctx = tr;
	r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	return r;
}

/* ---- hackbench ---- */

static const struct hb_mode {
	const char *file;
	uint64_t create_lo, create_hi;   /* the parent's fork() / pthread_create() per child */
	uint64_t start_lo, start_hi;     /* the child's first steps */
	uint64_t exit_lo, exit_hi;       /* its exit before the parent hears of it */
	bool exit_sync;                  /* do_notify_parent() (WF_SYNC) or the CLEARTID futex (none) */
	uint32_t buffer;                 /* 100-byte messages a pipe / unix socket holds */
} hb_modes[] = {
	{ WL("hackbench-process-pipes.yaml"), 40 * US, 60 * US, 10 * US, 20 * US, 15 * US, 25 * US, true, 640 },
	{ WL("hackbench-process-sockets.yaml"), 40 * US, 60 * US, 10 * US, 20 * US, 15 * US, 25 * US, true, 238 },
	{ WL("hackbench-thread-pipes.yaml"), 8 * US, 12 * US, 2 * US, 4 * US, 4 * US, 6 * US, false, 640 },
	{ WL("hackbench-thread-sockets.yaml"), 8 * US, 12 * US, 2 * US, 4 * US, 4 * US, 6 * US, false, 238 },
};

/*
 * The graph: per group a parent, num_fds receivers and num_fds senders;
 * the parent creates receivers then senders, collects one ready token per
 * child, meets the other groups' parents, marks the start, kicks every
 * child off with WF_SYNC, reaps 2 x num_fds children and marks the end.
 * A sender writes loops x num_fds messages round robin over the group's
 * receivers (each receiver once per num_fds writes); a receiver reads
 * num_fds x loops. Seed 000's 14 fds: 28 tasks per group, 1..8 groups at
 * 25..200 % of 112 CPUs.
 */
static void test_hackbench_graph(void **state)
{
	static const char *const s000[] = { "num_fds=14", "loops=3", NULL };

	(void)state;
	for (unsigned m = 0; m < G_N_ELEMENTS(hb_modes); m++) {
		const struct hb_mode *hm = &hb_modes[m];
		struct ss_workload *w = load(hm->file, s000);
		struct ss_wl_plan *p;
		struct walk k;
		const uint32_t nf = 14, rcv = 1, snd = 1 + nf, msgs = 3 * nf;

		/* defaults: perf's num_fds 20 and 100 loops; 1 group per 40 CPUs */
		{
			struct ss_workload *d = load(hm->file, NULL);

			assert_int_equal(ss_workload_nr_params(d), 3);
			assert_true(ss_workload_param(d, 0)->value == 20 && !strcmp(ss_workload_param(d, 0)->name, "num_fds"));
			assert_true(ss_workload_param(d, 1)->value == 100 && !strcmp(ss_workload_param(d, 1)->name, "loops"));
			assert_true(ss_workload_param(d, 2)->value == hm->buffer);
			assert_int_equal(ss_workload_tasks_per_instance(d), 41);
			p = plan(d, 10000, 80);
			assert_int_equal(p->nr_instances, 2);
			ss_wl_plan_free(p);
			ss_workload_free(d);
		}
		assert_true(ss_workload_metric(w)->from_begin);
		assert_int_equal(ss_workload_metric(w)->measure, SS_MEASURE_FINISH);
		assert_int_equal(ss_workload_tasks_per_instance(w), 29);
		for (unsigned g = 1; g <= 8; g++) {
			p = plan(w, 2500 * g, 112);
			assert_int_equal(p->nr_instances, g);
			ss_wl_plan_free(p);
		}
		p = plan(w, 2500, 112);
		assert_string_equal(ss_workload_role_name(w, 0), "parent");
		assert_string_equal(ss_workload_role_name(w, 1), "receiver");
		assert_string_equal(ss_workload_role_name(w, 2), "sender");
		/* the parent starts where the harness runs; children are forked, not placed */
		assert_true(p->task[0].start_cpu == 0 && p->task[0].start_cpu_is_index && !p->task[0].spawned);
		for (uint32_t t = 1; t < 29; t++)
			assert_true(p->task[t].spawned);
		for (uint32_t t = rcv; t < rcv + nf; t++)
			assert_int_equal(p->task[t].channel_capacity, hm->buffer);
		assert_int_equal(p->task[snd].channel_capacity, 0);

		walk_init(&k, p, 0);
		for (uint32_t i = 0; i < nf; i++) {
			run_in(&k, SS_ACT_RUN, hm->create_lo, hm->create_hi);
			spawns(&k, rcv, nf, 1);
		}
		for (uint32_t i = 0; i < nf; i++) {
			run_in(&k, SS_ACT_RUN, hm->create_lo, hm->create_hi);
			spawns(&k, snd, nf, 1);
		}
		for (uint32_t i = 0; i < 2 * nf; i++)
			counted(&k, SS_ACT_WAIT, 1);                 /* read(readyfds) */
		counted(&k, SS_ACT_BARRIER, 1);                      /* every group's parent: 1 group */
		step(&k, SS_ACT_TXN_BEGIN);
		run_in(&k, SS_ACT_RUN, 1 * US, 1 * US);
		to(&k, SS_ACT_WAKE, rcv, nf, SS_PICK_ALL, true, false);   /* write(wakefds): WF_SYNC */
		to(&k, SS_ACT_WAKE, snd, nf, SS_PICK_ALL, true, false);
		for (uint32_t i = 0; i < 2 * nf; i++) {
			counted(&k, SS_ACT_WAIT, 1);                 /* wait() / pthread_join() */
			run_in(&k, SS_ACT_RUN, 2 * US, 2 * US);
		}
		step(&k, SS_ACT_TXN_END);
		step(&k, SS_ACT_EXIT);

		walk_init(&k, p, rcv + 5);
		run_in(&k, SS_ACT_RUN, hm->start_lo, hm->start_hi);
		to(&k, SS_ACT_WAKE, 0, 1, SS_PICK_ONE, true, false);     /* ready(): a pipe/socket write, WF_SYNC */
		counted(&k, SS_ACT_WAIT, 1);                          /* poll(wakefd) */
		for (uint32_t i = 0; i < msgs; i++) {
			counted(&k, SS_ACT_RECV, 1);
			run_in(&k, SS_ACT_RUN, 900, 1700);
		}
		run_in(&k, SS_ACT_RUN, hm->exit_lo, hm->exit_hi);
		to(&k, SS_ACT_WAKE, 0, 1, SS_PICK_ONE, hm->exit_sync, false);
		step(&k, SS_ACT_EXIT);

		walk_init(&k, p, snd + 13);
		run_in(&k, SS_ACT_RUN, hm->start_lo, hm->start_hi);
		to(&k, SS_ACT_WAKE, 0, 1, SS_PICK_ONE, true, false);
		counted(&k, SS_ACT_WAIT, 1);
		for (uint32_t i = 0; i < msgs; i++) {
			run_in(&k, SS_ACT_RUN, 900, 1700);
			to(&k, SS_ACT_SEND, rcv, nf, SS_PICK_RR, true, false);   /* pipe_write / sock_def_readable: WF_SYNC */
		}
		run_in(&k, SS_ACT_RUN, hm->exit_lo, hm->exit_hi);
		to(&k, SS_ACT_WAKE, 0, 1, SS_PICK_ONE, hm->exit_sync, false);
		step(&k, SS_ACT_EXIT);
		ss_wl_plan_free(p);

		/* the start barrier is one for all groups: 8 parties at 8 groups */
		p = plan(w, 20000, 112);
		walk_init(&k, p, 7 * 29);
		for (uint32_t i = 0; i < 2 * nf; i++) {
			step(&k, SS_ACT_RUN);
			step(&k, SS_ACT_SPAWN);
		}
		for (uint32_t i = 0; i < 2 * nf; i++)
			step(&k, SS_ACT_WAIT);
		counted(&k, SS_ACT_BARRIER, 8);
		ss_wl_plan_free(p);
		ss_workload_free(w);
	}
}

/*
 * One group of 14 fds x 20 loops on Kunpeng 920, each mode: 28 children
 * forked, every one ready before the start mark and no message before it;
 * 280 writes per sender and 280 reads per receiver; the kick-off and the
 * exits as the graph says; the figure counts from the mark and is sane.
 */
static void test_hackbench_run(void **state)
{
	static const char *const set[] = { "num_fds=14", "loops=20", NULL };

	(void)state;
	for (unsigned m = 0; m < G_N_ELEMENTS(hb_modes); m++) {
		const struct hb_mode *hm = &hb_modes[m];
		struct ss_workload *w = load(hm->file, set);
		struct trace *tr = g_new0(struct trace, 1);
		struct ss_results *r = simulate(kunpeng, w, NULL, 2500, 0, 1000 * MS, tr);
		uint64_t begin = 0, first_send = UINT64_MAX, last_ready = 0;
		unsigned sync_wakes = 0, plain_wakes = 0;

		assert_int_equal(r->nr_instances, 1);
		assert_int_equal(r->nr_tasks, 29);
		assert_int_equal(count(tr, 0, SS_ACT_SPAWN), 28);
		assert_int_equal(count(tr, 0, SS_ACT_TXN_BEGIN), 1);
		/* a burst after every read and before every write, besides the start
		 * and exit bursts (a recv that blocks is taken again when woken:
		 * its action repeats, the burst does not) */
		for (unsigned t = 1; t <= 28; t++) {
			assert_int_equal(count(tr, t, SS_ACT_RUN), 282);
			assert_int_equal(count(tr, t, SS_ACT_EXIT), 1);
			assert_true(count(tr, t, t <= 14 ? SS_ACT_RECV : SS_ACT_SEND) >= 280);
		}
		assert_int_equal(count(tr, 0, SS_ACT_EXIT), 1);
		bool ready[29] = { false };

		for (unsigned i = 0; i < tr->n; i++) {
			const struct ss_wl_action *a = &tr->e[i].a;
			unsigned t = tr->e[i].task;

			if (t == 0 && a->kind == SS_ACT_TXN_BEGIN)
				begin = tr->e[i].t;
			if (a->kind == SS_ACT_SEND && tr->e[i].t < first_send)
				first_send = tr->e[i].t;
			if (t && a->kind == SS_ACT_WAKE) {
				sync_wakes += a->sync;
				plain_wakes += !a->sync;
				if (!ready[t]) {   /* a child's first wake is its ready() write */
					ready[t] = true;
					if (tr->e[i].t > last_ready)
						last_ready = tr->e[i].t;
				}
			}
		}
		/* 28 ready writes (WF_SYNC) and 28 exits, WF_SYNC for processes only */
		assert_int_equal(sync_wakes, hm->exit_sync ? 56 : 28);
		assert_int_equal(plain_wakes, hm->exit_sync ? 0 : 28);
		/* the handshake: forking 28 children takes at least 28 x the creation cost,
		 * all are ready before the mark, and nobody writes before it */
		assert_true(begin >= 28 * hm->create_lo);
		assert_true(last_ready > 0 && last_ready <= begin);
		assert_true(first_send >= begin);
		assert_int_equal(r->warmup_ns, begin);
		/* the figure: from the mark to the last exit; a receiver alone needs
		 * 280 x 0.9 us, and one group on 128 CPUs finishes in a few ms */
		assert_int_equal(r->finish_ns, r->duration_ns);
		assert_true(ss_results_metric_value(r) == (double)r->finish_ns / 1e9);
		if (r->finish_ns < 252 * US || r->finish_ns > 20 * MS)
			fail_msg("%s: %llu ns", hm->file, (unsigned long long)r->finish_ns);
		ss_results_free(r);
		ss_workload_free(w);
		g_free(tr);
	}
}

/* ---- schbench before the rewrite ---- */

/*
 * S04's command line, -t 28 -s 30000 -c 30000 (message_cputime 30000):
 * main creates the message thread, which creates its 28 workers; the
 * message thread wakes the waiting workers one by one (futex: no WF_SYNC,
 * only those blocked in their wait), waits for a post, spins 30 ms of wall
 * time and sleeps 30..37.5 ms; a worker posts (no WF_SYNC, only if the
 * message thread waits), waits and spins 30 ms. One message thread per 28
 * CPUs at 100 %.
 */
static void test_schbench_old_graph(void **state)
{
	static const char *const s04[] = { "workers=28", NULL };
	struct ss_workload *w = load(WL("schbench-old.yaml"), s04), *d = load(WL("schbench-old.yaml"), NULL);
	const struct ss_wl_metric *mt = ss_workload_metric(w);
	struct ss_wl_plan *p;
	struct walk k;
	const uint32_t msg = 1, wk = 2, nw = 28;

	(void)state;
	/* defaults as schbench's: -t 16, -c/-s/-C 30000 usec */
	assert_int_equal(ss_workload_tasks_per_instance(d), 18);
	assert_true(ss_workload_param(d, 0)->value == 16 && ss_workload_param(d, 1)->value == 30000 &&
		    ss_workload_param(d, 2)->value == 30000 && ss_workload_param(d, 3)->value == 30000);
	ss_workload_free(d);
	assert_int_equal(mt->measure, SS_MEASURE_WAKEUP_PCT);
	assert_int_equal(mt->percentile_x10, 990);
	assert_true(mt->roles && !mt->roles[0] && !mt->roles[1] && mt->roles[2]);   /* workers only */
	assert_int_equal(ss_workload_tasks_per_instance(w), 30);
	for (unsigned g = 1; g <= 8; g++) {
		p = plan(w, 2500 * g, 112);
		assert_int_equal(p->nr_instances, g);
		ss_wl_plan_free(p);
	}
	p = plan(w, 2500, 112);
	assert_true(p->task[0].start_cpu == 0 && p->task[0].start_cpu_is_index && !p->task[0].spawned);
	for (uint32_t t = 1; t < 30; t++)
		assert_true(p->task[t].spawned);

	walk_init(&k, p, 0);
	run_in(&k, SS_ACT_RUN, 8 * US, 12 * US);
	spawns(&k, msg, 1, 1);
	for (int i = 0; i < 3; i++) {
		run_in(&k, SS_ACT_SLEEP, 1000 * MS, 1000 * MS);
		run_in(&k, SS_ACT_RUN, 5 * US, 5 * US);
	}

	walk_init(&k, p, msg);
	for (uint32_t i = 0; i < nw; i++) {
		run_in(&k, SS_ACT_RUN, 8 * US, 12 * US);
		spawns(&k, wk, nw, 1);
	}
	for (int cycle = 0; cycle < 3; cycle++) {
		for (uint32_t i = 0; i < nw; i++) {
			to(&k, SS_ACT_WAKE, wk, nw, SS_PICK_RR, false, true);
			run_in(&k, SS_ACT_RUN, 1 * US, 1 * US);
		}
		counted(&k, SS_ACT_WAIT, 1);
		run_in(&k, SS_ACT_RUN_WALL, 30 * MS, 30 * MS);
		run_in(&k, SS_ACT_SLEEP, 30 * MS, 37499 * US);
	}

	walk_init(&k, p, wk + 27);
	for (int cycle = 0; cycle < 3; cycle++) {
		to(&k, SS_ACT_WAKE, msg, 1, SS_PICK_ONE, false, true);
		counted(&k, SS_ACT_WAIT, 1);
		run_in(&k, SS_ACT_RUN_WALL, 30 * MS, 30 * MS);
	}
	ss_wl_plan_free(p);
	ss_workload_free(w);

	/* the timing parameters follow -c, -s and -C */
	{
		static const char *const fast[] = { "cputime=2000", "sleeptime=1000", "message_cputime=500", NULL };
		w = load(WL("schbench-old.yaml"), fast);
		p = plan(w, 10000, 16);
		walk_init(&k, p, msg);
		for (uint32_t i = 0; i < 16; i++) {
			step(&k, SS_ACT_RUN);
			step(&k, SS_ACT_SPAWN);
		}
		for (uint32_t i = 0; i < 16; i++) {
			step(&k, SS_ACT_WAKE);
			step(&k, SS_ACT_RUN);
		}
		step(&k, SS_ACT_WAIT);
		run_in(&k, SS_ACT_RUN_WALL, 500 * US, 500 * US);
		run_in(&k, SS_ACT_SLEEP, 1000 * US, 1249 * US);
		walk_init(&k, p, 2);
		step(&k, SS_ACT_WAKE);
		step(&k, SS_ACT_WAIT);
		run_in(&k, SS_ACT_RUN_WALL, 2000 * US, 2000 * US);
		ss_wl_plan_free(p);
		ss_workload_free(w);
	}
}

/*
 * S04's machine and settings at one message thread (M112 = spr224 --nodes
 * 0, -t 28): a cycle is a 30 ms worker spin, a 30 ms message spin and a
 * 30..37.5 ms sleep, so 2 s hold about 21 cycles of 28 worker wakeups; the
 * figure is their 99th percentile, the wakeups of an idle machine (the
 * deepest C-state's exit is 290 us on this machine).
 */
static void test_schbench_old_run(void **state)
{
	static const char *const s04[] = { "workers=28", NULL };
	struct ss_workload *w = load(WL("schbench-old.yaml"), s04);
	struct trace *tr = g_new0(struct trace, 1);
	struct ss_results *r = simulate(spr, w, "0", 2500, 1000 * MS, 2000 * MS, tr);
	double p99 = ss_results_metric_value(r);
	unsigned posts = 0, kicks = 0;

	(void)state;
	assert_int_equal(r->nr_allowed_cpus, 112);
	assert_int_equal(r->nr_tasks, 30);
	if (r->metric_latency.n < 500 || r->metric_latency.n > 700)
		fail_msg("%llu worker wakeups", (unsigned long long)r->metric_latency.n);
	if (!(p99 >= 1.0 && p99 <= 1000.0))
		fail_msg("p99 %.1f us", p99);
	assert_true(p99 == (double)ss_lat_hist_quantile(&r->metric_latency, 0.99) / 1000.0);
	/* every worker spun in every cycle: 28 x (cycles + the first) spins, all 30 ms */
	for (unsigned i = 0; i < tr->n; i++) {
		if (tr->e[i].task >= 2 && tr->e[i].a.kind == SS_ACT_RUN_WALL)
			assert_int_equal(tr->e[i].a.ns, 30 * MS);
		posts += tr->e[i].task >= 2 && tr->e[i].a.kind == SS_ACT_WAKE;
		kicks += tr->e[i].task == 1 && tr->e[i].a.kind == SS_ACT_RUN_WALL;
	}
	assert_true(kicks >= 28 && kicks <= 34);                 /* ~95 ms per cycle over 3 s */
	/* a worker posts once at its start and once after each spin */
	assert_true(posts >= 28 * kicks && posts <= 28 * (kicks + 2));
	ss_results_free(r);
	ss_workload_free(w);
	g_free(tr);
}

/* ---- schbench 2016: workers per message thread ---- */

/*
 * The 2016 file's default is -t 4 (5 tasks, one instance per 5 CPUs at
 * 100 %); `workers` sets -t, and instances_per_cpu = 1/(workers + 1)
 * follows exactly. Seed 004's t1..t512 rows: one message thread with N
 * workers on 384 CPUs: the message thread wakes all N waiting workers at
 * once (futex: no WF_SYNC, only those waiting), waits for a post and
 * sleeps 10..12.5 ms.
 */
static void test_schbench_workers(void **state)
{
	static const char *const t512[] = { "workers=512", NULL };
	struct ss_workload *d = load(WL("schbench.yaml"), NULL), *w = load(WL("schbench.yaml"), t512);
	struct ss_wl_plan *p;
	struct walk k;

	(void)state;
	assert_int_equal(ss_workload_nr_params(d), 1);
	assert_string_equal(ss_workload_param(d, 0)->name, "workers");
	assert_int_equal(ss_workload_param(d, 0)->value, 4);
	assert_int_equal(ss_workload_tasks_per_instance(d), 6);   /* main, message, 4 workers */
	p = plan(d, 10000, 20);                 /* 0.2 per CPU, as the file said before the parameter */
	assert_int_equal(p->nr_instances, 4);
	ss_wl_plan_free(p);
	p = plan(d, 2500, 128);                 /* 6.4 -> 6 */
	assert_int_equal(p->nr_instances, 6);
	ss_wl_plan_free(p);

	assert_int_equal(ss_workload_tasks_per_instance(w), 514);
	p = plan(w, 6679, 384);                 /* 384 x 0.6679 / 513 = 0.49996: max(1, 0) */
	assert_int_equal(p->nr_instances, 1);
	ss_wl_plan_free(p);
	p = plan(w, 20040, 384);                /* 1.50006 -> 2: the second message thread */
	assert_int_equal(p->nr_instances, 2);
	ss_wl_plan_free(p);
	p = plan(w, 20030, 384);                /* 1.49931 -> 1 */
	assert_int_equal(p->nr_instances, 1);
	/* main (task 0, on the first allowed CPU) creates the message thread (task 1), which creates the workers */
	assert_true(p->task[0].start_cpu == 0 && p->task[0].start_cpu_is_index && !p->task[0].spawned);
	for (uint32_t t = 1; t < 514; t++)
		assert_true(p->task[t].spawned);
	walk_init(&k, p, 0);
	run_in(&k, SS_ACT_RUN, 8 * US, 12 * US);
	spawns(&k, 1, 1, 1);
	for (int i = 0; i < 3; i++) {
		run_in(&k, SS_ACT_SLEEP, 1000 * MS, 1000 * MS);
		run_in(&k, SS_ACT_RUN, 5 * US, 5 * US);
	}
	walk_init(&k, p, 1);
	for (uint32_t i = 0; i < 512; i++) {
		run_in(&k, SS_ACT_RUN, 8 * US, 12 * US);
		spawns(&k, 2, 512, 1);
	}
	for (int cycle = 0; cycle < 3; cycle++) {
		to(&k, SS_ACT_WAKE, 2, 512, SS_PICK_ALL, false, true);
		counted(&k, SS_ACT_WAIT, 1);
		run_in(&k, SS_ACT_SLEEP, 10 * MS, 12500 * US);
	}
	walk_init(&k, p, 513);
	for (int cycle = 0; cycle < 3; cycle++) {
		run_in(&k, SS_ACT_RUN_WALL, 10 * MS, 10 * MS);
		to(&k, SS_ACT_WAKE, 1, 1, SS_PICK_ONE, false, true);
		counted(&k, SS_ACT_WAIT, 1);
	}
	ss_wl_plan_free(p);
	ss_workload_free(w);
	ss_workload_free(d);
}

/* ---- burst-fanout: K workers woken at once every period ---- */

/*
 * S19's storm: one dispatcher on an absolute 20 ms timer wakes all K
 * workers in one statement (no WF_SYNC); each runs uniform 1..5 ms and
 * waits. On Kunpeng 920 (128 CPUs) with K = 64 over 210 ms: 10 bursts,
 * each worker runs once per burst, within the burst's period, inside the
 * range; the parameters move the period and the range.
 */
static void test_burst_fanout(void **state)
{
	static const char *const k64[] = { "workers=64", NULL };
	static const char *const alt[] = { "workers=3", "period_us=5000", "run_min_us=200", "run_max_us=300", NULL };
	struct ss_workload *w = load(WL("burst-fanout.yaml"), NULL);
	struct trace *tr = g_new0(struct trace, 1);
	struct ss_results *r;
	struct ss_wl_plan *p;
	struct walk k;
	uint64_t wake_t[16];
	unsigned nwake = 0, nruns = 0, per_worker[64] = { 0 };

	(void)state;
	assert_int_equal(ss_workload_nr_params(w), 4);
	assert_int_equal(ss_workload_param(w, 0)->value, 64);
	assert_int_equal(ss_workload_param(w, 1)->value, 20000);
	assert_int_equal(ss_workload_param(w, 2)->value, 1000);
	assert_int_equal(ss_workload_param(w, 3)->value, 5000);
	assert_int_equal(ss_workload_tasks_per_instance(w), 65);
	p = plan(w, 10000, 130);                /* 1/65 per CPU: 2 storms at 100 % of 130 CPUs */
	assert_int_equal(p->nr_instances, 2);
	ss_wl_plan_free(p);
	p = plan(w, 5000, 128);                 /* 0.98 -> 1 */
	assert_int_equal(p->nr_instances, 1);
	walk_init(&k, p, 0);
	for (int cycle = 0; cycle < 3; cycle++) {
		assert_int_equal(step(&k, SS_ACT_TIMER).ns, 20 * MS);
		run_in(&k, SS_ACT_RUN, 20 * US, 40 * US);
		to(&k, SS_ACT_WAKE, 1, 64, SS_PICK_ALL, false, false);
	}
	walk_init(&k, p, 64);
	for (int cycle = 0; cycle < 3; cycle++) {
		counted(&k, SS_ACT_WAIT, 1);
		run_in(&k, SS_ACT_RUN, 1 * MS, 5 * MS);
	}
	ss_wl_plan_free(p);
	ss_workload_free(w);

	w = load(WL("burst-fanout.yaml"), k64);
	r = simulate(kunpeng, w, NULL, 5000, 0, 210 * MS, tr);
	assert_int_equal(r->nr_instances, 1);
	assert_int_equal(r->nr_tasks, 65);
	for (unsigned i = 0; i < tr->n; i++)
		if (tr->e[i].task == 0 && tr->e[i].a.kind == SS_ACT_WAKE) {
			assert_true(nwake < 16);
			wake_t[nwake++] = tr->e[i].t;
		}
	assert_int_equal(nwake, 10);            /* at 20, 40, ..., 200 ms (+ 20..40 us) */
	for (unsigned b = 0; b < nwake; b++)
		if (wake_t[b] < (b + 1) * 20 * MS + 20 * US || wake_t[b] > (b + 1) * 20 * MS + 1 * MS)
			fail_msg("burst %u woken at %llu ns", b, (unsigned long long)wake_t[b]);
	for (unsigned i = 0; i < tr->n; i++) {
		unsigned t = tr->e[i].task;

		if (t == 0 || tr->e[i].a.kind != SS_ACT_RUN)
			continue;
		if (tr->e[i].a.ns < 1 * MS || tr->e[i].a.ns > 5 * MS)
			fail_msg("worker %u runs %llu ns", t, (unsigned long long)tr->e[i].a.ns);
		/* within the period of the burst that woke it */
		assert_true(nruns < 64 * 10);
		for (unsigned b = 0;; b++) {
			assert_true(b < nwake);
			if (tr->e[i].t >= wake_t[b] && tr->e[i].t < wake_t[b] + 20 * MS)
				break;
		}
		per_worker[t - 1]++;
		nruns++;
	}
	assert_int_equal(nruns, 64 * 10);
	for (unsigned i = 0; i < 64; i++)
		assert_int_equal(per_worker[i], 10);
	ss_results_free(r);
	ss_workload_free(w);

	w = load(WL("burst-fanout.yaml"), alt);
	p = plan(w, 10000, 8);                  /* 1/4 per CPU */
	assert_int_equal(p->nr_instances, 2);
	walk_init(&k, p, 0);
	assert_int_equal(step(&k, SS_ACT_TIMER).ns, 5 * MS);
	run_in(&k, SS_ACT_RUN, 20 * US, 40 * US);
	to(&k, SS_ACT_WAKE, 1, 3, SS_PICK_ALL, false, false);
	walk_init(&k, p, 3);
	counted(&k, SS_ACT_WAIT, 1);
	run_in(&k, SS_ACT_RUN, 200 * US, 300 * US);
	ss_wl_plan_free(p);
	ss_workload_free(w);
	g_free(tr);
}

/* ---- UnixBench ---- */

/*
 * Each copy: Run's child on the first allowed CPU forks the test program
 * (the fork path). dhry2reg: one busy task. context1: a master forks a
 * slave; per loop a write waking the slave and a read waiting for its
 * answer, both pipe wakeups WF_SYNC. spawn: fork, wait, the child's exit
 * wakes the parent with WF_SYNC. execl: one image at a time, each exec a
 * new placement from the CPU of the old one.
 */
static void test_unixbench_graph(void **state)
{
	struct ss_workload *w;
	struct ss_wl_plan *p;
	struct walk k;
	static const char *const files[] = { "unixbench-dhry2reg.yaml", "unixbench-context1.yaml", "unixbench-spawn.yaml",
					     "unixbench-execl.yaml" };

	(void)state;
	for (unsigned f = 0; f < G_N_ELEMENTS(files); f++) {
		char *path = g_strconcat(SS_SOURCE_DIR "/workloads/", files[f], NULL);

		w = load(path, NULL);
		g_free(path);
		assert_int_equal(ss_workload_instances_per_cpu_x1000(w), 1000);   /* one copy per CPU */
		assert_int_equal(ss_workload_metric(w)->measure, SS_MEASURE_TXN_RATE);
		assert_true(ss_workload_metric(w)->higher_is_better);
		p = plan(w, 10000, 384);
		assert_int_equal(p->nr_instances, 384);
		assert_true(p->task[0].start_cpu == 0 && p->task[0].start_cpu_is_index && !p->task[0].spawned);
		walk_init(&k, p, 0);
		run_in(&k, SS_ACT_RUN, 400 * US, 600 * US);
		spawns(&k, 1, 1, 1);                              /* the test process (execl: one task, it execs) */
		step(&k, SS_ACT_EXIT);
		for (uint32_t t = 1; t < p->tasks_per_instance; t++)
			assert_true(p->task[t].spawned);
		ss_wl_plan_free(p);
		p = plan(w, 1, 384);                                   /* a single copy */
		assert_int_equal(p->nr_instances, 1);
		ss_wl_plan_free(p);
		ss_workload_free(w);
	}

	w = load(WL("unixbench-dhry2reg.yaml"), NULL);
	p = plan(w, 10000, 1);
	walk_init(&k, p, 1);
	for (int i = 0; i < 5; i++) {
		step(&k, SS_ACT_TXN_BEGIN);
		run_in(&k, SS_ACT_RUN, 1 * MS, 1 * MS);
		step(&k, SS_ACT_TXN_END);
	}
	ss_wl_plan_free(p);
	ss_workload_free(w);

	w = load(WL("unixbench-context1.yaml"), NULL);
	p = plan(w, 10000, 1);
	assert_int_equal(p->tasks_per_instance, 3);
	walk_init(&k, p, 1);                                           /* master */
	run_in(&k, SS_ACT_RUN, 50 * US, 50 * US);
	spawns(&k, 2, 1, 1);
	for (int i = 0; i < 5; i++) {
		step(&k, SS_ACT_TXN_BEGIN);
		run_in(&k, SS_ACT_RUN, 900, 1700);
		to(&k, SS_ACT_WAKE, 2, 1, SS_PICK_ONE, true, false);
		counted(&k, SS_ACT_WAIT, 1);
		run_in(&k, SS_ACT_RUN, 900, 1700);
		step(&k, SS_ACT_TXN_END);
	}
	walk_init(&k, p, 2);                                           /* slave */
	for (int i = 0; i < 5; i++) {
		counted(&k, SS_ACT_WAIT, 1);
		run_in(&k, SS_ACT_RUN, 900, 1700);
		run_in(&k, SS_ACT_RUN, 900, 1700);
		to(&k, SS_ACT_WAKE, 1, 1, SS_PICK_ONE, true, false);
	}
	ss_wl_plan_free(p);
	ss_workload_free(w);

	w = load(WL("unixbench-spawn.yaml"), NULL);
	p = plan(w, 10000, 1);
	assert_int_equal(p->tasks_per_instance, 18);   /* run, parent, 16 child slots */
	walk_init(&k, p, 1);                                           /* the looping parent */
	for (int i = 0; i < 5; i++) {
		step(&k, SS_ACT_TXN_BEGIN);
		run_in(&k, SS_ACT_RUN, 40 * US, 60 * US);
		spawns(&k, 2, 16, 1);
		counted(&k, SS_ACT_WAIT, 1);
		run_in(&k, SS_ACT_RUN, 3 * US, 3 * US);
		step(&k, SS_ACT_TXN_END);
	}
	walk_init(&k, p, 3);                                           /* a child */
	run_in(&k, SS_ACT_RUN, 15 * US, 25 * US);
	to(&k, SS_ACT_WAKE, 1, 1, SS_PICK_ONE, true, false);
	step(&k, SS_ACT_EXIT);
	ss_wl_plan_free(p);
	ss_workload_free(w);

	w = load(WL("unixbench-execl.yaml"), NULL);
	p = plan(w, 10000, 1);
	assert_int_equal(p->tasks_per_instance, 2);    /* run + the test process */
	walk_init(&k, p, 1);                                           /* its images, one exec each */
	for (unsigned i = 0; i < 3; i++) {
		step(&k, SS_ACT_TXN_BEGIN);
		run_in(&k, SS_ACT_RUN, 150 * US, 250 * US);
		step(&k, SS_ACT_TXN_END);
		step(&k, SS_ACT_EXEC);
	}
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

/*
 * One copy of each test on EPYC 9654 (S18's stand-in), then one copy per
 * CPU of the 16-CPU desktop: the figures in the ranges their costs give
 * (1 ms of work per transaction; ~5 us of CPU plus two wakeups per round
 * trip; ~80 us per spawn loop; ~200 us per exec), and a loaded machine:
 * every CPU busy, SMT siblings sharing their cores (dhry2reg at 16 copies
 * on 8 cores: well below 1000 per copy), context1's pairs sharing a CPU
 * (no idle exits: more round trips per copy than alone, as UnixBench's
 * USAGE shows 276 % for 2 copies on 2 CPUs).
 */
static void test_unixbench_run(void **state)
{
	static const struct {
		const char *file;
		double one_lo, one_hi;       /* 1 copy, transactions/s */
		double all_lo, all_hi;       /* 16 copies on 16 CPUs, per copy */
	} cases[] = {
		{ WL("unixbench-dhry2reg.yaml"), 990, 1001, 500, 800 },
		{ WL("unixbench-context1.yaml"), 20000, 250000, 20000, 250000 },
		{ WL("unixbench-spawn.yaml"), 8000, 16000, 3000, 16000 },
		{ WL("unixbench-execl.yaml"), 3500, 6700, 2000, 6700 },
	};
	struct ss_topology *desk = ss_topology_load(SS_SOURCE_DIR "/topologies/desktop-8c16t.yaml", NULL);

	(void)state;
	assert_non_null(desk);
	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct ss_workload *w = load(cases[i].file, NULL);
		struct ss_results *r1 = simulate(epyc, w, NULL, 1, 100 * MS, 500 * MS, NULL);
		struct ss_results *rn = simulate(desk, w, NULL, 10000, 50 * MS, 100 * MS, NULL);
		double one = ss_results_metric_value(r1), all = ss_results_metric_value(rn) / 16;

		assert_int_equal(r1->nr_instances, 1);
		assert_int_equal(rn->nr_instances, 16);
		if (one < cases[i].one_lo || one > cases[i].one_hi || all < cases[i].all_lo || all > cases[i].all_hi)
			fail_msg("%s: 1 copy %.1f/s, 384 copies %.1f/s per copy", cases[i].file, one, all);
		assert_true(ss_results_busy_pct(rn) > 95.0);
		if (i == 1 && all <= one)
			fail_msg("context1: %.0f round trips/s per copy at 16 copies, %.0f alone", all, one);
		ss_results_free(r1);
		ss_results_free(rn);
		ss_workload_free(w);
	}
	ss_topology_free(desk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hackbench_graph),
		cmocka_unit_test(test_hackbench_run),
		cmocka_unit_test(test_schbench_old_graph),
		cmocka_unit_test(test_schbench_old_run),
		cmocka_unit_test(test_schbench_workers),
		cmocka_unit_test(test_burst_fanout),
		cmocka_unit_test(test_unixbench_graph),
		cmocka_unit_test(test_unixbench_run),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
