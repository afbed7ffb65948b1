/*-------------------------------------------------------------------------
 *
 * api.c
 *	  The SQL functions of the operations that need the schema parsers
 *	  (register_schema, register_schema_version, tag_schema_version,
 *	  lookup_schema, check_compatibility, lint, get_version,
 *	  resolve_version): their arguments read into the operations' own
 *	  structs, the operation called, its answer formed as a row.
 *
 * The operations themselves are registration.c (the pipeline),
 * registration_match.c, schema_lookup.c, version_reads.c, tag_service.c
 * and check_service.c, which the REST routes call directly.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datetime.h"
#include "utils/jsonb.h"
#include "utils/uuid.h"

#include "catalog.h"
#include "compatibility.h"
#include "confluent_messages.h"
#include "data_contract.h"
#include "read_service.h"
#include "registration.h"
#include "registry.h"
#include "schemas.h"
#include "tags.h"

PG_FUNCTION_INFO_V1(registry_schema_guid);
PG_FUNCTION_INFO_V1(registry_register_schema);
PG_FUNCTION_INFO_V1(registry_register_schema_version);
PG_FUNCTION_INFO_V1(registry_lookup_schema);
PG_FUNCTION_INFO_V1(registry_check_compatibility);
PG_FUNCTION_INFO_V1(registry_lint);
PG_FUNCTION_INFO_V1(registry_tag_schema_version);
PG_FUNCTION_INFO_V1(registry_resolve_version);
PG_FUNCTION_INFO_V1(registry_get_version);

/* Boolean argument n; false when absent or NULL. */
static bool
bool_arg(FunctionCallInfo fcinfo, int n)
{
	return PG_NARGS() > n && !PG_ARGISNULL(n) && PG_GETARG_BOOL(n);
}

/* Argument n as jsonb text, or NULL when absent or NULL. */
static char *
jsonb_arg_text(FunctionCallInfo fcinfo, int n)
{
	if (PG_NARGS() <= n || PG_ARGISNULL(n))
		return NULL;
	return JsonbToCString(NULL, &PG_GETARG_JSONB_P(n)->root, VARSIZE(PG_GETARG_JSONB_P(n)));
}

/*
 * The subject argument (the first) as the caller spelled it into *named,
 * and as it is served (its alias followed); NULL is an error, not a NULL
 * result, so a caller never mistakes "nothing happened" for success.
 */
static char *
served_subject_arg(FunctionCallInfo fcinfo, const char **named)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("subject must not be null")));
	*named = text_to_cstring(PG_GETARG_TEXT_PP(0));
	return registry_served_subject(*named);
}

/*
 * Arguments common to every function here: (subject, schema, schema_type,
 * refs, ...).  NULL subject or schema is an error, not a NULL result, so a
 * caller never mistakes "nothing happened" for success.
 */
static void
read_schema_args(FunctionCallInfo fcinfo, SchemaArgs *a, bool validate_subject)
{
	const char *named;

	a->qualified = served_subject_arg(fcinfo, &named);
	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("schema must not be null"),
				 errdetail("%s", confluent_text(CW_EMPTY_SCHEMA))));
	registry_split_subject_cstr(a->qualified, &a->context, &a->subject);
	if (validate_subject)
		registry_validate_subject(a->qualified, a->subject);
	a->schema = text_to_cstring(PG_GETARG_TEXT_PP(1));
	a->schema_type = PG_ARGISNULL(2) ? "AVRO" : text_to_cstring(PG_GETARG_TEXT_PP(2));
	a->refs = jsonb_arg_text(fcinfo, 3);
	if (a->refs == NULL)
		a->refs = "[]";
}

/*
 * The start of a function that answers with a row (lookup_schema,
 * check_compatibility): its row type and its schema arguments, with
 * normalize at argument normalize_arg.
 */
static TupleDesc
begin_row_call(FunctionCallInfo fcinfo, SchemaArgs *a, int normalize_arg)
{
	TupleDesc	desc;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	desc = BlessTupleDesc(desc);
	read_schema_args(fcinfo, a, false);
	a->normalize = bool_arg(fcinfo, normalize_arg);
	return desc;
}

/*
 * register_schema's arguments (subject, schema, schema_type, refs,
 * normalize, metadata, rule_set, id, version, tags_to_add, tags_to_remove,
 * propagate_tags).
 */
static void
read_registration(FunctionCallInfo fcinfo, Registration *r)
{
	bool		has_id = PG_NARGS() > 7 && !PG_ARGISNULL(7);
	bool		has_version = PG_NARGS() > 8 && !PG_ARGISNULL(8);

	read_schema_args(fcinfo, &r->a, true);
	r->a.normalize = bool_arg(fcinfo, 4);
	r->a.metadata = jsonb_arg_text(fcinfo, 5);
	r->a.rule_set = jsonb_arg_text(fcinfo, 6);
	registry_registration_options(r, has_id, has_id ? PG_GETARG_INT32(7) : 0,
								  has_version, has_version ? PG_GETARG_INT32(8) : 0,
								  jsonb_arg_text(fcinfo, 9), jsonb_arg_text(fcinfo, 10),
								  bool_arg(fcinfo, 11));
}

