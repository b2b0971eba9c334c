/*
 * --trace: a run written as the kernel's trace file (simsched/ftrace.h,
 * docs/output.md "kernel trace").
 *
 * Layout (kernel v6.6): s_show() prints "# tracer: nop" and "#";
 * print_event_info() the entry counts and #P (online CPUs);
 * print_func_help_header_irq() the column legend (kernel/trace/trace.c).
 * Each line is trace_print_context() — "%16s-%-7d [%03d] " + the five
 * trace_print_lat_fmt() flags (irqs-off, need-resched, hardirq/softirq,
 * preempt-depth, migrate-disable) + " %5lu.%06lu: " with ns2usecs()
 * rounding (kernel/trace/trace_output.c) — then the event's TP_printk
 * (include/trace/events/sched.h v6.6).
 *
 * The hooks below are called by the engine only while sim->tracing is set
 * (inside the window); they read the model and never change it. Lines go to
 * a temporary "body" file through a 1 MiB stdio buffer (no allocation per
 * line); ss_ftrace_finish() writes the header, whose entry count is known
 * only then, followed by the body, and renames the result over the path.
 */
#define _XOPEN_SOURCE 700   /* realpath() */
#include "ss_sched.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "simsched/error.h"
#include "simsched/ftrace.h"

#define FT_IOBUF (1u << 20)
/* pid of the stopper thread migration/N: N + this, above every task's pid */
#define FT_STOPPER_PID_BASE 1000000

/* What a runqueue probe saw (ss_available_idle_cpu() and why not). */
enum { FT_PROBE_IDLE, FT_PROBE_BUSY, FT_PROBE_WAKING };

struct ft_probe {
	uint32_t cpu;
	uint32_t nr_running;
	uint8_t kind;
};

struct ss_ftrace {
	uint64_t from, to;
	bool ns;
	uint64_t *cpus;                /* CPUs whose lines are written */
	unsigned nr_cpus, nr_online;
	char *path;                    /* where ss_ftrace_finish() writes (symlinks resolved) */
	bool direct;                   /* path is not a regular file: written in place, no rename */
	char *body_path, *out_tmp;     /* temporary files */
	FILE *body;
	char *iobuf;
	uint64_t entries;
	bool attached, started, finished;
	/* per run (ss_ft_attach) */
	char (*comm)[16];              /* TASK_COMM_LEN - 1 characters, no spaces */
	int *prio;                     /* 120 + nice */
	unsigned nr_tasks;
	int *llc_first;                /* first online CPU of each LLC */
	unsigned nr_llcs;
	/* runqueue probes of the placement in progress (ss_ft_probe) */
	struct ft_probe *probe;
	unsigned nr_probes, probe_cap; /* nr_probes counts past the cap; entries past it are not kept */
	unsigned sis_probe0;           /* probes before the select_idle_sibling() in progress */
	uint64_t sis_cost0;            /* sim->scan_cost at its start */
	int sis_prev, sis_target, sis_recent;
	unsigned sic_start, sic_end;   /* probes of the last select_idle_cpu() line (sic_end > sic_start when one ran) */
	/* the levels find_idlest_cpu() walked for the fork placement in progress (ss_ft_fork_level) */
	char fork_levels[640];
	size_t fork_len;
};

/* ------------------------------------------------------------ options, files */

