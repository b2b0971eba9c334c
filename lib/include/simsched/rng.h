/*
 * simsched/rng.h — per-task random streams.
 *
 * Each task owns one stream seeded from (run seed, the task's identity in the
 * workload tree), never from event order, so two policies run on the same
 * seed draw the same service and think times for the same task.
 *
 * Generator: xoshiro256** (Blackman & Vigna), seeded by splitmix64. GLib's
 * GRand was the first choice but its Mersenne Twister state is 2.5 KiB, which
 * alone breaks the ≤ 1 KiB-per-task budget; this one is 32 bytes.
 */
#ifndef SIMSCHED_RNG_H
#define SIMSCHED_RNG_H

#include <stdint.h>

struct ss_rng {
	uint64_t s[4];
};

static inline uint64_t ss_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/** Seed a stream from the run seed and a stream id (ss_rng_stream_id of the task's path). */
static inline void ss_rng_seed(struct ss_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * UINT64_C(0xd1342543de82ef95));
	for (int i = 0; i < 4; i++)
		r->s[i] = ss_splitmix64(&x);
}

/** FNV-1a 64 of a string: the stream id of a task path such as "pair[3]/server". */
static inline uint64_t ss_rng_stream_id(const char *path)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * UINT64_C(0x100000001b3);
	return h;
}

static inline uint64_t ss_rng_next(struct ss_rng *r)
{
	uint64_t *s = r->s;
	uint64_t t = s[1] << 17;
	uint64_t x = s[1] * 5;
	uint64_t result = ((x << 7) | (x >> 57)) * 9;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return result;
}

/** Uniform double in [0, 1) with 53 random bits. */
static inline double ss_rng_double(struct ss_rng *r)
{
	return (double)(ss_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/** Uniform integer in [0, n) (n > 0), Lemire's method without rejection bias beyond 2^-64. */
static inline uint64_t ss_rng_below(struct ss_rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)ss_rng_next(r) * n) >> 64);
}

#endif
