/*-------------------------------------------------------------------------
 *
 * rest_routes.c
 *	  The Confluent REST routes.  Each one reads the request, calls the C
 *	  service of its operation (read_service.c, schema_service.c,
 *	  registration.c, settings_service.c, ...; the SQL functions wrap the
 *	  same services) and writes Confluent's JSON shape, omitting empty
 *	  fields as Confluent's Jackson NON_EMPTY does.  Errors are the
 *	  services' ereport()s; rest.c turns them into Confluent error bodies.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/uuid.h"

#include "association.h"
#include "catalog.h"
#include "confluent_messages.h"
#include "data_contract.h"
#include "delete_service.h"
#include "metrics.h"
#include "json_out.h"
#include "registration.h"
#include "registry.h"
#include "read_service.h"
#include "rest_internal.h"
#include "rg_format.h"
#include "schema_service.h"
#include "schemas.h"
#include "settings_service.h"
#include "tags.h"

/* REGISTRY_VERSION_STRING: the control file's default_version (Makefile) */

/* --- JSON pieces ---------------------------------------------------------- */

/* A member whose value is jsonb text, left out when NULL, [] or {}. */
static void
json_nonempty_member(StringInfo out, bool *first, const char *key, const char *json)
{
	if (json == NULL || strcmp(json, "[]") == 0 || strcmp(json, "{}") == 0)
		return;
	registry_json_key(out, first, key);
	appendStringInfoString(out, json);
}

/*
 * The members of a schema that every answer about one has: schemaType,
 * references, metadata, ruleSet and the schema text given.
 */
static void
append_schema_members(StringInfo out, bool *first, const CatalogSchemaRow *row,
					  const char *schema)
{
	registry_json_key(out, first, "schemaType");
	escape_json(out, row->schema_type);
	json_nonempty_member(out, first, "references", row->refs);
	json_nonempty_member(out, first, "metadata", dc_metadata_canonical(row->metadata));
	json_nonempty_member(out, first, "ruleSet", dc_rule_set_canonical(row->rule_set));
	registry_json_key(out, first, "schema");
	escape_json(out, schema);
}

/* The ts member: when the version (or schema) was registered, if known. */
static void
append_ts(StringInfo out, bool *first, const CatalogSchemaRow *row)
{
	if (!row->has_ts)
		return;
	registry_json_key(out, first, "ts");
	appendStringInfo(out, INT64_FORMAT, row->ts);
}

/* The deleted member: always, or (if_true) only for a soft-deleted version. */
static void
append_deleted(StringInfo out, bool *first, const CatalogSchemaRow *row, bool if_true)
{
	if (if_true && !row->deleted)
		return;
	registry_json_key(out, first, "deleted");
	appendStringInfoString(out, row->deleted ? "true" : "false");
}

/*
 * Confluent's Schema entity for a schema row, with the schema text given
 * (the stored one, or another format of it): subject and version first
 * (with_subject), else id and version (with_version: RegisterSchemaResponse);
 * guid, ts and deleted as 8.x has them (deleted only when true for a
 * lookup, deleted_if_true).
 */
static void
append_schema_row(StringInfo out, const CatalogSchemaRow *row, bool with_subject,
				  bool with_version, const char *schema, bool deleted_if_true)
{
	bool		first = true;

	appendStringInfoChar(out, '{');
	if (with_subject)
	{
		registry_json_key(out, &first, "subject");
		escape_json(out, row->subject);
		registry_json_key(out, &first, "version");
		appendStringInfo(out, "%d", row->version);
	}
	registry_json_key(out, &first, "id");
	appendStringInfo(out, "%d", row->id);
	if (with_version && !with_subject)
	{
		registry_json_key(out, &first, "version");
		appendStringInfo(out, "%d", row->version);
	}
	if (row->guid)
	{
		registry_json_key(out, &first, "guid");
		escape_json(out, row->guid);
	}
	append_schema_members(out, &first, row, schema);
	append_ts(out, &first, row);
	append_deleted(out, &first, row, deleted_if_true);
	appendStringInfoChar(out, '}');
}

/* a JSON array written as its items come: the call and how many so far */
typedef struct ArrayOut
{
	RestCall   *c;
	int			n;
} ArrayOut;

/*
 * A List as a JSON array, of numbers (an IntList) or strings; paged by the
 * request's offset and limit unless the list is the page already.
 */
