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
