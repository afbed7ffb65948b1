/*-------------------------------------------------------------------------
 *
 * rg_format.h
 *	  The interface every schema format (AVRO, JSON and PROTOBUF)
 *	  implements.  Callers (rg_compat.c, the PostgreSQL glue, the
 *	  unit tests and fuzzers) only ever see rg_schema and rg_format, never
 *	  a format's own model.
 *
 * Each format's folder (avro/, json/, protobuf/) exports one rg_format,
 * declared in its header (rg_avro_api.h, rg_jsonschema.h, rg_protobuf.h).
 * A capability some formats lack is an optional slot, NULL where the
 * format has none: callers pick behaviour by the slot, never by comparing
 * a schema's format with a particular format.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_FORMAT_H
#define RG_FORMAT_H

#include "rg_common.h"

struct rg_format;
struct rg_prior_version;
struct rg_field_list;
struct rg_schema_tags;
struct rg_tag_change;

/*
 * A parsed schema.  It owns its arena; everything reachable from it lives
 * there or near it (rg_alloc.h: JSON values and descriptors the model
 * keeps are allocated where the arena lives, and the format's release
 * frees them).  Immutable after parse, so it can be cached and shared.
 */
typedef struct rg_schema
{
	const struct rg_format *format;
	rg_arena   *arena;

	/*
	 * Confluent's stored form (canonicalString()), NUL-terminated; NULL in a
	 * schema parsed without it (rg_parse_for_model): a reader that may meet
	 * such a schema reads it with rg_schema_text.
	 */
	char	   *canonical;
	size_t		canonical_len;
	/* the format's own model (rg_avro_schema * for AVRO) */
	void	   *model;
} rg_schema;

/*
 * A resolved schema reference: the name the referring schema uses for it
 * (an Avro full name, a .proto import path, a JSON $ref) and the stored
 * text of the referenced subject-version.  A list of references is given
 * in dependency order: a reference's own references come before it.
 */
typedef struct rg_reference
{
	const char *name;
	const char *schema;
	size_t		schema_len;
} rg_reference;

typedef struct rg_format
{
	const char *name;			/* "AVRO" */

	/*
	 * Parse text (not necessarily NUL-terminated) with its references.
	 * normalize applies Confluent's normalize=true.  NULL with err set on an
	 * invalid schema (RG_ERR_INVALID_SCHEMA, message in the parser's own
	 * words with a position where there is one).
	 */
	rg_schema  *(*parse) (const char *text, size_t len,
						  const rg_reference *refs, int n_refs,
						  bool normalize, rg_error *err);

	/*
	 * Can a reader with schema `reader` read data written with `writer`?
	 * Appends one message per incompatibility to out (allocated in
	 * out->arena) and returns true when there are none.  Each message is a
	 * template in Confluent's form with up to two "%s": the first stands for
	 * the reader's role ("new"/"old"), the second for the writer's. On an
	 * internal failure (e.g. Avro's ambiguous alias) the message is
	 * Confluent's "Unexpected exception ..." text, still in out.
	 */
	bool		(*can_read) (const rg_schema *reader, const rg_schema *writer,
							 rg_strlist *out);

	/*
	 * can_read under Confluent's LENIENT compatibilityPolicy; NULL for a
	 * format that has one set of compatible changes (AVRO, PROTOBUF).
	 */
	bool		(*can_read_lenient) (const rg_schema *reader, const rg_schema *writer,
									 rg_strlist *out);

	/*
	 * Does the schema's top level have a field of this name (a field of an
	 * Avro root record, of any top-level Protobuf message outside its oneofs,
	 * a member of a JSON Schema's root "properties")?  Confluent's
	 * hasTopLevelField, for the confluent:reserved check; NULL for a format
	 * that has none.
	 */
	bool		(*has_top_level_field) (const rg_schema *schema, const char *name);

	/*
	 * Release what the model holds outside the schema's arena (JSON values,
	 * protobuf-c messages); NULL when the arena holds everything.
	 */
	void		(*release) (void *model);

	/*
	 * For a format whose stored form is a function of its model (Avro's
	 * toString()): parse without making the stored form (normalize off), for
	 * a schema kept for its model (the backend's cache of stored schemas),
	 * and write the stored form from the model into out when it is asked for.
	 * NULL for the other formats, whose schemas always keep their text.
	 */
	rg_schema  *(*parse_textless) (const char *text, size_t len,
								   const rg_reference *refs, int n_refs,
								   rg_error *err);
	void		(*write_text) (const rg_schema *schema, rg_buf *out);

	/*
	 * The schema with the named types of its references written in full where
	 * first used (Avro's Schema.toString(), Confluent's format=resolved) into
	 * out.  NULL for a format without that form.
	 */
	void		(*write_resolved) (const rg_schema *schema, rg_buf *out);

	/*
	 * Semantic lints (rg_lint.h): what the compatibility rules let through
	 * although it loses or confuses data, and the evolution practices.
	 * Appends one message per finding, of the lints in rules, about
	 * new_schema against the earlier live versions (oldest first, of this
	 * format; n_earlier may be 0); false on out-of-memory.  NULL for a format
	 * without lints.
	 */
	bool		(*lint) (const rg_schema *new_schema,
						 const struct rg_prior_version *earlier, int n_earlier,
						 unsigned int rules, rg_strlist *out);

	/*
	 * Every field the schema declares, for the field index (rg_fields.h):
	 * appended to out; false on out-of-memory.  NULL for a format without
	 * fields.
	 */
	bool		(*fields) (const rg_schema *schema, struct rg_field_list *out);

	/*
	 * Payloads (registry.encode and registry.decode).  A value is JSON text
	 * in the registry's JSON form of the format's values (README, "Payloads
	 * in SQL").  A payload is what follows the wire format's 5-byte header
	 * (magic byte and schema id): for PROTOBUF it starts with the message
	 * indexes, which encode writes and decode reads.
	 *
	 * encode: check the value against the schema and append its payload to
	 * out.  message picks a PROTOBUF message by full name (NULL: the first
	 * message of the file); other formats ignore it.  False with err set
	 * (RG_ERR_INVALID_VALUE, the message naming the path of the offending
	 * part of the value, e.g. "$.address.zip: expected int, found string")
	 * when the schema does not admit the value; RG_ERR_NOMEM on out of
	 * memory.
	 *
	 * decode: read a payload written with writer and append its value as JSON
	 * text to out.  With reader not NULL the value is read as a reader with
	 * that schema reads it (Avro schema resolution, reader defaults applied;
	 * PROTOBUF: the reader's message of the same full name).  When notes is
	 * not NULL, each thing the reader does not read as written is appended to
	 * it, one line per value path ("$.email: missing from the data, the
	 * reader's default used", "$.age: not in the reader, dropped"), for
	 * registry.check_data.  False with err set: RG_ERR_INVALID_PAYLOAD for
	 * truncated or trailing bytes or data the writer cannot have written,
	 * RG_ERR_INVALID_VALUE when the reader cannot read it.
	 *
	 * NULL for a format without payloads.
	 */
	bool		(*encode) (const rg_schema *schema, const char *message,
						   const char *json, size_t json_len,
						   rg_buf *out, rg_error *err);
	bool		(*decode) (const rg_schema *writer, const rg_schema *reader,
						   const uint8_t *data, size_t len,
						   rg_buf *out, rg_strlist *notes, rg_error *err);

	/*
	 * Schema tags (rg_tags.h).  apply_tags: the stored form (text, len) of
	 * schema with the merged changes applied, appended to out (scratch in
	 * arena); false with err set when an entity is not in the schema.  A
	 * format may read the schema's model instead of its text (PROTOBUF
	 * rewrites its parse).  NULL for a format whose schemas carry no tags.
	 */
	bool		(*apply_tags) (const rg_schema *schema, rg_arena *arena,
							   const char *text, size_t len,
							   const struct rg_tag_change *changes,
							   int n_changes, rg_buf *out, rg_error *err);

	/*
	 * Confluent's inlineTaggedEntities(): every entity of the schema with
	 * inline tags, into arena.  NULL for a format without them (only
	 * Confluent's AvroSchema overrides ParsedSchema's empty list).
	 */
	bool		(*tagged_entities) (const rg_schema *schema, rg_arena *arena,
									struct rg_schema_tags **out, int *n_out,
									rg_error *err);

	/*
	 * The format's canonical form of a schema (Avro's Parsing Canonical
	 * Form), from rg_malloc (the caller rg_frees it); NULL with err set on
	 * out of memory.  NULL for a format without one.
	 */
	char	   *(*canonical_form) (const rg_schema *schema, rg_error *err);

	/*
	 * Message indexes, for a format whose payloads start with them (PROTOBUF;
	 * NULL for the others).  message_indexes: the index path of a message by
	 * full name into out (at most max), its length, or -1 when there is no
	 * such message.  message_name: the full name of the message at an index
	 * path (n == 0: the first message), from rg_malloc, NULL when out of
	 * range.  serialized: the schema in its binary form (Confluent's
	 * format=serialized, before base64), *len its size.
	 */
	int			(*message_indexes) (const rg_schema *schema, const char *full_name,
									int *out, int max);
	char	   *(*message_name) (const rg_schema *schema, const int *indexes, int n);
	const unsigned char *(*serialized) (const rg_schema *schema, size_t *len);
} rg_format;

