/*-------------------------------------------------------------------------
 *
 * json_lint.c
 *	  The JSON Schema lints: the evolution practices (rg_lint.h), over the
 *	  properties a document declares inline.
 *
 * Each property of an object schema, at any depth ("properties" of a
 * property, and of an array's "items", written a.b and a[].b), is matched
 * by its path with the same property of the latest earlier version:
 *	- FIELD_REMOVED_WITHOUT_DEPRECATION: a property gone whose schema there
 *	  did not say "deprecated": true (reported at the highest property
 *	  gone, not again for the ones under it);
 *	- FIELD_WITHOUT_DEFAULT: a property listed in "required" that was not
 *	  required there (every required one of a first version);
 *	- FIELD_TYPE_CHANGED: a property whose "type" changed, named a
 *	  widening from integer to number, a narrowing the other way.
 * Properties reached only through $ref, allOf and the like are not looked
 * at: the document as written is what a team reviews.
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"
#include "rg_compat.h"

#include <stdio.h>
#include <string.h>

/* one property of a document: its path, its schema, whether it is required */
typedef struct prop_entry
{
	const char *path;
	const jx   *schema;
	bool		required;
} prop_entry;

/* the properties of one document */
typedef struct prop_list
{
	prop_entry *items;
	int			n;
	int			cap;
	bool		failed;
	rg_arena   *arena;
} prop_list;

static void collect_properties(prop_list *list, const jx *schema, const char *path,
							   int depth);

/* Is name listed in the object schema's "required"? */
static bool
listed_required(const jx *schema, const char *name)
{
	const jx   *required = jx_get(schema, "required");
	int			i;

	if (required == NULL || required->type != JX_ARRAY)
		return false;
	for (i = 0; i < required->n; i++)
		if (required->items[i]->type == JX_STRING &&
			strcmp(required->items[i]->text, name) == 0)
			return true;
	return false;
}

/* path + sep + name, in the list's arena */
static const char *
join_path(prop_list *list, const char *path, const char *sep, const char *name)
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
add_property(prop_list *list, const jx *parent, const jx_member *m, const char *path,
			 int depth)
{
	const char *p = join_path(list, path, ".", m->key);

	if (p == NULL)
		return;
	if (list->n == list->cap)
	{
		int			cap = list->cap ? list->cap * 2 : 32;
		prop_entry *items = rg_realloc(list->items, sizeof(*items) * cap);

		if (items == NULL)
		{
			list->failed = true;
			return;
		}
		list->items = items;
		list->cap = cap;
	}
	list->items[list->n].path = p;
	list->items[list->n].schema = m->value;
	list->items[list->n].required = listed_required(parent, m->key);
	list->n++;
	collect_properties(list, m->value, p, depth + 1);
}

/* every property schema declares inline, under path */
static void
collect_properties(prop_list *list, const jx *schema, const char *path, int depth)
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

/* the property of a list at path, or NULL */
static const prop_entry *
find_property(const prop_list *list, const char *path)
{
	int			i;

	for (i = 0; i < list->n; i++)
		if (strcmp(list->items[i].path, path) == 0)
			return &list->items[i];
	return NULL;
}

/* Does the path's parent property (if any) exist in list?  "a.b[].c" has parent "a.b" */
static bool
parent_present(const prop_list *list, const char *path)
{
	const char *dot = strrchr(path, '.');
	char		parent[1024];
	size_t		len;

	if (dot == NULL)
		return true;
	len = (size_t) (dot - path);
	if (len >= 2 && path[len - 2] == '[' && path[len - 1] == ']')
		len -= 2;
	if (len >= sizeof(parent))
		return true;
	memcpy(parent, path, len);
	parent[len] = '\0';
	return find_property(list, parent) != NULL;
}

/* the "type" of a property schema as text (a string, or the array as written), or NULL */
static const char *
type_text(const jx *schema, char *buf, size_t size)
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

