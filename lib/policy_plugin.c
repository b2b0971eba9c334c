/*
 * The policy API (simsched/policy.h): the accessors a policy plugin reads
 * the simulation through, and the loader of plugins (GLib's GModule) with
 * the registry that makes a loaded policy findable by name.
 *
 * The accessors live in this file on purpose: the loader is what a program
 * must reference to load plugins, so linking it brings the whole API into
 * the executable, where the plugin's undefined symbols resolve (the
 * executable is linked with -rdynamic, CMake's ENABLE_EXPORTS).
 */
#include "ss_sched.h"
#include "simsched/error.h"
#include "simsched/policy.h"
#include "simsched/provenance.h"

#include <gmodule.h>
#include <string.h>

/* ------------------------------------------------------------ accessors */

unsigned ss_nr_cpus(const struct ss_sim *sim)
{
	return sim->nr_cpus;
}

unsigned ss_nr_mask_words(const struct ss_sim *sim)
{
	return sim->nr_words;
}

const uint64_t *ss_cpu_active_mask(const struct ss_sim *sim)
{
	return sim->topo->active_mask;
}

const uint64_t *ss_cpu_smt_mask(const struct ss_sim *sim, unsigned cpu)
{
	return sim->topo->cpu[cpu].smt_mask;
}

const uint64_t *ss_cpu_cluster_mask(const struct ss_sim *sim, unsigned cpu)
{
	return sim->topo->cpu[cpu].cluster_mask;
}

const uint64_t *ss_cpu_llc_mask(const struct ss_sim *sim, unsigned cpu)
{
	return sim->topo->cpu[cpu].llc_mask;
}

const uint64_t *ss_cpu_node_mask(const struct ss_sim *sim, unsigned cpu)
{
	return sim->topo->cpu[cpu].node_mask;
}

const struct ss_sched_domain *ss_cpu_sd_llc(const struct ss_sim *sim, unsigned cpu)
{
	return sd_llc(sim, cpu);
}

unsigned ss_llc_size(const struct ss_sim *sim, unsigned cpu)
{
	return sim->topo->cpu[cpu].llc_size;
}

unsigned long ss_cpu_capacity(const struct ss_sim *sim, unsigned cpu)
{
	return sim->rq[cpu].capacity;
}

uint64_t ss_now_ns(const struct ss_sim *sim)
{
	return sim->now;
}

bool ss_cpu_available_idle(struct ss_sim *sim, unsigned cpu)
{
	return ss_available_idle_cpu(sim, cpu);
}

unsigned ss_cpu_nr_running(const struct ss_sim *sim, unsigned cpu)
{
	return sim->rq[cpu].cfs.nr_running;
}

unsigned ss_nr_idle_scan(const struct ss_sim *sim, unsigned cpu)
{
	return sim->llc_shared[sim->topo->cpu[cpu].llc_index].nr_idle_scan;
}

bool ss_llc_has_idle_cores(const struct ss_sim *sim, unsigned cpu)
{
	return sim->llc_shared[sim->topo->cpu[cpu].llc_index].has_idle_cores;
}

unsigned ss_waker_cpu(const struct ss_sim *sim)
{
	return sim->this_cpu;
}

const uint64_t *ss_task_allowed_mask(const struct ss_task *p)
{
	return p->cpus_ptr;
}

unsigned ss_task_nr_cpus_allowed(const struct ss_task *p)
{
	return p->nr_cpus_allowed;
}

int ss_task_prev_cpu(const struct ss_task *p)
{
	return p->cpu;
}

int ss_task_recent_used_cpu(const struct ss_task *p)
{
	return p->recent_used_cpu;
}

unsigned long ss_task_util_avg_of(const struct ss_task *p)
{
	return (unsigned long)p->avg.util_avg;
}

unsigned long ss_task_util_est_of(const struct ss_task *p)
{
	/* _task_util_est(), fair.c v6.6 */
	unsigned long enq = p->avg.util_est.enqueued & ~SS_UTIL_AVG_UNCHANGED, ewma = p->avg.util_est.ewma;
	return ewma > enq ? ewma : enq;
}

