/*-------------------------------------------------------------------------
 *
 * json_props.c
 *	  The properties a JSON Schema document declares inline, at any depth,
 *	  by path: what the lints (json_lint.c) compare and the field index
 *	  (json_fields.c) lists.
 *
 * A property of an object schema's "properties" is "name" at the root and
 * "parent.name" below; the properties of an array's "items" object
 * schema are under "parent[]".  $ref, allOf and the like are not followed:
 * the document as written.
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"

#include <stdio.h>
#include <string.h>

static void collect_properties(js_prop_list *list, const jx *schema, const char *path,
							   int depth);

/* Is name listed in the object schema's "required"? */
static bool
listed_required(const jx *schema, const char *name)
{
	const jx   *required = jx_get(schema, "required");
	int			i;

	if (required == NULL || required->type != JX_ARRAY)
		return false;
	for (i = 0; i < required->n && i < JS_MAX_PROPS; i++)
		if (required->items[i]->type == JX_STRING &&
			strcmp(required->items[i]->text, name) == 0)
			return true;
	return false;
}

/* path + sep + name, in the list's arena */
static const char *
join_path(js_prop_list *list, const char *path, const char *sep, const char *name)
{
	size_t		len = strlen(path) + strlen(sep) + strlen(name) + 1;
	char	   *s = rg_arena_alloc(list->arena, len);

	if (s == NULL)
	{
		list->failed = true;
		return NULL;
	}
	snprintf(s, len, "%s%s%s", path, path[0] ? sep : "", name);
	return s;
}

/* add one property and what it declares under it */
static void
add_property(js_prop_list *list, const jx *parent, const jx_member *m, const char *path,
			 int depth)
{
	const char *p;

	if (list->n >= JS_MAX_PROPS)
	{
		list->failed = true;	/* too many to compare: not walked whole */
		return;
	}
	p = join_path(list, path, ".", m->key);
	if (p == NULL)
		return;
	if (list->n == list->cap)
	{
		int			cap = list->cap ? list->cap * 2 : 32;
		js_prop    *items = rg_realloc(list->items, sizeof(*items) * cap);

		if (items == NULL)
		{
			list->failed = true;
			return;
		}
		list->items = items;
		list->cap = cap;
	}
	list->items[list->n].path = p;
	list->items[list->n].name = m->key;
	list->items[list->n].schema = m->value;
	list->items[list->n].required = listed_required(parent, m->key);
	list->n++;
	collect_properties(list, m->value, p, depth + 1);
}

/* every property schema declares inline, under path */
static void
collect_properties(js_prop_list *list, const jx *schema, const char *path, int depth)
{
	const jx   *properties;
	const jx   *items;
	int			i;

	if (schema == NULL || schema->type != JX_OBJECT || list->failed)
		return;
	if (rg_too_deep(depth))
	{
		list->failed = true;
		return;
	}
	properties = jx_get(schema, "properties");
	if (properties != NULL && properties->type == JX_OBJECT)
		for (i = 0; i < properties->n && !list->failed; i++)
			add_property(list, schema, &properties->members[i], path, depth);
	items = jx_get(schema, "items");
	if (items != NULL && items->type == JX_OBJECT)
	{
		const char *p = path[0] ? join_path(list, path, "", "[]") : "[]";

		if (p != NULL)
			collect_properties(list, items, p, depth + 1);
	}
}

/* See json_internal.h */
const js_prop *
js_find_prop(const js_prop_list *list, const char *path)
{
	int			i;

	for (i = 0; i < list->n; i++)
		if (strcmp(list->items[i].path, path) == 0)
			return &list->items[i];
	return NULL;
}

/* See json_internal.h */
const char *
js_prop_type_text(const jx *schema, char *buf, size_t size)
{
	const jx   *type = jx_get(schema, "type");
	size_t		used;
	int			i;

	if (type == NULL)
		return NULL;
	if (type->type == JX_STRING)
		return type->text;
	if (type->type != JX_ARRAY)
		return NULL;
	snprintf(buf, size, "[");
	for (i = 0; i < type->n; i++)
	{
		used = strlen(buf);
		snprintf(buf + used, size - used, "%s%s", i > 0 ? ", " : "",
				 type->items[i]->type == JX_STRING ? type->items[i]->text : "?");
	}
	used = strlen(buf);
	snprintf(buf + used, size - used, "]");
	return buf;
}

/* See json_internal.h */
void
js_collect_props(js_prop_list *list, const jx *doc)
{
	collect_properties(list, doc, "", 0);
}

/* See json_internal.h */
void
js_prop_list_free(js_prop_list *list)
{
	rg_free(list->items);
	list->items = NULL;
	list->n = list->cap = 0;
}
