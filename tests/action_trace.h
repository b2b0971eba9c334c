/*
 * Test helper: record every workload action of a run (struct ss_run_config's
 * action hook) with its time and task, for timeline assertions. Define MAXA,
 * the most actions kept, before including; later actions are dropped.
 */
#ifndef SS_TESTS_ACTION_TRACE_H
#define SS_TESTS_ACTION_TRACE_H

#include <stdint.h>

#include "simsched/workload.h"

#ifndef MAXA
#error "define MAXA (actions kept) before including action_trace.h"
#endif

struct trace {
	unsigned n;
	struct {
		uint64_t t;
		unsigned task;
		struct ss_wl_action a;
	} e[MAXA];
};

static inline void record(void *ctx, uint64_t now, unsigned task, const struct ss_wl_action *a)
{
	struct trace *tr = ctx;

	if (tr->n < MAXA) {
		tr->e[tr->n].t = now;
		tr->e[tr->n].task = task;
		tr->e[tr->n].a = *a;
		tr->n++;
	}
}

#endif