unsigned ss_task_id(const struct ss_task *p)
{
	return p->id;
}

void *ss_policy_state(struct ss_sim *sim)
{
	return sim->policy_state;
}

int64_t ss_policy_param(const struct ss_sim *sim, unsigned i)
{
	if (i >= sim->policy->nr_params || i >= SS_POLICY_MAX_PARAMS)
		return 0;
	return sim->params.policy_set[i] ? sim->params.policy_values[i] : sim->policy->params[i].def;
}

/* ------------------------------------------------------------ registry and loader */

struct plugin {
	struct ss_policy policy;    /* what the simulator runs */
	const struct ss_policy_ops *ops;
	char *path;
};

static GMutex registry_lock;
static GPtrArray *registry;       /* struct plugin *, in load order; lives until exit */

const struct ss_policy *ss_policy_plugin_find(const char *name)
{
	const struct ss_policy *found = NULL;
	g_mutex_lock(&registry_lock);
	for (unsigned i = 0; registry && i < registry->len && !found; i++) {
		struct plugin *pl = g_ptr_array_index(registry, i);
		if (!strcmp(pl->policy.name, name))
			found = &pl->policy;
	}
	g_mutex_unlock(&registry_lock);
	return found;
}

static bool valid_name(const char *n)
{
	size_t len = n ? strlen(n) : 0;
	if (!len || len > 32)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((n[i] >= 'a' && n[i] <= 'z') || (n[i] >= '0' && n[i] <= '9') || n[i] == '_'))
			return false;
	return true;
}

/* The ops table must describe a policy the simulator can run; a message names what is wrong. */
static bool check_ops(const char *path, const struct ss_policy_ops *o, GError **err)
{
	ss_features_t f = ss_features_default();
	GError *fe = NULL;
#define BAD(...)                                                                     \
	do {                                                                         \
		char *m_ = g_strdup_printf(__VA_ARGS__);                               \
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: policy plugin: %s", path, m_); \
		g_free(m_);                                                            \
		return false;                                                          \
	} while (0)
	if (!valid_name(o->name))
		BAD("policy name '%s' is not 1..32 characters of a-z, 0-9 and _", o->name ? o->name : "(null)");
	if (!o->select_task_rq)
		BAD("policy %s has no select_task_rq hook (it is required)", o->name);
	if (o->nr_params > SS_POLICY_MAX_PARAMS)
		BAD("policy %s has %u parameters (at most %u)", o->name, o->nr_params, SS_POLICY_MAX_PARAMS);
	if (o->nr_params && !o->params)
		BAD("policy %s declares %u parameters but no table", o->name, o->nr_params);
	for (unsigned i = 0; i < o->nr_params; i++) {
		const struct ss_policy_param *pp = &o->params[i];
		if (!valid_name(pp->key))
			BAD("policy %s: parameter %u: key '%s' is not 1..32 characters of a-z, 0-9 and _", o->name, i,
			    pp->key ? pp->key : "(null)");
		if (pp->min > pp->max || pp->def < pp->min || pp->def > pp->max)
			BAD("policy %s: parameter %s: default %lld is not in %lld..%lld", o->name, pp->key,
			    (long long)pp->def, (long long)pp->min, (long long)pp->max);
	}
	if (o->state_size > (1u << 20))
		BAD("policy %s asks for %zu bytes of state (at most 1 MiB)", o->name, o->state_size);
	if (o->features && !ss_features_parse(o->features, &f, &fe)) {
		char *m = g_strdup(fe->message);
		g_error_free(fe);
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: policy plugin: policy %s: features: %s", path, o->name, m);
		g_free(m);
		return false;
	}
#undef BAD
	return true;
}

/* Register a checked ops table; origin names it in messages. *dup: the same table was registered before. */
static bool register_ops(const char *origin, const struct ss_policy_ops *ops, bool *dup, GError **err)
{
	struct plugin *pl;
	*dup = false;
	if (ops->abi_version != SS_POLICY_ABI_VERSION) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: policy plugin ABI version %u, but this simsched has ABI version %u (rebuild the plugin against this simsched's simsched/policy.h)",
			    origin, ops->abi_version, SS_POLICY_ABI_VERSION);
		return false;
	}
	if (!check_ops(origin, ops, err))
		return false;
	g_mutex_lock(&registry_lock);
	for (unsigned i = 0; registry && i < registry->len; i++) {
		pl = g_ptr_array_index(registry, i);
		if (pl->ops == ops) {
			g_mutex_unlock(&registry_lock);
			*dup = true;
			return true;
		}
	}
	g_mutex_unlock(&registry_lock);
	if (ss_policy_find(ops->name)) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: policy plugin: the name '%s' is already taken by another policy (rename the plugin's policy)",
			    origin, ops->name);
		return false;
	}
	pl = g_new0(struct plugin, 1);
	pl->ops = ops;
	pl->path = g_strdup(origin);
	pl->policy.name = ops->name;
	pl->policy.description = ops->description ? ops->description : "";
	pl->policy.source = ops->source ? ops->source : pl->path;
	pl->policy.features = ops->features ? ops->features : "";
	pl->policy.select_task_rq = ops->select_task_rq;
	pl->policy.update_lb_stats = ops->update_lb_stats;
	pl->policy.params = ops->params;
	pl->policy.nr_params = ops->nr_params;
	pl->policy.state_size = ops->state_size;
	g_mutex_lock(&registry_lock);
	if (!registry)
		registry = g_ptr_array_new();
	g_ptr_array_add(registry, pl);
	g_mutex_unlock(&registry_lock);
	return true;
}

