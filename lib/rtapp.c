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
 *     (workload_priv.h): run, sleep, timer, mutexes, barriers, condition
 *     variables, spawn, loops, transaction marks. rt-app's events do what
 *     src/rt-app.c run_event() does with the resources that
 *     src/rt-app_parse_config.c parse_task_event_data() names.
 *
 * Documented in docs/workloads.md, "rt-app import"; keep them in step.
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "simsched/cpumask.h"
#include "simsched/error.h"
#include "simsched/rtapp.h"
#include "workload_priv.h"

#define MAX_THREADS 4096u
#define MAX_US UINT64_C(1000000000000)     /* 10^6 s in us */
#define MAX_TOTAL_INSN (1u << 20)

/* ------------------------------------------------------------ model of the file */

enum ev_kind {
	EV_RUN, EV_RUNTIME, EV_SLEEP, EV_MEM, EV_IORUN, EV_LOCK, EV_UNLOCK, EV_SIGNAL, EV_BROAD,
	EV_WAIT, EV_SYNC, EV_BARRIER, EV_TIMER, EV_RESUME, EV_SUSPEND, EV_YIELD, EV_FORK, EV_MEMRUN, EV_SEM_POST,
	EV_SEM_WAIT,
};

/*
 * rt-app's parse_task_event_data() order: a key is an event if it starts
 * with one of these ("memrun" before "mem": rt-app b4f3f07 made it an event
 * of its own; "sem_post" and "sem_wait": rt-app 28dccb8)
 */
static const struct {
	const char *prefix;
	enum ev_kind kind;
} ev_prefix[] = {
	{ "runtime", EV_RUNTIME }, { "run", EV_RUN }, { "sleep", EV_SLEEP }, { "memrun", EV_MEMRUN }, { "mem", EV_MEM },
	{ "iorun", EV_IORUN }, { "lock", EV_LOCK }, { "unlock", EV_UNLOCK }, { "signal", EV_SIGNAL },
	{ "broad", EV_BROAD }, { "wait", EV_WAIT }, { "sync", EV_SYNC }, { "barrier", EV_BARRIER },
	{ "timer", EV_TIMER }, { "resume", EV_RESUME }, { "suspend", EV_SUSPEND }, { "yield", EV_YIELD },
	{ "fork", EV_FORK }, { "sem_post", EV_SEM_POST }, { "sem_wait", EV_SEM_WAIT },
};

struct event {
	enum ev_kind kind;
	char *path;
	uint64_t us;          /* RUN, RUNTIME, SLEEP; TIMER: period */
	char *ref;            /* SIGNAL, BROAD, WAIT, SYNC, RESUME, SUSPEND, BARRIER, TIMER: the resource;
				 LOCK, UNLOCK: the mutex; FORK: the thread */
	char *mutex;          /* WAIT, SYNC: the mutex pthread_cond_wait() releases and retakes */
	bool absolute;        /* TIMER: "mode": "absolute" (rt-app's default is relative) */
};

struct phase {
	char *path;
	int64_t loop;         /* -1 = forever */
	GPtrArray *events;    /* struct event * */
	char *cpus;           /* "cpus" of the phase as a cpulist, or NULL */
	char *cpus_path;
	bool has_prio;        /* "priority" in the phase (a nice value change, rt-app set_thread_param) */
	int prio;
	char *prio_path;
};

struct thread {
	char *name;           /* the key in "tasks" (numbered if duplicated) */
	char *path;
	unsigned instances;
	int nice;
	uint64_t delay_us;
	int64_t loop;         /* over all phases; -1 = forever */
	GPtrArray *phases;    /* struct phase * */
	char *cpus;           /* thread-level "cpus" as a cpulist, or NULL */
	bool cpus_dynamic;    /* the affinity changes between phases: a SET_CPUS at each phase's start */
	char *phase_cpus;     /* cpus_dynamic: the thread-level "cpus" (a phase without its own uses it), or NULL */
	unsigned first_role;  /* roles first_role .. first_role + instances - 1 */
	/* a "fork" target: one role of fork_slots tasks, forked by the fork events */
	bool forked;
	unsigned fork_role, fork_slots;
	const char *timer_ref, *timer_path;   /* the timer that is the task's own (check_timers()), or NULL */
	bool timer_relative;
};

struct ctx {
	const char *file;
	GError **err;
	GPtrArray *threads;   /* struct thread * */
	char *default_policy_path;
	bool default_other;
	GPtrArray *warnings;  /* char *, one per kind */
	GString *dups;        /* paths of numbered duplicate keys (the first 20) */
	unsigned nr_dups;     /* duplicate keys numbered */
	GString *ignored;     /* global settings without scheduling meaning */
	GString *unknown_global;   /* global settings rt-app does not read either */
	bool warned_dl, warned_mutex, warned_fork, warned_suspend;
	struct ss_workload *w;
	unsigned total_insn;
	GPtrArray *res;       /* struct res *: the mutexes, conditions and barriers, sync ids 1.. */
};

/*
 * rt-app's resources (rt-app_parse_config.c get_resource_index()): one per
 * name and type, created where an event first names it. A mutex and a
 * condition of the same name are two resources. sem_post and sem_wait
 * name one semaphore (both look it up as type rtapp_sem_post).
 */
enum res_kind { RES_MUTEX, RES_COND, RES_BARRIER, RES_TIMER, RES_SEM };

struct res {
	char *name;
	enum res_kind kind;
	uint32_t parties;     /* RES_BARRIER */
	bool absolute;        /* RES_TIMER: some use says "mode": "absolute" (else relative, rt-app's default) */
};

/* rt-app FORKS_LIMIT: forks of one thread description before rt-app gives up */
#define FORKS_LIMIT 1024u
/* sync id of rt-app's threads_barrier (pthread_barrier_wait() before the first phase) */
#define START_BARRIER 0u

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

static void res_free(gpointer p)
{
	struct res *r = p;

	g_free(r->name);
	g_free(r);
}

static void event_free(gpointer p)
{
	struct event *e = p;

	g_free(e->path);
	g_free(e->ref);
	g_free(e->mutex);
	g_free(e);
}

static void phase_free(gpointer p)
{
	struct phase *ph = p;

	g_free(ph->path);
	g_free(ph->cpus);
	g_free(ph->cpus_path);
	g_free(ph->prio_path);
	g_ptr_array_free(ph->events, TRUE);
	g_free(ph);
}

