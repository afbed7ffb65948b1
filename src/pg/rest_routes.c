/*-------------------------------------------------------------------------
 *
 * rest_routes.c
 *	  The Confluent REST routes.  Each one reads the request, calls the SQL
 *	  API (catalog_rest.c) and writes Confluent's JSON shape, omitting empty
 *	  fields as Confluent's Jackson NON_EMPTY does.  Errors are ereport()s
 *	  of the SQL API; rest.c turns them into Confluent error bodies.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "catalog.h"
#include "confluent_messages.h"
#include "registry.h"
#include "rest_internal.h"
#include "rg_format.h"

#define REGISTRY_VERSION_STRING "0.1.0"

/* --- SPI helpers --------------------------------------------------------- */

static void
spi_begin(void)
{
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
}

static char *
col_text(uint64 row, int col)
{
	return SPI_getvalue(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col);
}

static Datum
col_datum(uint64 row, int col, bool *isnull)
{
	return SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col, isnull);
}

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

/* --- JSON pieces ---------------------------------------------------------- */

static void
json_key(StringInfo out, bool *first, const char *key)
{
	if (!*first)
		appendStringInfoChar(out, ',');
	*first = false;
	escape_json(out, key);
	appendStringInfoChar(out, ':');
}

/* a jsonb text that is not empty ([] or {}) */
static bool
json_nonempty(const char *s)
{
	return s != NULL && strcmp(s, "[]") != 0 && strcmp(s, "{}") != 0;
}

/*
 * Confluent's Schema entity from a row of (subject, version, id,
 * schema_type, schema, refs, metadata, rule_set, deleted).
 */
static void
append_schema_row_as(StringInfo out, uint64 row, bool with_subject, bool with_version,
					 const char *schema)
{
	bool		first = true;
	char	   *refs = col_text(row, 6);
	char	   *metadata = col_text(row, 7);
	char	   *rule_set = col_text(row, 8);
	char	   *deleted = col_text(row, 9);

	appendStringInfoChar(out, '{');
	if (with_subject)
	{
		json_key(out, &first, "subject");
		escape_json(out, col_text(row, 1));
		json_key(out, &first, "version");
		appendStringInfoString(out, col_text(row, 2));
	}
	json_key(out, &first, "id");
	appendStringInfoString(out, col_text(row, 3));
	if (with_version && !with_subject)
	{
		json_key(out, &first, "version");
		appendStringInfoString(out, col_text(row, 2));
	}
	json_key(out, &first, "schemaType");
	escape_json(out, col_text(row, 4));
	if (json_nonempty(refs))
	{
		json_key(out, &first, "references");
		appendStringInfoString(out, refs);
	}
	if (json_nonempty(metadata))
	{
		json_key(out, &first, "metadata");
		appendStringInfoString(out, metadata);
	}
	if (json_nonempty(rule_set))
	{
		json_key(out, &first, "ruleSet");
		appendStringInfoString(out, rule_set);
	}
	json_key(out, &first, "schema");
	escape_json(out, schema ? schema : col_text(row, 5));
	if (deleted && strcmp(deleted, "t") == 0)
	{
		json_key(out, &first, "deleted");
		appendStringInfoString(out, "true");
	}
	appendStringInfoChar(out, '}');
}

static void
append_schema_row(StringInfo out, uint64 row, bool with_subject, bool with_version)
{
	append_schema_row_as(out, row, with_subject, with_version, NULL);
}

/* every row's first column as a JSON array of numbers or strings */
static void
append_column_array(RestCall *c, bool quoted)
{
	uint64		i;
	int			n = 0;

	appendStringInfoChar(&c->out, '[');
	for (i = 0; i < SPI_processed; i++)
	{
		if (!rest_page_includes(c, (int) i, 0))
			continue;
		if (n++ > 0)
			appendStringInfoChar(&c->out, ',');
		if (quoted)
			escape_json(&c->out, col_text(i, 1));
		else
			appendStringInfoString(&c->out, col_text(i, 1));
	}
	appendStringInfoChar(&c->out, ']');
}

/* --- path pieces ------------------------------------------------------------ */

