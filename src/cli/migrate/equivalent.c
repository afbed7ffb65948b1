/*-------------------------------------------------------------------------
 *
 * equivalent.c
 *	  Is the schema a target stores the source's schema?  A registry
 *	  stores a schema in Confluent's canonical form, which need not be the
 *	  text the source holds (a hand-written dump, a registry that keeps the
 *	  text as registered).  The texts are equal, or the source's, parsed by
 *	  the core with its references (the registry's own parser), has the
 *	  target's text as its canonical form, plain or normalized.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"
#include "rg_format.h"
#include "rg_json_text.h"

/* the most references (transitively) a schema is parsed with */
#define MIG_MAX_REFS 1000

/* the references of a schema being parsed, each one's own first */
typedef struct MigRefs
{
	rg_reference refs[MIG_MAX_REFS];
	int			n;
	json_t	   *seen;			/* version key -> true */
} MigRefs;

/* add v's references (and theirs, first) from inv; false when one is missing */
static bool
mig_collect_refs(MigInventory *inv, json_t *v, MigRefs *r, int depth)
{
	size_t		i;
	json_t	   *ref;
	const char *subject = json_string_value(json_object_get(v, "subject"));

	if (depth > 100)
		return false;
	json_array_foreach(json_object_get(v, "references"), i, ref)
	{
		const char *rs = json_string_value(json_object_get(ref, "subject"));
		const char *name = json_string_value(json_object_get(ref, "name"));
		char		ctx[256];
		char	   *qs;
		char	   *key;
		json_t	   *target;

		if (rs == NULL || name == NULL || r->n >= MIG_MAX_REFS)
			return false;
		mig_subject_context(subject, ctx, sizeof(ctx));
		qs = (strncmp(rs, ":.", 2) == 0 || strcmp(ctx, ".") == 0)
			? strdup(rs) : mig_printf(":%s:%s", ctx, rs);
		key = mig_version_key(qs, (long) json_integer_value(json_object_get(ref, "version")));
		free(qs);
		target = json_object_get(inv->versions, key);
		if (target == NULL)
		{
			free(key);
			return false;
		}
		if (json_object_get(r->seen, key) == NULL)
		{
			json_object_set_new(r->seen, key, json_true());
			if (!mig_collect_refs(inv, target, r, depth + 1) || r->n >= MIG_MAX_REFS)
			{
				free(key);
				return false;
			}
			r->refs[r->n].name = name;
			r->refs[r->n].schema = json_string_value(json_object_get(target, "schema"));
			r->refs[r->n].schema_len = strlen(r->refs[r->n].schema);
			r->n++;
		}
		free(key);
	}
	return true;
}

/* is text (a target's stored schema) the schema of version v of inv? */
bool
mig_schema_equivalent(MigInventory *inv, json_t *v, const char *text)
{
	const char *schema = json_string_value(json_object_get(v, "schema"));
	const rg_format *format = rg_format_lookup(json_string_value(json_object_get(v, "schemaType")));
	MigRefs    *r;
	bool		same = false;
	int			normalize;

	if (schema == NULL || text == NULL)
		return false;
	if (strcmp(schema, text) == 0)
		return true;
	if (format == NULL)
		return false;
	r = calloc(1, sizeof(MigRefs));
	r->seen = rg_json_new_object();
	if (mig_collect_refs(inv, v, r, 0))
	{
		for (normalize = 0; normalize <= 1 && !same; normalize++)
		{
			rg_error	err;
			rg_schema  *s = format->parse(schema, strlen(schema), r->refs, r->n,
										  normalize == 1, &err);

			if (s == NULL)
				break;
			same = s->canonical != NULL && strcmp(s->canonical, text) == 0;
			rg_schema_free(s);
		}
	}
	json_decref(r->seen);
	free(r);
	return same;
}

/*
 * Are version a of inv (the source) and version b (the target's) the same
 * version: every member equal, the schema equivalent?
 */
bool
mig_same_version(MigInventory *inv, json_t *a, json_t *b)
{
	json_t	   *x = json_deep_copy(a);
	json_t	   *y = json_deep_copy(b);
	bool		same;

	json_object_del(x, "schema");
	json_object_del(y, "schema");
	same = json_equal(x, y) &&
		mig_schema_equivalent(inv, a, json_string_value(json_object_get(b, "schema")));
	json_decref(x);
	json_decref(y);
	return same;
}
