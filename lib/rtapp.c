/*
 * rtapp.c — rt-app JSON task sets compiled into workloads (simsched/rtapp.h).
 *
 * Grammar: rt-app doc/tutorial.txt and src/rt-app_parse_config.c
 * (scheduler-tools/rt-app). Three steps:
 *
 *  1. loosen: rt-app reads its files with json-c in non-strict mode, which
 *     takes comments and trailing commas, and its workgen script numbers
 *     duplicate keys so that two "run" keys of a phase both run. Comments and
 *     trailing commas are blanked out (byte offsets kept, so a syntax error
 *     still has its line and column); cJSON keeps duplicate keys in file
 *     order, and they are numbered as workgen numbers them.
 *  2. read the tree into threads, phases and events, checking every key;
 *     anything with a scheduling meaning simsched does not model is an
 *     error naming its JSON path ("file: tasks.t.phases.p.mem: ...").
 *  3. lower each thread to a role program of the workload language
 *     (workload_priv.h): run, sleep, wake, wait, loop, transaction marks.
 *
 * Documented in docs/workloads.md, "rt-app import"; keep them in step.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "simsched/error.h"
#include "simsched/rtapp.h"
#include "workload_priv.h"

#define MAX_THREADS 4096u
#define MAX_US UINT64_C(1000000000000)     /* 10^6 s in us */
#define MAX_TOTAL_INSN (1u << 20)

/* ------------------------------------------------------------ model of the file */

enum ev_kind {
	EV_RUN, EV_RUNTIME, EV_SLEEP, EV_MEM, EV_IORUN, EV_LOCK, EV_UNLOCK, EV_SIGNAL, EV_BROAD,
	EV_WAIT, EV_SYNC, EV_BARRIER, EV_TIMER, EV_RESUME, EV_SUSPEND, EV_YIELD, EV_FORK,
};

/* rt-app's parse_task_event_data() order: a key is an event if it starts with one of these */
static const struct {
	const char *prefix;
	enum ev_kind kind;
} ev_prefix[] = {
	{ "runtime", EV_RUNTIME }, { "run", EV_RUN }, { "sleep", EV_SLEEP }, { "mem", EV_MEM },
	{ "iorun", EV_IORUN }, { "lock", EV_LOCK }, { "unlock", EV_UNLOCK }, { "signal", EV_SIGNAL },
	{ "broad", EV_BROAD }, { "wait", EV_WAIT }, { "sync", EV_SYNC }, { "barrier", EV_BARRIER },
	{ "timer", EV_TIMER }, { "resume", EV_RESUME }, { "suspend", EV_SUSPEND }, { "yield", EV_YIELD },
	{ "fork", EV_FORK },
};

struct event {
	enum ev_kind kind;
	char *path;
	uint64_t us;          /* RUN, SLEEP */
	char *ref;            /* SIGNAL, BROAD, WAIT, SYNC, RESUME, SUSPEND, BARRIER: the resource */
};

struct phase {
	char *path;
	int64_t loop;         /* -1 = forever */
	GPtrArray *events;    /* struct event * */
};

struct thread {
	char *name;           /* the key in "tasks" (numbered if duplicated) */
	char *path;
	unsigned instances;
	int nice;
	uint64_t delay_us;
	int64_t loop;         /* over all phases; -1 = forever */
	GPtrArray *phases;    /* struct phase * */
	unsigned first_role;  /* roles first_role .. first_role + instances - 1 */
};

struct ctx {
	const char *file;
	GError **err;
	GPtrArray *threads;   /* struct thread * */
	char *default_policy_path;
	bool default_other;
	GPtrArray *warnings;  /* char *, one per kind */
	GString *dups;        /* paths of numbered duplicate keys */
	GString *ignored;     /* global settings without scheduling meaning */
	bool warned_tokens, warned_dl, warned_mutex;
	struct ss_workload *w;
	unsigned total_insn;
};

