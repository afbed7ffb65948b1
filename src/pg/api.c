/*-------------------------------------------------------------------------
 *
 * api.c
 *	  The SQL API functions that need the schema parsers: register_schema,
 *	  register_schema_version, tag_schema_version, lookup_schema and
 *	  check_compatibility.
 *
 * The rules a registration shares with raw DML (mode, numbering,
 * compatibility) are the functions the insert triggers call too
 * (settings.c, triggers.c, compatibility.c).  register_schema applies them
 * itself, under the subject's lock and before it allocates an id, so a
 * refused schema leaves no gap; the version row's trigger then decides
 * again, and finds the compatible verdict reached on the same inputs
 * already (verdicts.c).
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

#include "catalog.h"
#include "compatibility.h"
#include "confluent_messages.h"
#include "data_contract.h"
#include "registry.h"
#include "schemas.h"
#include "tags.h"

PG_FUNCTION_INFO_V1(registry_register_schema);
PG_FUNCTION_INFO_V1(registry_register_schema_version);
PG_FUNCTION_INFO_V1(registry_lookup_schema);
PG_FUNCTION_INFO_V1(registry_check_compatibility);
PG_FUNCTION_INFO_V1(registry_lint);
PG_FUNCTION_INFO_V1(registry_tag_schema_version);
PG_FUNCTION_INFO_V1(registry_resolve_version);
PG_FUNCTION_INFO_V1(registry_get_version);

/* The arguments every function here starts with, read once. */
typedef struct SchemaArgs
{
	char	   *qualified;
	char	   *context;
	char	   *subject;
	char	   *schema;
	char	   *schema_type;
	char	   *refs;
	bool		normalize;
	char	   *metadata;
	char	   *rule_set;
} SchemaArgs;

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

/* What register_schema's caller gets back. */
typedef struct Registered
{
	int32		id;
	int32		version;
	const char *schema_type;
	char	   *schema;			/* stored form, in the caller's context */
	char	   *refs;			/* jsonb text, in the caller's context */
	char	   *metadata;		/* as stored (merged), or NULL */
	char	   *rule_set;		/* as stored (merged), or NULL */
	bool		inserted;		/* the version is new, made by this call */
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];	/* the schema's */
} Registered;

/*
 * A registration's arguments: the schema, the id and version asked for,
 * and Confluent's schema tag operations.
 */
typedef struct Registration
{
	SchemaArgs	a;
	bool		has_id;
	int32		want_id;
	bool		has_version;
	int32		want_version;
	const char *tags_to_add;	/* schemaTagsToAdd (SchemaTags list), or NULL */
	const char *tags_to_remove; /* schemaTagsToRemove, or NULL */
	bool		propagate_tags; /* propagateSchemaTags */
	bool		new_version;	/* always a new version (Confluent's version
								 * -1, a tagged registration's too) */
	bool		latest_only;	/* version -1: the fast path answers with the
								 * latest version only */
} Registration;

/* What the caller returns, copied into its memory context. */
static void
registered(Registered *out, MemoryContext cxt, SubmittedSchema *s, int32 id, int32 version)
{
	out->id = id;
	out->version = version;
	out->schema_type = s->format->name;
	out->schema = MemoryContextStrdup(cxt, s->parsed->canonical);
	out->refs = MemoryContextStrdup(cxt, s->refs_json);
	out->metadata = s->metadata ? MemoryContextStrdup(cxt, s->metadata) : NULL;
	out->rule_set = s->rule_set ? MemoryContextStrdup(cxt, s->rule_set) : NULL;
	out->inserted = false;
	memcpy(out->fingerprint, s->fingerprint, REGISTRY_FINGERPRINT_LEN);
}

static void refuse_other_id(const char *context, int32 id, int32 want_id) pg_attribute_noreturn();
static void refuse_taken_id(const char *context, int32 want_id) pg_attribute_noreturn();

/* IMPORT: the schema already has another id in the context. */
static void
refuse_other_id(const char *context, int32 id, int32 want_id)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
			 errmsg("schema already registered with id %d in context \"%s\"", id, context),
			 errdetail("%s", confluent_text(CW_OVERWRITE_SCHEMA_ID, psprintf("%d", want_id),
											context))));
}

/* IMPORT: the explicit id belongs to other content. */
static void
refuse_taken_id(const char *context, int32 want_id)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
			 errmsg("schema id %d is taken by another schema in context \"%s\"",
					want_id, context),
			 errdetail("%s", confluent_text(CW_OVERWRITE_SCHEMA_ID, psprintf("%d", want_id),
											context))));
}

