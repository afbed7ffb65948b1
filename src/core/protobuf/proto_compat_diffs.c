/*-------------------------------------------------------------------------
 *
 * proto_compat_diffs.c
 *	  The differences of a Protobuf schema diff (proto_compat.c): the
 *	  diff's budget of work and memory, the path of the element compared,
 *	  the lists of differences (a referenced message type's list shared,
 *	  not copied), the kept diffs of type pairs, and the listing of a
 *	  finished diff as Confluent's messages.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_compat_internal.h"

#include "rg_compat.h"

#include <stdio.h>
#include <string.h>

/* each type's name, whether it is compatible, and its message */
static const struct
{
	const char *name;
	bool		compatible;
	/* the description before and after the path; NULL: "" */
	const char *pre;
	const char *post;
}			pd_types[PD_N_TYPES] = {

	[PD_PACKAGE_CHANGED] = {"PACKAGE_CHANGED", false,
	"The package at '", "' in the %s schema does not match the package in the %s schema"},
	[PD_MESSAGE_ADDED] = {"MESSAGE_ADDED", true, NULL, NULL},
	[PD_MESSAGE_REMOVED] = {"MESSAGE_REMOVED", false,
	"The %s schema is missing a MESSAGE type at path '", "' in the %s schema"},
	[PD_MESSAGE_MOVED] = {"MESSAGE_MOVED", true, NULL, NULL},
	[PD_ENUM_ADDED] = {"ENUM_ADDED", true, NULL, NULL},
	[PD_ENUM_REMOVED] = {"ENUM_REMOVED", true, NULL, NULL},
	[PD_ENUM_CONST_ADDED] = {"ENUM_CONST_ADDED", true, NULL, NULL},
	[PD_ENUM_CONST_CHANGED] = {"ENUM_CONST_CHANGED", true, NULL, NULL},
	[PD_ENUM_CONST_REMOVED] = {"ENUM_CONST_REMOVED", true, NULL, NULL},
	[PD_FIELD_ADDED] = {"FIELD_ADDED", true, NULL, NULL},
	[PD_FIELD_REMOVED] = {"FIELD_REMOVED", true, NULL, NULL},
	[PD_FIELD_NAME_CHANGED] = {"FIELD_NAME_CHANGED", true, NULL, NULL},
	[PD_FIELD_KIND_CHANGED] = {"FIELD_KIND_CHANGED", false,
	"The type of a field at path '", "' in the %s schema does not match the %s schema"},
	[PD_FIELD_SCALAR_KIND_CHANGED] = {"FIELD_SCALAR_KIND_CHANGED", false,
	"The kind of a SCALAR field at path '", "' in the %s schema does not match its kind in the %s schema"},
	[PD_FIELD_NAMED_TYPE_CHANGED] = {"FIELD_NAMED_TYPE_CHANGED", false,
	"The type of a MESSAGE field at path '", "' in the %s schema does not match its type in the %s schema"},
	[PD_FIELD_NUMERIC_LABEL_CHANGED] = {"FIELD_NUMERIC_LABEL_CHANGED", false,
	"The label for a NUMERIC field at path '", "' in the %s schema does not match its label in the %s schema"},
	[PD_FIELD_STRING_OR_BYTES_LABEL_CHANGED] = {"FIELD_STRING_OR_BYTES_LABEL_CHANGED", true, NULL, NULL},
	[PD_REQUIRED_FIELD_ADDED] = {"REQUIRED_FIELD_ADDED", false,
	"A required field  at path '", "' in the %s schema is missing in the %s schema"},
	[PD_REQUIRED_FIELD_REMOVED] = {"REQUIRED_FIELD_REMOVED", false,
	"The %s schema is missing a required field at path: '", "' in the %s schema"},
	[PD_ONEOF_ADDED] = {"ONEOF_ADDED", true, NULL, NULL},
	[PD_ONEOF_REMOVED] = {"ONEOF_REMOVED", true, NULL, NULL},
	[PD_ONEOF_FIELD_ADDED] = {"ONEOF_FIELD_ADDED", true, NULL, NULL},
	[PD_ONEOF_FIELD_REMOVED] = {"ONEOF_FIELD_REMOVED", false,
	"The %s schema is missing a oneof field at path '", "' in the %s schema"},
	[PD_ONEOF_FIELD_MOVED_TO_TOP_LEVEL] = {"ONEOF_FIELD_MOVED_TO_TOP_LEVEL", true,
	"The oneof field at path '", "' in the %s schema was moved out of its oneof to a top-level field in the %s schema"},
	[PD_MULTIPLE_FIELDS_MOVED_TO_ONEOF] = {"MULTIPLE_FIELDS_MOVED_TO_ONEOF", false,
	"Multiple fields in the oneof at path '", "' in the %s schema are outside a oneof in the %s schema"},
	[PD_FIELD_MOVED_TO_EXISTING_ONEOF] = {"FIELD_MOVED_TO_EXISTING_ONEOF", false,
	"A field in the oneof at path '", "' in the %s schema is outside an existing oneof in the %s schema"},
};


