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

#include "catalog.h"
#include "catalog_internal.h"
#include "read_service.h"
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

	registry_split_subject_cstr(registry_served_subject(named), &context, &subject);
	versions = catalog_version_numbers(context, subject, deleted, deleted_only);
	if (versions == NIL && !deleted_only && !missing_ok)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SUBJECT_NOT_FOUND),
				 errmsg("subject \"%s\" not found", named)));
	if (!as_negative || (!deleted && !deleted_only))
		return versions;
	live = deleted_only ? NIL : catalog_version_numbers(context, subject, false, false);
	foreach(lc, versions)
		if (!list_member_int(live, lfirst_int(lc)))
		lfirst_int(lc) = -lfirst_int(lc);
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
