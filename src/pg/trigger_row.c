/*-------------------------------------------------------------------------
 *
 * trigger_row.c
 *	  Reading the row a C trigger function was called for, by column name,
 *	  for the triggers on the registry's tables (triggers.c, settings.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "trigger_row.h"

/* The trigger's data; a call that is not from the trigger manager is refused. */
TriggerData *
trigger_row_data(FunctionCallInfo fcinfo, const char *name)
{
	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("%s: not called by trigger manager", name)));
	return (TriggerData *) fcinfo->context;
}

/* The attribute number of the column called name, 0 if none. */
static int
column_number(TupleDesc desc, const char *name)
{
	int			i;

	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute attr = TupleDescAttr(desc, i);

		if (!attr->attisdropped && strcmp(NameStr(attr->attname), name) == 0)
			return attr->attnum;
	}
	return 0;
}

/* The attribute number of the column called name (an ERROR if none). */
int
trigger_row_column(TupleDesc desc, const char *name)
{
	int			attnum = column_number(desc, name);

	if (attnum == 0)
		elog(ERROR, "column \"%s\" not found", name);
	return attnum;
}

/* Has the table a column called name (one a later version added)? */
bool
trigger_row_has_column(TupleDesc desc, const char *name)
{
	return column_number(desc, name) != 0;
}

/* The column called name of tup, and whether it is NULL. */
Datum
trigger_row_value(HeapTuple tup, TupleDesc desc, const char *name, bool *isnull)
{
	return heap_getattr(tup, trigger_row_column(desc, name), desc, isnull);
}

/* A text or jsonb column as a string (jsonb in its text form); NULL for NULL. */
char *
trigger_row_text(HeapTuple tup, TupleDesc desc, const char *name)
{
	int			attno = trigger_row_column(desc, name);
	Oid			type = TupleDescAttr(desc, attno - 1)->atttypid;
	bool		isnull;
	Datum		d = heap_getattr(tup, attno, desc, &isnull);
	Oid			output;
	bool		varlena;

	if (isnull)
		return NULL;
	if (type == TEXTOID)
		return TextDatumGetCString(d);
	getTypeOutputInfo(type, &output, &varlena);
	return OidOutputFunctionCall(output, d);
}

/* An integer column into *out; false when it is NULL. */
bool
trigger_row_int(HeapTuple tup, TupleDesc desc, const char *name, int32 *out)
{
	bool		isnull;
	Datum		d = trigger_row_value(tup, desc, name, &isnull);

	if (!isnull)
		*out = DatumGetInt32(d);
	return !isnull;
}
