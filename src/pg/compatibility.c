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
#include "miscadmin.h"
#include "storage/proc.h"

#include "compatibility.h"
#include "confluent_messages.h"
#include "data_contract.h"
#include "registration.h"
#include "registry.h"
#include "schemas.h"

/* The rule of a subject's settings (see compatibility.h). */
CompatRule
registry_compat_rule(const CatalogSettings *settings)
{
	CompatRule	rule;

	rule.level = registry_level(settings->compatibility);
	rule.policy = settings->policy != NULL && strcmp(settings->policy, "LENIENT") == 0 ?
		RG_POLICY_LENIENT : RG_POLICY_STRICT;
	rule.validate_fields = settings->validate_fields;
	rule.group = settings->compatibility_group;
	if (!rg_lint_mode_parse(settings->lint, &rule.lint.mode))
		rule.lint.mode = RG_LINT_NONE;
	if (!rg_lint_rules_parse(settings->lint_rules, &rule.lint.rules))
		rule.lint.rules = RG_LINT_DATA_LOSS;
	return rule;
}

/* Do two rules decide alike (every member, the group by its text)? */
bool
registry_same_rule(CompatRule a, CompatRule b)
{
	return a.level == b.level && a.policy == b.policy &&
		a.validate_fields == b.validate_fields && a.lint.mode == b.lint.mode &&
		a.lint.rules == b.lint.rules && registry_same_text(a.group, b.group);
}

/* The metadata of a stored version's schema (NULL when it has none). */
static char *
version_metadata(const char *context, const CatalogVersion *v)
{
	CatalogSchema row;

	return catalog_get_schema(context, v->schema_id, &row) ? row.metadata : NULL;
}

/*
 * Confluent's validateReservedFields: a reserved field of the previous
 * version missing from the new schema's reserved list, then each reserved
 * field the new schema has at its top level.
 */
static void
check_reserved_fields(CompatCandidate candidate, const char *previous_metadata,
					  rg_strlist *messages)
{
	int			n_new;
	int			n_old;
	char	  **reserved = dc_reserved_fields(candidate.metadata, &n_new);
	char	  **previous = dc_reserved_fields(previous_metadata, &n_old);
	int			i;

	for (i = 0; i < n_old; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (bsearch(&previous[i], reserved, n_new, sizeof(char *), registry_cmp_cstrings) == NULL)
			rg_strlist_pushf(messages, "The new schema has reserved field %s removed from its "
							 "metadata which is present in the old schema's metadata.",
							 previous[i]);
	}
	for (i = 0; i < n_new; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (rg_schema_has_top_level_field(candidate.schema, reserved[i]))
			rg_strlist_pushf(messages, "The new schema has field that conflicts with the "
							 "reserved field %s.", reserved[i]);
	}
}

/* Are two values of a compatibilityGroup property the same (both absent included)? */
static bool
same_group(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/*
 * The versions of the candidate's compatibilityGroup, parsed, as the
 * level driver takes them; *n is how many.
 */
static rg_prior_version *
prior_versions(const char *context, CompatCandidate candidate, CompatRule rule,
			   const CatalogVersion *versions, int *n)
{
	rg_prior_version *prior = palloc(sizeof(rg_prior_version) * (*n + 1));
	char	   *group = rule.group ? dc_metadata_property(candidate.metadata, rule.group) : NULL;
	int			kept = 0;
	int			i;

	for (i = 0; i < *n; i++)
	{
		if (rule.group &&
			!same_group(group, dc_metadata_property(version_metadata(context, &versions[i]),
													rule.group)))
			continue;
		prior[kept].schema = registry_stored_schema(context, versions[i].schema_id,
													versions[i].fingerprint);
		prior[kept].version = versions[i].version;
		kept++;
	}
	*n = kept;
	return prior;
}

/*
 * Check a schema against the given versions (see compatibility.h).  A
 * check the core stopped at its budget is 42201, not an answer.
 */
bool
registry_check_versions(const char *context, CompatCandidate candidate,
						CompatRule rule, const CatalogVersion *versions,
						int n, rg_strlist *messages)
{
	rg_prior_version *prior = NULL;
	int			n_prior = 0;
	int			before = messages->n;

	if (rule.validate_fields)
		check_reserved_fields(candidate,
							  n > 0 ? version_metadata(context, &versions[n - 1]) : NULL,
							  messages);
	if ((rule.level != RG_COMPAT_NONE || rule.lint.mode != RG_LINT_NONE) && n > 0)
	{
		n_prior = n;
		prior = prior_versions(context, candidate, rule, versions, &n_prior);
	}
	if (rg_compat_verdict(rule.level, rule.policy, rule.lint, rule.validate_fields,
						  candidate.schema, prior, n_prior, messages->n > before,
						  messages))
		return true;
	if (rg_compat_too_large(messages, before))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("schema comparison too large"),
				 errdetail("Schema comparison too large: comparing the schema with an earlier "
						   "version would take more work or memory than a compatibility check "
						   "may use.")));
	return false;
}