static void
append_list(RestCall *c, List *items, bool page)
{
	ListCell   *lc;
	int			n = 0;

	appendStringInfoChar(&c->out, '[');
	foreach(lc, items)
	{
		if (page && !rest_page_includes(c, foreach_current_index(lc), 0))
			continue;
		if (n++ > 0)
			appendStringInfoChar(&c->out, ',');
		if (IsA(items, IntList))
			appendStringInfo(&c->out, "%d", lfirst_int(lc));
		else
			escape_json(&c->out, (char *) lfirst(lc));
		rest_flush(c);
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

/* GET|POST /: an empty object, as Confluent answers */
static void
h_root(RestCall *c)
{
	/* a health check sees a registry that cannot serve */
	if (rest_extension_missing(c))
		return;
	appendStringInfoString(&c->out, "{}");
}

/* GET /schemas/types */
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

/* GET /v1/metadata/id: the cluster id, the database's name */
static void
h_metadata_id(RestCall *c)
{
	char	   *id = registry_cluster_id();

	appendStringInfoString(&c->out, "{\"id\":");
	escape_json(&c->out, id);
	appendStringInfoString(&c->out, ",\"scope\":{\"path\":[],\"clusters\":{\"schema-registry-cluster\":");
	escape_json(&c->out, id);
	appendStringInfoString(&c->out, "}}}");
}

/*
 * GET /v1/metadata/deployment (Confluent 8.1): the deployment's attributes,
 * "opensource" as a Confluent server without the setting answers
 */
static void
h_metadata_deployment(RestCall *c)
{
	appendStringInfoString(&c->out, "{\"attributes\":[\"opensource\"]}");
}

/* GET /v1/metadata/version */
static void
h_metadata_version(RestCall *c)
{
	appendStringInfoString(&c->out, "{\"version\":\"" REGISTRY_VERSION_STRING "\",\"commitId\":\"registry\"}");
}

/* GET /contexts[?contextPrefix=] */
static void
h_contexts(RestCall *c)
{
	append_list(c, registry_contexts(rest_param(c, "contextPrefix")), true);
}

/* DELETE /contexts/{context} (8.1): an empty context removed; 204, no body */
static void
h_context_delete(RestCall *c)
{
	c->subject = c->seg[1];		/* Confluent's 40401 names it as a subject */
	registry_delete_context(c->seg[1]);
	c->status = 204;
}

/* --- routes: /schemas -------------------------------------------------------- */

/*
 * A member of JSON text after the rest of the object just written, which
 * is reopened; left out when the text is NULL or an empty array (Jackson's
 * NON_EMPTY).  ExtendedSchema's "aliases" (the subjects whose config names
 * the row's subject as their alias) and "associations".
 */
static void
append_extended_member(StringInfo out, const char *key, const char *json)
{
	if (json == NULL || strcmp(json, "[]") == 0)
		return;
	Assert(out->len > 0 && out->data[out->len - 1] == '}');
	out->data[--out->len] = '\0';
	appendStringInfo(out, ",\"%s\":%s}", key, json);
}

/*
 * findTags=T (repeated; "*" for all): Confluent's schemaTags member, the
 * entities of the row's schema tagged with one of them, after the rest
 * (the object just written is reopened); left out when there are none.
 * context is the schema's.
 */
static void
append_schema_tags(RestCall *c, const CatalogSchemaRow *row, const char *context)
{
	const char **find = palloc(sizeof(char *) * (c->nparams + 1));
	int			n = 0;
	int			i;
	CatalogSchema stored;
	char	   *tags;

	for (i = 0; i < c->nparams; i++)
		if (strcmp(c->params[i].key, "findTags") == 0)
			find[n++] = c->params[i].value;
	if (n == 0 || !catalog_get_schema(context, row->id, &stored))
		return;
	tags = registry_find_tags(registry_stored_schema(context, row->id, stored.fingerprint),
							  find, n);
	if (strcmp(tags, "[]") == 0)
		return;
	Assert(c->out.len > 0 && c->out.data[c->out.len - 1] == '}');
	c->out.data[--c->out.len] = '\0';
	appendStringInfo(&c->out, ",\"schemaTags\":%s}", tags);
}

/* The context of a row's qualified subject ("." without one). */
static char *
row_context(const CatalogSchemaRow *row)
{
	char	   *context = REGISTRY_DEFAULT_CONTEXT;
	char	   *name;

	if (row->context)
		return row->context;
	if (row->subject)
		registry_split_subject_cstr(row->subject, &context, &name);
	return context;
}

/* One row of GET /schemas into its array, the answer flushed when long. */
static void
emit_schema_row(const CatalogSchemaRow *row, void *arg)
{
	ArrayOut   *a = arg;

	if (a->n++ > 0)
		appendStringInfoChar(&a->c->out, ',');
	append_schema_row(&a->c->out, row, true, true, row->schema, false);
	append_extended_member(&a->c->out, "aliases", row->aliases);
	append_extended_member(&a->c->out, "associations", row->associations);
	rest_flush(a->c);
}

/* Does one of the values of a repeated query parameter have a character? */
static bool
param_list_has_value(RestCall *c, const char *key)
{
	ListCell   *lc;

	foreach(lc, rest_param_list(c, key))
		if (((char *) lfirst(lc))[0] != '\0')
		return true;
	return false;
}

/*
 * Does GET /schemas ask for the association filter: a resourceType,
 * associationType or lifecycle that is not empty?
 */
static bool
association_filter_asked(RestCall *c)
{
	const char *resource_type = rest_param(c, "resourceType");

	return (resource_type != NULL && resource_type[0] != '\0') ||
		param_list_has_value(c, "associationType") || param_list_has_value(c, "lifecycle");
}

/*
 * GET /schemas's association filter (8.2+) into q: resourceType,
 * associationType (repeated) and lifecycle (repeated: STRONG, WEAK, or
 * NONE for a subject without an association), any of them given.  A
 * lifecycle of another name is Jersey's 404, as for any query parameter
 * its enum cannot convert; false then.
 */
static bool
read_association_filter(RestCall *c, SchemaListing *q)
{
	ListCell   *lc;

	q->resource_type = rest_param(c, "resourceType");
	if (q->resource_type != NULL && q->resource_type[0] == '\0')
		q->resource_type = NULL;
	foreach(lc, rest_param_list(c, "associationType"))
		if (((char *) lfirst(lc))[0] != '\0')
		q->association_types = lappend(q->association_types, lfirst(lc));
	foreach(lc, rest_param_list(c, "lifecycle"))
	{
		const char *name = lfirst(lc);
		int			bit = association_lifecycle_bit(name);

		if (bit == 0 && name[0] != '\0')
		{
			rest_error(c, 404, 404, confluent_text(CW_HTTP_NOT_FOUND));
			return false;
		}
		q->lifecycles |= bit;
	}
	q->by_association = association_filter_asked(c);
	return true;
}

/*
 * GET /schemas: every version's schema (aliases=true: with their aliases;
 * ruleType=T: of the schemas with a rule of type T; by association: of
 * the subjects that pass, with their associations), the page asked for
 * only (schema.search.default.limit = schema.search.max.limit = 1000).
 */
static void
h_schemas_list(RestCall *c)
{
	SchemaListing q;
	const char *rule_type = rest_param(c, "ruleType");
	ArrayOut	a = {c, 0};

	memset(&q, 0, sizeof(q));
	q.prefix = rest_param(c, "subjectPrefix");
	q.deleted = rest_param_bool(c, "deleted");
	q.latest_only = rest_param_bool(c, "latestOnly");
	q.aliases = rest_param_bool(c, "aliases");
	q.rule_type = rule_type != NULL && rule_type[0] != '\0' ? rule_type : NULL;
	if (!read_association_filter(c, &q))
		return;
	rest_page(c, 1000, &q.offset, &q.limit);
	q.emit = emit_schema_row;
	q.emit_arg = &a;
	appendStringInfoChar(&c->out, '[');
	(void) registry_list_schemas(&q);
	appendStringInfoChar(&c->out, ']');
}

/*
 * The schema text of row in the format the request asks for:
 * format=serialized gives a PROTOBUF schema as base64 FileDescriptorProto,
 * format=resolved a schema whose format has that form (AVRO) with its
 * references' types inlined;
 * other formats are ignored, as Confluent ignores unknown ones (a JSON
 * schema has no other format: Confluent's refuses any, "Format not
 * supported", where this gives the stored text).
 */
static char *
formatted_schema(RestCall *c, const CatalogSchemaRow *row, const char *subject)
{
	const char *format = rest_param(c, "format");

	if (format && strcmp(format, "serialized") == 0 &&
		strcmp(row->schema_type, "PROTOBUF") == 0)
		return registry_schema_serialized_text(row->id, subject);
	if (format && strcmp(format, "resolved") == 0)
	{
		char	   *resolved = registry_schema_resolved(row_context(row), row->id);

		if (resolved != NULL)
			return resolved;
	}
	return row->schema;
}

/*
 * Confluent's SchemaString for a schema row: with the subject version the
 * request's subject picked (subject, version, deleted) when it has one,
 * then guid, the schema members, maxId when asked for, and ts.
 */
static void
append_schema_string(RestCall *c, const CatalogSchemaRow *row, const char *schema,
					 const char *subject)
{
	bool		first = true;

	appendStringInfoChar(&c->out, '{');
	if (row->subject)
	{
		registry_json_key(&c->out, &first, "subject");
		escape_json(&c->out, row->subject);
		registry_json_key(&c->out, &first, "version");
		appendStringInfo(&c->out, "%d", row->version);
	}
	if (row->guid)
	{
		registry_json_key(&c->out, &first, "guid");
		escape_json(&c->out, row->guid);
	}
	append_schema_members(&c->out, &first, row, schema);
	if (rest_param_bool(c, "fetchMaxId"))
	{
		int32		max_id;

		/* a context without schemas has no maxId: left out, as null is */
		if (registry_max_schema_id(subject, &max_id))
		{
			registry_json_key(&c->out, &first, "maxId");
			appendStringInfo(&c->out, "%d", max_id);
		}
	}
	append_ts(&c->out, &first, row);
	if (row->subject)
		append_deleted(&c->out, &first, row, false);
	appendStringInfoChar(&c->out, '}');
}

/*
 * referenceFormat=qualified (Confluent 8.1): the references of row with
 * each subject qualified by the context they resolve in (the row's; one
 * already qualified stays as it is); the default context's stay bare, as
 * Confluent's qualified form of them is.  Other values change nothing.
 */
static void
qualify_references(RestCall *c, CatalogSchemaRow *row, const char *context)
{
	const char *format = rest_param(c, "referenceFormat");
	Jsonb	   *refs;
	StringInfoData out;
	int			n;

	if (format == NULL || strcmp(format, "qualified") != 0 || row->refs == NULL ||
		strcmp(context, REGISTRY_DEFAULT_CONTEXT) == 0)
		return;
	refs = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(row->refs)));
	if (!JB_ROOT_IS_ARRAY(refs))
		return;
	n = JB_ROOT_COUNT(refs);
	initStringInfo(&out);
	appendStringInfoChar(&out, '[');
	for (int i = 0; i < n; i++)
	{
		JsonbValue *ref = getIthJsonbValueFromContainer(&refs->root, i);
		JsonbValue *name;
		JsonbValue *subject;
		JsonbValue *version;
		char	   *subject_text;

		if (ref == NULL || ref->type != jbvBinary)
			return;
		name = getKeyJsonValueFromContainer(ref->val.binary.data, "name", 4, NULL);
		subject = getKeyJsonValueFromContainer(ref->val.binary.data, "subject", 7, NULL);
		version = getKeyJsonValueFromContainer(ref->val.binary.data, "version", 7, NULL);
		if (name == NULL || name->type != jbvString || subject == NULL ||
			subject->type != jbvString || version == NULL || version->type != jbvNumeric)
			return;
		subject_text = pnstrdup(subject->val.string.val, subject->val.string.len);
		if (subject_text[0] != ':')
			subject_text = registry_qualify_subject(context, subject_text);
		if (i > 0)
			appendStringInfoChar(&out, ',');
		appendStringInfoString(&out, "{\"name\":");
		escape_json(&out, pnstrdup(name->val.string.val, name->val.string.len));
		appendStringInfoString(&out, ",\"subject\":");
		escape_json(&out, subject_text);
		appendStringInfo(&out, ",\"version\":%s}",
						 DatumGetCString(DirectFunctionCall1(numeric_out,
															 NumericGetDatum(version->val.numeric))));
	}
	appendStringInfoChar(&out, ']');
	row->refs = out.data;
}

