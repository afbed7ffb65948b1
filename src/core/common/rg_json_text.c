/*-------------------------------------------------------------------------
 *
 * rg_json_text.c
 *	  JSON text before a JSON parser sees it: comments blanked out (Jackson
 *	  as Avro configures it allows them; jansson does not) and the nesting
 *	  of the first value bounded by a linear scan (jansson's parser, and
 *	  every walk of its values, recurses once per level).
 *
 *-------------------------------------------------------------------------
 */
#include "rg_json_text.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "rg_alloc.h"

/*
 * Jackson as Avro configures it allows comments; jansson does not.  Blank
 * them out (keeping newlines, so positions in error messages stay right).
 * Returns a copy from rg_malloc, or NULL on OOM.
 */
char *
rg_json_strip_comments(const char *text, size_t len)
{
	char	   *out = rg_malloc(len + 1);
	size_t		i = 0;
	bool		in_string = false;

	if (out == NULL)
		return NULL;
	memcpy(out, text, len);
	out[len] = '\0';
	while (i < len)
	{
		char		c = out[i];

		if (in_string)
		{
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = false;
			i++;
		}
		else if (c == '"')
		{
			in_string = true;
			i++;
		}
		else if (c == '/' && i + 1 < len && out[i + 1] == '/')
		{
			while (i < len && out[i] != '\n')
				out[i++] = ' ';
		}
		else if (c == '/' && i + 1 < len && out[i + 1] == '*')
		{
			size_t		j = i + 2;

			while (j + 1 < len && !(out[j] == '*' && out[j + 1] == '/'))
				j++;
			if (j + 1 >= len)
				break;			/* unterminated: let the JSON parser complain */
			for (; i < j + 2; i++)
				if (out[i] != '\n')
					out[i] = ' ';
		}
		else
			i++;
	}
	return out;
}

/*
 * Does the first JSON value of text nest at most max_nesting levels?  A linear scan before jansson (whose parser, and every walk of
 * its values, recurses once per level) sees the text.  On false, *at is
 * the offset of the bracket that went past the limit.  Only the first
 * value counts: it is all the parser reads.
 */
bool
rg_json_nesting_ok(const char *text, size_t len, int max_nesting, size_t *at)
{
	int			depth = 0;
	size_t		i = 0;

	while (i < len)
	{
		char		c = text[i];

		if (c == '"' && depth > 0)
		{
			for (i++; i < len && text[i] != '"'; i++)
				if (text[i] == '\\')
					i++;
		}
		else if (c == '{' || c == '[')
		{
			if (++depth > max_nesting)
			{
				*at = i;
				return false;
			}
		}
		else if (c == '}' || c == ']')
		{
			if (--depth <= 0)
				return true;
		}
		else if (depth == 0 && !isspace((unsigned char) c))
			return true;		/* a scalar, or not JSON at all */
		i++;
	}
	return true;
}

/* See rg_json_text.h */
void
rg_json_write_string_n(rg_buf *buf, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *) s;
	const unsigned char *end = p + len;
	const unsigned char *run = p;

	rg_buf_putc(buf, '"');
	for (; p < end; p++)
	{
		char		esc[8];
		int			n = 0;
		unsigned	unit;

		/* a lone surrogate (kept as three bytes) cannot be raw UTF-8 */
		if (*p == 0xED && p + 2 < end && p[1] >= 0xA0)
		{
			rg_buf_append(buf, (const char *) run, p - run);
			unit = 0xD000 | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
			rg_buf_printf(buf, "\\u%c%c%c%c", hex[unit >> 12], hex[(unit >> 8) & 15],
						  hex[(unit >> 4) & 15], hex[unit & 15]);
			p += 2;
			run = p + 1;
			continue;
		}
		if (*p >= 0x20 && *p != '"' && *p != '\\')
			continue;
		rg_buf_append(buf, (const char *) run, p - run);
		esc[n++] = '\\';
		switch (*p)
		{
			case '"':
				esc[n++] = '"';
				break;
			case '\\':
				esc[n++] = '\\';
				break;
			case '\b':
				esc[n++] = 'b';
				break;
			case '\t':
				esc[n++] = 't';
				break;
			case '\n':
				esc[n++] = 'n';
				break;
			case '\f':
				esc[n++] = 'f';
				break;
			case '\r':
				esc[n++] = 'r';
				break;
			default:
				esc[n++] = 'u';
				esc[n++] = '0';
				esc[n++] = '0';
				esc[n++] = hex[*p >> 4];
				esc[n++] = hex[*p & 15];
				break;
		}
		rg_buf_append(buf, esc, n);
		run = p + 1;
	}
	rg_buf_append(buf, (const char *) run, p - run);
	rg_buf_putc(buf, '"');
}

/*
 * Why text is not JSON, with its line and column, as jansson reads it;
 * false when jansson reads it as a JSON value.
 */
bool
rg_json_syntax_error(const char *text, size_t len, char *why, size_t why_size)
{
	json_error_t err;
	json_t	   *doc = json_loadb(text, len, JSON_DECODE_ANY, &err);

	if (doc != NULL)
	{
		json_decref(doc);
		return false;
	}
	snprintf(why, why_size, "line %d, column %d: %s", err.line, err.column, err.text);
	return true;
}