bool ss_policy_register(const struct ss_policy_ops *ops, GError **err)
{
	bool dup;
	if (!ops) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "ss_policy_register: no ops table");
		return false;
	}
	return register_ops("(program)", ops, &dup, err);
}

bool ss_policy_plugin_load(const char *path, const char **name, GError **err)
{
	GModule *mod;
	gpointer sym = NULL;
	const struct ss_policy_ops *ops;
	bool dup;

	if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: no such policy plugin file", path);
		return false;
	}
	if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: is a directory, not a policy plugin (a .so file)", path);
		return false;
	}
	/* a path with a '/' is opened as given, not searched for in the library path */
	g_autofree char *open_path = strchr(path, '/') ? g_strdup(path) : g_strconcat("./", path, NULL);
	mod = g_module_open(open_path, G_MODULE_BIND_LOCAL);
	if (!mod) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: cannot load as a policy plugin: not a shared object this program can load (%s)", path,
			    g_module_error());
		return false;
	}
	if (!g_module_symbol(mod, SS_POLICY_PLUGIN_SYMBOL, &sym) || !sym) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: not a simsched policy plugin: it does not export the function %s (see simsched/policy.h)",
			    path, SS_POLICY_PLUGIN_SYMBOL);
		g_module_close(mod);
		return false;
	}
	ops = ((ss_policy_plugin_fn)sym)();
	if (!ops) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: policy plugin: %s() returned no ops table", path,
			    SS_POLICY_PLUGIN_SYMBOL);
		g_module_close(mod);
		return false;
	}
	if (!register_ops(path, ops, &dup, err)) {
		g_module_close(mod);
		return false;
	}
	if (dup)
		g_module_close(mod);          /* loaded before: drop the extra reference */
	else
		g_module_make_resident(mod);  /* its code runs in every later simulation */
	*name = ops->name;
	return true;
}

const char *ss_policy_plugin_file(const char *policy)
{
	const char *found = NULL;

	g_mutex_lock(&registry_lock);
	for (unsigned i = 0; policy && registry && i < registry->len && !found; i++) {
		struct plugin *pl = g_ptr_array_index(registry, i);
		if (!strcmp(pl->policy.name, policy) && strcmp(pl->path, "(program)"))
			found = pl->path;
	}
	g_mutex_unlock(&registry_lock);
	return found;
}
