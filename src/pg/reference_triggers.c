/*-------------------------------------------------------------------------
 *
 * reference_triggers.c
 *	  The references of a new schema as rows of registry.schema_references,
 *	  as the triggers apply them on every write path (a registration, a raw
 *	  INSERT, a restore).
 *
 * A new schema with references gets one row per reference (its position
 * from 1, name, subject and version), written as the extension's owner:
 * no role may write the table.  A restore brings those rows back after the
 * schema's insert made them already; such a row, alike in every column,
 * is not inserted twice.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/trigger.h"

#include "catalog.h"
#include "trigger_row.h"

PG_FUNCTION_INFO_V1(registry_schemas_after_insert);
PG_FUNCTION_INFO_V1(registry_schema_references_before_insert);

/*
 * AFTER INSERT on registry.schemas, for a schema with references (SECURITY
 * DEFINER): its references as rows.
 */
Datum
registry_schemas_after_insert(PG_FUNCTION_ARGS)
{
	TriggerData *trig = trigger_row_data(fcinfo, "schemas_after_insert");
	TupleDesc	desc = trig->tg_relation->rd_att;
	int32		id;

	if (trigger_row_int(trig->tg_trigtuple, desc, "id", &id))
		catalog_insert_schema_references(trigger_row_text(trig->tg_trigtuple, desc, "context"), id,
										 trigger_row_text(trig->tg_trigtuple, desc, "refs"));
	return PointerGetDatum(NULL);
}

/*
 * BEFORE INSERT on registry.schema_references: a row its schema's insert
 * recorded already (a restore brings it again) is left out; any other is
 * inserted (a NULL column meets the table's constraints).
 */
Datum
registry_schema_references_before_insert(PG_FUNCTION_ARGS)
{
	TriggerData *trig = trigger_row_data(fcinfo, "schema_references_before_insert");
	HeapTuple	tup = trig->tg_trigtuple;
	TupleDesc	desc = trig->tg_relation->rd_att;
	CatalogReferenceRow row;

	row.context = trigger_row_text(tup, desc, "context");
	row.name = trigger_row_text(tup, desc, "name");
	row.ref_subject = trigger_row_text(tup, desc, "ref_subject");
	if (row.context != NULL && row.name != NULL && row.ref_subject != NULL &&
		trigger_row_int(tup, desc, "schema_id", &row.schema_id) &&
		trigger_row_int(tup, desc, "position", &row.position) &&
		trigger_row_int(tup, desc, "ref_version", &row.ref_version) &&
		catalog_schema_reference_exists(&row))
		return PointerGetDatum(NULL);
	return PointerGetDatum(tup);
}
