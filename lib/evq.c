/*
 * The event queue: a tournament (winner) tree over slots of (time, key)
 * priorities, the events embedded in their owners, ordered by (time, class,
 * cpu, sequence). A queued event holds a slot id (ev->heap_idx) for as long
 * as it is queued; the slot keeps its priority (the time in the dense array
 * time[], the key in the slot), its event's pointer and a prefetch hint.
 * The tree's leaves are the slots, id i at node width + i; each inner node
 * n holds win[n], the slot id of the smallest priority below it, so win[1]
 * is the next event. A free slot has the priority
 * (UINT64_MAX, UINT64_MAX), above any event's (a key is < 2^60). Queueing,
 * moving or removing an event re-plays the matches on its leaf's path to
 * the root: one compare of times per level against the winner of the
 * sibling subtree (of keys too on a tie), no slot moves.
 *
 * Slot ids are handed out lowest first from a stack of free ids, so the ids
 * in use stay below the most events ever queued at once (a few per CPU),
 * and the tree covers only those: width is a power of two that grows, the
 * tree rebuilt, when an id at or past it is handed out (rarely, and never
 * again once the run's mix is reached). Capacity is fixed at init (every
 * event that can exist is embedded somewhere), so the hot path never
 * allocates.
 *
 * (time, key) is unique (the key ends in a sequence number), so the order of
 * pops is the same as with any other correct priority queue.
 *
 * Prefetch: when a queue operation leaves a new event at the root, the
 * queue starts loading it and the array element its handler reads first
 * (for a burst end, the running task: ss_evq_schedule_hint), so at
 * thousands of CPUs those cache misses overlap the current event's
 * handling instead of starting the next one.
 *
 * Lazy pop: ss_evq_pop() hands out the root's event but leaves its slot
 * queued ("vacant", q->vacant_id) until the next queue operation. Handling
 * an event nearly always schedules one first (the CPU's next burst end, a
 * wakee's arrival): that event takes the vacant slot, one replay of its
 * path instead of one to free the slot and one to fill another. Any other
 * operation first frees the vacant slot.
 */
#include "ss_sched.h"

#include <glib.h>

static inline unsigned __int128 prio(const struct ss_evq *q, uint32_t id)
{
	return ((unsigned __int128)q->time[id] << 64) | q->slot[id].key;
}

/* Start loading what the handler of slot s's event reads first. */
static inline void prefetch_slot(const struct ss_evq *q, const struct ss_evq_slot *s)
{
	__builtin_prefetch(s->ev);
	if (s->hint && q->hint_base)
		__builtin_prefetch(q->hint_base + (size_t)(s->hint - 1) * q->hint_stride);
}

/* Re-play the matches on the path of slot id to the root after its priority changed. */
static inline void replay(struct ss_evq *q, uint32_t id)
{
	const struct ss_evq_slot *slot = q->slot;
	uint32_t *win = q->win;
	const uint64_t *time = q->time;
	uint32_t n = q->width + id, w = id;
	uint64_t tw = time[id];
	/* the root's winner (a popped or next event) wins every match on its
	 * path: all of them are re-played */
	bool all = win[1] == id;
	while (n > 1) {
		uint32_t o = win[n ^ 1];
		uint64_t to = time[o];
		/* (time, key) < (tw, key of w): the keys only on a tie of times */
		if (__builtin_expect(to == tw, 0)) {
			if (slot[o].key < slot[w].key)
				w = o;
		} else {
			w = to < tw ? o : w;
			tw = to < tw ? to : tw;
		}
		n >>= 1;
		/* else: once a match has the winner it had, another slot whose
		 * priority did not change, nothing above changes either */
		if (!all && win[n] == w && w != id)
			return;
		win[n] = w;
	}
}

static inline void slot_free(struct ss_evq *q, uint32_t id)
{
	struct ss_evq_slot *s = &q->slot[id];
	q->time[id] = UINT64_MAX;
	s->key = UINT64_MAX;
	s->ev = NULL;
	s->hint = 0;
}

/* Make the tree cover slot ids below width (a power of two, >= 2) and play every match. */
static void rebuild(struct ss_evq *q, uint32_t width)
{
	g_free(q->win);
	q->width = width;
	q->win = g_new(uint32_t, 2 * (size_t)width);
	for (uint32_t i = 0; i < width; i++)
		q->win[width + i] = i;
	for (uint32_t n = width - 1; n >= 1; n--) {
		uint32_t a = q->win[2 * n], b = q->win[2 * n + 1];
		q->win[n] = prio(q, b) < prio(q, a) ? b : a;
	}
}

