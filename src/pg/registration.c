/*-------------------------------------------------------------------------
 *
 * registration.c
 *	  Registering a schema under a subject, Confluent's way, as a pipeline
 *	  of named phases: prepare, answer (the fast path), lock, contract,
 *	  dedupe, check, allocate and insert.  The SQL functions (api.c) and
 *	  the REST route (registry_register_submission) call it.
 *
 * The rules a registration shares with raw DML (mode, numbering,
 * compatibility) are the functions the insert triggers call too
 * (settings.c, triggers.c, compatibility.c).  A registration applies them
 * itself, under the subject's lock and before an id is drawn, so a
 * refused schema leaves no gap; the rows' triggers then decide again, and
 * find the parse and the compatible verdict reached on the same inputs
 * already (schema_parse.c, verdicts.c), the version row's trigger the
 * decision this registration made for that very row (version_handoff.c).
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
#include "registration.h"
#include "registry.h"
#include "schemas.h"
#include "tags.h"

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
 * (checked before an id is allocated, so a refused schema leaves no gap);
 * a forced one (force=true, Confluent 8.3) is taken as compatible.
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
	if (r->force)
		registry_waive_compatibility(r->a.context, r->a.subject, candidate,
									 registry_compat_rule(settings));
	else
		registry_assert_compatible(r->a.context, r->a.subject, candidate,
								   registry_compat_rule(settings));
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
void
registry_merge_data_contract(SchemaArgs *a, const CatalogSettings *settings, const CatalogSchema *prev)
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

	if (registry_schema_is_blank(a->schema))
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
	registry_merge_data_contract(a, settings, has_prev ? &prev : NULL);
	if (r->has_version || r->new_version ||
		dc_metadata_property(a->metadata, DC_CONFLUENT_VERSION) != NULL)
		a->metadata = dc_metadata_with_version(a->metadata, new_version);
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
	if ((id = registry_cache_insert_submitted(s, &row)) > 0)
		return id;
	return schema_id_after_conflict(a, s, r->has_id ? r->want_id : 0);
}

/*
 * A registration's options after its schema arguments: the id and version
 * asked for (Confluent treats an id <= 0 and version -1 as absent; any
 * other version below 1 is 42202) and the schema tag operations (a NULL
 * or empty list is none); not forced (the REST route sets force after).
 */
void
registry_registration_options(Registration *r, bool has_id, int32 id, bool has_version,
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
	r->force = false;
}

/* Parse a registration's schema with its data contract. */
static SubmittedSchema *
parse_registration(Registration *r)
{
	SchemaArgs *a = &r->a;

	if (registry_schema_is_blank(a->schema))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("empty schema"),
				 errdetail("%s", confluent_text(CW_EMPTY_SCHEMA))));
	return registry_parse_submitted(a->context, a->schema_type, a->schema, a->refs,
									a->metadata, a->rule_set, a->normalize, NULL);
}

/* A registration on its way through the phases of registry_register(). */
typedef struct Pipeline
{
	Registration *r;
	MemoryContext caller;		/* where the answer goes */
	CatalogSettings settings;	/* in force for the subject */
	rg_mode		mode;
	SubmittedSchema *s;			/* the submission, parsed */
	bool		fast;			/* the fast path parsed and looked s up */
	bool		looked;			/* the lookups answered for s as it stands */
	int32		content_id;		/* s's id in the context, 0 when none yet */
	int32		max_version;	/* the subject's highest, under its lock */
	CatalogSchema latest;		/* its latest live version's schema */
	bool		has_latest;
	CatalogVersion existing;	/* the version that answers, if one does */
} Pipeline;

/*
 * prepare: tag operations rewrite the schema (and always make a new
 * version); the settings in force, and normalize from them unless asked.
 */
static void
phase_prepare(Pipeline *p, Registration *r)
{
	memset(p, 0, sizeof(Pipeline));
	p->r = r;
	p->caller = CurrentMemoryContext;
	if (r->tags_to_add != NULL || r->tags_to_remove != NULL)
	{
		r->a.schema = schema_with_tags(&r->a, r->tags_to_add, r->tags_to_remove);
		r->new_version = !r->has_version;
	}
	catalog_effective_settings(r->a.context, r->a.subject, &p->settings);
	if (!r->a.normalize)
		r->a.normalize = p->settings.normalize;
	p->mode = registry_mode(p->settings.mode);
}

/*
 * answer: the fast path.  The exact schema live in the subject answers
 * with its version before any other rule; not when the config sets data
 * contract defaults or overrides, nor for an empty schema, a new version
 * asked for or tags to carry over.
 */
