/*-------------------------------------------------------------------------
 *
 * schema_lookup.c
 *	  Looking a schema up under a subject (Confluent's POST
 *	  /subjects/{s}): the version it is, or, on a miss, the version it
 *	  would be once the config's data contract defaults and overrides are
 *	  merged as a registration merges them.
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
		registry_find_but_version(a, s, deleted, true, found))
		return s;
	has_prev = catalog_latest_schema(a->context, a->subject, &prev);
	if (has_prev)
	{
		registry_merge_data_contract(a, settings, &prev);
		if (!registry_same_text(a->metadata, s->metadata) || !registry_same_text(a->rule_set, s->rule_set))
		{
			registry_with_contract(s, a->metadata, a->rule_set);
			if (catalog_find_version_by_fingerprint(a->context, a->subject, s->fingerprint,
													deleted, found) ||
				registry_find_but_version(a, s, deleted, true, found))
				return s;
		}
	}
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
			 errmsg("schema not found in subject \"%s\"", a->qualified)));
	return NULL;				/* keep the compiler quiet */
}

/*
 * The exact-text path in one probe: without normalize, metadata or rule
 * set, the subject's version whose row carries the key of this text and
 * type is the answer.  Its insert trigger set that key only where the
 * schema row vouches for the text as find_exact_text's checks below do
 * (registry_schema_text_key), so the schema row is not read: the answer's
 * schema row is the submission as stored (its created_at not known).  A
 * miss, or a version without a key (one written in the replica role), goes
 * on to the two-probe path.
 */
static bool
find_by_text_key(SchemaArgs *a, const SubmittedSchema *s, bool deleted,
				 CatalogVersion *found, CatalogSchema *stored)
{
	uint8		key[REGISTRY_TEXT_KEY_MAX];
	int			len;

	if (a->normalize || s->metadata != NULL || s->rule_set != NULL)
		return false;
	len = registry_text_key(s->fingerprint, s->format->name, key);
	if (len == 0 ||
		!catalog_version_by_text_key(a->context, a->subject, key, len, deleted, found))
		return false;
	memcpy(found->fingerprint, s->fingerprint, REGISTRY_FINGERPRINT_LEN);
	memset(stored, 0, sizeof(CatalogSchema));
	stored->context = a->context;
	stored->id = found->schema_id;
	stored->schema_type = pstrdup(s->format->name);
	stored->schema = a->schema;
	stored->refs = pstrdup("[]");
	memcpy(stored->fingerprint, s->fingerprint, REGISTRY_FINGERPRINT_LEN);
	stored->parses_to_itself = true;
	return true;
}

/*
 * The exact-text path: clients look up the text they registered, which is
 * mostly the stored form itself (what Avro's and Jackson's writers print).
 * A submission without references is taken as its own stored form; the
 * subject's version of that identity is the answer if its schema row
 * vouches for the text: the same bytes, the same type, no references, and
 * a text shown to give itself back when parsed under the lookup's normalize
 * (parses_to_itself, normalizes_to_itself, set by the insert trigger).  A
 * parse would then give that very identity, and the slow path's first
 * probe would find that version: the same answer without the parse.  NULL
 * otherwise (another text of the same schema, references, a row that does
 * not vouch, no such version), and the slow path answers from the start.
 */
static SubmittedSchema *
find_exact_text(SchemaArgs *a, bool deleted, CatalogVersion *found, CatalogSchema *stored)
{
	SubmittedSchema *s = registry_submitted_as_stored(a->schema_type, a->schema, a->refs,
													  a->metadata, a->rule_set);

	if (s != NULL && find_by_text_key(a, s, deleted, found, stored))
		return s;
	if (s == NULL || !catalog_schema_by_fingerprint(a->context, s->fingerprint, stored))
		return NULL;
	if (strcmp(stored->schema, a->schema) != 0 ||
		strcmp(stored->schema_type, s->format->name) != 0 ||
		!registry_schema_vouches(stored, a->normalize))
		return NULL;
	if (!catalog_subject_version_of_schema(a->context, a->subject, stored->id, deleted, found))
		return NULL;
	memcpy(found->fingerprint, s->fingerprint, REGISTRY_FINGERPRINT_LEN);
	return s;
}

/*
 * Can the exact-text path run before the subject's 40401 and the empty
 * schema's 40403 without raising what those would have raised first?  So
 * when the submission has nothing it could raise on: a known type, no
 * metadata, rule set or references, a text that is not blank.  A hit
 * shows the subject has the version; a miss goes on to those checks.
 */
static bool
exact_text_first(const SchemaArgs *a)
{
	return rg_format_lookup(a->schema_type ? a->schema_type : "AVRO") != NULL &&
		a->metadata == NULL && a->rule_set == NULL &&
		(a->refs == NULL || strcmp(a->refs, "[]") == 0) &&
		!registry_schema_is_blank(a->schema);
}

/*
 * A lookup (lookup_schema, POST /subjects/{s}): the version of the subject
 * that holds this schema (soft-deleted ones when deleted), with its
 * schema row into *stored.  40401 when the subject has no versions, 40403
 * when none of them is this schema.
 */
SubmittedSchema *
registry_look_up(SchemaArgs *a, bool deleted, CatalogVersion *found, CatalogSchema *stored)
{
	CatalogSettings settings;
	SubmittedSchema *s;
	bool		early = exact_text_first(a);

	catalog_effective_settings(a->context, a->subject, &settings);
	if (!a->normalize)
		a->normalize = settings.normalize;
	if (early && (s = find_exact_text(a, deleted, found, stored)) != NULL)
		return s;
	if (!catalog_subject_has_versions(a->context, a->subject, deleted))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SUBJECT_NOT_FOUND),
				 errmsg("subject \"%s\" not found", a->qualified)));
	if (registry_schema_is_blank(a->schema))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
				 errmsg("schema not found in subject \"%s\"", a->qualified),
				 errdetail("The schema is empty.")));
	if (!early && (s = find_exact_text(a, deleted, found, stored)) != NULL)
		return s;
	s = find_submitted(a, &settings, deleted, found);
	if (!catalog_get_schema(a->context, found->schema_id, stored))
		memset(stored, 0, sizeof(CatalogSchema));
	return s;
}

/*
 * POST /subjects/{s}, the service lookup_schema wraps too (the route's
 * operation privilege checked first, privileges.c): lookup_schema's row, with
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

	memset(&a, 0, sizeof(a));
	registry_submission_args(&a, served, b);
	s = registry_look_up(&a, include_deleted, &found, &stored);

	memset(out, 0, sizeof(CatalogSchemaRow));
	out->subject = a.qualified;
	out->version = found.version;
	out->id = found.schema_id;
	out->schema_type = pstrdup(s->format->name);
	out->schema = pnstrdup(s->parsed->canonical, s->parsed->canonical_len);
	out->refs = strcmp(s->refs_json, "[]") == 0 ? pstrdup("[]") : registry_jsonb_text(s->refs_json);
	out->metadata = stored.metadata;
	out->rule_set = stored.rule_set;
	out->deleted = found.deleted;
	if (stored.schema != NULL)
		out->guid = registry_fingerprint_guid(stored.fingerprint);
	out->has_ts = true;
	out->ts = registry_epoch_ms(found.created_at);
}
