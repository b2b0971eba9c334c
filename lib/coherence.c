/*
 * Contention (docs/model.md "Contention"): the coherence of the cache lines
 * of scheduler state that wake placement reads, and the rq lock.
 *
 * A line: a rq's first line — in struct rq (kernel/sched/sched.h, v6.6 and
 * v5.17) __lock and nr_running open the first 64 bytes; ttwu_pending follows
 * the NUMA-balancing and NO_HZ fields (nohz_csd is 32-byte aligned), at
 * byte 104 of a NUMA, NO_HZ build: the second line. That line, curr's and
 * cfs.idle_h_nr_running's, which idle_cpu() and sched_idle_cpu() also read,
 * are written at the same moments (a switch, an enqueue, a dequeue, a
 * wakeup queued), so all are one unit here and a probe is one transfer (the
 * others assumed overlapped by the out-of-order core) — or an LLC's struct
 * sched_domain_shared (ref,
 * nr_busy_cpus, has_idle_cores, nr_idle_scan: one line).
 *
 * A read by a CPU that holds a valid copy (it read the line and nobody
 * wrote it since) is a hit in its own cache: cost.line_cached_ns. Any other
 * read is a transfer from the CPU that wrote the line last, at the
 * uncontended latency of their distance (cost.probe_*: the machines'
 * core-to-core figures), plus, with cost.line_queue, the wait behind the
 * transfers of the same line already queued at its home: the home serves
 * one request per line at a time, each for its transfer time (a FIFO
 * backlog that drains at one ns per ns).
 */
#include "ss_sched.h"

#include <glib.h>
#include <stddef.h>
#include <string.h>

uint64_t ss_c2c_ns_masks(const struct ss_sim *sim, unsigned a, unsigned b)
{
	const struct ss_topology *t = sim->topo;
	const struct ss_params *pr = &sim->params;
	if (a == b)
		return pr->probe_self_ns;
	if (ss_cpumask_test(t->cpu[a].smt_mask, b))
		return pr->probe_smt_ns;
	if (ss_cpumask_test(t->cpu[a].cluster_mask, b))
		return pr->probe_cluster_ns;
	if (t->cpu[a].llc == t->cpu[b].llc)
		return pr->probe_llc_ns;
	if (t->cpu[a].package == t->cpu[b].package)
		return pr->probe_package_ns;
	return pr->probe_remote_ns;
}

/*
 * Whether the masks mask(c) (the uint64_t * at byte offset off of each
 * topology cpu[]) partition the CPUs: c is in mask(c), and every b in
 * mask(a) has mask(b) == mask(a). Then b is in mask(a) iff the first CPUs
 * of mask(a) and mask(b) are the same.
 */
static bool masks_partition(const struct ss_sim *sim, size_t off)
{
	const struct ss_topology *t = sim->topo;
#define MASK_OF(c) (*(const uint64_t *const *)(const void *)((const char *)&t->cpu[c] + off))
	for (unsigned a = 0; a < sim->nr_cpus; a++) {
		const uint64_t *ma = MASK_OF(a);
		if (!ss_cpumask_test(ma, a))
			return false;
		for (unsigned b = ss_cpumask_first(ma, sim->nr_cpus); b < sim->nr_cpus;
		     b = ss_cpumask_next(ma, sim->nr_cpus, b + 1))
			if (memcmp(MASK_OF(b), ma, sim->nr_words * sizeof *ma))
				return false;
	}
#undef MASK_OF
	return true;
}

void ss_cline_init(struct ss_sim *sim)
{
	unsigned nr_llc = sim->topo->nr_llc_shared, n = sim->nr_cpus + nr_llc;
	const struct ss_topology *t = sim->topo;

	sim->c2c_id = NULL;
	if (masks_partition(sim, offsetof(struct ss_cpu_topo, smt_mask)) &&
	    masks_partition(sim, offsetof(struct ss_cpu_topo, cluster_mask))) {
		sim->c2c_id = g_new(struct ss_c2c_id, sim->nr_cpus);
		for (unsigned c = 0; c < sim->nr_cpus; c++) {
			sim->c2c_id[c].smt = ss_cpumask_first(t->cpu[c].smt_mask, sim->nr_cpus);
			sim->c2c_id[c].cluster = ss_cpumask_first(t->cpu[c].cluster_mask, sim->nr_cpus);
			sim->c2c_id[c].llc = t->cpu[c].llc;
			sim->c2c_id[c].package = t->cpu[c].package;
		}
	}
	sim->coherence = sim->params.coherence != 0;
	if (!sim->coherence)
		return;
	sim->cl_words = g_new0(uint64_t, (size_t)n * sim->nr_words);
	sim->cl_rq = g_new0(struct ss_cline, sim->nr_cpus);
	sim->cl_llc = g_new0(struct ss_cline, nr_llc ? nr_llc : 1);
	for (unsigned i = 0; i < n; i++) {
		struct ss_cline *l = i < sim->nr_cpus ? &sim->cl_rq[i] : &sim->cl_llc[i - sim->nr_cpus];
		l->sharers = sim->cl_words + (size_t)i * sim->nr_words;
	}
	/* at t = 0 each rq's line was last written by its own CPU (idle entry),
	 * and each sd_llc_shared by the LLC's first CPU; nobody holds a copy */
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		sim->cl_rq[c].writer = c;
		ss_cpumask_set(sim->cl_rq[c].sharers, c);
	}
	for (unsigned c = sim->nr_cpus; c-- > 0;)
		if (nr_llc)
			sim->cl_llc[sim->topo->cpu[c].llc_index].writer = c;
}