static bool
phase_answer(Pipeline *p)
{
	Registration *r = p->r;

	if (has_contract_defaults(&p->settings) || registry_schema_is_blank(r->a.schema) ||
		(r->new_version && !r->latest_only) || r->propagate_tags)
		return false;
	p->fast = true;
	p->s = parse_registration(r);
	return registry_registered_fast(r, p->s, &p->content_id, &p->existing);
}

/*
 * lock: a read-only mode refuses before the lock would make the subject
 * (and its context); under the subject's lock, the fast path asks again
 * (another session may just have registered it), then the mode's rules.
 */
static bool
phase_lock(Pipeline *p)
{
	Registration *r = p->r;

	if (rg_mode_is_read_only(p->mode))
		check_registration_mode(r, p->mode);
	p->max_version = catalog_lock_subject_latest(r->a.context, r->a.subject, &p->latest,
												 &p->has_latest);
	if (p->fast && registry_registered_fast(r, p->s, &p->content_id, &p->existing))
		return true;
	check_registration_mode(r, p->mode);
	return false;
}

/*
 * contract: outside IMPORT the previous version fills an empty schema
 * (and gives its tags when asked) and the data contract is merged; what
 * changed is parsed again, and the fast path's lookups then no longer
 * answer for it.
 */
static void
phase_contract(Pipeline *p)
{
	Registration *r = p->r;
	const char *schema_before = r->a.schema;
	const char *refs_before = r->a.refs;

	if (!rg_mode_is_import(p->mode))
		populate_from_previous(r, &p->settings, p->max_version + 1,
							   p->has_latest ? &p->latest : NULL);
	p->looked = p->fast && !r->latest_only;
	if (!p->fast || r->a.schema != schema_before || r->a.refs != refs_before)
	{
		p->s = parse_registration(r);
		p->looked = false;
	}
	else if (!registry_same_text(r->a.metadata, p->s->metadata) ||
			 !registry_same_text(r->a.rule_set, p->s->rule_set))
	{
		registry_with_contract(p->s, r->a.metadata, r->a.rule_set);
		p->looked = false;
	}
}

/*
 * dedupe: the merged submission live in the subject already (or but for
 * confluent:version) is the answer, unless a new version is asked for; in
 * IMPORT, the version asked for when the subject has it with this schema.
 */
static bool
phase_dedupe(Pipeline *p)
{
	Registration *r = p->r;

	if (!p->looked &&
		registry_already_registered(r, p->s, &p->content_id, &p->existing) && !r->new_version)
		return true;
	if (!p->looked && !r->has_version && !r->new_version &&
		registry_find_but_version(&r->a, p->s, false, false, &p->existing))
		return true;
	return rg_mode_is_import(p->mode) && imported_version_exists(r, p->content_id, &p->existing);
}

/* check: outside IMPORT, the version number and the compatibility rules. */
static void
phase_check(Pipeline *p)
{
	if (!rg_mode_is_import(p->mode))
		check_new_version(p->r, &p->settings, p->max_version, p->s);
}

/*
 * insert: the version row, its trigger handed what this registration
 * decided it under (version_handoff.c); returns its number.
 */
static int32
phase_insert(Pipeline *p, int32 id)
{
	Registration *r = p->r;
	int32		version = r->has_version ? r->want_version : p->max_version + 1;
	CompatRule	rule = registry_compat_rule(&p->settings);

	registry_insert_decided_version(r->a.context, r->a.subject, version, id,
									rg_mode_is_import(p->mode), &rule);
	return version;
}

/*
 * Register a schema under a subject, Confluent's way (KafkaSchemaRegistry
 * registerOrForward and register), phase by phase: prepare, answer (the
 * fast path), lock, contract, dedupe, check, allocate (the schema's id in
 * the context, reused or drawn) and insert.  An answering phase ends it
 * with the version that answers.
 */
void
registry_register(Registration *r, Registered *out)
{
	Pipeline	p;
	int32		id;
	int32		version;

	phase_prepare(&p, r);
	if (phase_answer(&p) || phase_lock(&p))
	{
		registered(out, p.caller, p.s, p.existing.schema_id, p.existing.version);
		return;
	}
	phase_contract(&p);
	if (phase_dedupe(&p))
	{
		registered(out, p.caller, p.s, p.existing.schema_id, p.existing.version);
		return;
	}
	phase_check(&p);
	id = schema_id_for_content(r, p.s, p.content_id);	/* allocate */
	version = phase_insert(&p, id);
	registered(out, p.caller, p.s, id, version);
	out->inserted = true;
}