/* Enter a path token (the path of the differences found below it). */
void
rg_pd_path_push(pd_checker *c, pd_ctx *ctx, const char *tok)
{
	if (ctx->depth_path == ctx->cap_path)
	{
		int			ncap = ctx->cap_path ? ctx->cap_path * 2 : 16;
		const char **np = rg_arena_alloc(c->arena, ncap * sizeof(*np));

		if (np == NULL)
		{
			c->oom = true;
			return;
		}
		if (ctx->depth_path)
			memcpy(np, ctx->path, ctx->depth_path * sizeof(*np));
		ctx->path = np;
		ctx->cap_path = ncap;
	}
	ctx->path[ctx->depth_path++] = tok ? tok : "";
}

/* Leave the innermost path token. */
void
rg_pd_path_pop(pd_ctx *ctx)
{
	if (ctx->depth_path > 0)
		ctx->depth_path--;
}

/* A field number as a path token. */
const char *
rg_pd_tag_token(pd_checker *c, int32_t tag)
{
	char		num[16];

	snprintf(num, sizeof(num), "%d", (int) tag);
	return rg_pd_strdup(c, num);
}

/*
 * Count units of work, and the checker's memory, against the budget (and
 * give a pending cancel its chance now and then); false, with c->failure
 * set, past it.
 */
bool
rg_pd_spend(pd_checker *c, long n)
{
	long		before = c->work;

	if (c->failure || c->oom)
		return false;
	c->work += n;
	if (before / PD_INTERRUPT_EVERY != c->work / PD_INTERRUPT_EVERY)
		rg_check_interrupts();
	if (c->work > PD_MAX_WORK || rg_arena_bytes(c->arena) > PD_MAX_BYTES)
	{
		c->failure = "schema comparison too large";
		return false;
	}
	return true;
}

/* Room for one more item in a list; false (oom or failure set) without. */
static bool
list_grow(pd_checker *c, pd_list *l)
{
	if (!rg_pd_spend(c, 1))
		return false;
	if (l->n == l->cap)
	{
		int			ncap = l->cap ? l->cap * 2 : 16;
		pd_diff    *ni = rg_arena_alloc(c->arena, ncap * sizeof(*ni));

		if (ni == NULL)
		{
			c->oom = true;
			return false;
		}
		if (l->n)
			memcpy(ni, l->items, l->n * sizeof(*ni));
		l->items = ni;
		l->cap = ncap;
	}
	return true;
}

/* Append a difference of a type at path to a list. */
void
rg_pd_list_add(pd_checker *c, pd_list *l, pd_type type, const char *path)
{
	pd_diff    *d;

	if (!list_grow(c, l))
		return;
	d = &l->items[l->n++];
	memset(d, 0, sizeof(*d));
	d->type = type;
	d->path = path;
	if (!pd_types[type].compatible)
		l->n_incompatible = rg_compat_count_add(l->n_incompatible, 1);
}

/* Append a finished list to another, shared. */
void
rg_pd_list_add_shared(pd_checker *c, pd_list *l, const pd_list *sub)
{
	pd_diff    *d;

	if (sub->n == 0 || !list_grow(c, l))
		return;
	d = &l->items[l->n++];
	memset(d, 0, sizeof(*d));
	d->type = PD_N_TYPES;
	d->sub_items = sub->items;
	d->sub_n = sub->n;
	d->sub_incompatible = sub->n_incompatible;
	l->n_incompatible = rg_compat_count_add(l->n_incompatible, sub->n_incompatible);
}

