/*-------------------------------------------------------------------------
 *
 * association_service.c
 *	  Confluent's association operations (8.2+), one function each, for
 *	  the REST routes (rest_routes.c) and the SQL functions
 *	  (association_sql.c) alike: the reads by subject, by resource name and
 *	  by resource id, create (POST /associations), create or update (PUT
 *	  /associations/resources/{id}), delete, and the two batches.
 *
 * A request is validated as Confluent's request classes validate it, with
 * their words (42212, "The association specified an invalid value for
 * property: ..."); what a row may be is left to the table's trigger
 * (association_triggers.c), which decides for every writer.  A schema in
 * an association is registered by the registration service
 * (registry_register_submission), as POST /subjects/{s}/versions would.
 * A STRONG association deleted with cascadeLifecycle takes its subject
 * along, by the delete service (soft, then permanent).  Each resource of
 * a batch runs in a subtransaction of its own: its failure is its result.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"

#include "association.h"
#include "catalog.h"
#include "confluent_messages.h"
#include "delete_service.h"
#include "json_out.h"
#include "registry.h"
#include "schemas.h"
#include "subtransaction.h"

#define TOPIC_RESOURCE_TYPE "topic"
#define NAMESPACE_WILDCARD "-"

/* One association of a request: what to create, update or delete. */
typedef struct AssociationOp
{
	char		op;				/* 'C' create, 'U' create or update, 'D'
								 * delete */
	char	   *subject;		/* as named, then qualified */
	const char *association_type;
	const char *lifecycle;		/* NULL: the existing one, else WEAK */
	int			frozen;			/* -1: not given */
	JsonbContainer *schema;		/* RegisterSchemaRequest, or NULL */
	bool		normalize;
	bool		cascade;		/* delete: cascadeLifecycle */
} AssociationOp;

/* A request for one resource: AssociationCreateOrUpdateRequest or AssociationOpRequest. */
typedef struct AssociationRequest
{
	const char *resource_name;
	const char *resource_namespace;
	const char *resource_id;
	const char *resource_type;
	AssociationOp *ops;
	int			nops;
} AssociationRequest;

/* 42212: Confluent's invalid association, naming the property and why. */
void
association_invalid(const char *property, const char *reason)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_INVALID_ASSOCIATION),
			 errmsg("invalid association: %s %s", property, reason),
			 errdetail("%s", confluent_text(CW_INVALID_ASSOCIATION, property, reason))));
	pg_unreachable();
}

/* 40903: the resource has an association of the type already. */
void
association_exists(const char *association_type, const char *resource)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_ASSOCIATION_EXISTS),
			 errmsg("resource \"%s\" has a %s association already", resource, association_type),
			 errdetail("%s", confluent_text(CW_ASSOCIATION_EXISTS, association_type, resource))));
	pg_unreachable();
}

/* 40908: the association of the type of a subject is frozen. */
void
association_frozen(const char *association_type, const char *qualified)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_ASSOCIATION_FROZEN),
			 errmsg("the %s association of subject \"%s\" is frozen", association_type, qualified),
			 errdetail("%s", confluent_text(CW_ASSOCIATION_FROZEN, association_type, qualified))));
	pg_unreachable();
}

/* --- reading a request -------------------------------------------------- */

/* A member of a JSON object, or NULL (JSON null counts as absent). */
static JsonbValue *
member(JsonbContainer *obj, const char *key)
{
	JsonbValue *v = getKeyJsonValueFromContainer(obj, key, strlen(key), NULL);

	return (v == NULL || v->type == jbvNull) ? NULL : v;
}

/* A string member, or NULL; anything but a string is refused. */
static const char *
member_string(JsonbContainer *obj, const char *key)
{
	JsonbValue *v = member(obj, key);

	if (v == NULL)
		return NULL;
	if (v->type != jbvString)
		association_invalid(key, "must be a string");
	return pnstrdup(v->val.string.val, v->val.string.len);
}

/* A boolean member: -1 when absent; anything but a boolean is refused. */
static int
member_bool(JsonbContainer *obj, const char *key)
{
	JsonbValue *v = member(obj, key);

	if (v == NULL)
		return -1;
	if (v->type != jbvBool)
		association_invalid(key, "must be a boolean");
	return v->val.boolean ? 1 : 0;
}