static bool parse_time_with_unit(const char *s, size_t n, uint64_t *ns)
{
	char buf[64];
	if (n == 0 || n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	/* a unit is required, as for every time option; a bare 0 is allowed */
	if (!g_ascii_isalpha(buf[n - 1]) && strcmp(buf, "0") != 0)
		return false;
	return ss_parse_duration(buf, ns);
}

bool ss_ftrace_parse_window(const char *s, uint64_t *from_ns, uint64_t *to_ns)
{
	const char *dots = s ? strstr(s, "..") : NULL;
	uint64_t from = 0, to = UINT64_MAX;
	if (!dots)
		return false;
	if (dots > s && !parse_time_with_unit(s, (size_t)(dots - s), &from))
		return false;
	if (dots[2] && !parse_time_with_unit(dots + 2, strlen(dots + 2), &to))
		return false;
	if (to <= from)
		return false;
	*from_ns = from;
	*to_ns = to;
	return true;
}

struct ss_ftrace *ss_ftrace_open(const char *path, const struct ss_topology *topo, const struct ss_ftrace_opts *opts,
				 GError **err)
{
	struct ss_ftrace *ft;
	GStatBuf st;
	g_autofree char *dir = NULL, *base = NULL, *tmpl = NULL;
	int fd;

	if (!path || !*path) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--trace: an empty file name");
		return NULL;
	}
	if (opts->to_ns <= opts->from_ns) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--trace-window: an empty window (expected FROM..TO with TO after FROM)");
		return NULL;
	}
	ft = g_new0(struct ss_ftrace, 1);
	ft->from = opts->from_ns;
	ft->to = opts->to_ns;
	ft->ns = opts->ns_timestamps;
	ft->nr_cpus = topo->nr_cpus;
	ft->nr_online = topo->nr_active;
	ft->cpus = g_new0(uint64_t, topo->nr_words);
	if (opts->cpus) {
		unsigned bad;
		if (ss_cpumask_parse_list(opts->cpus, ft->cpus, topo->nr_cpus, &bad) < 0 ||
		    ss_cpumask_empty(ft->cpus, topo->nr_words)) {
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
				    "--trace-cpus '%s': not a CPU list of %s (expected CPUs of 0-%u, e.g. 0-7 or 0,4,8)",
				    opts->cpus, topo->name, topo->nr_cpus - 1);
			ss_ftrace_free(ft);
			return NULL;
		}
	} else {
		for (unsigned c = 0; c < topo->nr_cpus; c++)
			ss_cpumask_set(ft->cpus, c);
	}

	/* where the trace goes: a terminal or pipe (nothing to rename over) is
	 * written in place; a symlink is written through to its target */
	ft->path = g_strdup(path);
	ft->direct = g_stat(path, &st) == 0 && !S_ISREG(st.st_mode);
	if (!ft->direct && g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
		char *real = realpath(path, NULL);
		if (!real) {
			g_autofree char *target = g_file_read_link(path, NULL);
			g_autofree char *ldir = g_path_get_dirname(path);
			if (target)
				real = g_path_is_absolute(target) ? g_strdup(target) : g_build_filename(ldir, target, NULL);
		}
		if (real) {
			g_free(ft->path);
			ft->path = g_strdup(real);
			free(real);
		}
	}
	dir = ft->direct ? g_strdup(g_get_tmp_dir()) : g_path_get_dirname(ft->path);
	base = g_path_get_basename(ft->path);
	tmpl = g_strdup_printf("%s/.%s.body.XXXXXX", dir, ft->direct ? "simsched-trace" : base);
	fd = g_mkstemp(tmpl);
	if (fd < 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot create a temporary file next to it (%s)", path,
			    g_strerror(errno));
		ss_ftrace_free(ft);
		return NULL;
	}
	ft->body_path = g_strdup(tmpl);
	ft->body = fdopen(fd, "w+");
	if (!ft->body) {
		close(fd);
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot open a temporary file (%s)", path, g_strerror(errno));
		ss_ftrace_free(ft);
		return NULL;
	}
	ft->iobuf = g_malloc(FT_IOBUF);
	setvbuf(ft->body, ft->iobuf, _IOFBF, FT_IOBUF);
	return ft;
}

uint64_t ss_ftrace_entries(const struct ss_ftrace *ft)
{
	return ft->entries;
}

/* The header of a v6.6 trace file with the nop tracer and irq-info (the default). */
static void write_header(FILE *f, uint64_t entries, unsigned nr_online)
{
	fprintf(f, "# tracer: nop\n#\n");
	/* print_event_info() */
	fprintf(f, "# entries-in-buffer/entries-written: %" PRIu64 "/%" PRIu64 "   #P:%u\n#\n", entries, entries, nr_online);
	/* print_func_help_header_irq() without record-tgid (prec 2) */
	fputs("#                                _-----=> irqs-off/BH-disabled\n"
	      "#                               / _----=> need-resched\n"
	      "#                              | / _---=> hardirq/softirq\n"
	      "#                              || / _--=> preempt-depth\n"
	      "#                              ||| / _-=> migrate-disable\n"
	      "#                              |||| /     delay\n"
	      "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	      "#              | |         |   |||||     |         |\n",
	      f);
}

bool ss_ftrace_finish(struct ss_ftrace *ft, GError **err)
{
	FILE *in = NULL, *out = NULL;
	bool ok;
	size_t n;
	int e = 0;

	if (ft->finished)
		return true;
	if (!ft->body) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: the trace could not be written before", ft->path);
		return false;
	}
	/* the body is complete: close it, then copy it behind the header */
	ok = fflush(ft->body) == 0 && !ferror(ft->body);
	if (fclose(ft->body) != 0)
		ok = false;
	ft->body = NULL;
	if (ok)
		ok = (in = fopen(ft->body_path, "rb")) != NULL;
	if (ok) {
		if (ft->direct) {
			out = fopen(ft->path, "w");
		} else {
			int fd;
			ft->out_tmp = g_strdup_printf("%s.XXXXXX", ft->path);
			/* like g_file_set_contents(): mode 0666 less the umask */
			fd = g_mkstemp_full(ft->out_tmp, O_RDWR, 0666);
			if (fd < 0) {
				g_free(ft->out_tmp);
				ft->out_tmp = NULL;
			} else if (!(out = fdopen(fd, "w"))) {
				close(fd);
			}
		}
		ok = out != NULL;
	}
	if (ok) {
		/* the body's 1 MiB buffer is free now */
		write_header(out, ft->entries, ft->nr_online);
		while (ok && (n = fread(ft->iobuf, 1, FT_IOBUF, in)) > 0)
			ok = fwrite(ft->iobuf, 1, n, out) == n;
		ok = ok && !ferror(in);
	}
	if (!ok)
		e = errno;
	if (in)
		fclose(in);
	if (out && fclose(out) != 0 && ok) {
		ok = false;
		e = errno;
	}
	if (ok && !ft->direct && g_rename(ft->out_tmp, ft->path) != 0) {
		ok = false;
		e = errno;
	}
	if (!ok) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot write the trace (%s)", ft->path, g_strerror(e ? e : EIO));
		return false;
	}
	g_free(ft->out_tmp);
	ft->out_tmp = NULL;
	g_unlink(ft->body_path);
	g_free(ft->body_path);
	ft->body_path = NULL;
	ft->finished = true;
	return true;
}