/* GET /schemas/ids/{id} */
static void
h_schema_by_id(RestCall *c)
{
	int32		id;
	const char *subject = rest_param(c, "subject");
	SchemaInfo	info;
	CatalogSchemaRow row;

	if (!path_id(c, c->seg[2], &id))
		return;
	registry_schema_by_id(id, subject, &info);
	registry_schema_info_row(&info, &row);
	qualify_references(c, &row, row_context(&row));
	rest_note_read(c, row_context(&row), row.id, row.subject);
	append_schema_string(c, &row, formatted_schema(c, &row, subject), subject);
	append_schema_tags(c, &row, row_context(&row));
}

/*
 * A guid from the path: Confluent's spelling of a UUID (lower-case hex,
 * 8-4-4-4-12), the only one its guids match; its 16 bytes into guid.
 */
static bool
path_guid(const char *s, pg_uuid_t * guid)
{
	int			i;

	if (strlen(s) != 36)
		return false;
	for (i = 0; i < 36; i++)
	{
		if (i == 8 || i == 13 || i == 18 || i == 23)
		{
			if (s[i] != '-')
				return false;
		}
		else if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	}
	*guid = *DatumGetUUIDP(DirectFunctionCall1(uuid_in, CStringGetDatum(s)));
	return true;
}

/* GET /schemas/guids/{guid}: the schema with that guid (8.0+) */
static void
h_schema_by_guid(RestCall *c)
{
	CatalogSchemaRow row;
	SchemaInfo	info;
	pg_uuid_t	guid;
	char	   *context;

	c->schema_id = c->seg[2];
	if (!path_guid(c->seg[2], &guid))
	{
		rest_error(c, 404, 40403, confluent_text(CW_SCHEMA_ID_NOT_FOUND, c->seg[2]));
		return;
	}
	registry_schema_by_guid(guid.data, &info);
	registry_schema_info_row(&info, &row);
	context = strcmp(row.context, ".") == 0 ? NULL : psprintf(":%s:", row.context);
	append_schema_string(c, &row, formatted_schema(c, &row, context), context);
}