/*
 * The id of a schema that a concurrent registration (under another
 * subject) inserted while this one was allocating: the same identity has
 * one id, so every caller gets it.  Under REPEATABLE READ the other's row
 * is invisible, which is a serialization failure; an explicit id taken by
 * other content is the IMPORT error.
 */
static int32
schema_id_after_conflict(SchemaArgs *a, SubmittedSchema *s, int32 want_id)
{
	CatalogVersion unused;
	int32		id = catalog_find_schema_in_subject(a->context, a->subject,
													s->fingerprint, false, &unused);

	if (id > 0 && (want_id == 0 || id == want_id))
		return id;
	if (id > 0)
		refuse_other_id(a->context, id, want_id);
	if (want_id > 0)
		refuse_taken_id(a->context, want_id);
	ereport(ERROR,
			(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
			 errmsg("could not register the schema because a concurrent transaction registered it"),
			 errhint("Retry the registration.")));
	return 0;					/* keep the compiler quiet */
}

/* A SchemaTags list argument; NULL when absent, NULL or empty. */
static const char *
tag_list_arg(FunctionCallInfo fcinfo, int n)
{
	char	   *list = jsonb_arg_text(fcinfo, n);

	return list == NULL || strcmp(list, "[]") == 0 ? NULL : list;
}

/*
 * A registration's options after its schema arguments: the id and version
 * asked for (Confluent treats an id <= 0 and version -1 as absent; any
 * other version below 1 is 42202) and the schema tag operations (a NULL
 * or empty list is none).
 */
static void
registration_options(Registration *r, bool has_id, int32 id, bool has_version,
					 int32 version, const char *tags_to_add, const char *tags_to_remove,
					 bool propagate)
{
	r->has_id = has_id && id >= 1;
	r->want_id = has_id ? id : 0;
	r->has_version = has_version;
	r->want_version = has_version ? version : 0;
	/* -1 (latest): Confluent's version -1 always makes a new version */
	r->latest_only = r->has_version && r->want_version == -1;
	if (r->latest_only)
		r->has_version = false;
	if (r->has_version && r->want_version < 1)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_VERSION),
				 errmsg("invalid version %d", r->want_version)));
	r->tags_to_add = tags_to_add == NULL || strcmp(tags_to_add, "[]") == 0 ? NULL : tags_to_add;
	r->tags_to_remove = tags_to_remove == NULL || strcmp(tags_to_remove, "[]") == 0 ?
		NULL : tags_to_remove;
	r->propagate_tags = propagate;
	r->new_version = r->latest_only;
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
	registration_options(r, has_id, has_id ? PG_GETARG_INT32(7) : 0,
						 has_version, has_version ? PG_GETARG_INT32(8) : 0,
						 jsonb_arg_text(fcinfo, 9), jsonb_arg_text(fcinfo, 10),
						 bool_arg(fcinfo, 11));
}

/*
 * The fast path: is the schema already a live version of the subject,
 * with the id and version asked for (if any)?  Then that version is the
 * answer.  *content_id is the schema's id in the context either way (0
 * when it has none yet).
 */
static bool
already_registered(Registration *r, SubmittedSchema *s, int32 *content_id,
				   CatalogVersion *existing)
{
	*content_id = catalog_find_schema_in_subject(r->a.context, r->a.subject, s->fingerprint,
												 false, existing);
	return existing->version > 0 &&
		(!r->has_version || r->want_version == existing->version) &&
		(!r->has_id || r->want_id == existing->schema_id);
}

/*
 * The mode in force decides what the registration may ask for (Confluent's
 * checkRegisterMode): IMPORT and FORWARD need the id, the other writable
 * modes refuse one.
 */
static void
check_registration_mode(Registration *r, rg_mode mode)
{
	SchemaArgs *a = &r->a;

	registry_check_writable(a->context, a->subject, mode);
	if (rg_mode_is_import(mode))
	{
		if (!r->has_id)
			ereport(ERROR,
					(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
					 errmsg("subject \"%s\" in context \"%s\" is not in read-write mode",
							a->subject, a->context),
					 errdetail("%s", confluent_text(CW_SUBJECT_NOT_READ_WRITE, a->subject, a->context)),
					 errhint("A registration in IMPORT mode must give the schema id.")));
		return;
	}
	if (r->has_id)
		registry_check_importing(a->context, a->subject, mode);
}

