/*
 * simsched run --trace (lib/ftrace.c, docs/output.md "kernel trace"): the lines of
 * every event kind, byte for byte, in the layout of the v6.6 trace file
 * (trace_print_context() + the TP_printk of include/trace/events/sched.h);
 * every line of real runs re-printed through the kernel's formats; per-CPU
 * busy time and migrations summed from a trace equal the run's figures over
 * the same window; a trace of some CPUs is the trace of all CPUs filtered;
 * the same seed gives the same bytes; tracing changes no result; errors
 * leave no file behind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "ss_sched.h"
#include "simsched/error.h"
#include "simsched/ftrace.h"

static char *tmpdir;

static int setup(void **state)
{
	tmpdir = g_dir_make_tmp("simsched-ftrace-XXXXXX", NULL);
	return tmpdir == NULL;
}

static int teardown(void **state)
{
	GDir *d = g_dir_open(tmpdir, 0, NULL);
	const char *n;
	while (d && (n = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(tmpdir, n, NULL);
		g_unlink(p);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(tmpdir);
	g_free(tmpdir);
	return 0;
}

static struct ss_topology *topo(const char *yaml)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "inline-topo.yaml", &err);
	if (!t)
		fail_msg("%s", err->message);
	return t;
}

static struct ss_workload *wl(const char *yaml)
{
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_string(yaml, strlen(yaml), "inline.yaml", &err);
	if (!w)
		fail_msg("%s", err->message);
	return w;
}

static const char flat4_yaml[] = "name: flat4\nvendor: arm\ncores: \"0-3\"\n";
static const char llc2_yaml[] = "name: llc2\nvendor: arm\npackages:\n  - nodes:\n      - llcs:\n"
				"          - cores: \"0-3\"\n          - cores: \"4-7\"\n";
static const char smt4_yaml[] = "name: smt4\nvendor: intel\npackages:\n  - nodes:\n      - llcs:\n"
				"          - cores: [[0, 2], [1, 3]]\n";

static struct ss_run_config config(const struct ss_topology *t, const struct ss_workload *w, const char *policy,
				   unsigned load_pct_x100, uint64_t warmup, uint64_t duration)
{
	struct ss_run_config c = { 0 };
	c.topo = t;
	c.wl = w;
	c.policy = policy;
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = load_pct_x100;
	c.seed = 1;
	c.warmup_ns = warmup;
	c.duration_ns = duration;
	return c;
}

static struct ss_ftrace *open_trace(const char *name, const struct ss_topology *t, uint64_t from, uint64_t to,
				    const char *cpus, bool ns, char **path)
{
	struct ss_ftrace_opts o = { .from_ns = from, .to_ns = to, .cpus = cpus, .ns_timestamps = ns };
	GError *err = NULL;
	struct ss_ftrace *ft;
	*path = g_build_filename(tmpdir, name, NULL);
	ft = ss_ftrace_open(*path, t, &o, &err);
	if (!ft)
		fail_msg("%s", err->message);
	return ft;
}

static char *finish(struct ss_ftrace *ft, const char *path)
{
	GError *err = NULL;
	char *text = NULL;
	if (!ss_ftrace_finish(ft, &err))
		fail_msg("%s", err->message);
	ss_ftrace_free(ft);
	if (!g_file_get_contents(path, &text, NULL, &err))
		fail_msg("%s", err->message);
	return text;
}

/* The lines after the header (every line not starting with '#'). */
static const char *body(const char *text)
{
	const char *p = text;
	while (*p == '#') {
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
	return p;
}

/* ---------------------------------------------------------------- golden lines */

/*
 * Every kind of line, written by the hooks from a hand-made state and
 * compared byte for byte with the kernel's layout: trace_print_context()'s
 * "%16s-%-7d [%03d] " + five flags + " %5lu.%06lu: " (ns2usecs() rounds
 * 1234567890 ns to 1.234568 s), then each event's v6.6 TP_printk.
 */
static void test_golden_lines(void **state)
{
	(void)state;
	struct ss_topology *t = topo(flat4_yaml);
	struct ss_workload *w =
		wl("name: golden\ninstance: group\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		   "tasks:\n"
		   "  - {name: a_rather_long_task_name, nice: -5, start_cpu: 0, program: [run: 1ms]}\n"
		   "  - {name: b, start_cpu: 1, program: [run: 1ms]}\n"
		   "  - {name: c, start_cpu: 2, program: [run: 1ms]}\n");
	struct ss_run_config c = config(t, w, "full_scan", 1, 0, 1000000);
	char *path;
	GError *err = NULL;
	c.ftrace = open_trace("golden.txt", t, 0, UINT64_MAX, "0-2", false, &path);
	struct ss_sim *sim = ss_sim_create(&c, &err);
	assert_non_null(sim);
	struct ss_task *A = &sim->tasks[0], *B = &sim->tasks[1], *C = &sim->tasks[2];
	struct ss_rq *rq0 = &sim->rq[0], *rq1 = &sim->rq[1], *rq2 = &sim->rq[2], *rq3 = &sim->rq[3];

	sim->now = 1234567890;
	ss_ft_window(sim, true);   /* from 0: on; the counters' values first, stamped at FROM */
	assert_true(sim->tracing);

	/* A (pid 1, nice -5) on CPU 0 wakes B (pid 2, last on CPU 1) */
	rq0->curr = A;
	rq0->cfs.nr_running = 1;
	rq1->curr = C;
	rq1->cfs.nr_running = 1;
	rq3->ttwu_pending = 1;
	sim->this_cpu = 0;
	sim->current = A;
	sim->scan_cost = 0;
	ss_ft_waking(sim, B);
	ss_ft_sis_enter(sim, B, 1, 0);
	ss_ft_probe(sim, 0);
	ss_ft_probe(sim, 1);
	ss_ft_probe(sim, 3);
	ss_ft_probe(sim, 2);
	sim->scan_cost = 250;
	ss_ft_sic(sim, B, 0, false, (long)INT_MAX - 2, 2, 2, 200);
	ss_ft_sis_done(sim, B, SS_SIS_IDLE_CPU, 2);
	ss_ft_select_task_rq(sim, B, 0x18, 2);
	ss_ft_migrate(sim, B, 2, SS_MIG_WAKEUP);
	B->cpu = 2;
	/* the wake list's IPI on CPU 2, idle, which reschedules */
	sim->current = NULL;
	ss_ft_wakeup(sim, B, 2, false, true, true);
	ss_ft_switch(sim, rq2, NULL, B, 0);
	rq2->curr = B;
	/* A blocked; C preempted; B exited */
	A->se.on_rq = false;
	A->state = SS_TASK_BLOCKED;
	ss_ft_switch(sim, rq0, A, NULL, 0);
	rq0->curr = NULL;
	C->se.on_rq = true;
	ss_ft_switch(sim, rq1, C, A, 0);
	B->se.on_rq = false;
	B->state = SS_TASK_DEAD;
	ss_ft_switch(sim, rq2, B, NULL, 0);
	rq2->curr = NULL;
	/* the stopper on CPU 1 pushes C to CPU 3 */
	ss_ft_switch(sim, rq1, C, NULL, SS_FT_NEXT_STOPPER);
	rq1->curr = NULL;
	rq1->stopper_running = true;
	sim->this_cpu = 1;
	ss_ft_migrate(sim, C, 3, SS_MIG_ACTIVE);
	rq1->stopper_running = false;
	ss_ft_switch(sim, rq1, NULL, NULL, SS_FT_PREV_STOPPER);
	/* wake_up_new_task() of A on CPU 0; a timer wakes C from CPU 1's interrupt */
	ss_ft_wakeup(sim, A, 0, true, true, false);
	C->cpu = 1;
	ss_ft_waking(sim, C);
	/* the balancer of CPU 1: a NOHZ pass for CPU 1, a newidle pass, nr_idle_scan, nr_running */
	ss_ft_load_balance(sim, 1, &t->cpu[1].sd[0], CPU_IDLE, 0, 1, 2, 1, "moved", 1300);
	ss_ft_load_balance(sim, 1, &t->cpu[1].sd[0], CPU_NEWLY_IDLE, -1, 0, 0, 0, "balanced", 1300);
	ss_ft_nr_idle_scan(sim, 0, 3);
	rq0->cfs.nr_running = 2;
	ss_ft_nr_running(sim, rq0);
	/* CPU 3 is not traced */
	ss_ft_wakeup(sim, C, 3, false, false, false);
	ss_ft_nr_running(sim, rq3);

	rq0->cfs.nr_running = rq1->cfs.nr_running = 0;
	rq3->ttwu_pending = 0;
	ss_sim_destroy(sim);
	char *text = finish(c.ftrace, path);
	static const char expect[] =
		"# tracer: nop\n"
		"#\n"
		"# entries-in-buffer/entries-written: 23/23   #P:4\n"
		"#\n"
		"#                                _-----=> irqs-off/BH-disabled\n"
		"#                               / _----=> need-resched\n"
		"#                              | / _---=> hardirq/softirq\n"
		"#                              || / _--=> preempt-depth\n"
		"#                              ||| / _-=> migrate-disable\n"
		"#                              |||| /     delay\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n"
		"          <idle>-0       [000] d..2.     0.000000: tracing_mark_write: C|0|nr_running_cpu0|0\n"
		"          <idle>-0       [001] d..2.     0.000000: tracing_mark_write: C|0|nr_running_cpu1|0\n"
		"          <idle>-0       [002] d..2.     0.000000: tracing_mark_write: C|0|nr_running_cpu2|0\n"
		"          <idle>-0       [000] d..2.     0.000000: tracing_mark_write: C|0|nr_idle_scan_llc0|0\n"
		" a_rather_long_t-1       [000] d..2.     1.234568: sched_waking: comm=b pid=2 prio=120 target_cpu=001\n"
		" a_rather_long_t-1       [000] d..2.     1.234568: tracing_mark_write: I|1|select_idle_cpu: pid=2 target=0 llc=0 has_idle_core=0 nr=none probes=3:waking,2:idle result=2 stop=found cost_ns=200\n"
		" a_rather_long_t-1       [000] d..2.     1.234568: tracing_mark_write: I|1|select_idle_sibling: pid=2 prev=1 target=0 recent_used_cpu=1 probes=0:busy/1,1:busy/1 scan_probes=2 result=2 via=select_idle_cpu cost_ns=250\n"
		" a_rather_long_t-1       [000] d..2.     1.234568: tracing_mark_write: I|1|select_task_rq: comm=b pid=2 prev_cpu=1 this_cpu=0 wake_flags=0x18 result=2 rqs_probed=4 cost_ns=250\n"
		" a_rather_long_t-1       [000] d..2.     1.234568: sched_migrate_task: comm=b pid=2 prio=120 orig_cpu=1 dest_cpu=2\n"
		"          <idle>-0       [002] dNh2.     1.234568: sched_wakeup: comm=b pid=2 prio=120 target_cpu=002\n"
		"          <idle>-0       [002] d..2.     1.234568: sched_switch: prev_comm=swapper/2 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=2 next_prio=120\n"
		" a_rather_long_t-1       [000] d..2.     1.234568: sched_switch: prev_comm=a_rather_long_t prev_pid=1 prev_prio=115 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
		"               c-3       [001] d..2.     1.234568: sched_switch: prev_comm=c prev_pid=3 prev_prio=120 prev_state=R+ ==> next_comm=a_rather_long_t next_pid=1 next_prio=115\n"
		"               b-2       [002] d..2.     1.234568: sched_switch: prev_comm=b prev_pid=2 prev_prio=120 prev_state=Z ==> next_comm=swapper/2 next_pid=0 next_prio=120\n"
		"               c-3       [001] d..2.     1.234568: sched_switch: prev_comm=c prev_pid=3 prev_prio=120 prev_state=R+ ==> next_comm=migration/1 next_pid=1000001 next_prio=0\n"
		"     migration/1-1000001 [001] d..2.     1.234568: sched_migrate_task: comm=c pid=3 prio=120 orig_cpu=2 dest_cpu=3\n"
		"     migration/1-1000001 [001] d..2.     1.234568: sched_switch: prev_comm=migration/1 prev_pid=1000001 prev_prio=0 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
		"          <idle>-0       [000] dN.2.     1.234568: sched_wakeup_new: comm=a_rather_long_t pid=1 prio=115 target_cpu=000\n"
		"          <idle>-0       [001] d.h2.     1.234568: sched_waking: comm=c pid=3 prio=120 target_cpu=001\n"
		"          <idle>-0       [001] ..s1.     1.234568: tracing_mark_write: I|0|load_balance: dst_cpu=1 sd=MC idle=CPU_IDLE busiest_cpu=0 migration_type=migrate_task imbalance=1 moved=1 result=moved cost_ns=1300\n"
		"          <idle>-0       [001] d..2.     1.234568: tracing_mark_write: I|0|load_balance: dst_cpu=1 sd=MC idle=CPU_NEWLY_IDLE busiest_cpu=-1 moved=0 result=balanced cost_ns=1300\n"
		"          <idle>-0       [001] ..s1.     1.234568: tracing_mark_write: C|0|nr_idle_scan_llc0|3\n"
		"          <idle>-0       [000] d..2.     1.234568: tracing_mark_write: C|0|nr_running_cpu0|2\n";
	if (strcmp(text, expect)) {
		fprintf(stderr, "got:\n%s", text);
		fail_msg("the golden trace differs");
	}
	g_free(text);
	g_free(path);

	/* nanosecond timestamps: "%5lu.%09lu" */
	c.ftrace = open_trace("golden-ns.txt", t, 0, UINT64_MAX, NULL, true, &path);
	sim = ss_sim_create(&c, &err);
	assert_non_null(sim);
	sim->now = 1234567890;
	ss_ft_window(sim, true);
	sim->this_cpu = 3;
	ss_ft_waking(sim, &sim->tasks[1]);
	ss_sim_destroy(sim);
	text = finish(c.ftrace, path);
	assert_non_null(strstr(text, "\n          <idle>-0       [003] d.h2.     1.234567890: sched_waking: comm=b pid=2 "
				     "prio=120 target_cpu=001\n"));
	g_free(text);
	g_free(path);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* ---------------------------------------------------------------- parsing a trace */

struct tline {
	char comm[32];
	int pid;
	unsigned cpu;
	char flags[8];
	uint64_t ts_ns;
	char event[40];
	const char *payload;   /* after "event: ", up to the newline */
	size_t payload_len;
};

/* Parse one body line (len bytes, no newline) as trace_print_context() writes it. */
static bool parse_line(const char *s, size_t len, bool ns, struct tline *l)
{
	char head[160], who[64], sec[16], frac[16];
	int n = 0;
	char *dash;
	/* sscanf() on a copy of the line's start: on the whole trace it would
	 * measure the rest of the text for every line */
	size_t h = MIN(len, sizeof head - 1);
	memcpy(head, s, h);
	head[h] = '\0';
	if (sscanf(head, "%63s [%u] %7s %15[0-9].%15[0-9]: %39[^:]: %n", who, &l->cpu, l->flags, sec, frac, l->event, &n) !=
		    6 ||
	    !n)
		return false;
	if (strlen(frac) != (ns ? 9u : 6u))
		return false;
	dash = strrchr(who, '-');
	if (!dash || dash == who)
		return false;
	*dash = '\0';
	g_strlcpy(l->comm, who, sizeof l->comm);
	l->pid = atoi(dash + 1);
	l->ts_ns = g_ascii_strtoull(sec, NULL, 10) * 1000000000u + g_ascii_strtoull(frac, NULL, 10) * (ns ? 1u : 1000u);
	l->payload = s + n;
	l->payload_len = len - (size_t)n;
	return true;
}

static uint64_t field(const char *payload, const char *key)
{
	const char *p = strstr(payload, key);
	assert_non_null(p);
	return g_ascii_strtoull(p + strlen(key), NULL, 10);
}

/*
 * Print a parsed line again through the kernel's formats and compare: the
 * context of trace_print_context(), and the payload of each event's v6.6
 * TP_printk (or the atrace forms of the markers). Returns the event kind.
 */
static const char *reprint_check(const char *s, size_t len, bool ns, struct tline *l, unsigned nr_cpus)
{
	char again[1024], pay[512];
	char c1[32], c2[32], st[8];
	int a, b, d, e, f;
	uint64_t secs, frac;
	g_autofree char *line = g_strndup(s, len);
	g_autofree char *payload = NULL;

	/* parsed in place: l->payload points into the trace, not into this copy */
	if (!parse_line(s, len, ns, l))
		fail_msg("not a trace line: '%s'", line);
	payload = g_strndup(l->payload, l->payload_len);
	assert_true(l->cpu < nr_cpus);
	assert_int_equal(strlen(l->flags), 5);
	assert_non_null(strchr("d.", l->flags[0]));
	assert_non_null(strchr("N.", l->flags[1]));
	assert_non_null(strchr("hs.", l->flags[2]));
	assert_non_null(strchr("123.", l->flags[3]));
	assert_int_equal(l->flags[4], '.');
	if (!strcmp(l->event, "sched_switch")) {
		assert_int_equal(sscanf(payload, "prev_comm=%31s prev_pid=%d prev_prio=%d prev_state=%7s ==> next_comm=%31s next_pid=%d next_prio=%d",
					c1, &a, &b, st, c2, &d, &e), 7);
		assert_true(!strcmp(st, "R") || !strcmp(st, "R+") || !strcmp(st, "S") || !strcmp(st, "Z"));
		snprintf(pay, sizeof pay, "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
			 c1, a, b, st, c2, d, e);
		/* written in prev's context */
		assert_int_equal(l->pid, a);
	} else if (!strcmp(l->event, "sched_waking") || !strcmp(l->event, "sched_wakeup") ||
		   !strcmp(l->event, "sched_wakeup_new")) {
		assert_int_equal(sscanf(payload, "comm=%31s pid=%d prio=%d target_cpu=%d", c1, &a, &b, &d), 4);
		snprintf(pay, sizeof pay, "comm=%s pid=%d prio=%d target_cpu=%03d", c1, a, b, d);
	} else if (!strcmp(l->event, "sched_migrate_task")) {
		assert_int_equal(sscanf(payload, "comm=%31s pid=%d prio=%d orig_cpu=%d dest_cpu=%d", c1, &a, &b, &d, &f), 5);
		snprintf(pay, sizeof pay, "comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d", c1, a, b, d, f);
		assert_int_not_equal(d, f);
	} else if (!strcmp(l->event, "tracing_mark_write")) {
		long v;
		if (payload[0] == 'C') {
			assert_int_equal(sscanf(payload, "C|0|%31[a-z_]%d|%ld", c1, &a, &v), 3);
			snprintf(pay, sizeof pay, "C|0|%s%d|%ld", c1, a, v);
		} else {
			assert_int_equal(sscanf(payload, "I|%d|%31[a-z_]: ", &a, c1), 2);
			assert_int_equal(a, l->pid);   /* the instant belongs to the line's thread */
			g_strlcpy(pay, payload, sizeof pay);
			assert_null(strchr(payload + 2 + strcspn(payload + 2, "|") + 1, '|'));
		}
	} else {
		fail_msg("unknown event '%s'", l->event);
	}
	secs = l->ts_ns / 1000000000u;
	frac = ns ? l->ts_ns % 1000000000u : l->ts_ns % 1000000000u / 1000u;
	if (ns)
		snprintf(again, sizeof again, "%16s-%-7d [%03u] %s %5" PRIu64 ".%09" PRIu64 ": %s: %s", l->comm, l->pid, l->cpu,
			 l->flags, secs, frac, l->event, pay);
	else
		snprintf(again, sizeof again, "%16s-%-7d [%03u] %s %5" PRIu64 ".%06" PRIu64 ": %s: %s", l->comm, l->pid, l->cpu,
			 l->flags, secs, frac, l->event, pay);
	if (strcmp(again, line))
		fail_msg("not in the kernel's layout:\n'%s'\n'%s'", line, again);
	return l->event;
}

struct kinds {
	unsigned waking, wakeup, wakeup_new, migrate, mark_sis, mark_sic, mark_str, mark_lb, counter;
	unsigned switch_R, switch_Rplus, switch_S, switch_Z, stopper;
};

/*
 * Check every line of a trace; count the kinds. Per CPU, each sched_switch's
 * prev is the previous switch's next (the trace is a consistent history), and
 * timestamps never go back.
 */
static void check_all_lines(const char *text, bool ns, unsigned nr_cpus, struct kinds *k)
{
	const char *p = body(text);
	int last_next[64];
	uint64_t last_ts = 0;
	unsigned lines = 0;
	for (unsigned c = 0; c < 64; c++)
		last_next[c] = -1;
	while (*p) {
		const char *nl = strchr(p, '\n');
		struct tline l;
		assert_non_null(nl);
		const char *ev = reprint_check(p, (size_t)(nl - p), ns, &l, nr_cpus);
		g_autofree char *pay = g_strndup(l.payload, l.payload_len);
		assert_true(l.ts_ns >= last_ts);
		last_ts = l.ts_ns;
		lines++;
		if (!strcmp(ev, "sched_switch")) {
			int prev = (int)field(pay, "prev_pid="), next = (int)field(pay, "next_pid=");
			if (l.cpu < 64) {
				if (last_next[l.cpu] >= 0)
					assert_int_equal(prev, last_next[l.cpu]);
				last_next[l.cpu] = next;
			}
			if (strstr(pay, "prev_state=R+"))
				k->switch_Rplus++;
			else if (strstr(pay, "prev_state=R "))
				k->switch_R++;
			else if (strstr(pay, "prev_state=S"))
				k->switch_S++;
			else if (strstr(pay, "prev_state=Z"))
				k->switch_Z++;
			if (strstr(pay, "migration/"))
				k->stopper++;
		} else if (!strcmp(ev, "sched_waking")) {
			k->waking++;
		} else if (!strcmp(ev, "sched_wakeup")) {
			k->wakeup++;
		} else if (!strcmp(ev, "sched_wakeup_new")) {
			k->wakeup_new++;
		} else if (!strcmp(ev, "sched_migrate_task")) {
			k->migrate++;
		} else if (strstr(pay, "|select_idle_sibling: ")) {
			k->mark_sis++;
		} else if (strstr(pay, "|select_idle_cpu: ")) {
			k->mark_sic++;
		} else if (strstr(pay, "|select_task_rq: ")) {
			k->mark_str++;
		} else if (strstr(pay, "|load_balance: ")) {
			k->mark_lb++;
		} else if (pay[0] == 'C') {
			k->counter++;
		}
		p = nl + 1;
	}
	/* the header counts the lines */
	g_autofree char *hdr = g_strdup_printf("# entries-in-buffer/entries-written: %u/%u   #P:%u\n", lines, lines, nr_cpus);
	assert_non_null(strstr(text, hdr));
}

/*
 * Real runs, every line in the kernel's layout, and every kind of line
 * present: a spawn/sleep/exit workload with a ping-pong pair (wakeups, the
 * fork path, timers, exits, select_idle_cpu) and two CPU-bound tasks split
 * by active balance (the stopper, R+, migrations by the balancer).
 */
static void test_every_line(void **state)
{
	(void)state;
	struct ss_topology *t4 = topo(flat4_yaml), *ts = topo(smt4_yaml);
	struct ss_workload *w1 =
		wl("name: kinds\ninstance: group\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		   "tasks:\n"
		   "  - {name: hog, start_cpu: 1, program: [run: 30ms, exit]}\n"
		   "  - {name: parent, start_cpu: 0, program: [loop: {forever: true, do: [run: 200us, spawn: child, sleep: 1ms]}]}\n"
		   "  - {name: child, count: 4, spawned: true, program: [run: 300us, exit]}\n"
		   "  - {name: ping, start_cpu: 2, program: [loop: {forever: true, do: [run: 20us, wake: pong, wait: 1]}]}\n"
		   "  - {name: pong, start_cpu: 3, program: [loop: {forever: true, do: [wait: 1, run: 30us, wake: ping]}]}\n");
	struct ss_workload *w2 =
		wl("name: cpubound\ninstance: group\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		   "tasks:\n"
		   "  - {name: t0, start_cpu: 0, program: [loop: {forever: true, do: [run: 10ms]}]}\n"
		   "  - {name: t1, start_cpu: 2, program: [loop: {forever: true, do: [run: 10ms]}]}\n");
	struct kinds k = { 0 };
	GError *err = NULL;
	char *path, *text;

	for (int i = 0; i < 2; i++) {
		struct ss_run_config c = config(t4, w1, i ? "sis_util" : "full_scan", 1, 0, 20000000);
		c.ftrace = open_trace("kinds.txt", t4, 0, UINT64_MAX, NULL, i == 1, &path);
		struct ss_results *r = ss_simulate(&c, &err);
		assert_non_null(r);
		text = finish(c.ftrace, path);
		check_all_lines(text, i == 1, 4, &k);
		ss_results_free(r);
		g_free(text);
		g_free(path);
	}
	struct ss_run_config c = config(ts, w2, "sis_util", 1, 0, 100000000);
	c.ftrace = open_trace("stopper.txt", ts, 0, UINT64_MAX, NULL, false, &path);
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	text = finish(c.ftrace, path);
	check_all_lines(text, false, 4, &k);
	assert_true(r->migrations_by_cause[SS_MIG_ACTIVE] >= 1);
	ss_results_free(r);
	g_free(text);
	g_free(path);

	assert_true(k.waking > 0 && k.wakeup > 0 && k.wakeup_new > 0 && k.migrate > 0);
	assert_true(k.mark_sis > 0 && k.mark_sic > 0 && k.mark_str > 0 && k.mark_lb > 0 && k.counter > 0);
	assert_true(k.switch_R > 0 && k.switch_Rplus > 0 && k.switch_S > 0 && k.switch_Z > 0 && k.stopper >= 2);
	/* every wakeup has its waking (the runs end with none in flight at the trace's end, or a few) */
	assert_true(k.wakeup <= k.waking);
	ss_workload_free(w1);
	ss_workload_free(w2);
	ss_topology_free(t4);
	ss_topology_free(ts);
}

/* ---------------------------------------------------------------- reconciliation */

/*
 * Per-CPU busy time (ns) and sched_migrate_task lines of a trace over
 * (from, to]: a CPU is busy from a switch to a task (next_pid != 0) to the
 * next switch to the idle task; before its first switch it was busy if that
 * switch's prev is a task. CPUs without a switch are reported in *silent.
 */
static void sum_trace(const char *text, uint64_t from, uint64_t to, unsigned nr_cpus, uint64_t *busy,
		      uint64_t *migrations, uint64_t *silent)
{
	const char *p = body(text);
	bool seen[64] = { 0 };
	int64_t since[64];
	*migrations = 0;
	*silent = 0;
	for (unsigned c = 0; c < nr_cpus; c++) {
		busy[c] = 0;
		since[c] = -1;
	}
	while (*p) {
		const char *nl = strchr(p, '\n');
		struct tline l;
		assert_true(parse_line(p, (size_t)(nl - p), true, &l));
		if (!strcmp(l.event, "sched_migrate_task")) {
			(*migrations)++;
		} else if (!strcmp(l.event, "sched_switch")) {
			g_autofree char *pay = g_strndup(l.payload, l.payload_len);
			uint64_t prev = field(pay, "prev_pid="), next = field(pay, "next_pid=");
			assert_true(l.ts_ns > from && l.ts_ns <= to);
			if (!seen[l.cpu]) {
				seen[l.cpu] = true;
				if (prev)
					since[l.cpu] = (int64_t)from;
			}
			if (prev)
				busy[l.cpu] += l.ts_ns - (uint64_t)since[l.cpu];
			since[l.cpu] = next ? (int64_t)l.ts_ns : -1;
		}
		p = nl + 1;
	}
	for (unsigned c = 0; c < nr_cpus; c++) {
		if (!seen[c])
			*silent |= UINT64_C(1) << c;
		else if (since[c] >= 0)
			busy[c] += to - (uint64_t)since[c];
	}
}

/* Keep the body lines of CPUs in mask (the header is dropped). */
static char *filter_cpus(const char *text, uint64_t mask)
{
	GString *o = g_string_new(NULL);
	const char *p = body(text);
	while (*p) {
		const char *nl = strchr(p, '\n');
		const char *br = strchr(p, '[');
		unsigned cpu = (unsigned)atoi(br + 1);
		if (mask >> cpu & 1)
			g_string_append_len(o, p, nl - p + 1);
		p = nl + 1;
	}
	return g_string_free(o, FALSE);
}

/*
 * netperf at 90 % on two LLCs of 4 CPUs: wakeups that move tasks across
 * the machine, newidle pulls and NOHZ balancing (with
 * kernel.migration_cost_ns = 0: netperf's waiting tasks have run within
 * the last 500 µs, and task_hot() keeps newidle balance from pulling
 * them). Traced over the measured
 * window (warmup..warmup+duration), the busy time of every CPU and the
 * migrations in the trace equal the run's, to the nanosecond; a trace of
 * some CPUs is the full trace's lines of those CPUs; the results are those
 * of the run without a trace; the same seed gives the same bytes.
 */
static void test_reconcile(void **state)
{
	(void)state;
	struct ss_topology *t = topo(llc2_yaml);
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load(SS_SOURCE_DIR "/workloads/netperf-tcp-rr.yaml", &err);
	const uint64_t warmup = 20000000, duration = 4000000;
	uint64_t busy[8], mig, silent;
	char *path, *full, *again, *sub;
	assert_non_null(w);

	struct ss_run_config c = config(t, w, "sis_util", 9000, warmup, duration);
	c.params.migration_cost_ns = 0;   /* no task is cache hot (task_hot()) */
	struct ss_results *plain = ss_simulate(&c, &err);
	assert_non_null(plain);
	g_autofree char *plain_json = ss_results_to_json(plain);

	c.ftrace = open_trace("full.txt", t, warmup, warmup + duration, NULL, true, &path);
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	full = finish(c.ftrace, path);
	g_free(path);
	/* the model does not change when traced */
	g_autofree char *json = ss_results_to_json(r);
	assert_string_equal(json, plain_json);

	sum_trace(full, warmup, warmup + duration, 8, busy, &mig, &silent);
	assert_int_equal(silent, 0);
	for (unsigned cpu = 0; cpu < 8; cpu++)
		assert_int_equal(busy[cpu], r->cpu[cpu].busy_ns);
	assert_int_equal(mig, r->migrations);
	/* the window holds wakeup migrations and balancer pulls: a real test */
	assert_true(r->migrations_by_cause[SS_MIG_WAKEUP] > 0 && r->migrations_by_cause[SS_MIG_NEWIDLE] > 0);

	/* CPUs 1 and 4-6 only: the same lines, and the same busy time */
	c.ftrace = open_trace("sub.txt", t, warmup, warmup + duration, "1,4-6", true, &path);
	ss_results_free(ss_simulate(&c, &err));
	sub = finish(c.ftrace, path);
	g_free(path);
	g_autofree char *want = filter_cpus(full, 0x72);
	assert_string_equal(body(sub), want);
	sum_trace(sub, warmup, warmup + duration, 8, busy, &mig, &silent);
	assert_int_equal(silent, 0x8d);
	assert_int_equal(busy[1], r->cpu[1].busy_ns);
	assert_int_equal(busy[5], r->cpu[5].busy_ns);

	/* the same seed, the same bytes */
	c.ftrace = open_trace("again.txt", t, warmup, warmup + duration, NULL, true, &path);
	ss_results_free(ss_simulate(&c, &err));
	again = finish(c.ftrace, path);
	g_free(path);
	assert_string_equal(again, full);

	ss_results_free(r);
	ss_results_free(plain);
	g_free(full);
	g_free(again);
	g_free(sub);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * The window's edges: FROM..TO holds the events after FROM up to TO. With
 * FROM at a switch's time, that switch is not in the trace (only the
 * counters' starting values are stamped FROM); from a nanosecond earlier it
 * is. A window from 0 holds the start.
 */
static unsigned lines_at(const char *text, uint64_t ts, bool counters)
{
	unsigned n = 0;
	for (const char *p = body(text); *p;) {
		const char *nl = strchr(p, '\n');
		struct tline l;
		assert_true(parse_line(p, (size_t)(nl - p), true, &l));
		if (l.ts_ns == ts && (l.payload[0] == 'C') == counters)
			n++;
		p = nl + 1;
	}
	return n;
}

/* The lines after those stamped ts or earlier. */
static const char *after(const char *text, uint64_t ts)
{
	const char *p = body(text);
	while (*p) {
		const char *nl = strchr(p, '\n');
		struct tline l;
		assert_true(parse_line(p, (size_t)(nl - p), true, &l));
		if (l.ts_ns > ts)
			break;
		p = nl + 1;
	}
	return p;
}

static void test_window(void **state)
{
	(void)state;
	struct ss_topology *t = topo(flat4_yaml);
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load(SS_SOURCE_DIR "/workloads/netperf-tcp-rr.yaml", &err);
	char *path, *text, *text2;
	const char *sw;
	uint64_t from, to = 3000000;
	struct tline l;
	assert_non_null(w);
	struct ss_run_config c = config(t, w, "sis_util", 5000, 0, 4000000);
	c.ftrace = open_trace("window0.txt", t, 1000000, to, NULL, true, &path);
	ss_results_free(ss_simulate(&c, &err));
	text = finish(c.ftrace, path);
	g_free(path);
	/* a switch well inside: its time is the next window's FROM */
	sw = strstr(body(text) + strlen(body(text)) / 2, "sched_switch");
	assert_non_null(sw);
	while (sw > text && sw[-1] != '\n')
		sw--;
	assert_true(parse_line(sw, (size_t)(strchr(sw, '\n') - sw), true, &l));
	from = l.ts_ns;
	g_free(text);

	c.ftrace = open_trace("window1.txt", t, from, to, NULL, true, &path);
	ss_results_free(ss_simulate(&c, &err));
	text = finish(c.ftrace, path);
	g_free(path);
	c.ftrace = open_trace("window2.txt", t, from - 1, to, NULL, true, &path);
	ss_results_free(ss_simulate(&c, &err));
	text2 = finish(c.ftrace, path);
	g_free(path);
	assert_int_equal(lines_at(text, from, false), 0);
	assert_int_equal(lines_at(text, from, true), 4 + 1);   /* nr_running of 4 CPUs, nr_idle_scan of 1 LLC */
	assert_true(lines_at(text2, from, false) >= 1);
	for (const char *p = body(text); *p;) {
		const char *nl = strchr(p, '\n');
		assert_true(parse_line(p, (size_t)(nl - p), true, &l));
		assert_true(l.ts_ns >= from && l.ts_ns <= to);
		p = nl + 1;
	}
	/* after FROM, the two traces are the same */
	assert_string_equal(after(text, from), after(text2, from));
	g_free(text);
	g_free(text2);

	c.ftrace = open_trace("start.txt", t, 0, 1000000, NULL, false, &path);
	ss_results_free(ss_simulate(&c, &err));
	text = finish(c.ftrace, path);
	g_free(path);
	assert_non_null(strstr(text, "[000] dN.2.     0.000000: sched_wakeup_new: comm=harness pid=1 prio=120 target_cpu=000\n"));
	g_free(text);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* ---------------------------------------------------------------- errors */

static unsigned files_in(const char *dir)
{
	GDir *d = g_dir_open(dir, 0, NULL);
	unsigned n = 0;
	assert_non_null(d);
	while (g_dir_read_name(d))
		n++;
	g_dir_close(d);
	return n;
}

static void test_errors(void **state)
{
	(void)state;
	struct ss_topology *t = topo(flat4_yaml);
	uint64_t from, to;
	GError *err = NULL;
	g_autofree char *dir = g_build_filename(tmpdir, "errors", NULL);
	g_autofree char *path = g_build_filename(dir, "t.txt", NULL);
	struct ss_ftrace_opts o = { .from_ns = 0, .to_ns = UINT64_MAX };

	assert_int_equal(g_mkdir(dir, 0700), 0);
	assert_true(ss_ftrace_parse_window("1s..1.005s", &from, &to));
	assert_int_equal(from, 1000000000);
	assert_int_equal(to, 1005000000);
	assert_true(ss_ftrace_parse_window("0..5ms", &from, &to));
	assert_int_equal(from, 0);
	assert_int_equal(to, 5000000);
	assert_true(ss_ftrace_parse_window("2s..", &from, &to));
	assert_true(to == UINT64_MAX);
	assert_false(ss_ftrace_parse_window("1s", &from, &to));
	assert_false(ss_ftrace_parse_window("2s..1s", &from, &to));
	assert_false(ss_ftrace_parse_window("1s..1s", &from, &to));
	assert_false(ss_ftrace_parse_window("1..2", &from, &to));   /* units are required */
	assert_false(ss_ftrace_parse_window("1s..x", &from, &to));

	/* a CPU list of another machine */
	o.cpus = "0-4";
	assert_null(ss_ftrace_open(path, t, &o, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	assert_non_null(strstr(err->message, "--trace-cpus '0-4'"));
	g_clear_error(&err);
	o.cpus = NULL;
	/* a directory that does not exist */
	g_autofree char *nodir = g_build_filename(tmpdir, "no-such-dir", "t.txt", NULL);
	assert_null(ss_ftrace_open(nodir, t, &o, &err));
	assert_int_equal(err->code, SS_ERROR_IO);
	g_clear_error(&err);
	assert_int_equal(files_in(dir), 0);

	/* a run that fails (a finish-time workload that cannot finish): nothing is left */
	struct ss_workload *hb = ss_workload_load(SS_SOURCE_DIR "/workloads/hackbench-process-pipes.yaml", &err);
	assert_non_null(hb);
	struct ss_run_config c = config(t, hb, "sis_util", 10000, 0, 1000000);
	c.ftrace = ss_ftrace_open(path, t, &o, &err);
	assert_non_null(c.ftrace);
	assert_null(ss_simulate(&c, &err));
	g_clear_error(&err);
	ss_ftrace_free(c.ftrace);
	assert_int_equal(files_in(dir), 0);

	/* one trace, one run */
	struct ss_workload *w = wl("name: one\ninstance: group\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
				   "tasks:\n  - {name: a, program: [run: 1ms]}\n");
	c = config(t, w, "sis_util", 1, 0, 1000000);
	c.ftrace = ss_ftrace_open(path, t, &o, &err);
	assert_non_null(c.ftrace);
	ss_results_free(ss_simulate(&c, &err));
	assert_null(ss_simulate(&c, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	g_clear_error(&err);
	assert_int_equal(files_in(dir), 1);   /* the body, not yet the trace */
	assert_true(ss_ftrace_finish(c.ftrace, &err));
	ss_ftrace_free(c.ftrace);
	assert_int_equal(files_in(dir), 1);   /* the trace alone */
	assert_true(g_file_test(path, G_FILE_TEST_IS_REGULAR));
	g_unlink(path);

	ss_workload_free(w);
	ss_workload_free(hb);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_lines),
		cmocka_unit_test(test_every_line),
		cmocka_unit_test(test_reconcile),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
