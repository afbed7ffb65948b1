/*-------------------------------------------------------------------------
 *
 * delete_service.c
 *	  Confluent's delete operations, DELETE /subjects/{s}/versions/{v} and
 *	  DELETE /subjects/{s} (soft, or permanent with ?permanent=true): one C
 *	  function each, which the REST routes call directly and
 *	  registry.delete_version() and registry.delete_subject() wrap.
 *
 * An operation locks the subject, finds what the request names (40401,
 * 40402, and Confluent's soft-delete answers 40404 and 40406), then writes
 * one row at a time.  What a row write may do is the triggers' to decide
 * (triggers.c, with rules.c): a hard delete needs a soft delete first
 * (40405, 40407), a writable scope and no live reference (42206); a
 * subject left without versions takes its config and mode along.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "catalog.h"
#include "confluent_messages.h"
#include "delete_service.h"
#include "registry.h"

PG_FUNCTION_INFO_V1(registry_delete_version_sql);
PG_FUNCTION_INFO_V1(registry_delete_subject_sql);
PG_FUNCTION_INFO_V1(registry_delete_context_sql);

/* The subject a request names, as served (its alias followed), split. */
typedef struct Target
{
	const char *named;
	char	   *context;
	char	   *subject;
} Target;

/*
 * The subject a delete names, locked as SELECT ... FOR UPDATE would lock
 * it (nothing is made for a subject without a row), with its versions in
 * order (soft-deleted ones included).
 */
static CatalogVersion *
locked_subject(const char *named, Target *t, int *n)
{
	t->named = named;
	registry_split_subject_cstr(registry_served_subject(named), &t->context, &t->subject);
	(void) catalog_lock_existing_subject(t->context, t->subject);
	return catalog_versions(t->context, t->subject, true, n);
}

/* Raise 40401 for a subject the delete found nothing of. */
static void
report_subject_not_found(const Target *t)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_SUBJECT_NOT_FOUND),
			 errmsg("subject \"%s\" not found", t->named)));
}

/*
 * DELETE /subjects/{s}/versions/{v}: soft-delete a live version, or
 * (permanent) remove a soft-deleted one; "latest" is the highest version
 * the request may see (live ones, or any with permanent).  Returns the
 * version deleted.
 */
int32
registry_delete_version(const char *named, const char *version, bool permanent)
{
	int32		wanted = registry_version_number(version);
	Target		t;
	int			n;
	CatalogVersion *versions = locked_subject(named, &t, &n);
	int32		target = 0;
	const CatalogVersion *found = NULL;

	for (int i = 0; i < n; i++)
		if (permanent || !versions[i].deleted)
			target = Max(target, versions[i].version);
	if (target == 0)
		report_subject_not_found(&t);
	if (wanted != -1)
		target = wanted;
	for (int i = 0; i < n; i++)
		if (versions[i].version == target)
			found = &versions[i];
	if (found == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_VERSION_NOT_FOUND),
				 errmsg("version %s not found", version)));
	if (permanent)
		catalog_hard_delete_version(t.context, t.subject, target);
	else if (found->deleted)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_VERSION_SOFT_DELETED),
				 errmsg("subject \"%s\" version %d was soft deleted", named, target),
				 errhint("Set permanent to true to delete it permanently.")));
	else
		catalog_soft_delete_version(t.context, t.subject, target);
	return target;
}

/*
 * DELETE /subjects/{s}: soft-delete every live version, or (permanent)
 * remove every version of a subject whose versions are all soft-deleted,
 * newest first.  Returns the versions deleted, in ascending order.
 */
List *
registry_delete_subject(const char *named, bool permanent)
{
	Target		t;
	int			n;
	CatalogVersion *versions = locked_subject(named, &t, &n);
	List	   *deleted = NIL;
	int			live = 0;

	if (n == 0)
		report_subject_not_found(&t);
	for (int i = 0; i < n; i++)
		if (!versions[i].deleted)
			live++;
	if (permanent && live > 0)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SUBJECT_NOT_SOFT_DELETED),
				 errmsg("subject \"%s\" was not deleted first before being permanently deleted",
						named)));
	if (!permanent && live == 0)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SUBJECT_SOFT_DELETED),
				 errmsg("subject \"%s\" was soft deleted", named),
				 errhint("Set permanent to true to delete it permanently.")));
	for (int i = n - 1; i >= 0; i--)
	{
		if (permanent)
			catalog_hard_delete_version(t.context, t.subject, versions[i].version);
		else if (!versions[i].deleted)
			catalog_soft_delete_version(t.context, t.subject, versions[i].version);
		else
			continue;
		deleted = lcons_int(versions[i].version, deleted);
	}
	return deleted;
}

/* registry.delete_version(subject, version, permanent) -> the version deleted */
Datum
registry_delete_version_sql(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	PG_RETURN_INT32(registry_delete_version(text_to_cstring(PG_GETARG_TEXT_PP(0)),
											text_to_cstring(PG_GETARG_TEXT_PP(1)),
											!PG_ARGISNULL(2) && PG_GETARG_BOOL(2)));
}

/* registry.delete_subject(subject, permanent) -> setof the versions deleted */
Datum
registry_delete_subject_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	List	   *deleted;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	if (PG_ARGISNULL(0))
		return (Datum) 0;
	deleted = registry_delete_subject(text_to_cstring(PG_GETARG_TEXT_PP(0)),
									  !PG_ARGISNULL(1) && PG_GETARG_BOOL(1));
	foreach(lc, deleted)
	{
		Datum		value = Int32GetDatum(lfirst_int(lc));
		bool		isnull = false;

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &value, &isnull);
	}
	return (Datum) 0;
}

/*
 * Delete an empty context (Confluent 8.1's DELETE /contexts/{context}):
 * named with or without its leading dot; 40401 when there is no such
 * context, 42211 while a subject of it has a version (soft-deleted ones
 * too), 42205 for the default context.  Its settings, the schemas and
 * subjects hard deletes left, its row and its id sequence go.
 */
void
registry_delete_context(const char *named)
{
	char	   *context = named[0] == '.' ? pstrdup(named) : psprintf(".%s", named);
	bool		has_versions;

	if (strcmp(context, REGISTRY_DEFAULT_CONTEXT) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
				 errmsg("the default context cannot be deleted"),
				 errdetail("The default context cannot be deleted.")));
	if (strchr(context, ':') != NULL || !catalog_lock_context(context, &has_versions))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SUBJECT_NOT_FOUND),
				 errmsg("context \"%s\" not found", named),
				 errdetail("%s", confluent_text(CW_SUBJECT_NOT_FOUND, named))));
	if (has_versions)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_CONTEXT_NOT_EMPTY),
				 errmsg("context \"%s\" is not empty", context),
				 errdetail("%s", confluent_text(CW_CONTEXT_NOT_EMPTY, named))));
	catalog_delete_context(context);
}

/* registry.delete_context(context): the context deleted (registry_delete_context) */
Datum
registry_delete_context_sql(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("context must not be null")));
	registry_delete_context(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	PG_RETURN_VOID();
}
