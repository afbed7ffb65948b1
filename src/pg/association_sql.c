/*-------------------------------------------------------------------------
 *
 * association_sql.c
 *	  The SQL functions of the association operations, thin wrappers over
 *	  association_service.c: registry.associations_by_subject(),
 *	  associations_by_resource_name(), associations_by_resource_id(),
 *	  create_association(), upsert_association(), delete_associations(),
 *	  batch_get_associations() and mutate_associations().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "association.h"
#include "sql_args.h"

PG_FUNCTION_INFO_V1(registry_associations_by_subject_sql);
PG_FUNCTION_INFO_V1(registry_associations_by_resource_name_sql);
PG_FUNCTION_INFO_V1(registry_associations_by_resource_id_sql);
PG_FUNCTION_INFO_V1(registry_create_association_sql);
PG_FUNCTION_INFO_V1(registry_upsert_association_sql);
PG_FUNCTION_INFO_V1(registry_delete_associations_sql);
PG_FUNCTION_INFO_V1(registry_batch_get_associations_sql);
PG_FUNCTION_INFO_V1(registry_mutate_associations_sql);

/* The filter of a read: resource type, association types and lifecycle from argument first. */
static void
filter_args(FunctionCallInfo fcinfo, int first, AssociationFilter *f)
{
	memset(f, 0, sizeof(AssociationFilter));
	f->resource_type = sql_text_arg(fcinfo, first);
	f->association_types = sql_text_list_arg(fcinfo, first + 1, "association_types");
	f->lifecycle = sql_text_arg(fcinfo, first + 2);
	f->limit = -1;
}

/* registry.associations_by_subject(subject, resource_type, association_types, lifecycle) */
Datum
registry_associations_by_subject_sql(PG_FUNCTION_ARGS)
{
	AssociationFilter f;
	const char *subject = sql_required_text_arg(fcinfo, 0, "subject");

	filter_args(fcinfo, 1, &f);
	PG_RETURN_DATUM(sql_jsonb_result(registry_associations_by_subject(subject, &f)));
}

/* registry.associations_by_resource_name(name, namespace, resource_type, association_types, lifecycle) */
Datum
registry_associations_by_resource_name_sql(PG_FUNCTION_ARGS)
{
	AssociationFilter f;
	const char *name = sql_required_text_arg(fcinfo, 0, "resource_name");
	const char *namespace = sql_required_text_arg(fcinfo, 1, "resource_namespace");

	filter_args(fcinfo, 2, &f);
	PG_RETURN_DATUM(sql_jsonb_result(registry_associations_by_resource_name(name, namespace, &f)));
}

/* registry.associations_by_resource_id(resource_id, resource_type, association_types, lifecycle) */
Datum
registry_associations_by_resource_id_sql(PG_FUNCTION_ARGS)
{
	AssociationFilter f;
	const char *id = sql_required_text_arg(fcinfo, 0, "resource_id");

	filter_args(fcinfo, 1, &f);
	PG_RETURN_DATUM(sql_jsonb_result(registry_associations_by_resource_id(id, &f)));
}

/* registry.create_association(request, dry_run, context) -> AssociationResponse */
Datum
registry_create_association_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_create_association(sql_jsonb_arg(fcinfo, 0), NULL,
																 sql_text_arg(fcinfo, 2),
																 sql_bool_arg(fcinfo, 1), false)));
}

/* registry.upsert_association(resource_id, request, dry_run, context) -> AssociationResponse */
Datum
registry_upsert_association_sql(PG_FUNCTION_ARGS)
{
	const char *id = sql_required_text_arg(fcinfo, 0, "resource_id");

	PG_RETURN_DATUM(sql_jsonb_result(registry_create_association(sql_jsonb_arg(fcinfo, 1), id,
																 sql_text_arg(fcinfo, 3),
																 sql_bool_arg(fcinfo, 2), true)));
}

/* registry.delete_associations(resource_id, resource_type, association_types, cascade_lifecycle, dry_run) */
Datum
registry_delete_associations_sql(PG_FUNCTION_ARGS)
{
	const char *id = sql_required_text_arg(fcinfo, 0, "resource_id");

	registry_delete_associations(id, sql_text_arg(fcinfo, 1),
								 sql_text_list_arg(fcinfo, 2, "association_types"),
								 sql_bool_arg(fcinfo, 3), sql_bool_arg(fcinfo, 4));
	PG_RETURN_VOID();
}

/* registry.batch_get_associations(request, include_schemas) -> AssociationBatchResponse */
Datum
registry_batch_get_associations_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_batch_get_associations(sql_jsonb_arg(fcinfo, 0),
																	 sql_bool_arg(fcinfo, 1))));
}

/* registry.mutate_associations(request, dry_run, context) -> AssociationBatchResponse */
Datum
registry_mutate_associations_sql(PG_FUNCTION_ARGS)
{
	PG_RETURN_DATUM(sql_jsonb_result(registry_mutate_associations(sql_jsonb_arg(fcinfo, 0),
																  sql_text_arg(fcinfo, 2),
																  sql_bool_arg(fcinfo, 1))));
}
