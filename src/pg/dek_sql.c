/*-------------------------------------------------------------------------
 *
 * dek_sql.c
 *	  The SQL functions of the DEK registry, thin wrappers over
 *	  dek_service.c: registry.list_keks(), get_kek(), create_kek(),
 *	  update_kek(), delete_kek(), undelete_kek(), test_kek(), list_deks(),
 *	  dek_versions(), get_dek(), create_dek(), delete_dek(), undelete_dek()
 *	  and dek_key_material().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "dek_service.h"
#include "sql_args.h"

PG_FUNCTION_INFO_V1(registry_list_keks_sql);
PG_FUNCTION_INFO_V1(registry_get_kek_sql);
PG_FUNCTION_INFO_V1(registry_create_kek_sql);
PG_FUNCTION_INFO_V1(registry_update_kek_sql);
PG_FUNCTION_INFO_V1(registry_delete_kek_sql);
PG_FUNCTION_INFO_V1(registry_undelete_kek_sql);
PG_FUNCTION_INFO_V1(registry_test_kek_sql);
PG_FUNCTION_INFO_V1(registry_list_deks_sql);
PG_FUNCTION_INFO_V1(registry_dek_versions_sql);
PG_FUNCTION_INFO_V1(registry_get_dek_sql);
PG_FUNCTION_INFO_V1(registry_create_dek_sql);
PG_FUNCTION_INFO_V1(registry_delete_dek_sql);
PG_FUNCTION_INFO_V1(registry_undelete_dek_sql);
PG_FUNCTION_INFO_V1(registry_dek_key_material_sql);

/* registry.list_keks(deleted, subject_prefix text[]) -> jsonb, the KEK names */
Datum
registry_list_keks_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_kek_list(sql_bool_arg(fcinfo, 0),
													   sql_text_list_arg(fcinfo, 1, "subject_prefix"))));
}

/* registry.get_kek(name, deleted) -> jsonb */
Datum
registry_get_kek_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_kek_get(sql_text_arg(fcinfo, 0), sql_bool_arg(fcinfo, 1))));
}

/* registry.create_kek(kek jsonb) -> jsonb */
Datum
registry_create_kek_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_kek_create(sql_jsonb_arg(fcinfo, 0))));
}

/* registry.update_kek(name, kek jsonb) -> jsonb */
Datum
registry_update_kek_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_kek_update(sql_text_arg(fcinfo, 0),
														 sql_jsonb_arg(fcinfo, 1))));
}

/* registry.delete_kek(name, permanent) */
Datum
registry_delete_kek_sql(PG_FUNCTION_ARGS)
{
	registry_kek_delete(sql_text_arg(fcinfo, 0), sql_bool_arg(fcinfo, 1));
	PG_RETURN_VOID();
}

/* registry.undelete_kek(name) */
Datum
registry_undelete_kek_sql(PG_FUNCTION_ARGS)
{
	registry_kek_undelete(sql_text_arg(fcinfo, 0));
	PG_RETURN_VOID();
}

/* registry.test_kek(name) -> jsonb */
Datum
registry_test_kek_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_kek_test(sql_text_arg(fcinfo, 0))));
}

/* registry.list_deks(kek_name, deleted) -> jsonb, the subjects */
Datum
registry_list_deks_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_dek_subjects(sql_text_arg(fcinfo, 0),
														   sql_bool_arg(fcinfo, 1))));
}

/* registry.dek_versions(kek_name, subject, algorithm, deleted) -> jsonb */
Datum
registry_dek_versions_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_dek_versions(sql_text_arg(fcinfo, 0), sql_text_arg(fcinfo, 1),
														   sql_text_arg(fcinfo, 2), sql_bool_arg(fcinfo, 3))));
}

/* registry.get_dek(kek_name, subject, version, algorithm, deleted) -> jsonb */
Datum
registry_get_dek_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_dek_get(sql_text_arg(fcinfo, 0), sql_text_arg(fcinfo, 1),
													  sql_text_arg(fcinfo, 2), sql_text_arg(fcinfo, 3),
													  sql_bool_arg(fcinfo, 4))));
}

/* registry.create_dek(kek_name, dek jsonb) -> jsonb */
Datum
registry_create_dek_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_dek_create(sql_text_arg(fcinfo, 0), NULL,
														 sql_jsonb_arg(fcinfo, 1))));
}

/* registry.delete_dek(kek_name, subject, version, algorithm, permanent) */
Datum
registry_delete_dek_sql(PG_FUNCTION_ARGS)
{
	registry_dek_delete(sql_text_arg(fcinfo, 0), sql_text_arg(fcinfo, 1), sql_text_arg(fcinfo, 2),
						sql_text_arg(fcinfo, 3), sql_bool_arg(fcinfo, 4));
	PG_RETURN_VOID();
}

/* registry.undelete_dek(kek_name, subject, version, algorithm) */
Datum
registry_undelete_dek_sql(PG_FUNCTION_ARGS)
{
	registry_dek_undelete(sql_text_arg(fcinfo, 0), sql_text_arg(fcinfo, 1), sql_text_arg(fcinfo, 2),
						  sql_text_arg(fcinfo, 3));
	PG_RETURN_VOID();
}

/* registry.dek_key_material(kek_name, subject, version, algorithm) -> bytea */
Datum
registry_dek_key_material_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(registry_dek_key_material(sql_text_arg(fcinfo, 0), sql_text_arg(fcinfo, 1),
												sql_text_arg(fcinfo, 2), sql_text_arg(fcinfo, 3)));
}
