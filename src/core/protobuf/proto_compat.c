/*-------------------------------------------------------------------------
 *
 * proto_compat.c
 *	  Can a Protobuf reader schema read data written with a writer schema?
 *
 * Confluent answers with a structural diff of the two .proto files, the
 * writer being its "original" and the reader its "update", and reports
 * every difference whose type is not in its set of compatible changes
 * (doc/design.md#protobuf-rules).  This file reproduces that diff from the
 * behaviour described there, over our model: libprotoc's linked
 * FileDescriptorSet rather than Wire's parse tree.  What Wire sees and a
 * descriptor does not say directly is rebuilt here:
 *
 *	- labels: Wire keeps the label word as written, or none.  A proto3
 *	  field without a label (LABEL_OPTIONAL, no proto3_optional) and every
 *	  member of a real oneof have no label; `optional` (proto2, or proto3
 *	  with proto3_optional), `repeated` and `required` have theirs;
 *	- proto3 `optional` fields are top-level fields, their synthetic oneofs
 *	  do not exist;
 *	- map fields are `map<K, V>`, their map-entry messages do not exist as
 *	  types (nor do group bodies: Wire keeps groups apart from fields and
 *	  nested types, and Confluent's diff never looks at them);
 *	- type names are already fully qualified, so no scope lookup is needed.
 *
 * Where Confluent iterates a Java HashSet (message and enum names of one
 * scope, enum constant numbers) we reproduce java.util.HashMap's iteration
 * order: buckets by String.hashCode()/Integer.hashCode() spread over the
 * table size the set ends up with, insertion order within a bucket.  Only
 * the order of messages depends on it.
 *
 * A message type used by a field is diffed again in a sub-context (at the
 * paths of its own local name) unless both sides are the same
 * schema-reference version; Confluent decides that by (subject, version),
 * which our model does not carry, so we skip when both types come from
 * the main files, or from imported files that are byte-identical along
 * with everything they import (the diff of identical bodies is empty, so
 * the result is the same and the common unchanged-reference case stays
 * linear).
 *
 * The type tables, the file comparison and Java's iteration order live in
 * proto_compat_tables.c; the differences (their types and messages, the
 * budget, the shared lists, the kept type-pair diffs and the listing) in
 * proto_compat_diffs.c.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_compat_internal.h"

#include "rg_compat.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T(x) GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_##x
#define L(x) GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__LABEL__LABEL_##x

static void compare_message(pd_checker *c, pd_ctx *ctx,
							const pc_msg *om, const pd_file *of, const char *oscope,
							const pc_msg *um, const pd_file *uf, const char *uscope);

/* ----------------------------------------------------------------------
 * Fields
 * ---------------------------------------------------------------------- */

typedef enum pd_label
{
	PL_NONE = 0,				/* no label word (Wire's null) */
	PL_OPTIONAL,
	PL_REQUIRED,
	PL_REPEATED
} pd_label;

typedef enum pd_kind
{
	PK_SCALAR,					/* scalars and enums */
	PK_MESSAGE,
	PK_MAP
} pd_kind;

typedef enum pd_scalar
{
	PS_GENERAL_NUMBER,
	PS_SIGNED_NUMBER,
	PS_STRING_OR_BYTES,
	PS_FIXED32,
	PS_FIXED64,
	PS_FLOAT,
	PS_DOUBLE
} pd_scalar;

/* a field of a message as Wire sees it */
typedef struct pd_field
{
	const pc_field *f;
	int32_t		tag;
	const char *oneof;			/* enclosing real oneof, or NULL */
	pd_label	label;
} pd_field;

/* a message's fields (top-level and oneof members) and real oneofs */
typedef struct pd_fields
{
	pd_field   *fields;			/* by ascending tag */
	int			n;
	const char **oneofs;		/* real oneofs in declaration order */
	int			n_oneofs;
} pd_fields;

/* qsort order of fields: by number. */
static int
field_cmp(const void *a, const void *b)
{
	const pd_field *x = a;
	const pd_field *y = b;

	return x->tag < y->tag ? -1 : (x->tag > y->tag);
}

/* Is full_name the type of a group field among fields? */
static bool
is_group_body(const pc_field *const *fields, size_t n, const char *full_name)
{
	size_t		i;

	for (i = 0; i < n; i++)
	{
		const char *tn = fields[i]->type_name;

		if (fields[i]->type != T(GROUP) || tn == NULL)
			continue;
		if (tn[0] == '.')
			tn++;
		if (strcmp(tn, full_name) == 0)
			return true;
	}
	return false;
}

