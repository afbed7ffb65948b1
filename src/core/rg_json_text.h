/*-------------------------------------------------------------------------
 *
 * rg_json_text.h
 *	  JSON text before a JSON parser sees it (rg_json_text.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_JSON_TEXT_H
#define RG_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>

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

#endif							/* RG_JSON_TEXT_H */
