/*-------------------------------------------------------------------------
 *
 * sql_args.c
 *	  The arguments and answers of the SQL functions that wrap the C
 *	  services: a NULL flag reads as false, a NULL optional text as none,
 *	  a NULL required text or a NULL element of a text[] is 22004, and a
 *	  JSON answer becomes jsonb.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "sql_args.h"

/* A JSON text as jsonb, for a function's answer. */
Datum
sql_jsonb_result(const char *text)
{
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(text));
}

/* An optional text argument, NULL when SQL NULL. */
const char *
sql_text_arg(FunctionCallInfo fcinfo, int n)
{
	return PG_ARGISNULL(n) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(n));
}

/* A required text argument: 22004, naming it, when SQL NULL. */
const char *
sql_required_text_arg(FunctionCallInfo fcinfo, int n, const char *name)
{
	if (PG_ARGISNULL(n))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s must not be null", name)));
	return text_to_cstring(PG_GETARG_TEXT_PP(n));
}

/* A boolean argument, false when SQL NULL. */
bool
sql_bool_arg(FunctionCallInfo fcinfo, int n)
{
	return !PG_ARGISNULL(n) && PG_GETARG_BOOL(n);
}

/* A jsonb argument, NULL when SQL NULL. */
Jsonb *
sql_jsonb_arg(FunctionCallInfo fcinfo, int n)
{
	return PG_ARGISNULL(n) ? NULL : PG_GETARG_JSONB_P(n);
}

/*
 * A text[] argument as a List of strings, NIL for NULL; a NULL element is
 * 22004, naming the argument (none of the arrays gives one a meaning, and
 * skipping it would widen what the call asks for)
 */
List *
sql_text_list_arg(FunctionCallInfo fcinfo, int n, const char *name)
{
	Datum	   *elems;
	bool	   *nulls;
	int			count;
	List	   *out = NIL;

	if (PG_ARGISNULL(n))
		return NIL;
	deconstruct_array(PG_GETARG_ARRAYTYPE_P(n), TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &nulls, &count);
	for (int i = 0; i < count; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("%s must not contain nulls", name)));
		out = lappend(out, TextDatumGetCString(elems[i]));
	}
	return out;
}

/*
 * The page of a paged listing from arguments n (page_offset: NULL or
 * negative is 0) and n + 1 (page_limit: NULL, 0 or negative is all, 0
 * out), as the REST listings read offset and limit; a call through a
 * signature without them (an older install script) pages nothing.
 */
void
sql_page_args(FunctionCallInfo fcinfo, int n, int *offset, int *limit)
{
	*offset = PG_NARGS() > n && !PG_ARGISNULL(n) ? Max(PG_GETARG_INT32(n), 0) : 0;
	*limit = PG_NARGS() > n + 1 && !PG_ARGISNULL(n + 1) ? Max(PG_GETARG_INT32(n + 1), 0) : 0;
}
