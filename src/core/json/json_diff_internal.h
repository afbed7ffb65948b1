/*-------------------------------------------------------------------------
 *
 * json_diff_internal.h
 *	  What the files of the JSON Schema compatibility diff share.
 *
 * The diff is Confluent's SchemaDiff.compare(original, update) over our
 * node model (rg_jsonschema.h): json_diff.c holds the entry points, the
 * memo and fixed point, and the comparison of every kind but objects and
 * arrays; json_diff_object.c compares objects and arrays (content models,
 * and the java.util.HashMap order Confluent visits property names in);
 * json_diff_types.c is the table of the 132 difference types with their
 * classification under each policy and their message templates.
 *
 *-------------------------------------------------------------------------
 */
#ifndef JSON_DIFF_INTERNAL_H
#define JSON_DIFF_INTERNAL_H

#include "rg_jsonschema.h"

/* the shape of a type's description (Confluent's Difference.error()) */
typedef enum jd_msg
{
	JD_MSG_NONE,				/* no description */
	JD_MSG_KEYWORD,				/* a keyword present on one side only */
	JD_MSG_MORE,				/* a value grew */
	JD_MSG_LESS,				/* a value shrank */
	JD_MSG_VALUE,				/* a value differs */
	JD_MSG_FEWER,				/* an array or combined type lost elements */
	JD_MSG_MORE_ELEMENTS,		/* an array or combined type gained elements */
	JD_MSG_TYPE,				/* a type differs */
	JD_MSG_OPEN,				/* added to an open content model */
	JD_MSG_REQ_UNOPEN,			/* required, added to an unopen one */
	JD_MSG_CLOSED,				/* removed from a closed one */
	JD_MSG_REMOVED_NOT_COVERED, /* removed, not covered by a partial one */
	JD_MSG_ADDED_NOT_COVERED,	/* added, not covered by a partial one */
	JD_MSG_RESERVED_REMOVED,	/* metadata only; never from the diff */
	JD_MSG_RESERVED_CONFLICT	/* metadata only; never from the diff */
} jd_msg;

/*
 * Every Difference.Type: its name, whether it is in Confluent's STRICT
 * and LENIENT sets of compatible changes, and its description.
 */