/* ctx.addDifference: "#/" + the path joined with '/' */
void
rg_pd_add_diff(pd_checker *c, pd_ctx *ctx, pd_type type)
{
	size_t		len = 3;
	char	   *p;
	char	   *q;
	int			i;

	for (i = 0; i < ctx->depth_path; i++)
		len += strlen(ctx->path[i]) + 1;
	p = rg_arena_alloc(c->arena, len);
	if (p == NULL)
	{
		c->oom = true;
		return;
	}
	q = p;
	*q++ = '#';
	*q++ = '/';
	for (i = 0; i < ctx->depth_path; i++)
	{
		size_t		l = strlen(ctx->path[i]);

		if (i)
			*q++ = '/';
		memcpy(q, ctx->path[i], l);
		q += l;
	}
	*q = '\0';
	rg_pd_list_add(c, ctx->diffs, type, p);
}

/* A difference at the current path plus one token. */
void
rg_pd_add_diff_at(pd_checker *c, pd_ctx *ctx, const char *tok, pd_type type)
{
	rg_pd_path_push(c, ctx, tok);
	rg_pd_add_diff(c, ctx, type);
	rg_pd_path_pop(ctx);
}

/* Are all differences of a list of compatible types? */
bool
rg_pd_list_compatible(const pd_list *l)
{
	return l->n_incompatible == 0;
}

/* The memo slot of a pair of types (its orig NULL when absent). */
static size_t
type_memo_slot(const pd_type_memo *m, const pd_entry *o, const pd_entry *u)
{
	uint64_t	h = (uint64_t) (uintptr_t) o * 0x9E3779B97F4A7C15ULL;
	size_t		i;

	h ^= (uint64_t) (uintptr_t) u + 0x632BE59BD9B4E019ULL;
	h ^= h >> 29;
	for (i = (size_t) h & (m->cap - 1); m->orig[i] != NULL; i = (i + 1) & (m->cap - 1))
		if (m->orig[i] == o && m->upd[i] == u)
			break;
	return i;
}

/*
 * The differences of a pair of types compared before, or NULL: none kept,
 * or a message their diff entered is on the stack now.
 */
const pd_list *
rg_pd_type_memo_get(pd_checker *c, const pd_entry *o, const pd_entry *u)
{
	const pd_type_memo *m = c->type_memo;
	size_t		i;
	int			k;
	int			j;

	if (m == NULL || m->cap == 0)
		return NULL;
	i = type_memo_slot(m, o, u);
	if (m->orig[i] == NULL ||
		!rg_pd_spend(c, (long) (m->to[i] - m->from[i]) * (c->n_stack + 1) / 16 + 1))
		return NULL;
	for (k = m->from[i]; k < m->to[i]; k++)
		for (j = 0; j < c->n_stack; j++)
			if (c->entered[k] == c->stack[j])
				return NULL;
	return &m->diffs[i];
}

/* Log a message pushed on the stack (for type_memo_get). */
void
rg_pd_log_entered(pd_checker *c, const pc_msg *m)
{
	if (c->n_entered == c->cap_entered)
	{
		int			ncap = c->cap_entered ? c->cap_entered * 2 : 64;
		const pc_msg **ne = rg_arena_alloc(c->arena, ncap * sizeof(*ne));

		if (ne == NULL)
		{
			c->oom = true;
			return;
		}
		if (c->n_entered)
			memcpy(ne, c->entered, c->n_entered * sizeof(*ne));
		c->entered = ne;
		c->cap_entered = ncap;
	}
	c->entered[c->n_entered++] = m;
}

/* Keep the differences of a pair of types (unless kept already), entered[from ..] with them. */
void
rg_pd_type_memo_put(pd_checker *c, const pd_entry *o, const pd_entry *u, const pd_list *diffs,
					int from)
{
	pd_type_memo *m = c->type_memo;
	size_t		i;

	if (m == NULL && (m = c->type_memo = rg_arena_alloc(c->arena, sizeof(*m))) == NULL)
	{
		c->oom = true;
		return;
	}
	if ((m->used + 1) * 2 > m->cap)
	{
		pd_type_memo old = *m;
		size_t		ncap = m->cap ? m->cap * 2 : 64;

		m->orig = rg_arena_alloc(c->arena, ncap * sizeof(*m->orig));
		m->upd = rg_arena_alloc(c->arena, ncap * sizeof(*m->upd));
		m->diffs = rg_arena_alloc(c->arena, ncap * sizeof(*m->diffs));
		m->from = rg_arena_alloc(c->arena, ncap * sizeof(*m->from));
		m->to = rg_arena_alloc(c->arena, ncap * sizeof(*m->to));
		if (m->orig == NULL || m->upd == NULL || m->diffs == NULL ||
			m->from == NULL || m->to == NULL)
		{
			*m = old;
			c->oom = true;
			return;
		}
		m->cap = ncap;
		for (i = 0; i < old.cap; i++)
			if (old.orig[i] != NULL)
			{
				size_t		j = type_memo_slot(m, old.orig[i], old.upd[i]);

				m->orig[j] = old.orig[i];
				m->upd[j] = old.upd[i];
				m->diffs[j] = old.diffs[i];
				m->from[j] = old.from[i];
				m->to[j] = old.to[i];
			}
	}
	i = type_memo_slot(m, o, u);
	if (m->orig[i] != NULL)
		return;					/* kept already, for other stacks */
	m->orig[i] = o;
	m->upd[i] = u;
	m->diffs[i] = *diffs;
	m->from[i] = from;
	m->to[i] = c->n_entered;
	m->used++;
}

