/*-------------------------------------------------------------------------
 *
 * json_internal.h
 *	  What the JSON Schema loader's files share: the document as Jackson
 *	  reads it (json_syntax.c), the loader's state (json_load.c), reference
 *	  resolution (json_refs.c), keyword checks (json_validate.c), the stored
 *	  form (json_render.c) and kept values (json_value.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef JSON_INTERNAL_H
#define JSON_INTERNAL_H

#include "rg_json_text.h"
#include "rg_jsonschema.h"

#include <jansson.h>

/*
 * Deepest JSON nesting of a document (Jackson's default
 * StreamReadConstraints.maxNestingDepth, which Confluent's mapper keeps).
 */
#define JS_MAX_NESTING 1000

/*
 * Most schema nodes one parse may build.  $refs to nested parts of a
 * document load each target once, which can still multiply the work;
 * this bounds it.
 */
#define JS_MAX_NODES 500000

/* the kind of a JSON value as Jackson's tree holds it */
typedef enum jx_type
{
	JX_NULL,
	JX_TRUE,
	JX_FALSE,
	JX_INT,						/* IntNode, LongNode, BigIntegerNode */
	JX_DECIMAL,					/* DecimalNode: a number with '.' or an
								 * exponent */
	JX_SPECIAL,					/* DoubleNode NaN / Infinity / -Infinity */
	JX_STRING,
	JX_ARRAY,
	JX_OBJECT
} jx_type;

struct jx;

/* an object member; a repeated key keeps its first place, its last value */
typedef struct jx_member
{
	const char *key;
	size_t		key_len;
	struct jx  *value;
} jx_member;

/*
 * A JSON value of the document, in the schema's arena.  Strings are
 * decoded UTF-8 (NUL-terminated, len without it; may hold NULs); numbers
 * keep their lexeme as written; JX_SPECIAL holds "NaN", "Infinity" or
 * "-Infinity".
 */
typedef struct jx
{
	jx_type		type;
	const char *text;
	size_t		len;
	int			n;				/* members or items */
	struct jx **items;
	jx_member  *members;
	size_t		offset;			/* where the value starts in the text */
} jx;

/* Parse text as Confluent's Jackson mapper reads it (json_syntax.c). */
extern jx  *jx_parse(rg_arena *arena, const char *text, size_t len,
					 rg_error *err);

/*
 * Parse a payload's JSON text: JSON's grammar only (no NaN or Infinity),
 * the nesting bounded before reading, and nothing but white space after
 * the value.  Errors as jx_parse's, "Invalid JSON: ..." with a position.
 */
extern jx  *jx_parse_payload(rg_arena *arena, const char *text, size_t len,
							 rg_error *err);

/* the document a JSON schema was read from, NULL if none (json_format.c) */
extern const jx *rg_json_document(const rg_schema *schema);

/* rg_format_json's lint: the practices of rg_lint.h (json_lint.c) */
struct rg_prior_version;
extern bool rg_json_lint(const rg_schema *new_schema,
						 const struct rg_prior_version *earlier, int n_earlier,
						 unsigned int rules, rg_strlist *out);

/*
 * the most properties (and "required" names each) a document's walk
 * looks at: the lints compare them pairwise, so their work stays bounded
 */
#define JS_MAX_PROPS 10000

/* one property a document declares: its path, its name, its schema, whether it is required */
typedef struct js_prop
{
	const char *path;
	const char *name;
	const jx   *schema;
	bool		required;
} js_prop;

/* the properties of one document (json_props.c), paths in arena */
typedef struct js_prop_list
{
	js_prop    *items;
	int			n;
	int			cap;
	bool		failed;			/* out of memory, or too deep */
	rg_arena   *arena;
} js_prop_list;

/* every property doc (a document, or NULL) declares inline, into list (arena set) */
extern void js_collect_props(js_prop_list *list, const jx *doc);

/* the property of a list at path, or NULL */
extern const js_prop *js_find_prop(const js_prop_list *list, const char *path);

/* the "type" of a property schema as text (a string, or the array as written), or NULL */
extern const char *js_prop_type_text(const jx *schema, char *buf, size_t size);

/* free the list's array (its paths die with the arena) */
extern void js_prop_list_free(js_prop_list *list);

struct rg_field_list;

/* rg_format_json's fields: every property the document declares (json_fields.c) */
extern bool rg_json_fields(const rg_schema *schema, struct rg_field_list *out);

/* the member named key (NUL-terminated) of an object, NULL if absent */
extern jx  *jx_get(const jx *obj, const char *key);

/* a number's value as a double */
extern double jx_number_value(const jx *v);

