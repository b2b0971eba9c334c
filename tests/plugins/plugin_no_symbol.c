/* Test plugin: a loadable shared object that does not export ss_policy_plugin_v1. */
#include <simsched/policy.h>

SS_POLICY_EXPORT int not_a_policy_plugin(void);

SS_POLICY_EXPORT int not_a_policy_plugin(void)
{
	return 1;
}
