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
 * registration_match.c, schema_lookup.c and version_reads.c, which the
 * REST routes call too.
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

/* A SchemaTags list argument; NULL when absent, NULL or empty. */
static const char *
tag_list_arg(FunctionCallInfo fcinfo, int n)
{
	char	   *list = jsonb_arg_text(fcinfo, n);

	return list == NULL || strcmp(list, "[]") == 0 ? NULL : list;
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
	Datum		values[9];
	bool		nulls[9] = {false, false, false, false, false, false, false, false, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	version_call_args(fcinfo, &named, &served, &version_arg);
	registry_read_version(served, named, version_arg, bool_arg(fcinfo, 2), &r);
	values[0] = CStringGetTextDatum(r.subject);
	values[1] = Int32GetDatum(r.version);
	values[2] = Int32GetDatum(r.id);
	values[3] = CStringGetTextDatum(r.schema_type);
	values[4] = CStringGetTextDatum(r.schema);
	values[5] = DirectFunctionCall1(jsonb_in, CStringGetDatum(r.refs));
	values[6] = dc_jsonb_datum(r.metadata, &nulls[6]);
	values[7] = dc_jsonb_datum(r.rule_set, &nulls[7]);
	values[8] = BoolGetDatum(r.deleted);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

/*
 * Confluent's maybeModifyPreviousRuleSet: without rulesToMerge and
 * rulesToRemove the request's rule set; with them, the rule set of the
 * version before new_version (the latest without it) with rulesToMerge
 * merged in and the rules named in rulesToRemove taken out.
 */
static char *
tagged_rule_set(SchemaArgs *a, int32 new_version, char *rule_set,
				const char *to_merge, const char *to_remove)
{
	CatalogVersion v;
	CatalogSchema old;
	char	   *base = NULL;

	if (to_merge == NULL && to_remove == NULL)
		return rule_set;
	if (rule_set != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_RULE_SET),
				 errmsg("a rule set and rules to merge or remove are given together"),
				 errdetail("ruleSet should be omitted if specifying rulesToMerge or rulesToRemove")));
	(void) dc_rule_set_canonical(to_merge);
	if ((new_version > 0 ? catalog_get_version(a->context, a->subject, new_version - 1, false, &v) :
		 catalog_latest_version(a->context, a->subject, &v)) &&
		catalog_get_schema(a->context, v.schema_id, &old))
		base = old.rule_set;
	if (to_merge != NULL)
		base = dc_rule_set_merge(base, to_merge);
	return to_remove != NULL ? dc_rule_set_without(base, to_remove) : base;
}

/*
 * tag_schema_version(subject, version, new_version, tags_to_add,
 * tags_to_remove, metadata, rule_set, rules_to_merge, rules_to_remove):
 * Confluent's POST /subjects/{s}/versions/{v}/tags (modifySchemaTags).  The
 * version's schema with the tags added and removed, its metadata (or the
 * given one) with confluent:version, and its rule set as
 * tagged_rule_set() makes it, registered as version new_version (or the
 * next one) under every rule of a registration.
 */
Datum
registry_tag_schema_version(PG_FUNCTION_ARGS)
{
	Registration r;
	Registered	out;
	CatalogVersion v;
	CatalogSchema stored;
	const char *version_arg;

	memset(&r, 0, sizeof(r));
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("subject and version must not be null")));
	r.a.qualified = registry_served_subject(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	registry_split_subject_cstr(r.a.qualified, &r.a.context, &r.a.subject);
	registry_validate_subject(r.a.qualified, r.a.subject);
	version_arg = text_to_cstring(PG_GETARG_TEXT_PP(1));
	r.has_version = !PG_ARGISNULL(2);
	r.want_version = r.has_version ? PG_GETARG_INT32(2) : 0;
	(void) dc_rule_set_canonical(jsonb_arg_text(fcinfo, 6));
	r.a.rule_set = tagged_rule_set(&r.a, r.want_version, jsonb_arg_text(fcinfo, 6),
								   jsonb_arg_text(fcinfo, 7), jsonb_arg_text(fcinfo, 8));
	registry_requested_version(r.a.context, r.a.subject, r.a.qualified, version_arg, false, &v, NULL);
	if (!catalog_get_schema(r.a.context, v.schema_id, &stored))
		elog(ERROR, "schema %d of a live version not found", v.schema_id);
	r.a.schema_type = stored.schema_type;
	r.a.refs = stored.refs;
	r.a.schema = registry_rewrite_tags(registry_stored_schema(r.a.context, stored.id,
															  stored.fingerprint),
									   tag_list_arg(fcinfo, 3), tag_list_arg(fcinfo, 4));
	r.a.metadata = jsonb_arg_text(fcinfo, 5);
	if (r.a.metadata == NULL)
		r.a.metadata = stored.metadata;
	r.a.metadata = dc_metadata_with_version(r.a.metadata, r.want_version);
	registry_register(&r, &out);
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
 * The versions a check_compatibility against one named version looks at:
 * the latest live one for 'latest' (none when the subject has no
 * versions), else version N, which must exist: 40402 otherwise, even for
 * a subject that does not exist, as Confluent answers.
 */
static CatalogVersion *
named_version(SchemaArgs *a, const char *version_arg, int *n)
{
	int32		v = DatumGetInt32(DirectFunctionCall1(registry_parse_version,
													  CStringGetTextDatum(version_arg)));
	CatalogVersion *versions = palloc(sizeof(CatalogVersion));

	if (v == -1)
	{
		*n = catalog_latest_version(a->context, a->subject, versions) ? 1 : 0;
		return versions;
	}
	if (!catalog_get_version(a->context, a->subject, v, false, versions))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_VERSION_NOT_FOUND),
				 errmsg("version %s not found", version_arg)));
	*n = 1;
	return versions;
}