/* A message's fields (sorted by number) and oneofs, as the diff sees them. */
static bool
collect_fields(pd_checker *c, const pd_side *s, const pc_msg *m, const pd_file *file,
			   pd_fields *out)
{
	bool	   *synthetic;
	size_t		i;

	memset(out, 0, sizeof(*out));
	out->fields = rg_arena_alloc(c->arena, (m->n_field + 1) * sizeof(pd_field));
	out->oneofs = rg_arena_alloc(c->arena, (m->n_oneof_decl + 1) * sizeof(char *));
	synthetic = rg_arena_alloc(c->arena, (m->n_oneof_decl + 1) * sizeof(bool));
	if (!out->fields || !out->oneofs || !synthetic)
	{
		c->oom = true;
		return false;
	}
	/* a oneof holding a proto3 `optional` field is synthetic */
	for (i = 0; i < m->n_field; i++)
	{
		const pc_field *f = m->field[i];

		if (f->has_oneof_index && f->oneof_index >= 0 &&
			(size_t) f->oneof_index < m->n_oneof_decl && f->proto3_optional)
			synthetic[f->oneof_index] = true;
	}
	for (i = 0; i < m->n_oneof_decl; i++)
		if (!synthetic[i])
			out->oneofs[out->n_oneofs++] = m->oneof_decl[i]->name ? m->oneof_decl[i]->name : "";
	for (i = 0; i < m->n_field; i++)
	{
		const pc_field *f = m->field[i];
		pd_field   *pf;
		const pd_entry *te;

		/* Wire keeps groups apart from fields */
		if (f->type == T(GROUP))
			continue;
		pf = &out->fields[out->n++];
		pf->f = f;
		pf->tag = f->number;
		if (f->has_oneof_index && f->oneof_index >= 0 &&
			(size_t) f->oneof_index < m->n_oneof_decl && !synthetic[f->oneof_index])
			pf->oneof = m->oneof_decl[f->oneof_index]->name ? m->oneof_decl[f->oneof_index]->name : "";
		te = (f->type == T(MESSAGE)) ? rg_pd_lookup_type(s, f->type_name) : NULL;
		if (pf->oneof != NULL || (te && te->is_map))
			pf->label = PL_NONE;
		else if (f->label == L(REPEATED))
			pf->label = PL_REPEATED;
		else if (f->label == L(REQUIRED))
			pf->label = PL_REQUIRED;
		else if (!file->proto3 || f->proto3_optional)
			pf->label = PL_OPTIONAL;
		else
			pf->label = PL_NONE;
	}
	qsort(out->fields, out->n, sizeof(pd_field), field_cmp);
	return true;
}

