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
