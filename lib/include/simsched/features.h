/*
 * simsched/features.h — sched features, named as in
 * /sys/kernel/debug/sched/features, with kernel v6.6 defaults
 * (kernel/sched/features.h at v6.6). Only features the model implements are
 * listed; a name not listed here is an error, never silently ignored.
 * Two are not v6.6 features but switches for the patches of the seed
 * threads (docs/policies.md): SIS_UTIL_LINEAR (the linear scan limit of the
 * SIS_UTIL RFC v2) and SIS_CLEAR_TARGET ("Clear target from cpus to scan in
 * select_idle_cpu").
 */
#ifndef SIMSCHED_FEATURES_H
#define SIMSCHED_FEATURES_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

/* X(name, default on) */
#define SS_SCHED_FEATURES(X)        \
	X(PLACE_LAG, true)          \
	X(PLACE_DEADLINE_INITIAL, true) \
	X(RUN_TO_PARITY, true)      \
	X(NEXT_BUDDY, false)        \
	X(CACHE_HOT_BUDDY, true)    \
	X(WAKEUP_PREEMPTION, true)  \
	X(TTWU_QUEUE, true)         \
	X(SIS_PROP, false)          \
	X(SIS_UTIL, true)           \
	X(WA_IDLE, true)            \
	X(WA_WEIGHT, true)          \
	X(WA_BIAS, true)            \
	X(UTIL_EST, true)           \
	X(UTIL_EST_FASTUP, true)    \
	X(SIS_UTIL_LINEAR, false)   \
	X(SIS_CLEAR_TARGET, false)

enum ss_sched_feature {
#define SS_FEAT_ENUM(name, def) SS_FEAT_##name,
	SS_SCHED_FEATURES(SS_FEAT_ENUM)
#undef SS_FEAT_ENUM
	SS_NR_FEATURES
};

typedef uint32_t ss_features_t;   /* bit i = feature i enabled */

/** The v6.6 default feature set. */
ss_features_t ss_features_default(void);

/** Name of feature f ("SIS_UTIL"). */
const char *ss_feature_name(enum ss_sched_feature f);

/**
 * Apply a /sys/kernel/debug/sched/features-style list ("SIS_PROP,NO_SIS_UTIL")
 * to *set. Returns false and sets *err (SS_ERROR_USAGE, listing the valid
 * names) on an unknown name; *set is unchanged then.
 */
bool ss_features_parse(const char *list, ss_features_t *set, GError **err);

/** The features as the kernel's features file prints them ("PLACE_LAG NO_NEXT_BUDDY ..."); g_free. */
char *ss_features_format(ss_features_t set);

static inline bool ss_feat(ss_features_t set, enum ss_sched_feature f)
{
	return (set >> f) & 1u;
}

#endif