void ss_ftrace_free(struct ss_ftrace *ft)
{
	if (!ft)
		return;
	if (ft->body)
		fclose(ft->body);
	if (ft->body_path)
		g_unlink(ft->body_path);
	if (ft->out_tmp)
		g_unlink(ft->out_tmp);
	g_free(ft->body_path);
	g_free(ft->out_tmp);
	g_free(ft->iobuf);
	g_free(ft->path);
	g_free(ft->cpus);
	g_free(ft->comm);
	g_free(ft->prio);
	g_free(ft->llc_first);
	g_free(ft->probe);
	g_free(ft);
}

/* ------------------------------------------------------------ a run */

bool ss_ft_attach(struct ss_sim *sim, GError **err)
{
	struct ss_ftrace *ft = sim->ft;
	const struct ss_topology *t = sim->topo;

	if (ft->attached) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "a trace records one run (open another for the next)");
		return false;
	}
	if (t->nr_cpus != ft->nr_cpus) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "the trace was opened for a machine of %u CPUs, the run has %u",
			    ft->nr_cpus, t->nr_cpus);
		return false;
	}
	ft->attached = true;
	ft->nr_tasks = sim->nr_tasks;
	ft->comm = g_malloc0(sizeof *ft->comm * (sim->nr_tasks ? sim->nr_tasks : 1));
	ft->prio = g_new0(int, sim->nr_tasks ? sim->nr_tasks : 1);
	for (unsigned i = 0; i < sim->nr_tasks; i++) {
		const struct ss_wl_task *wt = &sim->plan->task[i];
		const char *name = wt->kthread ? wt->path : ss_workload_role_name(sim->plan->wl, wt->role);
		unsigned k = 0;
		/* comm: the role's name, at most TASK_COMM_LEN - 1 bytes; no spaces
		 * or other bytes the trace parsers split on */
		for (; name && name[k] && k < 15; k++) {
			unsigned char ch = (unsigned char)name[k];
			ft->comm[i][k] = ch > ' ' && ch < 0x7f && ch != '|' ? (char)ch : '_';
		}
		if (!k)
			memcpy(ft->comm[i], "task", 5);
		ft->prio[i] = 120 + wt->nice;
	}
	ft->nr_llcs = t->nr_llc_shared;
	ft->llc_first = g_new(int, t->nr_llc_shared ? t->nr_llc_shared : 1);
	for (unsigned l = 0; l < t->nr_llc_shared; l++)
		ft->llc_first[l] = -1;
	for (unsigned c = 0; c < t->nr_cpus; c++)
		if (!t->cpu[c].offline && ft->llc_first[t->cpu[c].llc_index] < 0)
			ft->llc_first[t->cpu[c].llc_index] = (int)c;
	ft->probe_cap = 4 * t->nr_cpus + 64;
	ft->probe = g_new0(struct ft_probe, ft->probe_cap);
	return true;
}

static inline bool traced_cpu(const struct ss_ftrace *ft, unsigned cpu)
{
	return ss_cpumask_test(ft->cpus, cpu);
}

/* The task a line of cpu is written for: what runs there, as current sees it. */
struct col {
	const char *comm;
	int pid;
	char buf[16];
};

static void column(const struct ss_sim *sim, unsigned cpu, struct col *c)
{
	const struct ss_ftrace *ft = sim->ft;
	const struct ss_rq *rq = &sim->rq[cpu];
	const struct ss_task *p = rq->curr;
	/* a waker keeps the CPU until its wakeup is done (the model switches to
	 * a wakee that preempts it at once) */
	if (cpu == sim->this_cpu && sim->current)
		p = sim->current;
	if (p) {
		c->comm = ft->comm[p->id];
		c->pid = (int)p->id + 1;
	} else if (rq->stopper_running) {
		g_snprintf(c->buf, sizeof c->buf, "migration/%u", cpu);
		c->comm = c->buf;
		c->pid = FT_STOPPER_PID_BASE + (int)cpu;
	} else {
		c->comm = "<idle>";   /* trace_find_cmdline() of pid 0 */
		c->pid = 0;
	}
}

