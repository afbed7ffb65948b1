/*-------------------------------------------------------------------------
 *
 * json_validate.c
 *	  A keyword's value must have the JSON type its draft gives it.  The
 *	  loader asks here for each keyword it reads, as everit's JsonValue
 *	  require*() calls do, and the refusal names the keyword's location
 *	  and the two types in everit's words ("#/properties: expected type:
 *	  JsonObject, found: JsonArray"), so a schema Confluent refuses is
 *	  refused here with the same reason.
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* See json_internal.h */
void
js_fail(js_ctx *ctx, const char *fmt,...)
{
	va_list		ap;
	size_t		n;

	if (ctx->failed)
		return;
	ctx->failed = true;
	if (ctx->err == NULL)
		return;
	ctx->err->code = RG_ERR_INVALID_SCHEMA;
	n = snprintf(ctx->err->message, sizeof(ctx->err->message), "Invalid JSON Schema: ");
	va_start(ap, fmt);
	vsnprintf(ctx->err->message + n, sizeof(ctx->err->message) - n, fmt, ap);
	va_end(ap);
}

/* See json_internal.h */
void
js_oom(js_ctx *ctx)
{
	if (ctx->failed)
		return;
	ctx->failed = true;
	rg_error_set(ctx->err, RG_ERR_NOMEM, "out of memory");
}

/*
 * The Java class everit names for a value in its messages (the classes
 * Jackson and org.json give the values: numbers too large for an int are
 * a Long or BigInteger, decimals a BigDecimal, NaN a Double).
 */
const char *
js_type_name(const jx *v)
{
	if (v == NULL)
		return "null";
	switch (v->type)
	{
		case JX_NULL:
			return "null";
		case JX_TRUE:
		case JX_FALSE:
			return "Boolean";
		case JX_INT:
			{
				const char *d = v->text[0] == '-' ? v->text + 1 : v->text;
				size_t		n = strlen(d);

				if (n < 10 || (n == 10 && strtoll(v->text, NULL, 10) >= INT32_MIN &&
							   strtoll(v->text, NULL, 10) <= INT32_MAX))
					return "Integer";
				if (n < 19 || (n == 19 && strcmp(d, v->text[0] == '-' ? "9223372036854775808" : "9223372036854775807") <= 0))
					return "Long";
				return "BigInteger";
			}
		case JX_DECIMAL:
			return "BigDecimal";
		case JX_SPECIAL:
			return "Double";
		case JX_STRING:
			return "String";
		case JX_ARRAY:
			return "JsonArray";
		case JX_OBJECT:
			return "JsonObject";
	}
	return "null";
}

/* everit's name of a JSON type as a required type */
static const char *
required_name(jx_type type)
{
	switch (type)
	{
		case JX_TRUE:
		case JX_FALSE:
			return "Boolean";
		case JX_INT:
			return "Integer";
		case JX_DECIMAL:
		case JX_SPECIAL:
			return "Number";
		case JX_STRING:
			return "String";
		case JX_ARRAY:
			return "JsonArray";
		case JX_OBJECT:
			return "JsonObject";
		case JX_NULL:
			break;
	}
	return "null";
}

/* See json_internal.h */
bool
js_require(js_ctx *ctx, const jx *v, jx_type type, const char *pointer)
{
	bool		ok;

	if (type == JX_TRUE || type == JX_FALSE)
		ok = v->type == JX_TRUE || v->type == JX_FALSE;
	else
		ok = v->type == type;
	if (!ok)
		js_fail(ctx, "%s: expected type: %s, found: %s", pointer,
				required_name(type), js_type_name(v));
	return ok;
}

/* See json_internal.h */
bool
js_require_schema(js_ctx *ctx, const jx *v, const char *pointer)
{
	if (v->type == JX_OBJECT || v->type == JX_TRUE || v->type == JX_FALSE)
		return true;
	js_fail(ctx, "%s: expected type is one of Boolean or JsonObject, found: %s",
			pointer, js_type_name(v));
	return false;
}

/*
 * An int as everit's requireInteger() takes it: a JSON integer that fits
 * a Java int (a decimal like 1.0 is a BigDecimal, a larger one a Long).
 */
