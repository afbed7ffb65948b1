/*-------------------------------------------------------------------------
 *
 * catalog_api.c
 *	  The REST routes' calls of the SQL API (so every rule stays in one
 *	  place), with parameters and schema-qualified names, and their answers
 *	  as C values.  Part of the catalog module (catalog.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "catalog.h"
#include "catalog_internal.h"
#include "schemas.h"

/*
 * A schema row: the columns of registry.subject_version from call (as r),
 * then the schema's guid and when the version was registered (ms since the
 * epoch), found by r's subject and version (SCHEMA_ROW_WITH: then extra).
 */
#define SCHEMA_ROW_FROM(call) SCHEMA_ROW_WITH("", call)
#define SCHEMA_ROW_WITH(extra, call) \
	"SELECT r.subject, r.version, r.id, r.schema_type, r.schema, r.refs::text, " \
	"r.metadata::text, r.rule_set::text, r.deleted, st.guid::text, st.ts" extra " FROM " call " r " \
	"LEFT JOIN LATERAL (SELECT s.guid, " EPOCH_MS("sv.created_at") " AS ts " \
	"FROM registry.split_subject(r.subject) q " \
	"JOIN registry.subject_versions sv ON sv.context = q.context AND sv.subject = q.subject " \
	"AND sv.version = r.version " \
	"JOIN registry.schemas s ON s.context = sv.context AND s.id = sv.schema_id) st ON true"
#define EPOCH_MS(ts) "floor(extract(epoch FROM " ts ") * 1000)::bigint"
#define Anum_schema_row_subject		1
#define Anum_schema_row_version		2
#define Anum_schema_row_id			3
#define Anum_schema_row_schema_type	4
#define Anum_schema_row_schema		5
#define Anum_schema_row_refs		6
#define Anum_schema_row_metadata	7
#define Anum_schema_row_rule_set	8
#define Anum_schema_row_deleted		9
#define Anum_schema_row_guid		10
#define Anum_schema_row_ts			11
#define Anum_schema_row_context		12	/* plan_schema_by_id, _by_guid only */
#define Anum_schema_row_aliases		12	/* plan_list_schemas_with_aliases only */

/* the columns of a schema_info row, in a schema row's order */
#define SCHEMA_INFO_COLUMNS \
	"subject, version, id, schema_type, schema, refs::text, metadata::text, rule_set::text, " \
	"COALESCE(deleted, false), guid::text, " EPOCH_MS("registered_at")

/* the columns of plan_version_stamp */
#define Anum_stamp_guid		1
#define Anum_stamp_ts		2

/* the columns of plan_schema_ids_by_guid */
#define Anum_context_id_context	1
#define Anum_context_id_id		2

/* the columns of plan_schema_versions */
#define Anum_subject_version_subject	1
#define Anum_subject_version_version	2

/* the columns of plan_check */
#define Anum_check_is_compatible	1
#define Anum_check_messages			2

static CatalogPlan plan_schema_by_id = {
	"SELECT " SCHEMA_INFO_COLUMNS ", context FROM registry.schema_by_id($1, $2)",
	2, {INT4OID, TEXTOID}
};
static CatalogPlan plan_schema_by_guid = {
	"SELECT " SCHEMA_INFO_COLUMNS ", context FROM registry.schema_by_guid($1::uuid)",
	1, {TEXTOID}
};
static CatalogPlan plan_schema_ids_by_guid = {
	"SELECT context, id FROM registry.schema_ids_by_guid($1::uuid)",
	1, {TEXTOID}
};
static CatalogPlan plan_schema_serialized = {
	"SELECT registry.schema_serialized($1, $2)",
	2, {INT4OID, TEXTOID}
};
static CatalogPlan plan_max_id = {
	"SELECT max(s.id) FROM registry.schemas s "
	"WHERE s.context = COALESCE((registry.split_subject($1)).context, '.')",
	1, {TEXTOID}
};
static CatalogPlan plan_schema_versions = {
	"SELECT subject_name, version FROM registry.schema_versions($1, $2, $3)",
	3, {INT4OID, TEXTOID, BOOLOID}
};
static CatalogPlan plan_list_schemas = {
	SCHEMA_ROW_FROM("registry.list_schemas($1, $2, $3)"),
	3, {TEXTOID, BOOLOID, BOOLOID}
};
static CatalogPlan plan_list_schemas_with_aliases = {
	SCHEMA_ROW_WITH(", pg_catalog.to_jsonb(r.aliases)::text",
					"(SELECT (t.schema_version).*, t.aliases "
					"FROM registry.list_schemas_with_aliases($1, $2, $3) t)"),
	3, {TEXTOID, BOOLOID, BOOLOID}
};
static CatalogPlan plan_get_version = {
	SCHEMA_ROW_FROM("registry.get_version($1, $2, $3)"),
	3, {TEXTOID, TEXTOID, BOOLOID}
};
static CatalogPlan plan_latest_with_metadata = {
	SCHEMA_ROW_FROM("registry.latest_with_metadata($1, $2::jsonb, $3)"),
	3, {TEXTOID, TEXTOID, BOOLOID}
};
static CatalogPlan plan_referenced_by = {
	"SELECT r FROM registry.referenced_by($1, $2) AS r",
	2, {TEXTOID, TEXTOID}
};