/*
 * The advice NON_TRANSITIVE_LEVEL: a subject that keeps more than one
 * version under BACKWARD, FORWARD or FULL checks a new version against
 * the latest one only, so the data of the others may become unreadable.
 */
static void
advise_transitive_level(const char *subject, const CatalogSettings *settings, int n,
						rg_strlist *messages)
{
	rg_compat_level level = registry_level(settings->compatibility);

	if (n < 2 || level == RG_COMPAT_NONE || rg_compat_is_transitive(level))
		return;
	rg_strlist_pushf(messages,
					 "{lintType:'NON_TRANSITIVE_LEVEL', description:'The subject '%s' keeps %d "
					 "versions under %s, which checks a new version against the latest one "
					 "only: data written with an earlier version may not be readable under a "
					 "schema that passes; %s_TRANSITIVE checks every version (advice only, "
					 "never a failure)', additionalInfo:'%s -> %s_TRANSITIVE'}",
					 subject, n, rg_compat_level_name(level), rg_compat_level_name(level),
					 rg_compat_level_name(level), rg_compat_level_name(level));
}

/*
 * The lints of a schema against every live version of the subject, as
 * registry.lint() answers whatever the config says: every lint, then the
 * advice on the subject's level.
 */
void
registry_lint_subject(const char *context, const char *subject,
					  CompatCandidate candidate, rg_strlist *messages)
{
	CompatRule	rule = {0};
	CatalogSettings settings;
	CatalogVersion *versions;
	rg_prior_version *prior = NULL;
	int			n;

	rule.lint.mode = RG_LINT_WARN;
	rule.lint.rules = RG_LINT_ALL;
	versions = catalog_versions(context, subject, false, &n);
	if (n > 0)
		prior = prior_versions(context, candidate, rule, versions, &n);
	(void) rg_compat_lint(candidate.schema, prior, n, rule.lint.rules, messages);
	catalog_effective_settings(context, subject, &settings);
	advise_transitive_level(subject, &settings, n, messages);
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

/*
 * The subject's live versions a registration's check compares with (the
 * latest one for a plain level without a compatibilityGroup or lints),
 * false when the rule compares with none.
 */
static bool
versions_to_check(const char *context, const char *subject, CompatRule rule,
				  CatalogVersion **versions, int *n)
{
	if (rule.level == RG_COMPAT_NONE && !rule.validate_fields && rule.lint.mode == RG_LINT_NONE)
		return false;
	if (rg_compat_is_transitive(rule.level) || rule.group != NULL || rule.lint.mode != RG_LINT_NONE)
		*versions = catalog_versions(context, subject, false, n);
	else
	{
		*versions = palloc(sizeof(CatalogVersion));
		*n = catalog_latest_version(context, subject, *versions) ? 1 : 0;
	}
	return true;
}

/*
 * Check a schema against the subject's live versions as a registration
 * does.  A plain level without a compatibilityGroup needs the latest one
 * only.
 */
bool
registry_check_subject(const char *context, const char *subject,
					   CompatCandidate candidate, CompatRule rule,
					   rg_strlist *messages)
{
	CatalogVersion *versions;
	int			n;

	if (!versions_to_check(context, subject, rule, &versions, &n))
		return true;
	return registry_check_versions(context, candidate, rule, versions, n, messages);
}

/*
 * Raise 40901 unless the schema is compatible with the subject's live
 * versions; lint warnings (a compatible verdict with messages) are a NOTICE.
 */
void
registry_assert_compatible(const char *context, const char *subject,
						   CompatCandidate candidate, CompatRule rule)
{
	rg_strlist	messages;
	CatalogVersion *versions;
	int			n;

	if (!versions_to_check(context, subject, rule, &versions, &n))
		return;
	if (candidate.identity &&
		registry_verdict_known(context, subject, candidate.identity, rule, versions, n))
		return;
	registry_strlist_init(&messages);
	if (registry_check_versions(context, candidate, rule, versions, n, &messages))
	{
		if (messages.n > 0)
			ereport(NOTICE,
					(errmsg("schema registered for subject \"%s\" has lint warnings", subject),
					 errdetail("%s", registry_messages_to_string(&messages))));
		if (candidate.identity)
			registry_verdict_keep(context, subject, candidate.identity, rule, versions, n);
	}
	else
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INCOMPATIBLE_SCHEMA),
				 errmsg("schema being registered is incompatible with an earlier schema for subject \"%s\"",
						subject),
				 errdetail("%s", confluent_text(CW_INCOMPATIBLE_SCHEMA, subject,
												registry_messages_to_string(&messages)))));
}

/*
 * A forced registration (register's force=true): the schema is taken as
 * compatible with the subject's live versions without a check, and that
 * verdict is kept for the transaction, so the version's insert trigger
 * accepts it too.  A raw INSERT is still checked.
 */
void
registry_waive_compatibility(const char *context, const char *subject,
							 CompatCandidate candidate, CompatRule rule)
{
	CatalogVersion *versions;
	int			n;

	if (candidate.identity == NULL ||
		!versions_to_check(context, subject, rule, &versions, &n))
		return;
	registry_verdict_keep(context, subject, candidate.identity, rule, versions, n);
}
