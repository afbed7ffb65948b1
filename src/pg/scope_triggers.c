/*-------------------------------------------------------------------------
 *
 * scope_triggers.c
 *	  The rules of new contexts and subjects, as the triggers on
 *	  registry.contexts and registry.subjects apply them to every write
 *	  path (a registration makes both rows; a DBA may insert them).
 *
 * A new context must be able to hold subjects and be writable; the
 * registry gives it its own id sequence.  A new subject needs a writable
 * scope; a subject row is never updated (it only serialises the writers
 * of the subject, by its row lock).  Both get the transaction's time as
 * their creation time, except a row a restore brings back (restore.c),
 * which is kept as it was.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "commands/trigger.h"
#include "utils/timestamp.h"

#include "catalog.h"
#include "registry.h"
#include "trigger_row.h"

PG_FUNCTION_INFO_V1(registry_contexts_before_insert);
PG_FUNCTION_INFO_V1(registry_subjects_before_insert);
PG_FUNCTION_INFO_V1(registry_subjects_before_update);

/* The new row with the given columns set (n of them), formed in the trigger's memory. */
static HeapTuple
row_with(TriggerData *trig, int n, const char **columns, Datum *values)
{
	TupleDesc	desc = trig->tg_relation->rd_att;
	int			attnos[2];
	bool		nulls[2] = {false, false};

	for (int i = 0; i < n; i++)
		attnos[i] = trigger_row_column(desc, columns[i]);
	return heap_modify_tuple_by_cols(trig->tg_trigtuple, desc, n, attnos, values, nulls);
}

/*
 * BEFORE INSERT on registry.contexts (SECURITY DEFINER: it makes the
 * context's sequence): the context must hold subjects (42208) and be
 * writable (42205); the registry chooses its id sequence (42205 when the
 * writer gives one) and its creation time.  A restored context keeps its
 * time and the sequence the registry gave it.
 */
Datum
registry_contexts_before_insert(PG_FUNCTION_ARGS)
{
	TriggerData *trig = trigger_row_data(fcinfo, "contexts_before_insert");
	TupleDesc	desc = trig->tg_relation->rd_att;
	char	   *context = trigger_row_text(trig->tg_trigtuple, desc, "context");
	bool		no_sequence;
	Datum		given = trigger_row_value(trig->tg_trigtuple, desc, "id_sequence", &no_sequence);
	const char *columns[2] = {"id_sequence", "created_at"};
	Datum		values[2];

	if (context == NULL)
		return PointerGetDatum(trig->tg_trigtuple); /* the NOT NULL
													 * constraint's */
	registry_check_context(context);
	if (registry_trigger_row_restored(trig->tg_trigtuple, trig->tg_relation->rd_att, "created_at") && !no_sequence &&
		DatumGetObjectId(given) == catalog_context_id_sequence(context))
		return PointerGetDatum(trig->tg_trigtuple);
	registry_check_scope_writable(context, "");
	if (!no_sequence)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
				 errmsg("the id sequence of a context is chosen by the registry"),
				 errdetail("Insert the context without id_sequence.")));
	values[0] = ObjectIdGetDatum(catalog_context_id_sequence(context));
	values[1] = TimestampTzGetDatum(GetCurrentTransactionStartTimestamp());
	return PointerGetDatum(row_with(trig, 2, columns, values));
}

/*
 * BEFORE INSERT on registry.subjects: a new subject needs a writable scope
 * (42205); it gets the time it was made.
 */
Datum
registry_subjects_before_insert(PG_FUNCTION_ARGS)
{
	TriggerData *trig = trigger_row_data(fcinfo, "subjects_before_insert");
	TupleDesc	desc = trig->tg_relation->rd_att;
	char	   *context = trigger_row_text(trig->tg_trigtuple, desc, "context");
	char	   *subject = trigger_row_text(trig->tg_trigtuple, desc, "subject");
	const char *columns[1] = {"created_at"};
	Datum		values[1];

	if (registry_trigger_row_restored(trig->tg_trigtuple, trig->tg_relation->rd_att, "created_at"))
		return PointerGetDatum(trig->tg_trigtuple);
	if (context != NULL && subject != NULL)
		registry_check_scope_writable(context, subject);
	values[0] = TimestampTzGetDatum(GetCurrentTransactionStartTimestamp());
	return PointerGetDatum(row_with(trig, 1, columns, values));
}

/* BEFORE UPDATE on registry.subjects: a subject row is only created, locked and removed (42205). */
Datum
registry_subjects_before_update(PG_FUNCTION_ARGS)
{
	(void) trigger_row_data(fcinfo, "subjects_before_update");
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
			 errmsg("subjects are not updated"),
			 errdetail("A subject row only serialises the writers of the subject.")));
	PG_RETURN_NULL();
}
