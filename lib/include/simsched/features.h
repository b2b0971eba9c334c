/*
 * simsched/features.h — sched features, named as in
 * /sys/kernel/debug/sched/features, with the defaults of kernel v6.6
 * (kernel/sched/features.h at v6.6) and of v5.17 (features.h at v5.17-rc5,
 * dunli/linux-5.17 6d28e3552c15). Only features the model implements are
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

/*
 * X(name, v6.6 default, v5.17 default): 1 on, 0 off, -1 the feature does not
 * exist in that kernel's features.h (kernel/sched/features.h at v6.6 and at
 * v5.17). Features a version lacks are refused by --sched-features under that
 * version and left out of its features line. Order = bit number: new
 * features go at the end.
 */
#define SS_SCHED_FEATURES(X)        \
	X(PLACE_LAG, 1, -1)         \
	X(PLACE_DEADLINE_INITIAL, 1, -1) \
	X(RUN_TO_PARITY, 1, -1)     \
	X(NEXT_BUDDY, 0, 0)         \
	X(CACHE_HOT_BUDDY, 1, 1)    \
	X(WAKEUP_PREEMPTION, 1, 1)  \
	X(TTWU_QUEUE, 1, 1)         \
	X(SIS_PROP, 0, 1)           \
	X(SIS_UTIL, 1, -1)          \
	X(WA_IDLE, 1, 1)            \
	X(WA_WEIGHT, 1, 1)          \
	X(WA_BIAS, 1, 1)            \
	X(UTIL_EST, 1, 1)           \
	X(UTIL_EST_FASTUP, 1, 1)    \
	X(SIS_UTIL_LINEAR, 0, 0)    \
	X(SIS_CLEAR_TARGET, 0, 0)   \
	X(GENTLE_FAIR_SLEEPERS, -1, 1) \
	X(START_DEBIT, -1, 1)       \
	X(LAST_BUDDY, -1, 1)        \
	X(ALT_PERIOD, -1, 1)        \
	X(BASE_SLICE, -1, 1)

enum ss_sched_feature {
#define SS_FEAT_ENUM(name, d66, d517) SS_FEAT_##name,
	SS_SCHED_FEATURES(SS_FEAT_ENUM)
#undef SS_FEAT_ENUM
	SS_NR_FEATURES
};

typedef uint32_t ss_features_t;   /* bit i = feature i enabled */

/**
 * The kernel a run models (--kernel): v6.6 (EEVDF; the default, 0) or v5.17
 * (CFS). docs/model.md "By kernel version" lists what differs.
 */
enum ss_kernel { SS_KERNEL_6_6 = 0, SS_KERNEL_5_17 = 1, SS_NR_KERNELS };

/** "6.6" / "5.17" ("?" out of range). */
const char *ss_kernel_name(enum ss_kernel k);
/**
 * Parse a kernel version as --kernel takes it: "6.6" or "5.17" (a leading
 * "v" allowed). false + *err (SS_ERROR_USAGE, listing the versions) else.
 */
bool ss_kernel_parse(const char *s, enum ss_kernel *k, GError **err);

/** The v6.6 default feature set. */
ss_features_t ss_features_default(void);
/** The default feature set of kernel k (its features.h). */
ss_features_t ss_features_default_kernel(enum ss_kernel k);
/** Whether feature f exists in kernel k's features.h. */
bool ss_feature_in_kernel(enum ss_sched_feature f, enum ss_kernel k);

/** Name of feature f ("SIS_UTIL"). */
const char *ss_feature_name(enum ss_sched_feature f);

/**
 * Apply a /sys/kernel/debug/sched/features-style list ("SIS_PROP,NO_SIS_UTIL")
 * to *set, with v6.6's features table. Returns false and sets *err
 * (SS_ERROR_USAGE, listing the valid names) on an unknown name; *set is
 * unchanged then.
 */
bool ss_features_parse(const char *list, ss_features_t *set, GError **err);
/**
 * As ss_features_parse() with kernel k's features table: a feature k lacks is
 * refused (its message names the version and lists k's features). With
 * lenient_off (a policy's preset), NO_X of a feature k lacks is accepted and
 * does nothing: there is nothing to turn off.
 */
bool ss_features_parse_kernel(const char *list, ss_features_t *set, enum ss_kernel k, bool lenient_off,
			      GError **err);

/** The features as the kernel's features file prints them ("PLACE_LAG NO_NEXT_BUDDY ..."), v6.6's; g_free. */
char *ss_features_format(ss_features_t set);
/** The same with kernel k's features (those k lacks left out); g_free. */
char *ss_features_format_kernel(ss_features_t set, enum ss_kernel k);

static inline bool ss_feat(ss_features_t set, enum ss_sched_feature f)
{
	return (set >> f) & 1u;
}

#endif