#define JD_TYPES \
	JD_TYPE(ID_CHANGED, true, true, JD_MSG_NONE) \
	JD_TYPE(DESCRIPTION_CHANGED, true, true, JD_MSG_NONE) \
	JD_TYPE(TITLE_CHANGED, true, true, JD_MSG_NONE) \
	JD_TYPE(DEFAULT_CHANGED, true, true, JD_MSG_NONE) \
	JD_TYPE(SCHEMA_ADDED, false, false, JD_MSG_NONE) \
	JD_TYPE(SCHEMA_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(TYPE_EXTENDED, true, true, JD_MSG_NONE) \
	JD_TYPE(TYPE_NARROWED, false, false, JD_MSG_TYPE) \
	JD_TYPE(TYPE_CHANGED, false, false, JD_MSG_TYPE) \
	JD_TYPE(MAX_LENGTH_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(MAX_LENGTH_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(MAX_LENGTH_INCREASED, true, true, JD_MSG_NONE) \
	JD_TYPE(MAX_LENGTH_DECREASED, false, false, JD_MSG_LESS) \
	JD_TYPE(MIN_LENGTH_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(MIN_LENGTH_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(MIN_LENGTH_INCREASED, false, false, JD_MSG_MORE) \
	JD_TYPE(MIN_LENGTH_DECREASED, true, true, JD_MSG_NONE) \
	JD_TYPE(PATTERN_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(PATTERN_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(PATTERN_CHANGED, false, false, JD_MSG_VALUE) \
	JD_TYPE(MAXIMUM_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(MAXIMUM_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(MAXIMUM_INCREASED, true, true, JD_MSG_NONE) \
	JD_TYPE(MAXIMUM_DECREASED, false, false, JD_MSG_LESS) \
	JD_TYPE(MINIMUM_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(MINIMUM_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(MINIMUM_INCREASED, false, false, JD_MSG_MORE) \
	JD_TYPE(MINIMUM_DECREASED, true, true, JD_MSG_NONE) \
	JD_TYPE(EXCLUSIVE_MAXIMUM_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(EXCLUSIVE_MAXIMUM_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(EXCLUSIVE_MAXIMUM_INCREASED, true, true, JD_MSG_NONE) \
	JD_TYPE(EXCLUSIVE_MAXIMUM_DECREASED, false, false, JD_MSG_LESS) \
	JD_TYPE(EXCLUSIVE_MINIMUM_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(EXCLUSIVE_MINIMUM_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(EXCLUSIVE_MINIMUM_INCREASED, false, false, JD_MSG_MORE) \
	JD_TYPE(EXCLUSIVE_MINIMUM_DECREASED, true, true, JD_MSG_NONE) \
	JD_TYPE(MULTIPLE_OF_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(MULTIPLE_OF_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(MULTIPLE_OF_EXPANDED, false, false, JD_MSG_MORE) \
	JD_TYPE(MULTIPLE_OF_REDUCED, true, true, JD_MSG_NONE) \
	JD_TYPE(MULTIPLE_OF_CHANGED, false, false, JD_MSG_VALUE) \
	JD_TYPE(REQUIRED_ATTRIBUTE_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED, true, true, JD_MSG_NONE) \
	JD_TYPE(REQUIRED_ATTRIBUTE_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(MAX_PROPERTIES_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(MAX_PROPERTIES_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(MAX_PROPERTIES_INCREASED, true, true, JD_MSG_NONE) \
	JD_TYPE(MAX_PROPERTIES_DECREASED, false, false, JD_MSG_LESS) \
	JD_TYPE(MIN_PROPERTIES_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(MIN_PROPERTIES_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(MIN_PROPERTIES_INCREASED, false, false, JD_MSG_MORE) \
	JD_TYPE(MIN_PROPERTIES_DECREASED, true, true, JD_MSG_NONE) \
	JD_TYPE(ADDITIONAL_PROPERTIES_ADDED, true, true, JD_MSG_NONE) \
	JD_TYPE(ADDITIONAL_PROPERTIES_REMOVED, false, true, JD_MSG_KEYWORD) \
	JD_TYPE(ADDITIONAL_PROPERTIES_EXTENDED, true, true, JD_MSG_NONE) \
	JD_TYPE(ADDITIONAL_PROPERTIES_NARROWED, false, true, JD_MSG_FEWER) \
	JD_TYPE(DEPENDENCY_ARRAY_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(DEPENDENCY_ARRAY_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(DEPENDENCY_ARRAY_EXTENDED, false, false, JD_MSG_MORE_ELEMENTS) \
	JD_TYPE(DEPENDENCY_ARRAY_NARROWED, true, true, JD_MSG_NONE) \
	JD_TYPE(DEPENDENCY_ARRAY_CHANGED, false, false, JD_MSG_VALUE) \
	JD_TYPE(DEPENDENCY_SCHEMA_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(DEPENDENCY_SCHEMA_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL, false, false, JD_MSG_NONE) \
	JD_TYPE(REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL, false, false, JD_MSG_OPEN) \
	JD_TYPE(REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL, false, true, JD_MSG_OPEN) \
	JD_TYPE(OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL, false, true, JD_MSG_OPEN) \
	JD_TYPE(PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL, false, false, JD_MSG_REQ_UNOPEN) \
	JD_TYPE(REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL, false, true, JD_MSG_CLOSED) \
	JD_TYPE(PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL, false, true, JD_MSG_REMOVED_NOT_COVERED) \
	JD_TYPE(PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL, false, true, JD_MSG_ADDED_NOT_COVERED) \
	JD_TYPE(RESERVED_PROPERTY_REMOVED, false, false, JD_MSG_RESERVED_REMOVED) \
	JD_TYPE(RESERVED_PROPERTY_CONFLICTS_WITH_PROPERTY, false, false, JD_MSG_RESERVED_CONFLICT) \
	JD_TYPE(UNEVALUATED_PROPERTIES_ADDED, true, true, JD_MSG_NONE) \
	JD_TYPE(UNEVALUATED_PROPERTIES_REMOVED, false, true, JD_MSG_KEYWORD) \
	JD_TYPE(UNEVALUATED_PROPERTIES_EXTENDED, true, true, JD_MSG_NONE) \
	JD_TYPE(UNEVALUATED_PROPERTIES_NARROWED, false, true, JD_MSG_FEWER) \
	JD_TYPE(MAX_ITEMS_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(MAX_ITEMS_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(MAX_ITEMS_INCREASED, true, true, JD_MSG_NONE) \
	JD_TYPE(MAX_ITEMS_DECREASED, false, false, JD_MSG_LESS) \
	JD_TYPE(MIN_ITEMS_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(MIN_ITEMS_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(MIN_ITEMS_INCREASED, false, false, JD_MSG_MORE) \
	JD_TYPE(MIN_ITEMS_DECREASED, true, true, JD_MSG_NONE) \
	JD_TYPE(MAX_CONTAINS_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(MAX_CONTAINS_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(MAX_CONTAINS_INCREASED, true, true, JD_MSG_NONE) \
	JD_TYPE(MAX_CONTAINS_DECREASED, false, false, JD_MSG_LESS) \
	JD_TYPE(MIN_CONTAINS_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(MIN_CONTAINS_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(MIN_CONTAINS_INCREASED, false, false, JD_MSG_MORE) \
	JD_TYPE(MIN_CONTAINS_DECREASED, true, true, JD_MSG_NONE) \
	JD_TYPE(UNIQUE_ITEMS_ADDED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(UNIQUE_ITEMS_REMOVED, true, true, JD_MSG_NONE) \
	JD_TYPE(ADDITIONAL_ITEMS_ADDED, true, true, JD_MSG_NONE) \
	JD_TYPE(ADDITIONAL_ITEMS_REMOVED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(ADDITIONAL_ITEMS_EXTENDED, true, true, JD_MSG_NONE) \
	JD_TYPE(ADDITIONAL_ITEMS_NARROWED, false, false, JD_MSG_FEWER) \
	JD_TYPE(UNEVALUATED_ITEMS_ADDED, true, true, JD_MSG_NONE) \
	JD_TYPE(UNEVALUATED_ITEMS_REMOVED, false, false, JD_MSG_KEYWORD) \
	JD_TYPE(UNEVALUATED_ITEMS_EXTENDED, true, true, JD_MSG_NONE) \
	JD_TYPE(UNEVALUATED_ITEMS_NARROWED, false, false, JD_MSG_FEWER) \
	JD_TYPE(ITEM_ADDED_TO_OPEN_CONTENT_MODEL, false, false, JD_MSG_OPEN) \
	JD_TYPE(ITEM_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(ITEM_ADDED_TO_CLOSED_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(ITEM_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL, false, false, JD_MSG_CLOSED) \
	JD_TYPE(ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL, false, false, JD_MSG_REMOVED_NOT_COVERED) \
	JD_TYPE(ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL, true, true, JD_MSG_NONE) \
	JD_TYPE(ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL, false, false, JD_MSG_ADDED_NOT_COVERED) \
	JD_TYPE(ENUM_ARRAY_EXTENDED, true, true, JD_MSG_NONE) \
	JD_TYPE(ENUM_ARRAY_NARROWED, false, false, JD_MSG_FEWER) \
	JD_TYPE(ENUM_ARRAY_CHANGED, false, false, JD_MSG_TYPE) \
	JD_TYPE(COMBINED_TYPE_EXTENDED, true, true, JD_MSG_NONE) \
	JD_TYPE(COMBINED_TYPE_CHANGED, false, false, JD_MSG_TYPE) \
	JD_TYPE(PRODUCT_TYPE_EXTENDED, false, false, JD_MSG_MORE_ELEMENTS) \
	JD_TYPE(PRODUCT_TYPE_NARROWED, true, true, JD_MSG_NONE) \
	JD_TYPE(SUM_TYPE_EXTENDED, true, true, JD_MSG_MORE_ELEMENTS) \
	JD_TYPE(SUM_TYPE_NARROWED, false, false, JD_MSG_FEWER) \
	JD_TYPE(COMBINED_TYPE_SUBSCHEMAS_CHANGED, false, false, JD_MSG_TYPE) \
	JD_TYPE(NOT_TYPE_EXTENDED, false, false, JD_MSG_MORE_ELEMENTS) \
	JD_TYPE(NOT_TYPE_NARROWED, true, true, JD_MSG_NONE)


typedef enum jd_type
{
#define JD_TYPE(name, strict, lenient, msg) JD_##name,
	JD_TYPES
#undef JD_TYPE
	JD_N_TYPES
} jd_type;

typedef struct jd_type_info
{
	const char *name;
	bool		strict_ok;		/* in COMPATIBLE_CHANGES (STRICT) */
	bool		lenient_ok;		/* in the LENIENT set */
	jd_msg		msg;
} jd_type_info;

extern const jd_type_info rg_jd_types[JD_N_TYPES];

/* Is type compatible under the policy? */
extern bool rg_jd_type_compatible(jd_type type, bool lenient);

/* Append Confluent's message for one difference (its two "%s" left in). */
extern void rg_jd_format_message(rg_buf *buf, jd_type type, const char *path);

/*
 * One difference, its path relative to the pair being compared ("" = its
 * root); or (type JD_N_TYPES) the differences of a nested pair, shared
 * rather than copied: a schema whose definitions each use the previous
 * one twice has twice as many differences at each level, and copying
 * them would cost as much as listing them.  A shared list is read from
 * the path in `path` (NULL: the pair's own root), its items' paths
 * relative to it.
 */
typedef struct jd_diff
{
	jd_type		type;
	const char *path;
	const struct jd_diff *sub_items;	/* JD_N_TYPES: the shared list */
	int			sub_n;
	uint64_t	sub_incompatible;	/* its incompatible differences */
} jd_diff;

/* a list of differences in the checker's arena */
typedef struct jd_list
{
	jd_diff    *items;
	int			n;
	int			cap;
	uint64_t	n_incompatible; /* nested lists counted, saturating */
} jd_list;

/* a segment of the current path; segments are linked to their parent */
typedef struct jd_seg
{
	const char *name;
	const struct jd_seg *parent;
} jd_seg;

struct jd_memo_entry;

/* a table of node pairs, open addressing */
typedef struct jd_memo
{
	struct jd_memo_entry **slots;
	int			cap;
	int			used;
} jd_memo;

/*
 * The budget of one diff: steps (pairs compared, differences recorded,
 * patterns matched, differences listed) and the memory of its
 * bookkeeping.  Past either the check stops with RG_COMPAT_TOO_LARGE,
 * which the extension answers as 42201.  Real schemas stay far below.
 */
#define JD_MAX_STEPS 20000000L
#define JD_MAX_BYTES ((size_t) 256 * 1024 * 1024)

/* one run of the diff */
typedef struct jd_checker
{
	rg_arena   *arena;
	bool		lenient;
	rg_js_draft orig_draft;
	rg_js_draft upd_draft;
	jd_memo		memo;			/* this pass */
	jd_memo		seed;			/* pairs an earlier pass found incompatible */
	bool		optimism_used;	/* a cycle was assumed compatible */
	bool		oom;
	bool		too_large;		/* over the budget of steps or memory */
	const char *failure;		/* why the diff could not finish */
	int			depth;
	long		steps;			/* against JD_MAX_STEPS */
	size_t		bytes;			/* allocated, against JD_MAX_BYTES */
	struct jd_pattern **patterns;	/* compiled patternProperties keys */
	int			n_pattern_slots;

	/*
	 * Only incompatible differences count (can_read): answer pairs found
	 * compatible before from the process's set, keyed with pair_context (the
	 * policy and the drafts, never 0), and compare the properties of objects
	 * that reach no $ref in document order first.
	 */
	bool		skip_known;
	uint64_t	pair_context;
} jd_checker;

/* Has the diff stopped (out of memory, over its budget, failed)? */
extern bool rg_jd_stopped(const jd_checker *c);

/*
 * Memory from the checker's arena, counted against its budget; NULL with
 * c->oom or c->too_large set.
 */
extern void *rg_jd_alloc(jd_checker *c, size_t size);

/*
 * Count n steps of work against the budget (and give a pending cancel its
 * chance now and then); false, with c->too_large set, past it.
 */
extern bool rg_jd_spend(jd_checker *c, long n);

/*
 * Does a patternProperties key (Java's syntax) match somewhere in name
 * (Matcher.find())?  Compiled once per diff by the registry's bounded
 * matcher; a pattern it cannot compile stops the diff (c->failure).
 */
extern bool rg_jd_pattern_finds(jd_checker *c, const char *pattern, const char *name);

/* a Context: the path from the pair being compared, and its differences */
typedef struct jd_ctx
{
	jd_checker *c;
	const jd_seg *path;
	jd_list		diffs;
} jd_ctx;

/* Enter a path segment (Context.enterPath); seg lives until rg_jd_leave. */
static inline void
rg_jd_enter(jd_ctx *ctx, jd_seg *seg, const char *name)
{
	seg->name = name;
	seg->parent = ctx->path;
	ctx->path = seg;
}

/* Leave the segment entered last. */
static inline void
rg_jd_leave(jd_ctx *ctx, const jd_seg *seg)
{
	ctx->path = seg->parent;
}

/* room for "prefix/index" of rg_jd_index_segment (prefixes are keywords) */
#define JD_INDEX_SEGMENT_SIZE 32

/*
 * "prefix/i" (as "anyOf/0", "items/2") into buf, JD_INDEX_SEGMENT_SIZE
 * bytes; returns buf.  A segment's name needs to live only while it is
 * entered: paths are rendered when a difference is added.
 */
extern const char *rg_jd_index_segment(char *buf, const char *prefix, int i);

/* A fresh context at ctx's path (Context.getSubcontext()). */
extern void rg_jd_subcontext(jd_ctx *sub, const jd_ctx *ctx);

/* Are all of ctx's differences compatible under the policy? */
extern bool rg_jd_compatible(const jd_ctx *ctx);

/* Add a difference at ctx's path, or at ctx's path + attribute. */
extern void rg_jd_add(jd_ctx *ctx, jd_type type);
extern void rg_jd_add_at(jd_ctx *ctx, const char *attribute, jd_type type);

/* Append every difference of from (already relative to ctx's pair). */
extern void rg_jd_append(jd_ctx *ctx, const jd_ctx *from);

/* the ADDED, REMOVED, INCREASED, DECREASED types of a bound keyword */
#define JD_BOUND_TYPES(k) {JD_##k##_ADDED, JD_##k##_REMOVED, JD_##k##_INCREASED, JD_##k##_DECREASED}

/* the ADDED, REMOVED, EXTENDED, NARROWED types of an additional/unevaluated keyword */
#define JD_WIDTH_TYPES(k) {JD_##k##_ADDED, JD_##k##_REMOVED, JD_##k##_EXTENDED, JD_##k##_NARROWED}

/*
 * A keyword on one side only is ADDED or REMOVED (types[0], [1]); on both,
 * INCREASED or DECREASED (types[2], [3]) as cmp (original against update)
 * says.
 */
extern void rg_jd_compare_bound(jd_ctx *ctx, const char *attr, bool o_present,
								bool u_present, int cmp, const jd_type types[4]);

/* rg_jd_compare_bound of a count keyword (maxLength, minItems, ...) */
extern void rg_jd_compare_count(jd_ctx *ctx, const char *attr, rg_js_count o,
								rg_js_count u, const jd_type types[4]);

/* SchemaDiff.compare(ctx, original, update); either may be NULL */
extern void rg_jd_compare(jd_ctx *ctx, const rg_js *orig, const rg_js *upd);

/* ObjectSchemaDiff.compare and ArraySchemaDiff.compare */
extern void rg_jd_compare_object(jd_ctx *ctx, const rg_js *orig, const rg_js *upd);
extern void rg_jd_compare_array(jd_ctx *ctx, const rg_js *orig, const rg_js *upd);

/* Objects.equals of two strings, NULL standing for absent */
extern bool rg_jd_str_equal(const char *a, const char *b);

/* Java's equals() of two kept values (either NULL: absent) */
extern bool rg_jd_value_equal(const rg_js_value *a, const rg_js_value *b);

/* Does a contain every value of b (Set.containsAll)? */
extern bool rg_jd_values_contain_all(const rg_js_value *const *a, int na,
									 const rg_js_value *const *b, int nb);

/* Does the name list a hold every name of b (Set.containsAll)? */
extern bool rg_jd_names_contain_all(const char *const *a, int na,
									const char *const *b, int nb);

/* Two numbers equal by BigDecimal.compareTo */
extern bool rg_jd_number_same(const rg_js_number *a, const rg_js_number *b);

/* Is a an integer multiple of b (BigDecimal remainder zero)? */
extern bool rg_jd_multiple_of(const rg_js_number *a, const rg_js_number *b);

/* everit's equals() of two schemas */
extern bool rg_jd_same_schema(const rg_js *a, const rg_js *b, int depth);

/*
 * A list of names indexed for the diff: their HashMap.hash, a lookup
 * table, the order a HashMap filled with them in order iterates them.
 */
typedef struct rg_js_names
{
	const char **v;
	int			n;
	uint32_t   *hash;
	int		   *slot;			/* open addressing: index + 1, 0 = empty */
	uint32_t	cap;
	int		   *order;			/* HashMap iteration order of v */
	bool		unique;			/* no name twice */
	/* properties: is v[i] in the object's required list (NULL otherwise) */
	bool	   *required;

	/*
	 * properties: the content id of v[i]'s schema (after one $ref, as the
	 * diff follows it); NULL when not known
	 */
	uint32_t   *content_ids;
} jd_names;

/*
 * Build s's property_index (s an object) in arena, once its properties and
 * required list are final; false on out of memory.
 */
extern bool rg_jd_index_object(rg_arena *arena, rg_js *s);

struct js_node_link;

/*
 * Give every node reached from root its content id (json_content.c), then
 * each indexed object of the list its properties' ids; false on out of
 * memory.  Once the schema is loaded, its objects indexed.
 */
extern bool rg_jd_content_ids(rg_arena *arena, rg_js *root,
							  const struct js_node_link *objects);

/* what the table of contents holds, for tests */
typedef struct rg_jd_content_usage
{
	int			entries;
	size_t		bytes;
	uint32_t	next_id;
	uint64_t	resets;
} rg_jd_content_usage;

extern void rg_jd_content_stats(rg_jd_content_usage *out);

/*
 * Was the pair (original's content id, update's) found without an
 * incompatible difference under c's policy, in this process?  Always
 * false when c lists every difference (rg_json_differences).
 */
extern bool rg_jd_pair_known(const jd_checker *c, uint32_t orig, uint32_t upd);

/*
 * Whether can_read answers pairs from the set and compares objects that
 * reach no $ref in document order first (on by default); the tests and
 * the fuzzer compare both ways.
 */
extern void rg_jd_use_known_pairs(bool on);

/* EmptySchema (TrueSchema extends it) */
static inline bool
jd_is_empty(const rg_js *s)
{
	return s != NULL && (s->kind == RG_JS_EMPTY || s->kind == RG_JS_TRUE);
}

/* FalseSchema */
static inline bool
jd_is_false(const rg_js *s)
{
	return s != NULL && s->kind == RG_JS_FALSE;
}

#endif							/* JSON_DIFF_INTERNAL_H */