static void thread_free(gpointer p)
{
	struct thread *t = p;

	g_free(t->name);
	g_free(t->path);
	g_free(t->cpus);
	g_free(t->phase_cpus);
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
	GHashTable *seen, *before, *next;

	if (!cJSON_IsObject(obj) && !cJSON_IsArray(obj))
		return;
	/* seen: every key of obj, as read and as numbered; before: the keys of the members before
	 * this one; next: per key, the number to try first (the ones below it are taken) —
	 * linear in the members, where comparing each with every earlier one was quadratic */
	/* (the tables own copies of the keys: a renamed key's old string is freed below, and a
	 * table may hold that very pointer for an equal key) */
	seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	before = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	next = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	if (cJSON_IsObject(obj))
		for (cJSON *it = obj->child; it; it = it->next)
			g_hash_table_add(seen, g_strdup(it->string));
	for (cJSON *it = obj->child; it; it = it->next) {
		char *sub;

		if (cJSON_IsObject(obj)) {
			if (g_hash_table_contains(before, it->string)) {
				char *nk = NULL;
				unsigned n = GPOINTER_TO_UINT(g_hash_table_lookup(next, it->string));

				for (n = n ? n : 1;; n++) {
					nk = g_strdup_printf("%s%u", it->string, n);
					if (!g_hash_table_contains(seen, nk))
						break;
					g_free(nk);
				}
				g_hash_table_replace(next, g_strdup(it->string), GUINT_TO_POINTER(n + 1));
				if (c->nr_dups++ < 20)
					g_string_append_printf(c->dups, "%s%s%s%s -> %s", c->dups->len ? ", " : "", path,
							       *path ? "." : "", it->string, nk);
				/* cJSON owns key strings it allocated; replace through its allocator */
				cJSON_free(it->string);
				it->string = cJSON_malloc(strlen(nk) + 1);
				strcpy(it->string, nk);
				g_free(nk);
				g_hash_table_add(seen, g_strdup(it->string));
			}
			g_hash_table_add(before, g_strdup(it->string));
			sub = *path ? g_strdup_printf("%s.%s", path, it->string) : g_strdup(it->string);
		} else {
			sub = g_strdup(path);
		}
		number_duplicates(c, it, sub);
		g_free(sub);
	}
	g_hash_table_destroy(seen);
	g_hash_table_destroy(before);
	g_hash_table_destroy(next);
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

/* {"ref": R, "mutex": M} of wait and sync; rt-app's default ref and mutex are "unknown" */
static bool get_cond_obj(struct ctx *c, const cJSON *v, const char *path, char **ref, char **mutex)
{
	const char *r = "unknown", *mx = "unknown";

	if (!cJSON_IsObject(v))
		return fail(c, path, "expected an object {\"ref\": NAME, \"mutex\": NAME}");
	for (const cJSON *it = v->child; it; it = it->next) {
		g_autofree char *p = sub_path(path, it->string);

		if (!strcmp(it->string, "ref")) {
			if (!get_string(c, it, p, &r))
				return false;
		} else if (!strcmp(it->string, "mutex")) {
			if (!get_string(c, it, p, &mx))
				return false;
		} else {
			return fail(c, p, "unknown key '%s' (expected ref or mutex)", it->string);
		}
	}
	*ref = g_strdup(r);
	*mutex = g_strdup(mx);
	return true;
}

/* {"ref": R, "period": US, "mode": "relative"|"absolute"} of timer */
static bool get_timer_obj(struct ctx *c, const cJSON *v, const char *path, struct event *e)
{
	const char *r = "unknown", *mode = NULL;
	bool has_period = false;
	int64_t n = 0;  /* set by get_int; initialised for -O3 maybe-uninitialized */

	if (!cJSON_IsObject(v))
		return fail(c, path, "expected an object {\"ref\": NAME, \"period\": US, \"mode\": "
				     "\"relative\"|\"absolute\"}");
	for (const cJSON *it = v->child; it; it = it->next) {
		g_autofree char *p = sub_path(path, it->string);

		if (!strcmp(it->string, "ref")) {
			if (!get_string(c, it, p, &r))
				return false;
		} else if (!strcmp(it->string, "period")) {
			if (!get_int(c, it, p, 0, (int64_t)MAX_US, &n))
				return false;
			if (!n)
				return fail(c, p, "a timer of period 0 never sleeps (expected a period of at least 1 us)");
			e->us = (uint64_t)n;
			has_period = true;
		} else if (!strcmp(it->string, "mode")) {
			if (!get_string(c, it, p, &mode))
				return false;
			/* rt-app compares the prefix: "absolute..." is absolute, anything else relative */
			if (!strncmp(mode, "absolute", 8))
				e->absolute = true;
			else if (strcmp(mode, "relative"))
				return fail(c, p, "unknown timer mode '%s' (expected relative or absolute)", mode);
		} else {
			return fail(c, p, "unknown key '%s' (expected ref, period or mode)", it->string);
		}
	}
	if (!has_period)
		return fail(c, path, "timer without \"period\" (rt-app would use 0: a timer that never sleeps)");
	e->ref = g_strdup(r);
	return true;
}

static bool parse_event(struct ctx *c, struct thread *t, struct phase *ph, const cJSON *v, enum ev_kind k,
			const char *path)
{
	struct event *e = g_new0(struct event, 1);
	int64_t n = 0;  /* set by get_int; initialised for -O3 maybe-uninitialized */
	const char *s = NULL;

	e->kind = k;
	e->path = g_strdup(path);
	g_ptr_array_add(ph->events, e);
	switch (k) {
	case EV_RUN:
	case EV_RUNTIME:
	case EV_SLEEP:
		if (!get_int(c, v, path, 0, (int64_t)MAX_US, &n))
			return false;
		e->us = (uint64_t)n;
		return true;
	case EV_MEM:
	case EV_IORUN: {
		/* the key as written ("memrun"), and the event rt-app reads it as (by prefix) */
		const char *key = strrchr(path, '.') ? strrchr(path, '.') + 1 : path;
		if (strcmp(key, ev_name(k)))
			return fail(c, path, "'%s' is rt-app's '%s' event, not modelled by simsched (it has no memory or I/O "
				    "model)", key, ev_name(k));
		return fail(c, path, "event '%s' is not modelled by simsched (it has no memory or I/O model)",
			    ev_name(k));
	}
	case EV_YIELD:
		return true;   /* rtapp_yield: one sched_yield(), whatever the value (parse_task_event_data() reads none) */
	case EV_MEMRUN:
		return fail(c, path, "event 'memrun' (rt-app's memory workload: read, write or chase over a buffer) is "
				     "not modelled by simsched (it has no memory model)");
	case EV_TIMER:
		return get_timer_obj(c, v, path, e);
	case EV_LOCK:
	case EV_UNLOCK:
	case EV_FORK:
	case EV_SIGNAL:
	case EV_BROAD:
	case EV_RESUME:
	case EV_BARRIER:
	case EV_SEM_POST:
	case EV_SEM_WAIT:
		if (!get_string(c, v, path, &s))
			return false;
		if (!*s)
			return fail(c, path, "empty %s name (expected the name of a %s)", ev_name(k),
				    k == EV_RESUME || k == EV_FORK ? "thread" : k == EV_BARRIER ? "barrier" :
				    k == EV_LOCK || k == EV_UNLOCK ? "mutex" : k == EV_SEM_POST || k == EV_SEM_WAIT ?
				    "semaphore" : "condition");
		e->ref = g_strdup(s);
		return true;
	case EV_SUSPEND:
		/*
		 * rt-app's parse_task_event_data() ignores the value since commit
		 * 32fcddf (2025): a thread suspends on its own name (the name of
		 * its description, shared by its instances and forks); before, it
		 * suspended on the string (workgen filled an empty one with the
		 * thread's name)
		 */
		if (cJSON_IsString(v) && *v->valuestring && strcmp(v->valuestring, t->name) && !c->warned_suspend) {
			c->warned_suspend = true;
			warn(c, "%s: \"suspend\": \"%s\" suspends thread '%s' on its own name, as rt-app does since "
				"it ignores the value (rt-app before 2025 suspended on '%s')", path, v->valuestring,
			     t->name, v->valuestring);
		}
		e->ref = g_strdup(t->name);
		return true;
	case EV_WAIT:
	case EV_SYNC:
		return get_cond_obj(c, v, path, &e->ref, &e->mutex);
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

static int cmp_int(gconstpointer a, gconstpointer b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/* "cpus": [0, 2, 3] -> "0,2,3" (sorted, duplicates dropped), as rt-app's parse_cpuset_data() */
static bool get_cpus(struct ctx *c, const cJSON *v, const char *path, char **out)
{
	GArray *cpus;
	GString *str;
	int64_t n = 0;  /* set by get_int; initialised for -O3 maybe-uninitialized */

	if (!cJSON_IsArray(v))
		return fail(c, path, "expected an array of CPU numbers, e.g. [0, 2, 3]");
	if (!v->child)
		return fail(c, path, "empty CPU list (pthread_setaffinity_np() refuses an empty set)");
	cpus = g_array_new(FALSE, FALSE, sizeof(int));
	for (const cJSON *it = v->child; it; it = it->next) {
		g_autofree char *p = g_strdup_printf("%s[%d]", path, cpus->len);
		int cpu;

		if (!get_int(c, it, p, 0, SS_MAX_CPUS - 1, &n)) {
			g_array_free(cpus, TRUE);
			return false;
		}
		cpu = (int)n;
		g_array_append_val(cpus, cpu);
	}
	g_array_sort(cpus, cmp_int);
	str = g_string_new(NULL);
	for (guint i = 0; i < cpus->len; i++)
		if (!i || g_array_index(cpus, int, i) != g_array_index(cpus, int, i - 1))
			g_string_append_printf(str, "%s%d", str->len ? "," : "", g_array_index(cpus, int, i));
	g_array_free(cpus, TRUE);
	*out = g_string_free(str, FALSE);
	return true;
}

/*
 * Keys a thread (ph == NULL) or a phase may hold besides events. Returns 1
 * if handled, 0 if not such a key, -1 on error.
 */
static int sched_key(struct ctx *c, struct thread *t, struct phase *ph, const cJSON *it, const char *p)
{
	const char *k = it->string;
	bool phase = ph != NULL;
	int64_t n = 0;  /* set by get_int; initialised for -O3 maybe-uninitialized */

	if (!strcmp(k, "policy")) {
		/* SCHED_OTHER everywhere: a phase's policy changes nothing */
		return check_policy(c, it, p) ? 1 : -1;
	}
	if (!strcmp(k, "priority")) {
		if (!get_int(c, it, p, -20, 19, &n))
			return -1;
		/* SCHED_OTHER: rt-app's priority is the nice value */
		if (phase) {
			ph->has_prio = true;
			ph->prio = (int)n;
			g_free(ph->prio_path);
			ph->prio_path = g_strdup(p);
		} else {
			t->nice = (int)n;
		}
		return 1;
	}
	if (!strcmp(k, "dl-runtime") || !strcmp(k, "dl-period") || !strcmp(k, "dl-deadline") ||
	    (!phase && (!strcmp(k, "period") || !strcmp(k, "deadline")))) {
		if (!get_int(c, it, p, 0, INT32_MAX, &n))
			return -1;
		if (!c->warned_dl) {
			c->warned_dl = true;
			if (!strcmp(k, "dl-runtime"))
				/* from Linux v6.12 sched_attr::sched_runtime sets a fair task's se->slice (its
				 * custom slice, __setparam_fair()); v6.6 ignores it for SCHED_OTHER */
				warn(c, "%s: ignored: rt-app passes it as sched_attr.sched_runtime, which Linux uses as a "
					"SCHED_OTHER task's custom slice from v6.12; the kernels modelled (v6.6, v5.17) have no "
					"custom slice", p);
			else
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
		if (*s && strcmp(s, "/"))
			return fail(c, p, "task groups (cgroup '%s') are not modelled by simsched", s) ? 1 : -1;
		return 1;   /* "" = no task group, as rt-app reads it; "/" = the root group, where every task is anyway */
	}
	if (!strcmp(k, "nodes_membind") || !strcmp(k, "membind_nodes"))
		return fail(c, p, "NUMA memory binding is not modelled by simsched") ? 1 : -1;
	if (!strcmp(k, "cpus")) {
		char *cl = NULL;

		if (!get_cpus(c, it, p, &cl))
			return -1;
		if (phase) {
			g_free(ph->cpus);
			g_free(ph->cpus_path);
			ph->cpus = cl;
			ph->cpus_path = g_strdup(p);
		} else {
			g_free(t->cpus);
			t->cpus = cl;
		}
		return 1;
	}
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
			int64_t n = 0;  /* set by get_int; initialised for -O3 maybe-uninitialized */

			if (!get_int(c, it, p, -1, UINT32_MAX - 1, &n))
				return false;
			ph->loop = n;
			continue;
		}
		r = sched_key(c, t, is_thread ? NULL : ph, it, p);
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
				  "unlock, wait, signal, broad, sync, suspend, resume, barrier, fork, mem, memrun, iorun, "
				  "yield, sem_post, sem_wait)",
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
	int64_t n = 0;  /* set by get_int; initialised for -O3 maybe-uninitialized */

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
			r = sched_key(c, t, NULL, it, p);
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
		int64_t n = 0;  /* set by get_int; initialised for -O3 maybe-uninitialized */

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
			/*
			 * rt-app's parse_global() (src/rt-app_parse_config.c) reads the
			 * settings it knows by name and never looks at the others, so a
			 * file with one it does not know (Android's use cases' "frag",
			 * LISA's "logstats") runs there: ignored here too, named.
			 */
			g_string_append_printf(c->unknown_global, "%s%s", c->unknown_global->len ? ", " : "", it->string);
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

static struct thread *find_thread(struct ctx *c, const char *name)
{
	for (guint i = 0; i < c->threads->len; i++) {
		struct thread *t = g_ptr_array_index(c->threads, i);

		if (!strcmp(t->name, name))
			return t;
	}
	return NULL;
}

/*
 * Parties of barrier `ref`: the instances of every thread that uses it
 * (one count, not a list of roles: a thread of 4000 instances lowers this
 * once per instance); false + error if one uses it twice or is forked.
 */
static uint32_t parties_of(struct ctx *c, const char *ref, bool *ok)
{
	uint32_t r = 0;

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
				if (t->forked) {
					*ok = fail(c, ev->path, "barrier '%s' in thread '%s', which is forked: rt-app cannot "
								"count the parties of a barrier that forked threads use "
								"(doc/tutorial.txt)", ref, t->name);
					return r;
				}
				first = ev->path;
			}
		}
		if (first)
			r += t->instances;
	}
	return r;
}

static bool emit_insn(struct ctx *c, GArray *code, const char *path, const struct ss_wl_insn *in)
{
	if (code->len >= SS_WL_MAX_INSN || ++c->total_insn > MAX_TOTAL_INSN)
		return fail(c, path, "the program is too large (at most %u instructions per thread, %u in all)",
			    SS_WL_MAX_INSN, MAX_TOTAL_INSN);
	g_array_append_val(code, *in);
	return true;
}

static bool emit(struct ctx *c, GArray *code, const char *path, enum ss_wl_op op, uint32_t arg, uint64_t ns)
{
	struct ss_wl_insn in;

	memset(&in, 0, sizeof(in));
	in.op = (uint8_t)op;
	in.arg = arg;
	in.dist.kind = SS_DIST_CONST;
	in.dist.a = ns;
	if (op == SS_OP_SPAWN)
		in.index = 1;        /* one thread per fork, as create_thread() */
	return emit_insn(c, code, path, &in);
}

/* An absolute timer statement: period ns, SS_TIMER_* flags, anchor ns; SS_TIMER_SHARED: the timer's sync id. */
static bool emit_timer(struct ctx *c, GArray *code, const char *path, uint64_t ns, uint32_t flags, uint64_t anchor,
		       uint32_t sync)
{
	struct ss_wl_insn in;

	memset(&in, 0, sizeof(in));
	in.op = SS_OP_TIMER;
	in.arg = sync;
	in.dist.kind = SS_DIST_CONST;
	in.dist.a = ns;
	in.dist.b = anchor;
	in.index = flags;
	return emit_insn(c, code, path, &in);
}

/* A COND_* statement on condition `cond`; COND_WAIT: mutex = its sync id + 1, 0 = none. */
static bool emit_cond(struct ctx *c, GArray *code, const char *path, enum ss_wl_op op, uint32_t cond,
		      uint32_t mutex)
{
	struct ss_wl_insn in;

	memset(&in, 0, sizeof(in));
	in.op = (uint8_t)op;
	in.arg = cond;
	in.index = mutex;
	return emit_insn(c, code, path, &in);
}

/*
 * sync id of resource `name` of `kind`, registered in first-use order after
 * the start barrier (rt-app's get_resource_index(): a name and a type).
 */
static uint32_t res_id(struct ctx *c, const char *name, enum res_kind kind)
{
	struct res *r;

	for (guint i = 0; i < c->res->len; i++) {
		r = g_ptr_array_index(c->res, i);
		if (r->kind == kind && !strcmp(r->name, name))
			return START_BARRIER + 1 + i;
	}
	r = g_new0(struct res, 1);
	r->name = g_strdup(name);
	r->kind = kind;
	g_ptr_array_add(c->res, r);
	return START_BARRIER + c->res->len;
}

static bool held_has(GPtrArray *held, const char *m)
{
	for (guint i = 0; i < held->len; i++)
		if (!strcmp(g_ptr_array_index(held, i), m))
			return true;
	return false;
}

static void held_del(GPtrArray *held, const char *m)
{
	for (guint i = 0; i < held->len; i++)
		if (!strcmp(g_ptr_array_index(held, i), m)) {
			g_ptr_array_remove_index(held, i);
			return;
		}
}

/* The same set of mutexes held (order does not matter). */
static bool held_same(GPtrArray *a, GPtrArray *b)
{
	if (a->len != b->len)
		return false;
	for (guint i = 0; i < a->len; i++)
		if (!held_has(b, g_ptr_array_index(a, i)))
			return false;
	return true;
}

/*
 * pthread_cond_wait(cond, mutex) (rt-app.c run_event(), rtapp_wait): on
 * the condition's wait queue, release the mutex, sleep until a signal or
 * broadcast, lock the mutex again — the language's COND_WAIT, which queues
 * before it releases, so a signal sent under the mutex is never lost.
 *
 * If the thread does not hold the mutex here (no lock event before it),
 * rt-app calls pthread_cond_wait() with a mutex it does not hold, which
 * POSIX leaves undefined. glibc (pthread_cond_wait.c, the default mutex
 * type) releases the mutex without checking its owner and returns with it
 * locked; COND_WAIT releases it if this thread holds it (from its last
 * wait) and locks it on return, so threads that wait with the same mutex
 * unheld run one at a time between their waits, as under glibc. A warning
 * says so.
 */
static bool emit_cond_wait(struct ctx *c, GArray *code, const struct event *e, GPtrArray *held)
{
	if (!held_has(held, e->mutex) && !c->warned_mutex) {
		c->warned_mutex = true;
		warn(c, "%s: the thread does not hold mutex '%s' here (no lock event before): pthread_cond_wait() "
			"with a mutex the caller does not hold is undefined; modelled as glibc runs it: the wait "
			"returns holding the mutex and releases it at the next wait, so threads waiting with the same "
			"mutex unheld run one at a time between their waits", e->path, e->mutex);
	}
	return emit_cond(c, code, e->path, SS_OP_COND_WAIT, res_id(c, e->ref, RES_COND),
			 res_id(c, e->mutex, RES_MUTEX) + 1);
}

/*
 * suspend and resume (rt-app.c run_event(), rtapp_suspend / rtapp_resume):
 * the condition and the mutex named after the thread (rt-app_parse_config.c
 * parse_task_event_data(): a resource of type wait and one of type mutex),
 * so "resume": "T" reaches every instance and fork of T suspended now, and
 * a "wait" or "signal" on ref "T" uses the same condition:
 *   suspend: lock(T); pthread_cond_wait(T, T); unlock(T)
 *   resume:  lock(T); pthread_cond_broadcast(T); unlock(T)
 */
static bool emit_suspend_resume(struct ctx *c, GArray *code, const struct event *e, GPtrArray *held)
{
	uint32_t cond = res_id(c, e->ref, RES_COND), mutex = res_id(c, e->ref, RES_MUTEX);

	if (held_has(held, e->ref))
		return fail(c, e->path, "%s '%s' while the thread holds mutex '%s': rt-app's %s locks the mutex "
					"named after the thread, and a default pthread mutex deadlocks when locked again",
			    ev_name(e->kind), e->ref, e->ref, ev_name(e->kind));
	return emit(c, code, e->path, SS_OP_LOCK, mutex, 0) &&
	       (e->kind == EV_SUSPEND ? emit_cond(c, code, e->path, SS_OP_COND_WAIT, cond, mutex + 1) :
					emit_cond(c, code, e->path, SS_OP_COND_BROADCAST, cond, 0)) &&
	       emit(c, code, e->path, SS_OP_UNLOCK, mutex, 0);
}

static bool lower_event(struct ctx *c, GArray *code, const struct thread *t, const struct event *e, GPtrArray *held,
			bool *time)
{
	bool ok = true;

	switch (e->kind) {
	case EV_RUN:
	case EV_RUNTIME:
	case EV_SLEEP:
		if (!e->us)
			return true;   /* nothing to do, as in rt-app */
		*time = true;
		return emit(c, code, e->path, e->kind == EV_RUN ? SS_OP_RUN : e->kind == EV_RUNTIME ? SS_OP_RUN_WALL :
					      SS_OP_SLEEP, 0, e->us * 1000);
	case EV_TIMER: {
		/* rt-app: the first use counts from t_first (the start + "delay" of
		 * the thread that uses it first), each use adds a period; relative
		 * mode restarts from now after an overrun */
		*time = true;
		if (t->timer_ref && !strcmp(e->ref, t->timer_ref))
			return emit_timer(c, code, e->path, e->us * 1000,
					  SS_TIMER_ANCHORED | (t->timer_relative ? SS_TIMER_RELATIVE : 0), t->delay_us * 1000, 0);
		uint32_t id = res_id(c, e->ref, RES_TIMER);
		const struct res *r = g_ptr_array_index(c->res, id - START_BARRIER - 1);
		return emit_timer(c, code, e->path, e->us * 1000,
				  SS_TIMER_ANCHORED | SS_TIMER_SHARED | (r->absolute ? 0 : SS_TIMER_RELATIVE), t->delay_us * 1000,
				  id);
	}
	case EV_LOCK:
		if (held_has(held, e->ref))
			return fail(c, e->path, "mutex '%s' is locked again by the thread that holds it (a default "
						"pthread mutex deadlocks)", e->ref);
		g_ptr_array_add(held, g_strdup(e->ref));
		*time = true;   /* it may block */
		return emit(c, code, e->path, SS_OP_LOCK, res_id(c, e->ref, RES_MUTEX), 0);
	case EV_UNLOCK:
		if (!held_has(held, e->ref))
			return fail(c, e->path, "mutex '%s' is unlocked by a thread that does not hold it here (expected "
						"a lock event before it)", e->ref);
		held_del(held, e->ref);
		return emit(c, code, e->path, SS_OP_UNLOCK, res_id(c, e->ref, RES_MUTEX), 0);
	case EV_FORK: {
		const struct thread *ft = find_thread(c, e->ref);

		return emit(c, code, e->path, SS_OP_SPAWN, ft->fork_role, 0);
	}
	case EV_SIGNAL:
		/* rtapp_signal: pthread_cond_signal(), the first waiter or nobody */
		return emit_cond(c, code, e->path, SS_OP_COND_SIGNAL, res_id(c, e->ref, RES_COND), 0);
	case EV_BROAD:
		/* rtapp_broadcast: pthread_cond_broadcast(), every waiter of this condition now */
		return emit_cond(c, code, e->path, SS_OP_COND_BROADCAST, res_id(c, e->ref, RES_COND), 0);
	case EV_SYNC:
		/* rtapp_sig_and_wait: pthread_cond_signal(), then pthread_cond_wait() on the same condition */
		*time = true;
		return emit_cond(c, code, e->path, SS_OP_COND_SIGNAL, res_id(c, e->ref, RES_COND), 0) &&
		       emit_cond_wait(c, code, e, held);
	case EV_WAIT:
		*time = true;
		return emit_cond_wait(c, code, e, held);
	case EV_SUSPEND:
		*time = true;
		return emit_suspend_resume(c, code, e, held);
	case EV_RESUME:
		return emit_suspend_resume(c, code, e, held);
	case EV_YIELD:
		/* rtapp_yield: sched_yield() once (the value is not a count) */
		return emit(c, code, e->path, SS_OP_YIELD, 0, 0);
	case EV_SEM_POST:
		/* rtapp_sem_post: sem_post() on the semaphore of that name (sem_init() value 0) */
		return emit(c, code, e->path, SS_OP_SEM_POST, res_id(c, e->ref, RES_SEM), 0);
	case EV_SEM_WAIT:
		/* rtapp_sem_wait: sem_wait(), which blocks at value 0 */
		*time = true;
		return emit(c, code, e->path, SS_OP_SEM_WAIT, res_id(c, e->ref, RES_SEM), 0);
	case EV_BARRIER: {
		/*
		 * rtapp_barrier: its own mutex and condition and a count of the
		 * parties still to come (init_barrier_resource(): -1 + the
		 * instances of every thread that names it); an arrival that finds
		 * the count at 0 broadcasts, any other waits. That is the
		 * language's barrier of N parties: the last arrival wakes all.
		 */
		uint32_t parties = parties_of(c, e->ref, &ok);
		if (!ok || parties < 2)
			break;   /* one party: it never waits, as in rt-app */
		{
			uint32_t id = res_id(c, e->ref, RES_BARRIER);
			struct res *r = g_ptr_array_index(c->res, id - START_BARRIER - 1);

			r->parties = parties;
			*time = true;
			ok = emit(c, code, e->path, SS_OP_BARRIER, id, 0);
		}
		break;
	}
	default:
		ok = fail(c, e->path, "event '%s' is not modelled", ev_name(e->kind));
		break;
	}
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
		return fail(c, path, "this loop never lets simulated time pass (expected a run, runtime, sleep, "
				     "timer, wait, suspend, lock, barrier or sem_wait in it; a yield takes no time)");
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

/* A loop that runs more than once must hold the same mutexes at its end as at its start. */
static bool check_held_loop(struct ctx *c, GPtrArray *before, GPtrArray *after, int64_t loop, const char *path)
{
	if (loop == 0 || loop == 1 || held_same(before, after))
		return true;
	return fail(c, path, "the mutexes held at the end of this loop are not those held at its start: its "
			     "next iteration would lock a mutex twice or unlock one it does not hold");
}

static GPtrArray *held_copy(GPtrArray *h)
{
	GPtrArray *r = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < h->len; i++)
		g_ptr_array_add(r, g_strdup(g_ptr_array_index(h, i)));
	return r;
}

/* CPU sets of SET_CPUS, one per distinct cpulist, at most this many (a set is a class of the engine) */
#define MAX_CPUSETS 4096u

/* SET_CPUS argument for cpulist `list` (NULL: the default affinity, 0), registered in the workload */
static bool cpuset_id(struct ctx *c, const char *list, const char *path, uint32_t *id)
{
	struct ss_workload *w = c->w;

	*id = 0;
	if (!list)
		return true;
	for (unsigned i = 0; i < w->nr_cpusets; i++)
		if (!strcmp(w->cpusets[i], list)) {
			*id = i + 1;
			return true;
		}
	if (w->nr_cpusets >= MAX_CPUSETS)
		return fail(c, path, "more than %u different CPU lists in phases (expected at most %u)", MAX_CPUSETS,
			    MAX_CPUSETS);
	w->cpusets = g_renew(char *, w->cpusets, w->nr_cpusets + 1);
	w->cpuset_at = g_renew(char *, w->cpuset_at, w->nr_cpusets + 1);
	w->cpusets[w->nr_cpusets] = g_strdup(list);
	w->cpuset_at[w->nr_cpusets] = g_strdup_printf("%s: %s", c->file, path);
	*id = ++w->nr_cpusets;
	return true;
}

/*
 * A thread's program: an initial thread first waits at rt-app's
 * threads_barrier (every thread created by main() waits there before its
 * first phase; a forked one does not), then sleeps until its "delay" after
 * the start (clock_nanosleep(TIMER_ABSTIME) to t_first: an absolute timer
 * anchored at the start, which also sets the reference of its "timer"
 * events), then runs its phases.
 */
static bool lower_thread(struct ctx *c, const struct thread *t, bool forked, GArray *code)
{
	GPtrArray *held = g_ptr_array_new_with_free_func(g_free), *at_start = NULL;
	guint body;
	bool thread_time = false, ok = false;

	if (!forked && !emit(c, code, t->path, SS_OP_BARRIER, START_BARRIER, 0))
		goto out;
	if (t->delay_us && !emit_timer(c, code, t->path, t->delay_us * 1000, SS_TIMER_ANCHORED, 0, 0))
		goto out;
	body = code->len;
	at_start = held_copy(held);
	for (guint p = 0; p < t->phases->len; p++) {
		const struct phase *ph = g_ptr_array_index(t->phases, p);
		guint start = code->len;
		bool time = false;
		GPtrArray *before = held_copy(held);
		bool good = true;

		if (t->cpus_dynamic && ph->loop != 0) {
			/*
			 * set_thread_affinity() at the phase's start (rt-app.c
			 * thread_body(), each phase loop; a no-op while the mask is
			 * the same): the phase's cpus, else the thread's, else the
			 * default affinity the thread started with (all CPUs)
			 */
			const char *cl = ph->cpus ? ph->cpus : t->phase_cpus;
			g_autofree char *tp = g_strdup_printf("%s.cpus", t->path);
			uint32_t id;

			good = cpuset_id(c, cl, ph->cpus ? ph->cpus_path : tp, &id) &&
			       emit(c, code, ph->path, SS_OP_SET_CPUS, id, 0);
			start = code->len;
		}
		/* one activation of the phase is one transaction (rt-app's "period" is its latency) */
		good = good && emit(c, code, ph->path, SS_OP_TXN_BEGIN, 0, 0);
		for (guint e = 0; good && e < ph->events->len; e++)
			good = lower_event(c, code, t, g_ptr_array_index(ph->events, e), held, &time);
		good = good && emit(c, code, ph->path, SS_OP_TXN_END, 0, 0) &&
		       check_held_loop(c, before, held, ph->loop, ph->path) &&
		       wrap_loop(c, code, start, ph->loop, time, ph->path);
		g_ptr_array_free(before, TRUE);
		if (!good)
			goto out;
		if (ph->loop != 0)
			thread_time |= time;
	}
	ok = check_held_loop(c, at_start, held, t->loop, t->path) &&
	     wrap_loop(c, code, body, t->loop, thread_time, t->path);
out:
	if (at_start)
		g_ptr_array_free(at_start, TRUE);
	g_ptr_array_free(held, TRUE);
	return ok;
}

/*
 * Per thread, what the workload language fixes per task: the nice value
 * and the affinity. rt-app changes them at a phase's start
 * (set_thread_param, set_thread_affinity); a value that never changes maps
 * onto the role. An affinity that changes makes the thread cpus_dynamic:
 * its role has no cpus (the default affinity it starts with) and each
 * phase begins with a SET_CPUS (lower_thread()); a nice change is an
 * error.
 */
static bool fix_nice_cpus(struct ctx *c, struct thread *t)
{
	const struct phase *first = g_ptr_array_index(t->phases, 0);
	const struct phase *pv = NULL;
	const char *cpus0 = first->cpus ? first->cpus : t->cpus;

	for (guint p = 0; p < t->phases->len; p++) {
		const struct phase *ph = g_ptr_array_index(t->phases, p);
		const char *cl = ph->cpus ? ph->cpus : t->cpus;

		if (g_strcmp0(cl, cpus0))
			t->cpus_dynamic = true;
		if (!ph->has_prio)
			continue;
		if (pv && pv->prio != ph->prio)
			return fail(c, ph->prio_path, "a nice change between phases (priority %d, then %d) is not "
						      "modelled: a task's nice value is fixed in the workload language",
				    pv->prio, ph->prio);
		pv = ph;
	}
	if (pv && pv->prio != t->nice) {
		/* rt-app keeps a phase's priority until another phase sets one: the
		 * thread's own value holds only before the first phase that sets it */
		if (!first->has_prio)
			return fail(c, pv->prio_path, "a nice change at this phase (priority %d, the thread runs "
						      "its first phase at %d) is not modelled: a task's nice value is fixed "
						      "in the workload language", pv->prio, t->nice);
		t->nice = pv->prio;
	}
	if (t->cpus_dynamic) {
		t->phase_cpus = t->cpus;   /* the role starts with the default affinity */
		t->cpus = NULL;
		return true;
	}
	if (cpus0 != t->cpus) {
		g_free(t->cpus);
		t->cpus = g_strdup(cpus0);
	}
	return true;
}


/*
 * rt-app's timers are resources named by "ref" (rt-app_parse_config.c: a
 * ref starting with "unique" is a local resource of the thread, any other
 * one resource of the process, its "mode" relative unless some use says
 * absolute). Each task has one timer of its own: its thread's "unique"
 * timer, or the one timer it uses when no other thread, instance or fork
 * uses it. Every other timer (a ref that several tasks name, or a thread's
 * second timer) is a shared timer, a sync object of the task set
 * (SS_TIMER_SHARED): each use by any of its users advances its one expiry
 * and sleeps to it, as rt-app.c run_event() does with rdata->res.timer.
 * Two "unique" timers in one thread would be two timers of the task's own:
 * refused.
 */
static bool check_timers(struct ctx *c)
{
	GHashTable *users = g_hash_table_new(g_str_hash, g_str_equal);   /* ref -> tasks naming it */
	bool ok = true;

	for (guint i = 0; i < c->threads->len; i++) {
		struct thread *t = g_ptr_array_index(c->threads, i);
		GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);

		for (guint p = 0; p < t->phases->len; p++) {
			const struct phase *ph = g_ptr_array_index(t->phases, p);

			for (guint e = 0; e < ph->events->len; e++) {
				const struct event *ev = g_ptr_array_index(ph->events, e);

				if (ev->kind != EV_TIMER || g_hash_table_contains(seen, ev->ref))
					continue;
				g_hash_table_add(seen, (gpointer)ev->ref);
				guint n = GPOINTER_TO_UINT(g_hash_table_lookup(users, ev->ref));
				g_hash_table_insert(users, (gpointer)ev->ref, GUINT_TO_POINTER(n + t->instances + (t->forked ? 2 : 0)));
			}
		}
		g_hash_table_destroy(seen);
	}
	for (guint i = 0; ok && i < c->threads->len; i++) {
		struct thread *t = g_ptr_array_index(c->threads, i);
		const struct event *first = NULL, *unique = NULL;
		unsigned nr_refs = 0;

		for (guint p = 0; ok && p < t->phases->len; p++) {
			const struct phase *ph = g_ptr_array_index(t->phases, p);

			for (guint e = 0; ok && e < ph->events->len; e++) {
				const struct event *ev = g_ptr_array_index(ph->events, e);

				if (ev->kind != EV_TIMER)
					continue;
				if (!first)
					first = ev;
				if (!strncmp(ev->ref, "unique", 6)) {
					if (unique && strcmp(unique->ref, ev->ref))
						ok = fail(c, ev->path, "a second unique timer ('%s'; the first, '%s', at %s) in one "
									"thread is not modelled: a task has one timer of its own (a "
									"timer without the \"unique\" prefix may be used by any number)",
							  ev->ref, unique->ref, unique->path);
					else if (!unique)
						unique = ev;
				}
				if (strcmp(ev->ref, first->ref))
					nr_refs = 2;
				else if (!nr_refs)
					nr_refs = 1;
			}
		}
		if (!ok)
			break;
		/* the task's own timer */
		const struct event *own = unique;
		if (!own && first && nr_refs == 1 && GPOINTER_TO_UINT(g_hash_table_lookup(users, first->ref)) == 1)
			own = first;
		if (own) {
			t->timer_ref = own->ref;
			t->timer_path = own->path;
			t->timer_relative = true;
		}
		/* the mode: any use with "absolute" makes the timer absolute (own: this thread's uses; shared: all) */
		for (guint p = 0; p < t->phases->len; p++) {
			const struct phase *ph = g_ptr_array_index(t->phases, p);

			for (guint e = 0; e < ph->events->len; e++) {
				const struct event *ev = g_ptr_array_index(ph->events, e);

				if (ev->kind != EV_TIMER)
					continue;
				if (own && !strcmp(ev->ref, own->ref)) {
					if (ev->absolute)
						t->timer_relative = false;
					continue;
				}
				uint32_t id = res_id(c, ev->ref, RES_TIMER);   /* first: it may grow c->res */
				struct res *r = g_ptr_array_index(c->res, id - START_BARRIER - 1);
				if (ev->absolute)
					r->absolute = true;
			}
		}
	}
	g_hash_table_destroy(users);
	return ok;
}

/* Whether an event waits on (wait, sync, suspend) or wakes (signal, broad, sync, resume) condition `ref`. */
static bool cond_use(const struct event *ev, const char *ref, bool waits)
{
	bool w = ev->kind == EV_WAIT || ev->kind == EV_SYNC || ev->kind == EV_SUSPEND;
	bool p = ev->kind == EV_SIGNAL || ev->kind == EV_BROAD || ev->kind == EV_SYNC || ev->kind == EV_RESUME;

	return (waits ? w : p) && !strcmp(ev->ref, ref);
}

static bool any_cond_use(struct ctx *c, const char *ref, bool waits)
{
	for (guint i = 0; i < c->threads->len; i++) {
		const struct thread *t = g_ptr_array_index(c->threads, i);

		for (guint p = 0; p < t->phases->len; p++) {
			const struct phase *ph = g_ptr_array_index(t->phases, p);

			for (guint e = 0; e < ph->events->len; e++)
				if (cond_use(g_ptr_array_index(ph->events, e), ref, waits))
					return true;
		}
	}
	return false;
}

/*
 * A condition that threads wait on and nothing wakes keeps them blocked
 * for ever; a condition that is woken and that nothing waits on loses every
 * wakeup. A semaphore that no sem_post posts keeps its waiters blocked for
 * ever (value 0 from sem_init()). All are what rt-app does; a warning lists
 * them (often a typo in a name), the first use of each.
 */
static void check_conds(struct ctx *c)
{
	GString *unwoken = g_string_new(NULL), *unwaited = g_string_new(NULL), *unposted = g_string_new(NULL);
	GPtrArray *seen = g_ptr_array_new(), *sem_waits = g_ptr_array_new();
	GHashTable *posted = g_hash_table_new(g_str_hash, g_str_equal), *told = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < c->threads->len; i++) {
		const struct thread *t = g_ptr_array_index(c->threads, i);

		for (guint p = 0; p < t->phases->len; p++) {
			const struct phase *ph = g_ptr_array_index(t->phases, p);

			for (guint e = 0; e < ph->events->len; e++) {
				const struct event *ev = g_ptr_array_index(ph->events, e);
				bool known = false;

				if (ev->kind == EV_SEM_POST)
					g_hash_table_add(posted, ev->ref);
				if (ev->kind == EV_SEM_WAIT)
					g_ptr_array_add(sem_waits, (gpointer)ev);
				if (!cond_use(ev, ev->ref, true) && !cond_use(ev, ev->ref, false))
					continue;
				for (guint k = 0; k < seen->len; k++)
					known |= !strcmp(g_ptr_array_index(seen, k), ev->ref);
				if (known)
					continue;
				g_ptr_array_add(seen, ev->ref);
				if (!any_cond_use(c, ev->ref, false))
					g_string_append_printf(unwoken, "%s'%s' (%s)", unwoken->len ? ", " : "", ev->ref, ev->path);
				else if (!any_cond_use(c, ev->ref, true))
					g_string_append_printf(unwaited, "%s'%s' (%s)", unwaited->len ? ", " : "", ev->ref, ev->path);
			}
		}
	}
	for (guint k = 0; k < sem_waits->len; k++) {
		const struct event *ev = g_ptr_array_index(sem_waits, k);

		if (!g_hash_table_contains(posted, ev->ref) && g_hash_table_add(told, ev->ref))
			g_string_append_printf(unposted, "%s'%s' (%s)", unposted->len ? ", " : "", ev->ref, ev->path);
	}
	if (unposted->len)
		warn(c, "semaphores that no sem_post posts: %s; a thread that waits on one blocks there for ever, "
			"as in rt-app", unposted->str);
	if (unwoken->len)
		warn(c, "conditions that no signal, broad, sync or resume wakes: %s; a thread that waits or suspends on "
			"one blocks there for ever, as in rt-app", unwoken->str);
	if (unwaited->len)
		warn(c, "conditions that no wait, sync or suspend waits on: %s; every signal, broad or resume of one is "
			"lost, as in rt-app", unwaited->str);
	g_ptr_array_free(seen, TRUE);
	g_ptr_array_free(sem_waits, TRUE);
	g_hash_table_destroy(posted);
	g_hash_table_destroy(told);
	g_string_free(unwoken, TRUE);
	g_string_free(unwaited, TRUE);
	g_string_free(unposted, TRUE);
}