/*
 * A schema id from the path.  Anything but a positive int is Jersey's 404
 * for an unmatched path parameter.
 */
static bool
path_id(RestCall *c, const char *s, int32 *id)
{
	char	   *end;
	long		v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < 0 || v > PG_INT32_MAX)
	{
		rest_error(c, 404, 404, confluent_text(CW_HTTP_NOT_FOUND));
		return false;
	}
	*id = (int32) v;
	c->schema_id = pstrdup(s);
	return true;
}

/* --- routes: root, metadata, contexts ------------------------------------- */

static void
h_root(RestCall *c)
{
	appendStringInfoString(&c->out, "{}");
}

static void
h_schema_types(RestCall *c)
{
	int			i;

	appendStringInfoChar(&c->out, '[');
	for (i = 0; rg_format_at(i) != NULL; i++)
	{
		if (i > 0)
			appendStringInfoChar(&c->out, ',');
		escape_json(&c->out, rg_format_at(i)->name);
	}
	appendStringInfoChar(&c->out, ']');
}

static void
h_metadata_id(RestCall *c)
{
	spi_begin();
	catalog_run(&rest_plan_cluster_id, NULL, NULL, SPI_OK_SELECT);
	appendStringInfoString(&c->out, "{\"id\":");
	escape_json(&c->out, col_text(0, 1));
	appendStringInfoString(&c->out, ",\"scope\":{\"path\":[],\"clusters\":{\"schema-registry-cluster\":");
	escape_json(&c->out, col_text(0, 1));
	appendStringInfoString(&c->out, "}}}");
	SPI_finish();
}

static void
h_metadata_version(RestCall *c)
{
	appendStringInfoString(&c->out, "{\"version\":\"" REGISTRY_VERSION_STRING "\",\"commitId\":\"registry\"}");
}

static void
h_contexts(RestCall *c)
{
	spi_begin();
	catalog_run(&rest_plan_contexts, NULL, NULL, SPI_OK_SELECT);
	append_column_array(c, true);
	SPI_finish();
}

/* --- routes: /schemas -------------------------------------------------------- */

static void
h_schemas_list(RestCall *c)
{
	Datum		v[3];
	char		nulls[3];
	uint64		i;
	int			n = 0;

	v[0] = text_or_null(rest_param(c, "subjectPrefix"), nulls, 0);
	v[1] = BoolGetDatum(rest_param_bool(c, "deleted"));
	nulls[1] = ' ';
	v[2] = BoolGetDatum(rest_param_bool(c, "latestOnly"));
	nulls[2] = ' ';
	spi_begin();
	catalog_run(&rest_plan_list_schemas, v, nulls, SPI_OK_SELECT);
	appendStringInfoChar(&c->out, '[');
	for (i = 0; i < SPI_processed; i++)
	{
		/* schema.search.default.limit = schema.search.max.limit = 1000 */
		if (!rest_page_includes(c, (int) i, 1000))
			continue;
		if (n++ > 0)
			appendStringInfoChar(&c->out, ',');
		append_schema_row(&c->out, i, true, true);
	}
	appendStringInfoChar(&c->out, ']');
	SPI_finish();
}

/*
 * The schema text of row 0 of the current SPI result (column col) in the
 * format the request asks for: format=serialized gives a PROTOBUF schema
 * as base64 FileDescriptorProto; other formats are ignored, as Confluent
 * ignores unknown ones.  Runs inside SPI; the result is palloc'd.
 */
static char *
formatted_schema(RestCall *c, int32 id, const char *subject, const char *type, int col)
{
	const char *format = rest_param(c, "format");
	char	   *text = pstrdup(col_text(0, col));

	if (format && strcmp(format, "serialized") == 0 && strcmp(type, "PROTOBUF") == 0)
	{
		Datum		v[2];
		char		nulls[2];
		SPITupleTable *saved = SPI_tuptable;

		v[0] = Int32GetDatum(id);
		nulls[0] = ' ';
		v[1] = text_or_null(subject, nulls, 1);
		catalog_run(&rest_plan_schema_serialized, v, nulls, SPI_OK_SELECT);
		text = pstrdup(col_text(0, 1));
		/* the caller goes on reading its own row (SPI keeps it until SPI_finish) */
		SPI_tuptable = saved;
	}
	return text;
}