/*
 * Outside IMPORT, a new version must be the next number and compatible
 * (checked before an id is allocated, so a refused schema leaves no gap).
 */
static void
check_new_version(Registration *r, const CatalogSettings *settings, int32 max_version,
				  SubmittedSchema *s)
{
	CompatCandidate candidate;

	if (r->has_version)
		registry_check_next_version(r->a.subject, r->want_version, max_version);
	candidate.schema = s->parsed;
	candidate.metadata = s->metadata;
	candidate.identity = s->fingerprint;
	registry_assert_compatible(r->a.context, r->a.subject, candidate,
							   registry_compat_rule(settings));
}

/* Is a schema text empty once trimmed as Java's String.trim() trims? */
static bool
is_blank(const char *text)
{
	for (; *text; text++)
		if ((unsigned char) *text > ' ')
			return false;
	return true;
}

/* Confluent's Config.hasDefaultsOrOverrides: a data contract default or override is set. */
static bool
has_contract_defaults(const CatalogSettings *settings)
{
	return settings->default_metadata != NULL || settings->override_metadata != NULL ||
		settings->default_rule_set != NULL || settings->override_rule_set != NULL;
}

/*
 * Confluent's maybeSetMetadataRuleSet: the metadata and the rule set are
 * the config's defaults, merged with the request's own (else the previous
 * version's), merged with the config's overrides.
 */
static void
merge_data_contract(SchemaArgs *a, const CatalogSettings *settings, const CatalogSchema *prev)
{
	const char *metadata = a->metadata;
	const char *rule_set = a->rule_set;

	if (metadata == NULL && prev != NULL)
		metadata = prev->metadata;
	if (rule_set == NULL && prev != NULL)
		rule_set = prev->rule_set;
	a->metadata = dc_metadata_merge(dc_metadata_merge(settings->default_metadata, metadata),
									settings->override_metadata);
	a->rule_set = dc_rule_set_merge(dc_rule_set_merge(settings->default_rule_set, rule_set),
									settings->override_rule_set);
}

/* The text of a submission's schema with the tags of two SchemaTags lists added and removed. */
static char *
schema_with_tags(SchemaArgs *a, const char *to_add, const char *to_remove)
{
	SubmittedSchema *s = registry_parse_submitted(a->context, a->schema_type, a->schema,
												  a->refs, NULL, NULL, false, NULL);

	return registry_rewrite_tags(s->parsed, to_add, to_remove);
}

/* propagateSchemaTags: the previous version's inline tags added to the submission's schema. */
static void
propagate_tags(SchemaArgs *a, const CatalogSchema *prev)
{
	const rg_schema *previous = registry_stored_schema(a->context, prev->id, prev->fingerprint);
	SubmittedSchema *next = registry_parse_submitted(a->context, a->schema_type, a->schema,
													 a->refs, NULL, NULL, false, NULL);
	char	   *tagged = registry_propagate_tags(previous, next->parsed);

	if (tagged != NULL)
		a->schema = tagged;
}

/*
 * Confluent's maybePopulateFromPrevious (outside IMPORT): an empty schema
 * is the latest live version's schema, type and references (42201 "Empty
 * schema" without one), the previous version's tags are carried over
 * when asked (propagateSchemaTags), the data contract is merged, and
 * confluent:version is the new version's number when the request names a
 * version (or must make a new one) or the merged metadata has one already.
 * latest is the latest live version's schema, NULL when there is none.
 */
static void
populate_from_previous(Registration *r, const CatalogSettings *settings, int32 new_version,
					   const CatalogSchema *latest)
{
	SchemaArgs *a = &r->a;
	CatalogSchema prev;
	bool		has_prev = latest != NULL;

	if (has_prev)
		prev = *latest;

	if (is_blank(a->schema))
	{
		if (!has_prev)
			ereport(ERROR,
					(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
					 errmsg("empty schema"),
					 errdetail("%s", confluent_text(CW_EMPTY_SCHEMA))));
		a->schema = prev.schema;
		a->schema_type = prev.schema_type;
		a->refs = prev.refs;
	}
	if (r->propagate_tags && has_prev)
		propagate_tags(a, &prev);
	merge_data_contract(a, settings, has_prev ? &prev : NULL);
	if (r->has_version || r->new_version ||
		dc_metadata_property(a->metadata, DC_CONFLUENT_VERSION) != NULL)
		a->metadata = dc_metadata_with_version(a->metadata, new_version);
}

