/*-------------------------------------------------------------------------
 *
 * schemas.h
 *	  Submitted and stored schemas: from schema text to a parsed rg_schema
 *	  with its references and identity (schema_parse.c), and the backend's
 *	  cache of parsed stored schemas (schema_cache.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef SCHEMAS_H
#define SCHEMAS_H

#include "catalog.h"
#include "rg_format.h"

/* A schema submitted for registration, lookup or a compatibility test. */
typedef struct SubmittedSchema
{
	const rg_format *format;
	rg_schema  *parsed;			/* freed with the current memory context
								 * unless the cache adopts it */
	MemoryContext memory;		/* parsed's own context, a child of it */
	char	   *refs_json;		/* references with concrete versions */
	CatalogRef *refs;			/* the same, parsed */
	int			nrefs;
	char	   *metadata;		/* jsonb text or NULL */
	char	   *rule_set;		/* jsonb text or NULL */
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];

	/*
	 * The parse's normalize, and whether the text was byte for byte the
	 * stored form it gave, without references: then that stored form is known
	 * to give itself back under this normalize (registry_own_form).
	 */
	bool		normalized;
	bool		text_is_stored_form;
} SubmittedSchema;

/*
 * Is a stored text known to be its own stored form, parsed without
 * references: without normalize (plain) and with it (normalized)?  The
 * insert trigger sets registry.schemas' parses_to_itself and
 * normalizes_to_itself from it, and a lookup of that exact text then needs
 * no parse (schema_lookup.c).
 */
typedef struct OwnForm
{
	bool		plain;
	bool		normalized;
} OwnForm;

/* core_memory.c: back the core with palloc and CHECK_FOR_INTERRUPTS (from _PG_init) */
extern void registry_core_init(void);

/* schema_parse.c */

/* The format of a schema_type (NULL is AVRO); 42201 when unknown. */
extern const rg_format *registry_format(const char *schema_type);

/*
 * Parse text in a context; on an invalid schema either raise 42201 (as a
 * parser's error, see errors.c) or, with error_out, return NULL and put
 * the parser's words in *error_out.
 */
extern SubmittedSchema *registry_parse_submitted(const char *context,
												 const char *schema_type,
												 const char *text,
												 const char *refs_json,
												 const char *metadata,
												 const char *rule_set,
												 bool normalize,
												 char **error_out);

/*
 * Is the schema text empty or only whitespace and control characters?
 * Confluent takes such a schema as no schema at all (register: "Empty
 * schema" without a previous version; lookup: not found).
 */
extern bool registry_schema_is_blank(const char *text);

/*
 * The same submitted schema with another data contract: its metadata and
 * rule set (canonical) and identity replaced, without parsing it again.
 */
extern void registry_with_contract(SubmittedSchema *s, const char *metadata,
								   const char *rule_set);

/*
 * The identity of the submitted schema's text and references alone, without
 * metadata and rule set (its own when it has neither): a stored schema
 * without either that could be its twin (the same but for
 * confluent:version) has this one.
 */
extern void registry_plain_fingerprint(const SubmittedSchema *s, uint8 *out);
extern void registry_check_restored_schema(const char *context, const char *schema_type,
										   const char *text, const char *refs_json,
										   const char *metadata, const char *rule_set,
										   const uint8 *fingerprint, OwnForm *own,
										   uint8 *identity);

/* Confluent's guid (MD5 identity) of a schema text as given, with its references and contract. */
extern void registry_schema_identity(const char *text, const char *refs_json,
									 const char *metadata, const char *rule_set, uint8 *out);

/*
 * Parse a stored row with its references for its model (without the stored
 * form when the format can write it again: rg_schema_text); NULL with *err
 * set if it does not parse.
 */
extern rg_schema *registry_parse_stored(const char *context, const CatalogSchema *row,
										rg_error *err, MemoryContext *memory);

/*
 * Is a schema row's content what a parse of this transaction gave?  Then
 * the insert trigger need not parse it again (schema_parse.c).
 */
extern bool registry_parsed_before(const char *context, const char *schema_type,
								   const char *schema, const char *refs,
								   const char *metadata, const char *rule_set,
								   const uint8 *fingerprint, OwnForm *own);