bool
js_require_integer(js_ctx *ctx, const jx *v, const char *pointer, int64_t *out)
{
	if (v->type != JX_INT || strcmp(js_type_name(v), "Integer") != 0)
	{
		js_fail(ctx, "%s: expected type: Integer, found: %s", pointer,
				js_type_name(v));
		return false;
	}
	*out = strtoll(v->text, NULL, 10);
	return true;
}

/* See json_internal.h */
bool
js_require_number(js_ctx *ctx, const jx *v, const char *pointer)
{
	if (v->type == JX_INT || v->type == JX_DECIMAL || v->type == JX_SPECIAL)
		return true;
	js_fail(ctx, "%s: expected type: Number, found: %s", pointer,
			js_type_name(v));
	return false;
}

/* See json_internal.h */
const char *
js_require_string(js_ctx *ctx, const jx *v, const char *pointer)
{
	if (!js_require(ctx, v, JX_STRING, pointer))
		return NULL;
	return v->text;
}

/* See json_internal.h */
const char **
js_require_strings(js_ctx *ctx, const jx *v, const char *pointer, int *n)
{
	const char **list;
	int			i;

	if (!js_require(ctx, v, JX_ARRAY, pointer))
		return NULL;
	list = rg_arena_alloc(ctx->arena, sizeof(char *) * (v->n ? v->n : 1));
	if (list == NULL)
	{
		js_oom(ctx);
		return NULL;
	}
	for (i = 0; i < v->n; i++)
		if ((list[i] = js_require_string(ctx, v->items[i],
										 js_pointer_index(ctx, pointer, i))) == NULL)
			return NULL;
	*n = v->n;
	return list;
}

/* the state of the regular expression check */
typedef struct regex_scan
{
	const char *s;
	size_t		i;
	size_t		n;
	const char *error;
} regex_scan;

/* May an escape \c be written in a Java regular expression? */
static bool
java_escape_ok(char c)
{
	if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
		return true;			/* digits and symbols escape themselves */
	return strchr("tnrfaecdDsSwWbBAGZzQEpPhHvVRXNkxu", c) != NULL;
}

/* After \p, \P, \x or \N (at s[i]), a {...} argument belongs to the escape. */
static void
skip_braced(regex_scan *r)
{
	const char *close;

	if (strchr("pPxN", r->s[r->i]) && r->i + 1 < r->n && r->s[r->i + 1] == '{' &&
		(close = strchr(r->s + r->i + 1, '}')) != NULL)
		r->i = (size_t) (close - r->s);
}

/* A counted closure {n}, {n,} or {n,m} at s[i] == '{'; false with error set. */
static bool
counted_closure(regex_scan *r)
{
	long		lo = 0;
	long		hi = -1;
	size_t		i = r->i + 1;

	if (i >= r->n || r->s[i] < '0' || r->s[i] > '9')
	{
		r->error = "Illegal repetition";
		return false;
	}
	for (; i < r->n && r->s[i] >= '0' && r->s[i] <= '9'; i++)
		if (lo < 100000000)
			lo = lo * 10 + (r->s[i] - '0');
	if (i < r->n && r->s[i] == ',')
	{
		i++;
		if (i < r->n && r->s[i] >= '0' && r->s[i] <= '9')
		{
			hi = 0;
			for (; i < r->n && r->s[i] >= '0' && r->s[i] <= '9'; i++)
				if (hi < 100000000)
					hi = hi * 10 + (r->s[i] - '0');
		}
	}
	if (i >= r->n || r->s[i] != '}')
	{
		r->error = "Unclosed counted closure";
		return false;
	}
	if (hi >= 0 && hi < lo)
	{
		r->error = "Illegal repetition range";
		return false;
	}
	r->i = i;
	return true;
}

/* A character class from s[i] == '[' to its ']' (classes nest in Java). */
static bool
char_class(regex_scan *r)
{
	int			depth = 0;

	for (; r->i < r->n; r->i++)
	{
		char		c = r->s[r->i];

		if (c == '\\')
		{
			if (++r->i >= r->n)
				break;
			if (!java_escape_ok(r->s[r->i]))
			{
				r->error = "Illegal/unsupported escape sequence";
				return false;
			}
			skip_braced(r);
		}
		else if (c == '[')
		{
			depth++;
			/* a ']' first in a class is a literal */
			if (r->i + 1 < r->n && r->s[r->i + 1] == '^')
				r->i++;
			if (r->i + 1 < r->n && r->s[r->i + 1] == ']')
				r->i++;
		}
		else if (c == ']' && --depth == 0)
			return true;
	}
	r->error = "Unclosed character class";
	return false;
}