/* Product of the loop counts around the thread's fork events of `target` (FORKS_LIMIT if unbounded). */
static unsigned forks_by(const struct thread *t, const char *target)
{
	uint64_t n = 0;

	for (guint p = 0; p < t->phases->len; p++) {
		const struct phase *ph = g_ptr_array_index(t->phases, p);

		for (guint e = 0; e < ph->events->len; e++) {
			const struct event *ev = g_ptr_array_index(ph->events, e);
			uint64_t k = 1;

			if (ev->kind != EV_FORK || strcmp(ev->ref, target))
				continue;
			if (ph->loop < 0 || t->loop < 0)
				return FORKS_LIMIT;
			k = (uint64_t)ph->loop * (uint64_t)t->loop;
			n += k;
			if (n >= FORKS_LIMIT)
				return FORKS_LIMIT;
		}
	}
	return (unsigned)n;
}

/* Fork targets: each gets a role of slots for its forks. */
static bool find_forks(struct ctx *c)
{
	for (guint i = 0; i < c->threads->len; i++) {
		const struct thread *t = g_ptr_array_index(c->threads, i);

		for (guint p = 0; p < t->phases->len; p++) {
			const struct phase *ph = g_ptr_array_index(t->phases, p);

			for (guint e = 0; e < ph->events->len; e++) {
				const struct event *ev = g_ptr_array_index(ph->events, e);
				struct thread *ft;

				if (ev->kind != EV_FORK)
					continue;
				ft = find_thread(c, ev->ref);
				if (!ft)
					return fail(c, ev->path, "fork of unknown thread '%s' (rt-app: \"Can't fork unknown "
								 "task\")", ev->ref);
				ft->forked = true;
			}
		}
	}
	for (guint i = 0; i < c->threads->len; i++) {
		struct thread *ft = g_ptr_array_index(c->threads, i);
		uint64_t slots = 0;

		if (!ft->forked)
			continue;
		for (guint j = 0; j < c->threads->len; j++) {
			const struct thread *t = g_ptr_array_index(c->threads, j);
			unsigned k = forks_by(t, ft->name);

			/* a forked thread that forks again: its forks are unbounded here */
			slots += k && t->forked ? FORKS_LIMIT : (uint64_t)k * t->instances;
		}
		ft->fork_slots = slots > FORKS_LIMIT ? FORKS_LIMIT : (unsigned)slots;
		if (!ft->fork_slots)
			ft->fork_slots = 1;   /* forked only by forks that never run (loop 0) */
		if (!c->warned_fork) {
			c->warned_fork = true;
			warn(c, "%s: forked threads: each fork event creates one thread of the description through the "
				"fork path; at most %u of one description live at a time (rt-app stops after %u forks of "
				"it in all)", ft->path, ft->fork_slots, FORKS_LIMIT);
		}
	}
	return true;
}

