/*-------------------------------------------------------------------------
 *
 * trigger_row.h
 *	  Reading the row a C trigger function was called for, by column name.
 *
 *-------------------------------------------------------------------------
 */
#ifndef TRIGGER_ROW_H
#define TRIGGER_ROW_H

#include "access/htup.h"
#include "access/tupdesc.h"
#include "commands/trigger.h"
#include "fmgr.h"

/* The trigger's data; a call that is not from the trigger manager is refused. */
extern TriggerData *trigger_row_data(FunctionCallInfo fcinfo, const char *name);

/* The attribute number of the column called name (an ERROR if none). */
extern int	trigger_row_column(TupleDesc desc, const char *name);

/* Has the table a column called name (one a later version added)? */
extern bool trigger_row_has_column(TupleDesc desc, const char *name);

/* The column called name of tup, and whether it is NULL. */
extern Datum trigger_row_value(HeapTuple tup, TupleDesc desc, const char *name, bool *isnull);

/* A text or jsonb column as a string (jsonb in its text form); NULL for NULL. */
extern char *trigger_row_text(HeapTuple tup, TupleDesc desc, const char *name);

/* An integer column into *out; false when it is NULL. */
extern bool trigger_row_int(HeapTuple tup, TupleDesc desc, const char *name, int32 *out);

#endif							/* TRIGGER_ROW_H */