/* GET /schemas/guids/{guid}/ids: the id it has in each context (8.0+) */
static void
h_schema_guid_ids(RestCall *c)
{
	pg_uuid_t	guid;
	int			n = 0;
	CatalogSchema *found = path_guid(c->seg[2], &guid) ?
	registry_schema_ids_by_guid(guid.data, &n) : NULL;

	appendStringInfoChar(&c->out, '[');
	for (int i = 0; i < n; i++)
	{
		if (i > 0)
			appendStringInfoChar(&c->out, ',');
		appendStringInfoString(&c->out, "{\"context\":");
		escape_json(&c->out, found[i].context);
		appendStringInfo(&c->out, ",\"id\":%d}", found[i].id);
	}
	appendStringInfoChar(&c->out, ']');
}

/* GET /schemas/ids/{id}/schema: the schema itself, not wrapped */
static void
h_schema_by_id_raw(RestCall *c)
{
	int32		id;
	const char *subject = rest_param(c, "subject");
	SchemaInfo	info;
	CatalogSchemaRow row;

	if (!path_id(c, c->seg[2], &id))
		return;
	registry_schema_by_id(id, subject, &info);
	registry_schema_info_row(&info, &row);
	rest_note_read(c, row_context(&row), row.id, row.subject);
	appendStringInfoString(&c->out, formatted_schema(c, &row, subject));
}

/*
 * GET /schemas/ids/{id}/subjects (subjects_only) or .../versions: who uses
 * the schema, the page asked for.
 */
static void
schema_id_versions(RestCall *c, bool subjects_only)
{
	int32		id;
	int			offset;
	int			limit;
	ListCell   *lc;

	if (!path_id(c, c->seg[2], &id))
		return;
	rest_page(c, 0, &offset, &limit);
	appendStringInfoChar(&c->out, '[');
	foreach(lc, registry_schema_versions(id, rest_param(c, "subject"),
										 rest_param_bool(c, "deleted"), subjects_only,
										 offset, limit))
	{
		CatalogSubjectVersion *use = (CatalogSubjectVersion *) lfirst(lc);

		if (foreach_current_index(lc) > 0)
			appendStringInfoChar(&c->out, ',');
		if (subjects_only)
			escape_json(&c->out, use->subject);
		else
		{
			appendStringInfoString(&c->out, "{\"subject\":");
			escape_json(&c->out, use->subject);
			appendStringInfo(&c->out, ",\"version\":%d}", use->version);
		}
		rest_flush(c);
	}
	appendStringInfoChar(&c->out, ']');
}

/* GET /schemas/ids/{id}/subjects */
static void
h_schema_id_subjects(RestCall *c)
{
	schema_id_versions(c, true);
}

/* GET /schemas/ids/{id}/versions */
static void
h_schema_id_versions(RestCall *c)
{
	schema_id_versions(c, false);
}

/* --- routes: /subjects -------------------------------------------------------- */

/*
 * The subject segment of a /subjects/{s}/... or /compatibility/subjects/{s}
 * route, returned as the client named it: the service serves it as its
 * alias.  The route's errors name the subject it is served as, as
 * Confluent's do (its alias filter rewrites the path before the route).
 */
static const char *
route_subject(RestCall *c, const char *segment)
{
	c->subject = registry_served_subject(segment);
	return segment;
}

/* One name of a listing into its array, the answer flushed when long. */
static void
emit_name(const char *name, void *arg)
{
	ArrayOut   *a = arg;

	if (a->n++ > 0)
		appendStringInfoChar(&a->c->out, ',');
	escape_json(&a->c->out, name);
	rest_flush(a->c);
}

/* GET /subjects: the page asked for, written as it is read */
static void
h_subjects(RestCall *c)
{
	int			offset;
	int			limit;
	ArrayOut	a = {c, 0};

	rest_page(c, 0, &offset, &limit);
	appendStringInfoChar(&c->out, '[');
	registry_subjects_each(rest_param(c, "subjectPrefix"), rest_param_bool(c, "deleted"),
						   rest_param_bool(c, "deletedOnly"), offset, limit, emit_name, &a);
	appendStringInfoChar(&c->out, ']');
}

/* GET /subjects/{s}/versions: the page asked for */
static void
h_versions(RestCall *c)
{
	const char *subject = route_subject(c, c->seg[1]);
	int			offset;
	int			limit;

	rest_page(c, 0, &offset, &limit);
	append_list(c, registry_versions(subject, rest_param_bool(c, "deleted"),
									 rest_param_bool(c, "deletedOnly"), false,
									 rest_param_bool(c, "deletedAsNegative"), offset, limit),
				false);
}

/*
 * The subject and version of /subjects/{s}/versions/{v}, for the route's
 * errors; returns the subject as named (see route_subject).
 */
static const char *
path_subject_version(RestCall *c)
{
	c->version = c->seg[3];
	return route_subject(c, c->seg[1]);
}

/* GET /subjects/{s}/versions/{v} */
static void
h_version_get(RestCall *c)
{
	CatalogSchemaRow row;
	const char *subject = path_subject_version(c);

	registry_read_version(c->subject, subject, c->version, rest_param_bool(c, "deleted"), &row);
	qualify_references(c, &row, row_context(&row));
	rest_note_read(c, row_context(&row), row.id, row.subject);
	append_schema_row(&c->out, &row, true, true, formatted_schema(c, &row, row.subject), false);
	append_schema_tags(c, &row, row_context(&row));
}

/*
 * GET /subjects/{s}/metadata?key=k1&value=v1&key=k2&value=v2: the latest
 * version whose metadata properties hold every pair (Confluent 7.4+).
 */