/* the walk over a list whose referenced types' lists are shared */
typedef struct pd_walk
{
	pd_checker *c;
	bool		incompatible_only;
	bool		with_type;		/* "TYPE #/path" rather than the message */
	int			limit;
	int			listed;
	rg_strlist *out;
	bool		failed;			/* out of memory */
} pd_walk;

/* List one difference; false when the walk is over. */
static bool
walk_emit(pd_walk *w, const pd_diff *d)
{
	rg_buf		buf;
	bool		ok;

	rg_buf_init(&buf);
	if (w->with_type)
	{
		rg_buf_puts(&buf, pd_types[d->type].name);
		rg_buf_puts(&buf, " ");
		rg_buf_puts(&buf, d->path);
	}
	else
	{
		rg_buf_puts(&buf, "{errorType:\"");
		rg_buf_puts(&buf, pd_types[d->type].name);
		rg_buf_puts(&buf, "\", description:\"");
		if (pd_types[d->type].pre)
		{
			rg_buf_puts(&buf, pd_types[d->type].pre);
			rg_buf_puts(&buf, d->path);
			rg_buf_puts(&buf, pd_types[d->type].post);
		}
		rg_buf_puts(&buf, "\"}");
	}
	ok = !buf.oom && rg_strlist_push(w->out, buf.data);
	rg_buf_free(&buf);
	if (!ok)
		w->failed = true;
	return ok && ++w->listed < w->limit;
}

/* List a list's differences in order, shared lists in place; false when the walk is over. */
static bool
walk_list(pd_walk *w, const pd_diff *items, int n, int depth)
{
	int			i;

	if (depth > PD_MAX_DEPTH || rg_too_deep(depth))
	{
		w->c->failure = "schema nested too deeply";
		return false;
	}
	for (i = 0; i < n; i++)
	{
		const pd_diff *d = &items[i];

		if (!rg_pd_spend(w->c, 1))
			return false;
		if (d->type != PD_N_TYPES)
		{
			if (w->incompatible_only && pd_types[d->type].compatible)
				continue;
			if (!walk_emit(w, d))
				return false;
		}
		else if ((!w->incompatible_only || d->sub_incompatible > 0) &&
				 !walk_list(w, d->sub_items, d->sub_n, depth + 1))
			return false;
	}
	return true;
}

/*
 * List the differences of a finished diff into out: at most
 * RG_COMPAT_MAX_MESSAGES, then one line saying how many more there are;
 * false (the reason in out) when the listing could not finish.
 */
bool
rg_pd_list_differences(pd_checker *c, const pd_list *diffs, bool incompatible_only,
					   bool with_type, rg_strlist *out)
{
	pd_walk		w;

	memset(&w, 0, sizeof(w));
	w.c = c;
	w.incompatible_only = incompatible_only;
	w.with_type = with_type;
	w.limit = RG_COMPAT_MAX_MESSAGES;
	w.out = out;
	(void) walk_list(&w, diffs->items, diffs->n, 0);
	if (w.failed || c->failure)
	{
		rg_strlist_pushf(out, "%s%s", PD_UNEXPECTED,
						 w.failed ? "out of memory" : c->failure);
		return false;
	}
	if (incompatible_only && w.listed == w.limit &&
		diffs->n_incompatible > (uint64_t) w.limit)
		rg_compat_push_more(out, diffs->n_incompatible == UINT64_MAX ? UINT64_MAX :
							diffs->n_incompatible - (uint64_t) w.limit);
	return true;
}
