/*-------------------------------------------------------------------------
 *
 * compatibility.h
 *	  A schema against versions of a subject under a compatibility level,
 *	  with Confluent's messages (compatibility.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef COMPATIBILITY_H
#define COMPATIBILITY_H

#include "catalog.h"
#include "rg_compat.h"
#include "rg_format.h"

/*
 * What a check follows: the compatibility level and Confluent's
 * compatibilityPolicy (LENIENT widens the JSON diff's compatible set; the
 * other formats ignore it).
 */
typedef struct CompatRule
{
	rg_compat_level level;
	rg_compat_policy policy;
	bool		validate_fields;	/* validateFields: the confluent:reserved
									 * rules */
	const char *group;			/* compatibilityGroup: a metadata property, or
								 * NULL */
	rg_lint_policy lint;		/* the registry's semantic lints: which, and
								 * off, as warnings or as failures */
} CompatRule;

/*
 * A schema to check: its parsed form, its metadata (JSON text or NULL), and
 * its identity (fingerprint) when it has one, which lets a verdict be
 * remembered (verdicts.c).
 */
typedef struct CompatCandidate
{
	const rg_schema *schema;
	const char *metadata;
	const uint8 *identity;		/* or NULL */
} CompatCandidate;

/* The rule of the settings in force for a subject */
extern CompatRule registry_compat_rule(const CatalogSettings *settings);

/* Do two rules decide alike (every member, the group by its text)? */
extern bool registry_same_rule(CompatRule a, CompatRule b);

/*
 * Check a schema against the given versions (ascending, live) under rule,
 * as Confluent's isCompatibleWithPrevious: the confluent:reserved rules
 * against the latest of them (validateFields), the compatibility level
 * against those of the schema's compatibilityGroup, and Confluent's
 * closing line after any failure.  With lints on, their findings against
 * the same versions follow the differences: failures under FAIL, and
 * under WARN messages of a verdict that stays true.  True when compatible.
 */
extern bool registry_check_versions(const char *context, CompatCandidate candidate,
									CompatRule rule,
									const CatalogVersion *versions, int n,
									rg_strlist *messages);

/* The semantic lints of a schema against every live version of the subject. */
extern void registry_lint_subject(const char *context, const char *subject,
								  CompatCandidate candidate, rg_strlist *messages);

/*
 * Check schema against the subject's live versions as a registration
 * does: the latest one for a plain level, all of them for a transitive one.
 */
extern bool registry_check_subject(const char *context, const char *subject,
								   CompatCandidate candidate, CompatRule rule,
								   rg_strlist *messages);

/*
 * Raise 409/40901 unless schema is compatible with the subject's live
 * versions under rule.  A registration checks before it draws an id (so a
 * refused schema leaves no gap), and the version row's trigger checks
 * again; a verdict already reached on the same inputs in this transaction
 * (verdicts.c) is not reached twice.
 */
extern void registry_assert_compatible(const char *context, const char *subject,
									   CompatCandidate candidate, CompatRule rule);

/* A forced registration: compatible without a check, for the trigger too. */
extern void registry_waive_compatibility(const char *context, const char *subject,
										 CompatCandidate candidate, CompatRule rule);

/* verdicts.c: the compatible verdicts of this transaction, by what they rest on */
extern bool registry_verdict_known(const char *context, const char *subject,
								   const uint8 *identity, CompatRule rule,
								   const CatalogVersion *versions, int n);
extern void registry_verdict_keep(const char *context, const char *subject,
								  const uint8 *identity, CompatRule rule,
								  const CatalogVersion *versions, int n);

/* version_handoff.c: a registration's decision, for its version row's trigger */
extern void registry_insert_decided_version(const char *context, const char *subject,
											int32 version, int32 schema_id, bool importing,
											const CompatRule *rule);
extern bool registry_version_decided(const char *context, const char *subject,
									 int32 schema_id, int32 version, bool *importing,
									 CompatRule *rule);

/* Confluent's message list "[a, b, c]" as one string */
extern char *registry_messages_to_string(const rg_strlist *messages);

/* an empty message list whose arena dies with the current memory context */
extern void registry_strlist_init(rg_strlist *list);

#endif							/* COMPATIBILITY_H */