/* Two metadata the same once confluent:version is dropped ({} is none)? */
static bool
same_but_version(const char *stored, const char *submitted)
{
	char	   *a = dc_metadata_without_version(stored);
	char	   *b = dc_metadata_without_version(submitted);

	if (a != NULL && strcmp(a, "{}") == 0)
		a = NULL;
	if (b != NULL && strcmp(b, "{}") == 0)
		b = NULL;
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Are two optional texts equal (both absent included)? */
static bool
same_text(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Is the stored schema row the submitted schema but for confluent:version? */
static bool
same_but_version_row(const CatalogSchema *row, SubmittedSchema *s)
{
	return strcmp(row->schema_type, s->format->name) == 0 &&
		strcmp(row->schema, s->parsed->canonical) == 0 &&
		strcmp(row->refs, s->refs_json) == 0 &&
		same_text(dc_rule_set_canonical(row->rule_set), s->rule_set) &&
		same_but_version(row->metadata, s->metadata);
}

/*
 * The first of a subject's versions of schemas with the submission's text
 * (newest first) that is the submission but for its metadata's
 * confluent:version, into *found.
 */
static bool
twin_but_version(const CatalogVersionRow *rows, int n, SubmittedSchema *s, CatalogVersion *found)
{
	int			i;

	for (i = 0; i < n; i++)
		if (strcmp(rows[i].refs, s->refs_json) == 0 &&
			same_text(dc_rule_set_canonical(rows[i].rule_set), s->rule_set) &&
			same_but_version(rows[i].metadata, s->metadata))
		{
			*found = rows[i].version;
			return true;
		}
	return false;
}

/*
 * Confluent's canLookup: a version of the subject (newest first) that is
 * the submitted schema but for its metadata's confluent:version, which a
 * re-registration of the same schema renumbers (or the request lacks).
 * After the data contract merge only a submission with a confluent:version
 * can have such a twin; the fast path (any) looks whatever the request has.
 */
static bool
find_but_version(SchemaArgs *a, SubmittedSchema *s, bool deleted, bool any,
				 CatalogVersion *found)
{
	int			n;
	CatalogVersionRow *rows;
	uint8		plain[REGISTRY_FINGERPRINT_LEN];

	if (!any && dc_metadata_property(s->metadata, DC_CONFLUENT_VERSION) == NULL)
		return false;
	registry_plain_fingerprint(s, plain);
	rows = catalog_versions_of_schema(a->context, a->subject, deleted, s->format->name,
									  s->parsed->canonical, plain, &n);
	return twin_but_version(rows, n, s, found);
}

/*
 * Version -1's fast path (Confluent's lookup of the latest version only):
 * the latest live version, when it is the submitted schema but for
 * confluent:version.
 */
static bool
latest_is_submitted(SchemaArgs *a, SubmittedSchema *s, CatalogVersion *found)
{
	CatalogSchema row;

	return catalog_latest_version(a->context, a->subject, found) &&
		catalog_get_schema(a->context, found->schema_id, &row) &&
		same_but_version_row(&row, s);
}

/*
 * Would the plain-identity probe of the twin lookup only find the exact
 * schema again, whose live versions in the subject (none) the exact lookup
 * has just read?  So when the submission has no data contract (its
 * identity is its plain one) and the exact lookup found no version.
 */
static bool
exact_is_plain(SubmittedSchema *s, const CatalogVersion *exact)
{
	return s->metadata == NULL && s->rule_set == NULL && exact->version == 0;
}

/*
 * The fast path's question: is the submission the latest version (version
 * -1), else the subject's version asked for (already_registered), else a
 * live version of it but for confluent:version (find_but_version)?  The
 * versions of schemas with the same text are looked up only when the
 * exact identity has no version to answer with.  *content_id as
 * already_registered gives it (not for version -1).
 */
static bool
registered_fast(Registration *r, SubmittedSchema *s, int32 *content_id,
				CatalogVersion *existing)
{
	CatalogVersionRow *rows;
	int			n;
	uint8		plain[REGISTRY_FINGERPRINT_LEN];

	if (r->latest_only)
		return latest_is_submitted(&r->a, s, existing);
	if (r->has_version)
		return already_registered(r, s, content_id, existing);
	*content_id = catalog_find_schema_in_subject(r->a.context, r->a.subject, s->fingerprint,
												 false, existing);
	if (existing->version > 0 && (!r->has_id || r->want_id == existing->schema_id))
		return true;
	registry_plain_fingerprint(s, plain);
	rows = catalog_versions_of_schema(r->a.context, r->a.subject, false, s->format->name,
									  s->parsed->canonical,
									  exact_is_plain(s, existing) ? NULL : plain, &n);
	return twin_but_version(rows, n, s, existing);
}

/*
 * IMPORT with a version number the subject has already: the same schema
 * is that version again; other content is refused (a stored version is
 * never replaced).
 */
static bool
imported_version_exists(Registration *r, int32 content_id, CatalogVersion *existing)
{
	if (!r->has_version ||
		!catalog_get_version(r->a.context, r->a.subject, r->want_version, true, existing))
		return false;
	if (existing->schema_id == content_id && !existing->deleted)
		return true;
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_OPERATION_NOT_PERMITTED),
			 errmsg("version %d of subject \"%s\" already exists with another schema",
					r->want_version, r->a.qualified),
			 errdetail("Version %d of subject %s already exists with another schema; a registered version is never replaced.",
					   r->want_version, r->a.qualified)));
	return false;				/* keep the compiler quiet */
}