/* FIELD_REMOVED_WITHOUT_DEPRECATION: the properties of old that now lacks */
static bool
lint_removed(const prop_list *old, const prop_list *now, rg_strlist *out)
{
	int			i;

	for (i = 0; i < old->n; i++)
	{
		const prop_entry *gone = &old->items[i];
		const jx   *mark = jx_get(gone->schema, "deprecated");

		if (find_property(now, gone->path) != NULL || !parent_present(now, gone->path) ||
			(mark != NULL && mark->type == JX_TRUE))
			continue;
		if (!rg_strlist_pushf(out,
							  "{lintType:'FIELD_REMOVED_WITHOUT_DEPRECATION', description:'The "
							  "property '%s' was removed without being deprecated first: mark it "
							  "\"deprecated\": true in one version, stop writing it, and remove it "
							  "in a later one', additionalInfo:'%s'}",
							  gone->path, gone->path))
			return false;
	}
	return true;
}

/* FIELD_WITHOUT_DEFAULT: the required properties of now that old (or NULL) did not require */
static bool
lint_required(const prop_list *old, const prop_list *now, rg_strlist *out)
{
	int			i;

	for (i = 0; i < now->n; i++)
	{
		const prop_entry *p = &now->items[i];
		const prop_entry *was = old ? find_property(old, p->path) : NULL;

		if (!p->required || (was != NULL && was->required))
			continue;
		if (!rg_strlist_pushf(out,
							  "{lintType:'FIELD_WITHOUT_DEFAULT', description:'The property '%s' "
							  "is %s: a required property can never be removed without breaking "
							  "readers of new data; leave it out of \"required\" and give it a "
							  "\"default\"', additionalInfo:'%s'}",
							  p->path, was != NULL ? "required now and was not" : "required",
							  p->path))
			return false;
	}
	return true;
}

/* FIELD_TYPE_CHANGED: the properties of both whose "type" differs */
static bool
lint_types(const prop_list *old, const prop_list *now, rg_strlist *out)
{
	int			i;
	char		ba[256];
	char		bb[256];

	for (i = 0; i < now->n; i++)
	{
		const prop_entry *p = &now->items[i];
		const prop_entry *was = find_property(old, p->path);
		const char *ta = was ? type_text(was->schema, ba, sizeof(ba)) : NULL;
		const char *tb = type_text(p->schema, bb, sizeof(bb));
		const char *word = "changed";
		const char *what = "data valid under one schema fails the other";

		if (ta == NULL || tb == NULL || strcmp(ta, tb) == 0)
			continue;
		if (strcmp(ta, "integer") == 0 && strcmp(tb, "number") == 0)
		{
			word = "widened";
			what = "old data is valid, but readers of the old schema reject new values that "
				"are not integers";
		}
		else if (strcmp(ta, "number") == 0 && strcmp(tb, "integer") == 0)
		{
			word = "narrowed";
			what = "old values that are not integers fail the new schema";
		}
		if (!rg_strlist_pushf(out,
							  "{lintType:'FIELD_TYPE_CHANGED', description:'The property '%s' "
							  "changed type from %s to %s (%s): %s', "
							  "additionalInfo:'%s: %s -> %s (%s)'}",
							  p->path, ta, tb, word, what, p->path, ta, tb, word))
			return false;
	}
	return true;
}

/* See json_internal.h */
bool
rg_json_lint(const rg_schema *new_schema, const struct rg_prior_version *earlier,
			 int n_earlier, rg_lint_rules rules, rg_strlist *out)
{
	rg_arena   *arena = rg_arena_create();
	prop_list	old = {0};
	prop_list	now = {0};
	bool		have_old = n_earlier > 0 &&
	earlier[n_earlier - 1].schema->format == new_schema->format;
	bool		ok = arena != NULL;

	old.arena = now.arena = arena;
	if (ok && have_old)
		collect_properties(&old, rg_json_document(earlier[n_earlier - 1].schema), "", 0);
	if (ok)
		collect_properties(&now, rg_json_document(new_schema), "", 0);
	ok = ok && !old.failed && !now.failed;
	if (ok && have_old && (rules & RG_LINT_REMOVED_WITHOUT_DEPRECATION))
		ok = lint_removed(&old, &now, out);
	if (ok && (rules & RG_LINT_WITHOUT_DEFAULT))
		ok = lint_required(have_old ? &old : NULL, &now, out);
	if (ok && have_old && (rules & RG_LINT_TYPE_CHANGED))
		ok = lint_types(&old, &now, out);
	rg_free(old.items);
	rg_free(now.items);
	if (arena)
		rg_arena_destroy(arena);
	return ok;
}
