/*-------------------------------------------------------------------------
 *
 * schemas.h
 *	  From schema text to a parsed rg_schema: references, parsing, identity
 *	  (fingerprint), the backend's cache of parsed stored schemas, and the
 *	  compatibility check of one schema against versions of a subject.
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCHEMAS_H
#define SCHEMAS_H

#include "catalog.h"
#include "rg_compat.h"
#include "rg_format.h"

/* A schema submitted for registration, lookup or a compatibility test. */
typedef struct SubmittedSchema
{
	const rg_format *format;
	rg_schema  *parsed;			/* freed with the current memory context
								 * unless the cache adopts it */
	MemoryContext memory;		/* parsed's own context, a child of it */
	char	   *refs_json;		/* references with concrete versions */
	char	   *metadata;		/* jsonb text or NULL */
	char	   *rule_set;		/* jsonb text or NULL */
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];
} SubmittedSchema;

/* Back the core with palloc and CHECK_FOR_INTERRUPTS (from _PG_init). */
extern void registry_core_init(void);

extern const rg_format *registry_format(const char *schema_type);

/*
 * Parse text in a context; on an invalid schema either raise 42201 or,
 * with error_out, return NULL and put the parser's words in *error_out.
 */
extern SubmittedSchema *registry_parse_submitted(const char *context,
												 const char *schema_type,
												 const char *text,
												 const char *refs_json,
												 const char *metadata,
												 const char *rule_set,
												 bool normalize,
												 char **error_out);

/* Hand a submitted schema to the cache under its new id. */
extern void registry_cache_adopt(const char *context, int32 id,
								 SubmittedSchema *submitted);

/* Remember what the SQL API is about to insert into registry.schemas. */
extern void registry_set_pending_insert(const char *context,
										SubmittedSchema *submitted);
extern bool registry_is_pending_insert(const char *context, const char *schema_type,
									   const char *schema, const char *refs,
									   const char *metadata, const char *rule_set,
									   const uint8 *fingerprint);

/* The parsed form of a stored schema, from the cache or parsed once. */
extern const rg_schema *registry_stored_schema(const char *context, int32 id,
											   const uint8 *fingerprint);

/*
 * Check schema against the given versions (ascending, live) under level,
 * appending Confluent's messages.  True when compatible.
 */
extern bool registry_check_versions(const char *context, const rg_schema *schema,
									rg_compat_level level,
									const CatalogVersion *versions, int n,
									rg_strlist *messages);

/*
 * Raise 409/40901 unless schema is compatible with the subject's live
 * versions under the compatibility level in force.  The SQL API checks
 * before it allocates an id (so a refused schema leaves no gap) and marks
 * the check done; the insert trigger then skips the same work.
 */
/*
 * Check schema against the subject's live versions as a registration
 * does: the latest one for a plain level, all of them for a transitive one.
 */
extern bool registry_check_subject(const char *context, const char *subject,
								   const rg_schema *schema, const char *level_name,
								   rg_strlist *messages);
extern void registry_assert_compatible(const char *context, const char *subject,
									   const rg_schema *schema,
									   const char *level_name);
extern void registry_mark_checked(const char *context, const char *subject,
								  int32 schema_id, int32 version);
extern bool registry_take_checked(const char *context, const char *subject,
								  int32 schema_id, int32 version);

/* Confluent's message list "[a, b, c]" as one string */
extern char *registry_messages_to_string(const rg_strlist *messages);

/* an empty message list whose arena dies with the current memory context */
extern void registry_strlist_init(rg_strlist *list);

#endif							/* SCHEMAS_H */