/* Register the schema a register_schema call gives. */
static void
register_schema(FunctionCallInfo fcinfo, Registered *out)
{
	Registration r;

	read_registration(fcinfo, &r);
	registry_register(&r, out);
}

/* register_schema(...) -> the schema id */
Datum
registry_register_schema(PG_FUNCTION_ARGS)
{
	Registered	r;

	register_schema(fcinfo, &r);
	PG_RETURN_INT32(r.id);
}

/*
 * The row of register_schema_version and tag_schema_version: (schema_id,
 * subject_version, schema_type, stored_schema, schema_refs,
 * schema_metadata, schema_rule_set) as stored.
 */
static Datum
registered_row(FunctionCallInfo fcinfo, Registered *r)
{
	TupleDesc	desc;
	Datum		values[7];
	bool		nulls[7] = {false, false, false, false, false, false, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = Int32GetDatum(r->id);
	values[1] = Int32GetDatum(r->version);
	values[2] = CStringGetTextDatum(r->schema_type);
	values[3] = CStringGetTextDatum(r->schema);
	values[4] = DirectFunctionCall1(jsonb_in, CStringGetDatum(r->refs));
	values[5] = dc_jsonb_datum(r->metadata, &nulls[5]);
	values[6] = dc_jsonb_datum(r->rule_set, &nulls[6]);
	return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls));
}

/* register_schema_version(...) -> the registration's row as stored */
Datum
registry_register_schema_version(PG_FUNCTION_ARGS)
{
	Registered	r;

	register_schema(fcinfo, &r);
	PG_RETURN_DATUM(registered_row(fcinfo, &r));
}

/*
 * The subject and version arguments of resolve_version() and
 * get_version(): the subject as spelled, the same as served, and the
 * version; NULL is an error, as for every function here.
 */
static void
version_call_args(FunctionCallInfo fcinfo, const char **named, const char **served,
				  const char **version_arg)
{
	*served = served_subject_arg(fcinfo, named);
	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("version must not be null")));
	*version_arg = text_to_cstring(PG_GETARG_TEXT_PP(1));
}

/*
 * resolve_version(subject, version, deleted): the context, subject and
 * number of the version named ('latest', -1 or N), with Confluent's
 * errors (registry_requested_version()).
 */
Datum
registry_resolve_version(PG_FUNCTION_ARGS)
{
	const char *named;
	const char *served;
	const char *version_arg;
	char	   *context;
	char	   *subject;
	CatalogVersion v;
	TupleDesc	desc;
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	version_call_args(fcinfo, &named, &served, &version_arg);
	registry_split_subject_cstr(served, &context, &subject);
	registry_requested_version(context, subject, named, version_arg, bool_arg(fcinfo, 2), &v, NULL);
	values[0] = CStringGetTextDatum(context);
	values[1] = CStringGetTextDatum(subject);
	values[2] = Int32GetDatum(v.version);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

/*
 * get_version(subject, version, deleted): registry_read_version()'s row
 * as a registry.subject_version.
 */
Datum
registry_get_version(PG_FUNCTION_ARGS)
{
	const char *named;
	const char *served;
	const char *version_arg;
	CatalogSchemaRow r;
	TupleDesc	desc;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	version_call_args(fcinfo, &named, &served, &version_arg);
	registry_read_version(served, named, version_arg, bool_arg(fcinfo, 2), &r);
	PG_RETURN_DATUM(HeapTupleGetDatum(registry_subject_version_tuple(BlessTupleDesc(desc), &r)));
}

/*
 * tag_schema_version(subject, version, new_version, tags_to_add,
 * tags_to_remove, metadata, rule_set, rules_to_merge, rules_to_remove):
 * registry_tag_version()'s registration as a row.
 */
Datum
registry_tag_schema_version(PG_FUNCTION_ARGS)
{
	CatalogTagRequest t;
	Registered	out;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("subject and version must not be null")));
	memset(&t, 0, sizeof(t));
	t.has_new_version = !PG_ARGISNULL(2);
	t.new_version = t.has_new_version ? PG_GETARG_INT32(2) : 0;
	t.tags_to_add = jsonb_arg_text(fcinfo, 3);
	t.tags_to_remove = jsonb_arg_text(fcinfo, 4);
	t.metadata = jsonb_arg_text(fcinfo, 5);
	t.rule_set = jsonb_arg_text(fcinfo, 6);
	t.rules_to_merge = jsonb_arg_text(fcinfo, 7);
	t.rules_to_remove = jsonb_arg_text(fcinfo, 8);
	(void) registry_tag_version(text_to_cstring(PG_GETARG_TEXT_PP(0)),
								text_to_cstring(PG_GETARG_TEXT_PP(1)), &t, &out);
	PG_RETURN_DATUM(registered_row(fcinfo, &out));
}