void ss_cline_free(struct ss_sim *sim)
{
	g_free(sim->c2c_id);
	sim->c2c_id = NULL;
	g_free(sim->cl_words);
	g_free(sim->cl_rq);
	g_free(sim->cl_llc);
	sim->cl_words = NULL;
	sim->cl_rq = sim->cl_llc = NULL;
}

void ss_llc_line_write(struct ss_sim *sim, unsigned llc_index, unsigned writer)
{
	if (sim->coherence && llc_index < sim->topo->nr_llc_shared)
		ss_cline_write(sim, &sim->cl_llc[llc_index], writer);
}

void ss_charge_llc_shared(struct ss_sim *sim, unsigned target)
{
	uint64_t c;
	if (!sim->coherence || !sim->topo->nr_llc_shared)
		return;
	c = ss_cline_read(sim, &sim->cl_llc[sim->topo->cpu[target].llc_index], sim->this_cpu, sim->now + sim->scan_cost,
			  sim->params.line_cached_ns);
	sim->scan_cost += c;
	if (sim->measuring)
		sim->res->contention.line_reads_llc++;
}

/*
 * rq->__lock (raw_spinlock_t): the intervals it is held or promised, sorted
 * and disjoint. A taker at t gets the first gap of `hold` ns at or after t
 * (a ticket lock serves in arrival order; takers are placed in simulated
 * time, not in the order the engine handles them). Intervals that ended
 * before now are dropped; with every slot taken the oldest is forgotten.
 * A taker pushed back only by holds of its own CPU is not contended: it
 * returns the delay, and no wait is counted.
 */
/* Drop the first k of the n intervals (loops: a few elements, no memmove call). */
static inline void lock_drop(struct ss_rq *rq, unsigned k, unsigned n)
{
	for (unsigned j = 0; j + k < n; j++) {
		rq->lock_s[j] = rq->lock_s[j + k];
		rq->lock_e[j] = rq->lock_e[j + k];
		rq->lock_cpu[j] = rq->lock_cpu[j + k];
	}
}

uint64_t ss_rq_lock(struct ss_sim *sim, struct ss_rq *rq, uint64_t t, uint64_t hold, unsigned taker,
		    enum ss_lock_taker kind)
{
	unsigned n = rq->nr_lock, i, k = 0;
	uint64_t start = t, wait;
	bool others = false;   /* a hold by another CPU delayed it: contention, not the taker's own earlier work */
	bool contended;

	/* drop what is over */
	while (k < n && rq->lock_e[k] <= sim->now)
		k++;
	if (k) {
		lock_drop(rq, k, n);
		n -= k;
	}
	for (i = 0; i < n; i++) {
		if (start + hold <= rq->lock_s[i])
			break;
		if (rq->lock_e[i] > start) {
			start = rq->lock_e[i];
			others |= rq->lock_cpu[i] != taker;
		}
	}
	if (n == SS_RQ_LOCK_SLOTS) {
		lock_drop(rq, 1, n);
		n--;
		i = i ? i - 1 : 0;
	}
	for (unsigned j = n; j > i; j--) {   /* open slot i */
		rq->lock_s[j] = rq->lock_s[j - 1];
		rq->lock_e[j] = rq->lock_e[j - 1];
		rq->lock_cpu[j] = rq->lock_cpu[j - 1];
	}
	rq->lock_s[i] = start;
	rq->lock_e[i] = start + hold;
	rq->lock_cpu[i] = (uint16_t)taker;
	rq->nr_lock = (uint8_t)(n + 1);
	wait = start - t;
	/* after only its own earlier holds (a drain, then the switch it
	 * causes) the taker just works on in sequence: a delay, no contention */
	contended = others && wait;
	if (contended && ss_tracing(sim))
		ss_ft_rq_lock_wait(sim, rq, taker, kind, t, wait);
	/* the lock word shares the rq's first line: taking it writes the line */
	ss_rq_line_write(sim, rq->cpu, taker);
	if (sim->measuring) {
		struct ss_contention_stats *cs = &sim->res->contention;
		struct ss_cpu_stats *st = &sim->res->cpu[rq->cpu];
		cs->lock_acquires[kind]++;
		st->rq_lock_acquires++;
		if (contended) {
			cs->lock_contended[kind]++;
			cs->lock_wait_ns[kind] += wait;
			st->rq_lock_contended++;
			st->rq_lock_wait_ns += wait;
			sim->res->lost.rq_lock += wait;
		}
	}
	return wait;
}