/* An object or array member's container, or NULL; is_array says which it must be. */
static JsonbContainer *
member_container(JsonbContainer *obj, const char *key, bool is_array)
{
	JsonbValue *v = member(obj, key);

	if (v == NULL)
		return NULL;
	if (v->type != jbvBinary ||
		(is_array ? !JsonContainerIsArray(v->val.binary.data) :
		 !JsonContainerIsObject(v->val.binary.data)))
		association_invalid(key, is_array ? "must be an array" : "must be an object");
	return v->val.binary.data;
}

/* The i-th element of an array, an object's container. */
static JsonbContainer *
element_object(JsonbContainer *array, int i, const char *property)
{
	JsonbValue *v = getIthJsonbValueFromContainer(array, i);

	if (v == NULL || v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data))
		association_invalid(property, "must hold objects");
	return v->val.binary.data;
}

/* A lifecycle member: STRONG, WEAK or NULL. */
static const char *
member_lifecycle(JsonbContainer *obj)
{
	const char *lifecycle = member_string(obj, "lifecycle");

	if (lifecycle != NULL && strcmp(lifecycle, "STRONG") != 0 && strcmp(lifecycle, "WEAK") != 0)
		association_invalid("lifecycle", "must be either 'STRONG' or 'WEAK'");
	return lifecycle;
}

/* An association type: key or value, value when absent. */
static const char *
checked_association_type(const char *type)
{
	if (type == NULL || type[0] == '\0')
		return "value";
	if (strcmp(type, "key") != 0 && strcmp(type, "value") != 0)
		association_invalid("associationType", "must be either 'key' or 'value'");
	return type;
}

/* One association of a request; batch: an op with its opType. */
static void
read_op(JsonbContainer *obj, bool batch, bool upsert, AssociationOp *op)
{
	memset(op, 0, sizeof(AssociationOp));
	op->op = upsert ? 'U' : 'C';
	if (batch)
	{
		const char *type = member_string(obj, "opType");

		if (type == NULL)
			association_invalid("opType", "cannot be null");
		if (strcmp(type, "CREATE") == 0)
			op->op = 'C';
		else if (strcmp(type, "UPSERT") == 0)
			op->op = 'U';
		else if (strcmp(type, "DELETE") == 0)
			op->op = 'D';
		else
			association_invalid("opType", "must be one of CREATE, UPSERT and DELETE");
	}
	op->association_type = checked_association_type(member_string(obj, "associationType"));
	if (op->op == 'D')
	{
		op->cascade = member_bool(obj, "cascadeLifecycle") == 1;
		return;
	}
	op->subject = (char *) member_string(obj, "subject");
	op->lifecycle = member_lifecycle(obj);
	op->frozen = member_bool(obj, "frozen");
	op->schema = member_container(obj, "schema", false);
	op->normalize = member_bool(obj, "normalize") == 1;
	if (op->lifecycle != NULL && strcmp(op->lifecycle, "WEAK") == 0)
	{
		if (op->schema != NULL)
			association_invalid("lifecycle", "cannot be WEAK when schema is provided");
		if (op->frozen == 1)
			association_invalid("frozen", "association with lifecycle of WEAK cannot be frozen");
	}
}

/*
 * A name of the resource: neither absent nor empty, and short enough for
 * the table's index keys (a Kafka topic name has at most 249 characters).
 */
void
association_check_name(const char *name, const char *property)
{
	if (name == NULL || name[0] == '\0')
		association_invalid(property, "cannot be null or empty");
	if (strlen(name) > ASSOCIATION_MAX_NAME_BYTES)
		association_invalid(property, psprintf("cannot be longer than %d bytes",
											   ASSOCIATION_MAX_NAME_BYTES));
}

/*
 * A resource's request, validated as Confluent validates it: the resource
 * named, its id (but for a dry run), the topic type, at least one
 * association, each subject (by default ":.{namespace}:{name}-{type}", the
 * one subject a frozen association may have) qualified by context when it
 * names none, one frozen state for the resource, no association type twice.
 */