/* the columns of a registration's row, as a schema row */
#define REGISTERED_COLUMNS \
	"SELECT NULL::text, subject_version, schema_id, schema_type, stored_schema, schema_refs::text, " \
	"schema_metadata::text, schema_rule_set::text, false, NULL::text, NULL::bigint FROM "
static CatalogPlan plan_tag = {
	REGISTERED_COLUMNS "registry.tag_schema_version("
	"$1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb, $7::jsonb, $8::jsonb, $9::jsonb)",
	9, {TEXTOID, TEXTOID, INT4OID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID}
};

/* a version's guid and registration time, read after register wrote it */
static CatalogPlan plan_version_stamp = {
	"SELECT s.guid::text, " EPOCH_MS("sv.created_at") " FROM "
	"registry.split_subject(registry.served_subject($1)) q "
	"JOIN registry.subject_versions sv ON sv.context = q.context AND sv.subject = q.subject "
	"AND sv.version = $2 "
	"JOIN registry.schemas s ON s.context = sv.context AND s.id = sv.schema_id",
	2, {TEXTOID, INT4OID}
};
static CatalogPlan plan_check = {
	"SELECT is_compatible, messages FROM registry.check_compatibility($1, $2, $3, $4::jsonb, $5, $6, $7, "
	"$8::jsonb, $9::jsonb)",
	9, {TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, BOOLOID, BOOLOID, TEXTOID, TEXTOID}
};

static CatalogPlan plan_cluster_id = {
	"SELECT pg_catalog.current_database()::text",
	0, {InvalidOid}
};

/* --- parameters and answers ---------------------------------------------- */

/* A text parameter, SQL NULL for a NULL string. */
static Datum
text_or_null(const char *s, char *nulls, int i)
{
	if (s == NULL)
	{
		nulls[i] = 'n';
		return (Datum) 0;
	}
	nulls[i] = ' ';
	return CStringGetTextDatum(s);
}

/* A schema row of the current result into out, its strings in cxt. */
static void
tuple_to_schema_row(HeapTuple tup, MemoryContext cxt, CatalogSchemaRow *out)
{
	Datum		ts;
	bool		isnull;

	out->subject = catalog_text(tup, Anum_schema_row_subject, cxt);
	out->version = catalog_int32(tup, Anum_schema_row_version);
	out->id = catalog_int32(tup, Anum_schema_row_id);
	out->schema_type = catalog_text(tup, Anum_schema_row_schema_type, cxt);
	out->schema = catalog_text(tup, Anum_schema_row_schema, cxt);
	out->refs = catalog_text(tup, Anum_schema_row_refs, cxt);
	out->metadata = catalog_text(tup, Anum_schema_row_metadata, cxt);
	out->rule_set = catalog_text(tup, Anum_schema_row_rule_set, cxt);
	out->deleted = catalog_bool(tup, Anum_schema_row_deleted);
	out->context = NULL;
	out->guid = catalog_text(tup, Anum_schema_row_guid, cxt);
	ts = catalog_datum(tup, Anum_schema_row_ts, &isnull);
	out->has_ts = !isnull;
	out->ts = isnull ? 0 : DatumGetInt64(ts);
	out->aliases = NULL;
}

/* Run a call that answers one schema row, into out. */
static void
schema_row_call(CatalogPlan *p, Datum *v, const char *nulls, CatalogSchemaRow *out)
{
	MemoryContext caller = catalog_connect();
	HeapTuple	tup;

	catalog_run(p, v, nulls, SPI_OK_SELECT);
	tup = catalog_one_row(p);
	tuple_to_schema_row(tup, caller, out);
	/* by id and by guid: the schema's context too */
	out->context = SPI_tuptable->tupdesc->natts >= Anum_schema_row_context ?
		catalog_text(tup, Anum_schema_row_context, caller) : NULL;
	catalog_disconnect();
}