/*
 * The stored form of a value (json_render.c): compact, as Jackson's
 * writeValueAsString prints the tree; with sorted, object keys in Java's
 * String order (Confluent's normalize).  false when out of memory or too
 * deep for the stack.
 */
extern bool jx_render(rg_buf *buf, const jx *v, bool sorted);

/*
 * Sort every object's members in place, recursively, as Confluent's
 * normalize re-reads the document into TreeMaps: the schema is then built
 * from the sorted document.  false when too deep for the stack.
 */
extern bool jx_sort(jx *v);

/* Java String.compareTo of two UTF-8 strings (UTF-16 code unit order) */
extern int	jx_java_compare(const char *a, size_t alen, const char *b, size_t blen);

/* a number lexeme as Jackson prints it (BigDecimal.toString or integer) */
extern void jx_render_number(rg_buf *buf, const jx *v);


/* one loaded document: the main text or a reference */
typedef struct js_doc
{
	const char *name;			/* the reference's name; NULL for the main
								 * text */
	jx		   *root;
	const char *key;			/* the URI it is known by (NULL: none) */
	const char *pointer;		/* its root's location: "#" or "name#" */
} js_doc;

/* an identified sub-schema: $id / id / $anchor, resolved to an absolute key */
typedef struct js_ident
{
	const char *uri;			/* resolved id, fragment included */
	js_doc	   *doc;
	jx		   *value;
	const char *pointer;		/* its location in doc */
	const char *scope;			/* resolution scope inside it */
	struct js_ident *next;
} js_ident;

/* a $ref target loaded once, shared by every $ref to the same place */
typedef struct js_target
{
	const char *key;			/* document index + "#" + pointer */
	js_doc	   *doc;
	jx		   *value;
	const char *pointer;
	const char *scope;
	rg_js	   *node;			/* NULL until loaded */
	struct js_target *chain;	/* node is a REF: its target */
	int			state;			/* cycle check: 0 new, 1 on the path, 2 done */
	struct js_target *next;		/* hash chain */
	struct js_target *queue;	/* load order */
} js_target;

/* a REF node waiting for its target to be loaded */
typedef struct js_pending
{
	rg_js	   *ref;
	js_target  *target;
	struct js_pending *next;	/* every pending REF */
	struct js_pending *by_node; /* hash chain by REF node */
} js_pending;

#define JS_HASH 1024

/* a node in a list of nodes */
struct js_node_link
{
	rg_js	   *node;
	struct js_node_link *next;
};

/* the loader's state */
typedef struct js_ctx
{
	rg_arena   *arena;
	rg_error   *err;
	bool		failed;
	rg_js_draft draft;			/* of the document being loaded */
	bool		skema;			/* 2019-09 / 2020-12 by Confluent's exact URL:
								 * json-sKema */
	js_doc	   *docs;			/* docs[0] is the main text, then references */
	int			n_docs;
	js_doc	   *doc;			/* the one being loaded */
	js_ident   *idents[JS_HASH];
	js_target  *targets[JS_HASH];
	js_pending *pending;
	js_target  *queue_head;		/* targets to load, in order */
	js_target **queue_tail;
	js_pending *refs_by_node[JS_HASH];
	long		n_nodes;
	struct js_node_link *objects;	/* every object node made, for the diff's
									 * index */
	bool		sorted;			/* normalize: kept values' text sorted too */
	json_t	   *owned;			/* JSON values the schema keeps */
} js_ctx;

/* Record the first error (printf-style); later ones are consequences. */
extern void js_fail(js_ctx *ctx, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));
extern void js_oom(js_ctx *ctx);

/* a pointer one step deeper: base + "/" + the escaped token */
extern const char *js_pointer_child(js_ctx *ctx, const char *base,
									const char *token, size_t len);
extern const char *js_pointer_index(js_ctx *ctx, const char *base, int i);

/* json_load.c: a (sub-)schema at pointer, in resolution scope */
extern rg_js *js_load_schema(js_ctx *ctx, jx *v, const char *pointer,
							 const char *scope, int depth);

/* a new node of a kind at a location, within the parse's node budget */
extern rg_js *js_new_node(js_ctx *ctx, rg_js_kind kind, const char *location);

/* a combined schema of a criterion over a list of sub-schemas */
extern rg_js *js_combined(js_ctx *ctx, rg_js_criterion criterion, rg_js **subs,
						  int n, const char *location);

/* json_modern.c: a 2019-09 / 2020-12 schema object, as Confluent translates json-sKema's */
extern rg_js *js_load_modern(js_ctx *ctx, jx *v, const char *pointer,
							 const char *scope, int depth);

