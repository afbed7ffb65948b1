/*-------------------------------------------------------------------------
 *
 * read_sql.c
 *	  The SQL functions of the read operations, thin wrappers over
 *	  read_service.c: registry.subjects(), registry.versions(),
 *	  registry.list_contexts().
 *
 * They keep the NULL handling of the SQL-language functions they
 * replaced: a NULL flag filters as false; a NULL subject is an error.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "read_service.h"
#include "sql_args.h"

PG_FUNCTION_INFO_V1(registry_subjects_sql);
PG_FUNCTION_INFO_V1(registry_versions_sql);
PG_FUNCTION_INFO_V1(registry_list_contexts_sql);

/*
 * A List as the rows of a set-returning function: of strings (ints false)
 * or of integers (an IntList).
 */
static void
return_list(FunctionCallInfo fcinfo, List *values, bool ints)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ListCell   *lc;

	foreach(lc, values)
	{
		Datum		value = ints ? Int32GetDatum(lfirst_int(lc)) : CStringGetTextDatum(lfirst(lc));
		bool		isnull = false;

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &value, &isnull);
	}
}

/*
 * registry.versions(subject, deleted, deleted_only) -> setof integer; a
 * NULL deleted_only filters as false but raises nothing, as the PL/pgSQL
 * function's "NOT deleted_only" test did.  A NULL subject is 22004 (the
 * PL/pgSQL function failed on it with an internal 55000).
 */
Datum
registry_versions_sql(PG_FUNCTION_ARGS)
{
	const char *subject = sql_required_text_arg(fcinfo, 0, "subject");

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	return_list(fcinfo,
				registry_versions(subject, sql_bool_arg(fcinfo, 1),
								  sql_bool_arg(fcinfo, 2), PG_ARGISNULL(2)),
				true);
	return (Datum) 0;
}

/* registry.subjects(subject_prefix, deleted, deleted_only) -> setof text */
Datum
registry_subjects_sql(PG_FUNCTION_ARGS)
{
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	return_list(fcinfo,
				registry_subjects(sql_text_arg(fcinfo, 0), sql_bool_arg(fcinfo, 1),
								  sql_bool_arg(fcinfo, 2)),
				false);
	return (Datum) 0;
}

/* registry.list_contexts() -> setof text */
Datum
registry_list_contexts_sql(PG_FUNCTION_ARGS)
{
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	return_list(fcinfo, registry_contexts(), false);
	return (Datum) 0;
}