void ss_evq_init(struct ss_evq *q, uint32_t cap)
{
	q->cap = cap ? cap : 1;
	/* the slots past cap up to a power of two stay free: leaves the tree may cover */
	uint32_t all = 2;
	while (all < q->cap)
		all *= 2;
	q->nr_slots = all;
	q->slot = g_new(struct ss_evq_slot, all);
	q->time = g_new(uint64_t, all);
	for (uint32_t i = 0; i < all; i++)
		slot_free(q, i);
	q->free_id = g_new(uint32_t, q->cap);
	for (uint32_t i = 0; i < q->cap; i++)
		q->free_id[i] = q->cap - 1 - i;   /* ids handed out from 0 up */
	q->nr_free = q->cap;
	q->win = NULL;
	rebuild(q, 2);
	q->vacant_id = SS_EV_IDLE;
	q->nr = 0;
	q->seq = 0;
}

void ss_evq_destroy(struct ss_evq *q)
{
	g_free(q->slot);
	g_free(q->time);
	g_free(q->win);
	g_free(q->free_id);
	q->slot = NULL;
	q->time = NULL;
	q->win = q->free_id = NULL;
	q->hint_base = NULL;
	q->nr = q->cap = q->nr_free = q->width = q->nr_slots = 0;
}

/* Free slot id (its event is off the queue). */
static inline void release_id(struct ss_evq *q, uint32_t id)
{
	slot_free(q, id);
	replay(q, id);
	q->free_id[q->nr_free++] = id;
	q->nr--;
}

/* Free the vacant slot a pop left, if any (see the top of the file). */
static inline void settle(struct ss_evq *q)
{
	uint32_t id = q->vacant_id;
	if (id == SS_EV_IDLE)
		return;
	q->vacant_id = SS_EV_IDLE;
	release_id(q, id);
}

void ss_evq_cancel(struct ss_evq *q, struct ss_event *ev)
{
	uint32_t id = ev->heap_idx;
	if (id == SS_EV_IDLE)
		return;
	settle(q);
	ev->heap_idx = SS_EV_IDLE;
	release_id(q, id);
}

void ss_evq_set_hint_array(struct ss_evq *q, const void *base, size_t stride)
{
	q->hint_base = base;
	q->hint_stride = stride;
}

/* Slot id now holds ev's new priority: re-play its path; prefetch the next event if that changed. */
static inline void place(struct ss_evq *q, uint32_t id)
{
	uint32_t root = q->win[1];
	replay(q, id);
	if (q->win[1] == id || q->win[1] != root)
		prefetch_slot(q, &q->slot[q->win[1]]);
}

void ss_evq_schedule_hint(struct ss_evq *q, struct ss_event *ev, uint64_t t, unsigned cls, unsigned cpu,
			  uint32_t hint)
{
	struct ss_evq_slot *s;
	uint32_t id;
	ev->time = t;
	ev->cls = (uint16_t)cls;
	ev->key = ((uint64_t)cls << 56) | ((uint64_t)(cpu & 0xffff) << 40) | (q->seq++ & ((UINT64_C(1) << 40) - 1));
	if (q->vacant_id != SS_EV_IDLE && ev->heap_idx == SS_EV_IDLE) {
		/* take the vacant slot: it is queued (nr counts it), at the root */
		id = q->vacant_id;
		q->vacant_id = SS_EV_IDLE;
	} else {
		settle(q);
		id = ev->heap_idx;
		if (id == SS_EV_IDLE) {
			g_assert(q->nr < q->cap && q->nr_free);
			id = q->free_id[--q->nr_free];
			q->nr++;
			if (id >= q->width) {
				uint32_t w = q->width;
				while (w <= id)
					w *= 2;
				rebuild(q, w);
			}
		}
	}
	ev->heap_idx = id;
	s = &q->slot[id];
	q->time[id] = t;
	s->key = ev->key;
	s->ev = ev;
	s->hint = hint;
	place(q, id);
}

struct ss_event *ss_evq_pop(struct ss_evq *q)
{
	settle(q);
	if (!q->nr)
		return NULL;
	struct ss_event *ev = q->slot[q->win[1]].ev;
	/* the slot stays queued, vacant, until the next operation */
	q->vacant_id = ev->heap_idx;
	ev->heap_idx = SS_EV_IDLE;
	return ev;
}
