/*
 * The event queue: a 4-ary min-heap of (time, key, id) slots, the events
 * embedded in their owners, ordered by (time, class, cpu, sequence). The keys
 * live in the heap array itself, so sifting never dereferences an event.
 * A queued event holds a slot id (ev->heap_idx) for as long as it is queued;
 * the id's heap position lives in the dense array pos[], so moving a slot
 * writes 4 bytes next to the heap instead of a field of an event somewhere
 * in the task or runqueue arrays (at thousands of CPUs that write was a
 * cache miss per heap level). Capacity is fixed at init (every event that
 * can exist is embedded somewhere), so the hot path never allocates; cancel
 * and reschedule are O(log n) through pos[].
 *
 * (time, key) is unique (the key ends in a sequence number), so the order of
 * pops is the same as with any other correct priority queue.
 *
 * A slot also carries its event's pointer and a prefetch hint: when an event
 * is popped, the queue starts loading the one most likely handled next (the
 * root's smallest child) and the array element its handler reads first (for
 * a burst end, the running task: ss_evq_schedule_hint), so at thousands of
 * CPUs those cache misses overlap the current event's handling instead of
 * starting the next one.
 *
 * Lazy pop: ss_evq_pop() hands out the root's event but leaves its slot at
 * the root ("vacant", q->vacant_id) until the next queue operation. Handling
 * an event nearly always schedules one first (the CPU's next burst end, a
 * wakee's arrival): that event takes the vacant root slot and sinks from
 * there, one sift instead of the pop's sift of the last slot plus the
 * insert's sift up. Any other operation first removes the vacant slot.
 */
#include "ss_sched.h"

#include <glib.h>

#define ARITY 4

static inline unsigned __int128 prio(const struct ss_evq_slot *a)
{
	return ((unsigned __int128)a->time << 64) | a->key;
}

static inline void heap_put(struct ss_evq *q, uint32_t i, const struct ss_evq_slot *s)
{
	q->heap[i] = *s;
	q->pos[s->id] = i;
}

/* Start loading what the handler of slot s's event reads first. */
static inline void prefetch_slot(const struct ss_evq *q, const struct ss_evq_slot *s)
{
	__builtin_prefetch(s->ev);
	if (s->hint && q->hint_base)
		__builtin_prefetch(q->hint_base + (size_t)(s->hint - 1) * q->hint_stride);
}

static uint32_t sift_up(struct ss_evq *q, uint32_t i, const struct ss_evq_slot *s)
{
	unsigned __int128 sp = prio(s);
	while (i > 0) {
		uint32_t parent = (i - 1) / ARITY;
		if (sp >= prio(&q->heap[parent]))
			break;
		heap_put(q, i, &q->heap[parent]);
		i = parent;
	}
	heap_put(q, i, s);
	return i;
}

/* The smaller of two slots' priorities, as a slot index (no branches). */
static inline uint32_t min2(const struct ss_evq_slot *h, uint32_t a, uint32_t b, unsigned __int128 *mpp)
{
	unsigned __int128 pa = prio(&h[a]), pb = prio(&h[b]);
	bool lt = pb < pa;
	*mpp = lt ? pb : pa;
	return lt ? b : a;
}

/* The child of i with the smallest priority; i must have a child. */
static inline uint32_t min_child(const struct ss_evq *q, uint32_t first, uint32_t n, unsigned __int128 *mpp)
{
	uint32_t m = first;
	unsigned __int128 mp;
	if (first + ARITY <= n) {
		/* all four children: a tournament of two pairs, without branches
		 * (priorities are unique, so which of equals wins cannot arise) */
		unsigned __int128 pa, pb;
		uint32_t a = min2(q->heap, first, first + 1, &pa);
		uint32_t b = min2(q->heap, first + 2, first + 3, &pb);
		bool lt = pb < pa;
		*mpp = lt ? pb : pa;
		return lt ? b : a;
	}
	mp = prio(&q->heap[first]);
	for (uint32_t c = first + 1; c < n; c++) {
		unsigned __int128 cp = prio(&q->heap[c]);
		if (cp < mp) {
			m = c;
			mp = cp;
		}
	}
	*mpp = mp;
	return m;
}

/* Place *s (not inside heap[i, nr)) at i or below. */
static void sift_down(struct ss_evq *q, uint32_t i, const struct ss_evq_slot *s)
{
	uint32_t n = q->nr;
	unsigned __int128 sp = prio(s);
	for (;;) {
		uint32_t first = ARITY * i + 1, m;
		unsigned __int128 mp;
		if (first >= n)
			break;
		m = min_child(q, first, n, &mp);
		if (mp >= sp)
			break;
		heap_put(q, i, &q->heap[m]);
		i = m;
	}
	heap_put(q, i, s);
}