static bool fail(struct ctx *c, const char *path, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static bool fail(struct ctx *c, const char *path, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(c->err, SS_ERROR, SS_ERROR_INVALID, "%s: %s: %s", c->file, path, msg);
	g_free(msg);
	return false;
}

static void warn(struct ctx *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void warn(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	char *m = g_strdup_vprintf(fmt, ap);

	g_ptr_array_add(c->warnings, g_strdup_printf("%s: %s", c->file, m));
	g_free(m);
	va_end(ap);
}

static void event_free(gpointer p)
{
	struct event *e = p;

	g_free(e->path);
	g_free(e->ref);
	g_free(e);
}

static void phase_free(gpointer p)
{
	struct phase *ph = p;

	g_free(ph->path);
	g_ptr_array_free(ph->events, TRUE);
	g_free(ph);
}

static void thread_free(gpointer p)
{
	struct thread *t = p;

	g_free(t->name);
	g_free(t->path);
	g_ptr_array_free(t->phases, TRUE);
	g_free(t);
}

/* ------------------------------------------------------------ 1. looseness */

bool ss_rtapp_detect(const char *name, const char *text, size_t len)
{
	size_t n = name ? strlen(name) : 0;
	size_t i = 0;

	if (n >= 5 && !g_ascii_strcasecmp(name + n - 5, ".json"))
		return true;
	while (i < len) {
		if (g_ascii_isspace(text[i])) {
			i++;
		} else if (text[i] == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i < len && text[i] != '\n')
				i++;
		} else if (text[i] == '/' && i + 1 < len && text[i + 1] == '*') {
			for (i += 2; i + 1 < len && !(text[i] == '*' && text[i + 1] == '/'); i++)
				;
			i += 2;
		} else {
			return text[i] == '{';
		}
	}
	return false;
}

/*
 * Blank out comments (// to the end of the line, / * ... * /) and commas
 * before a closing } or ], outside strings, keeping every other byte where
 * it was. Counts what it removed.
 */
static char *loosen(const char *in, size_t len, unsigned *nr_comments, unsigned *nr_commas)
{
	char *s = g_malloc(len + 1);
	bool in_str = false;
	size_t last_comma = SIZE_MAX;   /* a comma not yet followed by a value */

	memcpy(s, in, len);
	s[len] = '\0';
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];

		if (in_str) {
			if (ch == '\\' && i + 1 < len)
				i++;
			else if (ch == '"')
				in_str = false;
			continue;
		}
		if (ch == '/' && i + 1 < len && (s[i + 1] == '/' || s[i + 1] == '*')) {
			bool line = s[i + 1] == '/';
			size_t j = i + 2;

			if (line) {
				while (j < len && s[j] != '\n')
					j++;
			} else {
				while (j + 1 < len && !(s[j] == '*' && s[j + 1] == '/'))
					j++;
				j = j + 1 < len ? j + 2 : len;
			}
			for (size_t k = i; k < j; k++)
				if (s[k] != '\n')
					s[k] = ' ';
			(*nr_comments)++;
			i = j - 1;
			continue;
		}
		if (g_ascii_isspace(ch))
			continue;
		if ((ch == '}' || ch == ']') && last_comma != SIZE_MAX) {
			s[last_comma] = ' ';
			(*nr_commas)++;
		}
		last_comma = ch == ',' ? i : SIZE_MAX;
		if (ch == '"')
			in_str = true;
	}
	return s;
}