/*
 * The schema's id in the context: the one its content already has
 * (content_id), else the id asked for (IMPORT) or a new one, which the
 * schema row's insert trigger draws.
 */
static int32
schema_id_for_content(Registration *r, SubmittedSchema *s, int32 content_id)
{
	SchemaArgs *a = &r->a;
	CatalogSchema row;
	int32		id = 0;

	if (content_id > 0)
	{
		if (r->has_id && content_id != r->want_id)
			refuse_other_id(a->context, content_id, r->want_id);
		return content_id;
	}
	if (r->has_id)
	{
		if (catalog_get_schema(a->context, r->want_id, &row))
			refuse_taken_id(a->context, r->want_id);
		id = r->want_id;
		catalog_advance_schema_id(a->context, a->subject, id);
	}

	row.context = a->context;
	row.id = id;
	row.schema_type = (char *) s->format->name;
	row.schema = s->parsed->canonical;
	row.refs = s->refs_json;
	row.metadata = s->metadata;
	row.rule_set = s->rule_set;
	memcpy(row.fingerprint, s->fingerprint, REGISTRY_FINGERPRINT_LEN);
	if ((id = catalog_insert_schema(&row)) > 0)
	{
		registry_cache_adopt(a->context, id, s);
		return id;
	}
	return schema_id_after_conflict(a, s, r->has_id ? r->want_id : 0);
}

/* Parse a registration's schema with its data contract. */
static SubmittedSchema *
parse_registration(Registration *r)
{
	SchemaArgs *a = &r->a;

	if (is_blank(a->schema))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("empty schema"),
				 errdetail("%s", confluent_text(CW_EMPTY_SCHEMA))));
	return registry_parse_submitted(a->context, a->schema_type, a->schema, a->refs,
									a->metadata, a->rule_set, a->normalize, NULL);
}

/*
 * Register a schema under a subject, Confluent's way (KafkaSchemaRegistry
 * registerOrForward and register).  Tag operations first rewrite the
 * schema and always make a new version.  The fast path: the exact schema
 * live in the subject answers with its version before any other rule (not
 * when the config sets data contract defaults or overrides, nor with tag
 * operations).  Under the subject's lock: the mode's rules; outside
 * IMPORT the previous version fills an empty schema (and gives its tags
 * when asked) and the data contract is merged; the merged submission
 * already live in the subject (or but for confluent:version) is the
 * answer; else the version number and compatibility rules, the schema's
 * id in the context (reused or allocated) and the new version.
 */
