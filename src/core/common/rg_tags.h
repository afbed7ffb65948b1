/*-------------------------------------------------------------------------
 *
 * rg_tags.h
 *	  Schema tags embedded in a schema's text, as Confluent's
 *	  ParsedSchema.copy(tagsToAdd, tagsToRemove) and inlineTaggedEntities()
 *	  handle them (rg_tags.c; each format's apply_tags and tagged_entities
 *	  slots, avro/avro_tags.c, json/json_tags.c and protobuf/proto_tags.c,
 *	  do the rewriting).
 *
 * A tag set belongs to an entity: a record (sr_record) or a field
 * (sr_field) named by an entity path.  Avro keeps the tags in a
 * "confluent:tags" array property of the record or field object, at
 * paths "namespace.Record" and "namespace.Record.field"; JSON Schema in a
 * "confluent:tags" array of the sub-schema the path walks to
 * ("object.address.object.street", ...); Protobuf in the "tags" of a
 * message's (confluent.message_meta) or a field's (confluent.field_meta)
 * option, at paths "Message.Nested" and "Message.field" (no package).
 *
 * Lists of tags come and go in Confluent's JSON shape of a list of
 * SchemaTags:
 *	  [{"schemaEntity": {"entityPath": "ns.Rec.f", "entityType": "sr_field"},
 *		"tags": ["PII"]}]
 *
 * Plain C: no PostgreSQL.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_TAGS_H
#define RG_TAGS_H

#include "rg_format.h"

/* Confluent's SchemaEntity.EntityType */
typedef enum rg_tag_entity_type
{
	RG_TAG_RECORD,				/* "sr_record" */
	RG_TAG_FIELD				/* "sr_field" */
} rg_tag_entity_type;

/* one SchemaTags: an entity and its tags, in the order given */
typedef struct rg_schema_tags
{
	const char *path;			/* entityPath as written */
	rg_tag_entity_type type;
	const char **tags;
	int			n_tags;
} rg_schema_tags;

/* "sr_record" / "sr_field" */
extern const char *rg_tag_entity_type_name(rg_tag_entity_type type);

/*
 * Read a JSON list of SchemaTags (len bytes of text) into *out (n in
 * *n_out), everything in arena.  Unknown members are ignored, as Jackson
 * does; a missing entity, path or tag list, an unknown entityType, or a
 * tag that is not a string, a number or a boolean is an error
 * (RG_ERR_INVALID_SCHEMA with a message naming the element).
 */
extern bool rg_schema_tags_parse(rg_arena *arena, const char *text, size_t len,
								 rg_schema_tags **out, int *n_out,
								 rg_error *err);

/* Append the JSON list of n SchemaTags to buf, Jackson's compact form. */
extern void rg_schema_tags_write(rg_buf *buf, const rg_schema_tags *list, int n);

/*
 * Confluent's ParsedSchema.copy(tagsToAdd, tagsToRemove) of a parsed
 * schema, before the result is parsed again: the new schema's text (not
 * yet its stored form: parse it, with the schema's references, to get
 * that) appended to out.  For every entity of add then of remove (the
 * lists merged as TagSchemaRequest.schemaTagsListToMap merges them) its
 * tags are set to its current tags plus those to add minus those to
 * remove: the property dropped when none are left, kept in its place
 * otherwise, appended when new.  With no entities, the stored form as it
 * is.  false with err set when an entity is not in the schema
 * (RG_ERR_INVALID_SCHEMA, Confluent's "No matching path '...' found in
 * the schema") or the format has no tags.
 */
extern bool rg_schema_rewrite_tags(const rg_schema *schema,
								   const rg_schema_tags *add, int n_add,
								   const rg_schema_tags *remove, int n_remove,
								   rg_buf *out, rg_error *err);

/*
 * rg_schema_rewrite_tags between two parses: the text (of format, with
 * its references) parsed, rewritten and parsed again.  Returns the stored
 * form of the new schema (rg_malloc'd, NUL-terminated, its length in
 * *out_len when not NULL); NULL with err set when the text does not parse
 * or the rewrite fails.
 */
extern char *rg_schema_with_tags(const rg_format *format, const char *text,
								 size_t len, const rg_reference *refs,
								 int n_refs, const rg_schema_tags *add,
								 int n_add, const rg_schema_tags *remove,
								 int n_remove, size_t *out_len, rg_error *err);

/*
 * Confluent's inlineTaggedEntities(): every record and field of a parsed
 * schema with inline tags, in Confluent's order, into arena.  With
 * n_find > 0 only the entities having one of the find tags ("*": every
 * entity), as Confluent's findTags.  Only AVRO schemas have tagged
 * entities, as only Confluent's AvroSchema overrides ParsedSchema's
 * empty inlineTaggedEntities(); JSON and PROTOBUF give none.  false with
 * err set on out of memory or a schema nested too deeply.
 */
extern bool rg_schema_tagged_entities(const rg_schema *schema, rg_arena *arena,
									  const char *const *find, int n_find,
									  rg_schema_tags **out, int *n_out,
									  rg_error *err);

/*
 * For the formats' apply_tags (rg_format.h; avro_tags.c, json_tags.c):
 * one merged entity of the modification, its tags to add and to remove
 * (each a set in first-seen order).
 */
typedef struct rg_tag_change
{
	const char *path;			/* the entity path as first written */
	rg_tag_entity_type type;
	const char **add;
	int			n_add;
	const char **remove;
	int			n_remove;
} rg_tag_change;

/*
 * An entity path's names, as Java's String.split("\\.") makes them
 * (trailing empty names dropped, so "a." is ["a"] and "." is []), in
 * arena; their number in *n.  NULL on out of memory.
 */
extern const char **rg_tag_path_split(rg_arena *arena, const char *path, int *n);

/*
 * The tags of an entity after a change: current (a set in order, n_cur)
 * plus change->add minus change->remove, into arena; their number in *n.
 */
extern const char **rg_tag_apply(rg_arena *arena, const char *const *cur,
								 int n_cur, const rg_tag_change *change,
								 int *n);

#endif							/* RG_TAGS_H */
