/*
 * The event queue: a 4-ary min-heap of (time, key, event) slots, the events
 * embedded in their owners, ordered by (time, class, cpu, sequence). The keys
 * live in the heap array itself, so sifting never dereferences an event;
 * capacity is fixed at init (every event that can exist is embedded
 * somewhere), so the hot path never allocates; cancel and reschedule are
 * O(log n) through the event's heap_idx.
 */
#include "ss_sched.h"

#include <glib.h>

#define ARITY 4

static inline bool slot_before(const struct ss_evq_slot *a, const struct ss_evq_slot *b)
{
	return a->time < b->time || (a->time == b->time && a->key < b->key);
}

static inline void heap_put(struct ss_evq *q, uint32_t i, struct ss_evq_slot s)
{
	q->heap[i] = s;
	s.ev->heap_idx = i;
}

static void sift_up(struct ss_evq *q, uint32_t i, struct ss_evq_slot s)
{
	while (i > 0) {
		uint32_t parent = (i - 1) / ARITY;
		if (!slot_before(&s, &q->heap[parent]))
			break;
		heap_put(q, i, q->heap[parent]);
		i = parent;
	}
	heap_put(q, i, s);
}

static inline unsigned __int128 prio(const struct ss_evq_slot *a)
{
	return ((unsigned __int128)a->time << 64) | a->key;
}

static void sift_down(struct ss_evq *q, uint32_t i, struct ss_evq_slot s)
{
	uint32_t n = q->nr;
	unsigned __int128 sp = prio(&s);
	for (;;) {
		uint32_t first = ARITY * i + 1, m;
		unsigned __int128 mp;
		if (first >= n)
			break;
		m = first;
		mp = prio(&q->heap[first]);
		if (first + ARITY <= n) {
			/* all four children: select the minimum without branches */
			for (uint32_t c = first + 1; c < first + ARITY; c++) {
				unsigned __int128 cp = prio(&q->heap[c]);
				bool lt = cp < mp;
				m = lt ? c : m;
				mp = lt ? cp : mp;
			}
		} else {
			for (uint32_t c = first + 1; c < n; c++) {
				unsigned __int128 cp = prio(&q->heap[c]);
				if (cp < mp) {
					m = c;
					mp = cp;
				}
			}
		}
		if (mp >= sp)
			break;
		heap_put(q, i, q->heap[m]);
		i = m;
	}
	heap_put(q, i, s);
}

void ss_evq_init(struct ss_evq *q, uint32_t cap)
{
	q->cap = cap ? cap : 1;
	q->heap = g_new0(struct ss_evq_slot, q->cap);
	q->nr = 0;
	q->seq = 0;
}

void ss_evq_destroy(struct ss_evq *q)
{
	g_free(q->heap);
	q->heap = NULL;
	q->nr = q->cap = 0;
}

/* Re-place slot i after its key changed. */
static void fix(struct ss_evq *q, uint32_t i, struct ss_evq_slot s)
{
	if (i > 0 && slot_before(&s, &q->heap[(i - 1) / ARITY]))
		sift_up(q, i, s);
	else
		sift_down(q, i, s);
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
	fix(q, i, q->heap[q->nr]);
}

void ss_evq_schedule(struct ss_evq *q, struct ss_event *ev, uint64_t t, unsigned cls, unsigned cpu)
{
	struct ss_evq_slot s;
	ev->time = t;
	ev->cls = (uint16_t)cls;
	ev->key = ((uint64_t)cls << 56) | ((uint64_t)(cpu & 0xffff) << 40) | (q->seq++ & ((UINT64_C(1) << 40) - 1));
	s.time = t;
	s.key = ev->key;
	s.ev = ev;
	if (ev->heap_idx != SS_EV_IDLE) {
		fix(q, ev->heap_idx, s);   /* move in place */
		return;
	}
	g_assert(q->nr < q->cap);
	sift_up(q, q->nr++, s);
}

struct ss_event *ss_evq_pop(struct ss_evq *q)
{
	if (!q->nr)
		return NULL;
	struct ss_event *ev = q->heap[0].ev;
	ev->heap_idx = SS_EV_IDLE;
	if (--q->nr)
		sift_down(q, 0, q->heap[q->nr]);
	return ev;
}