static void
h_schema_by_id(RestCall *c)
{
	int32		id;
	Datum		v[2];
	char		nulls[2];
	const char *subject = rest_param(c, "subject");
	bool		first = true;
	char	   *refs;
	char	   *metadata;
	char	   *rule_set;
	char	   *type;
	char	   *schema_text;

	if (!path_id(c, c->seg[2], &id))
		return;
	v[0] = Int32GetDatum(id);
	nulls[0] = ' ';
	v[1] = text_or_null(subject, nulls, 1);
	spi_begin();
	catalog_run(&rest_plan_schema_by_id, v, nulls, SPI_OK_SELECT);
	refs = col_text(0, 4);
	metadata = col_text(0, 5);
	rule_set = col_text(0, 6);
	type = col_text(0, 2);
	schema_text = formatted_schema(c, id, subject, type, 3);
	appendStringInfoChar(&c->out, '{');
	json_key(&c->out, &first, "schemaType");
	escape_json(&c->out, type);
	if (json_nonempty(refs))
	{
		json_key(&c->out, &first, "references");
		appendStringInfoString(&c->out, refs);
	}
	if (json_nonempty(metadata))
	{
		json_key(&c->out, &first, "metadata");
		appendStringInfoString(&c->out, metadata);
	}
	if (json_nonempty(rule_set))
	{
		json_key(&c->out, &first, "ruleSet");
		appendStringInfoString(&c->out, rule_set);
	}
	json_key(&c->out, &first, "schema");
	escape_json(&c->out, schema_text);
	if (rest_param_bool(c, "fetchMaxId"))
	{
		Datum		mv[1];
		char		mnulls[1];

		mv[0] = text_or_null(subject, mnulls, 0);
		catalog_run(&rest_plan_max_id, mv, mnulls, SPI_OK_SELECT);
		json_key(&c->out, &first, "maxId");
		appendStringInfoString(&c->out, col_text(0, 1));
	}
	appendStringInfoChar(&c->out, '}');
	SPI_finish();
}

/* GET /schemas/ids/{id}/schema: the schema itself, not wrapped */
static void
h_schema_by_id_raw(RestCall *c)
{
	int32		id;
	Datum		v[2];
	char		nulls[2];

	if (!path_id(c, c->seg[2], &id))
		return;
	v[0] = Int32GetDatum(id);
	nulls[0] = ' ';
	v[1] = text_or_null(rest_param(c, "subject"), nulls, 1);
	spi_begin();
	catalog_run(&rest_plan_schema_by_id, v, nulls, SPI_OK_SELECT);
	appendStringInfoString(&c->out, formatted_schema(c, id, rest_param(c, "subject"),
													 col_text(0, 2), 3));
	SPI_finish();
}

static void
schema_id_versions(RestCall *c, bool subjects_only)
{
	int32		id;
	Datum		v[3];
	char		nulls[3];
	uint64		i;
	int			n = 0;
	char	   *last = NULL;

	if (!path_id(c, c->seg[2], &id))
		return;
	v[0] = Int32GetDatum(id);
	nulls[0] = ' ';
	v[1] = text_or_null(rest_param(c, "subject"), nulls, 1);
	v[2] = BoolGetDatum(rest_param_bool(c, "deleted"));
	nulls[2] = ' ';
	spi_begin();
	catalog_run(&rest_plan_schema_versions, v, nulls, SPI_OK_SELECT);
	appendStringInfoChar(&c->out, '[');
	for (i = 0; i < SPI_processed; i++)
	{
		char	   *subject = col_text(i, 1);

		if (subjects_only)
		{
			if (last && strcmp(last, subject) == 0)
				continue;
			last = subject;
		}
		if (!rest_page_includes(c, (int) i, 0))
			continue;
		if (n++ > 0)
			appendStringInfoChar(&c->out, ',');
		if (subjects_only)
			escape_json(&c->out, subject);
		else
		{
			appendStringInfoString(&c->out, "{\"subject\":");
			escape_json(&c->out, subject);
			appendStringInfo(&c->out, ",\"version\":%s}", col_text(i, 2));
		}
	}
	appendStringInfoChar(&c->out, ']');
	SPI_finish();
}