/*
 * The errors Java's Pattern.compile reports that are plain to see: a
 * dangling quantifier, an illegal or unclosed {n,m}, unbalanced groups or
 * classes, an unknown letter escape, a trailing backslash.  (Anything
 * subtler is let through: refusing a pattern Java accepts would be worse.)
 */
static const char *
regex_error(const char *s, size_t *at)
{
	regex_scan	r = {s, 0, strlen(s), NULL};
	int			groups = 0;
	bool		atom = false;	/* is there something to quantify? */

	for (; r.i < r.n && r.error == NULL; r.i++)
	{
		char		c = s[r.i];

		switch (c)
		{
			case '\\':
				if (r.i + 1 >= r.n)
					r.error = "Unexpected internal error";
				else if (s[r.i + 1] == 'Q')
				{
					const char *e = strstr(s + r.i + 2, "\\E");

					r.i = e ? (size_t) (e - s) + 1 : r.n - 1;
				}
				else if (!java_escape_ok(s[++r.i]))
					r.error = "Illegal/unsupported escape sequence";
				else
					skip_braced(&r);
				atom = true;
				break;
			case '[':
				if (char_class(&r))
					atom = true;
				break;
			case '(':
				groups++;
				atom = false;
				if (r.i + 1 < r.n && s[r.i + 1] == '?')
				{
					r.i++;

					/*
					 * (?:, (?=, (?!, (?<=, (?<!, (?<name>, (?>, flags: all
					 * open a group
					 */
				}
				break;
			case ')':
				if (--groups < 0)
					r.error = "Unmatched closing ')'";
				atom = true;
				break;
			case '|':
				atom = false;
				break;
			case '*':
			case '+':
			case '?':
				if (!atom)
					r.error = c == '*' ? "Dangling meta character '*'" :
						c == '+' ? "Dangling meta character '+'" :
						"Dangling meta character '?'";
				/* a possessive or lazy suffix follows a quantifier */
				else if (r.i + 1 < r.n && (s[r.i + 1] == '?' || s[r.i + 1] == '+'))
					r.i++;
				break;
			case '{':
				if (counted_closure(&r) && r.i + 1 < r.n &&
					(s[r.i + 1] == '?' || s[r.i + 1] == '+'))
					r.i++;
				break;
			default:			/* '^' and '$' too: Java quantifies them */
				atom = true;
				break;
		}
	}
	if (r.error == NULL && groups > 0)
		r.error = "Unclosed group";
	*at = r.i > 0 ? r.i - 1 : 0;
	return r.error;
}

/* See json_internal.h */
bool
js_check_regex(js_ctx *ctx, const char *pattern, const char *pointer)
{
	size_t		at;
	const char *error = regex_error(pattern, &at);

	if (error == NULL)
		return true;
	js_fail(ctx, "%s: invalid regular expression \"%s\": %s near index %zu",
			pointer, pattern, error, at);
	return false;
}

/* js_check_finite at a depth */
static bool
check_finite(js_ctx *ctx, const jx *v, const char *pointer, int depth)
{
	int			i;

	if (rg_too_deep(depth))
	{
		js_fail(ctx, "%s: schema nesting is too deep", pointer);
		return false;
	}
	if (v->type == JX_SPECIAL)
	{
		js_fail(ctx, "%s: JSON does not allow non-finite numbers.", pointer);
		return false;
	}
	for (i = 0; i < v->n && v->type == JX_ARRAY; i++)
		if (!check_finite(ctx, v->items[i], js_pointer_index(ctx, pointer, i), depth + 1))
			return false;
	for (i = 0; i < v->n && v->type == JX_OBJECT; i++)
		if (!check_finite(ctx, v->members[i].value,
						  js_pointer_child(ctx, pointer, v->members[i].key,
										   v->members[i].key_len), depth + 1))
			return false;
	return true;
}

/*
 * Drafts 4-7 hand everit the document as org.json objects, which refuse
 * NaN and the infinities Jackson read (JSONObject.put): the schema is
 * invalid wherever one appears.
 */
bool
js_check_finite(js_ctx *ctx, const jx *v, const char *pointer)
{
	return check_finite(ctx, v, pointer, 0);
}