static struct ss_wl_role *new_role(struct ss_workload *w, unsigned r, char *name, const struct thread *t)
{
	struct ss_wl_role *role = &w->role[r];

	role->name = name;
	role->nice = t ? t->nice : 0;
	role->start = SS_START_ANY;
	role->count = 1;
	role->mem_node = -1;
	role->spawned = t != NULL;     /* every thread is created by rt-app's main thread (fork path) */
	role->cpus = t && t->cpus ? g_strdup(t->cpus) : NULL;
	return role;
}

static bool set_code(struct ss_wl_role *role, GArray *code)
{
	role->nr_insn = code->len;
	role->insn = (struct ss_wl_insn *)(void *)g_array_free(code, FALSE);
	return true;
}

static bool lower(struct ctx *c, const char *name)
{
	struct ss_workload *w = c->w;
	unsigned nr_roles = 1, nr_initial = 0, first = 0;
	GArray *main_code;

	for (guint i = 0; i < c->threads->len; i++) {
		struct thread *t = g_ptr_array_index(c->threads, i);

		if (!strcmp(t->name, "rt-app"))
			return fail(c, t->path, "a thread named 'rt-app' would share its name with rt-app's main thread, "
						"which simsched models as the role 'rt-app'");
		if (!fix_nice_cpus(c, t))
			return false;
	}
	if (!find_forks(c) || !check_timers(c))
		return false;
	check_conds(c);
	/* role 0: rt-app's main thread; then per thread its instances, then its fork role */
	for (guint i = 0; i < c->threads->len; i++) {
		struct thread *t = g_ptr_array_index(c->threads, i);

		t->first_role = nr_roles;
		nr_roles += t->instances;
		nr_initial += t->instances;
		if (t->forked)
			t->fork_role = nr_roles++;
		if (nr_roles > MAX_THREADS)
			return fail(c, t->path, "more than %u threads in all", MAX_THREADS);
	}
	if (!nr_initial)
		return fail(c, "tasks", "no thread is created at the start (every \"instance\" is 0)");

	w->nr_roles = nr_roles;
	w->role = g_new0(struct ss_wl_role, nr_roles);
	new_role(w, 0, g_strdup("rt-app"), NULL);
	for (guint i = 0; i < c->threads->len; i++) {
		const struct thread *t = g_ptr_array_index(c->threads, i);

		for (unsigned k = 0; k <= t->instances; k++) {
			bool forked = k == t->instances;
			uint32_t r = forked ? t->fork_role : t->first_role + k;
			struct ss_wl_role *role;
			GArray *code;

			if (forked && !t->forked)
				break;
			role = new_role(w, r, forked ? g_strdup_printf("%s-fork", t->name) :
					t->instances == 1 ? g_strdup(t->name) : g_strdup_printf("%s[%u]", t->name, k), t);
			role->count = forked ? t->fork_slots : 1;
			code = g_array_new(FALSE, FALSE, sizeof(struct ss_wl_insn));
			if (!lower_thread(c, t, forked, code)) {
				g_array_free(code, TRUE);
				return false;
			}
			set_code(role, code);
		}
	}
	for (unsigned r = 0; r < nr_roles; r++) {
		w->role[r].first = first;
		first += w->role[r].count;
	}
	w->tasks_per_instance = first;

	/*
	 * rt-app's main(): create_thread() of every initial thread in file
	 * order (pthread_create: the fork path from its CPU), then it sleeps in
	 * pthread_join() for the rest of the run.
	 */
	main_code = g_array_new(FALSE, FALSE, sizeof(struct ss_wl_insn));
	for (guint i = 0; i < c->threads->len; i++) {
		const struct thread *t = g_ptr_array_index(c->threads, i);

		for (unsigned k = 0; k < t->instances; k++)
			if (!emit(c, main_code, t->path, SS_OP_SPAWN, t->first_role + k, 0)) {
				g_array_free(main_code, TRUE);
				return false;
			}
	}
	if (!emit(c, main_code, "tasks", SS_OP_WAIT, 1, 0)) {
		g_array_free(main_code, TRUE);
		return false;
	}
	set_code(&w->role[0], main_code);

	/*
	 * sync objects, one set per copy of the task set: the start barrier,
	 * then rt-app's resources (mutexes, conditions, barriers)
	 */
	w->nr_sync = w->nr_local_sync = 1 + c->res->len;
	w->sync = g_new0(struct ss_wl_sync, w->nr_sync);
	w->sync[START_BARRIER].name = g_strdup("rt-app threads_barrier");
	w->sync[START_BARRIER].barrier = true;
	w->sync[START_BARRIER].parties = nr_initial;
	for (guint i = 0; i < c->res->len; i++) {
		const struct res *r = g_ptr_array_index(c->res, i);
		struct ss_wl_sync *so = &w->sync[START_BARRIER + 1 + i];

		so->name = g_strdup(r->name);
		so->barrier = r->kind == RES_BARRIER;
		so->parties = r->parties;
	}

	w->name = g_strdup(name);
	w->description = g_strdup_printf("rt-app task set of %u thread%s", nr_initial, nr_initial == 1 ? "" : "s");
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
	for (size_t i = 0; i + 5 < len; i++) {
		/* "\u0000": a NUL inside a string, which C strings (rt-app's json-c, cJSON) cut the name at */
		if (text[i] == '\\' && text[i + 1] == 'u' && text[i + 2] == '0' && text[i + 3] == '0' && text[i + 4] == '0' &&
		    text[i + 5] == '0') {
			size_t bs = 0, line, col;
			for (size_t j = i; j > 0 && text[j - 1] == '\\'; j--)
				bs++;
			if (bs % 2)
				continue;   /* an escaped backslash then "u0000": text */
			line_col(text, i, &line, &col);
			g_set_error(err, SS_ERROR, SS_ERROR_PARSE, "%s:%zu:%zu: a \\u0000 escape, a NUL character in a string "
				    "(expected text without NUL: names and values end at it in C)", c.file, line, col);
			return NULL;
		}
	}
	buf = loosen(text, len, &nr_comments, &nr_commas);
	root = cJSON_ParseWithLengthOpts(buf, len, &end, false);
	if (!root) {
		size_t off = end && end >= buf && end <= buf + len ? (size_t)(end - buf) : 0, line, col;

		unsigned depth = 0;
		bool in_str = false;

		/* cJSON stops at CJSON_NESTING_LIMIT levels as at a syntax error: tell them apart */
		for (size_t i = 0; i < off; i++) {
			char ch = buf[i];
			if (in_str) {
				if (ch == '\\')
					i++;
				else if (ch == '"')
					in_str = false;
			} else if (ch == '"') {
				in_str = true;
			} else if (ch == '[' || ch == '{') {
				depth++;
			} else if ((ch == ']' || ch == '}') && depth) {
				depth--;
			}
		}
		line_col(buf, off, &line, &col);
		if (depth >= CJSON_NESTING_LIMIT)
			g_set_error(err, SS_ERROR, SS_ERROR_PARSE, "%s:%zu:%zu: nesting deeper than %d arrays and objects "
				    "(expected at most %d, the JSON parser's limit)", c.file, line, col, CJSON_NESTING_LIMIT,
				    CJSON_NESTING_LIMIT);
		else
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
	{
		/* threads: refused before anything is read of them (at most MAX_THREADS keys) */
		const cJSON *tasks = cJSON_GetObjectItemCaseSensitive(root, "tasks");
		if (cJSON_IsObject(tasks) && (unsigned)cJSON_GetArraySize(tasks) > MAX_THREADS) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: tasks: %d threads (expected at most %u)", c.file,
				    cJSON_GetArraySize(tasks), MAX_THREADS);
			cJSON_Delete(root);
			return NULL;
		}
	}

	c.threads = g_ptr_array_new_with_free_func(thread_free);
	c.res = g_ptr_array_new_with_free_func(res_free);
	c.warnings = g_ptr_array_new_with_free_func(g_free);
	c.dups = g_string_new(NULL);
	c.ignored = g_string_new(NULL);
	c.unknown_global = g_string_new(NULL);
	if (nr_commas)
		warn(&c, "accepted %u trailing comma%s before a closing bracket (json-c, which rt-app uses, "
			 "accepts them)", nr_commas, nr_commas == 1 ? "" : "s");
	if (nr_comments)
		warn(&c, "accepted %u comment%s (json-c, which rt-app uses, accepts them)", nr_comments,
		     nr_comments == 1 ? "" : "s");
	number_duplicates(&c, root, "");
	if (c.nr_dups)
		warn(&c, "accepted %u duplicate key%s, numbered as rt-app's workgen numbers them and kept in file "
			 "order (each duplicate event runs): %s%s", c.nr_dups, c.nr_dups == 1 ? "" : "s", c.dups->str,
		     c.nr_dups > 20 ? ", ..." : "");

	c.w = g_new0(struct ss_workload, 1);
	base = g_path_get_basename(c.file);
	if ((dot = strrchr(base, '.')) && dot != base)
		*dot = '\0';
	ok = parse_root(&c, root) && lower(&c, base);
	cJSON_Delete(root);
	if (ok && c.ignored->len)
		warn(&c, "global: ignored, no scheduling meaning in a simulator: %s", c.ignored->str);
	if (ok && c.unknown_global->len)
		warn(&c, "global: ignored, settings rt-app does not read either (its parse_global() takes the ones it "
			 "knows by name): %s", c.unknown_global->str);
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
	g_ptr_array_free(c.res, TRUE);
	g_string_free(c.dups, TRUE);
	g_string_free(c.ignored, TRUE);
	g_string_free(c.unknown_global, TRUE);
	return c.w;
}

const char *const *ss_workload_warnings(const struct ss_workload *w)
{
	static const char *const none[] = { NULL };

	return w && w->warnings ? (const char *const *)w->warnings : none;
}