/* The context part of a line (trace_print_context()) for comm-pid on cpu; returns the stream. */
static FILE *line_as(struct ss_ftrace *ft, const char *comm, int pid, unsigned cpu, const char *flags, uint64_t ns)
{
	FILE *f = ft->body;
	if (ft->ns)
		fprintf(f, "%16s-%-7d [%03u] %s %5" PRIu64 ".%09" PRIu64 ": ", comm, pid, cpu, flags, ns / 1000000000u,
			ns % 1000000000u);
	else {
		uint64_t us = (ns + 500) / 1000;   /* ns2usecs() */
		fprintf(f, "%16s-%-7d [%03u] %s %5" PRIu64 ".%06" PRIu64 ": ", comm, pid, cpu, flags, us / 1000000u,
			us % 1000000u);
	}
	ft->entries++;
	return f;
}

/* The context part of a line of cpu, written for what runs there (column()). */
static FILE *line(struct ss_sim *sim, unsigned cpu, const char *flags, uint64_t ns, struct col *c)
{
	column(sim, cpu, c);
	return line_as(sim->ft, c->comm, c->pid, cpu, flags, ns);
}

/*
 * Flags (trace_print_lat_fmt()) of the context each event is recorded in:
 * irqs off and two levels of preemption disabled (a runqueue or pi lock
 * held) for the scheduler's paths, hardirq for timer and IPI wakeups,
 * softirq for the periodic and NOHZ balance; need-resched ('N': TIF and
 * PREEMPT_NEED_RESCHED) on a wakeup that reschedules the CPU it is written on.
 */
#define FL_LOCKED "d..2."
#define FL_LOCKED_RESCHED "dN.2."
#define FL_HARDIRQ "d.h2."
#define FL_HARDIRQ_RESCHED "dNh2."
#define FL_SOFTIRQ "..s1."
#define FL_SOFTIRQ_LOCKED "d.s2."
#define FL_SOFTIRQ_LOCKED_RESCHED "dNs2."

/* The waker's context: a task (locks held in try_to_wake_up), the timer softirq (a kworker's work) or the timer interrupt. */
static inline const char *waker_flags(const struct ss_sim *sim)
{
	return sim->current ? FL_LOCKED : sim->in_softirq ? FL_SOFTIRQ_LOCKED : FL_HARDIRQ;
}

static inline int task_pid(const struct ss_task *p)
{
	return (int)p->id + 1;
}

/* ------------------------------------------------------------ window */

static void counter(struct ss_sim *sim, unsigned cpu, const char *flags, uint64_t ns, const char *what, unsigned idx,
		    unsigned long value)
{
	struct col c;
	FILE *f = line(sim, cpu, flags, ns, &c);
	fprintf(f, "tracing_mark_write: C|0|%s%u|%lu\n", what, idx, value);
}

void ss_ft_window(struct ss_sim *sim, bool at_control)
{
	struct ss_ftrace *ft = sim->ft;
	uint64_t t = sim->now;
	/* after FROM (at FROM: only what follows the end of warmup, the
	 * measured window's rule; from 0: the whole start) up to TO */
	bool on = (t > ft->from || (t == ft->from && (at_control || !ft->from))) && t <= ft->to;

	if (on && !ft->started) {
		/* the counters' values when the window opens */
		ft->started = true;
		for (unsigned c = 0; c < sim->nr_cpus; c++)
			if (sim->rq[c].acct_on && traced_cpu(ft, c))
				counter(sim, c, FL_LOCKED, ft->from, "nr_running_cpu", c, sim->rq[c].cfs.nr_running);
		for (unsigned l = 0; l < ft->nr_llcs; l++)
			if (ft->llc_first[l] >= 0 && traced_cpu(ft, (unsigned)ft->llc_first[l]))
				counter(sim, (unsigned)ft->llc_first[l], FL_LOCKED, ft->from, "nr_idle_scan_llc", l,
					sim->llc_shared[l].nr_idle_scan);
	}
	sim->tracing = on;
	/* the next time the answer may change: after TO once open; FROM
	 * (again, for a later event at FROM) before it opens; never after TO */
	if (on)
		sim->ft_next = ft->to == UINT64_MAX ? UINT64_MAX : ft->to + 1;
	else
		sim->ft_next = t > ft->to ? UINT64_MAX : ft->from;
}

/* ------------------------------------------------------------ sched events */

static const char *prev_state(const struct ss_task *p)
{
	/* __trace_sched_switch_state() v6.6: a preempted task reports
	 * TASK_REPORT_MAX ("R+"); one that blocked or slept TASK_INTERRUPTIBLE
	 * ("S"); one that exited EXIT_ZOMBIE ("Z") */
	if (p->se.on_rq)
		return "R+";
	return p->state == SS_TASK_DEAD ? "Z" : "S";
}

