/*
 * The event queue, ordered by (time, class, cpu, sequence): the events are
 * embedded in their owners; a queued event holds a slot id (ev->heap_idx)
 * for as long as it is queued, the slot keeps its priority (time, key), its
 * event's pointer and a prefetch hint. Capacity is fixed at init (every
 * event that can exist is embedded somewhere), so the hot path never
 * allocates.
 *
 * Near events — those before the horizon, SS_EVQ_BUCKETS buckets of
 * 2^SS_EVQ_SHIFT ns from the current bucket — are in a calendar: bucket
 * (time >> SS_EVQ_SHIFT) mod SS_EVQ_BUCKETS holds a list of its events
 * sorted by (time, key), and a bitmap with a summary of its words says
 * which buckets hold any. A burst end or an arrival (a few µs ahead, a few
 * events per bucket) is a short sorted insert; the next event is the head
 * of the current bucket, or of the next non-empty one (the bitmaps). The
 * horizon (8.4 ms) covers a jiffy from HZ 250 (the default) up, so ticks
 * are near events too.
 *
 * Far events (timers of long sleeps, the end of the warmup and of the run)
 * are in a tournament (winner) tree over the slot ids: win[n] is the slot id
 * of the smallest priority below tree node n (root 1, leaf width + id), a
 * slot not in the tree has the time UINT64_MAX there. When the current
 * bucket moves on, the far events that the horizon now covers move into the
 * calendar: every far event is later than every near one, so the order of
 * pops is that of one priority queue. Slot ids are handed out lowest first,
 * so the tree covers only the ids below the most events ever queued at
 * once: it grows, rebuilt, when an id at or past its width is handed out.
 *
 * (time, key) is unique (the key ends in a sequence number), so the order of
 * pops is the same as with any other correct priority queue.
 *
 * Prefetch: a pop starts loading the event after it in its bucket and the
 * array element its handler reads first (for a burst end, the running task:
 * ss_evq_schedule_hint), so at thousands of CPUs those cache misses overlap
 * the current event's handling instead of starting the next one.
 */
#include "ss_sched.h"

#include <glib.h>

#define NONE UINT32_MAX
#define WHERE_FAR UINT32_MAX           /* slot where: in the tree, not in a bucket */
#define BMASK (SS_EVQ_BUCKETS - 1)
#define NWORDS (SS_EVQ_BUCKETS / 64)   /* bitmap words; the summary has NWORDS bits */

/* a before b: (time, key) */
static inline bool slot_before(const struct ss_evq_slot *a, const struct ss_evq_slot *b)
{
	return a->t < b->t || (a->t == b->t && a->key < b->key);
}

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

/* ------------------------------------------------------------ far events: the tree */

