/*-------------------------------------------------------------------------
 *
 * tags.h
 *	  Schema tags in the PostgreSQL glue (tags.c): Confluent's
 *	  copy(tagsToAdd, tagsToRemove), propagateSchemaTags and findTags over
 *	  parsed schemas, for the registration pipeline and the REST routes,
 *	  and the SQL functions registry.schema_with_tags() and
 *	  registry.schema_tags().
 *
 *-------------------------------------------------------------------------
 */
#ifndef TAGS_H
#define TAGS_H

#include "rg_format.h"

/*
 * The text of schema with the tags of two SchemaTags lists (jsonb text,
 * NULL for none) added and removed, before it is parsed again (parse it
 * with the schema's references for its stored form).  42201 for a
 * malformed list, 42201 with the core's words as detail when an entity
 * is not in the schema or a format without tags.
 */
extern char *registry_rewrite_tags(const rg_schema *schema, const char *add_json,
								   const char *remove_json);

/*
 * propagateSchemaTags: the text of next with the inline tags of previous
 * added, or NULL when previous has none (only AVRO schemas have tagged
 * entities, see rg_tags.h): then next is registered as it is.  42201
 * when next lacks an entity previous tags, as in Confluent.
 */
extern char *registry_propagate_tags(const rg_schema *previous, const rg_schema *next);

/*
 * findTags: jsonb text of the SchemaTags list of schema's tagged
 * entities that have one of find ("*": all); "[]" for JSON and PROTOBUF
 * schemas, which have none (see rg_tags.h).
 */
extern char *registry_find_tags(const rg_schema *schema, const char *const *find,
								int n_find);

#endif							/* TAGS_H */