static void
read_request(JsonbContainer *obj, bool batch, bool upsert, const char *path_resource_id,
			 const char *context, bool dry_run, AssociationRequest *r)
{
	JsonbContainer *list;
	int			frozen_state = -1;

	memset(r, 0, sizeof(AssociationRequest));
	r->resource_name = member_string(obj, "resourceName");
	r->resource_namespace = member_string(obj, "resourceNamespace");
	r->resource_id = member_string(obj, "resourceId");
	r->resource_type = member_string(obj, "resourceType");
	if (path_resource_id != NULL)
	{
		if (r->resource_id == NULL)
			r->resource_id = path_resource_id;
		else if (strcmp(r->resource_id, path_resource_id) != 0)
			association_invalid("resourceId",
								"Resource ID in the path parameter does not match the resource ID in the request body");
	}
	association_check_name(r->resource_name, "resourceName");
	association_check_name(r->resource_namespace, "resourceNamespace");
	if (!dry_run || (r->resource_id != NULL && r->resource_id[0] != '\0'))
		association_check_name(r->resource_id, "resourceId");
	if (r->resource_type == NULL || r->resource_type[0] == '\0')
		r->resource_type = TOPIC_RESOURCE_TYPE;
	else if (strcmp(r->resource_type, TOPIC_RESOURCE_TYPE) != 0)
		association_invalid("resourceType", "must be 'topic'");
	list = member_container(obj, "associations", true);
	if (list == NULL || JsonContainerSize(list) == 0)
		association_invalid("associations", "cannot be null or empty");
	r->nops = JsonContainerSize(list);
	r->ops = palloc0(sizeof(AssociationOp) * r->nops);
	for (int i = 0; i < r->nops; i++)
	{
		AssociationOp *op = &r->ops[i];
		char	   *default_subject;

		read_op(element_object(list, i, "associations"), batch, upsert, op);
		for (int j = 0; j < i; j++)
			if (strcmp(r->ops[j].association_type, op->association_type) == 0)
				association_invalid("associationType",
									psprintf("'%s' is given more than once", op->association_type));
		if (op->op == 'D')
			continue;
		default_subject = psprintf(":.%s:%s-%s", r->resource_namespace, r->resource_name,
								   op->association_type);
		if (op->subject == NULL)
			op->subject = default_subject;
		if (op->frozen == 1 && strcmp(op->subject, default_subject) != 0)
			association_invalid("subject",
								psprintf("frozen associations must use subject '%s'", default_subject));
		if (op->frozen != -1)
		{
			if (frozen_state == -1)
				frozen_state = op->frozen;
			else if (frozen_state != op->frozen)
				association_invalid("frozen",
									"all associations for a resource must be consistently frozen or non-frozen");
		}
		if (context != NULL && context[0] != '\0' && strcmp(context, REGISTRY_DEFAULT_CONTEXT) != 0 &&
			strncmp(op->subject, ":.", 2) != 0)
			op->subject = registry_qualify_subject(context[0] == '.' ? context :
												   psprintf(".%s", context), op->subject);
		registry_validate_subject(op->subject, op->subject);
	}
}

/* --- answers ------------------------------------------------------------ */

/* A string member, left out when NULL. */
static void
json_member_string(StringInfo out, bool *first, const char *key, const char *value)
{
	if (value == NULL)
		return;
	registry_json_key(out, first, key);
	escape_json(out, value);
}

/* Confluent's Association entity. */
static void
append_association(StringInfo out, const CatalogAssociation *a)
{
	bool		first = true;

	appendStringInfoChar(out, '{');
	json_member_string(out, &first, "subject", registry_qualify_subject(a->context, a->subject));
	json_member_string(out, &first, "resourceName", a->resource_name);
	json_member_string(out, &first, "resourceNamespace", a->resource_namespace);
	json_member_string(out, &first, "resourceId", a->resource_id);
	json_member_string(out, &first, "resourceType", a->resource_type);
	json_member_string(out, &first, "associationType", a->association_type);
	json_member_string(out, &first, "lifecycle", a->lifecycle);
	registry_json_key(out, &first, "frozen");
	appendStringInfoString(out, a->frozen ? "true" : "false");
	appendStringInfoChar(out, '}');
}