static void
h_schema_id_subjects(RestCall *c)
{
	schema_id_versions(c, true);
}

static void
h_schema_id_versions(RestCall *c)
{
	schema_id_versions(c, false);
}

/* --- routes: /subjects -------------------------------------------------------- */

static void
h_subjects(RestCall *c)
{
	Datum		v[3];
	char		nulls[3];
	const char *prefix = rest_param(c, "subjectPrefix");

	v[0] = text_or_null(prefix, nulls, 0);
	v[1] = BoolGetDatum(rest_param_bool(c, "deleted"));
	nulls[1] = ' ';
	v[2] = BoolGetDatum(rest_param_bool(c, "deletedOnly"));
	nulls[2] = ' ';
	spi_begin();
	catalog_run(&rest_plan_subjects, v, nulls, SPI_OK_SELECT);
	append_column_array(c, true);
	SPI_finish();
}

static void
h_versions(RestCall *c)
{
	Datum		v[3];
	char		nulls[3] = "   ";

	c->subject = c->seg[1];
	v[0] = CStringGetTextDatum(c->subject);
	v[1] = BoolGetDatum(rest_param_bool(c, "deleted"));
	v[2] = BoolGetDatum(rest_param_bool(c, "deletedOnly"));
	spi_begin();
	catalog_run(&rest_plan_versions, v, nulls, SPI_OK_SELECT);
	append_column_array(c, false);
	SPI_finish();
}

/*
 * Run plan with (subject, version) from the path, plus the boolean query
 * parameter flag when there is one; SPI stays connected for the caller to
 * read the rows.
 */
static void
run_subject_version(RestCall *c, CatalogPlan *plan, const char *flag)
{
	Datum		v[3];
	char		nulls[3] = "   ";

	c->subject = c->seg[1];
	c->version = c->seg[3];
	v[0] = CStringGetTextDatum(c->subject);
	v[1] = CStringGetTextDatum(c->version);
	if (flag)
		v[2] = BoolGetDatum(rest_param_bool(c, flag));
	spi_begin();
	catalog_run(plan, v, nulls, SPI_OK_SELECT);
}

/*
 * The schema of row 0 of a get_version result in the requested format
 * (format=serialized: a PROTOBUF schema's base64 FileDescriptorProto); the
 * stored text otherwise.  Runs inside SPI.
 */
static char *
version_schema_text(RestCall *c)
{
	char	   *id = col_text(0, 3);

	return formatted_schema(c, atoi(id), c->subject, col_text(0, 4), 5);
}

static void
h_version_get(RestCall *c)
{
	char	   *schema;

	run_subject_version(c, &rest_plan_get_version, "deleted");
	schema = version_schema_text(c);
	append_schema_row_as(&c->out, 0, true, true, schema);
	SPI_finish();
}

static void
h_version_schema(RestCall *c)
{
	run_subject_version(c, &rest_plan_get_version, "deleted");
	appendStringInfoString(&c->out, version_schema_text(c));
	SPI_finish();
}

static void
h_version_referencedby(RestCall *c)
{
	run_subject_version(c, &rest_plan_referenced_by, NULL);
	append_column_array(c, false);
	SPI_finish();
}

static void
h_version_delete(RestCall *c)
{
	run_subject_version(c, &rest_plan_delete_version, "permanent");
	appendStringInfoString(&c->out, col_text(0, 1));
	SPI_finish();
}

static void
h_subject_delete(RestCall *c)
{
	Datum		v[2];
	char		nulls[2] = "  ";

	c->subject = c->seg[1];
	v[0] = CStringGetTextDatum(c->subject);
	v[1] = BoolGetDatum(rest_param_bool(c, "permanent"));
	spi_begin();
	catalog_run(&rest_plan_delete_subject, v, nulls, SPI_OK_SELECT);
	append_column_array(c, false);
	SPI_finish();
}

/* --- schema request bodies ---------------------------------------------------- */

