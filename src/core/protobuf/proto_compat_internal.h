/*-------------------------------------------------------------------------
 *
 * proto_compat_internal.h
 *	  What the files of the Protobuf schema diff share: the model of the
 *	  two sides (proto_compat_tables.c) and the checker state the
 *	  difference rules (proto_compat.c) run with.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_PROTO_COMPAT_INTERNAL_H
#define RG_PROTO_COMPAT_INTERNAL_H

#include "rg_protobuf.h"

/* deeper nesting than this is reported instead of risking the C stack */
#define PD_MAX_DEPTH RG_MAX_RECURSION

typedef Google__Protobuf__FileDescriptorProto pc_file;
typedef Google__Protobuf__DescriptorProto pc_msg;
typedef Google__Protobuf__FieldDescriptorProto pc_field;
typedef Google__Protobuf__EnumDescriptorProto pc_enum;

/* ----------------------------------------------------------------------
 * String -> pointer map in an arena (open addressing)
 * ---------------------------------------------------------------------- */

typedef struct pd_map
{
	const char **keys;
	void	  **vals;
	size_t		cap;			/* a power of two, or 0 */
	size_t		used;
} pd_map;

/* ----------------------------------------------------------------------
 * The model: files and the type table of one side
 * ---------------------------------------------------------------------- */

typedef struct pd_file
{
	const pc_file *fd;
	int			index;			/* in the set */
	bool		is_main;
	bool		proto3;			/* labels are implicit unless written */
	const char *package;		/* "" when none */
} pd_file;

/* a message or enum of one side, by full name (no leading '.') */
typedef struct pd_entry
{
	const char *full_name;
	const pd_file *file;
	const pc_msg *msg;			/* exactly one of msg/enm */
	const pc_enum *enm;
	bool		is_map;			/* message with option map_entry = true */
	const pc_field *key;
	const pc_field *value;
} pd_entry;

typedef struct pd_side
{
	const rg_proto_parsed *model;
	pd_file    *files;
	int			n_files;
	pd_map		types;			/* full name -> pd_entry */
	pd_map		files_by_name;	/* file name -> pd_file */
} pd_side;

/* ----------------------------------------------------------------------
 * The checker: both sides and the state of one diff
 * ---------------------------------------------------------------------- */

typedef struct pd_checker
{
	rg_arena   *arena;
	pd_side		orig;
	pd_side		upd;
	/* original messages being compared (Confluent's SchemaScope set) */
	const pc_msg **stack;
	int			n_stack;
	int			cap_stack;
	int			depth;
	long		work;			/* against PD_MAX_WORK */
	/* lowest stack index the recursion guard found a message at */
	int			min_hit;
	/* every message pushed on the stack, in order (see type_memo_get) */
	const pc_msg **entered;
	int			n_entered;
	int			cap_entered;
	/* the differences of referenced message types compared so far */
	struct pd_type_memo *type_memo;
	/* file_same memo: n_orig_files x n_upd_files, 0 unknown, 1 same, 2 not */
	unsigned char *same_memo;
	bool		oom;
	const char *failure;
} pd_checker;

/* ----------------------------------------------------------------------
 * proto_compat_diffs.c: the differences of a diff
 * ---------------------------------------------------------------------- */

/*
 * The budget of one diff: work (messages and fields compared, differences
 * recorded and listed) and the memory of its bookkeeping.  Past either the
 * check stops with RG_COMPAT_TOO_LARGE, which the extension answers as
 * 42201.  Real schemas stay far below.
 */
#define PD_MAX_WORK 20000000L
#define PD_MAX_BYTES ((size_t) 256 * 1024 * 1024)

/* a cancel gets its chance every this many units of work */
#define PD_INTERRUPT_EVERY 1024

#define PD_UNEXPECTED "Unexpected exception during compatibility check: "

/* Confluent's Difference.Type */
typedef enum pd_type
{
	PD_PACKAGE_CHANGED,
	PD_MESSAGE_ADDED,
	PD_MESSAGE_REMOVED,
	PD_MESSAGE_MOVED,
	PD_ENUM_ADDED,
	PD_ENUM_REMOVED,
	PD_ENUM_CONST_ADDED,
	PD_ENUM_CONST_CHANGED,
	PD_ENUM_CONST_REMOVED,
	PD_FIELD_ADDED,
	PD_FIELD_REMOVED,
	PD_FIELD_NAME_CHANGED,
	PD_FIELD_KIND_CHANGED,
	PD_FIELD_SCALAR_KIND_CHANGED,
	PD_FIELD_NAMED_TYPE_CHANGED,
	PD_FIELD_NUMERIC_LABEL_CHANGED,
	PD_FIELD_STRING_OR_BYTES_LABEL_CHANGED,
	PD_REQUIRED_FIELD_ADDED,
	PD_REQUIRED_FIELD_REMOVED,
	PD_ONEOF_ADDED,
	PD_ONEOF_REMOVED,
	PD_ONEOF_FIELD_ADDED,
	PD_ONEOF_FIELD_REMOVED,
	PD_ONEOF_FIELD_MOVED_TO_TOP_LEVEL,
	PD_MULTIPLE_FIELDS_MOVED_TO_ONEOF,
	PD_FIELD_MOVED_TO_EXISTING_ONEOF,
	PD_N_TYPES
} pd_type;

/*
 * One difference; or (type PD_N_TYPES) the differences of a referenced
 * message type, shared rather than copied: a type used twice by each of a
 * chain of types has twice as many differences at each level, and copying
 * them would cost as much as listing them.  Paths are whole ("#/..."), so
 * a shared list reads the same wherever it is used.
 */