/* The (is_compatible, messages) row; messages only when verbose. */
static HeapTuple
compatibility_row(FunctionCallInfo fcinfo, TupleDesc desc, bool compatible, bool verbose,
				  const rg_strlist *messages)
{
	Datum		values[2];
	bool		nulls[2] = {false, true};

	values[0] = BoolGetDatum(compatible);
	if (verbose)
	{
		Datum	   *elems = palloc(sizeof(Datum) * (messages->n + 1));
		int			i;

		for (i = 0; i < messages->n; i++)
			elems[i] = CStringGetTextDatum(messages->items[i]);
		values[1] = PointerGetDatum(construct_array(elems, messages->n, TEXTOID, -1, false, TYPALIGN_INT));
		nulls[1] = false;
	}
	return heap_form_tuple(desc, values, nulls);
}

/*
 * check_compatibility(subject, schema, schema_type, refs, version, verbose,
 * normalize, metadata, rule_set) -> (is_compatible, messages).  version
 * 'latest' or N tests against that one version (a subject without versions
 * is compatible with 'latest'); version NULL tests against every live
 * version as a registration would; the metadata chooses the
 * compatibilityGroup and gives the confluent:reserved fields.  With verbose, an invalid schema is a negative
 * verdict carrying the parser's words instead of an error.
 */
Datum
registry_check_compatibility(PG_FUNCTION_ARGS)
{
	SchemaArgs	a;
	SubmittedSchema *s;
	bool		verbose = bool_arg(fcinfo, 5);
	char	   *version_arg = PG_ARGISNULL(4) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(4));
	char	   *parse_error = NULL;
	CatalogSettings settings;
	CompatRule	rule;
	CompatCandidate candidate;
	CatalogVersion *versions = NULL;
	int			n = 0;
	rg_strlist	messages;
	bool		compatible;
	TupleDesc	desc;
	HeapTuple	tuple;

	desc = begin_row_call(fcinfo, &a, 6);
	registry_strlist_init(&messages);
	if (version_arg != NULL)
		versions = named_version(&a, version_arg, &n);
	catalog_effective_settings(a.context, a.subject, &settings);
	if (!a.normalize)
		a.normalize = settings.normalize;
	s = registry_parse_submitted(a.context, a.schema_type, a.schema, a.refs,
								 jsonb_arg_text(fcinfo, 7), jsonb_arg_text(fcinfo, 8), a.normalize,
								 verbose ? &parse_error : NULL);
	if (s == NULL)
	{
		compatible = false;
		rg_strlist_pushf(&messages, "Invalid schema %s with refs %s of type %s, details: %s",
						 a.schema, a.refs, a.schema_type, parse_error);
	}
	else
	{
		candidate.schema = s->parsed;
		candidate.metadata = s->metadata;
		candidate.identity = NULL;
		rule = registry_compat_rule(&settings);
		if (version_arg == NULL)
			compatible = registry_check_subject(a.context, a.subject, candidate, rule,
												&messages);
		else
			compatible = registry_check_versions(a.context, candidate, rule, versions, n,
												 &messages);
	}
	tuple = compatibility_row(fcinfo, desc, compatible, verbose, &messages);
	PG_RETURN_DATUM(HeapTupleGetDatum(tuple));
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
