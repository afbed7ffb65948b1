/*-------------------------------------------------------------------------
 *
 * tag_service.c
 *	  Confluent's POST /subjects/{s}/versions/{v}/tags (modifySchemaTags):
 *	  one C function, which the REST route calls directly and
 *	  registry.tag_schema_version() wraps (api.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog.h"
#include "data_contract.h"
#include "registration.h"
#include "registry.h"
#include "schemas.h"
#include "tags.h"

/*
 * Confluent's maybeModifyPreviousRuleSet: without rulesToMerge and
 * rulesToRemove the request's rule set; with them, the rule set of the
 * version before new_version (the latest without it) with rulesToMerge
 * merged in and the rules named in rulesToRemove taken out.
 */
static char *
tagged_rule_set(SchemaArgs *a, int32 new_version, const char *rule_set,
				const char *to_merge, const char *to_remove)
{
	CatalogVersion v;
	CatalogSchema old;
	char	   *base = NULL;

	if (to_merge == NULL && to_remove == NULL)
		return rule_set ? pstrdup(rule_set) : NULL;
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

/* A SchemaTags list; NULL when NULL or empty. */
static const char *
tag_list(const char *list)
{
	return list == NULL || strcmp(list, "[]") == 0 ? NULL : list;
}

/*
 * A new version of a subject's version (named: the subject as the client
 * spells it, served as its alias; version_arg "latest" or N): the
 * version's schema with the tags added and removed, its metadata (or the
 * request's) with confluent:version, and its rule set as tagged_rule_set()
 * makes it, registered as version new_version (or the next one) under
 * every rule of a registration.  Returns the subject as served.
 */
char *
registry_tag_version(const char *named, const char *version_arg, const CatalogTagRequest *t,
					 Registered *out)
{
	Registration r;
	CatalogVersion v;
	CatalogSchema stored;

	memset(&r, 0, sizeof(r));
	r.a.qualified = registry_served_subject(named);
	registry_split_subject_cstr(r.a.qualified, &r.a.context, &r.a.subject);
	registry_validate_subject(r.a.qualified, r.a.subject);
	r.has_version = t->has_new_version;
	r.want_version = t->has_new_version ? t->new_version : 0;
	(void) dc_rule_set_canonical(t->rule_set);
	r.a.rule_set = tagged_rule_set(&r.a, r.want_version, t->rule_set,
								   t->rules_to_merge, t->rules_to_remove);
	registry_requested_version(r.a.context, r.a.subject, r.a.qualified, version_arg, false, &v, NULL);
	if (!catalog_get_schema(r.a.context, v.schema_id, &stored))
		elog(ERROR, "schema %d of a live version not found", v.schema_id);
	r.a.schema_type = stored.schema_type;
	r.a.refs = stored.refs;
	r.a.schema = registry_rewrite_tags(registry_stored_schema(r.a.context, stored.id,
															  stored.fingerprint),
									   tag_list(t->tags_to_add), tag_list(t->tags_to_remove));
	r.a.metadata = t->metadata ? pstrdup(t->metadata) : NULL;
	if (r.a.metadata == NULL)
		r.a.metadata = stored.metadata;
	r.a.metadata = dc_metadata_with_version(r.a.metadata, r.want_version);
	registry_register(&r, out);
	return r.a.qualified;
}