static void line_col(const char *s, size_t off, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (s[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/*
 * workgen's numbering of duplicate keys: the second "run" of an object
 * becomes "run1", the next "run2", ... (a number not used by another key).
 */
static void number_duplicates(struct ctx *c, cJSON *obj, const char *path)
{
	GHashTable *seen;

	if (!cJSON_IsObject(obj) && !cJSON_IsArray(obj))
		return;
	seen = g_hash_table_new(g_str_hash, g_str_equal);
	if (cJSON_IsObject(obj))
		for (cJSON *it = obj->child; it; it = it->next)
			g_hash_table_add(seen, it->string);
	for (cJSON *it = obj->child; it; it = it->next) {
		char *sub;

		if (cJSON_IsObject(obj)) {
			for (cJSON *prev = obj->child; prev != it; prev = prev->next) {
				if (!strcmp(prev->string, it->string)) {
					char *nk = NULL;

					for (unsigned n = 1;; n++) {
						nk = g_strdup_printf("%s%u", it->string, n);
						if (!g_hash_table_contains(seen, nk))
							break;
						g_free(nk);
					}
					g_string_append_printf(c->dups, "%s%s%s%s -> %s", c->dups->len ? ", " : "", path,
							       *path ? "." : "", it->string, nk);
					/* cJSON owns key strings it allocated; replace through its allocator */
					cJSON_free(it->string);
					it->string = cJSON_malloc(strlen(nk) + 1);
					strcpy(it->string, nk);
					g_free(nk);
					g_hash_table_add(seen, it->string);
					break;
				}
			}
			sub = *path ? g_strdup_printf("%s.%s", path, it->string) : g_strdup(it->string);
		} else {
			sub = g_strdup(path);
		}
		number_duplicates(c, it, sub);
		g_free(sub);
	}
	g_hash_table_destroy(seen);
}

/* ------------------------------------------------------------ 2. read the tree */

static char *sub_path(const char *path, const char *key)
{
	return *path ? g_strdup_printf("%s.%s", path, key) : g_strdup(key);
}

static bool get_int(struct ctx *c, const cJSON *v, const char *path, int64_t lo, int64_t hi, int64_t *out)
{
	double d;

	if (!cJSON_IsNumber(v))
		return fail(c, path, "expected an integer (rt-app reads it as a JSON integer)");
	d = v->valuedouble;
	if (d != floor(d) || d < (double)lo || d > (double)hi)
		return fail(c, path, "%g is out of range (expected an integer in %lld..%lld)", d, (long long)lo,
			    (long long)hi);
	*out = (int64_t)d;
	return true;
}

static bool get_string(struct ctx *c, const cJSON *v, const char *path, const char **out)
{
	if (!cJSON_IsString(v))
		return fail(c, path, "expected a string");
	*out = v->valuestring;
	return true;
}

static bool is_event_key(const char *key, enum ev_kind *kind)
{
	for (size_t i = 0; i < G_N_ELEMENTS(ev_prefix); i++) {
		if (!strncmp(key, ev_prefix[i].prefix, strlen(ev_prefix[i].prefix))) {
			*kind = ev_prefix[i].kind;
			return true;
		}
	}
	return false;
}

static const char *ev_name(enum ev_kind k)
{
	for (size_t i = 0; i < G_N_ELEMENTS(ev_prefix); i++)
		if (ev_prefix[i].kind == k)
			return ev_prefix[i].prefix;
	return "?";
}

/* {"ref": R, "mutex": M} of wait and sync; rt-app's default ref is "unknown" */
static bool get_cond_obj(struct ctx *c, const cJSON *v, const char *path, char **ref)
{
	const char *r = "unknown";

	if (!cJSON_IsObject(v))
		return fail(c, path, "expected an object {\"ref\": NAME, \"mutex\": NAME}");
	for (const cJSON *it = v->child; it; it = it->next) {
		g_autofree char *p = sub_path(path, it->string);

		if (!strcmp(it->string, "ref")) {
			if (!get_string(c, it, p, &r))
				return false;
		} else if (!strcmp(it->string, "mutex")) {
			const char *m;

			if (!get_string(c, it, p, &m))
				return false;
			if (!c->warned_mutex) {
				c->warned_mutex = true;
				warn(c, "%s: the \"mutex\" of wait/sync is not used: the lock/unlock events that "
					"would hold it are not modelled yet (pthread_cond_wait releases and retakes it)",
				     p);
			}
		} else {
			return fail(c, p, "unknown key '%s' (expected ref or mutex)", it->string);
		}
	}
	*ref = g_strdup(r);
	return true;
}

static bool parse_event(struct ctx *c, struct thread *t, struct phase *ph, const cJSON *v, enum ev_kind k,
			const char *path)
{
	struct event *e = g_new0(struct event, 1);
	int64_t n;
	const char *s = NULL;

	e->kind = k;
	e->path = g_strdup(path);
	g_ptr_array_add(ph->events, e);
	switch (k) {
	case EV_RUN:
	case EV_SLEEP:
		if (!get_int(c, v, path, 0, (int64_t)MAX_US, &n))
			return false;
		e->us = (uint64_t)n;
		return true;
	case EV_RUNTIME:
		return fail(c, path, "event '%s' (running for a wall-clock time whatever the CPU's speed) is not "
				     "modelled yet (use 'run': CPU work at capacity 1024 and maximum frequency)",
			    "runtime");
	case EV_MEM:
	case EV_IORUN:
		return fail(c, path, "event '%s' is not modelled by simsched (it has no memory or I/O model)",
			    ev_name(k));
	case EV_YIELD:
		return fail(c, path, "event 'yield' is not modelled by simsched (sched_yield() is not simulated)");
	case EV_LOCK:
	case EV_UNLOCK:
		return fail(c, path, "event '%s' is not modelled yet (the workload language has no mutex yet)",
			    ev_name(k));
	case EV_TIMER:
		return fail(c, path, "event 'timer' is not modelled yet (the workload language has no periodic "
				     "timer yet; 'sleep' is relative to the end of the previous event)");
	case EV_FORK:
		return fail(c, path, "event 'fork' is not modelled yet (the workload language has no spawn yet)");
	case EV_SIGNAL:
	case EV_BROAD:
	case EV_RESUME:
	case EV_BARRIER:
		if (!get_string(c, v, path, &s))
			return false;
		if (!*s)
			return fail(c, path, "empty %s name (expected the name of a %s)", ev_name(k),
				    k == EV_RESUME ? "thread" : k == EV_BARRIER ? "barrier" : "condition");
		e->ref = g_strdup(s);
		return true;
	case EV_SUSPEND:
		if (!get_string(c, v, path, &s))
			return false;
		/* workgen fills an empty suspend with the thread's own name */
		e->ref = g_strdup(*s ? s : t->name);
		return true;
	case EV_WAIT:
	case EV_SYNC:
		return get_cond_obj(c, v, path, &e->ref);
	}
	return fail(c, path, "unknown event");
}

static bool check_policy(struct ctx *c, const cJSON *v, const char *path)
{
	const char *s = NULL;

	if (!get_string(c, v, path, &s))
		return false;
	if (!strcmp(s, "SCHED_OTHER"))
		return true;
	if (!strcmp(s, "SCHED_FIFO") || !strcmp(s, "SCHED_RR") || !strcmp(s, "SCHED_DEADLINE") ||
	    !strcmp(s, "SCHED_IDLE"))
		return fail(c, path, "policy '%s' is not modelled by simsched (it simulates CFS/EEVDF "
				     "SCHED_OTHER tasks only)", s);
	return fail(c, path, "unknown policy '%s' (expected SCHED_OTHER, the one simsched models)", s);
}

/*
 * Keys a thread or a phase may hold besides events. `level` is "thread" or
 * "phase". Returns 1 if handled, 0 if not such a key, -1 on error.
 */
static int sched_key(struct ctx *c, struct thread *t, const cJSON *it, const char *p, bool phase)
{
	const char *k = it->string;
	int64_t n;

	if (!strcmp(k, "policy")) {
		if (!check_policy(c, it, p))
			return -1;
		if (phase)
			return fail(c, p, "a policy change at a phase is not modelled yet") ? 1 : -1;
		return 1;
	}
	if (!strcmp(k, "priority")) {
		if (phase)
			return fail(c, p, "a priority change at a phase is not modelled yet (the nice value is "
					  "fixed per thread)") ? 1 : -1;
		if (!get_int(c, it, p, -20, 19, &n))
			return -1;
		t->nice = (int)n;   /* SCHED_OTHER: rt-app's priority is the nice value */
		return 1;
	}
	if (!strcmp(k, "dl-runtime") || !strcmp(k, "dl-period") || !strcmp(k, "dl-deadline") ||
	    (!phase && (!strcmp(k, "period") || !strcmp(k, "deadline")))) {
		if (!get_int(c, it, p, 0, INT32_MAX, &n))
			return -1;
		if (!c->warned_dl) {
			c->warned_dl = true;
			warn(c, "%s: SCHED_DEADLINE parameters are ignored for SCHED_OTHER threads, as rt-app "
				"ignores them", p);
		}
		return 1;
	}
	if (!strcmp(k, "util_min") || !strcmp(k, "util_max"))
		return fail(c, p, "'%s' (uclamp) is not modelled by simsched", k) ? 1 : -1;
	if (!strcmp(k, "taskgroup")) {
		const char *s = NULL;

		if (!get_string(c, it, p, &s))
			return -1;
		if (*s)
			return fail(c, p, "task groups (cgroup '%s') are not modelled by simsched", s) ? 1 : -1;
		return 1;   /* "" = no task group, as rt-app reads it */
	}
	if (!strcmp(k, "nodes_membind") || !strcmp(k, "membind_nodes"))
		return fail(c, p, "NUMA memory binding is not modelled by simsched") ? 1 : -1;
	if (!strcmp(k, "cpus"))
		return fail(c, p, phase ? "an affinity change at a phase is not modelled yet"
					: "CPU affinity is not modelled yet (the workload language has no "
					  "per-task affinity yet; simsched run --nodes restricts all tasks)") ? 1 : -1;
	return 0;
}

static bool parse_phase_body(struct ctx *c, struct thread *t, struct phase *ph, const cJSON *obj,
			     const char *path, bool is_thread)
{
	for (const cJSON *it = obj->child; it; it = it->next) {
		g_autofree char *p = sub_path(path, it->string);
		enum ev_kind k;
		int r;

		if (is_thread && (!strcmp(it->string, "instance") || !strcmp(it->string, "delay") ||
				  !strcmp(it->string, "phases")))
			continue;   /* thread keys, read by the caller */
		if (!strcmp(it->string, "loop")) {
			int64_t n;

			if (!get_int(c, it, p, -1, UINT32_MAX - 1, &n))
				return false;
			ph->loop = n;
			continue;
		}
		r = sched_key(c, t, it, p, !is_thread);
		if (r < 0)
			return false;
		if (r)
			continue;
		if (is_event_key(it->string, &k)) {
			if (!parse_event(c, t, ph, it, k, p))
				return false;
			continue;
		}
		return fail(c, p, "unknown event or key '%s' (rt-app events: run, runtime, sleep, timer, lock, "
				  "unlock, wait, signal, broad, sync, suspend, resume, barrier, fork, mem, iorun, yield)",
			    it->string);
	}
	if (!ph->events->len)
		return fail(c, path, "no events (rt-app: a phase must have events)");
	return true;
}

static bool parse_thread(struct ctx *c, const cJSON *obj, const char *name, const char *path)
{
	struct thread *t = g_new0(struct thread, 1);
	const cJSON *phases = NULL;
	int64_t n;

	t->name = g_strdup(name);
	t->path = g_strdup(path);
	t->instances = 1;
	t->phases = g_ptr_array_new_with_free_func(phase_free);
	g_ptr_array_add(c->threads, t);
	if (!cJSON_IsObject(obj))
		return fail(c, path, "expected a thread object");
	for (const cJSON *it = obj->child; it; it = it->next) {
		g_autofree char *p = sub_path(path, it->string);

		if (!strcmp(it->string, "instance")) {
			if (!get_int(c, it, p, 0, MAX_THREADS, &n))
				return false;
			t->instances = (unsigned)n;
		} else if (!strcmp(it->string, "delay")) {
			if (!get_int(c, it, p, 0, (int64_t)MAX_US, &n))
				return false;
			t->delay_us = (uint64_t)n;
		} else if (!strcmp(it->string, "phases")) {
			phases = it;
		}
	}
	if (phases) {
		g_autofree char *pp = sub_path(path, "phases");

		if (!cJSON_IsObject(phases) || !phases->child)
			return fail(c, pp, "expected an object of phases");
		t->loop = -1;
		for (const cJSON *it = obj->child; it; it = it->next) {
			g_autofree char *p = sub_path(path, it->string);
			enum ev_kind k;
			int r;

			if (!strcmp(it->string, "instance") || !strcmp(it->string, "delay") ||
			    !strcmp(it->string, "phases"))
				continue;
			if (!strcmp(it->string, "loop")) {
				if (!get_int(c, it, p, -1, UINT32_MAX - 1, &n))
					return false;
				t->loop = n;
				continue;
			}
			r = sched_key(c, t, it, p, false);
			if (r < 0)
				return false;
			if (r)
				continue;
			if (is_event_key(it->string, &k))
				return fail(c, p, "event '%s' next to \"phases\" (rt-app ignores it: put it in a phase)",
					    it->string);
			return fail(c, p, "unknown key '%s' in a thread", it->string);
		}
		for (const cJSON *it = phases->child; it; it = it->next) {
			g_autofree char *p = sub_path(pp, it->string);
			struct phase *ph = g_new0(struct phase, 1);

			ph->path = g_strdup(p);
			ph->loop = 1;
			ph->events = g_ptr_array_new_with_free_func(event_free);
			g_ptr_array_add(t->phases, ph);
			if (!cJSON_IsObject(it))
				return fail(c, p, "expected a phase object");
			if (!parse_phase_body(c, t, ph, it, p, false))
				return false;
		}
	} else {
		/* the thread object is its only phase (parse_task_data): with a
		 * "loop" the phase runs that often once, without it for ever */
		struct phase *ph = g_new0(struct phase, 1);

		ph->path = g_strdup(path);
		ph->loop = 1;
		ph->events = g_ptr_array_new_with_free_func(event_free);
		g_ptr_array_add(t->phases, ph);
		if (!parse_phase_body(c, t, ph, obj, path, true))
			return false;
		t->loop = cJSON_HasObjectItem(obj, "loop") ? 1 : -1;
	}
	return true;
}

static bool parse_global(struct ctx *c, const cJSON *g)
{
	static const char *const no_meaning[] = {
		"logdir", "log_basename", "log_size", "ftrace", "gnuplot", "lock_pages", "io_device",
		"mem_buffer_size", "cumulative_slack", NULL,
	};

	if (!cJSON_IsObject(g))
		return fail(c, "global", "expected an object");
	for (const cJSON *it = g->child; it; it = it->next) {
		g_autofree char *p = sub_path("global", it->string);
		bool known = false;
		int64_t n;

		for (unsigned i = 0; no_meaning[i]; i++)
			if (!strcmp(it->string, no_meaning[i]))
				known = true;
		if (known) {
			g_string_append_printf(c->ignored, "%s%s", c->ignored->len ? ", " : "", it->string);
		} else if (!strcmp(it->string, "duration")) {
			if (!get_int(c, it, p, -1, INT32_MAX, &n))
				return false;
			warn(c, "%s: %lld s is not used: the length of a run is --warmup + --duration", p,
			     (long long)n);
		} else if (!strcmp(it->string, "calibration")) {
			if (!cJSON_IsNumber(it) && !cJSON_IsString(it))
				return fail(c, p, "expected \"CPUn\" or a number of ns per loop");
			warn(c, "%s: ignored: a run event is CPU work at capacity 1024 and maximum frequency "
				"(rt-app calibrated on its fastest CPU at its maximum frequency)", p);
		} else if (!strcmp(it->string, "default_policy")) {
			if (!check_policy(c, it, p))
				return false;
		} else if (!strcmp(it->string, "pi_enabled")) {
			if (!cJSON_IsBool(it))
				return fail(c, p, "expected true or false");
			if (cJSON_IsTrue(it))
				return fail(c, p, "priority-inheritance mutexes are not modelled by simsched");
		} else {
			return fail(c, p, "unknown global setting '%s'", it->string);
		}
	}
	return true;
}

static bool parse_root(struct ctx *c, const cJSON *root)
{
	const cJSON *tasks = NULL;

	if (!cJSON_IsObject(root))
		return fail(c, "(top)", "expected a JSON object with \"tasks\"");
	for (const cJSON *it = root->child; it; it = it->next) {
		if (!strcmp(it->string, "tasks")) {
			tasks = it;
		} else if (!strcmp(it->string, "global")) {
			if (!parse_global(c, it))
				return false;
		} else if (!strcmp(it->string, "resources")) {
			warn(c, "resources: ignored: rt-app creates its resources where the events use them "
				"(the section is kept for old files)");
		} else {
			return fail(c, it->string, "unknown top-level key (expected tasks, global or resources)");
		}
	}
	if (!tasks)
		return fail(c, "tasks", "missing (rt-app needs a \"tasks\" object)");
	if (!cJSON_IsObject(tasks) || !tasks->child)
		return fail(c, "tasks", "expected an object of threads");
	for (const cJSON *it = tasks->child; it; it = it->next) {
		g_autofree char *p = sub_path("tasks", it->string);

		if (!*it->string)
			return fail(c, p, "empty thread name");
		if (!parse_thread(c, it, it->string, p))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------ 3. lower */

struct role_code {
	GArray *insn;         /* struct ss_wl_insn */
};

/* Roles of the threads that wait on condition `ref` (wait, sync, suspend). */
static GArray *waiters_of(struct ctx *c, const char *ref)
{
	GArray *r = g_array_new(FALSE, FALSE, sizeof(uint32_t));

	for (guint i = 0; i < c->threads->len; i++) {
		const struct thread *t = g_ptr_array_index(c->threads, i);
		bool waits = false;

		for (guint p = 0; p < t->phases->len; p++) {
			const struct phase *ph = g_ptr_array_index(t->phases, p);

			for (guint e = 0; e < ph->events->len; e++) {
				const struct event *ev = g_ptr_array_index(ph->events, e);

				if ((ev->kind == EV_WAIT || ev->kind == EV_SYNC || ev->kind == EV_SUSPEND) &&
				    !strcmp(ev->ref, ref))
					waits = true;
			}
		}
		for (unsigned k = 0; waits && k < t->instances; k++) {
			uint32_t role = t->first_role + k;
			g_array_append_val(r, role);
		}
	}
	return r;
}

/* Roles of the threads that use barrier `ref`; false + error if one uses it twice. */
static GArray *parties_of(struct ctx *c, const char *ref, bool *ok)
{
	GArray *r = g_array_new(FALSE, FALSE, sizeof(uint32_t));

	*ok = true;
	for (guint i = 0; i < c->threads->len; i++) {
		const struct thread *t = g_ptr_array_index(c->threads, i);
		const char *first = NULL;

		for (guint p = 0; p < t->phases->len; p++) {
			const struct phase *ph = g_ptr_array_index(t->phases, p);

			for (guint e = 0; e < ph->events->len; e++) {
				const struct event *ev = g_ptr_array_index(ph->events, e);

				if (ev->kind != EV_BARRIER || strcmp(ev->ref, ref))
					continue;
				if (first) {
					*ok = fail(c, ev->path, "barrier '%s' is used a second time by this thread (first "
								"at %s); rt-app counts every use as another party, so "
								"the barrier would never open", ref, first);
					return r;
				}
				first = ev->path;
			}
		}
		for (unsigned k = 0; first && k < t->instances; k++) {
			uint32_t role = t->first_role + k;
			g_array_append_val(r, role);
		}
	}
	return r;
}

static bool emit(struct ctx *c, GArray *code, const char *path, enum ss_wl_op op, uint32_t arg, uint64_t ns)
{
	struct ss_wl_insn in;

	memset(&in, 0, sizeof(in));
	in.op = (uint8_t)op;
	in.arg = arg;
	in.dist.kind = SS_DIST_CONST;
	in.dist.a = ns;
	in.which = SS_WHICH_INDEX;   /* WAKE: the role's only task (index 0) */
	if (code->len >= SS_WL_MAX_INSN || ++c->total_insn > MAX_TOTAL_INSN)
		return fail(c, path, "the program is too large (at most %u instructions per thread, %u in all)",
			    SS_WL_MAX_INSN, MAX_TOTAL_INSN);
	g_array_append_val(code, in);
	return true;
}

/* wake every role of `to` but `self` */
static bool emit_wakes(struct ctx *c, GArray *code, const char *path, GArray *to, uint32_t self)
{
	for (guint i = 0; i < to->len; i++) {
		uint32_t r = g_array_index(to, uint32_t, i);

		if (r != self && !emit(c, code, path, SS_OP_WAKE, r, 0))
			return false;
	}
	return true;
}

static bool lower_event(struct ctx *c, GArray *code, const struct event *e, uint32_t self, bool *time)
{
	GArray *to = NULL;
	bool ok = true;

	if ((e->kind == EV_SIGNAL || e->kind == EV_BROAD || e->kind == EV_RESUME || e->kind == EV_SYNC ||
	     e->kind == EV_WAIT || e->kind == EV_SUSPEND) && !c->warned_tokens) {
		c->warned_tokens = true;
		warn(c, "%s: signal, broad, resume and sync post a wakeup token to each waiting thread, and "
			"wait/suspend take one: a signal sent before its waiter waits is kept, where "
			"pthread_cond_signal() would lose it", e->path);
	}
	switch (e->kind) {
	case EV_RUN:
	case EV_SLEEP:
		if (!e->us)
			return true;   /* nothing to do, as in rt-app */
		*time = true;
		return emit(c, code, e->path, e->kind == EV_RUN ? SS_OP_RUN : SS_OP_SLEEP, 0, e->us * 1000);
	case EV_SIGNAL:
	case EV_RESUME:
	case EV_SYNC: {
		guint others;

		to = waiters_of(c, e->ref);
		others = to->len;
		for (guint i = 0; i < to->len; i++)
			if (g_array_index(to, uint32_t, i) == self)
				others--;
		if (others > 1) {
			ok = fail(c, e->path, "%s '%s' wakes one of %u waiting threads (the first in the wait "
					      "list), which is not modelled yet; use 'broad' to wake all of them",
				  ev_name(e->kind), e->ref, others);
			break;
		}
		/* one waiter: a wakeup of that thread; none: pthread_cond_signal() does nothing */
		ok = emit_wakes(c, code, e->path, to, self);
		if (ok && e->kind == EV_SYNC) {
			*time = true;
			ok = emit(c, code, e->path, SS_OP_WAIT, 1, 0);
		}
		break;
	}
	case EV_BROAD:
		to = waiters_of(c, e->ref);
		ok = emit_wakes(c, code, e->path, to, self);
		break;
	case EV_WAIT:
	case EV_SUSPEND:
		*time = true;
		ok = emit(c, code, e->path, SS_OP_WAIT, 1, 0);
		break;
	case EV_BARRIER: {
		/*
		 * N parties: each arrival posts a token to every other party and
		 * waits for N - 1. The last to arrive completes everyone's count
		 * and so wakes them all, as rt-app's last arrival broadcasts; no
		 * party can pass before all have arrived in the same round.
		 */
		to = parties_of(c, e->ref, &ok);
		if (!ok || to->len < 2)
			break;
		ok = emit_wakes(c, code, e->path, to, self);
		*time = true;
		if (ok)
			ok = emit(c, code, e->path, SS_OP_WAIT, to->len - 1, 0);
		break;
	}
	default:
		ok = fail(c, e->path, "event '%s' is not modelled", ev_name(e->kind));
		break;
	}
	if (to)
		g_array_free(to, TRUE);
	return ok;
}

/* LOOP n { body } around code[start..]: n == 1 needs none; 0 drops the body */
static bool wrap_loop(struct ctx *c, GArray *code, guint start, int64_t loop, bool time, const char *path)
{
	struct ss_wl_insn in;

	if (loop == 1)
		return true;
	if (loop == 0) {
		g_array_set_size(code, start);
		return true;
	}
	if (code->len == start)
		return true;
	if (!time)
		return fail(c, path, "this loop never lets simulated time pass (expected a run, sleep, wait, "
				     "suspend or barrier in it)");
	memset(&in, 0, sizeof(in));
	in.op = SS_OP_LOOP;
	in.arg = loop < 0 ? SS_WL_FOREVER : (uint32_t)loop;
	if (code->len + 2 > SS_WL_MAX_INSN || (c->total_insn += 2) > MAX_TOTAL_INSN)
		return fail(c, path, "the program is too large (at most %u instructions per thread)", SS_WL_MAX_INSN);
	g_array_insert_val(code, start, in);
	/* the body moved one instruction down: so did its inner loops' jump targets */
	for (guint i = start + 1; i < code->len; i++) {
		struct ss_wl_insn *x = &g_array_index(code, struct ss_wl_insn, i);

		if (x->op == SS_OP_ENDLOOP && x->arg >= start)
			x->arg++;
	}
	in.op = SS_OP_ENDLOOP;
	in.arg = start + 1;
	g_array_append_val(code, in);
	return true;
}

static bool lower_thread(struct ctx *c, const struct thread *t, uint32_t role, GArray *code)
{
	guint body;
	bool thread_time = false;

	if (t->delay_us && !emit(c, code, t->path, SS_OP_SLEEP, 0, t->delay_us * 1000))
		return false;
	body = code->len;
	for (guint p = 0; p < t->phases->len; p++) {
		const struct phase *ph = g_ptr_array_index(t->phases, p);
		guint start = code->len;
		bool time = false;

		/* one activation of the phase is one transaction (rt-app's "period" is its latency) */
		if (!emit(c, code, ph->path, SS_OP_TXN_BEGIN, 0, 0))
			return false;
		for (guint e = 0; e < ph->events->len; e++)
			if (!lower_event(c, code, g_ptr_array_index(ph->events, e), role, &time))
				return false;
		if (!emit(c, code, ph->path, SS_OP_TXN_END, 0, 0))
			return false;
		if (!wrap_loop(c, code, start, ph->loop, time, ph->path))
			return false;
		if (ph->loop != 0)
			thread_time |= time;
	}
	return wrap_loop(c, code, body, t->loop, thread_time, t->path);
}

static bool lower(struct ctx *c, const char *name)
{
	struct ss_workload *w = c->w;
	unsigned nr_roles = 0, r = 0;

	for (guint i = 0; i < c->threads->len; i++) {
		struct thread *t = g_ptr_array_index(c->threads, i);

		t->first_role = nr_roles;
		nr_roles += t->instances;
		if (nr_roles > MAX_THREADS)
			return fail(c, t->path, "more than %u threads in all", MAX_THREADS);
	}
	if (!nr_roles)
		return fail(c, "tasks", "no thread is created at the start (every \"instance\" is 0)");

	w->nr_roles = nr_roles;
	w->tasks_per_instance = nr_roles;
	w->role = g_new0(struct ss_wl_role, nr_roles);
	for (guint i = 0; i < c->threads->len; i++) {
		const struct thread *t = g_ptr_array_index(c->threads, i);

		for (unsigned k = 0; k < t->instances; k++, r++) {
			struct ss_wl_role *role = &w->role[r];
			GArray *code = g_array_new(FALSE, FALSE, sizeof(struct ss_wl_insn));

			role->name = t->instances == 1 ? g_strdup(t->name) : g_strdup_printf("%s[%u]", t->name, k);
			role->nice = t->nice;
			role->start = SS_START_ANY;
			role->count = 1;        /* one task per role: instances are roles here */
			role->first = r;
			role->mem_node = -1;
			if (!lower_thread(c, t, r, code)) {
				g_array_free(code, TRUE);
				return false;
			}
			if (!code->len) {
				/* every phase loops 0 times: the thread ends at once */
				g_array_free(code, TRUE);
				return fail(c, t->path, "the thread does nothing (every phase has \"loop\": 0)");
			}
			role->nr_insn = code->len;
			role->insn = (struct ss_wl_insn *)(void *)g_array_free(code, FALSE);
		}
	}
	w->name = g_strdup(name);
	w->description = g_strdup_printf("rt-app task set of %u thread%s", nr_roles, nr_roles == 1 ? "" : "s");
	w->source = g_strdup("rt-app JSON (scheduler-tools/rt-app doc/tutorial.txt), imported");
	w->instance = g_strdup("taskset");
	w->metric_name = g_strdup("activations");
	w->metric_unit = g_strdup("transactions/s");
	w->metric.name = w->metric_name;
	w->metric.unit = w->metric_unit;
	w->metric.higher_is_better = true;
	w->ipc_x1000 = 1000;
	w->per_machine = true;     /* --load 100 % = the task set once, 200 % = twice */
	return true;
}

/* ------------------------------------------------------------ entry points */

struct ss_workload *ss_rtapp_load_string(const char *text, size_t len, const char *name, GError **err)
{
	struct ctx c;
	unsigned nr_comments = 0, nr_commas = 0;
	char *buf;
	const char *end = NULL;
	cJSON *root;
	g_autofree char *base = NULL;
	char *dot;
	bool ok;

	memset(&c, 0, sizeof(c));
	c.file = name ? name : "(rt-app)";
	c.err = err;
	if (memchr(text, '\0', len)) {
		g_set_error(err, SS_ERROR, SS_ERROR_PARSE, "%s: contains a NUL byte (expected JSON text)", c.file);
		return NULL;
	}
	buf = loosen(text, len, &nr_comments, &nr_commas);
	root = cJSON_ParseWithLengthOpts(buf, len, &end, false);
	if (!root) {
		size_t off = end && end >= buf && end <= buf + len ? (size_t)(end - buf) : 0, line, col;

		line_col(buf, off, &line, &col);
		g_set_error(err, SS_ERROR, SS_ERROR_PARSE, "%s:%zu:%zu: JSON syntax error (expected a value, ',' or "
			    "a closing bracket)", c.file, line, col);
		g_free(buf);
		return NULL;
	}
	for (const char *p = end; p && p < buf + len; p++) {
		if (!g_ascii_isspace(*p)) {
			size_t line, col;

			line_col(buf, (size_t)(p - buf), &line, &col);
			g_set_error(err, SS_ERROR, SS_ERROR_PARSE, "%s:%zu:%zu: text after the JSON object", c.file, line,
				    col);
			cJSON_Delete(root);
			g_free(buf);
			return NULL;
		}
	}
	g_free(buf);

	c.threads = g_ptr_array_new_with_free_func(thread_free);
	c.warnings = g_ptr_array_new_with_free_func(g_free);
	c.dups = g_string_new(NULL);
	c.ignored = g_string_new(NULL);
	if (nr_commas)
		warn(&c, "accepted %u trailing comma%s before a closing bracket (json-c, which rt-app uses, "
			 "accepts them)", nr_commas, nr_commas == 1 ? "" : "s");
	if (nr_comments)
		warn(&c, "accepted %u comment%s (json-c, which rt-app uses, accepts them)", nr_comments,
		     nr_comments == 1 ? "" : "s");
	number_duplicates(&c, root, "");
	if (c.dups->len)
		warn(&c, "accepted duplicate keys, numbered as rt-app's workgen numbers them and kept in file "
			 "order (each duplicate event runs): %s", c.dups->str);

	c.w = g_new0(struct ss_workload, 1);
	base = g_path_get_basename(c.file);
	if ((dot = strrchr(base, '.')) && dot != base)
		*dot = '\0';
	ok = parse_root(&c, root) && lower(&c, base);
	cJSON_Delete(root);
	if (ok && c.ignored->len)
		warn(&c, "global: ignored, no scheduling meaning in a simulator: %s", c.ignored->str);
	if (ok) {
		g_ptr_array_add(c.warnings, NULL);
		c.w->warnings = (char **)g_ptr_array_free(c.warnings, FALSE);
		c.warnings = NULL;
	} else {
		ss_workload_free(c.w);
		c.w = NULL;
	}
	if (c.warnings)
		g_ptr_array_free(c.warnings, TRUE);
	g_ptr_array_free(c.threads, TRUE);
	g_string_free(c.dups, TRUE);
	g_string_free(c.ignored, TRUE);
	return c.w;
}

const char *const *ss_workload_warnings(const struct ss_workload *w)
{
	static const char *const none[] = { NULL };

	return w && w->warnings ? (const char *const *)w->warnings : none;
}