/* Confluent's Schema entity of a subject's version, for an association's "schema". */
static void
append_schema(StringInfo out, const CatalogSchemaRow *row)
{
	bool		first = true;

	appendStringInfoChar(out, '{');
	json_member_string(out, &first, "subject", row->subject);
	registry_json_key(out, &first, "version");
	appendStringInfo(out, "%d", row->version);
	registry_json_key(out, &first, "id");
	appendStringInfo(out, "%d", row->id);
	json_member_string(out, &first, "guid", row->guid);
	json_member_string(out, &first, "schemaType", row->schema_type);
	if (row->refs != NULL && strcmp(row->refs, "[]") != 0)
	{
		registry_json_key(out, &first, "references");
		appendStringInfoString(out, row->refs);
	}
	json_member_string(out, &first, "schema", row->schema);
	appendStringInfoChar(out, '}');
}

/* Confluent's AssociationInfo: an association in a response, with its schema if any. */
static void
append_association_info(StringInfo out, const CatalogAssociation *a, const CatalogSchemaRow *schema)
{
	bool		first = true;

	appendStringInfoChar(out, '{');
	json_member_string(out, &first, "subject", registry_qualify_subject(a->context, a->subject));
	json_member_string(out, &first, "associationType", a->association_type);
	json_member_string(out, &first, "lifecycle", a->lifecycle);
	registry_json_key(out, &first, "frozen");
	appendStringInfoString(out, a->frozen ? "true" : "false");
	if (schema != NULL)
	{
		registry_json_key(out, &first, "schema");
		append_schema(out, schema);
	}
	appendStringInfoChar(out, '}');
}

/* The resource members of an AssociationResponse, opening it. */
static void
open_response(StringInfo out, const char *name, const char *namespace, const char *id,
			  const char *type)
{
	bool		first = true;

	appendStringInfoChar(out, '{');
	json_member_string(out, &first, "resourceName", name);
	json_member_string(out, &first, "resourceNamespace", namespace);
	json_member_string(out, &first, "resourceId", id);
	json_member_string(out, &first, "resourceType", type);
}

/* --- reads -------------------------------------------------------------- */

/* Does an association pass a read's filter? */
static bool
filter_passes(const AssociationFilter *f, const CatalogAssociation *a)
{
	const char *type = (f->resource_type && f->resource_type[0]) ?
	f->resource_type : TOPIC_RESOURCE_TYPE;
	ListCell   *lc;
	bool		found;

	if (strcmp(a->resource_type, type) != 0)
		return false;
	if (f->lifecycle != NULL && strcmp(a->lifecycle, f->lifecycle) != 0)
		return false;
	if (f->association_types == NIL)
		return true;
	found = false;
	foreach(lc, f->association_types)
		if (strcmp((char *) lfirst(lc), a->association_type) == 0)
		found = true;
	return found;
}

/* Rows that pass the filter, paged by its offset and limit, as a JSON array. */
static char *
association_list(const AssociationFilter *f, const CatalogAssociation *rows, int n)
{
	StringInfoData out;
	int			passed = 0;
	int			listed = 0;

	initStringInfo(&out);
	appendStringInfoChar(&out, '[');
	for (int i = 0; i < n; i++)
	{
		if (!filter_passes(f, &rows[i]))
			continue;
		if (passed++ < f->offset)
			continue;
		if (f->limit > 0 && listed >= f->limit)
			break;
		if (listed++ > 0)
			appendStringInfoChar(&out, ',');
		append_association(&out, &rows[i]);
	}
	appendStringInfoChar(&out, ']');
	return out.data;
}

/* GET /associations/subjects/{subject}: the subject's associations. */
char *
registry_associations_by_subject(const char *subject, const AssociationFilter *f)
{
	char	   *context;
	char	   *name;
	int			n;
	CatalogAssociation *rows;

	registry_split_subject_cstr(subject, &context, &name);
	rows = catalog_associations_by_subject(context, name, &n);
	return association_list(f, rows, n);
}

/* The ASSOCIATION_LIFECYCLE_* bit of a lifecycle name (STRONG, WEAK, NONE), else 0. */
int
association_lifecycle_bit(const char *name)
{
	if (strcmp(name, "STRONG") == 0)
		return ASSOCIATION_LIFECYCLE_STRONG;
	if (strcmp(name, "WEAK") == 0)
		return ASSOCIATION_LIFECYCLE_WEAK;
	if (strcmp(name, "NONE") == 0)
		return ASSOCIATION_LIFECYCLE_NONE;
	return 0;
}

