/*-------------------------------------------------------------------------
 *
 * restore.c
 *	  How the triggers tell a restored row from a raw INSERT.
 *
 * A plain pg_restore or psql -f of a dump runs CREATE EXTENSION, then
 * COPYs the registry's rows back with every trigger enabled.  Those rows
 * were checked when they were first written, and may come back in any
 * order (a READONLY mode before the versions it froze, a schema before
 * the versions its references name), so checking them again as new
 * writes would refuse them.  A row is taken as restored when a superuser
 * inserts it complete, as a dump carries it: with the columns the registry
 * sets (a schema's id and fingerprint, a version's number, a context's
 * sequence) and a creation time before the transaction began, which no
 * row written now can have.  A restored row is checked only for being
 * consistent (its identity is the MD5 of its text, references and
 * contract; ids stay unique through the keys).  A writer can never take
 * this path: only superusers restore, and a superuser may switch the
 * triggers off anyway.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "miscadmin.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"

#include "registry.h"
#include "trigger_row.h"

/*
 * Is a row created at created_at, inserted now, one a restore brings back?
 * The inserting role is the outer one: the contexts trigger runs as the
 * extension's owner.
 */
bool
registry_is_restored_row(TimestampTz created_at)
{
	/* the role outside any SECURITY DEFINER trigger: the one that inserts */
	return superuser_arg(GetOuterUserId()) &&
		created_at < GetCurrentTransactionStartTimestamp();
}

/*
 * Is a trigger's row one a restore brings back: inserted now by a
 * superuser with its time column (created_at, or updated_at for settings)
 * from before the transaction?
 */
bool
registry_trigger_row_restored(HeapTuple tup, TupleDesc desc, const char *time_column)
{
	bool		isnull;
	Datum		at = trigger_row_value(tup, desc, time_column, &isnull);

	return !isnull && registry_is_restored_row(DatumGetTimestampTz(at));
}

PG_FUNCTION_INFO_V1(registry_is_restored_row_sql);

/* registry.is_restored_row(created_at): registry_is_restored_row() for the PL/pgSQL triggers */
Datum
registry_is_restored_row_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!PG_ARGISNULL(0) && registry_is_restored_row(PG_GETARG_TIMESTAMPTZ(0)));
}