/* Run a call that answers one value: its text (NULL for NULL). */
static char *
text_call(CatalogPlan *p, Datum *v, const char *nulls)
{
	MemoryContext caller = catalog_connect();
	char	   *s;

	catalog_run(p, v, nulls, SPI_OK_SELECT);
	s = catalog_text(catalog_one_row(p), Anum_value, caller);
	catalog_disconnect();
	return s;
}

/* Run a call that answers one integer, into *out: false (and 0) for NULL. */
static bool
int_call(CatalogPlan *p, Datum *v, const char *nulls, int32 *out)
{
	bool		isnull;
	Datum		d;

	catalog_connect();
	catalog_run(p, v, nulls, SPI_OK_SELECT);
	d = catalog_datum(catalog_one_row(p), Anum_value, &isnull);
	*out = isnull ? 0 : DatumGetInt32(d);
	catalog_disconnect();
	return !isnull;
}

/*
 * Run a call that answers a column of text (as_ints false: a List of
 * strings) or of integers (true: an IntList), in the order of its rows.
 */
static List *
list_call(CatalogPlan *p, Datum *v, const char *nulls, bool as_ints)
{
	MemoryContext caller = catalog_connect();
	MemoryContext old;
	List	   *out = NIL;
	uint64		i;

	catalog_run(p, v, nulls, SPI_OK_SELECT);
	old = MemoryContextSwitchTo(caller);
	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];

		if (as_ints)
			out = lappend_int(out, catalog_int32(tup, Anum_value));
		else
			out = lappend(out, catalog_text(tup, Anum_value, caller));
	}
	MemoryContextSwitchTo(old);
	catalog_disconnect();
	return out;
}

/* --- the calls ------------------------------------------------------------- */

/* The cluster's id: the database's name. */
char *
catalog_api_cluster_id(void)
{
	return text_call(&plan_cluster_id, NULL, NULL);
}

/*
 * Run a list_schemas plan (prefix, deleted, latest_only) into a List of
 * CatalogSchemaRow, with their aliases when the plan gives them.
 */
static List *
schema_rows_call(CatalogPlan *plan, const char *subject_prefix, bool deleted,
				 bool latest_only, bool with_aliases)
{
	Datum		v[3];
	char		nulls[3] = "   ";
	MemoryContext caller = catalog_connect();
	MemoryContext old;
	List	   *out = NIL;
	uint64		i;

	v[0] = text_or_null(subject_prefix, nulls, 0);
	v[1] = BoolGetDatum(deleted);
	v[2] = BoolGetDatum(latest_only);
	catalog_run(plan, v, nulls, SPI_OK_SELECT);
	old = MemoryContextSwitchTo(caller);
	for (i = 0; i < SPI_processed; i++)
	{
		CatalogSchemaRow *row = palloc(sizeof(CatalogSchemaRow));

		tuple_to_schema_row(SPI_tuptable->vals[i], caller, row);
		if (with_aliases)
			row->aliases = catalog_text(SPI_tuptable->vals[i], Anum_schema_row_aliases, caller);
		out = lappend(out, row);
	}
	MemoryContextSwitchTo(old);
	catalog_disconnect();
	return out;
}

/* list_schemas(prefix, deleted, latest_only): a List of CatalogSchemaRow. */
List *
catalog_api_list_schemas(const char *subject_prefix, bool deleted, bool latest_only)
{
	return schema_rows_call(&plan_list_schemas, subject_prefix, deleted, latest_only, false);
}

/* list_schemas_with_aliases(prefix, deleted, latest_only): the same, with their aliases. */
List *
catalog_api_list_schemas_with_aliases(const char *subject_prefix, bool deleted, bool latest_only)
{
	return schema_rows_call(&plan_list_schemas_with_aliases, subject_prefix, deleted,
							latest_only, true);
}

/* schema_by_id(id, subject): the schema, and with a subject its subject version. */
void
catalog_api_schema_by_id(int32 id, const char *subject, CatalogSchemaRow *out)
{
	Datum		v[2];
	char		nulls[2] = "  ";

	v[0] = Int32GetDatum(id);
	v[1] = text_or_null(subject, nulls, 1);
	schema_row_call(&plan_schema_by_id, v, nulls, out);
}

/* schema_serialized(id, subject): a PROTOBUF schema's base64 descriptor. */
char *
catalog_api_schema_serialized(int32 id, const char *subject)
{
	Datum		v[2];
	char		nulls[2] = "  ";

	v[0] = Int32GetDatum(id);
	v[1] = text_or_null(subject, nulls, 1);
	return text_call(&plan_schema_serialized, v, nulls);
}