/*
 * lookup_schema(subject, schema, schema_type, refs, normalize, deleted,
 * metadata, rule_set): registry_look_up()'s answer as a row.
 */
Datum
registry_lookup_schema(PG_FUNCTION_ARGS)
{
	SchemaArgs	a;
	SubmittedSchema *s;
	bool		deleted = bool_arg(fcinfo, 5);
	CatalogVersion found;
	CatalogSchema stored;
	TupleDesc	desc;
	Datum		values[9];
	bool		nulls[9] = {false, false, false, false, false, false, false, false, false};
	HeapTuple	tuple;

	desc = begin_row_call(fcinfo, &a, 4);
	a.metadata = jsonb_arg_text(fcinfo, 6);
	a.rule_set = jsonb_arg_text(fcinfo, 7);
	s = registry_look_up(&a, deleted, &found, &stored);
	values[0] = CStringGetTextDatum(a.qualified);
	values[1] = Int32GetDatum(found.version);
	values[2] = Int32GetDatum(found.schema_id);
	values[3] = CStringGetTextDatum(s->format->name);
	values[4] = PointerGetDatum(cstring_to_text_with_len(s->parsed->canonical,
														 s->parsed->canonical_len));
	values[5] = DirectFunctionCall1(jsonb_in, CStringGetDatum(s->refs_json));
	values[6] = dc_jsonb_datum(stored.metadata, &nulls[6]);
	values[7] = dc_jsonb_datum(stored.rule_set, &nulls[7]);
	values[8] = BoolGetDatum(found.deleted);
	tuple = heap_form_tuple(desc, values, nulls);
	PG_RETURN_DATUM(HeapTupleGetDatum(tuple));
}

/*
 * check_compatibility(subject, schema, schema_type, refs, version, verbose,
 * normalize, metadata, rule_set) -> (is_compatible, messages):
 * registry_check_submission()'s verdict as a row, messages only when
 * verbose.
 */
Datum
registry_check_compatibility(PG_FUNCTION_ARGS)
{
	SchemaArgs	a;
	CatalogSubmission b;
	bool		verbose = bool_arg(fcinfo, 5);
	CatalogCompatibility verdict;
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {false, true};

	desc = begin_row_call(fcinfo, &a, 6);
	memset(&b, 0, sizeof(b));
	b.schema = a.schema;
	b.schema_type = a.schema_type;
	b.refs = a.refs;
	b.normalize = a.normalize;
	b.metadata = jsonb_arg_text(fcinfo, 7);
	b.rule_set = jsonb_arg_text(fcinfo, 8);
	registry_check_submission(a.qualified, &b,
							  PG_ARGISNULL(4) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(4)),
							  verbose, &verdict);
	values[0] = BoolGetDatum(verdict.is_compatible);
	if (verdict.has_messages)
	{
		Datum	   *elems = palloc(sizeof(Datum) * (list_length(verdict.messages) + 1));
		ListCell   *lc;

		foreach(lc, verdict.messages)
			elems[foreach_current_index(lc)] = CStringGetTextDatum(lfirst(lc));
		values[1] = PointerGetDatum(construct_array(elems, list_length(verdict.messages),
													TEXTOID, -1, false, TYPALIGN_INT));
		nulls[1] = false;
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

/*
 * lint(subject, schema, schema_type, refs) -> setof text: the semantic
 * lints of a schema against every live version of the subject, one
 * message a row, whatever the subject's "lint" config (off by default).
 * An invalid schema is 42201, as for a registration.
 */
Datum
registry_lint(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	SchemaArgs	a;
	SubmittedSchema *s;
	CompatCandidate candidate;
	rg_strlist	messages;
	int			i;

	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	read_schema_args(fcinfo, &a, false);
	s = registry_parse_submitted(a.context, a.schema_type, a.schema, a.refs, NULL, NULL,
								 false, NULL);
	candidate.schema = s->parsed;
	candidate.metadata = NULL;
	candidate.identity = NULL;
	registry_strlist_init(&messages);
	registry_lint_subject(a.context, a.subject, candidate, &messages);
	for (i = 0; i < messages.n; i++)
	{
		Datum		value = CStringGetTextDatum(messages.items[i]);
		bool		isnull = false;

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &value, &isnull);
	}
	return (Datum) 0;
}

/*
 * registry.schema_guid(schema, refs, metadata, rule_set) -> uuid:
 * Confluent's guid of a schema text as given (registry_schema_identity);
 * a stored schema's guid column is this of its stored text.
 */
Datum
registry_schema_guid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *guid = palloc(sizeof(pg_uuid_t));

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	StaticAssertStmt(sizeof(pg_uuid_t) == REGISTRY_FINGERPRINT_LEN, "a guid is a fingerprint");
	registry_schema_identity(text_to_cstring(PG_GETARG_TEXT_PP(0)), jsonb_arg_text(fcinfo, 1),
							 jsonb_arg_text(fcinfo, 2), jsonb_arg_text(fcinfo, 3), guid->data);
	PG_RETURN_UUID_P(guid);
}
