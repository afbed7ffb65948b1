/*-------------------------------------------------------------------------
 *
 * read_sql.c
 *	  The SQL functions of the read operations, thin wrappers over
 *	  read_service.c and schema_service.c: registry.subjects(),
 *	  versions(), list_contexts(), referenced_by(), latest_with_metadata(),
 *	  schema_by_id(), schema_by_guid(), schema_ids_by_guid(),
 *	  schema_versions(), list_schemas(), list_schemas_with_aliases(),
 *	  list_schemas_by_association(); and
 *	  fingerprint_guid(), the guid of registry.schemas' generated column.
 *
 * They keep the NULL handling of the SQL and PL/pgSQL functions they
 * replaced: a NULL flag filters as false (latest_only as true, as the
 * SQL function's "NOT latest_only OR ..." kept only the latest rows);
 * a NULL subject is an error; a NULL id or guid is not found.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "utils/uuid.h"

#include "association.h"
#include "data_contract.h"
#include "read_service.h"
#include "registration.h"
#include "registry.h"
#include "schema_service.h"
#include "schemas.h"
#include "sql_args.h"

PG_FUNCTION_INFO_V1(registry_subjects_sql);
PG_FUNCTION_INFO_V1(registry_versions_sql);
PG_FUNCTION_INFO_V1(registry_list_contexts_sql);
PG_FUNCTION_INFO_V1(registry_referenced_by_sql);
PG_FUNCTION_INFO_V1(registry_latest_with_metadata_sql);
PG_FUNCTION_INFO_V1(registry_schema_by_id_sql);
PG_FUNCTION_INFO_V1(registry_schema_by_guid_sql);
PG_FUNCTION_INFO_V1(registry_schema_ids_by_guid_sql);
PG_FUNCTION_INFO_V1(registry_schema_versions_sql);
PG_FUNCTION_INFO_V1(registry_list_schemas_sql);
PG_FUNCTION_INFO_V1(registry_list_schemas_with_aliases_sql);
PG_FUNCTION_INFO_V1(registry_list_schemas_by_association_sql);
PG_FUNCTION_INFO_V1(registry_fingerprint_guid_sql);

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
	int			offset;
	int			limit;

	sql_page_args(fcinfo, 3, &offset, &limit);
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	return_list(fcinfo,
				registry_versions(subject, sql_bool_arg(fcinfo, 1),
								  sql_bool_arg(fcinfo, 2), PG_ARGISNULL(2), false, offset, limit),
				true);
	return (Datum) 0;
}

/*
 * registry.subjects(subject_prefix, deleted, deleted_only, page_offset,
 * page_limit) -> setof text
 */
Datum
registry_subjects_sql(PG_FUNCTION_ARGS)
{
	int			offset;
	int			limit;

	sql_page_args(fcinfo, 3, &offset, &limit);
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	return_list(fcinfo,
				registry_subjects(sql_text_arg(fcinfo, 0), sql_bool_arg(fcinfo, 1),
								  sql_bool_arg(fcinfo, 2), offset, limit),
				false);
	return (Datum) 0;
}

/* registry.list_contexts() -> setof text */
Datum
registry_list_contexts_sql(PG_FUNCTION_ARGS)
{
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	return_list(fcinfo, registry_contexts(NULL), false);
	return (Datum) 0;
}

/* registry.referenced_by(subject, version) -> setof integer */
Datum
registry_referenced_by_sql(PG_FUNCTION_ARGS)
{
	const char *subject = sql_required_text_arg(fcinfo, 0, "subject");

	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("version must not be null")));
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	return_list(fcinfo, registry_referenced_by(subject, text_to_cstring(PG_GETARG_TEXT_PP(1))),
				true);
	return (Datum) 0;
}

/* A jsonb value of jsonb text (NULL: SQL NULL). */
static Datum
jsonb_value(const char *json, bool *isnull)
{
	*isnull = json == NULL;
	return json == NULL ? (Datum) 0 : DirectFunctionCall1(jsonb_in, CStringGetDatum(json));
}

/* A schema row as a registry.subject_version tuple of desc. */
HeapTuple
registry_subject_version_tuple(TupleDesc desc, const CatalogSchemaRow *r)
{
	Datum		values[9];
	bool		nulls[9] = {false, false, false, false, false, false, false, false, false};

	values[0] = CStringGetTextDatum(r->subject);
	values[1] = Int32GetDatum(r->version);
	values[2] = Int32GetDatum(r->id);
	values[3] = CStringGetTextDatum(r->schema_type);
	values[4] = CStringGetTextDatum(r->schema);
	values[5] = jsonb_value(r->refs, &nulls[5]);
	values[6] = jsonb_value(r->metadata, &nulls[6]);
	values[7] = jsonb_value(r->rule_set, &nulls[7]);
	values[8] = BoolGetDatum(r->deleted);
	return heap_form_tuple(desc, values, nulls);
}

