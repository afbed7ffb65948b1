/*-------------------------------------------------------------------------
 *
 * registration_match.c
 *	  Is a submission a version a subject has already?  By identity, or
 *	  but for the confluent:version property of its metadata, as Confluent
 *	  answers both a registration and a lookup.
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
bool
registry_same_text(const char *a, const char *b)
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
		registry_same_text(dc_rule_set_canonical(row->rule_set), s->rule_set) &&
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
			registry_same_text(dc_rule_set_canonical(rows[i].rule_set), s->rule_set) &&
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
bool
registry_find_but_version(SchemaArgs *a, SubmittedSchema *s, bool deleted, bool any,
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
 * The fast path: is the schema already a live version of the subject,
 * with the id and version asked for (if any)?  Then that version is the
 * answer.  *content_id is the schema's id in the context either way (0
 * when it has none yet).
 */
bool
registry_already_registered(Registration *r, SubmittedSchema *s, int32 *content_id,
							CatalogVersion *existing)
{
	*content_id = catalog_find_schema_in_subject(r->a.context, r->a.subject, s->fingerprint,
												 false, existing);
	return existing->version > 0 &&
		(!r->has_version || r->want_version == existing->version) &&
		(!r->has_id || r->want_id == existing->schema_id);
}

/*
 * The fast path's question: is the submission the latest version (version
 * -1), else the subject's version asked for (registry_already_registered), else a
 * live version of it but for confluent:version (find_but_version)?  The
 * versions of schemas with the same text are looked up only when the
 * exact identity has no version to answer with.  *content_id as
 * registry_already_registered gives it (not for version -1).
 */
bool
registry_registered_fast(Registration *r, SubmittedSchema *s, int32 *content_id,
						 CatalogVersion *existing)
{
	CatalogVersionRow *rows;
	int			n;
	uint8		plain[REGISTRY_FINGERPRINT_LEN];

	if (r->latest_only)
		return latest_is_submitted(&r->a, s, existing);
	if (r->has_version)
		return registry_already_registered(r, s, content_id, existing);
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