/*
 * GET /schemas by association: does the subject (name in its context) pass?
 * Its associations of the filter's resource type and association types
 * (the filter's lifecycle, offset and limit are not used) whose lifecycle
 * is one of lifecycles (ASSOCIATION_LIFECYCLE_* bits; 0: any) make it pass,
 * and so does having none of them at all when ASSOCIATION_LIFECYCLE_NONE
 * is asked for.  *json: those associations as a JSON array of Association
 * entities ("[]" when none).
 */
bool
registry_subject_passes_associations(const char *context, const char *subject,
									 const AssociationFilter *f, int lifecycles, char **json)
{
	int			n;
	int			of_type = 0;
	int			kept = 0;
	CatalogAssociation *rows = catalog_associations_by_subject(context, subject, &n);
	StringInfoData out;

	initStringInfo(&out);
	appendStringInfoChar(&out, '[');
	for (int i = 0; i < n; i++)
	{
		int			bit;

		if (!filter_passes(f, &rows[i]))
			continue;
		of_type++;
		bit = association_lifecycle_bit(rows[i].lifecycle);
		if (lifecycles != 0 && (lifecycles & bit) == 0)
			continue;
		if (kept++ > 0)
			appendStringInfoChar(&out, ',');
		append_association(&out, &rows[i]);
	}
	appendStringInfoChar(&out, ']');
	*json = out.data;
	if (kept > 0)
		return true;
	return of_type == 0 && (lifecycles & ASSOCIATION_LIFECYCLE_NONE) != 0;
}

/* GET /associations/resources/{namespace}/{name}: a resource's associations, "-" any namespace. */
char *
registry_associations_by_resource_name(const char *resource_name, const char *resource_namespace,
									   const AssociationFilter *f)
{
	int			n;
	CatalogAssociation *rows;

	if (resource_namespace != NULL && strcmp(resource_namespace, NAMESPACE_WILDCARD) == 0)
		resource_namespace = NULL;
	rows = catalog_associations_by_name(resource_name, resource_namespace, &n);
	return association_list(f, rows, n);
}

/* GET /associations/resources/{id}: a resource's associations by its id. */
char *
registry_associations_by_resource_id(const char *resource_id, const AssociationFilter *f)
{
	int			n;
	const char *type = (f->resource_type && f->resource_type[0]) ?
	f->resource_type : TOPIC_RESOURCE_TYPE;
	CatalogAssociation *rows = catalog_associations_by_id(type, resource_id, &n);

	return association_list(f, rows, n);
}

/* --- writes ------------------------------------------------------------- */

/* The existing association of the request's resource of a type, or NULL. */
static CatalogAssociation *
existing_association(const AssociationRequest *r, const char *association_type)
{
	int			n;
	CatalogAssociation *rows = catalog_associations_by_id(r->resource_type, r->resource_id, &n);

	for (int i = 0; i < n; i++)
		if (strcmp(rows[i].association_type, association_type) == 0)
			return &rows[i];
	return NULL;
}

/*
 * Register the schema an association carries under its subject, with the
 * registration service, and read back the version made (or found).
 */
static void
register_association_schema(const AssociationOp *op, CatalogSchemaRow *row)
{
	CatalogSubmission s;
	const char *schema = member_string(op->schema, "schema");
	const char *schema_type = member_string(op->schema, "schemaType");
	char	   *context;
	char	   *name;
	bool		live;
	bool		deleted;

	if (op->frozen == 1)
	{
		/* a frozen association's subject is made with it */
		registry_split_subject_cstr(op->subject, &context, &name);
		catalog_subject_version_kinds(context, name, &live, &deleted);
		if (live || deleted)
			association_invalid("subject",
								psprintf("the subject '%s' of a frozen association must not exist yet",
										 op->subject));
	}
	memset(&s, 0, sizeof(s));
	s.schema = schema ? schema : "";
	s.schema_type = (schema_type && schema_type[0]) ? schema_type : "AVRO";
	s.refs = "[]";
	{
		JsonbContainer *refs = member_container(op->schema, "references", true);
		JsonbContainer *metadata = member_container(op->schema, "metadata", false);
		JsonbContainer *rule_set = member_container(op->schema, "ruleSet", false);

		if (refs)
			s.refs = JsonbToCString(NULL, refs, 0);
		if (metadata)
			s.metadata = JsonbToCString(NULL, metadata, 0);
		if (rule_set)
			s.rule_set = JsonbToCString(NULL, rule_set, 0);
	}
	s.normalize = op->normalize;
	memset(row, 0, sizeof(CatalogSchemaRow));
	registry_register_submission(registry_served_subject(op->subject), &s, row);
	if (row->subject == NULL)
		row->subject = op->subject;
}

