/*-------------------------------------------------------------------------
 *
 * json_value.c
 *	  JSON values a schema keeps (default, const, enum members, keywords
 *	  no loader consumed): their stored-form text in the arena, and a
 *	  jansson copy allocated near the arena for whoever wants to walk them,
 *	  held by one array that rg_json_model_release frees.  And the
 *	  equality the diff compares them with.
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A jansson copy of a value; NULL on out of memory or too deep. */
static json_t *
to_jansson(const jx *v, int depth)
{
	json_t	   *out = NULL;
	int			i;

	if (rg_too_deep(depth))
		return NULL;
	switch (v->type)
	{
		case JX_NULL:
			return json_null();
		case JX_TRUE:
			return json_true();
		case JX_FALSE:
			return json_false();
		case JX_INT:
			{
				char	   *end;
				long long	n;

				errno = 0;
				n = strtoll(v->text, &end, 10);
				if (errno == 0 && *end == '\0')
					return json_integer(n);
				return json_real(strtod(v->text, NULL));
			}
		case JX_DECIMAL:
			{
				double		d = strtod(v->text, NULL);

				return isfinite(d) ? json_real(d) : json_string(v->text);
			}
		case JX_SPECIAL:
			return json_string(v->text);
		case JX_STRING:
			return json_stringn(v->text, v->len);
		case JX_ARRAY:
			out = json_array();
			for (i = 0; out != NULL && i < v->n; i++)
			{
				json_t	   *item = to_jansson(v->items[i], depth + 1);

				if (item == NULL || json_array_append_new(out, item) != 0)
				{
					json_decref(out);
					out = NULL;
				}
			}
			return out;
		case JX_OBJECT:
			out = rg_json_new_object();
			for (i = 0; out != NULL && i < v->n; i++)
			{
				json_t	   *item = to_jansson(v->members[i].value, depth + 1);

				if (item == NULL ||
					json_object_setn_new(out, v->members[i].key,
										 v->members[i].key_len, item) != 0)
				{
					json_decref(out);
					out = NULL;
				}
			}
			return out;
	}
	return NULL;
}

/* See json_internal.h */
const rg_js_value *
js_keep_value(js_ctx *ctx, const jx *v)
{
	rg_js_value *kept = rg_arena_alloc(ctx->arena, sizeof(rg_js_value));
	rg_buf		buf;
	json_t	   *copy;

	if (kept == NULL)
	{
		js_oom(ctx);
		return NULL;
	}
	rg_buf_init(&buf);
	if (!jx_render(&buf, v, ctx->sorted))
	{
		if (buf.too_deep)
			js_fail(ctx, "value nesting is too deep for the stack");
		else
			js_oom(ctx);
		rg_buf_free(&buf);
		return NULL;
	}
	kept->text = rg_arena_strndup(ctx->arena, buf.data, buf.len);
	rg_buf_free(&buf);
	rg_keep_begin(ctx->arena);
	if (ctx->owned == NULL)
		ctx->owned = json_array();
	copy = ctx->owned ? to_jansson(v, 0) : NULL;
	if (copy != NULL && json_array_append_new(ctx->owned, copy) != 0)
		copy = NULL;
	rg_keep_end();
	if (kept->text == NULL || copy == NULL)
	{
		js_oom(ctx);
		return NULL;
	}
	kept->json = copy;
	return kept;
}
