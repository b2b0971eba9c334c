/*
 * Sched features by name, per kernel version: kernel/sched/features.h of
 * v6.6 and of v5.17 (read at v5.17-rc5, dunli/linux-5.17 6d28e3552c15,
 * whose kernel/sched is the upstream tag's).
 */
#include "simsched/features.h"
#include "simsched/error.h"

#include <string.h>

static const char *const feature_names[SS_NR_FEATURES] = {
#define SS_FEAT_NAME(name, d66, d517) #name,
	SS_SCHED_FEATURES(SS_FEAT_NAME)
#undef SS_FEAT_NAME
};

/* [kernel][feature]: 1 on, 0 off, -1 not in that kernel */
static const signed char feature_def[SS_NR_KERNELS][SS_NR_FEATURES] = {
	[SS_KERNEL_6_6] = {
#define SS_FEAT_D66(name, d66, d517) d66,
		SS_SCHED_FEATURES(SS_FEAT_D66)
#undef SS_FEAT_D66
	},
	[SS_KERNEL_5_17] = {
#define SS_FEAT_D517(name, d66, d517) d517,
		SS_SCHED_FEATURES(SS_FEAT_D517)
#undef SS_FEAT_D517
	},
};

const char *ss_kernel_name(enum ss_kernel k)
{
	switch (k) {
	case SS_KERNEL_6_6:
		return "6.6";
	case SS_KERNEL_5_17:
		return "5.17";
	default:
		return "?";
	}
}

bool ss_kernel_parse(const char *s, enum ss_kernel *k, GError **err)
{
	const char *v = s && (s[0] == 'v' || s[0] == 'V') ? s + 1 : s;
	for (int i = 0; v && i < SS_NR_KERNELS; i++)
		if (!strcmp(v, ss_kernel_name((enum ss_kernel)i))) {
			*k = (enum ss_kernel)i;
			return true;
		}
	g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "kernel '%s' is not modelled (expected 6.6 or 5.17)", s ? s : "");
	return false;
}

bool ss_feature_in_kernel(enum ss_sched_feature f, enum ss_kernel k)
{
	return (unsigned)f < SS_NR_FEATURES && (unsigned)k < SS_NR_KERNELS && feature_def[k][f] >= 0;
}

ss_features_t ss_features_default_kernel(enum ss_kernel k)
{
	ss_features_t set = 0;
	for (int i = 0; i < SS_NR_FEATURES; i++)
		if (feature_def[k][i] > 0)
			set |= 1u << i;
	return set;
}

ss_features_t ss_features_default(void)
{
	return ss_features_default_kernel(SS_KERNEL_6_6);
}

const char *ss_feature_name(enum ss_sched_feature f)
{
	return (unsigned)f < SS_NR_FEATURES ? feature_names[f] : "?";
}

static int feature_lookup(const char *name)
{
	for (int i = 0; i < SS_NR_FEATURES; i++)
		if (strcmp(name, feature_names[i]) == 0)
			return i;
	return -1;
}

static char *valid_names(enum ss_kernel k)
{
	GString *valid = g_string_new(NULL);
	for (int i = 0; i < SS_NR_FEATURES; i++)
		if (feature_def[k][i] >= 0)
			g_string_append_printf(valid, "%s%s", valid->len ? ", " : "", feature_names[i]);
	return g_string_free(valid, FALSE);
}

bool ss_features_parse_kernel(const char *list, ss_features_t *set, enum ss_kernel k, bool lenient_off,
			      GError **err)
{
	ss_features_t s = *set;
	unsigned named = 0;
	gchar **items = g_strsplit_set(list, ", ", -1);
	for (gchar **it = items; *it; it++) {
		const char *name = *it;
		bool on = true;
		if (!*name)
			continue;
		if (g_str_has_prefix(name, "NO_")) {
			on = false;
			name += 3;
		}
		int f = feature_lookup(name);
		if (f >= 0 && feature_def[k][f] < 0 && !on && lenient_off) {
			named++;
			continue;
		}
		if (f < 0 || feature_def[k][f] < 0) {
			char *valid = valid_names(k);
			if (f < 0)
				g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
					    "unknown sched feature '%s' (valid, each optionally prefixed NO_: %s)", *it, valid);
			else
				g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
					    "sched feature '%s' does not exist in kernel v%s (its features, each optionally prefixed NO_: %s)",
					    *it, ss_kernel_name(k), valid);
			g_free(valid);
			g_strfreev(items);
			return false;
		}
		named++;
		if (on)
			s |= 1u << f;
		else
			s &= ~(1u << f);
	}
	g_strfreev(items);
	if (!named) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "sched features '%s': no feature named (expected e.g. SIS_UTIL,NO_SIS_PROP)", list);
		return false;
	}
	*set = s;
	return true;
}

bool ss_features_parse(const char *list, ss_features_t *set, GError **err)
{
	return ss_features_parse_kernel(list, set, SS_KERNEL_6_6, false, err);
}

char *ss_features_format_kernel(ss_features_t set, enum ss_kernel k)
{
	GString *s = g_string_new(NULL);
	for (int i = 0; i < SS_NR_FEATURES; i++)
		if (feature_def[k][i] >= 0)
			g_string_append_printf(s, "%s%s%s", s->len ? " " : "",
					       ss_feat(set, (enum ss_sched_feature)i) ? "" : "NO_", feature_names[i]);
	return g_string_free(s, FALSE);
}

char *ss_features_format(ss_features_t set)
{
	return ss_features_format_kernel(set, SS_KERNEL_6_6);
}
