/*-------------------------------------------------------------------------
 *
 * read_service.c
 *	  Confluent's read operations: one C function each, which the REST
 *	  routes call directly and the SQL functions wrap (read_sql.c).
 *
 * A read names a subject as the client spells it; it is served as its
 * alias (registry_served_subject) and read through the catalog module's
 * scans in the statement's snapshot.  Errors name the subject as named.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <string.h>

#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"

#include "catalog.h"
#include "catalog_internal.h"
#include "read_service.h"
#include "registration.h"
#include "registry.h"

/*
 * GET /subjects/{s}/versions: the subject's version numbers in ascending
 * order, the live ones (deleted: also the soft-deleted ones; deleted_only:
 * only those); as_negative gives the soft-deleted ones as negative numbers
 * (Confluent 8.2's deletedAsNegative).  A subject with none is 40401
 * unless deleted_only or missing_ok.
 */
List *
registry_versions(const char *named, bool deleted, bool deleted_only, bool missing_ok,
				  bool as_negative)
{
	char	   *context;
	char	   *subject;
	List	   *versions;
	List	   *live;
	ListCell   *lc;
	ListCell   *next_live;

	registry_split_subject_cstr(registry_served_subject(named), &context, &subject);
	versions = catalog_version_numbers(context, subject, deleted, deleted_only);
	if (versions == NIL && !deleted_only && !missing_ok)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SUBJECT_NOT_FOUND),
				 errmsg("subject \"%s\" not found", named)));
	if (!as_negative || (!deleted && !deleted_only))
		return versions;
	live = deleted_only ? NIL : catalog_version_numbers(context, subject, false, false);
	/* both ascending: one walk of each marks the versions that are not live */
	next_live = list_head(live);
	foreach(lc, versions)
	{
		int			v = lfirst_int(lc);

		while (next_live != NULL && lfirst_int(next_live) < v)
			next_live = lnext(live, next_live);
		if (next_live == NULL || lfirst_int(next_live) != v)
			lfirst_int(lc) = -v;
	}
	return versions;
}

/*
 * GET /subjects: the subjects (context-qualified) that have live versions
 * (deleted: any version; deleted_only: soft-deleted ones and no live one),
 * in (context, subject) order; with a prefix (NULL or ":*:" for all),
 * only those that start with it.
 */
List *
registry_subjects(const char *prefix, bool deleted, bool deleted_only)
{
	int			n;
	CatalogSubjectName *names = catalog_subject_names(&n);
	List	   *out = NIL;

	if (prefix != NULL && strcmp(prefix, ":*:") == 0)
		prefix = NULL;
	for (int i = 0; i < n; i++)
	{
		char	   *qualified = registry_qualify_subject(names[i].context, names[i].subject);
		bool		live;
		bool		soft_deleted;
		bool		listed;

		if (prefix != NULL && strncmp(qualified, prefix, strlen(prefix)) != 0)
			continue;
		catalog_subject_version_kinds(names[i].context, names[i].subject, &live,
									  &soft_deleted);
		if (deleted_only)
			listed = soft_deleted && !live;
		else if (deleted)
			listed = live || soft_deleted;
		else
			listed = live;
		if (listed)
			out = lappend(out, qualified);
	}
	return out;
}

/*
 * GET /contexts: the contexts, the default context first, then in order;
 * never ".__GLOBAL" (it holds config and mode only).  With a prefix
 * (contextPrefix, Confluent 8.2; NULL for all), only the contexts whose
 * name starts with it, with or without the name's leading dot.
 */
List *
registry_contexts(const char *prefix)
{
	List	   *names = catalog_context_names(NULL);
	List	   *out = NIL;
	bool		has_default = false;
	ListCell   *lc;

	foreach(lc, names)
	{
		char	   *name = lfirst(lc);

		if (prefix != NULL && prefix[0] != '\0' &&
			strncmp(name, prefix, strlen(prefix)) != 0 &&
			strncmp(name + 1, prefix, strlen(prefix)) != 0)
			continue;
		if (strcmp(name, REGISTRY_DEFAULT_CONTEXT) == 0)
			has_default = true;
		else if (strcmp(name, REGISTRY_GLOBAL_CONTEXT) != 0)
			out = lappend(out, name);
	}
	if (has_default)
		out = lcons(pstrdup(REGISTRY_DEFAULT_CONTEXT), out);
	return out;
}

/*
 * GET /subjects/{s}/versions/{v}/referencedby: the ids of the schemas that
 * reference the version named ("latest" or N, soft-deleted ones too), in
 * ascending order.
 */
List *
registry_referenced_by(const char *named, const char *version_arg)
{
	char	   *context;
	char	   *subject;
	CatalogVersion v;

	registry_split_subject_cstr(registry_served_subject(named), &context, &subject);
	registry_requested_version(context, subject, named, version_arg, true, &v, NULL);
	return catalog_referencing_ids(context, subject, v.version);
}

/* Does a schema's metadata (jsonb text) have every property of properties? */
static bool
has_properties(const char *metadata, Jsonb *properties)
{
	Jsonb	   *have = NULL;

	if (metadata != NULL)
	{
		Jsonb	   *jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(metadata)));
		JsonbValue	v;

		if (JsonContainerIsObject(&jb->root) &&
			getKeyJsonValueFromContainer(&jb->root, "properties", 10, &v) != NULL)
			have = JsonbValueToJsonb(&v);
	}
	if (have == NULL)
		have = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum("{}")));
	return DatumGetBool(DirectFunctionCall2(jsonb_contains, JsonbPGetDatum(have),
											JsonbPGetDatum(properties)));
}

/*
 * GET /subjects/{s}/metadata: the subject's latest version (soft-deleted
 * ones too when deleted) whose metadata properties hold every key and
 * value of properties (jsonb containment), with its guid and registration
 * time; 40401 for a subject without versions, 40403 when none has them.
 */
void
registry_latest_with_metadata(const char *named, Jsonb *properties, bool deleted,
							  CatalogSchemaRow *out)
{
	char	   *context;
	char	   *subject;
	CatalogVersion latest;
	int			n;
	CatalogVersion *versions;

	registry_split_subject_cstr(registry_served_subject(named), &context, &subject);
	/* the subject must exist (40401), as for every version lookup */
	registry_requested_version(context, subject, named, "latest", deleted, &latest, NULL);
	versions = catalog_versions(context, subject, deleted, &n);
	for (int i = n - 1; i >= 0; i--)
	{
		CatalogSchema s;
		CatalogVersion v;
		TimestampTz created_at;

		/* NULL properties are held by no version, as SQL's @> NULL */
		if (properties == NULL ||
			!catalog_get_schema(context, versions[i].schema_id, &s) ||
			!has_properties(s.metadata, properties) ||
			!catalog_read_version(context, subject, versions[i].version, true, &v, &created_at))
			continue;
		registry_schema_row(out, registry_qualify_subject(context, subject),
							versions[i].version, versions[i].deleted, &s, created_at);
		return;
	}
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
			 errmsg("no version of subject \"%s\" has that metadata", named)));
}