/*
 * Create or update one association of the request (op 'C' or 'U'): its
 * schema registered first; a create refused when the resource has one of
 * the type; an update written only when it changes something.
 */
static void
apply_create(const AssociationRequest *r, const AssociationOp *op, StringInfo out)
{
	CatalogAssociation *existing = existing_association(r, op->association_type);
	CatalogAssociation a;
	CatalogSchemaRow schema;
	bool		has_schema = op->schema != NULL;

	if (existing != NULL && op->op == 'C')
		association_exists(op->association_type, r->resource_id);
	if (existing == NULL && op->frozen == 1 && !has_schema)
		association_invalid("schema", "cannot be null for a frozen association");
	if (has_schema)
		register_association_schema(op, &schema);

	memset(&a, 0, sizeof(a));
	a.resource_type = (char *) r->resource_type;
	a.resource_id = (char *) r->resource_id;
	a.association_type = (char *) op->association_type;
	a.resource_name = (char *) r->resource_name;
	a.resource_namespace = (char *) r->resource_namespace;
	registry_split_subject_cstr(op->subject, &a.context, &a.subject);
	a.lifecycle = (char *) (op->lifecycle ? op->lifecycle :
							existing ? existing->lifecycle : "WEAK");
	a.frozen = op->frozen == -1 ? (existing && existing->frozen) : op->frozen == 1;
	if (existing == NULL)
		catalog_insert_association(&a);
	else if (strcmp(existing->context, a.context) != 0 ||
			 strcmp(existing->subject, a.subject) != 0 ||
			 strcmp(existing->lifecycle, a.lifecycle) != 0 ||
			 existing->frozen != a.frozen ||
			 strcmp(existing->resource_name, a.resource_name) != 0 ||
			 strcmp(existing->resource_namespace, a.resource_namespace) != 0)
		catalog_update_association(&a);
	append_association_info(out, &a, has_schema ? &schema : NULL);
}

/*
 * Delete associations of a resource: the frozen ones only with cascade;
 * with cascade a STRONG one's subject goes too, soft then permanently.
 */
static void
delete_rows(CatalogAssociation *rows, int n, bool cascade, bool dry_run)
{
	for (int i = 0; i < n; i++)
		if (rows[i].frozen && !cascade)
			association_frozen(rows[i].association_type,
							   registry_qualify_subject(rows[i].context, rows[i].subject));
	if (dry_run)
		return;
	for (int i = 0; i < n; i++)
	{
		catalog_delete_association(rows[i].resource_type, rows[i].resource_id,
								   rows[i].association_type);
		if (cascade && strcmp(rows[i].lifecycle, "STRONG") == 0)
		{
			char	   *qualified = registry_qualify_subject(rows[i].context, rows[i].subject);
			bool		live;
			bool		deleted;

			catalog_subject_version_kinds(rows[i].context, rows[i].subject, &live, &deleted);
			if (live)
				(void) registry_delete_subject(qualified, false);
			if (live || deleted)
				(void) registry_delete_subject(qualified, true);
		}
	}
}

/* The rows of a resource of the given types (NIL: all); 40410 when none. */
static CatalogAssociation *
rows_to_delete(const char *resource_id, const char *resource_type, List *types, int *n)
{
	int			all;
	CatalogAssociation *rows = catalog_associations_by_id(resource_type, resource_id, &all);
	CatalogAssociation *keep = palloc0(sizeof(CatalogAssociation) * (all + 1));
	AssociationFilter f;

	memset(&f, 0, sizeof(f));
	f.resource_type = resource_type;
	f.association_types = types;
	*n = 0;
	for (int i = 0; i < all; i++)
		if (filter_passes(&f, &rows[i]))
			keep[(*n)++] = rows[i];
	if (*n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_ASSOCIATION_NOT_FOUND),
				 errmsg("resource \"%s\" has no such association", resource_id),
				 errdetail("%s", confluent_text(CW_ASSOCIATION_NOT_FOUND, resource_id))));
	return keep;
}