/* The row type of a function that returns one row. */
static TupleDesc
result_row_type(FunctionCallInfo fcinfo)
{
	TupleDesc	desc;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	return BlessTupleDesc(desc);
}

/* registry.latest_with_metadata(subject, properties, deleted) -> registry.subject_version */
Datum
registry_latest_with_metadata_sql(PG_FUNCTION_ARGS)
{
	const char *subject = sql_required_text_arg(fcinfo, 0, "subject");
	TupleDesc	desc = result_row_type(fcinfo);
	CatalogSchemaRow row;

	registry_latest_with_metadata(subject, PG_ARGISNULL(1) ? NULL : PG_GETARG_JSONB_P(1),
								  sql_bool_arg(fcinfo, 2), &row);
	PG_RETURN_DATUM(HeapTupleGetDatum(registry_subject_version_tuple(desc, &row)));
}

/* A fingerprint's guid as a uuid datum (registry_fingerprint_guid's text). */
static Datum
guid_datum(const uint8 *fingerprint)
{
	return DirectFunctionCall1(uuid_in, CStringGetDatum(registry_fingerprint_guid(fingerprint)));
}

/* A SchemaInfo as a registry.schema_info tuple of desc. */
static Datum
schema_info_datum(TupleDesc desc, const SchemaInfo *info)
{
	Datum		values[12];
	bool		nulls[12] = {false, false, false, false, false, false,
	false, false, false, false, false, false};
	const CatalogSchema *s = &info->schema;

	values[0] = Int32GetDatum(s->id);
	values[1] = CStringGetTextDatum(s->schema_type);
	values[2] = CStringGetTextDatum(s->schema);
	values[3] = jsonb_value(s->refs, &nulls[3]);
	values[4] = jsonb_value(s->metadata, &nulls[4]);
	values[5] = jsonb_value(s->rule_set, &nulls[5]);
	values[6] = guid_datum(s->fingerprint);
	values[7] = CStringGetTextDatum(s->context);
	nulls[8] = nulls[9] = nulls[10] = info->subject == NULL;
	if (info->subject != NULL)
	{
		values[8] = CStringGetTextDatum(info->subject);
		values[9] = Int32GetDatum(info->version);
		values[10] = BoolGetDatum(info->deleted);
	}
	values[11] = TimestampTzGetDatum(info->registered_at);
	return HeapTupleGetDatum(heap_form_tuple(desc, values, nulls));
}

/* 40403 for a NULL id or guid, as the PL/pgSQL functions raised it. */
static void
null_not_found(FunctionCallInfo fcinfo)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
				 errmsg("schema <NULL> not found")));
}

/* registry.schema_by_id(id, subject) -> registry.schema_info */
Datum
registry_schema_by_id_sql(PG_FUNCTION_ARGS)
{
	TupleDesc	desc = result_row_type(fcinfo);
	SchemaInfo	info;

	null_not_found(fcinfo);
	registry_schema_by_id(PG_GETARG_INT32(0), sql_text_arg(fcinfo, 1), &info);
	PG_RETURN_DATUM(schema_info_datum(desc, &info));
}

/* registry.schema_by_guid(guid) -> registry.schema_info */
Datum
registry_schema_by_guid_sql(PG_FUNCTION_ARGS)
{
	TupleDesc	desc = result_row_type(fcinfo);
	SchemaInfo	info;

	null_not_found(fcinfo);
	registry_schema_by_guid(PG_GETARG_UUID_P(0)->data, &info);
	PG_RETURN_DATUM(schema_info_datum(desc, &info));
}

