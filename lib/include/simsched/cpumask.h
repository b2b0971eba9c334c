/*
 * simsched/cpumask.h — CPU masks as arrays of 64-bit words.
 *
 * The kernel's struct cpumask is a bitmap of nr_cpu_ids bits; ours is a
 * caller-owned uint64_t array of ss_cpumask_words(nr_cpus) words. Bits past
 * nr_cpus must stay zero (every writer here keeps them zero). All searches
 * are word operations (ctz/popcount), so the cost of a scan is proportional to
 * the number of words visited, not of CPUs (hot path: select_idle_cpu()).
 *
 * Semantics mirror include/linux/cpumask.h and lib/cpumask.c (kernel v6.6).
 */
#ifndef SIMSCHED_CPUMASK_H
#define SIMSCHED_CPUMASK_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define SS_MAX_CPUS 4096u                 /* largest machine a topology may describe */
#define SS_CPUMASK_WORD_BITS 64u

/** Number of uint64_t words a mask of nr_cpus bits needs (nr_cpus 1..SS_MAX_CPUS). */
static inline unsigned ss_cpumask_words(unsigned nr_cpus)
{
	return (nr_cpus + SS_CPUMASK_WORD_BITS - 1) / SS_CPUMASK_WORD_BITS;
}

static inline void ss_cpumask_set(uint64_t *m, unsigned cpu)
{
	m[cpu / 64] |= UINT64_C(1) << (cpu % 64);
}

static inline void ss_cpumask_clear_cpu(uint64_t *m, unsigned cpu)
{
	m[cpu / 64] &= ~(UINT64_C(1) << (cpu % 64));
}

static inline bool ss_cpumask_test(const uint64_t *m, unsigned cpu)
{
	return (m[cpu / 64] >> (cpu % 64)) & 1u;
}

static inline void ss_cpumask_zero(uint64_t *m, unsigned nwords)
{
	memset(m, 0, nwords * sizeof(uint64_t));
}

static inline void ss_cpumask_copy(uint64_t *dst, const uint64_t *src, unsigned nwords)
{
	memcpy(dst, src, nwords * sizeof(uint64_t));
}

/** dst = a & b; returns true if the result is non-empty (like cpumask_and()). */
static inline bool ss_cpumask_and(uint64_t *dst, const uint64_t *a, const uint64_t *b, unsigned nwords)
{
	uint64_t any = 0;
	for (unsigned i = 0; i < nwords; i++)
		any |= dst[i] = a[i] & b[i];
	return any != 0;
}

static inline void ss_cpumask_or(uint64_t *dst, const uint64_t *a, const uint64_t *b, unsigned nwords)
{
	for (unsigned i = 0; i < nwords; i++)
		dst[i] = a[i] | b[i];
}

/** dst = a & ~b; returns true if the result is non-empty. */
static inline bool ss_cpumask_andnot(uint64_t *dst, const uint64_t *a, const uint64_t *b, unsigned nwords)
{
	uint64_t any = 0;
	for (unsigned i = 0; i < nwords; i++)
		any |= dst[i] = a[i] & ~b[i];
	return any != 0;
}

static inline bool ss_cpumask_equal(const uint64_t *a, const uint64_t *b, unsigned nwords)
{
	return memcmp(a, b, nwords * sizeof(uint64_t)) == 0;
}

static inline bool ss_cpumask_empty(const uint64_t *m, unsigned nwords)
{
	for (unsigned i = 0; i < nwords; i++)
		if (m[i])
			return false;
	return true;
}

static inline bool ss_cpumask_intersects(const uint64_t *a, const uint64_t *b, unsigned nwords)
{
	for (unsigned i = 0; i < nwords; i++)
		if (a[i] & b[i])
			return true;
	return false;
}

/** True if every bit of a is set in b. */
static inline bool ss_cpumask_subset(const uint64_t *a, const uint64_t *b, unsigned nwords)
{
	for (unsigned i = 0; i < nwords; i++)
		if (a[i] & ~b[i])
			return false;
	return true;
}

static inline unsigned ss_cpumask_weight(const uint64_t *m, unsigned nwords)
{
	unsigned w = 0;
	for (unsigned i = 0; i < nwords; i++)
		w += (unsigned)__builtin_popcountll(m[i]);
	return w;
}