/* Re-play the matches on the path of slot id to the root after its time[] changed. */
static inline void replay(struct ss_evq *q, uint32_t id)
{
	const struct ss_evq_slot *slot = q->slot;
	uint32_t *win = q->win;
	const uint64_t *time = q->time;
	uint32_t n = q->width + id, w = id;
	uint64_t tw = time[id];
	/* the root's winner wins every match on its path: all of them are re-played */
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

/* Make the tree cover slot ids below width (a power of two, >= 2) and play every match. */
static __attribute__((noinline)) void rebuild(struct ss_evq *q, uint32_t width)
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

static __attribute__((noinline)) void far_add(struct ss_evq *q, uint32_t id)
{
	q->slot[id].where = WHERE_FAR;
	q->time[id] = q->slot[id].t;
	q->nr_far++;
	replay(q, id);
}

static __attribute__((noinline)) void far_del(struct ss_evq *q, uint32_t id)
{
	q->time[id] = UINT64_MAX;
	q->nr_far--;
	replay(q, id);
}

/* ------------------------------------------------------------ near events: the calendar */

static inline void bit_set(struct ss_evq *q, uint32_t b)
{
	uint32_t w = b / 64;
	if (!q->bits[w])
		q->summary[w / 64] |= UINT64_C(1) << (w % 64);
	q->bits[w] |= UINT64_C(1) << (b % 64);
}

static inline void bit_clear(struct ss_evq *q, uint32_t b)
{
	uint32_t w = b / 64;
	q->bits[w] &= ~(UINT64_C(1) << (b % 64));
	if (!q->bits[w])
		q->summary[w / 64] &= ~(UINT64_C(1) << (w % 64));
}

/* The first non-empty bucket at or after b (not wrapping), SS_EVQ_BUCKETS if none. */
static uint32_t next_bucket(const struct ss_evq *q, uint32_t b)
{
	uint32_t w = b / 64;
	uint64_t word = q->bits[w] & (~UINT64_C(0) << (b % 64));
	if (word)
		return w * 64 + (uint32_t)__builtin_ctzll(word);
	/* the next non-empty word after w, by the summary */
	w++;
	for (uint32_t sw = w / 64; sw < NWORDS / 64 && w < NWORDS; sw++, w = sw * 64) {
		uint64_t s = q->summary[sw] & (~UINT64_C(0) << (w % 64));
		if (s) {
			w = sw * 64 + (uint32_t)__builtin_ctzll(s);
			return w * 64 + (uint32_t)__builtin_ctzll(q->bits[w]);
		}
	}
	return SS_EVQ_BUCKETS;
}

/* Put slot id (its t and key set) in its bucket, sorted; it is before the horizon. */
static inline void near_add(struct ss_evq *q, uint32_t id, uint64_t abs)
{
	struct ss_evq_slot *slot = q->slot, *s = &slot[id];
	uint32_t b = (uint32_t)(abs & BMASK), prev = NONE, x = q->head[b];
	while (x != NONE && slot_before(&slot[x], s)) {
		prev = x;
		x = slot[x].next;
	}
	s->where = b;
	s->prev = prev;
	s->next = x;
	if (x != NONE)
		slot[x].prev = id;
	if (prev != NONE) {
		slot[prev].next = id;
	} else {
		if (x == NONE)
			bit_set(q, b);
		q->head[b] = id;
	}
	q->nr_near++;
}

static inline void near_del(struct ss_evq *q, uint32_t id)
{
	struct ss_evq_slot *slot = q->slot, *s = &slot[id];
	if (s->next != NONE)
		slot[s->next].prev = s->prev;
	if (s->prev != NONE) {
		slot[s->prev].next = s->next;
	} else {
		q->head[s->where] = s->next;
		if (s->next == NONE)
			bit_clear(q, s->where);
	}
	q->nr_near--;
}

/* Queue slot id (its t and key set): in the calendar before the horizon, else in the tree. */
static inline void add(struct ss_evq *q, uint32_t id)
{
	uint64_t abs = q->slot[id].t >> SS_EVQ_SHIFT;
	if (abs < q->cur)
		abs = q->cur;   /* before the current bucket (not done by the engine): first in it */
	if (abs - q->cur < SS_EVQ_BUCKETS)
		near_add(q, id, abs);
	else
		far_add(q, id);
}

static inline void del(struct ss_evq *q, uint32_t id)
{
	if (q->slot[id].where == WHERE_FAR)
		far_del(q, id);
	else
		near_del(q, id);
}

/* The current bucket moved on to q->cur: the far events the horizon now covers join the calendar. */
static __attribute__((noinline)) void pull_far(struct ss_evq *q)
{
	while (q->nr_far) {
		uint32_t id = q->win[1];
		uint64_t abs = q->time[id] >> SS_EVQ_SHIFT;
		if (abs - q->cur >= SS_EVQ_BUCKETS)
			break;
		far_del(q, id);
		near_add(q, id, abs);
	}
}

/* ------------------------------------------------------------ the queue */

void ss_evq_init(struct ss_evq *q, uint32_t cap)
{
	q->cap = cap ? cap : 1;
	/* the ids past cap up to a power of two stay free: leaves the tree may cover */
	uint32_t all = 2;
	while (all < q->cap)
		all *= 2;
	q->nr_slots = all;
	q->slot = g_new0(struct ss_evq_slot, all);
	q->time = g_new(uint64_t, all);
	for (uint32_t i = 0; i < all; i++) {
		q->time[i] = UINT64_MAX;
		q->slot[i].key = UINT64_MAX;
	}
	q->free_id = g_new(uint32_t, q->cap);
	for (uint32_t i = 0; i < q->cap; i++)
		q->free_id[i] = q->cap - 1 - i;   /* ids handed out from 0 up */
	q->nr_free = q->cap;
	q->win = NULL;
	rebuild(q, 2);
	q->head = g_new(uint32_t, SS_EVQ_BUCKETS);
	for (uint32_t b = 0; b < SS_EVQ_BUCKETS; b++)
		q->head[b] = NONE;
	q->bits = g_new0(uint64_t, NWORDS);
	q->summary = g_new0(uint64_t, NWORDS / 64);
	q->cur = 0;
	q->nr = q->nr_near = q->nr_far = 0;
	q->seq = 0;
}

void ss_evq_destroy(struct ss_evq *q)
{
	g_free(q->slot);
	g_free(q->time);
	g_free(q->win);
	g_free(q->free_id);
	g_free(q->head);
	g_free(q->bits);
	g_free(q->summary);
	q->slot = NULL;
	q->time = NULL;
	q->win = q->free_id = q->head = NULL;
	q->bits = q->summary = NULL;
	q->hint_base = NULL;
	q->nr = q->cap = q->nr_free = q->width = q->nr_slots = q->nr_near = q->nr_far = 0;
}

void ss_evq_cancel(struct ss_evq *q, struct ss_event *ev)
{
	uint32_t id = ev->heap_idx;
	if (id == SS_EV_IDLE)
		return;
	del(q, id);
	ev->heap_idx = SS_EV_IDLE;
	q->free_id[q->nr_free++] = id;
	q->nr--;
}

void ss_evq_set_hint_array(struct ss_evq *q, const void *base, size_t stride)
{
	q->hint_base = base;
	q->hint_stride = stride;
}

void ss_evq_schedule_hint(struct ss_evq *q, struct ss_event *ev, uint64_t t, unsigned cls, unsigned cpu,
			  uint32_t hint)
{
	struct ss_evq_slot *s;
	uint32_t id = ev->heap_idx;
	ev->time = t;
	ev->cls = (uint16_t)cls;
	ev->key = ((uint64_t)cls << 56) | ((uint64_t)(cpu & 0xffff) << 40) | (q->seq++ & ((UINT64_C(1) << 40) - 1));
	if (id != SS_EV_IDLE) {
		del(q, id);   /* move: out, then in at its new time */
	} else {
		g_assert(q->nr < q->cap && q->nr_free);
		id = q->free_id[--q->nr_free];
		q->nr++;
		if (id >= q->width) {
			uint32_t w = q->width;
			while (w <= id)
				w *= 2;
			rebuild(q, w);
		}
		ev->heap_idx = id;
	}
	s = &q->slot[id];
	s->t = t;
	s->key = ev->key;
	s->ev = ev;
	s->hint = hint;
	add(q, id);
}

/* The current bucket b is empty: move it on to the next non-empty one, or to the first far event. */
static __attribute__((noinline)) uint32_t advance(struct ss_evq *q, uint32_t b)
{
	if (q->nr_near) {
		uint32_t n = next_bucket(q, b + 1 < SS_EVQ_BUCKETS ? b + 1 : 0);
		if (n == SS_EVQ_BUCKETS)
			n = next_bucket(q, 0);
		q->cur += (n - b) & BMASK;
		b = n;
	} else {
		q->cur = q->time[q->win[1]] >> SS_EVQ_SHIFT;
		b = (uint32_t)(q->cur & BMASK);
	}
	if (q->nr_far && (q->time[q->win[1]] >> SS_EVQ_SHIFT) - q->cur < SS_EVQ_BUCKETS)
		pull_far(q);
	return b;
}

struct ss_event *ss_evq_pop(struct ss_evq *q)
{
	uint32_t b, id;
	struct ss_evq_slot *s;
	struct ss_event *ev;

	if (!q->nr)
		return NULL;
	b = (uint32_t)(q->cur & BMASK);
	if (q->head[b] == NONE)
		b = advance(q, b);
	id = q->head[b];
	s = &q->slot[id];
	ev = s->ev;
	/* unlink the head of bucket b */
	q->head[b] = s->next;
	if (s->next != NONE) {
		q->slot[s->next].prev = NONE;
		prefetch_slot(q, &q->slot[s->next]);
	} else {
		bit_clear(q, b);
	}
	q->nr_near--;
	ev->heap_idx = SS_EV_IDLE;
	q->free_id[q->nr_free++] = id;
	q->nr--;
	return ev;
}
