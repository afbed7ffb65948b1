/*-------------------------------------------------------------------------
 *
 * version_triggers.c
 *	  The rules of soft and hard deletes, as the triggers on
 *	  registry.subject_versions apply them to every write path: the delete
 *	  operations (delete_service.c), a DBA's raw UPDATE or DELETE, and a
 *	  logical replication subscriber's apply alike.
 *
 * An UPDATE may only soft-delete (set deleted, never clear it; every
 * other column is the registry's) and needs a writable scope; a soft
 * delete needs no live reference to the version.  A hard delete needs a
 * soft delete first, a writable scope and no live reference (as in
 * Confluent, a soft-deleted referrer protects nothing).  After a hard
 * delete, a schema no version uses any more is removed, and so are the
 * row, config and mode of a subject left without versions.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "commands/trigger.h"
#include "utils/builtins.h"
#include "utils/datum.h"

#include "catalog.h"
#include "confluent_messages.h"
#include "registry.h"
#include "trigger_row.h"

PG_FUNCTION_INFO_V1(registry_versions_before_update);
PG_FUNCTION_INFO_V1(registry_versions_before_delete);
PG_FUNCTION_INFO_V1(registry_versions_after_delete);
PG_FUNCTION_INFO_V1(registry_check_not_referenced_sql);

/* A version row's key: its context, subject and number. */
typedef struct VersionKey
{
	char	   *context;
	char	   *subject;
	int32		version;
} VersionKey;

/* The key of a subject_versions row. */
static VersionKey
version_key(HeapTuple tup, TupleDesc desc)
{
	VersionKey	k;

	k.context = trigger_row_text(tup, desc, "context");
	k.subject = trigger_row_text(tup, desc, "subject");
	(void) trigger_row_int(tup, desc, "version", &k.version);
	return k;
}

/* Is the row's deleted flag set? */
static bool
row_deleted(HeapTuple tup, TupleDesc desc)
{
	bool		isnull;
	Datum		deleted = trigger_row_value(tup, desc, "deleted", &isnull);

	return !isnull && DatumGetBool(deleted);
}

/*
 * Raise 42206 when a schema (a live one, with live_only) references the
 * subject-version.
 */
static void
check_not_referenced(const char *context, const char *subject, int32 version, bool live_only)
{
	if (!catalog_version_referenced(context, subject, version, live_only))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_REFERENCE_EXISTS),
			 errmsg("one or more references exist to subject \"%s\" version %d", subject, version),
			 errdetail("%s", confluent_text(CW_REFERENCE_EXISTS, subject,
											psprintf("%d", version)))));
}

/* Does an UPDATE change any column but deleted? */
static bool
changes_more_than_deleted(TriggerData *trig)
{
	TupleDesc	desc = trig->tg_relation->rd_att;
	int			deleted = trigger_row_column(desc, "deleted");

	for (int i = 1; i <= desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i - 1);
		bool		old_null;
		bool		new_null;
		Datum		old_value;
		Datum		new_value;

		if (att->attisdropped || i == deleted)
			continue;
		old_value = heap_getattr(trig->tg_trigtuple, i, desc, &old_null);
		new_value = heap_getattr(trig->tg_newtuple, i, desc, &new_null);
		if (old_null != new_null ||
			(!old_null && !datumIsEqual(old_value, new_value, att->attbyval, att->attlen)))
			return true;
	}
	return false;
}

/*
 * BEFORE UPDATE on registry.subject_versions: only a soft delete is an
 * update (42205 otherwise: versions are immutable, their creation time
 * included); it needs a writable scope and no live reference (42206).
 */
Datum
registry_versions_before_update(PG_FUNCTION_ARGS)
{
	TriggerData *trig = trigger_row_data(fcinfo, "versions_before_update");
	TupleDesc	desc = trig->tg_relation->rd_att;
	VersionKey	k = version_key(trig->tg_trigtuple, desc);
	bool		was_deleted = row_deleted(trig->tg_trigtuple, desc);
	bool		deleted = row_deleted(trig->tg_newtuple, desc);

	if (changes_more_than_deleted(trig) || (was_deleted && !deleted))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
				 errmsg("a subject version can only be soft-deleted"),
				 errdetail("Versions are immutable; register a new version instead.")));
	registry_check_scope_writable(k.context, k.subject);
	if (deleted && !was_deleted)
		check_not_referenced(k.context, k.subject, k.version, true);
	return PointerGetDatum(trig->tg_newtuple);
}

/*
 * BEFORE DELETE on registry.subject_versions: a hard delete needs a soft
 * delete first (40407), a writable scope and no live reference (42206).
 */
Datum
registry_versions_before_delete(PG_FUNCTION_ARGS)
{
	TriggerData *trig = trigger_row_data(fcinfo, "versions_before_delete");
	TupleDesc	desc = trig->tg_relation->rd_att;
	VersionKey	k = version_key(trig->tg_trigtuple, desc);

	if (!row_deleted(trig->tg_trigtuple, desc))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_VERSION_NOT_SOFT_DELETED),
				 errmsg("subject \"%s\" version %d was not deleted first before being permanently deleted",
						registry_qualify_subject(k.context, k.subject), k.version)));
	registry_check_scope_writable(k.context, k.subject);
	check_not_referenced(k.context, k.subject, k.version, true);
	return PointerGetDatum(trig->tg_trigtuple);
}

/*
 * AFTER DELETE on registry.subject_versions (SECURITY DEFINER: writers do
 * not write schemas' or settings' rows): a schema id no version uses any
 * more is removed; a subject left without versions loses its row, its
 * config and its mode, as in Confluent.
 */
Datum
registry_versions_after_delete(PG_FUNCTION_ARGS)
{
	TriggerData *trig = trigger_row_data(fcinfo, "versions_after_delete");
	TupleDesc	desc = trig->tg_relation->rd_att;
	VersionKey	k = version_key(trig->tg_trigtuple, desc);
	int32		schema_id = 0;

	(void) trigger_row_int(trig->tg_trigtuple, desc, "schema_id", &schema_id);
	catalog_remove_unused(k.context, k.subject, schema_id);
	return PointerGetDatum(NULL);
}

/* registry.check_not_referenced(context, subject, version, live_only): 42206 when referenced */
Datum
registry_check_not_referenced_sql(PG_FUNCTION_ARGS)
{
	check_not_referenced(text_to_cstring(PG_GETARG_TEXT_PP(0)),
						 text_to_cstring(PG_GETARG_TEXT_PP(1)),
						 PG_GETARG_INT32(2), PG_GETARG_BOOL(3));
	PG_RETURN_VOID();
}