/**
 * First set bit >= start, or nr_cpus if none (like cpumask_next(start - 1)).
 * start may be >= nr_cpus (returns nr_cpus).
 */
static inline unsigned ss_cpumask_next(const uint64_t *m, unsigned nr_cpus, unsigned start)
{
	if (start >= nr_cpus)
		return nr_cpus;
	unsigned w = start / 64;
	uint64_t word = m[w] & (~UINT64_C(0) << (start % 64));
	unsigned nwords = ss_cpumask_words(nr_cpus);
	for (;;) {
		if (word) {
			unsigned cpu = w * 64 + (unsigned)__builtin_ctzll(word);
			return cpu < nr_cpus ? cpu : nr_cpus;
		}
		if (++w >= nwords)
			return nr_cpus;
		word = m[w];
	}
}

static inline unsigned ss_cpumask_first(const uint64_t *m, unsigned nr_cpus)
{
	return ss_cpumask_next(m, nr_cpus, 0);
}

/** First bit set in both a and b, >= start; nr_cpus if none (cpumask_next_and). */
static inline unsigned ss_cpumask_next_and(const uint64_t *a, const uint64_t *b, unsigned nr_cpus,
					   unsigned start)
{
	if (start >= nr_cpus)
		return nr_cpus;
	unsigned w = start / 64;
	uint64_t word = a[w] & b[w] & (~UINT64_C(0) << (start % 64));
	unsigned nwords = ss_cpumask_words(nr_cpus);
	for (;;) {
		if (word) {
			unsigned cpu = w * 64 + (unsigned)__builtin_ctzll(word);
			return cpu < nr_cpus ? cpu : nr_cpus;
		}
		if (++w >= nwords)
			return nr_cpus;
		word = a[w] & b[w];
	}
}

/*
 * for_each_cpu_wrap(cpu, mask, start) — include/linux/cpumask.h (v6.6):
 * every set bit exactly once, ascending from the first set bit >= start,
 * wrapping past the last CPU to 0; a start >= nr_cpus behaves as 0.
 *
 *   struct ss_cpumask_wrap it;
 *   for (cpu = ss_cpumask_wrap_first(&it, m, n, start); cpu < n; cpu = ss_cpumask_wrap_next(&it, m, n))
 */
struct ss_cpumask_wrap {
	unsigned start;   /* wrap point */
	bool wrapped;     /* past the end once */
	unsigned next;    /* next position to search from */
};

static inline unsigned ss_cpumask_wrap_next(struct ss_cpumask_wrap *it, const uint64_t *m, unsigned nr_cpus)
{
	for (;;) {
		unsigned cpu = ss_cpumask_next(m, nr_cpus, it->next);
		if (it->wrapped) {
			if (cpu >= it->start)
				return nr_cpus;
			it->next = cpu + 1;
			return cpu;
		}
		if (cpu < nr_cpus) {
			it->next = cpu + 1;
			return cpu;
		}
		it->wrapped = true;
		it->next = 0;
		if (it->start == 0)
			return nr_cpus;
	}
}

static inline unsigned ss_cpumask_wrap_first(struct ss_cpumask_wrap *it, const uint64_t *m, unsigned nr_cpus,
					     unsigned start)
{
	if (start >= nr_cpus)
		start = 0;
	it->start = start;
	it->wrapped = false;
	it->next = start;
	return ss_cpumask_wrap_next(it, m, nr_cpus);
}

/**
 * Parse a kernel cpulist ("0-3,8,10-11") into m (nwords words, zeroed first).
 * Returns 0, or -1 if malformed or a CPU >= nr_cpus (then *bad_offset is the
 * byte offset of the offending character).
 */
int ss_cpumask_parse_list(const char *s, uint64_t *m, unsigned nr_cpus, unsigned *bad_offset);

/**
 * Format m as a kernel cpulist ("0-3,8") into buf of size len (always
 * NUL-terminated; truncated output ends in "..."). Returns buf.
 */
char *ss_cpumask_format_list(const uint64_t *m, unsigned nr_cpus, char *buf, unsigned len);

#endif /* SIMSCHED_CPUMASK_H */
