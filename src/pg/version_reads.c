/*-------------------------------------------------------------------------
 *
 * version_reads.c
 *	  Reading one version of a subject (GET
 *	  /subjects/{s}/versions/{v}): the version a request names ("latest",
 *	  -1 or a number; soft-deleted ones when asked) with its schema.
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
 * The version a request names ('latest' or N; soft-deleted ones count
 * when include_deleted), Confluent's way: after the version id's own
 * check, 40401 when the subject has no such versions, else 40402 when it
 * lacks that one.  named is the subject as the message names it.  The
 * version without its fingerprint, and its registration time.
 */
void
registry_requested_version(const char *context, const char *subject, const char *named,
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
 * /subjects/{s}/versions/{v} (which calls it directly, its operation's
 * privilege checked first, privileges.c) answer: its row,
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
	registry_requested_version(context, subject, named, version_arg, include_deleted, &v, &created_at);
	/* hard-deleted with its schema since the version was read */
	if (!catalog_get_schema(context, v.schema_id, &s))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_VERSION_NOT_FOUND),
				 errmsg("version %s not found", version_arg)));
	registry_schema_row(out, registry_qualify_subject(context, subject), v.version, v.deleted, &s,
						created_at);
}