/* the i-th known format (0-based), NULL past the end */
extern const rg_format *rg_format_at(int i);

/* "AVRO" (exactly, as Confluent matches schemaType) -> format; NULL if unknown */
extern const rg_format *rg_format_lookup(const char *name);

/* The format's has_top_level_field; false for a format without one. */
extern bool rg_schema_has_top_level_field(const rg_schema *schema, const char *name);

/* Free a parsed schema: what its model holds outside the arena, then the arena. */
extern void rg_schema_free(rg_schema *schema);

/*
 * The stored form of a schema: its text, or when it was parsed without it
 * the format's writing of it into buf (which the caller rg_buf_frees); NULL on
 * out of memory.  *len is its length.
 */
extern const char *rg_schema_text(const rg_schema *schema, rg_buf *buf,
								  size_t *len);

/*
 * Parse text (normalize off) for its model only: without the stored form
 * when the format can write it again (parse_textless), else as parse.
 */
extern rg_schema *rg_parse_for_model(const rg_format *format, const char *text,
									 size_t len, const rg_reference *refs,
									 int n_refs, rg_error *err);

/*
 * For a format's parse: keep what a writer left in buf as the schema's
 * stored form (copied into arena) and free buf; false when the writer ran
 * out of memory or went too deep (buf->too_deep, read before the call) or
 * the copy found no memory.
 */
extern bool rg_schema_keep_text(rg_schema *schema, rg_arena *arena, rg_buf *buf);

/* A format's parse proper: into arena, which it destroys on failure. */
typedef rg_schema *(*rg_parse_body) (rg_arena *arena, const char *text, size_t len,
									 const rg_reference *refs, int n_refs,
									 bool normalize, rg_error *err);

/*
 * Run a parse body as every format's parse does: the schema's arena in
 * the current place, the work in scratch (rg_alloc.h), so only what the
 * schema keeps stays behind.
 */
extern rg_schema *rg_parse_in_scratch(rg_parse_body body, const char *text,
									  size_t len, const rg_reference *refs,
									  int n_refs, bool normalize, rg_error *err);

#endif							/* RG_FORMAT_H */