static void
register_prepared(Registration *r, Registered *out)
{
	MemoryContext caller_cxt = CurrentMemoryContext;
	CatalogSettings settings;
	SubmittedSchema *s = NULL;
	CatalogVersion existing;
	int32		content_id;
	int32		max_version;
	int32		id;
	int32		version;
	rg_mode		mode;
	bool		fast = false;
	bool		looked;
	CatalogSchema latest;
	bool		has_latest;
	const char *schema_before;
	const char *refs_before;

	if (r->tags_to_add != NULL || r->tags_to_remove != NULL)
	{
		r->a.schema = schema_with_tags(&r->a, r->tags_to_add, r->tags_to_remove);
		r->new_version = !r->has_version;
	}
	catalog_effective_settings(r->a.context, r->a.subject, &settings);
	if (!r->a.normalize)
		r->a.normalize = settings.normalize;
	if (!has_contract_defaults(&settings) && !is_blank(r->a.schema) &&
		(!r->new_version || r->latest_only) && !r->propagate_tags)
	{
		fast = true;
		s = parse_registration(r);
		if (registered_fast(r, s, &content_id, &existing))
		{
			registered(out, caller_cxt, s, existing.schema_id, existing.version);
			return;
		}
	}

	mode = registry_mode(settings.mode);
	/* refused before the lock would make the subject (and its context) */
	if (rg_mode_is_read_only(mode))
		check_registration_mode(r, mode);
	max_version = catalog_lock_subject_latest(r->a.context, r->a.subject, &latest, &has_latest);
	/* under the lock: another session may just have registered it */
	if (fast && registered_fast(r, s, &content_id, &existing))
	{
		registered(out, caller_cxt, s, existing.schema_id, existing.version);
		return;
	}
	check_registration_mode(r, mode);
	schema_before = r->a.schema;
	refs_before = r->a.refs;
	if (!rg_mode_is_import(mode))
		populate_from_previous(r, &settings, max_version + 1, has_latest ? &latest : NULL);
	/* the lookups under the lock already answered for this very submission */
	looked = fast && !r->latest_only;
	if (!fast || r->a.schema != schema_before || r->a.refs != refs_before)
	{
		s = parse_registration(r);
		looked = false;
	}
	else if (!same_text(r->a.metadata, s->metadata) || !same_text(r->a.rule_set, s->rule_set))
	{
		registry_with_contract(s, r->a.metadata, r->a.rule_set);
		looked = false;
	}

	if ((!looked && already_registered(r, s, &content_id, &existing) && !r->new_version) ||
		(!looked && !r->has_version && !r->new_version &&
		 find_but_version(&r->a, s, false, false, &existing)) ||
		(rg_mode_is_import(mode) && imported_version_exists(r, content_id, &existing)))
	{
		registered(out, caller_cxt, s, existing.schema_id, existing.version);
		return;
	}
	if (!rg_mode_is_import(mode))
		check_new_version(r, &settings, max_version, s);
	id = schema_id_for_content(r, s, content_id);
	version = r->has_version ? r->want_version : max_version + 1;
	catalog_insert_version(r->a.context, r->a.subject, version, id);
	registered(out, caller_cxt, s, id, version);
	out->inserted = true;
}

/* Register the schema a register_schema call gives. */
static void
register_schema(FunctionCallInfo fcinfo, Registered *out)
{
	Registration r;

	read_registration(fcinfo, &r);
	register_prepared(&r, out);
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

/* A jsonb text as jsonb's output gives it (a column's ::text). */
static char *
jsonb_text(const char *json)
{
	Jsonb	   *jb;

	if (json == NULL)
		return NULL;
	jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(json)));
	return JsonbToCString(NULL, &jb->root, VARSIZE(jb));
}

/* A fingerprint as Confluent's guid: its 16 bytes as a UUID's text. */
static char *
fingerprint_guid(const uint8 *fp)
{
	StringInfoData out;
	int			i;

	initStringInfo(&out);
	for (i = 0; i < REGISTRY_FINGERPRINT_LEN; i++)
	{
		if (i == 4 || i == 6 || i == 8 || i == 10)
			appendStringInfoChar(&out, '-');
		appendStringInfo(&out, "%02x", fp[i]);
	}
	return out.data;
}