void ss_ft_switch(struct ss_sim *sim, struct ss_rq *rq, const struct ss_task *prev, const struct ss_task *next,
		  unsigned how)
{
	struct ss_ftrace *ft = sim->ft;
	char pbuf[16], nbuf[16];
	const char *pcomm, *ncomm, *pstate = "R";
	int ppid, npid, pprio, nprio;
	FILE *f;

	if (!traced_cpu(ft, rq->cpu))
		return;
	if (prev) {
		pcomm = ft->comm[prev->id];
		ppid = task_pid(prev);
		pprio = ft->prio[prev->id];
		pstate = prev_state(prev);
	} else if (how & SS_FT_PREV_STOPPER) {
		g_snprintf(pbuf, sizeof pbuf, "migration/%u", rq->cpu);
		pcomm = pbuf;
		ppid = FT_STOPPER_PID_BASE + (int)rq->cpu;
		pprio = 0;   /* the stop class: MAX_RT_PRIO - 1 - (MAX_RT_PRIO - 1) */
		pstate = "S";
	} else {
		g_snprintf(pbuf, sizeof pbuf, "swapper/%u", rq->cpu);
		pcomm = pbuf;
		ppid = 0;
		pprio = 120;
	}
	if (next) {
		ncomm = ft->comm[next->id];
		npid = task_pid(next);
		nprio = ft->prio[next->id];
	} else if (how & SS_FT_NEXT_STOPPER) {
		g_snprintf(nbuf, sizeof nbuf, "migration/%u", rq->cpu);
		ncomm = nbuf;
		npid = FT_STOPPER_PID_BASE + (int)rq->cpu;
		nprio = 0;
	} else {
		g_snprintf(nbuf, sizeof nbuf, "swapper/%u", rq->cpu);
		ncomm = nbuf;
		npid = 0;
		nprio = 120;
	}
	/* written in prev's context: the column is prev, not rq->curr */
	f = line_as(ft, prev || (how & SS_FT_PREV_STOPPER) ? pcomm : "<idle>", ppid, rq->cpu, FL_LOCKED, sim->now);
	fprintf(f,
		"sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d\n",
		pcomm, ppid, pprio, pstate, ncomm, npid, nprio);
}

void ss_ft_waking(struct ss_sim *sim, const struct ss_task *p)
{
	struct ss_ftrace *ft = sim->ft;
	struct col c;
	FILE *f;
	/* a new placement: its probes start here */
	ft->nr_probes = 0;
	ft->sic_start = ft->sic_end = 0;
	if (!traced_cpu(ft, sim->this_cpu))
		return;
	/* trace_sched_waking() at the top of try_to_wake_up(): task_cpu(p) is still the previous CPU */
	f = line(sim, sim->this_cpu, waker_flags(sim), sim->now, &c);
	fprintf(f, "sched_waking: comm=%s pid=%d prio=%d target_cpu=%03d\n", ft->comm[p->id], task_pid(p), ft->prio[p->id],
		p->cpu);
}

void ss_ft_wakeup(struct ss_sim *sim, const struct ss_task *p, unsigned cpu, bool new_task, bool resched, bool irq)
{
	struct ss_ftrace *ft = sim->ft;
	struct col c;
	FILE *f;
	const char *flags;
	if (!traced_cpu(ft, cpu))
		return;
	if (irq)
		flags = resched ? FL_HARDIRQ_RESCHED : FL_HARDIRQ;
	else if (sim->in_softirq)
		flags = resched ? FL_SOFTIRQ_LOCKED_RESCHED : FL_SOFTIRQ_LOCKED;
	else
		flags = resched ? FL_LOCKED_RESCHED : FL_LOCKED;
	f = line(sim, cpu, flags, sim->now, &c);
	fprintf(f, "%s: comm=%s pid=%d prio=%d target_cpu=%03d\n", new_task ? "sched_wakeup_new" : "sched_wakeup",
		ft->comm[p->id], task_pid(p), ft->prio[p->id], p->cpu);
}

void ss_ft_migrate(struct ss_sim *sim, const struct ss_task *p, unsigned dest_cpu, unsigned cause)
{
	struct ss_ftrace *ft = sim->ft;
	struct col c;
	FILE *f;
	const char *flags;
	if (!traced_cpu(ft, sim->this_cpu))
		return;
	switch (cause) {
	case SS_MIG_WAKEUP:
		flags = waker_flags(sim);
		break;
	case SS_MIG_PERIODIC:
	case SS_MIG_NOHZ:
		flags = FL_SOFTIRQ_LOCKED;
		break;
	default:
		flags = FL_LOCKED;
		break;
	}
	/* set_task_cpu() -> trace_sched_migrate_task(), on the CPU doing the move */
	f = line(sim, sim->this_cpu, flags, sim->now, &c);
	fprintf(f, "sched_migrate_task: comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%u\n", ft->comm[p->id], task_pid(p),
		ft->prio[p->id], p->cpu, dest_cpu);
}

