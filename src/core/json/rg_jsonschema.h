/*-------------------------------------------------------------------------
 *
 * rg_jsonschema.h
 *	  Our model of a JSON Schema document, and the JSON-only entry points.
 *
 * A JSON Schema is loaded into a tree of rg_js nodes that mirrors the
 * schema classes Confluent's registry compares (everit-json-schema's
 * object model: a "type":[a,b] becomes a generated anyOf, a schema with
 * keywords of several kinds becomes a generated allOf of one node per
 * kind, {} is the empty schema, integer is a number that requires an
 * integer, ...), because Confluent's compatibility diff is defined over
 * those classes.  Every $ref is resolved at load time: a REF node points
 * at its target, so the tree is a graph that may have cycles.
 *
 * The stored form (rg_schema.canonical) is rendered from the JSON document
 * itself, not from this tree.
 *
 * Plain C: no PostgreSQL.  The code lives in src/core/json/.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_JSONSCHEMA_H
#define RG_JSONSCHEMA_H

#include "rg_format.h"

/* which JSON Schema draft a document is written in ("$schema") */
typedef enum rg_js_draft
{
	RG_JS_DRAFT_4,
	RG_JS_DRAFT_6,
	RG_JS_DRAFT_7,
	RG_JS_DRAFT_2019_09,
	RG_JS_DRAFT_2020_12
} rg_js_draft;

/* the schema class of a node (everit's class names in the comments) */
typedef enum rg_js_kind
{
	RG_JS_EMPTY,				/* EmptySchema: {} or only annotations */
	RG_JS_TRUE,					/* TrueSchema: the boolean schema true */
	RG_JS_FALSE,				/* FalseSchema: the boolean schema false */
	RG_JS_BOOLEAN,				/* BooleanSchema: "type":"boolean" */
	RG_JS_NULL,					/* NullSchema: "type":"null" */
	RG_JS_STRING,				/* StringSchema */
	RG_JS_NUMBER,				/* NumberSchema (integer: requires_integer) */
	RG_JS_OBJECT,				/* ObjectSchema */
	RG_JS_ARRAY,				/* ArraySchema */
	RG_JS_ENUM,					/* EnumSchema */
	RG_JS_CONST,				/* ConstSchema */
	RG_JS_COMBINED,				/* CombinedSchema: allOf / anyOf / oneOf */
	RG_JS_NOT,					/* NotSchema */
	RG_JS_REF,					/* ReferenceSchema, resolved */
	RG_JS_CONDITIONAL			/* ConditionalSchema: if / then / else */
} rg_js_kind;

typedef enum rg_js_criterion
{
	RG_JS_ALL_OF,
	RG_JS_ANY_OF,
	RG_JS_ONE_OF
} rg_js_criterion;

/*
 * A JSON value kept from the document (default, const, enum members,
 * unknown keywords): its compact text as the stored form prints it,
 * NUL-terminated, and the parsed value the diff compares (by Java's
 * equality of Jackson nodes: json_diff_values.c).
 */
typedef struct rg_js_value
{
	const char *text;
	void	   *json;			/* the parsed value (json_t *), for comparison */
} rg_js_value;

/* an optional number: present, its value as a double, its exact lexeme */
typedef struct rg_js_number
{
	bool		present;
	double		value;
	const char *lexeme;			/* as written, e.g. "0.10" or "1e3" */
} rg_js_number;

/* an optional non-negative count (maxLength, minItems, ...) */
typedef struct rg_js_count
{
	bool		present;
	int64_t		value;
} rg_js_count;

struct rg_js;
struct rg_js_names;

/* a named sub-schema: a property, a pattern property, a dependency */
typedef struct rg_js_member
{
	const char *name;			/* property name or pattern source */
	struct rg_js *schema;
} rg_js_member;

/* a property dependency: "dependencies": {"a": ["b", "c"]} */
typedef struct rg_js_prop_dependency
{
	const char *name;
	const char **requires;
	int			n_requires;
} rg_js_prop_dependency;