typedef struct SchemaBody
{
	char	   *schema;
	char	   *schema_type;
	char	   *references;
	char	   *metadata;
	char	   *rule_set;
	bool		has_id;
	int32		id;
	bool		has_version;
	int32		version;
} SchemaBody;

/* an integer member; false (with a 400) when present but not a 32-bit integer */
static bool
body_int(RestCall *c, Jsonb *jb, const char *key, bool *present, int32 *out)
{
	JsonbValue *v = rest_body_member(jb, key);
	char	   *s;
	char	   *end;
	long		n;

	*present = false;
	if (v == NULL)
		return true;
	if (v->type != jbvNumeric)
	{
		rest_error(c, 400, 400, psprintf("Cannot deserialize value of type `int` from field \"%s\"", key));
		return false;
	}
	s = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));
	errno = 0;
	n = strtol(s, &end, 10);
	if (*end != '\0' || errno != 0 || n < PG_INT32_MIN || n > PG_INT32_MAX)
	{
		rest_error(c, 400, 400, psprintf("Numeric value (%s) out of range of int", s));
		return false;
	}
	*present = true;
	*out = (int32) n;
	return true;
}

/*
 * Confluent's RegisterSchemaRequest: schema, schemaType, references,
 * metadata, ruleSet (or ruleset), id, version; unknown fields ignored.
 */
static bool
read_schema_body(RestCall *c, SchemaBody *b)
{
	Jsonb	   *jb = rest_body_object(c);
	JsonbValue *v;

	memset(b, 0, sizeof(SchemaBody));
	if (jb == NULL)
		return false;
	v = rest_body_member(jb, "schema");
	if (v != NULL)
	{
		if (v->type != jbvString)
		{
			rest_error(c, 400, 400, "Cannot deserialize value of type `java.lang.String` from field \"schema\": the schema must be a JSON string");
			return false;
		}
		b->schema = pnstrdup(v->val.string.val, v->val.string.len);
	}
	v = rest_body_member(jb, "schemaType");
	if (v != NULL)
	{
		if (v->type != jbvString)
		{
			rest_error(c, 400, 400, "Cannot deserialize value of type `java.lang.String` from field \"schemaType\"");
			return false;
		}
		b->schema_type = pnstrdup(v->val.string.val, v->val.string.len);
	}
	b->references = rest_body_member_json(jb, "references");
	b->metadata = rest_body_member_json(jb, "metadata");
	b->rule_set = rest_body_member_json(jb, "ruleSet");
	if (b->rule_set == NULL)
		b->rule_set = rest_body_member_json(jb, "ruleset");
	if (!body_int(c, jb, "id", &b->has_id, &b->id) ||
		!body_int(c, jb, "version", &b->has_version, &b->version))
		return false;
	if (b->schema == NULL || b->schema[0] == '\0')
	{
		rest_error(c, 422, 42201, confluent_text(CW_EMPTY_SCHEMA));
		return false;
	}
	if (b->schema_type == NULL || b->schema_type[0] == '\0')
		b->schema_type = "AVRO";
	if (b->references == NULL)
		b->references = "[]";
	return true;
}

static bool
normalize_param(RestCall *c)
{
	return rest_param_bool(c, "normalize");
}

/* POST /subjects/{s}/versions */
static void
h_register(RestCall *c)
{
	SchemaBody	b;
	Datum		v[9];
	char		nulls[9] = "         ";

	c->subject = c->seg[1];
	if (!read_schema_body(c, &b))
		return;
	v[0] = CStringGetTextDatum(c->subject);
	v[1] = CStringGetTextDatum(b.schema);
	v[2] = CStringGetTextDatum(b.schema_type);
	v[3] = CStringGetTextDatum(b.references);
	v[4] = BoolGetDatum(normalize_param(c));
	v[5] = text_or_null(b.metadata, nulls, 5);
	v[6] = text_or_null(b.rule_set, nulls, 6);
	v[7] = Int32GetDatum(b.id);
	if (!b.has_id || b.id <= 0)
		nulls[7] = 'n';
	v[8] = Int32GetDatum(b.version);
	if (!b.has_version || b.version == 0)
		nulls[8] = 'n';
	spi_begin();
	catalog_run(&rest_plan_register, v, nulls, SPI_OK_SELECT);
	/* the row has the shape of a schema row: RegisterSchemaResponse */
	append_schema_row(&c->out, 0, false, true);
	SPI_finish();
}