void ss_ft_nr_running(struct ss_sim *sim, const struct ss_rq *rq)
{
	/* the runqueues of the CPUs the run may use (rq_acct's) */
	if (rq->acct_on && traced_cpu(sim->ft, rq->cpu))
		counter(sim, rq->cpu, FL_LOCKED, sim->now, "nr_running_cpu", rq->cpu, rq->cfs.nr_running);
}

void ss_ft_nr_idle_scan(struct ss_sim *sim, unsigned llc_index, unsigned nr)
{
	/* written by update_idle_cpu_scan() in the balancing CPU's softirq */
	if (traced_cpu(sim->ft, sim->this_cpu))
		counter(sim, sim->this_cpu, FL_SOFTIRQ, sim->now, "nr_idle_scan_llc", llc_index, nr);
}

void ss_ft_wakeup_stacked(struct ss_sim *sim, const struct ss_task *p, const struct ss_rq *rq)
{
	struct ss_ftrace *ft = sim->ft;
	struct col c;
	FILE *f;
	if (!traced_cpu(ft, rq->cpu))
		return;
	f = line(sim, rq->cpu, FL_HARDIRQ, sim->now, &c);
	fprintf(f, "tracing_mark_write: I|%d|wakeup_stacked: comm=%s pid=%d cpu=%u waker_cpu=%u nr_running=%u", c.pid,
		ft->comm[p->id], task_pid(p), rq->cpu, (unsigned)p->waker_cpu, rq->cfs.nr_running);
	if (rq->curr)
		fprintf(f, " curr_comm=%s curr_pid=%d", ft->comm[rq->curr->id], task_pid(rq->curr));
	fputc('\n', f);
}

void ss_ft_rq_lock_wait(struct ss_sim *sim, const struct ss_rq *rq, unsigned taker, unsigned kind, uint64_t t,
			uint64_t wait_ns)
{
	static const char *const kinds[SS_LOCK_NR] = { "ttwu", "drain", "schedule", "balance", "tick" };
	struct ss_ftrace *ft = sim->ft;
	struct col c;
	FILE *f;
	if (!traced_cpu(ft, taker))
		return;
	f = line(sim, taker, FL_LOCKED, sim->now, &c);
	fprintf(f, "tracing_mark_write: I|%d|rq_lock_wait: cpu=%u taker=%s at_ns=%" PRIu64 " wait_ns=%" PRIu64 "\n", c.pid,
		rq->cpu, kind < SS_LOCK_NR ? kinds[kind] : "?", t, wait_ns);
}

/* ------------------------------------------------------------ placement markers */

unsigned ss_ft_nr_probes(const struct ss_sim *sim)
{
	return sim->ft->nr_probes;
}

void ss_ft_probe(struct ss_sim *sim, unsigned cpu)
{
	struct ss_ftrace *ft = sim->ft;
	const struct ss_rq *rq = &sim->rq[cpu];
	struct ft_probe *pr;
	if (!traced_cpu(ft, sim->this_cpu))
		return;
	if (ft->nr_probes < ft->probe_cap) {
		pr = &ft->probe[ft->nr_probes];
		pr->cpu = cpu;
		pr->nr_running = rq->cfs.nr_running;
		/* what ss_available_idle_cpu() will answer, and why not */
		pr->kind = ss_idle_cpu(sim, cpu) ? FT_PROBE_IDLE
			   : (rq->curr || rq->cfs.nr_running || rq->stopper_running) ? FT_PROBE_BUSY : FT_PROBE_WAKING;
	}
	ft->nr_probes++;
}

/* " probes=4:busy/1,5:idle" for probes [from, to) (those past the log's cap are counted) */
static void write_probes(FILE *f, const struct ss_ftrace *ft, unsigned from, unsigned to, bool *first)
{
	for (unsigned i = from; i < to; i++) {
		const struct ft_probe *pr = &ft->probe[i];
		fputs(*first ? " probes=" : ",", f);
		*first = false;
		if (i >= ft->probe_cap) {
			fprintf(f, "+%u", to - i);
			return;
		}
		if (pr->kind == FT_PROBE_IDLE)
			fprintf(f, "%u:idle", pr->cpu);
		else if (pr->kind == FT_PROBE_BUSY)
			fprintf(f, "%u:busy/%u", pr->cpu, pr->nr_running);
		else
			fprintf(f, "%u:waking", pr->cpu);
	}
}