/*
 * A schema node.  Only the part for its kind is meaningful; every count
 * of a list is 0 when the keyword is absent.
 */
typedef struct rg_js
{
	rg_js_kind	kind;

	/*
	 * The id of the node's content (json_content.c), the same for every node
	 * of the same content in this process: 1 to RG_JS_CONTENT_MAX, or
	 * RG_JS_CONTENT_LONG (no $ref below it, but too long a content),
	 * RG_JS_CONTENT_NONE (a $ref below it, or no ids left),
	 * RG_JS_CONTENT_UNSET (not reached from the root).
	 */
	uint32_t	content_id;
	const char *location;		/* JSON pointer of the node in its document,
								 * "#" for the root */

	/* common to every kind */
	const char *id;				/* $id (draft 6+) or id (draft 4); NULL if
								 * absent */
	const char *title;
	const char *description;
	const rg_js_value *default_value;	/* NULL if absent */
	/* keywords no loader consumed, in document order ("connect.type", ...) */
	const char **unprocessed_names;
	const rg_js_value **unprocessed_values;
	int			n_unprocessed;

	union
	{
		struct
		{
			rg_js_count min_length;
			rg_js_count max_length;
			const char *pattern;	/* NULL if absent */
			const char *format;
			bool		requires_string;
		}			string;

		struct
		{
			bool		requires_number;
			bool		requires_integer;
			rg_js_number minimum;
			rg_js_number maximum;
			/* draft 6+ numeric limits; draft 4's boolean forms below */
			rg_js_number exclusive_minimum;
			rg_js_number exclusive_maximum;
			bool		exclusive_minimum_flag; /* draft 4 */
			bool		exclusive_maximum_flag; /* draft 4 */
			rg_js_number multiple_of;
		}			number;

		struct
		{
			bool		requires_object;
			rg_js_member *properties;	/* document order */
			int			n_properties;
			const char **required;
			int			n_required;
			/* additionalProperties: absent or true -> permits, no schema */
			bool		permits_additional;
			struct rg_js *additional_schema;	/* NULL if not a schema */
			rg_js_member *pattern_properties;	/* document order */
			int			n_pattern_properties;
			/* unevaluatedProperties (2019-09 on): absent (NULL) or its schema */
			struct rg_js *unevaluated;
			/* the same as validation reads it, never lost to the diff's map */
			struct rg_js *assert_unevaluated;
			rg_js_prop_dependency *property_dependencies;
			int			n_property_dependencies;
			rg_js_member *schema_dependencies;
			int			n_schema_dependencies;
			struct rg_js *property_names;	/* NULL if absent */
			rg_js_count min_properties;
			rg_js_count max_properties;

			/*
			 * What the diff needs of the property names (their Java hashes
			 * and HashMap order, a lookup table), built once the schema is
			 * loaded; NULL if not built (the diff then builds it itself).
			 */
			const struct rg_js_names *property_index;
		}			object;

		struct
		{
			bool		requires_array;
			struct rg_js *all_items;	/* "items": schema; NULL if absent */
			struct rg_js **item_schemas;	/* tuple: "items": [..] or
											 * prefixItems */
			int			n_item_schemas;
			/* additionalItems: absent or true -> permits, no schema */
			bool		permits_additional;
			struct rg_js *additional_items;
			struct rg_js *unevaluated;	/* unevaluatedItems, NULL if absent */
			struct rg_js *assert_unevaluated;	/* the same for validation */
			struct rg_js *contains;
			rg_js_count min_items;
			rg_js_count max_items;

			/*
			 * What Confluent's diff reads from the unprocessed properties:
			 * drafts 4-7 the numbers as written; 2019-09 on json-sKema's
			 * (minContains is 1 when contains is there and it is not), absent
			 * where the translator's map replacement lost them (as for both
			 * unevaluated fields).
			 */
			rg_js_count min_contains;
			rg_js_count max_contains;
			bool		unique_items;

			/*
			 * What validation reads, never the diff: minContains and
			 * maxContains from 2019-09 on (minContains 1 when absent), kept
			 * where the two fields above lose them; and whether 2020-12's
			 * "items" (additional_items, permits_additional) binds the items
			 * past item_schemas without a tuple.
			 */
			rg_js_count assert_min_contains;
			rg_js_count assert_max_contains;
			bool		additional_applies;
		}			array;

		struct
		{
			const rg_js_value **values; /* document order */
			int			n_values;
		}			enumeration;

		struct
		{
			const rg_js_value *value;
		}			constant;

		struct
		{
			rg_js_criterion criterion;
			struct rg_js **subschemas;
			int			n_subschemas;

			/*
			 * generated by the loader, not written: drafts 4-7 everit's
			 * synthetic allOf of several kinds (a "type" array's anyOf is
			 * not); 2019-09 on Confluent's generated allOf / anyOf
			 */
			bool		synthetic;
		}			combined;

		struct
		{
			struct rg_js *schema;
		}			not;

		struct
		{
			const char *ref;	/* the $ref as written */
			struct rg_js *target;	/* never NULL once loaded */
		}			ref;

		struct
		{
			struct rg_js *if_schema;
			struct rg_js *then_schema;
			struct rg_js *else_schema;
		}			conditional;
	}			u;
} rg_js;