void ss_evq_init(struct ss_evq *q, uint32_t cap)
{
	q->cap = cap ? cap : 1;
	q->heap = g_new0(struct ss_evq_slot, q->cap);
	q->pos = g_new0(uint32_t, q->cap);
	q->free_id = g_new(uint32_t, q->cap);
	for (uint32_t i = 0; i < q->cap; i++)
		q->free_id[i] = q->cap - 1 - i;   /* ids handed out from 0 up */
	q->nr_free = q->cap;
	q->vacant_id = SS_EV_IDLE;
	q->nr = 0;
	q->seq = 0;
}

void ss_evq_destroy(struct ss_evq *q)
{
	g_free(q->heap);
	g_free(q->pos);
	g_free(q->free_id);
	q->heap = NULL;
	q->pos = q->free_id = NULL;
	q->hint_base = NULL;
	q->nr = q->cap = q->nr_free = 0;
}

/* Re-place slot i after its key changed; returns whether *s became the root. */
static bool fix(struct ss_evq *q, uint32_t i, const struct ss_evq_slot *s)
{
	if (i > 0 && prio(s) < prio(&q->heap[(i - 1) / ARITY]))
		return sift_up(q, i, s) == 0;
	sift_down(q, i, s);
	return i == 0;
}

static inline void release(struct ss_evq *q, struct ss_event *ev)
{
	q->free_id[q->nr_free++] = ev->heap_idx;
	ev->heap_idx = SS_EV_IDLE;
}

/* Remove the vacant root slot a pop left, if any (see the top of the file). */
static inline void settle(struct ss_evq *q)
{
	if (q->vacant_id == SS_EV_IDLE)
		return;
	q->free_id[q->nr_free++] = q->vacant_id;
	q->vacant_id = SS_EV_IDLE;
	if (--q->nr)
		sift_down(q, 0, &q->heap[q->nr]);
}

void ss_evq_cancel(struct ss_evq *q, struct ss_event *ev)
{
	if (ev->heap_idx == SS_EV_IDLE)
		return;
	settle(q);
	uint32_t i = q->pos[ev->heap_idx];
	release(q, ev);
	q->nr--;
	if (i == q->nr)
		return;
	fix(q, i, &q->heap[q->nr]);
}

void ss_evq_set_hint_array(struct ss_evq *q, const void *base, size_t stride)
{
	q->hint_base = base;
	q->hint_stride = stride;
}

void ss_evq_schedule_hint(struct ss_evq *q, struct ss_event *ev, uint64_t t, unsigned cls, unsigned cpu,
			  uint32_t hint)
{
	struct ss_evq_slot s;
	ev->time = t;
	ev->cls = (uint16_t)cls;
	ev->key = ((uint64_t)cls << 56) | ((uint64_t)(cpu & 0xffff) << 40) | (q->seq++ & ((UINT64_C(1) << 40) - 1));
	s.time = t;
	s.key = ev->key;
	s.ev = ev;
	s.hint = hint;
	if (q->vacant_id != SS_EV_IDLE && ev->heap_idx == SS_EV_IDLE) {
		/* take the vacant root slot: the root is the only place it can be */
		s.id = q->vacant_id;
		q->vacant_id = SS_EV_IDLE;
		ev->heap_idx = s.id;
		sift_down(q, 0, &s);
		if (q->heap[0].id == s.id)   /* it is the next event: the pop's prefetch guessed another */
			prefetch_slot(q, &q->heap[0]);
		return;
	}
	settle(q);
	if (ev->heap_idx != SS_EV_IDLE) {
		s.id = ev->heap_idx;
		if (fix(q, q->pos[s.id], &s))   /* move in place */
			prefetch_slot(q, &q->heap[0]);
		return;
	}
	g_assert(q->nr < q->cap && q->nr_free);
	s.id = q->free_id[--q->nr_free];
	ev->heap_idx = s.id;
	if (sift_up(q, q->nr++, &s) == 0)
		prefetch_slot(q, &q->heap[0]);
}

struct ss_event *ss_evq_pop(struct ss_evq *q)
{
	settle(q);
	if (!q->nr)
		return NULL;
	struct ss_event *ev = q->heap[0].ev;
	/* the slot stays at the root, vacant, until the next operation */
	q->vacant_id = ev->heap_idx;
	ev->heap_idx = SS_EV_IDLE;
	/* The next event is the root's smallest child unless the handler of
	 * this one schedules an earlier one (then the schedule prefetches it):
	 * start loading it now, a whole event's handling ahead. */
	if (q->nr > 1) {
		unsigned __int128 mp;
		prefetch_slot(q, &q->heap[min_child(q, 1, q->nr, &mp)]);
	}
	return ev;
}
