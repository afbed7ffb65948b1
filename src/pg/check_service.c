/*-------------------------------------------------------------------------
 *
 * check_service.c
 *	  Confluent's POST /compatibility/subjects/{s}/versions[/{v}]: one C
 *	  function, which the REST route calls directly and
 *	  registry.check_compatibility() wraps (api.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/builtins.h"

#include "catalog.h"
#include "compatibility.h"
#include "registration.h"
#include "registry.h"
#include "schemas.h"

/*
 * The versions a check against one named version looks at: the latest
 * live one for 'latest' (none when the subject has no versions), else
 * version N, which must exist: 40402 otherwise, even for a subject that
 * does not exist, as Confluent answers.
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

/*
 * Is the submission compatible with the subject (served: its alias
 * followed)?  version_arg 'latest' or N tests against that one version (a
 * subject without versions is compatible with 'latest'); NULL against
 * every live version as a registration would; the submission's metadata
 * chooses the compatibilityGroup and gives the confluent:reserved fields.
 * With verbose, the messages too, and an invalid schema is a negative
 * verdict carrying the parser's words instead of an error.
 */
void
registry_check_submission(const char *served, const CatalogSubmission *b,
						  const char *version_arg, bool verbose, CatalogCompatibility *out)
{
	SchemaArgs	a;
	SubmittedSchema *s;
	char	   *parse_error = NULL;
	CatalogSettings settings;
	CompatRule	rule;
	CompatCandidate candidate;
	CatalogVersion *versions = NULL;
	int			n = 0;
	rg_strlist	messages;

	memset(&a, 0, sizeof(a));
	registry_submission_args(&a, served, b);
	registry_strlist_init(&messages);
	if (version_arg != NULL)
		versions = named_version(&a, version_arg, &n);
	catalog_effective_settings(a.context, a.subject, &settings);
	if (!a.normalize)
		a.normalize = settings.normalize;
	s = registry_parse_submitted(a.context, a.schema_type, a.schema, a.refs,
								 a.metadata, a.rule_set, a.normalize,
								 verbose ? &parse_error : NULL);
	if (s == NULL)
	{
		out->is_compatible = false;
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
			out->is_compatible = registry_check_subject(a.context, a.subject, candidate, rule,
														&messages);
		else
			out->is_compatible = registry_check_versions(a.context, candidate, rule, versions, n,
														 &messages);
	}
	out->has_messages = verbose;
	out->messages = NIL;
	if (verbose)
		for (int i = 0; i < messages.n; i++)
			out->messages = lappend(out->messages, messages.items[i]);
}
