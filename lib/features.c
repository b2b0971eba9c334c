/* Sched features by name (kernel v6.6 kernel/sched/features.h defaults). */
#include "simsched/features.h"
#include "simsched/error.h"

#include <string.h>

static const char *const feature_names[SS_NR_FEATURES] = {
#define SS_FEAT_NAME(name, def) #name,
	SS_SCHED_FEATURES(SS_FEAT_NAME)
#undef SS_FEAT_NAME
};

ss_features_t ss_features_default(void)
{
	ss_features_t set = 0;
#define SS_FEAT_DEF(name, def) if (def) set |= 1u << SS_FEAT_##name;
	SS_SCHED_FEATURES(SS_FEAT_DEF)
#undef SS_FEAT_DEF
	return set;
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

bool ss_features_parse(const char *list, ss_features_t *set, GError **err)
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
		if (f < 0) {
			GString *valid = g_string_new(NULL);
			for (int i = 0; i < SS_NR_FEATURES; i++)
				g_string_append_printf(valid, "%s%s", i ? ", " : "", feature_names[i]);
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
				    "unknown sched feature '%s' (valid, each optionally prefixed NO_: %s)", *it,
				    valid->str);
			g_string_free(valid, TRUE);
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

char *ss_features_format(ss_features_t set)
{
	GString *s = g_string_new(NULL);
	for (int i = 0; i < SS_NR_FEATURES; i++)
		g_string_append_printf(s, "%s%s%s", i ? " " : "", ss_feat(set, (enum ss_sched_feature)i) ? "" : "NO_",
				       feature_names[i]);
	return g_string_free(s, FALSE);
}