/* json_refs.c */
extern bool js_collect_idents(js_ctx *ctx, js_doc *doc);
extern rg_js *js_load_ref(js_ctx *ctx, const char *ref, const char *pointer,
						  const char *scope, int depth);
extern bool js_finish_refs(js_ctx *ctx);
extern char *js_uri_resolve(rg_arena *arena, const char *base, const char *ref);
extern const char *js_id_keyword(rg_js_draft draft);

/* json_validate.c: a keyword's value of the required JSON type */
extern const char *js_type_name(const jx *v);
extern bool js_require(js_ctx *ctx, const jx *v, jx_type type,
					   const char *pointer);
extern bool js_require_schema(js_ctx *ctx, const jx *v, const char *pointer);
extern bool js_require_integer(js_ctx *ctx, const jx *v, const char *pointer,
							   int64_t *out);
extern bool js_require_number(js_ctx *ctx, const jx *v, const char *pointer);
extern const char *js_require_string(js_ctx *ctx, const jx *v,
									 const char *pointer);

/* an array of strings (required, a dependency, examples), its length in *n */
extern const char **js_require_strings(js_ctx *ctx, const jx *v,
									   const char *pointer, int *n);

/* no NaN or infinity anywhere (drafts 4-7: org.json refuses them) */
extern bool js_check_finite(js_ctx *ctx, const jx *v, const char *pointer);

/* a pattern Java's Pattern.compile would refuse is an invalid schema */
extern bool js_check_regex(js_ctx *ctx, const char *pattern, const char *pointer);

/* json_value.c: keep a value for the schema's lifetime */
extern const rg_js_value *js_keep_value(js_ctx *ctx, const jx *v);

/*
 * json_formats.c: does a string (len bytes of UTF-8) have the format?
 * true for a format that is only an annotation.
 */
extern bool js_format_ok(const char *format, const char *s, size_t len);

/* json_match.c: the bounded matcher of "pattern" and "patternProperties" */
typedef struct js_regex js_regex;

/*
 * Compile a pattern (Java's syntax, as the loader checked it) into arena;
 * NULL with *error (a static message) for what the matcher cannot do.
 */
extern js_regex *js_regex_compile(rg_arena *arena, const char *pattern,
								  const char **error);

/*
 * The error of js_regex_compile for a pattern over its size bounds (the
 * others are features the matcher does not have); compare the pointer.
 */
extern const char js_regex_too_large[];

/* what compiling a pattern took from its arena, in bytes */
extern size_t js_regex_bytes(const js_regex *re);

/*
 * Is there a match anywhere in s (len bytes of UTF-8)?  1 yes, 0 no, -1
 * when *budget (decremented by the work done) runs out, -2 out of memory.
 */
extern int	js_regex_search(const js_regex *re, const char *s, size_t len,
							long *budget);

/* ---------- payload values compared (json_instance.c) ---------- */

/* the JSON type of a value as messages name it */
extern const char *jv_value_type(const jx *v);

/*
 * Is a number an integer (1, 1.0, 1e2, not 1.5)?  Read from its lexeme,
 * exactly: every digit past the decimal point, once the exponent has moved
 * it, is a zero.
 */
extern bool jv_number_is_integer(const jx *v);

/* Does v (a number) lie on the right side of a limit? */
extern bool jv_within(const jx *v, const rg_js_number *limit, bool below, bool exclusive);

/* Is v a multiple of m: exactly for integers, else within rounding. */
extern bool jv_multiple_of(const jx *v, const rg_js_number *m);

/* Are two numbers equal (1 and 1.0 are)? */
extern bool jv_numbers_equal(const jx *a, const char *b_text, bool b_integer, long long b_int, double b_value);

/* Is a value of the payload equal to a value the schema keeps (JSON Schema's equality)? */
extern bool jv_equals_kept(const jx *v, const json_t *j, int depth);

/* The member of an object named key, NULL if absent. */
extern const jx *jv_member(const jx *obj, const char *key, size_t len);

/* Are two payload values equal (JSON Schema's equality)? */
extern bool jv_values_equal(const jx *a, const jx *b, int depth);

/* A hash of a value consistent with jv_values_equal (numbers by their double). */
extern uint64_t jv_value_hash(const jx *v, int depth);

/*
 * rg_format_json's apply_tags (json_tags.c): the stored form rewritten
 * with the merged changes of rg_tags.c
 */
struct rg_tag_change;
extern bool rg_json_apply_tags(const rg_schema *schema, rg_arena *arena,
							   const char *canonical, size_t len, const struct rg_tag_change *changes,
							   int n_changes, rg_buf *out, rg_error *err);

#endif							/* JSON_INTERNAL_H */