static void
h_latest_with_metadata(RestCall *c)
{
	StringInfoData props;
	CatalogSchemaRow row;
	const char **keys = palloc(sizeof(char *) * (c->nparams + 1));
	const char **values = palloc(sizeof(char *) * (c->nparams + 1));
	int			nkeys = 0;
	int			nvalues = 0;
	int			i;

	const char *subject = route_subject(c, c->seg[1]);

	c->lookup = true;
	/* the i-th key goes with the i-th value, as Confluent pairs its two lists */
	for (i = 0; i < c->nparams; i++)
		if (strcmp(c->params[i].key, "key") == 0)
			keys[nkeys++] = c->params[i].value;
		else if (strcmp(c->params[i].key, "value") == 0)
			values[nvalues++] = c->params[i].value;
	initStringInfo(&props);
	appendStringInfoChar(&props, '{');
	for (i = 0; i < nkeys && i < nvalues; i++)
	{
		if (i > 0)
			appendStringInfoChar(&props, ',');
		escape_json(&props, keys[i]);
		appendStringInfoChar(&props, ':');
		escape_json(&props, values[i]);
	}
	appendStringInfoChar(&props, '}');
	registry_latest_with_metadata(subject,
								  DatumGetJsonbP(DirectFunctionCall1(jsonb_in,
																	 CStringGetDatum(props.data))),
								  rest_param_bool(c, "deleted"), &row);
	rest_note_read(c, row_context(&row), row.id, row.subject);
	append_schema_row(&c->out, &row, true, true, formatted_schema(c, &row, row.subject), false);
}

/* GET /subjects/{s}/versions/{v}/schema: the schema itself, not wrapped */
static void
h_version_schema(RestCall *c)
{
	CatalogSchemaRow row;
	const char *subject = path_subject_version(c);

	registry_read_version(c->subject, subject, c->version, rest_param_bool(c, "deleted"), &row);
	rest_note_read(c, row_context(&row), row.id, row.subject);
	appendStringInfoString(&c->out, formatted_schema(c, &row, row.subject));
}

/* GET /subjects/{s}/versions/{v}/referencedby: ids of the schemas using it */
static void
h_version_referencedby(RestCall *c)
{
	const char *subject = path_subject_version(c);

	append_list(c, registry_referenced_by(subject, c->version), true);
}

/* DELETE /subjects/{s}/versions/{v}: the version deleted */
static void
h_version_delete(RestCall *c)
{
	const char *subject = path_subject_version(c);

	appendStringInfo(&c->out, "%d",
					 registry_delete_version(subject, c->version,
											 rest_param_bool(c, "permanent")));
}

/* DELETE /subjects/{s}: the versions deleted */
static void
h_subject_delete(RestCall *c)
{
	const char *subject = route_subject(c, c->seg[1]);

	append_list(c, registry_delete_subject(subject, rest_param_bool(c, "permanent")), true);
}

/* --- schema request bodies ---------------------------------------------------- */

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

/* Is a member JSON true? */
static bool
body_true(Jsonb *jb, const char *key)
{
	JsonbValue *v = rest_body_member(jb, key);

	return v != NULL && v->type == jbvBool && v->val.boolean;
}

/*
 * A string member into *out (left alone when absent); false (with a 400
 * ending in detail) when it is not a string.
 */
static bool
body_string(RestCall *c, Jsonb *jb, const char *key, const char *detail, const char **out)
{
	JsonbValue *v = rest_body_member(jb, key);

	if (v == NULL)
		return true;
	if (v->type != jbvString)
	{
		rest_error(c, 400, 400,
				   psprintf("Cannot deserialize value of type `java.lang.String` from field \"%s\"%s",
							key, detail));
		return false;
	}
	*out = pnstrdup(v->val.string.val, v->val.string.len);
	return true;
}

/*
 * Confluent's RegisterSchemaRequest: schema, schemaType, references,
 * metadata, ruleSet (or ruleset), id, version, schemaTagsToAdd,
 * schemaTagsToRemove, propagateSchemaTags; unknown fields ignored.  An
 * id of 0 or less and a version of 0 count as absent; normalize comes from
 * the query.  An absent or empty schema is 42201 "Empty schema" unless
 * empty_ok: a registration and a lookup take it to their service (which
 * fills it from the previous version, or finds nothing), as Confluent does.
 */
static bool
read_schema_body(RestCall *c, CatalogSubmission *b, bool empty_ok)
{
	Jsonb	   *jb = rest_body_object(c);
	bool		has_id;
	bool		has_version;

	memset(b, 0, sizeof(CatalogSubmission));
	if (jb == NULL)
		return false;
	if (!body_string(c, jb, "schema", ": the schema must be a JSON string", &b->schema) ||
		!body_string(c, jb, "schemaType", "", &b->schema_type))
		return false;
	b->refs = rest_body_member_json(jb, "references");
	b->metadata = rest_body_member_json(jb, "metadata");
	b->rule_set = rest_body_member_json(jb, "ruleSet");
	if (b->rule_set == NULL)
		b->rule_set = rest_body_member_json(jb, "ruleset");
	if (!body_int(c, jb, "id", &has_id, &b->id) ||
		!body_int(c, jb, "version", &has_version, &b->version))
		return false;
	b->tags_to_add = rest_body_member_json(jb, "schemaTagsToAdd");
	b->tags_to_remove = rest_body_member_json(jb, "schemaTagsToRemove");
	b->propagate_tags = body_true(jb, "propagateSchemaTags");
	if (!has_id || b->id < 0)
		b->id = 0;
	if (!has_version)
		b->version = 0;
	if (!empty_ok && (b->schema == NULL || b->schema[0] == '\0'))
	{
		rest_error(c, 422, 42201, confluent_text(CW_EMPTY_SCHEMA));
		return false;
	}
	if (b->schema == NULL)
		b->schema = "";
	if (b->schema_type == NULL || b->schema_type[0] == '\0')
		b->schema_type = "AVRO";
	if (b->refs == NULL)
		b->refs = "[]";
	b->normalize = rest_param_bool(c, "normalize");
	return true;
}

/* POST /subjects/{s}/versions */
static void
h_register(RestCall *c)
{
	CatalogSubmission b;
	CatalogSchemaRow row;

	(void) route_subject(c, c->seg[1]);
	if (!read_schema_body(c, &b, true))
		return;
	b.force = rest_param_bool(c, "force");
	registry_register_submission(c->subject, &b, &row);
	/* RegisterSchemaResponse */
	append_schema_row(&c->out, &row, false, true, row.schema, false);
}

