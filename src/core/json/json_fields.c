/*-------------------------------------------------------------------------
 *
 * json_fields.c
 *	  Every property a JSON Schema document declares, for the field index
 *	  (rg_fields.h): its path and name (json_props.c), "type", its
 *	  "description" as the doc, "default", "format" as the logical type,
 *	  and its "confluent:tags".
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"
#include "rg_fields.h"

#include <string.h>

/* A string member of an object schema, or NULL. */
static const char *
string_member(const jx *schema, const char *key)
{
	const jx   *v = jx_get(schema, key);

	return v != NULL && v->type == JX_STRING ? v->text : NULL;
}

/* A member as JSON text in arena, or NULL when absent. */
static const char *
member_text(const jx *schema, const char *key, rg_arena *arena)
{
	const jx   *v = jx_get(schema, key);
	rg_buf		buf;
	const char *text;

	if (v == NULL)
		return NULL;
	rg_buf_init(&buf);
	text = jx_render(&buf, v, false) && !buf.oom && buf.data ?
		rg_arena_strdup(arena, buf.data) : NULL;
	rg_buf_free(&buf);
	return text;
}

/* The strings of "confluent:tags", in arena; *n of them. */
static const char **
tags_of(const jx *schema, rg_arena *arena, int *n)
{
	const jx   *v = jx_get(schema, "confluent:tags");
	const char **tags;
	int			i;

	*n = 0;
	if (v == NULL || v->type != JX_ARRAY || v->n == 0)
		return NULL;
	tags = rg_arena_alloc(arena, sizeof(char *) * v->n);
	if (tags == NULL)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (v->items[i]->type == JX_STRING)
			tags[(*n)++] = v->items[i]->text;
	return tags;
}

/* See json_internal.h */
bool
rg_json_fields(const rg_schema *schema, rg_field_list *out)
{
	js_prop_list props = {0};
	char		type[256];
	int			i;

	props.arena = out->arena;
	js_collect_props(&props, rg_json_document(schema));
	for (i = 0; i < props.n && !props.failed; i++)
	{
		const jx   *s = props.items[i].schema;
		rg_field_info info = {0};

		info.path = props.items[i].path;
		info.name = props.items[i].name;
		info.type = js_prop_type_text(s, type, sizeof(type));
		if (info.type == NULL)
			info.type = jx_get(s, "$ref") != NULL ? "$ref" : "any";
		info.doc = string_member(s, "description");
		info.default_json = member_text(s, "default", out->arena);
		info.logical_type = string_member(s, "format");
		info.tags = tags_of(s, out->arena, &info.n_tags);
		if (!rg_field_list_add(out, &info))
			break;
	}
	if (props.failed)
		out->truncated = true;	/* too deep to walk whole */
	js_prop_list_free(&props);
	return !out->failed;
}
