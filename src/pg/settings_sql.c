/*-------------------------------------------------------------------------
 *
 * settings_sql.c
 *	  The SQL functions of the config and mode operations, thin wrappers
 *	  over settings_service.c: registry.get_config(), set_config(),
 *	  delete_config(), get/set/delete_compatibility() and
 *	  get/set/delete_mode().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "settings_service.h"
#include "sql_args.h"

PG_FUNCTION_INFO_V1(registry_get_config_sql);
PG_FUNCTION_INFO_V1(registry_set_config_sql);
PG_FUNCTION_INFO_V1(registry_delete_config_sql);
PG_FUNCTION_INFO_V1(registry_get_compatibility_sql);
PG_FUNCTION_INFO_V1(registry_set_compatibility_sql);
PG_FUNCTION_INFO_V1(registry_delete_compatibility_sql);
PG_FUNCTION_INFO_V1(registry_get_mode_sql);
PG_FUNCTION_INFO_V1(registry_set_mode_sql);
PG_FUNCTION_INFO_V1(registry_delete_mode_sql);

/* registry.get_config(subject, default_to_global) -> jsonb */
Datum
registry_get_config_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_get_config(sql_text_arg(fcinfo, 0),
														 sql_bool_arg(fcinfo, 1))));
}

/* registry.set_config(subject, config jsonb) -> jsonb, the request as taken */
Datum
registry_set_config_sql(PG_FUNCTION_ARGS)
{
	char	   *request = "null";

	if (!PG_ARGISNULL(1))
	{
		Jsonb	   *jb = PG_GETARG_JSONB_P(1);

		request = JsonbToCString(NULL, &jb->root, VARSIZE(jb));
	}
	PG_RETURN_DATUM(sql_jsonb_result(registry_set_config(sql_text_arg(fcinfo, 0), request, NULL)));
}

/* registry.delete_config(subject) -> jsonb, the configuration removed */
Datum
registry_delete_config_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_delete_config(sql_text_arg(fcinfo, 0))));
}

/* registry.get_compatibility(subject, default_to_global) -> text */
Datum
registry_get_compatibility_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(registry_get_compatibility(sql_text_arg(fcinfo, 0),
																sql_bool_arg(fcinfo, 1))));
}

/* registry.set_compatibility(level, subject) -> text */
Datum
registry_set_compatibility_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(registry_set_compatibility(sql_text_arg(fcinfo, 0),
																sql_text_arg(fcinfo, 1))));
}

/* registry.delete_compatibility(subject) -> text */
Datum
registry_delete_compatibility_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(registry_delete_compatibility(sql_text_arg(fcinfo, 0))));
}

/* registry.get_mode(subject, default_to_global) -> text */
Datum
registry_get_mode_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(registry_get_mode(sql_text_arg(fcinfo, 0),
													   sql_bool_arg(fcinfo, 1))));
}

/* registry.set_mode(mode, subject, force) -> text */
Datum
registry_set_mode_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(registry_set_mode(sql_text_arg(fcinfo, 0),
													   sql_text_arg(fcinfo, 1),
													   sql_bool_arg(fcinfo, 2))));
}

/* registry.delete_mode(subject) -> text */
Datum
registry_delete_mode_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(registry_delete_mode(sql_text_arg(fcinfo, 0), false)));
}