/* POST /subjects/{s}: is this schema registered under the subject? */
static void
h_lookup(RestCall *c)
{
	SchemaBody	b;
	Datum		v[6];
	char		nulls[6] = "      ";

	c->subject = c->seg[1];
	c->lookup = true;
	if (!read_schema_body(c, &b))
		return;
	v[0] = CStringGetTextDatum(c->subject);
	v[1] = CStringGetTextDatum(b.schema);
	v[2] = CStringGetTextDatum(b.schema_type);
	v[3] = CStringGetTextDatum(b.references);
	v[4] = BoolGetDatum(normalize_param(c));
	v[5] = BoolGetDatum(rest_param_bool(c, "deleted"));
	spi_begin();
	catalog_run(&rest_plan_lookup, v, nulls, SPI_OK_SELECT);
	append_schema_row(&c->out, 0, true, true);
	SPI_finish();
}

/* POST /compatibility/subjects/{s}/versions[/{v}] */
static void
h_compatibility(RestCall *c)
{
	SchemaBody	b;
	Datum		v[7];
	char		nulls[7] = "       ";
	bool		verbose = rest_param_bool(c, "verbose");
	bool		isnull;
	Datum		messages;

	c->subject = c->seg[2];
	c->version = c->nseg > 4 ? c->seg[4] : NULL;
	if (!read_schema_body(c, &b))
		return;
	v[0] = CStringGetTextDatum(c->subject);
	v[1] = CStringGetTextDatum(b.schema);
	v[2] = CStringGetTextDatum(b.schema_type);
	v[3] = CStringGetTextDatum(b.references);
	v[4] = text_or_null(c->version, nulls, 4);
	v[5] = BoolGetDatum(verbose);
	v[6] = BoolGetDatum(normalize_param(c));
	spi_begin();
	catalog_run(&rest_plan_check, v, nulls, SPI_OK_SELECT);
	appendStringInfo(&c->out, "{\"is_compatible\":%s",
					 DatumGetBool(col_datum(0, 1, &isnull)) ? "true" : "false");
	messages = col_datum(0, 2, &isnull);
	if (verbose && !isnull)
	{
		ArrayType  *arr = DatumGetArrayTypeP(messages);
		Datum	   *elems;
		bool	   *enulls;
		int			n;
		int			i;

		deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &enulls, &n);
		appendStringInfoString(&c->out, ",\"messages\":[");
		for (i = 0; i < n; i++)
		{
			if (i > 0)
				appendStringInfoChar(&c->out, ',');
			escape_json(&c->out, TextDatumGetCString(elems[i]));
		}
		appendStringInfoChar(&c->out, ']');
	}
	appendStringInfoChar(&c->out, '}');
	SPI_finish();
}

/* --- routes: /config and /mode -------------------------------------------------- */

/* the scope of /config[/{s}] or /mode[/{s}]: NULL is global */
static const char *
scope_subject(RestCall *c)
{
	if (c->nseg < 2)
		return NULL;
	c->subject = c->seg[1];
	return c->subject;
}

static void
h_config_get(RestCall *c)
{
	Datum		v[2];
	char		nulls[2];
	const char *subject = scope_subject(c);
	char	   *config;

	v[0] = text_or_null(subject, nulls, 0);
	v[1] = BoolGetDatum(rest_param_bool(c, "defaultToGlobal"));
	nulls[1] = ' ';
	spi_begin();
	catalog_run(&rest_plan_get_config, v, nulls, SPI_OK_SELECT);
	config = col_text(0, 1);
	appendStringInfoString(&c->out, config);
	SPI_finish();
}

static void
h_config_put(RestCall *c)
{
	Jsonb	   *jb = rest_body_object(c);
	Datum		v[2];
	char		nulls[2];
	const char *subject = scope_subject(c);

	if (jb == NULL)
		return;
	v[0] = text_or_null(subject, nulls, 0);
	v[1] = CStringGetTextDatum(JsonbToCString(NULL, &jb->root, VARSIZE(jb)));
	nulls[1] = ' ';
	spi_begin();
	catalog_run(&rest_plan_set_config, v, nulls, SPI_OK_SELECT);
	appendStringInfoString(&c->out, col_text(0, 1));
	SPI_finish();
}

