/*
 * The event queue: a binary min-heap of pointers to events embedded in their
 * owners, ordered by (time, class, cpu, sequence). Capacity is fixed at init
 * (every event that can exist is embedded somewhere), so the hot path never
 * allocates; cancel/reschedule are O(log n) through heap_idx.
 */
#include "ss_sched.h"

#include <glib.h>

static inline bool ev_before(const struct ss_event *a, const struct ss_event *b)
{
	return a->time < b->time || (a->time == b->time && a->key < b->key);
}

static inline void heap_set(struct ss_evq *q, uint32_t i, struct ss_event *ev)
{
	q->heap[i] = ev;
	ev->heap_idx = i;
}

static void sift_up(struct ss_evq *q, uint32_t i)
{
	struct ss_event *ev = q->heap[i];
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;
		if (!ev_before(ev, q->heap[parent]))
			break;
		heap_set(q, i, q->heap[parent]);
		i = parent;
	}
	heap_set(q, i, ev);
}

static void sift_down(struct ss_evq *q, uint32_t i)
{
	struct ss_event *ev = q->heap[i];
	for (;;) {
		uint32_t l = 2 * i + 1, m;
		if (l >= q->nr)
			break;
		m = l;
		if (l + 1 < q->nr && ev_before(q->heap[l + 1], q->heap[l]))
			m = l + 1;
		if (!ev_before(q->heap[m], ev))
			break;
		heap_set(q, i, q->heap[m]);
		i = m;
	}
	heap_set(q, i, ev);
}

void ss_evq_init(struct ss_evq *q, uint32_t cap)
{
	q->heap = g_new0(struct ss_event *, cap ? cap : 1);
	q->cap = cap ? cap : 1;
	q->nr = 0;
	q->seq = 0;
}

void ss_evq_destroy(struct ss_evq *q)
{
	g_free(q->heap);
	q->heap = NULL;
	q->nr = q->cap = 0;
}

void ss_evq_cancel(struct ss_evq *q, struct ss_event *ev)
{
	uint32_t i = ev->heap_idx;
	if (i == SS_EV_IDLE)
		return;
	ev->heap_idx = SS_EV_IDLE;
	q->nr--;
	if (i == q->nr)
		return;
	struct ss_event *last = q->heap[q->nr];
	heap_set(q, i, last);
	if (i > 0 && ev_before(last, q->heap[(i - 1) / 2]))
		sift_up(q, i);
	else
		sift_down(q, i);
}

void ss_evq_schedule(struct ss_evq *q, struct ss_event *ev, uint64_t t, unsigned cls, unsigned cpu)
{
	if (ev->heap_idx != SS_EV_IDLE)
		ss_evq_cancel(q, ev);
	g_assert(q->nr < q->cap);
	ev->time = t;
	ev->cls = (uint16_t)cls;
	ev->key = ((uint64_t)cls << 56) | ((uint64_t)(cpu & 0xffff) << 40) | (q->seq++ & ((UINT64_C(1) << 40) - 1));
	q->heap[q->nr] = ev;
	ev->heap_idx = q->nr++;
	sift_up(q, ev->heap_idx);
}

struct ss_event *ss_evq_pop(struct ss_evq *q)
{
	if (!q->nr)
		return NULL;
	struct ss_event *ev = q->heap[0];
	ss_evq_cancel(q, ev);
	return ev;
}