typedef struct pd_diff
{
	pd_type		type;
	const char *path;
	const struct pd_diff *sub_items;	/* PD_N_TYPES: the shared list */
	int			sub_n;
	uint64_t	sub_incompatible;
} pd_diff;

typedef struct pd_list
{
	pd_diff    *items;
	int			n;
	int			cap;
	uint64_t	n_incompatible; /* shared lists counted, saturating */
} pd_list;

/*
 * The differences of pairs of referenced message types, by their entries,
 * with the slice of c->entered their diff pushed on the stack (a kept diff
 * holds only where none of those is on the stack: the recursion guard
 * would cut there).
 */
typedef struct pd_type_memo
{
	const pd_entry **orig;
	const pd_entry **upd;
	pd_list    *diffs;
	int		   *from;			/* c->entered[from .. to) */
	int		   *to;
	size_t		cap;			/* a power of two, or 0 */
	size_t		used;
} pd_type_memo;

/* Confluent's Context: a difference list and the current path */
typedef struct pd_ctx
{
	pd_list    *diffs;
	const char **path;
	int			depth_path;
	int			cap_path;
} pd_ctx;

/* Enter a path token (the path of the differences found below it). */
extern void rg_pd_path_push(pd_checker *c, pd_ctx *ctx, const char *tok);

/* Leave the innermost path token. */
extern void rg_pd_path_pop(pd_ctx *ctx);

/* A field number as a path token. */
extern const char *rg_pd_tag_token(pd_checker *c, int32_t tag);

/* Count work against the budget; false, with c->failure set, past it. */
extern bool rg_pd_spend(pd_checker *c, long n);

/* Append a difference of a type at path to a list. */
extern void rg_pd_list_add(pd_checker *c, pd_list *l, pd_type type, const char *path);

/* Append a finished list to another, shared. */
extern void rg_pd_list_add_shared(pd_checker *c, pd_list *l, const pd_list *sub);

/* ctx.addDifference: a difference at the current path */
extern void rg_pd_add_diff(pd_checker *c, pd_ctx *ctx, pd_type type);

/* A difference at the current path plus one token. */
extern void rg_pd_add_diff_at(pd_checker *c, pd_ctx *ctx, const char *tok, pd_type type);

/* Are all differences of a list of compatible types? */
extern bool rg_pd_list_compatible(const pd_list *l);

/* The kept differences of a pair of types, or NULL (see the file). */
extern const pd_list *rg_pd_type_memo_get(pd_checker *c, const pd_entry *o, const pd_entry *u);

/* Keep the differences of a pair of types, c->entered[from ..] with them. */
extern void rg_pd_type_memo_put(pd_checker *c, const pd_entry *o, const pd_entry *u,
								const pd_list *diffs, int from);

/* Log a message pushed on the stack (for rg_pd_type_memo_get). */
extern void rg_pd_log_entered(pd_checker *c, const pc_msg *m);

/*
 * List a finished diff's differences into out (at most
 * RG_COMPAT_MAX_MESSAGES, then a line counting the rest); false, the
 * reason in out, when the listing could not finish.
 */
extern bool rg_pd_list_differences(pd_checker *c, const pd_list *diffs, bool incompatible_only,
								   bool with_type, rg_strlist *out);

/* ----------------------------------------------------------------------
 * proto_compat_tables.c
 * ---------------------------------------------------------------------- */

/* the value stored under key, NULL if none (or key is NULL) */
extern void *rg_pd_map_get(const pd_map *m, const char *key);

/* insert or replace; false on OOM */
extern bool rg_pd_map_put(rg_arena *a, pd_map *m, const char *key, void *val);

/* s copied into the checker's arena; NULL (and c->oom) on OOM */
extern char *rg_pd_strdup(pd_checker *c, const char *s);

/* "scope.name", or name when scope is NULL or ""; NULL (and c->oom) on OOM */
extern char *rg_pd_join_name(pd_checker *c, const char *scope, const char *name);

/* String.hashCode() over the UTF-16 code units of a UTF-8 string */
extern uint32_t rg_pd_java_string_hash(const char *s);

/* HashMap.hash(): the hash code with its high half folded in */
extern uint32_t rg_pd_java_spread(uint32_t h);

/*
 * The iteration order of the union of two key lists as Confluent builds
 * it: HashMap a (spread hashes ha, in put order), HashMap b likewise,
 * then new HashSet<>(a.keySet()) and addAll(b.keySet()).  b_in_a[i] tells
 * whether b's key i is also in a.  Writes the union as (side, index)
 * pairs: side 0 = a, 1 = b (only b's keys not in a); returns its length.
 */
extern int	rg_pd_java_union_order(pd_checker *c,
								   const uint32_t *ha, int na,
								   const uint32_t *hb, int nb, const bool *b_in_a,
								   int *out_side, int *out_index);

/* a message with option map_entry = true */
extern bool rg_pd_is_map_entry(const pc_msg *m);

/*
 * Fill s from a parsed schema: its files, and every message and enum of
 * them by full name, the main file's winning over its imports'.  false
 * on OOM or with c->failure set.
 */
extern bool rg_pd_build_side(pd_checker *c, pd_side *s, const rg_proto_parsed *model);

/* the main file of a side, NULL if none */
extern const pd_file *rg_pd_main_file(const pd_side *s);

/* the message or enum a (possibly '.'-prefixed) type name names, or NULL */
extern const pd_entry *rg_pd_lookup_type(const pd_side *s, const char *type_name);

/*
 * Are an original and an updated imported file the same: same name, same
 * bytes, and the same for everything they import?  Memoized in
 * c->same_memo; a main file is never the same.
 */
extern bool rg_pd_file_same(pd_checker *c, const pd_file *of, const pd_file *uf, int depth);

#endif							/* RG_PROTO_COMPAT_INTERNAL_H */