/* A timestamp as milliseconds since the Unix epoch, rounded down. */
static int64
timestamp_epoch_ms(TimestampTz ts)
{
	int64		us = ts + (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY;

	return us >= 0 ? us / 1000 : -((-us + 999) / 1000);
}

/* The schema arguments of a REST route's submission, in its subject as served. */
static void
submission_schema_args(SchemaArgs *a, const char *served, const CatalogSubmission *b)
{
	a->qualified = pstrdup(served);
	registry_split_subject_cstr(a->qualified, &a->context, &a->subject);
	a->schema = pstrdup(b->schema);
	a->schema_type = pstrdup(b->schema_type);
	a->refs = pstrdup(b->refs);
	a->normalize = b->normalize;
	a->metadata = b->metadata ? pstrdup(b->metadata) : NULL;
	a->rule_set = b->rule_set ? pstrdup(b->rule_set) : NULL;
}

/*
 * A registration as the REST route POST /subjects/{s}/versions asks for
 * it, without the SQL call around register_schema_version (the route's
 * gate checked its EXECUTE privilege): served is the subject as served,
 * its alias already followed.  out is register_schema_version's row as
 * the route reads it; a version this call made has its guid and
 * registration time (the transaction's start, its created_at) too, an
 * existing one has neither (has_ts false).
 */
void
registry_register_submission(const char *served, const CatalogSubmission *b,
							 CatalogSchemaRow *out)
{
	Registration r;
	Registered	reg;

	memset(&r, 0, sizeof(r));
	submission_schema_args(&r.a, served, b);
	registry_validate_subject(r.a.qualified, r.a.subject);
	registration_options(&r, b->id != 0, b->id, b->version != 0, b->version,
						 b->tags_to_add, b->tags_to_remove, b->propagate_tags);
	register_prepared(&r, &reg);

	memset(out, 0, sizeof(CatalogSchemaRow));
	out->version = reg.version;
	out->id = reg.id;
	out->schema_type = pstrdup(reg.schema_type);
	out->schema = reg.schema;
	out->refs = strcmp(reg.refs, "[]") == 0 ? reg.refs : jsonb_text(reg.refs);
	out->metadata = jsonb_text(reg.metadata);
	out->rule_set = jsonb_text(reg.rule_set);
	if (reg.inserted)
	{
		out->guid = fingerprint_guid(reg.fingerprint);
		out->has_ts = true;
		out->ts = timestamp_epoch_ms(GetCurrentTransactionStartTimestamp());
	}
}

/*
 * The version a request names ('latest' or N; soft-deleted ones count
 * when include_deleted), Confluent's way: after the version id's own
 * check, 40401 when the subject has no such versions, else 40402 when it
 * lacks that one.  named is the subject as the message names it.  The
 * version without its fingerprint, and its registration time.
 */
static void
requested_version(const char *context, const char *subject, const char *named,
				  const char *version_arg, bool include_deleted, CatalogVersion *v,
				  TimestampTz *created_at)
{
	int32		n = DatumGetInt32(DirectFunctionCall1(registry_parse_version,
													  CStringGetTextDatum(version_arg)));

	if (catalog_read_version(context, subject, n, include_deleted, v, created_at))
		return;
	if (!catalog_subject_has_versions(context, subject, include_deleted))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SUBJECT_NOT_FOUND),
				 errmsg("subject \"%s\" not found", named)));
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_VERSION_NOT_FOUND),
			 errmsg("version %s not found", version_arg)));
}

/*
 * One version of a subject, as get_version() and GET
 * /subjects/{s}/versions/{v} (which calls it without the SQL call, its
 * gate having checked get_version's EXECUTE privilege) answer: its row,
 * with the schema's guid and the version's registration time.  served is
 * the subject as served, its alias already followed; named as the caller
 * spelled it, for the messages.
 */
void
registry_read_version(const char *served, const char *named, const char *version_arg,
					  bool include_deleted, CatalogSchemaRow *out)
{
	char	   *context;
	char	   *subject;
	CatalogVersion v;
	CatalogSchema s;
	TimestampTz created_at;

	registry_split_subject_cstr(served, &context, &subject);
	requested_version(context, subject, named, version_arg, include_deleted, &v, &created_at);
	/* hard-deleted with its schema since the version was read */
	if (!catalog_get_schema(context, v.schema_id, &s))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_VERSION_NOT_FOUND),
				 errmsg("version %s not found", version_arg)));
	memset(out, 0, sizeof(CatalogSchemaRow));
	out->subject = registry_qualify_subject(context, subject);
	out->version = v.version;
	out->id = s.id;
	out->schema_type = s.schema_type;
	out->schema = s.schema;
	out->refs = s.refs;
	out->metadata = s.metadata;
	out->rule_set = s.rule_set;
	out->deleted = v.deleted;
	out->guid = fingerprint_guid(s.fingerprint);
	out->has_ts = true;
	out->ts = timestamp_epoch_ms(created_at);
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
 * errors (requested_version()).
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
	requested_version(context, subject, named, version_arg, bool_arg(fcinfo, 2), &v, NULL);
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
	requested_version(r.a.context, r.a.subject, r.a.qualified, version_arg, false, &v, NULL);
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
	register_prepared(&r, &out);
	PG_RETURN_DATUM(registered_row(fcinfo, &out));
}

