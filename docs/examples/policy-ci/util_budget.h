/* util_budget — the budget math of the example policy (util_budget.c), tested on its own. */
#ifndef UTIL_BUDGET_H
#define UTIL_BUDGET_H

#include <stdint.h>

/**
 * CPUs to probe in an LLC of llc_size CPUs whose Σ cpu_util() is sum_util
 * and Σ capacity is sum_capacity: the idle share of the LLC's capacity in
 * CPUs, llc_size × (sum_capacity − sum_util) / sum_capacity, rounded down;
 * 0 when the LLC is fully used (or has no capacity).
 */
unsigned util_budget(unsigned llc_size, uint64_t sum_util, uint64_t sum_capacity);

#endif
