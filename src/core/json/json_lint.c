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

/* Does the path's parent property (if any) exist in list?  "a.b[].c" has parent "a.b" */
static bool
parent_present(const js_prop_list *list, const char *path)
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
	return js_find_prop(list, parent) != NULL;
}

/* FIELD_REMOVED_WITHOUT_DEPRECATION: the properties of old that now lacks */
static bool
lint_removed(const js_prop_list *old, const js_prop_list *now, rg_strlist *out)
{
	int			i;

	for (i = 0; i < old->n; i++)
	{
		const js_prop *gone = &old->items[i];
		const jx   *mark = jx_get(gone->schema, "deprecated");

		if (js_find_prop(now, gone->path) != NULL || !parent_present(now, gone->path) ||
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
lint_required(const js_prop_list *old, const js_prop_list *now, rg_strlist *out)
{
	int			i;

	for (i = 0; i < now->n; i++)
	{
		const js_prop *p = &now->items[i];
		const js_prop *was = old ? js_find_prop(old, p->path) : NULL;

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
lint_types(const js_prop_list *old, const js_prop_list *now, rg_strlist *out)
{
	int			i;
	char		ba[256];
	char		bb[256];

	for (i = 0; i < now->n; i++)
	{
		const js_prop *p = &now->items[i];
		const js_prop *was = js_find_prop(old, p->path);
		const char *ta = was ? js_prop_type_text(was->schema, ba, sizeof(ba)) : NULL;
		const char *tb = js_prop_type_text(p->schema, bb, sizeof(bb));
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
	js_prop_list old = {0};
	js_prop_list now = {0};
	bool		have_old = n_earlier > 0 &&
	earlier[n_earlier - 1].schema->format == new_schema->format;
	bool		ok = arena != NULL;

	old.arena = now.arena = arena;
	if (ok && have_old)
		js_collect_props(&old, rg_json_document(earlier[n_earlier - 1].schema));
	if (ok)
		js_collect_props(&now, rg_json_document(new_schema));
	ok = ok && !old.failed && !now.failed;
	if (ok && have_old && (rules & RG_LINT_REMOVED_WITHOUT_DEPRECATION))
		ok = lint_removed(&old, &now, out);
	if (ok && (rules & RG_LINT_WITHOUT_DEFAULT))
		ok = lint_required(have_old ? &old : NULL, &now, out);
	if (ok && have_old && (rules & RG_LINT_TYPE_CHANGED))
		ok = lint_types(&old, &now, out);
	js_prop_list_free(&old);
	js_prop_list_free(&now);
	if (arena)
		rg_arena_destroy(arena);
	return ok;
}