/* POST /subjects/{s}: is this schema registered under the subject? */
static void
h_lookup(RestCall *c)
{
	CatalogSubmission b;
	CatalogSchemaRow row;

	(void) route_subject(c, c->seg[1]);
	c->lookup = true;
	if (!read_schema_body(c, &b, true))
		return;
	registry_lookup_submission(c->subject, &b, rest_param_bool(c, "deleted"), &row);
	rest_note_read(c, row_context(&row), row.id, row.subject);
	append_schema_row(&c->out, &row, true, true, formatted_schema(c, &row, row.subject), true);
}

/*
 * POST /subjects/{s}/versions/{v}/tags: Confluent's TagSchemaRequest
 * (newVersion, tagsToAdd, tagsToRemove, metadata, ruleSet, rulesToMerge,
 * rulesToRemove) makes a new version; the answer is a registration's.
 */
static void
h_tags(RestCall *c)
{
	Jsonb	   *jb = rest_body_object(c);
	CatalogTagRequest t;
	Registered	reg;
	CatalogSchemaRow row;
	const char *subject = path_subject_version(c);

	if (jb == NULL)
		return;
	memset(&t, 0, sizeof(t));
	if (!body_int(c, jb, "newVersion", &t.has_new_version, &t.new_version))
		return;
	t.tags_to_add = rest_body_member_json(jb, "tagsToAdd");
	t.tags_to_remove = rest_body_member_json(jb, "tagsToRemove");
	t.metadata = rest_body_member_json(jb, "metadata");
	t.rule_set = rest_body_member_json(jb, "ruleSet");
	t.rules_to_merge = rest_body_member_json(jb, "rulesToMerge");
	t.rules_to_remove = rest_body_member_json(jb, "rulesToRemove");
	registry_registered_row(registry_tag_version(subject, c->version, &t, &reg), &reg, &row);
	append_schema_row(&c->out, &row, false, true, row.schema, false);
}