/* registry.schema_ids_by_guid(guid) -> setof (context, id) */
Datum
registry_schema_ids_by_guid_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	CatalogSchema *found;
	int			n = 0;

	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0))
		return (Datum) 0;
	found = registry_schema_ids_by_guid(PG_GETARG_UUID_P(0)->data, &n);
	for (int i = 0; i < n; i++)
	{
		Datum		values[2];
		bool		nulls[2] = {false, false};

		values[0] = CStringGetTextDatum(found[i].context);
		values[1] = Int32GetDatum(found[i].id);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * registry.schema_versions(id, subject, deleted, page_offset, page_limit)
 * -> setof (subject_name, version)
 */
Datum
registry_schema_versions_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	List	   *uses;
	ListCell   *lc;
	int			offset;
	int			limit;

	null_not_found(fcinfo);
	InitMaterializedSRF(fcinfo, 0);
	sql_page_args(fcinfo, 3, &offset, &limit);
	uses = registry_schema_versions(PG_GETARG_INT32(0), sql_text_arg(fcinfo, 1),
									sql_bool_arg(fcinfo, 2), false, offset, limit);
	foreach(lc, uses)
	{
		CatalogSubjectVersion *use = lfirst(lc);
		Datum		values[2];
		bool		nulls[2] = {false, false};

		values[0] = CStringGetTextDatum(use->subject);
		values[1] = Int32GetDatum(use->version);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * The listing of list_schemas(subject_prefix, deleted, latest_only,
 * page_offset, page_limit) (aliases: of list_schemas_with_aliases()).
 */
static List *
listing_rows(FunctionCallInfo fcinfo, bool aliases)
{
	SchemaListing q;

	memset(&q, 0, sizeof(q));
	q.prefix = sql_text_arg(fcinfo, 0);
	q.deleted = sql_bool_arg(fcinfo, 1);
	q.latest_only = PG_ARGISNULL(2) || PG_GETARG_BOOL(2);
	q.aliases = aliases;
	sql_page_args(fcinfo, 3, &q.offset, &q.limit);
	return registry_list_schemas(&q);
}

/* registry.list_schemas(subject_prefix, deleted, latest_only, page_offset, page_limit) */
Datum
registry_list_schemas_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	foreach(lc, listing_rows(fcinfo, false))
		tuplestore_puttuple(rsinfo->setResult,
							registry_subject_version_tuple(rsinfo->setDesc, lfirst(lc)));
	return (Datum) 0;
}

/* A JSON array of strings as a text[] datum. */
static Datum
text_array_of_json(const char *json)
{
	Jsonb	   *jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(json)));
	int			n = JsonContainerSize(&jb->root);
	Datum	   *elems = palloc(sizeof(Datum) * (n + 1));

	for (int i = 0; i < n; i++)
	{
		JsonbValue *v = getIthJsonbValueFromContainer(&jb->root, i);

		elems[i] = PointerGetDatum(cstring_to_text_with_len(v->val.string.val, v->val.string.len));
	}
	return PointerGetDatum(construct_array(elems, n, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * registry.list_schemas_with_aliases(subject_prefix, deleted, latest_only)
 * -> table (schema_version registry.subject_version, aliases text[])
 */
Datum
registry_list_schemas_with_aliases_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	TupleDesc	row_desc;
	ListCell   *lc;

	InitMaterializedSRF(fcinfo, 0);
	row_desc = BlessTupleDesc(lookup_rowtype_tupdesc_copy(TupleDescAttr(rsinfo->setDesc, 0)->atttypid,
														  -1));
	foreach(lc, listing_rows(fcinfo, true))
	{
		CatalogSchemaRow *row = lfirst(lc);
		Datum		values[2];
		bool		nulls[2] = {false, row->aliases == NULL};

		values[0] = HeapTupleGetDatum(registry_subject_version_tuple(row_desc, row));
		values[1] = row->aliases == NULL ? (Datum) 0 : text_array_of_json(row->aliases);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * registry.list_schemas_by_association(subject_prefix, resource_type,
 * association_types, lifecycles, deleted, latest_only)
 * -> table (schema_version registry.subject_version, associations jsonb):
 * GET /schemas by association, its rows unpaged; a lifecycle but STRONG,
 * WEAK and NONE is 22023
 */
Datum
registry_list_schemas_by_association_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	TupleDesc	row_desc;
	SchemaListing q;
	ListCell   *lc;

	memset(&q, 0, sizeof(q));
	q.prefix = sql_text_arg(fcinfo, 0);
	q.by_association = true;
	q.resource_type = sql_text_arg(fcinfo, 1);
	q.association_types = sql_text_list_arg(fcinfo, 2, "association_types");
	foreach(lc, sql_text_list_arg(fcinfo, 3, "lifecycles"))
	{
		const char *name = lfirst(lc);
		int			bit = association_lifecycle_bit(name);

		if (bit == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid lifecycle \"%s\"", name),
					 errhint("A lifecycle is STRONG, WEAK or NONE.")));
		q.lifecycles |= bit;
	}
	q.deleted = sql_bool_arg(fcinfo, 4);
	q.latest_only = sql_bool_arg(fcinfo, 5);
	InitMaterializedSRF(fcinfo, 0);
	row_desc = BlessTupleDesc(lookup_rowtype_tupdesc_copy(TupleDescAttr(rsinfo->setDesc, 0)->atttypid,
														  -1));
	foreach(lc, registry_list_schemas(&q))
	{
		CatalogSchemaRow *row = lfirst(lc);
		Datum		values[2];
		bool		nulls[2] = {false, false};

		values[0] = HeapTupleGetDatum(registry_subject_version_tuple(row_desc, row));
		values[1] = sql_jsonb_result(row->associations ? row->associations : "[]");
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * registry.fingerprint_guid(fingerprint) -> uuid: Confluent's guid of a
 * schema, registry_fingerprint_guid(), for the generated column
 * registry.schemas.guid (one computation, in C).
 */
Datum
registry_fingerprint_guid_sql(PG_FUNCTION_ARGS)
{
	bytea	   *fp = PG_GETARG_BYTEA_PP(0);

	if (VARSIZE_ANY_EXHDR(fp) != REGISTRY_FINGERPRINT_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a fingerprint is %d bytes", REGISTRY_FINGERPRINT_LEN)));
	PG_RETURN_DATUM(guid_datum((const uint8 *) VARDATA_ANY(fp)));
}