void ss_ft_sis_enter(struct ss_sim *sim, const struct ss_task *p, int prev, int target)
{
	struct ss_ftrace *ft = sim->ft;
	ft->sis_probe0 = ft->nr_probes;
	ft->sis_cost0 = sim->scan_cost;
	ft->sis_prev = prev;
	ft->sis_target = target;
	ft->sis_recent = p->recent_used_cpu;
	ft->sic_start = ft->sic_end = 0;
}

static const char *const sis_via[SS_SIS_NR] = {
	"target", "prev", "recent_used_cpu", "smt_sibling", "select_idle_cpu", "fallback_target",
};

void ss_ft_sis_done(struct ss_sim *sim, const struct ss_task *p, int outcome, int cpu)
{
	struct ss_ftrace *ft = sim->ft;
	struct col c;
	FILE *f;
	bool first = true;
	if (!traced_cpu(ft, sim->this_cpu))
		return;
	f = line(sim, sim->this_cpu, waker_flags(sim), sim->now, &c);
	fprintf(f, "tracing_mark_write: I|%d|select_idle_sibling: pid=%d prev=%d target=%d recent_used_cpu=%d", c.pid,
		task_pid(p), ft->sis_prev, ft->sis_target, ft->sis_recent);
	/* its own probes; those of a select_idle_cpu() line of it are counted there */
	if (ft->sic_end > ft->sic_start && ft->sic_start >= ft->sis_probe0) {
		write_probes(f, ft, ft->sis_probe0, ft->sic_start, &first);
		write_probes(f, ft, ft->sic_end, ft->nr_probes, &first);
		fprintf(f, "%s scan_probes=%u", first ? " probes=none" : "", ft->sic_end - ft->sic_start);
	} else {
		write_probes(f, ft, ft->sis_probe0, ft->nr_probes, &first);
		if (first)
			fputs(" probes=none", f);
	}
	fprintf(f, " result=%d via=%s cost_ns=%" PRIu64 "\n", cpu,
		outcome >= 0 && outcome < SS_SIS_NR ? sis_via[outcome] : "?", sim->scan_cost - ft->sis_cost0);
}

void ss_ft_select_idle_cpu(struct ss_sim *sim, const struct ss_task *p, const char *fn, int target, bool has_idle_core,
			   long nr, unsigned probes, int result, const char *stop, uint64_t cost_ns)
{
	struct ss_ftrace *ft = sim->ft;
	struct col c;
	FILE *f;
	bool first = true;
	if (!traced_cpu(ft, sim->this_cpu))
		return;
	/* this call's probes are the last `probes` of the placement */
	ft->sic_end = ft->nr_probes;
	ft->sic_start = ft->nr_probes >= probes ? ft->nr_probes - probes : 0;
	f = line(sim, sim->this_cpu, waker_flags(sim), sim->now, &c);
	fprintf(f, "tracing_mark_write: I|%d|%s: pid=%d target=%d llc=%u has_idle_core=%d", c.pid, fn, task_pid(p), target,
		sim->topo->cpu[target].llc_index, has_idle_core);
	if (nr < 0)
		fputs(" nr=none", f);
	else
		fprintf(f, " nr=%ld", nr);
	write_probes(f, ft, ft->sic_start, ft->sic_end, &first);
	if (first)
		fputs(" probes=none", f);
	fprintf(f, " result=%d stop=%s cost_ns=%" PRIu64 "\n", result, stop, cost_ns);
}

void ss_ft_sic(struct ss_sim *sim, const struct ss_task *p, int target, bool has_idle_core, long nr, unsigned probes,
	       int result, uint64_t cost_ns)
{
	/*
	 * select_idle_cpu() v6.6 leaves nr decremented once per probe of the
	 * non-core walk and once more where "if (!--nr)" stopped it; SIS_UTIL
	 * returns at once when nr_idle_scan + 1 == 1. The budget it started
	 * with follows from the end state.
	 */
	bool skipped = result < 0 && !probes && ss_feat(sim->features, SS_FEAT_SIS_UTIL) &&
		       !sd_llc_shared(sim, (unsigned)target)->nr_idle_scan;
	const char *stop;
	long nr0;

	if (!traced_cpu(sim->ft, sim->this_cpu))
		return;

	if (result >= 0)
		stop = "found";
	else if (skipped)
		stop = "nr_idle_scan_0";
	else if (sim->scan_walked_all)
		stop = "walked_all";
	else
		stop = "budget";
	if (skipped)
		nr0 = 1;
	else if (has_idle_core)
		nr0 = nr;
	else
		nr0 = nr + (long)probes + (!strcmp(stop, "budget") ? 1 : 0);
	ss_ft_select_idle_cpu(sim, p, "select_idle_cpu", target, has_idle_core, nr0 >= INT_MAX ? -1 : nr0, probes,
			      result, stop, cost_ns);
}

