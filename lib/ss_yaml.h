/*
 * lib/ss_yaml.h — small libyaml helpers shared by the YAML loaders
 * (topology_yaml.c, workload_yaml.c, sweep.c). Internal, not installed.
 *
 * Every loader's message has one form:
 *   file:line:col: what is wrong (expected what is valid)
 * with 1-based line and column; a key that is the subject of the sentence is
 * written bare ("frequency is a list (expected ...)"), a key or value named
 * inside it in single quotes ("numa has no 'distance'", "unknown key 'x'
 * in the machine (expected one of: ...)", "duplicate key 'x' in ...
 * (expected each key once)"), and a YAML syntax error is
 * "YAML syntax error: PROBLEM[ while CONTEXT at L:C] (expected valid YAML)".
 */
#ifndef SIMSCHED_SS_YAML_H
#define SIMSCHED_SS_YAML_H

#include <stdbool.h>
#include <glib.h>
#include <yaml.h>

#include "simsched/error.h"

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

/*
 * The mark of byte offset off of s (len bytes): libyaml's reader errors
 * give only an offset. Columns count characters (UTF-8 continuation bytes
 * are not columns).
 */
static inline yaml_mark_t ss_yaml_offset_mark(const char *s, size_t len, size_t off)
{
	yaml_mark_t m = { 0, 0, 0 };

	for (size_t i = 0; i < off && i < len; i++) {
		if (s[i] == '\n') {
			m.line++;
			m.column = 0;
		} else if (((unsigned char)s[i] & 0xc0) != 0x80) {
			m.column++;
		}
	}
	m.index = off;
	return m;
}

/*
 * The parser's error as SS_ERROR_PARSE (SS_ERROR_IO when out of memory): "file:line:col: YAML syntax error:
 * PROBLEM[ while CONTEXT at L:C] (expected valid YAML)". s/len: the text
 * parsed (for a reader error's offset).
 */
static inline void ss_yaml_syntax_error(GError **err, const char *file, const yaml_parser_t *ps, const char *s, size_t len)
{
	yaml_mark_t m = ps->error == YAML_READER_ERROR ? ss_yaml_offset_mark(s, len, ps->problem_offset) : ps->problem_mark;
	const char *problem = ps->problem ? ps->problem : "malformed YAML";

	if (ps->error == YAML_MEMORY_ERROR) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: out of memory while reading YAML", file);
		return;
	}
	if (ps->context)
		g_set_error(err, SS_ERROR, SS_ERROR_PARSE, "%s:%zu:%zu: YAML syntax error: %s %s at %zu:%zu (expected valid YAML)",
			    file, m.line + 1, m.column + 1, problem, ps->context, ps->context_mark.line + 1,
			    ps->context_mark.column + 1);
	else
		g_set_error(err, SS_ERROR, SS_ERROR_PARSE, "%s:%zu:%zu: YAML syntax error: %s (expected valid YAML)", file,
			    m.line + 1, m.column + 1, problem);
}

/** Nesting (lists and mappings inside one another) a file may have: far above any machine, workload or spec. */
#define SS_YAML_MAX_DEPTH 64

/*
 * Refuse a text nested deeper than SS_YAML_MAX_DEPTH before libyaml's
 * document loader sees it (it takes time quadratic in the depth: a 200 KB
 * file of '[' takes minutes): libyaml's event parser, stopped at the first
 * event past the limit, so the check costs the events up to there. A
 * syntax error is left to the loader to report. false + *err
 * (SS_ERROR_PARSE): "file:line:col: nesting deeper than 64 lists and
 * mappings (expected at most 64)".
 */
static inline bool ss_yaml_check_depth(GError **err, const char *file, const char *s, size_t len)
{
	yaml_parser_t ps;
	yaml_event_t ev;
	unsigned depth = 0;
	bool ok = true;

	if (!yaml_parser_initialize(&ps))
		return true;   /* the loader reports it */
	yaml_parser_set_input_string(&ps, (const unsigned char *)s, len);
	for (;;) {
		if (!yaml_parser_parse(&ps, &ev))
			break;
		yaml_event_type_t t = ev.type;
		yaml_mark_t m = ev.start_mark;
		yaml_event_delete(&ev);
		if (t == YAML_STREAM_END_EVENT)
			break;
		if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) {
			if (++depth > SS_YAML_MAX_DEPTH) {
				g_set_error(err, SS_ERROR, SS_ERROR_PARSE,
					    "%s:%zu:%zu: nesting deeper than %u lists and mappings (expected at most %u)", file,
					    m.line + 1, m.column + 1, SS_YAML_MAX_DEPTH, SS_YAML_MAX_DEPTH);
				ok = false;
				break;
			}
		} else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT) {
			depth--;
		}
	}
	yaml_parser_delete(&ps);
	return ok;
}

#endif
