/*-------------------------------------------------------------------------
 *
 * rg_fields.h
 *	  Every field a schema declares, in any format, as the field index
 *	  (registry.schema_fields) keeps them.
 *
 * A field has a path from the schema's root (names joined with ".", "[]"
 * for the items of an array or the values of a map: "lines[].sku"), its
 * own name, the record or message that declares it (NULL for JSON
 * Schema), its type as the format writes it, its doc, its default (JSON
 * text), its logical type (Avro logicalType, JSON Schema format) and its
 * tags (confluent:tags).  A record met again under itself is not walked
 * again.
 *
 * Plain C: no jansson, no PostgreSQL.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_FIELDS_H
#define RG_FIELDS_H

#include "rg_arena.h"

#include <stdbool.h>

/* the most fields one schema lists; more are left out and the list marked truncated */
#define RG_MAX_FIELDS 10000

typedef struct rg_field_info
{
	const char *path;
	const char *name;
	const char *record;			/* or NULL */
	const char *type;
	const char *doc;			/* or NULL */
	const char *default_json;	/* JSON text, or NULL */
	const char *logical_type;	/* or NULL */
	const char **tags;
	int			n_tags;
} rg_field_info;

/* the fields of one schema, their strings in arena */
typedef struct rg_field_list
{
	rg_field_info *items;
	int			n;
	int			cap;
	rg_arena   *arena;
	bool		failed;			/* out of memory */
	bool		truncated;		/* more than RG_MAX_FIELDS */
} rg_field_list;

/* An empty list whose strings go to arena. */
extern void rg_field_list_init(rg_field_list *list, rg_arena *arena);

/*
 * Add a copy of f (its strings copied into the list's arena); false when
 * the list is full (truncated) or out of memory (failed).
 */
extern bool rg_field_list_add(rg_field_list *list, const rg_field_info *f);

/* path + "." + name (or name alone for an empty path), in the list's arena */
extern const char *rg_field_path(rg_field_list *list, const char *path, const char *name);

/* Free the list's array (its strings die with the arena). */
extern void rg_field_list_free(rg_field_list *list);

#endif							/* RG_FIELDS_H */