/* The operations of one resource's request, answered as an AssociationResponse. */
static char *
apply_request(const AssociationRequest *r, bool dry_run)
{
	StringInfoData out;
	bool		listed = false;

	initStringInfo(&out);
	open_response(&out, r->resource_name, r->resource_namespace, r->resource_id,
				  r->resource_type);
	if (!dry_run)
	{
		for (int i = 0; i < r->nops; i++)
		{
			const AssociationOp *op = &r->ops[i];

			if (op->op == 'D')
			{
				int			n;
				CatalogAssociation *rows = rows_to_delete(r->resource_id, r->resource_type,
														  list_make1((char *) op->association_type),
														  &n);

				delete_rows(rows, n, op->cascade, false);
				continue;
			}
			appendStringInfoString(&out, listed ? "," : ",\"associations\":[");
			listed = true;
			apply_create(r, op, &out);
		}
		if (listed)
			appendStringInfoChar(&out, ']');
	}
	appendStringInfoChar(&out, '}');
	return out.data;
}

/*
 * POST /associations (upsert false) and PUT /associations/resources/{id}
 * (upsert true, path_resource_id the path's): a resource's associations
 * created (or updated), their schemas registered; a dry run validates.
 */
char *
registry_create_association(Jsonb *request, const char *path_resource_id, const char *context,
							bool dry_run, bool upsert)
{
	AssociationRequest r;

	if (request == NULL || !JB_ROOT_IS_OBJECT(request))
		association_invalid("request", "must be an object");
	read_request(&request->root, false, upsert, path_resource_id, context, dry_run, &r);
	return apply_request(&r, dry_run);
}

/*
 * DELETE /associations/resources/{id}: the resource's associations of the
 * given types (NIL: all) deleted; 40410 when it has none of them.
 */
void
registry_delete_associations(const char *resource_id, const char *resource_type,
							 List *association_types, bool cascade, bool dry_run)
{
	int			n;
	CatalogAssociation *rows;

	if (resource_type == NULL || resource_type[0] == '\0')
		resource_type = TOPIC_RESOURCE_TYPE;
	rows = rows_to_delete(resource_id, resource_type, association_types, &n);
	delete_rows(rows, n, cascade, dry_run);
}

/* --- batches ------------------------------------------------------------ */

/* The "requests" array of a batch: neither absent nor empty. */
static JsonbContainer *
batch_requests(Jsonb *request)
{
	JsonbContainer *list;

	if (request == NULL || !JB_ROOT_IS_OBJECT(request))
		association_invalid("requests", "cannot be null or empty");
	list = member_container(&request->root, "requests", true);
	if (list == NULL || JsonContainerSize(list) == 0)
		association_invalid("requests", "cannot be null or empty");
	return list;
}

/* Confluent's error body of a failed part of a batch. */
static void
append_error(StringInfo out, ErrorData *edata)
{
	int			code = registry_confluent_error_code(edata->sqlerrcode);
	const char *message;

	if (code == 50001)
		message = confluent_fixed_text(CW_STORE_ERROR);
	else
		message = (edata->detail && edata->detail[0]) ? edata->detail : edata->message;
	appendStringInfo(out, "{\"error\":{\"error_code\":%d,\"message\":", code);
	escape_json(out, message ? message : "");
	appendStringInfoString(out, "}}");
}

/* One resource of a batch, for registry_call_in_subtransaction(). */
typedef struct BatchPart
{
	JsonbContainer *request;
	const char *context;
	bool		dry_run;
	bool		include_schemas;
	char	   *result;
} BatchPart;