static void
h_config_delete(RestCall *c)
{
	Datum		v[1];
	char		nulls[1];

	v[0] = text_or_null(scope_subject(c), nulls, 0);
	spi_begin();
	catalog_run(&rest_plan_delete_config, v, nulls, SPI_OK_SELECT);
	appendStringInfoString(&c->out, col_text(0, 1));
	SPI_finish();
}

static void
append_mode(RestCall *c, const char *mode)
{
	appendStringInfoString(&c->out, "{\"mode\":");
	escape_json(&c->out, mode);
	appendStringInfoChar(&c->out, '}');
}

static void
h_mode_get(RestCall *c)
{
	Datum		v[2];
	char		nulls[2];
	const char *subject = scope_subject(c);

	v[0] = text_or_null(subject, nulls, 0);
	v[1] = BoolGetDatum(subject == NULL || rest_param_bool(c, "defaultToGlobal"));
	nulls[1] = ' ';
	spi_begin();
	catalog_run(&rest_plan_get_mode, v, nulls, SPI_OK_SELECT);
	append_mode(c, col_text(0, 1));
	SPI_finish();
}

static void
h_mode_put(RestCall *c)
{
	Jsonb	   *jb = rest_body_object(c);
	JsonbValue *mode;
	Datum		v[3];
	char		nulls[3];
	const char *subject = scope_subject(c);

	if (jb == NULL)
		return;
	mode = rest_body_member(jb, "mode");
	if (mode == NULL || mode->type != jbvString)
	{
		rest_error(c, 422, 42204, confluent_text(CW_INVALID_MODE));
		return;
	}
	v[0] = CStringGetTextDatum(pnstrdup(mode->val.string.val, mode->val.string.len));
	nulls[0] = ' ';
	v[1] = text_or_null(subject, nulls, 1);
	v[2] = BoolGetDatum(rest_param_bool(c, "force"));
	nulls[2] = ' ';
	spi_begin();
	catalog_run(&rest_plan_set_mode, v, nulls, SPI_OK_SELECT);
	append_mode(c, col_text(0, 1));
	SPI_finish();
}

static void
h_mode_delete(RestCall *c)
{
	Datum		v[1];
	char		nulls[1];

	v[0] = text_or_null(scope_subject(c), nulls, 0);
	spi_begin();
	catalog_run(&rest_plan_delete_mode, v, nulls, SPI_OK_SELECT);
	append_mode(c, col_text(0, 1));
	SPI_finish();
}

/* --- the route table ------------------------------------------------------------ */

typedef struct Route
{
	const char *method;
	const char *pattern;		/* segments; "*" matches one segment */
	RestHandler handler;
} Route;

static const Route routes[] = {
	{"GET", "", h_root},
	{"POST", "", h_root},
	{"GET", "schemas/types", h_schema_types},
	{"GET", "schemas", h_schemas_list},
	{"GET", "schemas/ids/*", h_schema_by_id},
	{"GET", "schemas/ids/*/schema", h_schema_by_id_raw},
	{"GET", "schemas/ids/*/subjects", h_schema_id_subjects},
	{"GET", "schemas/ids/*/versions", h_schema_id_versions},
	{"GET", "subjects", h_subjects},
	{"POST", "subjects/*", h_lookup},
	{"DELETE", "subjects/*", h_subject_delete},
	{"GET", "subjects/*/versions", h_versions},
	{"POST", "subjects/*/versions", h_register},
	{"GET", "subjects/*/versions/*", h_version_get},
	{"DELETE", "subjects/*/versions/*", h_version_delete},
	{"GET", "subjects/*/versions/*/schema", h_version_schema},
	{"GET", "subjects/*/versions/*/referencedby", h_version_referencedby},
	{"POST", "compatibility/subjects/*/versions", h_compatibility},
	{"POST", "compatibility/subjects/*/versions/*", h_compatibility},
	{"GET", "config", h_config_get},
	{"PUT", "config", h_config_put},
	{"DELETE", "config", h_config_delete},
	{"GET", "config/*", h_config_get},
	{"PUT", "config/*", h_config_put},
	{"DELETE", "config/*", h_config_delete},
	{"GET", "mode", h_mode_get},
	{"PUT", "mode", h_mode_put},
	{"DELETE", "mode", h_mode_delete},
	{"GET", "mode/*", h_mode_get},
	{"PUT", "mode/*", h_mode_put},
	{"DELETE", "mode/*", h_mode_delete},
	{"GET", "contexts", h_contexts},
	{"GET", "v1/metadata/id", h_metadata_id},
	{"GET", "v1/metadata/version", h_metadata_version},
	{NULL, NULL, NULL}
};