/* POST /compatibility/subjects/{s}/versions[/{v}] */
static void
h_compatibility(RestCall *c)
{
	CatalogSubmission b;
	bool		verbose = rest_param_bool(c, "verbose");
	CatalogCompatibility verdict;

	(void) route_subject(c, c->seg[2]);
	c->version = c->nseg > 4 ? c->seg[4] : NULL;
	if (!read_schema_body(c, &b, false))
		return;
	registry_check_submission(c->subject, &b, c->version, verbose, &verdict);
	appendStringInfo(&c->out, "{\"is_compatible\":%s",
					 verdict.is_compatible ? "true" : "false");
	if (verbose && verdict.has_messages)
	{
		ListCell   *lc;

		appendStringInfoString(&c->out, ",\"messages\":[");
		foreach(lc, verdict.messages)
		{
			if (foreach_current_index(lc) > 0)
				appendStringInfoChar(&c->out, ',');
			escape_json(&c->out, (char *) lfirst(lc));
		}
		appendStringInfoChar(&c->out, ']');
	}
	appendStringInfoChar(&c->out, '}');
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

/* GET /config[/{s}] */
static void
h_config_get(RestCall *c)
{
	const char *subject = scope_subject(c);

	appendStringInfoString(&c->out,
						   registry_get_config(subject, rest_param_bool(c, "defaultToGlobal")));
}

/*
 * PUT /config[/{s}]: the body is the new Config; the answer is the
 * scope's configuration as stored after it, as Confluent 8.x answers
 */
static void
h_config_put(RestCall *c)
{
	Jsonb	   *jb = rest_body_object(c);
	const char *subject = scope_subject(c);
	char	   *stored;

	if (jb == NULL)
		return;
	(void) registry_set_config(subject, JsonbToCString(NULL, &jb->root, VARSIZE(jb)), &stored);
	appendStringInfoString(&c->out, stored);
}

/* DELETE /config[/{s}] */
static void
h_config_delete(RestCall *c)
{
	appendStringInfoString(&c->out, registry_delete_config(scope_subject(c)));
}

/* Confluent's Mode object */
static void
append_mode(RestCall *c, const char *mode)
{
	appendStringInfoString(&c->out, "{\"mode\":");
	escape_json(&c->out, mode);
	appendStringInfoChar(&c->out, '}');
}

/* GET /mode[/{s}] */
static void
h_mode_get(RestCall *c)
{
	const char *subject = scope_subject(c);

	append_mode(c, registry_get_mode(subject, subject == NULL ||
									 rest_param_bool(c, "defaultToGlobal")));
}

/* PUT /mode[/{s}]: the body is {"mode": ...} */
static void
h_mode_put(RestCall *c)
{
	Jsonb	   *jb = rest_body_object(c);
	JsonbValue *mode;
	const char *subject = scope_subject(c);

	if (jb == NULL)
		return;
	mode = rest_body_member(jb, "mode");
	if (mode == NULL || mode->type != jbvString)
	{
		rest_error(c, 422, 42204, confluent_text(CW_INVALID_MODE));
		return;
	}
	append_mode(c, registry_set_mode(pnstrdup(mode->val.string.val, mode->val.string.len),
									 subject, rest_param_bool(c, "force")));
}

/* DELETE /mode[/{s}][?recursive=true] */
static void
h_mode_delete(RestCall *c)
{
	append_mode(c, registry_delete_mode(scope_subject(c), rest_param_bool(c, "recursive")));
}

/* GET /metrics: Prometheus' text format (metrics.c) */
static void
h_metrics(RestCall *c)
{
	c->content_type = METRICS_CONTENT_TYPE;
	registry_metrics_render(&c->out);
}

/* --- the route table ------------------------------------------------------------ */

/*
 * A route: its method, pattern and handler, and the operation it serves,
 * whose privilege lets a role use it (privileges.c; REGISTRY_OP_OPEN for
 * the routes that read nothing of the registry).
 */
typedef struct Route
{
	const char *method;
	const char *pattern;		/* segments; "*" matches one segment */
	RestHandler handler;
	bool		plain_text;		/* answers text/plain, whatever Accept says */
	RegistryOperation operation;
} Route;

#define DEK_KEKS "dek-registry/v1/keks"

static const Route routes[] = {
	{"GET", "", h_root, false, REGISTRY_OP_OPEN},
	{"POST", "", h_root, false, REGISTRY_OP_OPEN},
	{"GET", "schemas/types", h_schema_types, false, REGISTRY_OP_OPEN},
	{"GET", "schemas", h_schemas_list, false, REGISTRY_OP_LIST_SCHEMAS},
	{"GET", "schemas/ids/*", h_schema_by_id, false, REGISTRY_OP_SCHEMA_BY_ID},
	{"GET", "schemas/ids/*/schema", h_schema_by_id_raw, false, REGISTRY_OP_SCHEMA_BY_ID},
	{"GET", "schemas/ids/*/subjects", h_schema_id_subjects, false, REGISTRY_OP_SCHEMA_VERSIONS},
	{"GET", "schemas/ids/*/versions", h_schema_id_versions, false, REGISTRY_OP_SCHEMA_VERSIONS},
	{"GET", "schemas/guids/*", h_schema_by_guid, false, REGISTRY_OP_SCHEMA_BY_GUID},
	{"GET", "schemas/guids/*/ids", h_schema_guid_ids, false, REGISTRY_OP_SCHEMA_IDS_BY_GUID},
	{"GET", "subjects", h_subjects, false, REGISTRY_OP_SUBJECTS},
	{"POST", "subjects/*", h_lookup, false, REGISTRY_OP_LOOKUP},
	{"DELETE", "subjects/*", h_subject_delete, false, REGISTRY_OP_DELETE_SUBJECT},
	{"GET", "subjects/*/versions", h_versions, false, REGISTRY_OP_VERSIONS},
	{"POST", "subjects/*/versions", h_register, false, REGISTRY_OP_REGISTER},
	{"POST", "subjects/*/versions/*/tags", h_tags, false, REGISTRY_OP_TAG},
	{"GET", "subjects/*/metadata", h_latest_with_metadata, false, REGISTRY_OP_LATEST_WITH_METADATA},
	{"GET", "subjects/*/versions/*", h_version_get, false, REGISTRY_OP_GET_VERSION},
	{"DELETE", "subjects/*/versions/*", h_version_delete, false, REGISTRY_OP_DELETE_VERSION},
	{"GET", "subjects/*/versions/*/schema", h_version_schema, false, REGISTRY_OP_GET_VERSION},
	{"GET", "subjects/*/versions/*/referencedby", h_version_referencedby, false,
	REGISTRY_OP_REFERENCED_BY},
	{"POST", "compatibility/subjects/*/versions", h_compatibility, false, REGISTRY_OP_CHECK},
	{"POST", "compatibility/subjects/*/versions/*", h_compatibility, false, REGISTRY_OP_CHECK},
	{"GET", "config", h_config_get, false, REGISTRY_OP_GET_CONFIG},
	{"PUT", "config", h_config_put, false, REGISTRY_OP_SET_CONFIG},
	{"DELETE", "config", h_config_delete, false, REGISTRY_OP_DELETE_CONFIG},
	{"GET", "config/*", h_config_get, false, REGISTRY_OP_GET_CONFIG},
	{"PUT", "config/*", h_config_put, false, REGISTRY_OP_SET_CONFIG},
	{"DELETE", "config/*", h_config_delete, false, REGISTRY_OP_DELETE_CONFIG},
	{"GET", "mode", h_mode_get, false, REGISTRY_OP_GET_MODE},
	{"PUT", "mode", h_mode_put, false, REGISTRY_OP_SET_MODE},
	{"DELETE", "mode", h_mode_delete, false, REGISTRY_OP_DELETE_MODE},
	{"GET", "mode/*", h_mode_get, false, REGISTRY_OP_GET_MODE},
	{"PUT", "mode/*", h_mode_put, false, REGISTRY_OP_SET_MODE},
	{"DELETE", "mode/*", h_mode_delete, false, REGISTRY_OP_DELETE_MODE},
	{"GET", "contexts", h_contexts, false, REGISTRY_OP_CONTEXTS},
	{"DELETE", "contexts/*", h_context_delete, false, REGISTRY_OP_DELETE_CONTEXT},
	{"GET", "associations/subjects/*", h_associations_by_subject, false,
	REGISTRY_OP_ASSOCIATIONS_BY_SUBJECT},
	{"GET", "associations/resources/*/*", h_associations_by_resource_name, false,
	REGISTRY_OP_ASSOCIATIONS_BY_RESOURCE_NAME},
	{"GET", "associations/resources/*", h_associations_by_resource_id, false,
	REGISTRY_OP_ASSOCIATIONS_BY_RESOURCE_ID},
	{"PUT", "associations/resources/*", h_associations_upsert, false,
	REGISTRY_OP_UPSERT_ASSOCIATION},
	{"DELETE", "associations/resources/*", h_associations_delete, false,
	REGISTRY_OP_DELETE_ASSOCIATIONS},
	{"POST", "associations", h_associations_create, false, REGISTRY_OP_CREATE_ASSOCIATION},
	{"POST", "associations:batchGet", h_associations_batch_get, false,
	REGISTRY_OP_BATCH_GET_ASSOCIATIONS},
	{"POST", "associations:batchMutate", h_associations_batch_mutate, false,
	REGISTRY_OP_MUTATE_ASSOCIATIONS},
	/* the DEK registry (rest_dek_routes.c) */
	{"GET", DEK_KEKS, rest_keks_list, false, REGISTRY_OP_LIST_KEKS},
	{"POST", DEK_KEKS, rest_kek_create, false, REGISTRY_OP_CREATE_KEK},
	{"GET", DEK_KEKS "/*", rest_kek_get, false, REGISTRY_OP_GET_KEK},
	{"PUT", DEK_KEKS "/*", rest_kek_update, false, REGISTRY_OP_UPDATE_KEK},
	{"DELETE", DEK_KEKS "/*", rest_kek_delete, false, REGISTRY_OP_DELETE_KEK},
	{"POST", DEK_KEKS "/*/undelete", rest_kek_undelete, false, REGISTRY_OP_UNDELETE_KEK},
	{"POST", DEK_KEKS "/*/test", rest_kek_test, false, REGISTRY_OP_TEST_KEK},
	{"GET", DEK_KEKS "/*/deks", rest_deks_list, false, REGISTRY_OP_LIST_DEKS},
	{"POST", DEK_KEKS "/*/deks", rest_dek_create, false, REGISTRY_OP_CREATE_DEK},
	{"GET", DEK_KEKS "/*/deks/*", rest_dek_get, false, REGISTRY_OP_GET_DEK},
	{"POST", DEK_KEKS "/*/deks/*", rest_dek_create, false, REGISTRY_OP_CREATE_DEK},
	{"DELETE", DEK_KEKS "/*/deks/*", rest_dek_delete, false, REGISTRY_OP_DELETE_DEK},
	{"POST", DEK_KEKS "/*/deks/*/undelete", rest_dek_undelete, false, REGISTRY_OP_UNDELETE_DEK},
	{"GET", DEK_KEKS "/*/deks/*/versions", rest_dek_versions, false, REGISTRY_OP_DEK_VERSIONS},
	{"GET", DEK_KEKS "/*/deks/*/versions/*", rest_dek_get, false, REGISTRY_OP_GET_DEK},
	{"DELETE", DEK_KEKS "/*/deks/*/versions/*", rest_dek_delete, false, REGISTRY_OP_DELETE_DEK},
	{"POST", DEK_KEKS "/*/deks/*/versions/*/undelete", rest_dek_undelete, false,
	REGISTRY_OP_UNDELETE_DEK},
	{"GET", "v1/metadata/id", h_metadata_id, false, REGISTRY_OP_OPEN},
	{"GET", "v1/metadata/version", h_metadata_version, false, REGISTRY_OP_OPEN},
	{"GET", "v1/metadata/deployment", h_metadata_deployment, false, REGISTRY_OP_OPEN},
	/* the metrics count the subjects' versions: the subject list's privilege */
	{"GET", "metrics", h_metrics, true, REGISTRY_OP_SUBJECTS},
	{NULL, NULL, NULL}
};

/* Does the path (nseg segments) match the route's pattern? */
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
 * The qualifying prefix for the {ctx} of /contexts/{ctx}/..., as
 * Confluent's ContextFilter normalizes it: one leading and one trailing
 * colon dropped, a dot put in front when missing, "" for the default
 * context.  False for a name that still holds a colon.
 */
static bool
context_prefix(const char *ctx, char **prefix)
{
	size_t		len;
	char	   *name;

	if (ctx[0] == ':')
		ctx++;
	len = strlen(ctx);
	if (len > 0 && ctx[len - 1] == ':')
		len--;
	name = pnstrdup(ctx, len);
	if (strchr(name, ':') != NULL)
		return false;
	if (name[0] != '.')
		name = psprintf(".%s", name);
	*prefix = strcmp(name, ".") == 0 ? pstrdup("") : psprintf(":%s:", name);
	return true;
}

/* A path subject under a context prefix; one already qualified stays as it is. */
static char *
prefixed_subject(const char *prefix, const char *subject)
{
	if (strncmp(subject, ":.", 2) == 0 || strncmp(subject, ":*:", 3) == 0)
		return pstrdup(subject);
	return psprintf("%s%s", prefix, subject);
}

/* A /contexts/{ctx}/... whose {ctx} holds a colon: Confluent's 400. */
static void
h_context_with_colon(RestCall *c)
{
	rest_error(c, 400, 400, "Context name cannot contain a colon");
}

/*
 * Confluent's URL-prefix form /contexts/{ctx}/subjects/..., /config,
 * /mode, /schemas: rewritten to context-qualified subjects, as its
 * ContextFilter does.  False when {ctx} is not a context name.
 */
static bool
apply_context_prefix(RestCall *c)
{
	char	   *prefix;

	if (c->nseg < 3 || strcmp(c->seg[0], "contexts") != 0)
		return true;
	if (!context_prefix(c->seg[1], &prefix))
		return false;
	c->seg += 2;
	c->nseg -= 2;
	if ((strcmp(c->seg[0], "subjects") == 0 || strcmp(c->seg[0], "config") == 0 ||
		 strcmp(c->seg[0], "mode") == 0) && c->nseg >= 2)
		c->seg[1] = prefixed_subject(prefix, c->seg[1]);
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
		c->seg[2] = prefixed_subject(prefix, c->seg[2]);
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
	return true;
}

/* The request's route, after the context prefix is applied. */
RestHandler
rest_route(RestCall *c, bool *method_mismatch)
{
	int			i;

	*method_mismatch = false;
	c->route = -1;
	if (!apply_context_prefix(c))
		return h_context_with_colon;
	for (i = 0; routes[i].method; i++)
	{
		if (!pattern_matches(routes[i].pattern, c->seg, c->nseg))
			continue;
		if (strcmp(routes[i].method, c->req->method) == 0)
		{
			c->route = i;
			c->plain_text = routes[i].plain_text;
			return routes[i].handler;
		}
		*method_mismatch = true;
	}
	return NULL;
}

/* How many routes the table has. */
int
rest_route_count(void)
{
	return lengthof(routes) - 1;
}

/* The method and pattern of the i-th route. */
void
rest_route_at(int i, const char **method, const char **pattern)
{
	*method = routes[i].method;
	*pattern = routes[i].pattern;
}

/* The operation the i-th route serves. */
RegistryOperation
rest_route_operation(int i)
{
	return routes[i].operation;
}

/*
 * See rest_internal.h: the operations a call serves, whose privileges it
 * needs (at most REST_CALL_MAX_OPERATIONS), how many.  A call is its
 * route's operation, but GET /schemas by association is the operation of
 * registry.list_schemas_by_association() and with aliases=true that of
 * list_schemas_with_aliases() (both, when it asks for both), as the SQL
 * function that reads the same rows rules them.
 */
int
rest_call_operations(RestCall *c, RegistryOperation *ops)
{
	int			n = 0;

	if (routes[c->route].handler == h_schemas_list)
	{
		if (association_filter_asked(c))
			ops[n++] = REGISTRY_OP_LIST_SCHEMAS_BY_ASSOCIATION;
		if (rest_param_bool(c, "aliases"))
			ops[n++] = REGISTRY_OP_LIST_SCHEMAS_WITH_ALIASES;
	}
	if (n == 0)
		ops[n++] = routes[c->route].operation;
	return n;
}

/* See rest.h */
int
registry_rest_route_index(const char *method, const char *pattern)
{
	int			i;

	for (i = 0; routes[i].method; i++)
		if (strcmp(routes[i].method, method) == 0 &&
			strcmp(routes[i].pattern, pattern) == 0)
			return i;
	return -1;
}