/* The field with a number, or NULL (binary search). */
static const pd_field *
find_tag(const pd_fields *fs, int32_t tag)
{
	int			lo = 0;
	int			hi = fs->n - 1;

	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;

		if (fs->fields[mid].tag == tag)
			return &fs->fields[mid];
		if (fs->fields[mid].tag < tag)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* Does a message declare a oneof of that name? */
static bool
has_oneof(const pd_fields *fs, const char *name)
{
	int			i;

	for (i = 0; i < fs->n_oneofs; i++)
		if (strcmp(fs->oneofs[i], name) == 0)
			return true;
	return false;
}

/* A field's type as FieldSchemaDiff sees it (after map-entry replacement) */
typedef struct pd_ptype
{
	pd_kind		kind;
	pd_scalar	scalar;			/* PK_SCALAR */
	const pd_entry *named;		/* message (or enum) entry; NULL if none */
	const char *name;			/* the type name as linked, for unresolved
								 * types */
	const pc_field *key;		/* PK_MAP */
	const pc_field *value;
} pd_ptype;

/* The wire-compatibility group of a scalar type. */
static pd_scalar
scalar_group(Google__Protobuf__FieldDescriptorProto__Type t)
{
	switch (t)
	{
		case T(SINT32):
		case T(SINT64):
			return PS_SIGNED_NUMBER;
		case T(STRING):
		case T(BYTES):
			return PS_STRING_OR_BYTES;
		case T(FIXED32):
		case T(SFIXED32):
			return PS_FIXED32;
		case T(FIXED64):
		case T(SFIXED64):
			return PS_FIXED64;
		case T(FLOAT):
			return PS_FLOAT;
		case T(DOUBLE):
			return PS_DOUBLE;
		default:
			/* int32, int64, uint32, uint64, bool and every enum */
			return PS_GENERAL_NUMBER;
	}
}

/* What a field's type is for the diff: scalar, enum, message or map. */
static void
field_ptype(const pd_side *s, const pc_field *f, pd_ptype *t)
{
	memset(t, 0, sizeof(*t));
	t->name = f->type_name ? f->type_name : "";
	if (f->type == T(MESSAGE) || f->type == T(GROUP) || f->type == T(ENUM))
	{
		const pd_entry *e = rg_pd_lookup_type(s, f->type_name);

		t->named = e;
		if (e && e->enm)
		{
			t->kind = PK_SCALAR;
			t->scalar = PS_GENERAL_NUMBER;
		}
		else if (e && e->is_map)
		{
			t->kind = PK_MAP;
			t->key = e->key;
			t->value = e->value;
		}
		else if (e == NULL && f->type == T(ENUM))
		{
			t->kind = PK_SCALAR;
			t->scalar = PS_GENERAL_NUMBER;
		}
		else
			t->kind = PK_MESSAGE;
		return;
	}
	t->kind = PK_SCALAR;
	t->scalar = scalar_group(f->type);
}

/* the full name minus its type's package: Confluent's "local name" */
static const char *
local_name(const pd_entry *e)
{
	size_t		lp = strlen(e->file->package);

	if (lp > 0 && strncmp(e->full_name, e->file->package, lp) == 0 &&
		e->full_name[lp] == '.')
		return e->full_name + lp + 1;
	return e->full_name;
}

/* Two message-typed fields: the referenced types by local name, then their diff. */
static void
compare_message_types(pd_checker *c, pd_ctx *ctx, const pd_ptype *ot, const pd_ptype *ut)
{
	const char *oln;
	const char *uln;
	pd_ctx		sub;
	pd_list		subdiffs;
	const pd_list *memo;
	int			saved_hit;
	int			entry_depth;
	int			entered_from;
	char	   *buf;
	char	   *tok;
	char	   *dot;

	if (ot->named == NULL || ut->named == NULL || ot->named->msg == NULL ||
		ut->named->msg == NULL)
	{
		/* could not resolve: compare the names as written */
		if (strcmp(ot->name, ut->name) != 0)
			rg_pd_add_diff(c, ctx, PD_FIELD_NAMED_TYPE_CHANGED);
		return;
	}
	oln = local_name(ot->named);
	uln = local_name(ut->named);
	if (strcmp(oln, uln) != 0)
	{
		rg_pd_add_diff(c, ctx, PD_FIELD_NAMED_TYPE_CHANGED);
		return;
	}
	/* the same schema (both local, or the same reference): nothing to do */
	if (ot->named->file->is_main && ut->named->file->is_main)
		return;
	if (rg_pd_file_same(c, ot->named->file, ut->named->file, 0))
		return;

	/*
	 * The same pair of types compared before gives the same differences
	 * (their paths start at the type's local name) when the recursion guard
	 * cuts the same messages: not when it cut one the earlier comparison
	 * found on the stack outside it (such a result is not kept), nor when a
	 * message it entered is on the stack now (type_memo_get).
	 */
	if ((memo = rg_pd_type_memo_get(c, ot->named, ut->named)) != NULL)
	{
		rg_pd_list_add_shared(c, ctx->diffs, memo);
		if (!rg_pd_list_compatible(memo))
			rg_pd_add_diff(c, ctx, PD_FIELD_NAMED_TYPE_CHANGED);
		return;
	}
	saved_hit = c->min_hit;
	c->min_hit = INT_MAX;
	entry_depth = c->n_stack;
	entered_from = c->n_entered;

	/* a sub-context whose path is the local name of the type */
	memset(&sub, 0, sizeof(sub));
	memset(&subdiffs, 0, sizeof(subdiffs));
	sub.diffs = &subdiffs;
	buf = rg_pd_strdup(c, oln);
	if (buf == NULL)
		return;
	for (tok = buf;; tok = dot + 1)
	{
		dot = strchr(tok, '.');
		if (dot)
			*dot = '\0';
		rg_pd_path_push(c, &sub, tok);
		if (dot == NULL)
			break;
	}
	{
		/* its scope names, for the full names of its nested types */
		const char *ofull = ot->named->full_name;
		const char *ufull = ut->named->full_name;
		const char *odot = strrchr(ofull, '.');
		const char *udot = strrchr(ufull, '.');
		char	   *oscope = odot ? rg_arena_strndup(c->arena, ofull, odot - ofull) : "";
		char	   *uscope = udot ? rg_arena_strndup(c->arena, ufull, udot - ufull) : "";

		if (oscope == NULL || uscope == NULL)
		{
			c->oom = true;
			return;
		}
		compare_message(c, &sub, ot->named->msg, ot->named->file, oscope,
						ut->named->msg, ut->named->file, uscope);
	}
	if (c->min_hit >= entry_depth && !c->failure && !c->oom)
		rg_pd_type_memo_put(c, ot->named, ut->named, &subdiffs, entered_from);
	if (saved_hit < c->min_hit)
		c->min_hit = saved_hit;
	rg_pd_list_add_shared(c, ctx->diffs, &subdiffs);
	if (!rg_pd_list_compatible(&subdiffs))
		rg_pd_add_diff(c, ctx, PD_FIELD_NAMED_TYPE_CHANGED);
}

/* The label and type changes of one field. */
static void
compare_labels_and_types(pd_checker *c, pd_ctx *ctx,
						 pd_label ol, pd_label ul,
						 const pd_ptype *ot, const pd_ptype *ut)
{
	if (c->failure || c->oom)
		return;
	if (ot->kind != ut->kind)
	{
		rg_pd_add_diff(c, ctx, PD_FIELD_KIND_CHANGED);
		return;
	}
	switch (ot->kind)
	{
		case PK_SCALAR:
			if (ot->scalar != ut->scalar)
				rg_pd_add_diff(c, ctx, PD_FIELD_SCALAR_KIND_CHANGED);
			else if (ol != PL_NONE && ul != PL_NONE && ol != ul)
				rg_pd_add_diff(c, ctx, ot->scalar == PS_STRING_OR_BYTES
							   ? PD_FIELD_STRING_OR_BYTES_LABEL_CHANGED
							   : PD_FIELD_NUMERIC_LABEL_CHANGED);
			break;
		case PK_MESSAGE:
			compare_message_types(c, ctx, ot, ut);
			break;
		case PK_MAP:
			{
				pd_ptype	ok,
							uk,
							ov,
							uv;

				field_ptype(&c->orig, ot->key, &ok);
				field_ptype(&c->upd, ut->key, &uk);
				compare_labels_and_types(c, ctx, PL_NONE, PL_NONE, &ok, &uk);
				field_ptype(&c->orig, ot->value, &ov);
				field_ptype(&c->upd, ut->value, &uv);
				compare_labels_and_types(c, ctx, PL_NONE, PL_NONE, &ov, &uv);
			}
			break;
	}
}

/* One field on both sides: name, then label and type. */
static void
compare_field(pd_checker *c, pd_ctx *ctx, const pd_field *of, const pd_field *uf)
{
	pd_ptype	ot;
	pd_ptype	ut;
	const char *on = of->f->name ? of->f->name : "";
	const char *un = uf->f->name ? uf->f->name : "";

	if (!rg_pd_spend(c, 1))
		return;
	if (strcmp(on, un) != 0)
		rg_pd_add_diff(c, ctx, PD_FIELD_NAME_CHANGED);
	field_ptype(&c->orig, of->f, &ot);
	field_ptype(&c->upd, uf->f, &ut);
	compare_labels_and_types(c, ctx, of->label, uf->label, &ot, &ut);
}

/* ----------------------------------------------------------------------
 * Enums
 * ---------------------------------------------------------------------- */

/* One enum on both sides: constants added, removed or changed. */
static void
compare_enum(pd_checker *c, pd_ctx *ctx, const pc_enum *oe, const pc_enum *ue)
{
	/* constants by number, a later alias replacing an earlier one */
	int			no = 0;
	int			nu = 0;
	int32_t    *onum = rg_arena_alloc(c->arena, (oe->n_value + 1) * sizeof(int32_t));
	int32_t    *unum = rg_arena_alloc(c->arena, (ue->n_value + 1) * sizeof(int32_t));
	const char **oname = rg_arena_alloc(c->arena, (oe->n_value + 1) * sizeof(char *));
	const char **uname = rg_arena_alloc(c->arena, (ue->n_value + 1) * sizeof(char *));
	uint32_t   *ho = rg_arena_alloc(c->arena, (oe->n_value + 1) * sizeof(uint32_t));
	uint32_t   *hu = rg_arena_alloc(c->arena, (ue->n_value + 1) * sizeof(uint32_t));
	bool	   *u_in_o = rg_arena_alloc(c->arena, (ue->n_value + 1) * sizeof(bool));
	int		   *side = rg_arena_alloc(c->arena, (oe->n_value + ue->n_value + 1) * sizeof(int));
	int		   *idx = rg_arena_alloc(c->arena, (oe->n_value + ue->n_value + 1) * sizeof(int));
	size_t		i;
	int			j,
				k,
				n;

	if (!onum || !unum || !oname || !uname || !ho || !hu || !u_in_o || !side || !idx)
	{
		c->oom = true;
		return;
	}
	for (i = 0; i < oe->n_value; i++)
	{
		int32_t		num = oe->value[i]->number;

		for (k = 0; k < no && onum[k] != num; k++)
			;
		if (k == no)
			onum[no++] = num;
		oname[k] = oe->value[i]->name ? oe->value[i]->name : "";
	}
	for (i = 0; i < ue->n_value; i++)
	{
		int32_t		num = ue->value[i]->number;

		for (k = 0; k < nu && unum[k] != num; k++)
			;
		if (k == nu)
			unum[nu++] = num;
		uname[k] = ue->value[i]->name ? ue->value[i]->name : "";
	}
	for (j = 0; j < no; j++)
		ho[j] = rg_pd_java_spread((uint32_t) onum[j]);
	for (j = 0; j < nu; j++)
	{
		hu[j] = rg_pd_java_spread((uint32_t) unum[j]);
		u_in_o[j] = false;
		for (k = 0; k < no; k++)
			if (onum[k] == unum[j])
				u_in_o[j] = true;
	}
	n = rg_pd_java_union_order(c, ho, no, hu, nu, u_in_o, side, idx);
	for (j = 0; j < n; j++)
	{
		int32_t		num = side[j] == 0 ? onum[idx[j]] : unum[idx[j]];
		int			oi = -1,
					ui = -1;

		for (k = 0; k < no; k++)
			if (onum[k] == num)
				oi = k;
		for (k = 0; k < nu; k++)
			if (unum[k] == num)
				ui = k;
		rg_pd_path_push(c, ctx, rg_pd_tag_token(c, num));
		if (ui < 0)
			rg_pd_add_diff(c, ctx, PD_ENUM_CONST_REMOVED);
		else if (oi < 0)
			rg_pd_add_diff(c, ctx, PD_ENUM_CONST_ADDED);
		else if (strcmp(oname[oi], uname[ui]) != 0)
			rg_pd_add_diff(c, ctx, PD_ENUM_CONST_CHANGED);
		rg_pd_path_pop(ctx);
	}
}

/* ----------------------------------------------------------------------
 * Messages and enums of one scope (SchemaDiff.compareTypeElements)
 * ---------------------------------------------------------------------- */

typedef struct pd_scope
{
	const pd_file *file;
	const char *scope;			/* full name of the enclosing scope */
	const pc_msg *const *msgs;
	size_t		n_msgs;
	const pc_enum *const *enums;
	size_t		n_enums;
	/* group bodies are found through these fields */
	const pc_field *const *fields;
	size_t		n_fields;
	const pc_field *const *ext;
	size_t		n_ext;
} pd_scope;

/* the messages of a scope as Wire lists them: no map entries, no groups */
static int
scope_messages(pd_checker *c, const pd_scope *s, const pc_msg **out)
{
	int			n = 0;
	size_t		i;

	for (i = 0; i < s->n_msgs; i++)
	{
		const pc_msg *m = s->msgs[i];
		const char *full;

		if (m->name == NULL || rg_pd_is_map_entry(m))
			continue;
		full = rg_pd_join_name(c, s->scope, m->name);
		if (full == NULL)
			return n;
		if (is_group_body(s->fields, s->n_fields, full) ||
			is_group_body(s->ext, s->n_ext, full))
			continue;
		out[n++] = m;
	}
	return n;
}

/* The position of name among names, or -1. */
static int
name_index(const char *const *names, int n, const char *name)
{
	int			i;

	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

/* One side's messages or enums of a scope: names, Java hashes, items. */
typedef struct pd_names
{
	const char **names;
	uint32_t   *hash;
	const void **items;
	int			n;
} pd_names;

/* Room for n names; false (oom set) when out of memory. */
static bool
names_init(pd_checker *c, pd_names *t, size_t n)
{
	t->names = rg_arena_alloc(c->arena, (n + 1) * sizeof(char *));
	t->hash = rg_arena_alloc(c->arena, (n + 1) * sizeof(uint32_t));
	t->items = rg_arena_alloc(c->arena, (n + 1) * sizeof(void *));
	t->n = 0;
	if (t->names == NULL || t->hash == NULL || t->items == NULL)
		c->oom = true;
	return !c->oom;
}

/* Append an item under its name. */
static void
names_add(pd_names *t, const char *name, const void *item)
{
	t->names[t->n] = name;
	t->hash[t->n] = rg_pd_java_spread(rg_pd_java_string_hash(name));
	t->items[t->n] = item;
	t->n++;
}

/* What to do with a name both sides declare: its items and positions. */
typedef void (*pd_both_fn) (pd_checker *c, pd_ctx *ctx, const pd_scope *os,
							const pd_scope *us, const void *o, const void *u,
							bool moved);

/*
 * Visit the union of two sides' names in Confluent's (HashSet) order: a
 * name on one side only is a removed or an added difference, one on both
 * goes to both().
 */
static void
walk_names(pd_checker *c, pd_ctx *ctx, const pd_scope *os, const pd_scope *us,
		   const pd_names *o, const pd_names *u, pd_type removed,
		   pd_type added, pd_both_fn both)
{
	bool	   *u_in_o = rg_arena_alloc(c->arena, (u->n + 1) * sizeof(bool));
	int		   *side = rg_arena_alloc(c->arena, (o->n + u->n + 1) * sizeof(int));
	int		   *idx = rg_arena_alloc(c->arena, (o->n + u->n + 1) * sizeof(int));
	int			n;
	int			i;

	if (u_in_o == NULL || side == NULL || idx == NULL)
	{
		c->oom = true;
		return;
	}
	for (i = 0; i < u->n; i++)
		u_in_o[i] = name_index(o->names, o->n, u->names[i]) >= 0;
	n = rg_pd_java_union_order(c, o->hash, o->n, u->hash, u->n, u_in_o, side, idx);
	for (i = 0; i < n && !c->failure && !c->oom; i++)
	{
		const char *name = side[i] == 0 ? o->names[idx[i]] : u->names[idx[i]];
		int			oi = name_index(o->names, o->n, name);
		int			ui = name_index(u->names, u->n, name);

		rg_pd_path_push(c, ctx, name);
		if (ui < 0)
			rg_pd_add_diff(c, ctx, removed);
		else if (oi < 0)
			rg_pd_add_diff(c, ctx, added);
		else
			both(c, ctx, os, us, o->items[oi], u->items[ui], oi != ui);
		rg_pd_path_pop(ctx);
	}
}

/* A message both sides declare: its diff, and whether it moved. */
static void
both_messages(pd_checker *c, pd_ctx *ctx, const pd_scope *os, const pd_scope *us,
			  const void *o, const void *u, bool moved)
{
	compare_message(c, ctx, o, os->file, os->scope, u, us->file, us->scope);
	if (moved)
		rg_pd_add_diff(c, ctx, PD_MESSAGE_MOVED);
}

/* An enum both sides declare: its diff (a move is no difference). */
static void
both_enums(pd_checker *c, pd_ctx *ctx, const pd_scope *os, const pd_scope *us,
		   const void *o, const void *u, bool moved)
{
	compare_enum(c, ctx, o, u);
}

/* A scope's messages as Wire lists them (names unique within a scope). */
static bool
message_names(pd_checker *c, const pd_scope *s, pd_names *t)
{
	const pc_msg **msgs = rg_arena_alloc(c->arena, (s->n_msgs + 1) * sizeof(*msgs));
	int			n;
	int			i;

	if (msgs == NULL || !names_init(c, t, s->n_msgs))
	{
		c->oom = true;
		return false;
	}
	n = scope_messages(c, s, msgs);
	for (i = 0; i < n; i++)
		names_add(t, msgs[i]->name, msgs[i]);
	return true;
}

/* A scope's named enums. */
static bool
enum_names(pd_checker *c, const pd_scope *s, pd_names *t)
{
	size_t		i;

	if (!names_init(c, t, s->n_enums))
		return false;
	for (i = 0; i < s->n_enums; i++)
		if (s->enums[i]->name)
			names_add(t, s->enums[i]->name, s->enums[i]);
	return true;
}

/* The messages, then the enums, of a scope on both sides. */
static void
compare_types(pd_checker *c, pd_ctx *ctx, const pd_scope *os, const pd_scope *us)
{
	pd_names	o;
	pd_names	u;

	if (!message_names(c, os, &o) || !message_names(c, us, &u))
		return;
	walk_names(c, ctx, os, us, &o, &u, PD_MESSAGE_REMOVED, PD_MESSAGE_ADDED,
			   both_messages);
	if (!enum_names(c, os, &o) || !enum_names(c, us, &u))
		return;
	walk_names(c, ctx, os, us, &o, &u, PD_ENUM_REMOVED, PD_ENUM_ADDED, both_enums);
}

/* ----------------------------------------------------------------------
 * One message (MessageSchemaDiff)
 * ---------------------------------------------------------------------- */

/*
 * Is the message being compared further up (a recursive type)?  Where it
 * was found is kept in c->min_hit (see compare_message_types).
 */
static bool
on_stack(pd_checker *c, const pc_msg *m)
{
	int			i;

	for (i = 0; i < c->n_stack; i++)
		if (c->stack[i] == m)
		{
			if (i < c->min_hit)
				c->min_hit = i;
			return true;
		}
	return false;
}

/* Put a message on the stack of messages being compared. */
static bool
stack_push(pd_checker *c, const pc_msg *m)
{
	if (c->n_stack == c->cap_stack)
	{
		int			ncap = c->cap_stack ? c->cap_stack * 2 : 32;
		const pc_msg **ns = rg_arena_alloc(c->arena, ncap * sizeof(*ns));

		if (ns == NULL)
		{
			c->oom = true;
			return false;
		}
		if (c->n_stack)
			memcpy(ns, c->stack, c->n_stack * sizeof(*ns));
		c->stack = ns;
		c->cap_stack = ncap;
	}
	c->stack[c->n_stack++] = m;
	return true;
}

/*
 * (a) The original's oneofs removed by name with no member left anywhere
 * (their fields' removal is reported as the oneof's); false on OOM.
 */
static bool
deleted_oneofs(pd_checker *c, const pd_fields *o, const pd_fields *u,
			   const char ***deleted, int *n_deleted)
{
	int			i,
				j;

	*n_deleted = 0;
	*deleted = rg_arena_alloc(c->arena, (o->n_oneofs + 1) * sizeof(char *));
	if (*deleted == NULL)
	{
		c->oom = true;
		return false;
	}
	for (i = 0; i < o->n_oneofs; i++)
	{
		bool		survives = false;

		if (has_oneof(u, o->oneofs[i]))
			continue;
		for (j = 0; j < o->n && !survives; j++)
			if (o->fields[j].oneof && strcmp(o->fields[j].oneof, o->oneofs[i]) == 0 &&
				find_tag(u, o->fields[j].tag) != NULL)
				survives = true;
		if (!survives)
			(*deleted)[(*n_deleted)++] = o->oneofs[i];
	}
	return true;
}

/* (b) Previously independent fields made mutually exclusive; false on OOM. */
static bool
fields_moved_to_oneofs(pd_checker *c, pd_ctx *ctx, const pd_fields *o,
					   const pd_fields *u)
{
	int			i,
				j;

	for (i = 0; i < u->n_oneofs; i++)
	{
		const char **groups = rg_arena_alloc(c->arena, (u->n + 1) * sizeof(char *));
		int			n_groups = 0;
		int			moved_in = 0;

		if (groups == NULL)
		{
			c->oom = true;
			return false;
		}
		for (j = 0; j < u->n; j++)
		{
			const pd_field *of2;

			if (u->fields[j].oneof == NULL || strcmp(u->fields[j].oneof, u->oneofs[i]) != 0)
				continue;
			of2 = find_tag(o, u->fields[j].tag);
			if (of2 == NULL)
				continue;		/* brand-new: old data never set it */
			if (of2->oneof != NULL)
			{
				if (name_index(groups, n_groups, of2->oneof) < 0)
					groups[n_groups++] = of2->oneof;
			}
			else
			{
				/* each original top-level field is its own group */
				groups[n_groups++] = "";
				moved_in++;
			}
		}
		/* the "" groups are distinct fields; count them apart */
		if (n_groups > 1)
			rg_pd_add_diff_at(c, ctx, u->oneofs[i], moved_in > 1
							  ? PD_MULTIPLE_FIELDS_MOVED_TO_ONEOF
							  : PD_FIELD_MOVED_TO_EXISTING_ONEOF);
	}
	return true;
}

/* (c) Oneofs added and removed, by name in String order; false on OOM. */
static bool
oneofs_added_removed(pd_checker *c, pd_ctx *ctx, const pd_fields *o,
					 const pd_fields *u)
{
	const char **all = rg_arena_alloc(c->arena, (o->n_oneofs + u->n_oneofs + 1) * sizeof(char *));
	int			n_all = 0;
	int			i,
				j;

	if (all == NULL)
	{
		c->oom = true;
		return false;
	}
	for (i = 0; i < o->n_oneofs; i++)
		if (name_index(all, n_all, o->oneofs[i]) < 0)
			all[n_all++] = o->oneofs[i];
	for (i = 0; i < u->n_oneofs; i++)
		if (name_index(all, n_all, u->oneofs[i]) < 0)
			all[n_all++] = u->oneofs[i];
	/* insertion sort by strcmp: oneof names are ASCII identifiers */
	for (i = 1; i < n_all; i++)
	{
		const char *x = all[i];

		for (j = i - 1; j >= 0 && strcmp(all[j], x) > 0; j--)
			all[j + 1] = all[j];
		all[j + 1] = x;
	}
	for (i = 0; i < n_all; i++)
	{
		if (!has_oneof(u, all[i]))
			rg_pd_add_diff_at(c, ctx, all[i], PD_ONEOF_REMOVED);
		else if (!has_oneof(o, all[i]))
			rg_pd_add_diff_at(c, ctx, all[i], PD_ONEOF_ADDED);
	}
	return true;
}

/* A tag only the original has: a field removed (unless its oneof went). */
static void
tag_removed(pd_checker *c, pd_ctx *ctx, const pd_field *ofl,
			const char *const *deleted, int n_deleted)
{
	if (ofl->oneof == NULL)
		rg_pd_add_diff_at(c, ctx, rg_pd_tag_token(c, ofl->tag),
						  ofl->label == PL_REQUIRED ? PD_REQUIRED_FIELD_REMOVED : PD_FIELD_REMOVED);
	else if (name_index(deleted, n_deleted, ofl->oneof) < 0)
	{
		rg_pd_path_push(c, ctx, ofl->oneof);
		rg_pd_add_diff_at(c, ctx, rg_pd_tag_token(c, ofl->tag), PD_ONEOF_FIELD_REMOVED);
		rg_pd_path_pop(ctx);
	}
}

/* A tag only the update has: a field added. */
static void
tag_added(pd_checker *c, pd_ctx *ctx, const pd_field *ufl)
{
	if (ufl->oneof == NULL)
		rg_pd_add_diff_at(c, ctx, rg_pd_tag_token(c, ufl->tag),
						  ufl->label == PL_REQUIRED ? PD_REQUIRED_FIELD_ADDED : PD_FIELD_ADDED);
	else
	{
		rg_pd_path_push(c, ctx, ufl->oneof);
		rg_pd_add_diff_at(c, ctx, rg_pd_tag_token(c, ufl->tag), PD_ONEOF_FIELD_ADDED);
		rg_pd_path_pop(ctx);
	}
}

/* A tag both sides have: out of a oneof, then the field's own diff. */
static void
tag_kept(pd_checker *c, pd_ctx *ctx, const pd_field *ofl, const pd_field *ufl)
{
	const char *tok = rg_pd_tag_token(c, ofl->tag);

	if (ofl->oneof != NULL && ufl->oneof == NULL)
		rg_pd_add_diff_at(c, ctx, tok, PD_ONEOF_FIELD_MOVED_TO_TOP_LEVEL);
	if (ufl->oneof != NULL)
		rg_pd_path_push(c, ctx, ufl->oneof);
	rg_pd_path_push(c, ctx, tok);
	compare_field(c, ctx, ofl, ufl);
	rg_pd_path_pop(ctx);
	if (ufl->oneof != NULL)
		rg_pd_path_pop(ctx);
}

/* (d) Every tag of either side, in ascending order (both lists are sorted). */
static void
compare_tags(pd_checker *c, pd_ctx *ctx, const pd_fields *o, const pd_fields *u,
			 const char *const *deleted, int n_deleted)
{
	int			i = 0;
	int			j = 0;

	while ((i < o->n || j < u->n) && !c->failure && !c->oom)
	{
		if (j >= u->n || (i < o->n && o->fields[i].tag < u->fields[j].tag))
			tag_removed(c, ctx, &o->fields[i++], deleted, n_deleted);
		else if (i >= o->n || u->fields[j].tag < o->fields[i].tag)
			tag_added(c, ctx, &u->fields[j++]);
		else
		{
			tag_kept(c, ctx, &o->fields[i], &u->fields[j]);
			i++;
			j++;
		}
	}
}

/* The fields and oneofs of a message on both sides (MessageSchemaDiff). */
static void
compare_fields(pd_checker *c, pd_ctx *ctx,
			   const pc_msg *om, const pd_file *of,
			   const pc_msg *um, const pd_file *uf)
{
	pd_fields	o;
	pd_fields	u;
	const char **deleted;
	int			n_deleted;

	if (!collect_fields(c, &c->orig, om, of, &o) ||
		!collect_fields(c, &c->upd, um, uf, &u) ||
		!deleted_oneofs(c, &o, &u, &deleted, &n_deleted) ||
		!fields_moved_to_oneofs(c, ctx, &o, &u) ||
		!oneofs_added_removed(c, ctx, &o, &u))
		return;
	compare_tags(c, ctx, &o, &u, deleted, n_deleted);
}

/* One message on both sides: its fields and oneofs, then its nested types. */
static void
compare_message(pd_checker *c, pd_ctx *ctx,
				const pc_msg *om, const pd_file *of, const char *oscope,
				const pc_msg *um, const pd_file *uf, const char *uscope)
{
	bool		entered = false;
	pd_scope	os;
	pd_scope	us;
	const char *ofull;
	const char *ufull;

	if (c->failure || c->oom)
		return;
	rg_check_interrupts();
	if (++c->depth > PD_MAX_DEPTH || rg_too_deep(c->depth))
	{
		c->failure = "schema nested too deeply";
		c->depth--;
		return;
	}
	if (!rg_pd_spend(c, 1))
	{
		c->depth--;
		return;
	}
	/* Confluent's recursion guard: an original message already on the stack */
	if (!on_stack(c, om))
	{
		entered = stack_push(c, om);
		if (entered)
			rg_pd_log_entered(c, om);
		if (entered)
			compare_fields(c, ctx, om, of, um, uf);
	}

	ofull = rg_pd_join_name(c, oscope, om->name ? om->name : "");
	ufull = rg_pd_join_name(c, uscope, um->name ? um->name : "");
	if (ofull && ufull)
	{
		memset(&os, 0, sizeof(os));
		os.file = of;
		os.scope = ofull;
		os.msgs = (const pc_msg *const *) om->nested_type;
		os.n_msgs = om->n_nested_type;
		os.enums = (const pc_enum *const *) om->enum_type;
		os.n_enums = om->n_enum_type;
		os.fields = (const pc_field *const *) om->field;
		os.n_fields = om->n_field;
		os.ext = (const pc_field *const *) om->extension;
		os.n_ext = om->n_extension;
		memset(&us, 0, sizeof(us));
		us.file = uf;
		us.scope = ufull;
		us.msgs = (const pc_msg *const *) um->nested_type;
		us.n_msgs = um->n_nested_type;
		us.enums = (const pc_enum *const *) um->enum_type;
		us.n_enums = um->n_enum_type;
		us.fields = (const pc_field *const *) um->field;
		us.n_fields = um->n_field;
		us.ext = (const pc_field *const *) um->extension;
		us.n_ext = um->n_extension;
		compare_types(c, ctx, &os, &us);
	}
	if (entered)
		c->n_stack--;
	c->depth--;
}

/* ----------------------------------------------------------------------
 * Entry points
 * ---------------------------------------------------------------------- */

/* SchemaDiff.compare(original, update): every difference, in order */
static void
diff_files(pd_checker *c, pd_list *diffs)
{
	pd_ctx		ctx;
	const pd_file *of = rg_pd_main_file(&c->orig);
	const pd_file *uf = rg_pd_main_file(&c->upd);
	pd_scope	os;
	pd_scope	us;

	memset(&ctx, 0, sizeof(ctx));
	ctx.diffs = diffs;
	if (of == NULL || uf == NULL)
	{
		c->failure = "schema not parsed";
		return;
	}
	if (strcmp(of->package, uf->package) != 0)
		rg_pd_add_diff(c, &ctx, PD_PACKAGE_CHANGED);

	memset(&os, 0, sizeof(os));
	os.file = of;
	os.scope = of->package;
	os.msgs = (const pc_msg *const *) of->fd->message_type;
	os.n_msgs = of->fd->n_message_type;
	os.enums = (const pc_enum *const *) of->fd->enum_type;
	os.n_enums = of->fd->n_enum_type;
	os.ext = (const pc_field *const *) of->fd->extension;
	os.n_ext = of->fd->n_extension;
	memset(&us, 0, sizeof(us));
	us.file = uf;
	us.scope = uf->package;
	us.msgs = (const pc_msg *const *) uf->fd->message_type;
	us.n_msgs = uf->fd->n_message_type;
	us.enums = (const pc_enum *const *) uf->fd->enum_type;
	us.n_enums = uf->fd->n_enum_type;
	us.ext = (const pc_field *const *) uf->fd->extension;
	us.n_ext = uf->fd->n_extension;
	compare_types(c, &ctx, &os, &us);
}

/*
 * Run the diff of original against update into a fresh checker; false
 * with a message in out when it cannot run (then *c holds no arena).
 */
static bool
run_diff(pd_checker *c, const rg_schema *original, const rg_schema *update,
		 pd_list *diffs, rg_strlist *out)
{
	const rg_proto_parsed *om = rg_protobuf_model(original);
	const rg_proto_parsed *um = rg_protobuf_model(update);

	memset(c, 0, sizeof(*c));
	memset(diffs, 0, sizeof(*diffs));
	if (om == NULL || um == NULL || om->file == NULL || um->file == NULL)
	{
		rg_strlist_push(out, PD_UNEXPECTED "schema not parsed");
		return false;
	}
	c->arena = rg_arena_create();
	if (c->arena == NULL)
	{
		rg_strlist_push(out, PD_UNEXPECTED "out of memory");
		return false;
	}
	c->min_hit = INT_MAX;
	if (!rg_pd_build_side(c, &c->orig, om) || !rg_pd_build_side(c, &c->upd, um))
	{
		if (c->failure == NULL)
			c->oom = true;
	}
	else
	{
		c->same_memo = rg_arena_alloc(c->arena,
									  (size_t) (c->orig.n_files + 1) * (c->upd.n_files + 1));
		if (c->same_memo == NULL)
			c->oom = true;
		else
			diff_files(c, diffs);
	}
	if (c->oom || c->failure)
	{
		rg_buf		buf;

		rg_buf_init(&buf);
		rg_buf_puts(&buf, PD_UNEXPECTED);
		rg_buf_puts(&buf, c->oom ? "out of memory" : c->failure);
		if (buf.oom || !rg_strlist_push(out, buf.data))
			rg_strlist_push(out, PD_UNEXPECTED "out of memory");
		rg_buf_free(&buf);
		rg_arena_destroy(c->arena);
		c->arena = NULL;
		return false;
	}
	return true;
}

/*
 * Can `reader` read what `writer` wrote?  Confluent's
 * reader.isBackwardCompatible(writer) = SchemaDiff.compare(original =
 * writer, update = reader); one message per incompatible difference, its
 * first "%s" the reader's role, the second the writer's.
 */
bool
rg_protobuf_can_read(const rg_schema *reader, const rg_schema *writer, rg_strlist *out)
{
	pd_checker	c;
	pd_list		diffs;
	bool		ok;

	if (!run_diff(&c, writer, reader, &diffs, out))
		return false;
	ok = diffs.n_incompatible == 0;
	if (!ok)
		(void) rg_pd_list_differences(&c, &diffs, true, false, out);
	rg_arena_destroy(c.arena);
	return ok;
}

/*
 * Every difference, compatible ones included, as "TYPE #/path" in
 * Confluent's order (SchemaDiff.compare(original, update)), at most
 * RG_COMPAT_MAX_MESSAGES of them; for tests and diagnostics.  Returns
 * false when the diff could not run (the reason is then the last line).
 */
extern bool rg_protobuf_differences(const rg_schema *original,
									const rg_schema *update, rg_strlist *out);

/* See the declaration above. */
bool
rg_protobuf_differences(const rg_schema *original, const rg_schema *update, rg_strlist *out)
{
	pd_checker	c;
	pd_list		diffs;
	bool		ok;

	if (!run_diff(&c, original, update, &diffs, out))
		return false;
	ok = rg_pd_list_differences(&c, &diffs, false, true, out);
	rg_arena_destroy(c.arena);
	return ok;
}