/* the values of rg_js.content_id that are not ids */
#define RG_JS_CONTENT_UNSET 0
#define RG_JS_CONTENT_NONE (UINT32_MAX - 1)
#define RG_JS_CONTENT_LONG (UINT32_MAX - 2)
#define RG_JS_CONTENT_MAX (UINT32_MAX - 3)

/* Is a content_id an id? */
static inline bool
rg_js_has_content_id(uint32_t id)
{
	return id != RG_JS_CONTENT_UNSET && id <= RG_JS_CONTENT_MAX;
}

/* Does a node of this content_id reach no $ref (with an id, or too long)? */
static inline bool
rg_js_without_refs(uint32_t id)
{
	return rg_js_has_content_id(id) || id == RG_JS_CONTENT_LONG;
}

/* rg_schema.model of a JSON schema */
typedef struct rg_js_parsed
{
	rg_js_draft draft;
	rg_js	   *root;
} rg_js_parsed;

extern const rg_format rg_format_json;

/*
 * rg_format_json's parse.  text is a JSON Schema document; refs give the
 * referenced schemas (name = the reference's name, which a $ref of the
 * document names, relatively or as an absolute $id URL).
 */
extern rg_schema *rg_json_parse(const char *text, size_t len,
								const rg_reference *refs, int n_refs,
								bool normalize, rg_error *err);

/* rg_format_json's can_read (STRICT policy) */
extern bool rg_json_can_read(const rg_schema *reader, const rg_schema *writer,
							 rg_strlist *out);

/* the same under Confluent's LENIENT compatibility policy */
extern bool rg_json_can_read_lenient(const rg_schema *reader,
									 const rg_schema *writer,
									 rg_strlist *out);

/*
 * rg_format_json's has_top_level_field: is name a member of the document's
 * root "properties" object?
 */
extern bool rg_json_has_top_level_field(const rg_schema *schema,
										const char *name);

/*
 * rg_format_json's encode: the value validated against the schema, then
 * written as its compact JSON text (json_payload.c).
 */
extern bool rg_json_encode(const rg_schema *schema, const char *message,
						   const char *json, size_t json_len, rg_buf *out,
						   rg_error *err);

/*
 * rg_format_json's decode: the payload read as JSON (UTF-8, nothing after
 * the value), validated against the reader if there is one, else the
 * writer, and written back compactly; notes as rg_format.h says.
 */
extern bool rg_json_decode(const rg_schema *writer, const rg_schema *reader,
						   const uint8_t *data, size_t len, rg_buf *out,
						   rg_strlist *notes, rg_error *err);

/* rg_format_json's release: frees the JSON values the model keeps */
extern void rg_json_model_release(void *model);

/* The model of a JSON schema (NULL if s is not one) */
extern const rg_js_parsed *rg_json_model(const rg_schema *s);

#endif							/* RG_JSONSCHEMA_H */
