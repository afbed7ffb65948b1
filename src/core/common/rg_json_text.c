/*-------------------------------------------------------------------------
 *
 * rg_json_text.c
 *	  JSON text before a JSON parser sees it: comments blanked out (Jackson
 *	  as Avro configures it allows them; jansson does not) and the nesting
 *	  of the first value bounded by a linear scan (jansson's parser, and
 *	  every walk of its values, recurses once per level); and JSON written
 *	  as Jackson writes it (strings, Java's doubles, any jansson value),
 *	  for the Avro stored form and schema tags.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_json_text.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
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

/* See rg_json_text.h */
void
rg_json_write_string(rg_buf *buf, const char *s)
{
	rg_json_write_string_n(buf, s, strlen(s));
}

/*
 * See rg_json_text.h.  Java's Double.toString(): the shortest digit string that reads back as
 * the same double, printed as plain decimal when 1e-3 <= |d| < 1e7 and as
 * "d.dddE<exp>" otherwise, always with at least one fractional digit.
 */
void
rg_json_write_double(rg_buf *buf, double d)
{
	char		tmp[40];
	char		digits[20];
	int			ndig = 0;
	int			exp10;
	int			prec;
	char	   *e;
	char	   *q;
	char		out[64];
	int			o = 0;

	if (isnan(d))
	{
		rg_buf_puts(buf, "\"NaN\"");
		return;
	}
	if (isinf(d))
	{
		rg_buf_puts(buf, d < 0 ? "\"-Infinity\"" : "\"Infinity\"");
		return;
	}
	if (d == 0)
	{
		rg_buf_puts(buf, signbit(d) ? "-0.0" : "0.0");
		return;
	}

	/*
	 * Shortest %e precision that round-trips, but at least two significant
	 * digits: when one digit would do, Java picks the closest two-digit
	 * decimal (Double.MIN_VALUE is "4.9E-324", not "5.0E-324"); a trailing
	 * zero is dropped below.
	 */
	for (prec = 1; prec < 17; prec++)
	{
		snprintf(tmp, sizeof(tmp), "%.*e", prec, d);
		if (strtod(tmp, NULL) == d)
			break;
	}
	/* tmp is "-D.DDDDe+XX": collect the digits and the exponent */
	q = tmp;
	if (*q == '-')
	{
		out[o++] = '-';
		q++;
	}
	e = strchr(q, 'e');
	for (; q < e; q++)
		if (*q >= '0' && *q <= '9')
			digits[ndig++] = *q;
	exp10 = atoi(e + 1);
	/* drop trailing zeros (they can appear when prec hits 17) */
	while (ndig > 1 && digits[ndig - 1] == '0')
		ndig--;

	if (exp10 >= -3 && exp10 < 7)
	{
		int			i;

		if (exp10 < 0)
		{
			out[o++] = '0';
			out[o++] = '.';
			for (i = -1; i > exp10; i--)
				out[o++] = '0';
			for (i = 0; i < ndig; i++)
				out[o++] = digits[i];
		}
		else
		{
			for (i = 0; i <= exp10; i++)
				out[o++] = i < ndig ? digits[i] : '0';
			out[o++] = '.';
			if (ndig > exp10 + 1)
				for (i = exp10 + 1; i < ndig; i++)
					out[o++] = digits[i];
			else
				out[o++] = '0';
		}
		out[o] = '\0';
	}
	else
	{
		int			i;

		out[o++] = digits[0];
		out[o++] = '.';
		if (ndig > 1)
			for (i = 1; i < ndig; i++)
				out[o++] = digits[i];
		else
			out[o++] = '0';
		snprintf(out + o, sizeof(out) - o, "E%d", exp10);
	}
	rg_buf_puts(buf, out);
}

static void write_value(rg_buf *buf, const json_t *value, int depth);

/*
 * See rg_json_text.h.  Write any JSON value compactly, object keys in their stored order.  A
 * value too deep to walk sets buf->too_deep (the input scan keeps parsed
 * values well within the limit, so only the stack-depth hook can stop it).
 */
void
rg_json_write_value(rg_buf *buf, const json_t *value)
{
	write_value(buf, value, 0);
}

/* rg_json_write_value at a depth */
static void
write_value(rg_buf *buf, const json_t *value, int depth)
{
	if (rg_too_deep(depth))
	{
		rg_buf_set_too_deep(buf);
		return;
	}
	switch (json_typeof(value))
	{
		case JSON_OBJECT:
			{
				const char *key;
				json_t	   *v;
				bool		first = true;

				rg_buf_putc(buf, '{');
				json_object_foreach((json_t *) value, key, v)
				{
					if (!first)
						rg_buf_putc(buf, ',');
					first = false;
					rg_json_write_string(buf, key);
					rg_buf_putc(buf, ':');
					write_value(buf, v, depth + 1);
				}
				rg_buf_putc(buf, '}');
				break;
			}
		case JSON_ARRAY:
			{
				size_t		i;

				rg_buf_putc(buf, '[');
				for (i = 0; i < json_array_size(value); i++)
				{
					if (i > 0)
						rg_buf_putc(buf, ',');
					write_value(buf, json_array_get(value, i), depth + 1);
				}
				rg_buf_putc(buf, ']');
				break;
			}
		case JSON_STRING:
			rg_json_write_string_n(buf, json_string_value(value), json_string_length(value));
			break;
		case JSON_INTEGER:
			rg_buf_printf(buf, "%" JSON_INTEGER_FORMAT, json_integer_value(value));
			break;
		case JSON_REAL:
			rg_json_write_double(buf, json_real_value(value));
			break;
		case JSON_TRUE:
			rg_buf_puts(buf, "true");
			break;
		case JSON_FALSE:
			rg_buf_puts(buf, "false");
			break;
		case JSON_NULL:
			rg_buf_puts(buf, "null");
			break;
	}
}

/*
 * See rg_json_text.h.  Jackson's JsonNode.asText() of a scalar, in arena: a string's value,
 * true/false/null, a number as Java prints it; NULL for an object or an
 * array, or out of memory.
 */
const char *
rg_json_scalar_text(rg_arena *arena, const json_t *v)
{
	rg_buf		buf;
	char	   *s;

	if (json_is_string(v))
		return rg_arena_strdup(arena, json_string_value(v));
	if (json_is_true(v))
		return "true";
	if (json_is_false(v))
		return "false";
	if (json_is_null(v))
		return "null";
	if (!json_is_number(v))
		return NULL;
	rg_buf_init(&buf);
	if (json_is_integer(v))
		rg_buf_printf(&buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else
		rg_json_write_double(&buf, json_real_value(v));
	s = buf.oom ? NULL : rg_arena_strndup(arena, buf.data, buf.len);
	rg_buf_free(&buf);
	return s;
}

/* See rg_json_text.h */
json_t *
rg_json_new_object(void)
{
	return json_pack("{}");
}