/* What a parse showed of its stored form being its own (see OwnForm). */
extern void registry_own_form(const SubmittedSchema *s, OwnForm *own);

/*
 * A submission taken as its own stored form, without a parse: only its
 * identity, type, text as stored form and contract (parsed->model is
 * NULL); NULL when it has references.  Only a stored row that is this
 * text, of this type, and known to parse to itself under the lookup's
 * normalize (OwnForm) may vouch for it (schema_lookup.c).
 */
extern SubmittedSchema *registry_submitted_as_stored(const char *schema_type,
													 const char *text,
													 const char *refs_json,
													 const char *metadata,
													 const char *rule_set);

/*
 * The key of a schema's exact text (registry.subject_versions.text_key):
 * its fingerprint (the identity of its text, MD5, as registration dedups
 * by it) followed by its type's name; registry_text_key writes it into out
 * (REGISTRY_TEXT_KEY_MAX bytes) and returns its length, 0 for a type name
 * too long to be one.  A schema row vouches for its text's key
 * (registry_schema_text_key: the length, else 0) when its text is its own
 * stored form without normalize and it has no references, metadata or rule
 * set: a lookup of that text as that type, without normalize, is then that
 * schema.
 */
#define REGISTRY_TEXT_KEY_MAX (REGISTRY_FINGERPRINT_LEN + NAMEDATALEN)
/* a schema row vouches for its text: no references, and own form under normalize (OwnForm) */
extern bool registry_schema_vouches(const CatalogSchema *row, bool normalize);
extern int	registry_text_key(const uint8 *fingerprint, const char *schema_type, uint8 *out);
extern int	registry_schema_text_key(const CatalogSchema *row, uint8 *out);

/* schema_cache.c */

/* registry.schema_cache_size (kB), and its definition from _PG_init */
extern int	registry_schema_cache_size;
extern void registry_init_schema_cache(void);

/* Hand a submitted schema to the cache under its new id. */
extern void registry_cache_adopt(const char *context, int32 id,
								 SubmittedSchema *submitted);

/*
 * Offer the insert trigger's parse of a raw INSERT's new row to the cache
 * under the id drawn for it, for the row's AFTER triggers; not lent to
 * the caller, so freed at once if pushed out before it is asked for, and
 * not kept (left to the caller) where it would push out another such.
 */
extern void registry_cache_offer(const char *context, int32 id, SubmittedSchema *submitted);

/*
 * Insert a submitted schema's row (catalog_insert_schema: its id, 0 on a
 * conflict), its triggers finding the submission's parse under the id
 * drawn for it, and adopt the parse.
 */
extern int32 registry_cache_insert_submitted(SubmittedSchema *submitted,
											 const CatalogSchema *row);

/* The parsed form of a stored schema, from the cache or parsed once. */
extern const rg_schema *registry_stored_schema(const char *context, int32 id,
											   const uint8 *fingerprint);

/* schema_formats.c: the resolved form (format=resolved), NULL for a format without one */
extern char *registry_schema_resolved(const char *context, int32 id);

/*
 * The services of the operations that need the parsers, which the REST
 * routes call directly and the SQL functions of api.c wrap
 * (registration.c, version_reads.c, schema_lookup.c, check_service.c).
 */

/* A registration the REST route asks for, served under its subject as served. */
extern void registry_register_submission(const char *served,
										 const CatalogSubmission *submission,
										 CatalogSchemaRow *out);

/* A version the REST route reads, of its subject as served. */
extern void registry_read_version(const char *served, const char *named,
								  const char *version_arg, bool include_deleted,
								  CatalogSchemaRow *out);

/* A lookup the REST route asks for, in its subject as served. */
extern void registry_lookup_submission(const char *served,
									   const CatalogSubmission *submission,
									   bool include_deleted, CatalogSchemaRow *out);

/* wire.c: a PROTOBUF schema as Confluent's format=serialized */
extern char *registry_schema_serialized_text(int32 id, const char *subject);

/* A compatibility check of a submission against its subject as served. */
extern void registry_check_submission(const char *served, const CatalogSubmission *submission,
									  const char *version_arg, bool verbose,
									  CatalogCompatibility *out);

#endif							/* SCHEMAS_H */