/* One AssociationGetRequest of a batch get, answered as an AssociationResponse. */
static void
batch_get_part(void *arg)
{
	BatchPart  *p = (BatchPart *) arg;
	AssociationFilter f;
	const char *id = member_string(p->request, "resourceId");
	const char *name = member_string(p->request, "resourceName");
	const char *namespace = member_string(p->request, "resourceNamespace");
	JsonbContainer *types = member_container(p->request, "associationTypes", true);
	CatalogAssociation *rows;
	int			n;
	StringInfoData out;
	int			listed = 0;

	memset(&f, 0, sizeof(f));
	f.resource_type = member_string(p->request, "resourceType");
	f.lifecycle = member_lifecycle(p->request);
	for (int i = 0; types && i < (int) JsonContainerSize(types); i++)
	{
		JsonbValue *v = getIthJsonbValueFromContainer(types, i);

		if (v == NULL || v->type != jbvString)
			association_invalid("associationTypes", "must hold strings");
		f.association_types = lappend(f.association_types,
									  pnstrdup(v->val.string.val, v->val.string.len));
	}
	if (id != NULL)
		rows = catalog_associations_by_id((f.resource_type && f.resource_type[0]) ?
										  f.resource_type : TOPIC_RESOURCE_TYPE, id, &n);
	else
	{
		association_check_name(name, "resourceName");
		rows = catalog_associations_by_name(name, (namespace == NULL ||
												   strcmp(namespace, NAMESPACE_WILDCARD) == 0) ?
											NULL : namespace, &n);
	}
	initStringInfo(&out);
	appendStringInfoString(&out, "{\"result\":");
	for (int i = 0; i < n; i++)
	{
		CatalogSchemaRow schema;

		if (!filter_passes(&f, &rows[i]))
			continue;
		if (listed++ == 0)
		{
			open_response(&out, rows[i].resource_name, rows[i].resource_namespace,
						  rows[i].resource_id, rows[i].resource_type);
			appendStringInfoString(&out, ",\"associations\":[");
		}
		else
			appendStringInfoChar(&out, ',');
		if (p->include_schemas)
		{
			char	   *qualified = registry_qualify_subject(rows[i].context, rows[i].subject);

			memset(&schema, 0, sizeof(schema));
			registry_read_version(registry_served_subject(qualified), qualified, "latest",
								  false, &schema);
			if (schema.subject == NULL)
				schema.subject = qualified;
		}
		append_association_info(&out, &rows[i], p->include_schemas ? &schema : NULL);
	}
	if (listed == 0)
		open_response(&out, name, namespace, id,
					  (f.resource_type && f.resource_type[0]) ? f.resource_type : TOPIC_RESOURCE_TYPE);
	else
		appendStringInfoChar(&out, ']');
	appendStringInfoString(&out, "}}");
	p->result = out.data;
}

/* One AssociationOpRequest of a batch mutate, answered as an AssociationResponse. */
static void
batch_mutate_part(void *arg)
{
	BatchPart  *p = (BatchPart *) arg;
	AssociationRequest r;

	read_request(p->request, true, false, NULL, p->context, p->dry_run, &r);
	p->result = psprintf("{\"result\":%s}", apply_request(&r, p->dry_run));
}

/* Run each request of a batch in a subtransaction of its own; {"results": [...]}. */
static char *
run_batch(Jsonb *request, void (*part) (void *), const char *context, bool dry_run,
		  bool include_schemas)
{
	JsonbContainer *list = batch_requests(request);
	StringInfoData out;
	int			n = JsonContainerSize(list);

	initStringInfo(&out);
	appendStringInfoString(&out, "{\"results\":[");
	for (int i = 0; i < n; i++)
	{
		BatchPart	p;
		ErrorData  *edata;

		memset(&p, 0, sizeof(p));
		p.request = element_object(list, i, "requests");
		p.context = context;
		p.dry_run = dry_run;
		p.include_schemas = include_schemas;
		if (i > 0)
			appendStringInfoChar(&out, ',');
		edata = registry_call_in_subtransaction(part, &p);
		if (edata != NULL)
		{
			append_error(&out, edata);
			FreeErrorData(edata);
		}
		else
			appendStringInfoString(&out, p.result);
	}
	appendStringInfoString(&out, "]}");
	return out.data;
}

/* POST /associations:batchGet: each resource's associations, or its error. */
char *
registry_batch_get_associations(Jsonb *request, bool include_schemas)
{
	return run_batch(request, batch_get_part, NULL, false, include_schemas);
}

/* POST /associations:batchMutate: each resource's operations, or its error. */
char *
registry_mutate_associations(Jsonb *request, const char *context, bool dry_run)
{
	return run_batch(request, batch_mutate_part, context, dry_run, false);
}
