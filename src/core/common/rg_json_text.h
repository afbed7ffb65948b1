/*-------------------------------------------------------------------------
 *
 * rg_json_text.h
 *	  JSON text before a JSON parser sees it, and JSON written as Jackson
 *	  writes it (rg_json_text.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_JSON_TEXT_H
#define RG_JSON_TEXT_H

#include "rg_common.h"

/* jansson's value type, named without jansson.h (its json_object() clashes
 * with PostgreSQL's fmgrprotos.h, and the PostgreSQL glue includes this) */
struct json_t;

/*
 * Deepest JSON nesting accepted, checked by a scan before jansson parses
 * (jansson 2.14's own limit is 2048 levels).  It is Jackson's default
 * (StreamReadConstraints.maxNestingDepth, 1000), which Confluent's Avro
 * parsing inherits, and leaves room for RG_AVRO_MAX_DEPTH schema levels
 * (a record level takes three: object, fields array, field object).
 */
#define RG_JSON_MAX_NESTING 1000

/*
 * A copy of len bytes of text (from rg_malloc, NUL-terminated) with // and
 * block comments outside strings blanked, newlines kept so positions stay
 * right; NULL on out of memory.
 */
extern char *rg_json_strip_comments(const char *text, size_t len);

/*
 * Does the first JSON value of text nest at most max_nesting levels?  On
 * false, *at is the offset of the bracket that went past the limit.
 */
extern bool rg_json_nesting_ok(const char *text, size_t len, int max_nesting, size_t *at);

/*
 * Why text is not JSON ("line L, column C: reason", into why), as jansson
 * reads it; false when it is a JSON value.
 */
extern bool rg_json_syntax_error(const char *text, size_t len, char *why, size_t why_size);

/*
 * A string of len bytes of UTF-8 as Jackson writes it, quotes included:
 * '"', '\\' and control characters escaped (\b \t \n \f \r, else
 * \u00XX), everything else raw, but a lone surrogate (kept as its three
 * bytes) as \uXXXX.  The one string writer of the Avro and JSON stored
 * forms.
 */
extern void rg_json_write_string_n(rg_buf *buf, const char *s, size_t len);

/* Jackson-style compact JSON output of a string, a double, any value */
extern void rg_json_write_string(rg_buf *buf, const char *s);
extern void rg_json_write_double(rg_buf *buf, double d);
extern void rg_json_write_value(rg_buf *buf, const struct json_t *value);

/* Jackson's asText() of a scalar, in arena; NULL for a container or out of memory */
extern const char *rg_json_scalar_text(rg_arena *arena, const struct json_t *v);

/*
 * A new empty jansson object, as json_object() makes one; NULL on out of
 * memory.  The core never calls json_object() itself: the postgres
 * executable exports a SQL function of that very name, and a shared
 * library's call of it would bind to the server's first (the Makefile's
 * check-imports refuses a registry.so that imports it).
 */
extern struct json_t *rg_json_new_object(void);

#endif							/* RG_JSON_TEXT_H */
