/*
 * lib/ss_yaml.h — small libyaml node helpers shared by the YAML loaders
 * (workload_yaml.c, sweep.c). Internal, not installed.
 */
#ifndef SIMSCHED_SS_YAML_H
#define SIMSCHED_SS_YAML_H

#include <yaml.h>

/** Characters of a bad scalar quoted in an error message. */
#define SS_YAML_SHOW_LEN 48

/** A scalar node's text (NUL-terminated by libyaml); n must be a scalar. */
static inline const char *ss_yaml_sval(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/** Length of a scalar to print in a message ("%.*s"), at most SS_YAML_SHOW_LEN. */
static inline int ss_yaml_slen(const yaml_node_t *n)
{
	return n->data.scalar.length > SS_YAML_SHOW_LEN ? SS_YAML_SHOW_LEN : (int)n->data.scalar.length;
}

/** "a scalar", "a list", "a mapping" or "nothing": for "X is a list (expected ...)" messages. */
static inline const char *ss_yaml_kind_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "nothing";
	}
}

#endif