/* The highest schema id in the subject's context; false when it has none. */
bool
catalog_api_max_id(const char *subject, int32 *max_id)
{
	Datum		v[1];
	char		nulls[1];

	v[0] = text_or_null(subject, nulls, 0);
	return int_call(&plan_max_id, v, nulls, max_id);
}

/* schema_versions(id, subject, deleted): a List of CatalogSubjectVersion. */
List *
catalog_api_schema_versions(int32 id, const char *subject, bool deleted)
{
	Datum		v[3];
	char		nulls[3] = "   ";
	MemoryContext caller = catalog_connect();
	MemoryContext old;
	List	   *out = NIL;
	uint64		i;

	v[0] = Int32GetDatum(id);
	v[1] = text_or_null(subject, nulls, 1);
	v[2] = BoolGetDatum(deleted);
	catalog_run(&plan_schema_versions, v, nulls, SPI_OK_SELECT);
	old = MemoryContextSwitchTo(caller);
	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		CatalogSubjectVersion *sv = palloc(sizeof(CatalogSubjectVersion));

		sv->subject = catalog_text(tup, Anum_subject_version_subject, caller);
		sv->version = catalog_int32(tup, Anum_subject_version_version);
		out = lappend(out, sv);
	}
	MemoryContextSwitchTo(old);
	catalog_disconnect();
	return out;
}

/* get_version(subject, version, deleted): the version's schema row. */
void
catalog_api_get_version(const char *subject, const char *version, bool deleted,
						CatalogSchemaRow *out)
{
	Datum		v[3];

	v[0] = CStringGetTextDatum(subject);
	v[1] = CStringGetTextDatum(version);
	v[2] = BoolGetDatum(deleted);
	schema_row_call(&plan_get_version, v, NULL, out);
}

/* latest_with_metadata(subject, properties, deleted): that version's schema row. */
void
catalog_api_latest_with_metadata(const char *subject, const char *properties,
								 bool deleted, CatalogSchemaRow *out)
{
	Datum		v[3];

	v[0] = CStringGetTextDatum(subject);
	v[1] = CStringGetTextDatum(properties);
	v[2] = BoolGetDatum(deleted);
	schema_row_call(&plan_latest_with_metadata, v, NULL, out);
}

/* referenced_by(subject, version): the ids of the schemas that use it. */
List *
catalog_api_referenced_by(const char *subject, const char *version)
{
	Datum		v[2];

	v[0] = CStringGetTextDatum(subject);
	v[1] = CStringGetTextDatum(version);
	return list_call(&plan_referenced_by, v, NULL, true);
}

/* The guid and registration time of subject's version out->version, into out. */
static void
version_stamp(const char *subject, CatalogSchemaRow *out)
{
	Datum		v[2];
	MemoryContext caller = catalog_connect();
	Datum		ts;
	bool		isnull;

	v[0] = CStringGetTextDatum(subject);
	v[1] = Int32GetDatum(out->version);
	catalog_run(&plan_version_stamp, v, NULL, SPI_OK_SELECT);
	if (SPI_processed == 1)
	{
		out->guid = catalog_text(SPI_tuptable->vals[0], Anum_stamp_guid, caller);
		ts = catalog_datum(SPI_tuptable->vals[0], Anum_stamp_ts, &isnull);
		out->has_ts = !isnull;
		out->ts = isnull ? 0 : DatumGetInt64(ts);
	}
	catalog_disconnect();
}

/*
 * The arguments (subject, schema, schema_type, refs) that register, lookup
 * and check begin with, into v[0..3].
 */
static void
submission_args(const char *subject, const CatalogSubmission *s, Datum *v)
{
	v[0] = CStringGetTextDatum(subject);
	v[1] = CStringGetTextDatum(s->schema);
	v[2] = CStringGetTextDatum(s->schema_type);
	v[3] = CStringGetTextDatum(s->refs);
}

/*
 * A registration of the REST route: register_schema_version's work called
 * in C, served under the subject as served (its alias followed); the
 * guid and registration time of a version it did not make are read after.
 * The search_path is pinned for the whole call, as for a statement.
 */
void
catalog_api_register(const char *subject, const char *served, const CatalogSubmission *s,
					 CatalogSchemaRow *out)
{
	int			nestlevel = catalog_pin_search_path();

	registry_register_submission(served, s, out);
	if (!out->has_ts)
		version_stamp(subject, out);
	catalog_unpin_search_path(nestlevel);
}

