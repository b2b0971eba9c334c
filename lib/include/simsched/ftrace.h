/*
 * simsched/ftrace.h — a run written as a kernel trace (simsched run --trace).
 *
 * The file has the layout of /sys/kernel/tracing/trace of kernel v6.6 with
 * the nop tracer and the sched events enabled: the "# tracer: nop" header
 * and column legend of print_func_help_header_irq() (kernel/trace/trace.c),
 * then one line per event as trace_print_context() (trace_output.c) prints
 * it — "comm-pid [cpu] flags timestamp: event: fields" — with the TP_printk
 * field order of include/trace/events/sched.h: sched_waking, sched_wakeup,
 * sched_wakeup_new, sched_switch, sched_migrate_task. The simulator's own
 * decisions (select_task_rq, select_idle_sibling, select_idle_cpu,
 * load_balance) are trace_marker lines ("tracing_mark_write: I|pid|...",
 * atrace instants) and nr_idle_scan / nr_running are atrace counters
 * ("tracing_mark_write: C|0|name|value"). Lines, pids and comms:
 * docs/output.md "kernel trace".
 *
 * Tracing changes nothing in the model: the same run with and without a
 * trace gives the same results, and a trace of some CPUs holds exactly the
 * lines of those CPUs that a trace of all CPUs holds.
 */
#ifndef SIMSCHED_FTRACE_H
#define SIMSCHED_FTRACE_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

struct ss_topology;
struct ss_ftrace;

/** Options of a trace. */
struct ss_ftrace_opts {
	/*
	 * The window of simulated time, ns: events after from_ns up to and
	 * including to_ns (the measured window's rule: events at exactly
	 * from_ns belong to the time before it; a window from 0 holds the
	 * run's start at t = 0). to_ns = UINT64_MAX: to the end of the run.
	 */
	uint64_t from_ns, to_ns;
	/* CPUs whose lines are written, a kernel cpulist ("0-7,16"); NULL = all */
	const char *cpus;
	/* timestamps with nanoseconds ("%5lu.%09lu") instead of the kernel's microseconds ("%5lu.%06lu") */
	bool ns_timestamps;
};

/**
 * Parse a window "FROM..TO" of times with units ("1s..1.005s", "0..5ms",
 * "2s.." for "to the end"). false if malformed or TO < FROM.
 */
bool ss_ftrace_parse_window(const char *s, uint64_t *from_ns, uint64_t *to_ns);

/**
 * Open a trace of one run on machine topo, to be written to path (a
 * regular file is written through a temporary file in its directory and
 * renamed by ss_ftrace_finish(); a terminal or pipe is written when
 * finished). Nothing at path changes before ss_ftrace_finish(). Give the
 * result to one ss_simulate() (struct ss_run_config.ftrace), then call
 * ss_ftrace_finish() if the run succeeded, and ss_ftrace_free() in any case.
 * NULL + *err: SS_ERROR_USAGE for a CPU list that is not one of the
 * machine's online CPUs or an empty window, SS_ERROR_IO when no temporary
 * file can be created next to path.
 */
struct ss_ftrace *ss_ftrace_open(const char *path, const struct ss_topology *topo, const struct ss_ftrace_opts *opts,
				 GError **err);

/** Lines written so far (the header excluded). */
uint64_t ss_ftrace_entries(const struct ss_ftrace *ft);

/**
 * Write the header and the lines to the path given to ss_ftrace_open().
 * false + *err (SS_ERROR_IO) if a write failed; the path is then untouched
 * (or, for a terminal or pipe, partly written).
 */
bool ss_ftrace_finish(struct ss_ftrace *ft, GError **err);

/** Free; an unfinished trace's temporary files are removed. NULL is a no-op. */
void ss_ftrace_free(struct ss_ftrace *ft);

#endif