static bool
pattern_matches(const char *pattern, char **seg, int nseg)
{
	int			i = 0;
	const char *p = pattern;

	if (*p == '\0')
		return nseg == 0;
	while (*p)
	{
		const char *end = strchr(p, '/');
		size_t		len = end ? (size_t) (end - p) : strlen(p);

		if (i >= nseg)
			return false;
		if (!(len == 1 && *p == '*') &&
			(strlen(seg[i]) != len || strncmp(seg[i], p, len) != 0))
			return false;
		i++;
		if (!end)
			break;
		p = end + 1;
	}
	return i == nseg;
}

/*
 * Confluent's URL-prefix form /contexts/{ctx}/subjects/..., /config,
 * /mode, /schemas: rewritten to context-qualified subjects, as its
 * ContextFilter does.
 */
static void
apply_context_prefix(RestCall *c)
{
	char	   *ctx;
	char	   *prefix;

	if (c->nseg < 3 || strcmp(c->seg[0], "contexts") != 0)
		return;
	ctx = c->seg[1];
	prefix = (strcmp(ctx, ".") == 0) ? pstrdup("") :
		psprintf(":%s%s:", ctx[0] == '.' ? "" : ".", ctx);
	c->seg += 2;
	c->nseg -= 2;
	if ((strcmp(c->seg[0], "subjects") == 0 || strcmp(c->seg[0], "config") == 0 ||
		 strcmp(c->seg[0], "mode") == 0) && c->nseg >= 2)
		c->seg[1] = psprintf("%s%s", prefix, c->seg[1]);
	else if ((strcmp(c->seg[0], "config") == 0 || strcmp(c->seg[0], "mode") == 0) &&
			 c->nseg == 1 && prefix[0] != '\0')
	{
		char	  **seg = palloc(sizeof(char *) * 2);

		seg[0] = c->seg[0];
		seg[1] = psprintf("%s", prefix);
		c->seg = seg;
		c->nseg = 2;
	}
	else if (strcmp(c->seg[0], "compatibility") == 0 && c->nseg >= 3)
		c->seg[2] = psprintf("%s%s", prefix, c->seg[2]);
	else if (strcmp(c->seg[0], "schemas") == 0 && rest_param(c, "subject") == NULL &&
			 prefix[0] != '\0')
	{
		c->params = repalloc(c->params, sizeof(RestParam) * (c->nparams + 1));
		c->params[c->nparams].key = "subject";
		c->params[c->nparams].value = prefix;
		c->nparams++;
	}
	else if (strcmp(c->seg[0], "subjects") == 0 && c->nseg == 1 && prefix[0] != '\0' &&
			 rest_param(c, "subjectPrefix") == NULL)
	{
		c->params = repalloc(c->params, sizeof(RestParam) * (c->nparams + 1));
		c->params[c->nparams].key = "subjectPrefix";
		c->params[c->nparams].value = prefix;
		c->nparams++;
	}
}

RestHandler
rest_route(RestCall *c, bool *method_mismatch)
{
	int			i;

	apply_context_prefix(c);
	*method_mismatch = false;
	for (i = 0; routes[i].method; i++)
	{
		if (!pattern_matches(routes[i].pattern, c->seg, c->nseg))
			continue;
		if (strcmp(routes[i].method, c->req->method) == 0)
			return routes[i].handler;
		*method_mismatch = true;
	}
	return NULL;
}
