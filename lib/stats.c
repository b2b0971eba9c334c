/* Histograms of the statistics layer (log2 like bpftrace's hist(); a finer
 * log-linear one for latency percentiles). */
#include "simsched/stats.h"

static inline unsigned ilog2_u64(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}

void ss_log2_hist_add(struct ss_log2_hist *h, uint64_t v)
{
	unsigned b = v ? ilog2_u64(v) + 1 : 0;
	h->count[b]++;
	h->n++;
	h->sum += v;
}

unsigned ss_log2_hist_mode(const struct ss_log2_hist *h)
{
	unsigned best = 0;
	if (!h->n)
		return SS_LOG2_BUCKETS;
	for (unsigned i = 1; i < SS_LOG2_BUCKETS; i++)
		if (h->count[i] > h->count[best])
			best = i;
	return best;
}

/* bucket index: values < SS_LAT_SUB map 1:1; above, log2 major × SS_LAT_SUB linear minor */
static inline unsigned lat_bucket(uint64_t v)
{
	if (v < SS_LAT_SUB)
		return (unsigned)v;
	unsigned major = ilog2_u64(v);              /* >= 5 for SS_LAT_SUB = 32 */
	unsigned shift = major - 5;                  /* log2(SS_LAT_SUB) = 5 */
	unsigned minor = (unsigned)(v >> shift) - SS_LAT_SUB;
	return (major - 4) * SS_LAT_SUB + minor;
}

static inline uint64_t lat_bucket_hi(unsigned b)
{
	if (b < SS_LAT_SUB)
		return b;
	unsigned major = b / SS_LAT_SUB + 4, minor = b % SS_LAT_SUB;
	unsigned shift = major - 5;
	return (((uint64_t)(SS_LAT_SUB + minor + 1)) << shift) - 1;
}

void ss_lat_hist_add(struct ss_lat_hist *h, uint64_t v)
{
	unsigned b = lat_bucket(v);
	if (b >= SS_LAT_BUCKETS)
		b = SS_LAT_BUCKETS - 1;
	h->count[b]++;
	h->n++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

uint64_t ss_lat_hist_quantile(const struct ss_lat_hist *h, double q)
{
	if (!h->n)
		return 0;
	uint64_t rank = (uint64_t)(q * (double)h->n + 0.5);
	if (rank < 1)
		rank = 1;
	if (rank > h->n)
		rank = h->n;
	uint64_t acc = 0;
	for (unsigned b = 0; b < SS_LAT_BUCKETS; b++) {
		acc += h->count[b];
		if (acc >= rank) {
			uint64_t hi = lat_bucket_hi(b);
			return hi < h->max ? hi : h->max;
		}
	}
	return h->max;
}