void ss_ft_select_task_rq(struct ss_sim *sim, const struct ss_task *p, int wake_flags, int cpu)
{
	struct ss_ftrace *ft = sim->ft;
	struct col c;
	FILE *f;
	if (!traced_cpu(ft, sim->this_cpu))
		return;
	f = line(sim, sim->this_cpu, waker_flags(sim), sim->now, &c);
	fprintf(f,
		"tracing_mark_write: I|%d|select_task_rq: comm=%s pid=%d prev_cpu=%d this_cpu=%u wake_flags=0x%x result=%d "
		"rqs_probed=%u cost_ns=%" PRIu64 "\n",
		c.pid, ft->comm[p->id], task_pid(p), p->cpu, sim->this_cpu, (unsigned)wake_flags, cpu, ft->nr_probes,
		sim->scan_cost);
}

/*
 * A fork's placement: "find_idlest_cpu: comm=C pid=P parent_cpu=N
 * levels=L result=R" (an exec's: exec_cpu=N, the task's own CPU, and its
 * SD_BALANCE_EXEC levels), L being each SD_BALANCE_FORK level find_idlest_cpu()
 * visited, as NAME:stay(WHY,local_idle/idlest_idle) when find_idlest_group()
 * kept the task in the local group, or NAME:group=G(WHY,...)->cpu=C when it
 * chose the group whose first CPU is G and find_idlest_group_cpu() took C.
 * WHY is the test that decided: idle_cpus (group_has_spare: most idle
 * CPUs), numa_imbalance (allowed NUMA imbalance), load (fully busy or
 * overloaded: avg_load), local_type (group_type), no_other_group,
 * local_not_allowed (affinity). levels=none: the policy did not walk the
 * domains (a single allowed CPU, or a plugin).
 */
void ss_ft_fork_level(struct ss_sim *sim, const struct ss_sched_domain *sd, const char *why, int group_cpu,
		      unsigned local_idle, unsigned idlest_idle, int cpu)
{
	struct ss_ftrace *ft = sim->ft;
	size_t room = sizeof ft->fork_levels - ft->fork_len;
	int n;

	if (room <= 1)
		return;
	if (group_cpu < 0)
		n = snprintf(ft->fork_levels + ft->fork_len, room, "%s%s:stay(%s,%u/%u)", ft->fork_len ? "," : "", sd->name,
			     why, local_idle, idlest_idle);
	else
		n = snprintf(ft->fork_levels + ft->fork_len, room, "%s%s:group=%d(%s,%u/%u)->cpu=%d", ft->fork_len ? "," : "",
			     sd->name, group_cpu, why, local_idle, idlest_idle, cpu);
	if (n > 0)
		ft->fork_len = (size_t)n < room ? ft->fork_len + (size_t)n : sizeof ft->fork_levels - 1;
}

void ss_ft_fork_place(struct ss_sim *sim, const struct ss_task *p, const char *from, unsigned from_cpu, int cpu)
{
	struct ss_ftrace *ft = sim->ft;
	struct col c;
	FILE *f;

	if (traced_cpu(ft, sim->this_cpu)) {
		f = line(sim, sim->this_cpu, waker_flags(sim), sim->now, &c);
		fprintf(f, "tracing_mark_write: I|%d|find_idlest_cpu: comm=%s pid=%d %s=%u levels=%s result=%d\n", c.pid,
			ft->comm[p->id], task_pid(p), from, from_cpu, ft->fork_len ? ft->fork_levels : "none", cpu);
	}
	ft->fork_len = 0;
	ft->fork_levels[0] = '\0';
}

/* ------------------------------------------------------------ balance markers */

static const char *const idle_names[] = { "CPU_IDLE", "CPU_NOT_IDLE", "CPU_NEWLY_IDLE" };
static const char *const migration_type_names[] = { "migrate_load", "migrate_util", "migrate_task", "migrate_misfit" };

void ss_ft_load_balance(struct ss_sim *sim, unsigned dst_cpu, const struct ss_sched_domain *sd, int idle,
			int busiest_cpu, long imbalance, int migration_type, int moved, const char *result,
			uint64_t cost_ns)
{
	struct ss_ftrace *ft = sim->ft;
	struct col c;
	FILE *f;
	if (!traced_cpu(ft, sim->this_cpu))
		return;
	f = line(sim, sim->this_cpu, idle == CPU_NEWLY_IDLE ? FL_LOCKED : FL_SOFTIRQ, sim->now, &c);
	fprintf(f, "tracing_mark_write: I|%d|load_balance: dst_cpu=%u sd=%s idle=%s busiest_cpu=%d", c.pid, dst_cpu,
		sd->name, idle >= 0 && idle <= 2 ? idle_names[idle] : "?", busiest_cpu);
	if (busiest_cpu >= 0)
		fprintf(f, " migration_type=%s imbalance=%ld",
			migration_type >= 0 && migration_type <= 3 ? migration_type_names[migration_type] : "?", imbalance);
	fprintf(f, " moved=%d result=%s cost_ns=%" PRIu64 "\n", moved, result, cost_ns);
}