/* A jsonb text as jsonb's output gives it (a column's ::text). */
char *
registry_jsonb_text(const char *json)
{
	Jsonb	   *jb;

	if (json == NULL)
		return NULL;
	jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(json)));
	return JsonbToCString(NULL, &jb->root, VARSIZE(jb));
}

/* A fingerprint as Confluent's guid: its 16 bytes as a UUID's text. */
char *
registry_fingerprint_guid(const uint8 *fp)
{
	static const char hex[] = "0123456789abcdef";
	char	   *out = palloc(REGISTRY_FINGERPRINT_LEN * 2 + 5);
	char	   *p = out;

	for (int i = 0; i < REGISTRY_FINGERPRINT_LEN; i++)
	{
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		*p++ = hex[fp[i] >> 4];
		*p++ = hex[fp[i] & 15];
	}
	*p = '\0';
	return out;
}

/*
 * A schema as an operation answers it, into out: the schema s of subject
 * version (qualified subject NULL: none), its guid, and the time
 * registered.
 */
void
registry_schema_row(CatalogSchemaRow *out, const char *qualified, int32 version, bool deleted,
					const CatalogSchema *s, TimestampTz registered)
{
	memset(out, 0, sizeof(CatalogSchemaRow));
	out->subject = qualified ? pstrdup(qualified) : NULL;
	out->version = version;
	out->id = s->id;
	out->schema_type = s->schema_type;
	out->schema = s->schema;
	out->refs = s->refs;
	out->metadata = s->metadata;
	out->rule_set = s->rule_set;
	out->deleted = deleted;
	out->guid = registry_fingerprint_guid(s->fingerprint);
	out->has_ts = true;
	out->ts = registry_epoch_ms(registered);
}

/* A timestamp as milliseconds since the Unix epoch, rounded down. */
int64
registry_epoch_ms(TimestampTz ts)
{
	int64		us = ts + (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY;

	return us >= 0 ? us / 1000 : -((-us + 999) / 1000);
}

/* The schema arguments of a REST route's submission, in its subject as served. */
void
registry_submission_args(SchemaArgs *a, const char *served, const CatalogSubmission *b)
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
 * What a registration answers over REST, into out: register_schema_version's
 * row with the schema's guid and the version's registration time (the
 * transaction's start for a version this call made, else the version's as
 * stored).  qualified is the subject as served.
 */
void
registry_registered_row(const char *qualified, const Registered *reg, CatalogSchemaRow *out)
{
	memset(out, 0, sizeof(CatalogSchemaRow));
	out->version = reg->version;
	out->id = reg->id;
	out->schema_type = pstrdup(reg->schema_type);
	out->schema = reg->schema;
	out->refs = strcmp(reg->refs, "[]") == 0 ? reg->refs : registry_jsonb_text(reg->refs);
	out->metadata = registry_jsonb_text(reg->metadata);
	out->rule_set = registry_jsonb_text(reg->rule_set);
	if (reg->inserted)
	{
		out->guid = registry_fingerprint_guid(reg->fingerprint);
		out->has_ts = true;
		out->ts = registry_epoch_ms(GetCurrentTransactionStartTimestamp());
	}
	else
	{
		char	   *context;
		char	   *subject;
		CatalogVersion v;
		CatalogSchema stored;
		TimestampTz created_at;

		registry_split_subject_cstr(qualified, &context, &subject);
		if (catalog_read_version(context, subject, reg->version, true, &v, &created_at) &&
			catalog_get_schema(context, v.schema_id, &stored))
		{
			out->guid = registry_fingerprint_guid(stored.fingerprint);
			out->has_ts = true;
			out->ts = registry_epoch_ms(created_at);
		}
	}
}

/*
 * POST /subjects/{s}/versions: a registration as the REST route asks for
 * it.  served is the subject as served, its alias already followed; out is
 * what the route answers (registry_registered_row).
 */
void
registry_register_submission(const char *served, const CatalogSubmission *b,
							 CatalogSchemaRow *out)
{
	Registration r;
	Registered	reg;

	memset(&r, 0, sizeof(r));
	registry_submission_args(&r.a, served, b);
	registry_validate_subject(r.a.qualified, r.a.subject);
	registry_registration_options(&r, b->id != 0, b->id, b->version != 0, b->version,
								  b->tags_to_add, b->tags_to_remove, b->propagate_tags);
	r.force = b->force;
	registry_register(&r, &reg);
	registry_registered_row(r.a.qualified, &reg, out);
}
