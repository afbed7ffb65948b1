/*-------------------------------------------------------------------------
 *
 * compatibility.c
 *	  A schema against versions of a subject under a compatibility level
 *	  (rg_compat does the judging), Confluent's message list, and the mark
 *	  by which the SQL API tells the insert trigger that a version was
 *	  checked already.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "storage/proc.h"

#include "compatibility.h"
#include "confluent_messages.h"
#include "registry.h"
#include "schemas.h"

/* the version the SQL API has just checked and is about to insert */
static struct
{
	bool		active;
	char		context[NAMEDATALEN * 4];
	char		subject[NAMEDATALEN * 4];
	int32		schema_id;
	int32		version;
	LocalTransactionId lxid;	/* valid only in the transaction that set it */
}			checked;

/* The level and policy of a subject's settings (see compatibility.h). */
CompatRule
registry_compat_rule(const CatalogSettings *settings)
{
	CompatRule	rule;

	rule.level = registry_level(settings->compatibility);
	rule.policy = settings->policy != NULL && strcmp(settings->policy, "LENIENT") == 0 ?
		RG_POLICY_LENIENT : RG_POLICY_STRICT;
	return rule;
}

/* Check a schema against the given versions (see compatibility.h). */
bool
registry_check_versions(const char *context, const rg_schema *schema,
						CompatRule rule, const CatalogVersion *versions,
						int n, rg_strlist *messages)
{
	rg_prior_version *prior;
	int			first = 0;
	int			i;

	if (rule.level == RG_COMPAT_NONE || n == 0)
		return true;
	/* a non-transitive level looks at the latest version only */
	if (!rg_compat_is_transitive(rule.level))
		first = n - 1;
	prior = palloc(sizeof(rg_prior_version) * (n - first));
	for (i = first; i < n; i++)
	{
		const rg_schema *stored = registry_stored_schema(context, versions[i].schema_id,
														 versions[i].fingerprint);

		prior[i - first].schema = stored;
		prior[i - first].version = versions[i].version;
	}
	return rg_compat_check_policy(rule.level, rule.policy, schema, prior, n - first,
								  messages);
}

/* Confluent's message list "[a, b, c]" as one string. */
char *
registry_messages_to_string(const rg_strlist *messages)
{
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	for (i = 0; i < messages->n; i++)
	{
		if (i > 0)
			appendStringInfoString(&buf, ", ");
		appendStringInfoString(&buf, messages->items[i]);
	}
	appendStringInfoChar(&buf, ']');
	return buf.data;
}

/* An empty message list whose arena (palloc-backed) dies with the current memory context. */
void
registry_strlist_init(rg_strlist *list)
{
	rg_arena   *arena = rg_arena_create();

	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	rg_strlist_init(list, arena);
}

/* Check a schema against the subject's live versions as a registration does. */
bool
registry_check_subject(const char *context, const char *subject,
					   const rg_schema *schema, CompatRule rule,
					   rg_strlist *messages)
{
	CatalogVersion *versions;
	int			n;

	if (rule.level == RG_COMPAT_NONE)
		return true;
	/* a non-transitive level reads the latest live version only */
	if (rg_compat_is_transitive(rule.level))
		versions = catalog_versions(context, subject, false, &n);
	else
	{
		versions = palloc(sizeof(CatalogVersion));
		n = catalog_latest_version(context, subject, versions) ? 1 : 0;
	}
	return registry_check_versions(context, schema, rule, versions, n, messages);
}

/* Raise 40901 unless the schema is compatible with the subject's live versions. */
void
registry_assert_compatible(const char *context, const char *subject,
						   const rg_schema *schema, CompatRule rule)
{
	rg_strlist	messages;

	registry_strlist_init(&messages);
	if (!registry_check_subject(context, subject, schema, rule, &messages))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INCOMPATIBLE_SCHEMA),
				 errmsg("schema being registered is incompatible with an earlier schema for subject \"%s\"",
						subject),
				 errdetail("%s", confluent_text(CW_INCOMPATIBLE_SCHEMA, subject,
												registry_messages_to_string(&messages)))));
}

/*
 * The SQL API, holding the subject's lock, has checked the mode, the
 * version number and compatibility of (schema_id, version) and now inserts
 * it: the insert trigger, which would repeat the same checks under the same
 * lock in the same transaction, may skip them for exactly that row.
 */
void
registry_mark_checked(const char *context, const char *subject, int32 schema_id,
					  int32 version)
{
	checked.active = false;
	if (strlen(context) >= sizeof(checked.context) || strlen(subject) >= sizeof(checked.subject))
		return;
	strcpy(checked.context, context);
	strcpy(checked.subject, subject);
	checked.schema_id = schema_id;
	checked.version = version;
	checked.lxid = MyProc->lxid;
	checked.active = true;
}

/* Is this the row the SQL API marked?  The mark is used up either way. */
bool
registry_take_checked(const char *context, const char *subject, int32 schema_id,
					  int32 version)
{
	bool		match = checked.active &&
	checked.lxid == MyProc->lxid &&
	strcmp(checked.context, context) == 0 &&
	strcmp(checked.subject, subject) == 0 &&
	checked.schema_id == schema_id && checked.version == version;

	checked.active = false;
	return match;
}