/*
 * Find the version of the subject whose identity is the submission's: its
 * schema with its metadata and rule set.  On a miss, as Confluent's
 * lookUpSchemaUnderSubject, look again with the data contract a
 * registration would have merged in from the config and the subject's
 * latest live version; either way a version that differs only by
 * confluent:version matches.
 */
static SubmittedSchema *
find_submitted(SchemaArgs *a, const CatalogSettings *settings, bool deleted,
			   CatalogVersion *found)
{
	SubmittedSchema *s = registry_parse_submitted(a->context, a->schema_type, a->schema,
												  a->refs, a->metadata, a->rule_set,
												  a->normalize, NULL);
	CatalogSchema prev;
	bool		has_prev;

	if (catalog_find_version_by_fingerprint(a->context, a->subject, s->fingerprint,
											deleted, found) ||
		find_but_version(a, s, deleted, true, found))
		return s;
	has_prev = catalog_latest_schema(a->context, a->subject, &prev);
	if (has_prev)
	{
		merge_data_contract(a, settings, &prev);
		if (!same_text(a->metadata, s->metadata) || !same_text(a->rule_set, s->rule_set))
		{
			registry_with_contract(s, a->metadata, a->rule_set);
			if (catalog_find_version_by_fingerprint(a->context, a->subject, s->fingerprint,
													deleted, found) ||
				find_but_version(a, s, deleted, true, found))
				return s;
		}
	}
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
			 errmsg("schema not found in subject \"%s\"", a->qualified)));
	return NULL;				/* keep the compiler quiet */
}

/*
 * A lookup (lookup_schema, POST /subjects/{s}): the version of the subject
 * that holds this schema (soft-deleted ones when deleted), with its
 * schema row into *stored.  40401 when the subject has no versions, 40403
 * when none of them is this schema.
 */
static SubmittedSchema *
look_up(SchemaArgs *a, bool deleted, CatalogVersion *found, CatalogSchema *stored)
{
	CatalogSettings settings;
	SubmittedSchema *s;

	if (!catalog_subject_has_versions(a->context, a->subject, deleted))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SUBJECT_NOT_FOUND),
				 errmsg("subject \"%s\" not found", a->qualified)));
	catalog_effective_settings(a->context, a->subject, &settings);
	if (!a->normalize)
		a->normalize = settings.normalize;
	if (is_blank(a->schema))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
				 errmsg("schema not found in subject \"%s\"", a->qualified),
				 errdetail("The schema is empty.")));
	s = find_submitted(a, &settings, deleted, found);
	if (!catalog_get_schema(a->context, found->schema_id, stored))
		memset(stored, 0, sizeof(CatalogSchema));
	return s;
}

/*
 * lookup_schema(subject, schema, schema_type, refs, normalize, deleted,
 * metadata, rule_set): look_up()'s answer as a row.
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
	s = look_up(&a, deleted, &found, &stored);
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
 * POST /subjects/{s} without the SQL call around lookup_schema (the
 * route's gate checked its EXECUTE privilege): lookup_schema's row, with
 * the guid of the schema found and the version's registration time.
 * served is the subject as served, its alias already followed.
 */
void
registry_lookup_submission(const char *served, const CatalogSubmission *b,
						   bool include_deleted, CatalogSchemaRow *out)
{
	SchemaArgs	a;
	SubmittedSchema *s;
	CatalogVersion found;
	CatalogSchema stored;
	CatalogVersion v;
	TimestampTz created_at;

	memset(&a, 0, sizeof(a));
	submission_schema_args(&a, served, b);
	s = look_up(&a, include_deleted, &found, &stored);

	memset(out, 0, sizeof(CatalogSchemaRow));
	out->subject = a.qualified;
	out->version = found.version;
	out->id = found.schema_id;
	out->schema_type = pstrdup(s->format->name);
	out->schema = pnstrdup(s->parsed->canonical, s->parsed->canonical_len);
	out->refs = strcmp(s->refs_json, "[]") == 0 ? pstrdup("[]") : jsonb_text(s->refs_json);
	out->metadata = stored.metadata;
	out->rule_set = stored.rule_set;
	out->deleted = found.deleted;
	if (stored.schema != NULL)
		out->guid = fingerprint_guid(stored.fingerprint);
	if (catalog_read_version(a.context, a.subject, found.version, true, &v, &created_at))
	{
		out->has_ts = true;
		out->ts = timestamp_epoch_ms(created_at);
	}
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