/* tag_schema_version(...): the new version (no subject). */
void
catalog_api_tag(const char *subject, const char *version, const CatalogTagRequest *t,
				CatalogSchemaRow *out)
{
	Datum		v[9];
	char		nulls[9] = "         ";

	v[0] = CStringGetTextDatum(subject);
	v[1] = CStringGetTextDatum(version);
	v[2] = Int32GetDatum(t->new_version);
	if (!t->has_new_version)
		nulls[2] = 'n';
	v[3] = text_or_null(t->tags_to_add, nulls, 3);
	v[4] = text_or_null(t->tags_to_remove, nulls, 4);
	v[5] = text_or_null(t->metadata, nulls, 5);
	v[6] = text_or_null(t->rule_set, nulls, 6);
	v[7] = text_or_null(t->rules_to_merge, nulls, 7);
	v[8] = text_or_null(t->rules_to_remove, nulls, 8);
	schema_row_call(&plan_tag, v, nulls, out);
	version_stamp(subject, out);
}

/*
 * A lookup of the REST route: lookup_schema's work called in C, in the
 * subject as served (its alias followed), with the guid and registration
 * time of the version found.  The search_path is pinned for the whole
 * call, as for a statement.
 */
void
catalog_api_lookup(const char *served, const CatalogSubmission *s, bool deleted,
				   CatalogSchemaRow *out)
{
	int			nestlevel = catalog_pin_search_path();

	registry_lookup_submission(served, s, deleted, out);
	catalog_unpin_search_path(nestlevel);
}

/*
 * GET /subjects/{s}/versions/{v} of the REST route: get_version's work
 * called in C, as catalog_api_lookup calls lookup_schema's.
 */
void
catalog_api_read_version(const char *subject, const char *served, const char *version,
						 bool deleted, CatalogSchemaRow *out)
{
	int			nestlevel = catalog_pin_search_path();

	registry_read_version(served, subject, version, deleted, out);
	catalog_unpin_search_path(nestlevel);
}

/* check_compatibility(...) against version (NULL: every live version). */
void
catalog_api_check_compatibility(const char *subject, const CatalogSubmission *s,
								const char *version, bool verbose,
								CatalogCompatibility *out)
{
	Datum		v[9];
	char		nulls[9] = "         ";
	MemoryContext caller;
	HeapTuple	tup;
	Datum		messages;
	bool		isnull;

	submission_args(subject, s, v);
	v[4] = text_or_null(version, nulls, 4);
	v[5] = BoolGetDatum(verbose);
	v[6] = BoolGetDatum(s->normalize);
	v[7] = text_or_null(s->metadata, nulls, 7);
	v[8] = text_or_null(s->rule_set, nulls, 8);
	caller = catalog_connect();
	catalog_run(&plan_check, v, nulls, SPI_OK_SELECT);
	tup = catalog_one_row(&plan_check);
	out->is_compatible = catalog_bool(tup, Anum_check_is_compatible);
	messages = catalog_datum(tup, Anum_check_messages, &isnull);
	out->has_messages = !isnull;
	out->messages = NIL;
	if (out->has_messages)
	{
		Datum	   *elems;
		bool	   *enulls;
		int			n;
		int			i;
		MemoryContext old;

		deconstruct_array(DatumGetArrayTypeP(messages), TEXTOID, -1, false,
						  TYPALIGN_INT, &elems, &enulls, &n);
		old = MemoryContextSwitchTo(caller);
		for (i = 0; i < n; i++)
			out->messages = lappend(out->messages, TextDatumGetCString(elems[i]));
		MemoryContextSwitchTo(old);
	}
	catalog_disconnect();
}

/* schema_by_guid(guid): the schema and its context (no subject or version). */
void
catalog_api_schema_by_guid(const char *guid, CatalogSchemaRow *out)
{
	Datum		v[1];

	v[0] = CStringGetTextDatum(guid);
	schema_row_call(&plan_schema_by_guid, v, NULL, out);
}

/* schema_ids_by_guid(guid): a List of CatalogContextId. */
List *
catalog_api_schema_ids_by_guid(const char *guid)
{
	Datum		v[1];
	MemoryContext caller = catalog_connect();
	MemoryContext old;
	List	   *out = NIL;
	uint64		i;

	v[0] = CStringGetTextDatum(guid);
	catalog_run(&plan_schema_ids_by_guid, v, NULL, SPI_OK_SELECT);
	old = MemoryContextSwitchTo(caller);
	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		CatalogContextId *cid = palloc(sizeof(CatalogContextId));

		cid->context = catalog_text(tup, Anum_context_id_context, caller);
		cid->id = catalog_int32(tup, Anum_context_id_id);
		out = lappend(out, cid);
	}
	MemoryContextSwitchTo(old);
	catalog_disconnect();
	return out;
}
