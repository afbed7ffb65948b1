/*-------------------------------------------------------------------------
 *
 * rg_avro.h
 *	  Our model of an Avro schema, and the Avro-only entry points.
 *
 * avro-c drops aliases, logical types and custom properties, which
 * Confluent's stored form and Avro's compatibility rules need, so schema
 * JSON is parsed by our own code (on jansson) into this model.
 *
 * Identity matters: every use of a named type points at the one
 * rg_avro_schema that defines it (as Avro Java's Schema objects do), which
 * is what the compatibility checker's recursion memo relies on.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_AVRO_H
#define RG_AVRO_H

#include <jansson.h>

#include "rg_avro_api.h"
#include "rg_format.h"
#include "rg_json_text.h"

typedef enum rg_avro_type
{
	RG_AVRO_NULL = 0,
	RG_AVRO_BOOLEAN,
	RG_AVRO_INT,
	RG_AVRO_LONG,
	RG_AVRO_FLOAT,
	RG_AVRO_DOUBLE,
	RG_AVRO_BYTES,
	RG_AVRO_STRING,
	RG_AVRO_RECORD,
	RG_AVRO_ENUM,
	RG_AVRO_ARRAY,
	RG_AVRO_MAP,
	RG_AVRO_UNION,
	RG_AVRO_FIXED
} rg_avro_type;

/*
 * A custom property (anything Avro does not interpret, plus logicalType,
 * precision and scale, which Avro Java also keeps as properties), in the
 * order it appeared.  value is owned by the schema (json_decref at free).
 */
typedef struct rg_avro_prop
{
	const char *key;
	json_t	   *value;
} rg_avro_prop;

typedef enum rg_avro_order
{
	RG_AVRO_ORDER_ASCENDING = 0,
	RG_AVRO_ORDER_DESCENDING,
	RG_AVRO_ORDER_IGNORE
} rg_avro_order;

struct rg_avro_schema;

/*
 * What few fields have (a doc, aliases, custom properties, an order other
 * than ascending), behind one pointer so that a record of many plain
 * fields stays small.
 */
typedef struct rg_avro_field_extra
{
	const char *doc;			/* NULL when absent */
	const char **aliases;		/* unqualified, as written */
	rg_avro_prop *props;
	int			n_aliases;
	int			n_props;
	rg_avro_order order;
} rg_avro_field_extra;

/* the extra of a field with none of those (all empty, ascending) */
extern rg_avro_field_extra rg_avro_no_extra;

/* a record holds one per field, in order */
typedef struct rg_avro_field
{
	const char *name;
	struct rg_avro_schema *type;
	json_t	   *default_value;	/* NULL when absent; JSON null is json_null() */
	rg_avro_field_extra *extra; /* never NULL: &rg_avro_no_extra when empty */
} rg_avro_field;

typedef struct rg_avro_schema
{
	rg_avro_type type;

	/* named types (record, enum, fixed) */
	const char *name;			/* simple name */
	const char *space;			/* namespace, NULL when none */
	const char *fullname;		/* space.name, or name */
	const char *doc;			/* NULL when absent */
	const char **aliases;		/* fully qualified */
	int			n_aliases;
	bool		is_error;		/* record declared "type":"error" */
	bool		is_reference;	/* defined by a schema reference */
	bool		shared;			/* one static node for many uses (a plain
								 * primitive, a union of two): no identity */

	/* record */
	rg_avro_field *fields;
	int			n_fields;

	/* enum */
	const char **symbols;
	int			n_symbols;
	const char *enum_default;	/* NULL when absent */

	/* fixed */
	int			size;

	/* array items / map values */
	struct rg_avro_schema *items;

	/* union */
	struct rg_avro_schema **branches;
	int			n_branches;

	/* properties, in order; for primitives too ({"type":"int","x":1}) */
	rg_avro_prop *props;
	int			n_props;
} rg_avro_schema;

/* The model behind rg_schema.model for the AVRO format. */
typedef struct rg_avro_parsed
{
	rg_avro_schema *root;
	/* named types defined by the references, in definition order */
	rg_avro_schema **ref_types;
	int			n_ref_types;
} rg_avro_parsed;

/* "record", "int", ... as Avro Java's Schema.Type getName() */
extern const char *rg_avro_type_name(rg_avro_type type);

/* a property's string value, NULL when absent or not a string (avro_fields.c) */
extern const char *rg_avro_string_prop(const rg_avro_schema *s, const char *key);

/*
 * The type of s as a short text into buf: a primitive (with its logical
 * type in parentheses), a name, array<...>, map<...>, [a, b] for a union
 * (avro_fields.c)
 */
extern void rg_avro_type_text(const rg_avro_schema *s, char *buf, size_t size);

/*
 * Internal to the Avro implementation (avro_parse.c, avro_write.c): not
 * for callers outside src/core.
 */

/* deepest schema nesting the parser accepts */
#define RG_AVRO_MAX_DEPTH 256


/*
 * avro_nodes.c: the shared node of a primitive written as its name, and
 * the shared union of two such nodes (NULL unless both are, distinct).
 */
extern rg_avro_schema *rg_avro_plain(rg_avro_type primitive);
extern rg_avro_schema *rg_avro_plain_pair(const rg_avro_schema *first,
										  const rg_avro_schema *second);

/* how many shared nodes there are, and the index of one (-1 for any other node) */
#define RG_AVRO_N_SHARED (8 + 8 * 8)
extern int	rg_avro_shared_index(const rg_avro_schema *s);

/*
 * Avro Java's Schema.toString(): appends the compact JSON of schema to
 * buf.  With refs_as_names, named types defined by references are written
 * as names (toString(referencedSchemas, false), the stored form).
 */
extern void rg_avro_write(rg_buf *buf, const rg_avro_schema *schema,
						  bool refs_as_names);

/*
 * Confluent's normalize=true as an in-place transform of a freshly parsed
 * model (types from references are left alone).  New JSON values it
 * creates are appended to owned (an array the schema releases at free).
 * false on out of memory, or with *too_deep set when rg_too_deep stopped
 * it.
 */
extern bool rg_avro_normalize(rg_arena *arena, rg_avro_schema *root,
							  json_t *owned, bool *too_deep);

/*
 * avro_default.c: Avro Java 1.11's isValidDefault of v for s (1 valid, 0
 * not, -1 a record whose fields are still being parsed, -2 too deep), and
 * Java's Double.valueOf() of a string default (false when it is not a
 * Java double literal; *special for NaN and the infinities).
 */
extern int	rg_avro_default_valid(const rg_avro_schema *s, const json_t *v, int depth);
extern bool rg_avro_java_double(const char *text, double *out, bool *special);

/* Release the JSON values an AVRO model holds (rg_schema_free calls it). */
extern void rg_avro_model_release(void *model);

/*
 * rg_format_avro's tag slots (avro_tags.c): the stored form rewritten with
 * the merged changes, and Confluent's inlineTaggedEntities()
 */
struct rg_tag_change;
struct rg_schema_tags;
extern bool rg_avro_apply_tags(const rg_schema *schema, rg_arena *arena,
							   const char *canonical, size_t len, const struct rg_tag_change *changes,
							   int n_changes, rg_buf *out, rg_error *err);
extern bool rg_avro_tagged_entities(const rg_schema *schema, rg_arena *arena,
									struct rg_schema_tags **out, int *n_out,
									rg_error *err);

#endif							/* RG_AVRO_H */
