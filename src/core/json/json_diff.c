/*-------------------------------------------------------------------------
 *
 * json_diff.c
 *	  Confluent's JSON Schema compatibility diff: the entry points, the
 *	  memo and its fixed point, and the comparison of every schema kind
 *	  but objects and arrays (json_diff_object.c).
 *
 * can_read(reader, writer) is SchemaDiff.compare(original = writer,
 * update = reader); each difference whose type is not a compatible
 * change under the policy (STRICT or LENIENT) becomes one message.
 *
 * Every pair of nodes is compared once per pass: the differences of a
 * pair are kept relative to the pair and rebased onto the path it is
 * reached by.  A pair met again while it is being compared is a cycle
 * through $ref and is assumed compatible; when a pass made such an
 * assumption, the pass is run again with the pairs it found incompatible
 * seeded as such, until that set stops growing.
 *
 * Where Confluent's order comes from a java.util.HashSet of property
 * names, json_diff_object.c reproduces that order; pattern properties
 * (keyed by java.util.regex.Pattern, whose hash is the object's identity)
 * are tried in document order.
 *
 *-------------------------------------------------------------------------
 */
#include "json_diff_internal.h"

#include "rg_compat.h"
#include "rg_pair_memo.h"

#include <stdio.h>
#include <string.h>

#define JD_UNEXPECTED "Unexpected exception during compatibility check: "

/* passes of the fixed point before giving up (each adds a pair) */
#define JD_MAX_PASSES 64

/* a cancel gets its chance every this many steps */
#define JD_INTERRUPT_EVERY 4096

typedef enum jd_state
{
	JD_IN_PROGRESS,
	JD_DONE
} jd_state;

/* a compared pair, with its differences relative to the pair */
typedef struct jd_memo_entry
{
	const rg_js *orig;
	const rg_js *upd;
	jd_state	state;
	jd_list		diffs;
} jd_memo_entry;

/* ----------------------------------------------------------------------
 * The budget
 * ---------------------------------------------------------------------- */

/* See json_diff_internal.h */
void *
rg_jd_alloc(jd_checker *c, size_t size)
{
	void	   *p;

	if (c->oom || c->too_large)
		return NULL;
	c->bytes += size;
	if (c->bytes > JD_MAX_BYTES)
	{
		c->too_large = true;
		return NULL;
	}
	p = rg_arena_alloc(c->arena, size);
	if (p == NULL)
		c->oom = true;
	return p;
}

/* See json_diff_internal.h */
bool
rg_jd_spend(jd_checker *c, long n)
{
	long		before = c->steps;

	c->steps += n;
	if (before / JD_INTERRUPT_EVERY != c->steps / JD_INTERRUPT_EVERY)
		rg_check_interrupts();
	if (c->steps > JD_MAX_STEPS)
		c->too_large = true;
	return !c->too_large;
}

/* See json_diff_internal.h */
bool
rg_jd_stopped(const jd_checker *c)
{
	return c->oom || c->too_large || c->failure != NULL;
}

/* ----------------------------------------------------------------------
 * Lists, paths, contexts
 * ---------------------------------------------------------------------- */

/* Room for one more item; false (c->oom or c->too_large set) without. */
static bool
list_grow(jd_checker *c, jd_list *list)
{
	if (!rg_jd_spend(c, 1))
		return false;
	if (list->n == list->cap)
	{
		int			ncap = list->cap ? list->cap * 2 : 4;
		jd_diff    *items = rg_jd_alloc(c, (size_t) ncap * sizeof(*items));

		if (items == NULL)
			return false;
		if (list->n > 0)
			memcpy(items, list->items, (size_t) list->n * sizeof(*items));
		list->items = items;
		list->cap = ncap;
	}
	return true;
}

/* Append one difference to a list. */
static void
list_push(jd_checker *c, jd_list *list, jd_type type, const char *path)
{
	jd_diff    *d;

	if (!list_grow(c, list))
		return;
	d = &list->items[list->n++];
	memset(d, 0, sizeof(*d));
	d->type = type;
	d->path = path;
	if (!rg_jd_type_compatible(type, c->lenient))
		list->n_incompatible = rg_compat_count_add(list->n_incompatible, 1);
}

/* Append an item as it is (a difference or a shared list). */
static void
list_push_item(jd_checker *c, jd_list *list, const jd_diff *item)
{
	if (item->type != JD_N_TYPES)
	{
		list_push(c, list, item->type, item->path);
		return;
	}
	if (!list_grow(c, list))
		return;
	list->items[list->n++] = *item;
	list->n_incompatible = rg_compat_count_add(list->n_incompatible, item->sub_incompatible);
}

/*
 * The path of seg (its segments from the pair's root joined by '/')
 * followed by rest (a path relative to seg; "" or NULL for seg itself),
 * in the arena.
 */
static const char *
path_render(jd_checker *c, const jd_seg *seg, const char *rest)
{
	size_t		rest_len = rest ? strlen(rest) : 0;
	size_t		len = 0;
	const jd_seg *s;
	char	   *out;
	char	   *p;

	if (seg == NULL)
		return rest ? rest : "";
	for (s = seg; s != NULL; s = s->parent)
		len += strlen(s->name) + (s->parent != NULL ? 1 : 0);
	if (rest_len > 0)
		len += 1 + rest_len;
	out = rg_jd_alloc(c, len + 1);
	if (out == NULL)
		return "";
	/* fill from the end: rest, then each segment before its child */
	p = out + len;
	*p = '\0';
	if (rest_len > 0)
	{
		p -= rest_len;
		memcpy(p, rest, rest_len);
		*--p = '/';
	}
	for (s = seg; s != NULL; s = s->parent)
	{
		size_t		n = strlen(s->name);

		p -= n;
		memcpy(p, s->name, n);
		if (s->parent != NULL)
			*--p = '/';
	}
	return out;
}

/* See json_diff_internal.h */
const char *
rg_jd_index_segment(char *buf, const char *prefix, int i)
{
	size_t		len = strlen(prefix);
	char		digits[12];
	int			nd = 0;
	unsigned	v = (unsigned) i;

	memcpy(buf, prefix, len);
	buf[len++] = '/';
	do
	{
		digits[nd++] = (char) ('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (nd > 0)
		buf[len++] = digits[--nd];
	buf[len] = '\0';
	return buf;
}

/* See json_diff_internal.h */
void
rg_jd_subcontext(jd_ctx *sub, const jd_ctx *ctx)
{
	memset(sub, 0, sizeof(*sub));
	sub->c = ctx->c;
	sub->path = ctx->path;
}

/* See json_diff_internal.h */
bool
rg_jd_compatible(const jd_ctx *ctx)
{
	return ctx->diffs.n_incompatible == 0;
}

/* See json_diff_internal.h */
void
rg_jd_add(jd_ctx *ctx, jd_type type)
{
	list_push(ctx->c, &ctx->diffs, type, path_render(ctx->c, ctx->path, NULL));
}

/* See json_diff_internal.h */
void
rg_jd_add_at(jd_ctx *ctx, const char *attribute, jd_type type)
{
	jd_seg		seg = {attribute, ctx->path};

	list_push(ctx->c, &ctx->diffs, type, path_render(ctx->c, &seg, NULL));
}

/* See json_diff_internal.h */
void
rg_jd_append(jd_ctx *ctx, const jd_ctx *from)
{
	int			i;

	for (i = 0; i < from->diffs.n; i++)
		list_push_item(ctx->c, &ctx->diffs, &from->diffs.items[i]);
}

/*
 * Add the differences of a nested pair at ctx's path: shared, not copied
 * (the pair's list is final; its items are read through the reference).
 */
static void
append_rebased(jd_ctx *ctx, const jd_list *rel)
{
	jd_diff		ref;

	if (rel->n == 0)
		return;
	memset(&ref, 0, sizeof(ref));
	ref.type = JD_N_TYPES;
	ref.path = ctx->path != NULL ? path_render(ctx->c, ctx->path, NULL) : NULL;
	ref.sub_items = rel->items;
	ref.sub_n = rel->n;
	ref.sub_incompatible = rel->n_incompatible;
	list_push_item(ctx->c, &ctx->diffs, &ref);
}

/* ----------------------------------------------------------------------
 * The memo: node pairs -> their differences
 * ---------------------------------------------------------------------- */

/* a spread of a pointer pair */
static uint64_t
pair_hash(const rg_js *a, const rg_js *b)
{
	uint64_t	h = (uint64_t) (uintptr_t) a * 0x9E3779B97F4A7C15ULL;

	h ^= (uint64_t) (uintptr_t) b + 0x632BE59BD9B4E019ULL + (h << 6) + (h >> 2);
	h ^= h >> 29;
	return h;
}

/* The entry of a pair, NULL if absent. */
static jd_memo_entry *
memo_get(const jd_memo *m, const rg_js *a, const rg_js *b)
{
	int			i;

	if (m->cap == 0)
		return NULL;
	for (i = (int) (pair_hash(a, b) & (uint64_t) (m->cap - 1)); m->slots[i];
		 i = (i + 1) & (m->cap - 1))
		if (m->slots[i]->orig == a && m->slots[i]->upd == b)
			return m->slots[i];
	return NULL;
}

/* Insert e (its pair absent); false on out of memory. */
static bool
memo_put(jd_checker *c, jd_memo *m, jd_memo_entry *e)
{
	int			i;

	if ((m->used + 1) * 2 > m->cap)
	{
		int			ncap = m->cap ? m->cap * 2 : 64;
		jd_memo_entry **ns = rg_jd_alloc(c, (size_t) ncap * sizeof(*ns));

		if (ns == NULL)
			return false;
		for (i = 0; i < m->cap; i++)
		{
			int			j;

			if (m->slots[i] == NULL)
				continue;
			for (j = (int) (pair_hash(m->slots[i]->orig, m->slots[i]->upd) & (uint64_t) (ncap - 1));
				 ns[j]; j = (j + 1) & (ncap - 1))
				;
			ns[j] = m->slots[i];
		}
		m->slots = ns;
		m->cap = ncap;
	}
	for (i = (int) (pair_hash(e->orig, e->upd) & (uint64_t) (m->cap - 1)); m->slots[i];
		 i = (i + 1) & (m->cap - 1))
		;
	m->slots[i] = e;
	m->used++;
	return true;
}

static void compare_types(jd_ctx *ctx, const rg_js *orig, const rg_js *upd);

/*
 * The differences of a pair, relative to it (Context.compareMemoized): a
 * finished pair's from the memo; a pair in progress (a cycle) gets those
 * an earlier pass found, or none, assumed compatible.
 */
static const jd_list *
compare_memoized(jd_checker *c, const rg_js *orig, const rg_js *upd)
{
	static const jd_list none;
	jd_memo_entry *e = memo_get(&c->memo, orig, upd);
	jd_ctx		sub;

	if (e != NULL && e->state == JD_DONE)
		return &e->diffs;
	if (e != NULL)
	{
		jd_memo_entry *s = memo_get(&c->seed, orig, upd);

		if (s != NULL)
			return &s->diffs;
		c->optimism_used = true;
		return &none;
	}
	e = rg_jd_alloc(c, sizeof(*e));
	if (e != NULL)
	{
		e->orig = orig;
		e->upd = upd;
		e->state = JD_IN_PROGRESS;
	}
	if (e == NULL || !memo_put(c, &c->memo, e))
	{
		if (!c->too_large)
			c->oom = true;
		return &none;
	}
	memset(&sub, 0, sizeof(sub));
	sub.c = c;
	compare_types(&sub, orig, upd);
	e->diffs = sub.diffs;
	e->state = JD_DONE;
	return &e->diffs;
}

/* ----------------------------------------------------------------------
 * Pairs found compatible, for the process
 * ---------------------------------------------------------------------- */

/*
 * The pairs of sub-schemas, by content id (json_content.c), that a diff of
 * this process found without an incompatible difference under a policy
 * (rg_pair_memo.h, as Avro's shared pairs).  A content id fixes all that a
 * pair's comparison reads, so the verdict holds in any later check: a
 * property typed {"type": "integer"} on both sides of 1,000 versions, or a
 * version the same as one checked before, is compared once.  can_read
 * lists only incompatible differences, which such a pair has none of, so
 * it may skip the pair; rg_json_differences, which lists every difference,
 * does not.  An incompatible pair is compared again for its differences.
 */
static rg_pair_memo known_pairs;
static bool known_pairs_off;

/* See json_diff_internal.h */
void
rg_jd_use_known_pairs(bool on)
{
	known_pairs_off = !on;
}

/* The key of the checker's policy and drafts (never 0). */
static uint64_t
pair_context(bool lenient, rg_js_draft orig_draft, rg_js_draft upd_draft)
{
	return ((uint64_t) 1 << 8 | (uint64_t) lenient << 6 |
			(uint64_t) orig_draft << 3 | (uint64_t) upd_draft) << 32;
}

/* See json_diff_internal.h */
bool
rg_jd_pair_known(const jd_checker *c, uint32_t orig, uint32_t upd)
{
	return c->skip_known && rg_js_has_content_id(orig) && rg_js_has_content_id(upd) &&
		rg_pair_memo_known(&known_pairs, c->pair_context | orig, upd);
}

/* Keep a pair compared without an incompatible difference (for can_read). */
static void
pair_keep(const jd_checker *c, const rg_js *orig, const rg_js *upd)
{
	if (c->skip_known && !rg_jd_stopped(c) && rg_js_has_content_id(orig->content_id) &&
		rg_js_has_content_id(upd->content_id))
		rg_pair_memo_keep(&known_pairs, c->pair_context | orig->content_id,
						  upd->content_id);
}

/* ----------------------------------------------------------------------
 * Strings, numbers, enums, const, not
 * ---------------------------------------------------------------------- */

/* See json_diff_internal.h */
void
rg_jd_compare_bound(jd_ctx *ctx, const char *attr, bool o_present, bool u_present,
					int cmp, const jd_type types[4])
{
	if (!o_present && !u_present)
		return;
	if (!o_present)
		rg_jd_add_at(ctx, attr, types[0]);
	else if (!u_present)
		rg_jd_add_at(ctx, attr, types[1]);
	else if (cmp < 0)
		rg_jd_add_at(ctx, attr, types[2]);
	else if (cmp > 0)
		rg_jd_add_at(ctx, attr, types[3]);
}

/* A count keyword (maxLength, minItems, ...) through rg_jd_compare_bound. */
void
rg_jd_compare_count(jd_ctx *ctx, const char *attr, rg_js_count o, rg_js_count u,
					const jd_type types[4])
{
	rg_jd_compare_bound(ctx, attr, o.present, u.present,
						(o.value > u.value) - (o.value < u.value), types);
}

/* A numeric limit, compared as doubles (Number.doubleValue()). */
static void
compare_limit(jd_ctx *ctx, const char *attr, rg_js_number o, rg_js_number u,
			  const jd_type types[4])
{
	rg_jd_compare_bound(ctx, attr, o.present, u.present,
						(o.value > u.value) - (o.value < u.value), types);
}

static const jd_type max_length_types[4] = JD_BOUND_TYPES(MAX_LENGTH);
static const jd_type min_length_types[4] = JD_BOUND_TYPES(MIN_LENGTH);
static const jd_type maximum_types[4] = JD_BOUND_TYPES(MAXIMUM);
static const jd_type minimum_types[4] = JD_BOUND_TYPES(MINIMUM);
static const jd_type exclusive_maximum_types[4] = JD_BOUND_TYPES(EXCLUSIVE_MAXIMUM);
static const jd_type exclusive_minimum_types[4] = JD_BOUND_TYPES(EXCLUSIVE_MINIMUM);

/* StringSchemaDiff */
static void
compare_string(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	rg_jd_compare_count(ctx, "maxLength", o->u.string.max_length, u->u.string.max_length,
						max_length_types);
	rg_jd_compare_count(ctx, "minLength", o->u.string.min_length, u->u.string.min_length,
						min_length_types);
	if (o->u.string.pattern == NULL && u->u.string.pattern != NULL)
		rg_jd_add_at(ctx, "pattern", JD_PATTERN_ADDED);
	else if (o->u.string.pattern != NULL && u->u.string.pattern == NULL)
		rg_jd_add_at(ctx, "pattern", JD_PATTERN_REMOVED);
	else if (o->u.string.pattern != NULL &&
			 strcmp(o->u.string.pattern, u->u.string.pattern) != 0)
		rg_jd_add_at(ctx, "pattern", JD_PATTERN_CHANGED);
}

/*
 * exclusiveMaximum (draft 6+ limits; draft 4's boolean flags are not
 * compared).  Confluent tests a decrease against the update's maximum,
 * not its exclusiveMaximum; we do the same where the update has a
 * maximum, and compare with the exclusiveMaximum where it has none
 * (Confluent would fail with a NullPointerException there).
 */
static void
compare_exclusive_maximum(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	rg_js_number oe = o->u.number.exclusive_maximum;
	rg_js_number ue = u->u.number.exclusive_maximum;
	double		bound = u->u.number.maximum.present ? u->u.number.maximum.value : ue.value;
	int			cmp = 0;

	if (oe.value < ue.value)
		cmp = -1;
	else if (oe.value != ue.value && oe.value > bound)
		cmp = 1;

	rg_jd_compare_bound(ctx, "exclusiveMaximum", oe.present, ue.present, cmp,
						exclusive_maximum_types);
}

/* multipleOf: a multiple of the old one narrows, a divisor widens. */
static void
compare_multiple_of(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	const rg_js_number *om = &o->u.number.multiple_of;
	const rg_js_number *um = &u->u.number.multiple_of;

	if (!om->present && !um->present)
		return;
	if (om->present && um->present && rg_jd_number_same(om, um))
		return;
	if (!om->present)
		rg_jd_add_at(ctx, "multipleOf", JD_MULTIPLE_OF_ADDED);
	else if (!um->present)
		rg_jd_add_at(ctx, "multipleOf", JD_MULTIPLE_OF_REMOVED);
	else if (rg_jd_multiple_of(um, om))
		rg_jd_add_at(ctx, "multipleOf", JD_MULTIPLE_OF_EXPANDED);
	else if (rg_jd_multiple_of(om, um))
		rg_jd_add_at(ctx, "multipleOf", JD_MULTIPLE_OF_REDUCED);
	else
		rg_jd_add_at(ctx, "multipleOf", JD_MULTIPLE_OF_CHANGED);
}

/* NumberSchemaDiff */
static void
compare_number(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	compare_limit(ctx, "maximum", o->u.number.maximum, u->u.number.maximum, maximum_types);
	compare_limit(ctx, "minimum", o->u.number.minimum, u->u.number.minimum, minimum_types);
	compare_exclusive_maximum(ctx, o, u);
	compare_limit(ctx, "exclusiveMinimum", o->u.number.exclusive_minimum,
				  u->u.number.exclusive_minimum, exclusive_minimum_types);
	compare_multiple_of(ctx, o, u);
	if (o->u.number.requires_integer != u->u.number.requires_integer)
		rg_jd_add(ctx, o->u.number.requires_integer ? JD_TYPE_EXTENDED : JD_TYPE_NARROWED);
}

/* EnumSchemaDiff: the two sets of values */
static void
compare_enum(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	const rg_js_value *const *ov = o->u.enumeration.values;
	const rg_js_value *const *uv = u->u.enumeration.values;
	int			on = o->u.enumeration.n_values;
	int			un = u->u.enumeration.n_values;
	bool		upd_has_all = rg_jd_values_contain_all(uv, un, ov, on);
	bool		orig_has_all = rg_jd_values_contain_all(ov, on, uv, un);

	if (upd_has_all && orig_has_all)
		return;
	if (upd_has_all)
		rg_jd_add_at(ctx, "enum", JD_ENUM_ARRAY_EXTENDED);
	else if (orig_has_all)
		rg_jd_add_at(ctx, "enum", JD_ENUM_ARRAY_NARROWED);
	else
		rg_jd_add_at(ctx, "enum", JD_ENUM_ARRAY_CHANGED);
}

/* ConstSchemaDiff */
static void
compare_const(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	if (!rg_jd_value_equal(o->u.constant.value, u->u.constant.value))
		rg_jd_add_at(ctx, "const", JD_ENUM_ARRAY_CHANGED);
}

/* NotSchemaDiff: the negated schemas compared the other way round */
static void
compare_not(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	jd_seg		seg;
	jd_ctx		sub;

	rg_jd_enter(ctx, &seg, "not");
	rg_jd_subcontext(&sub, ctx);
	rg_jd_compare(&sub, u->u.not.schema, o->u.not.schema);
	rg_jd_add(ctx, rg_jd_compatible(&sub) ? JD_NOT_TYPE_NARROWED : JD_NOT_TYPE_EXTENDED);
	rg_jd_leave(ctx, &seg);
}

/* ----------------------------------------------------------------------
 * Combined schemas
 * ---------------------------------------------------------------------- */

/* The subschemas of s without duplicates, in order; their count. */
static int
distinct_subschemas(jd_checker *c, const rg_js *s, const rg_js ***out)
{
	int			n = s->u.combined.n_subschemas;
	const rg_js **v = rg_jd_alloc(c, (size_t) (n + 1) * sizeof(*v));
	int			k = 0;
	int			i;
	int			j;

	if (v == NULL)
	{
		*out = NULL;
		return 0;
	}
	for (i = 0; i < n; i++)
	{
		const rg_js *x = s->u.combined.subschemas[i];

		if (x == NULL)
			continue;
		if (!rg_jd_spend(c, k + 1))
		{
			*out = NULL;
			return 0;
		}
		for (j = 0; j < k; j++)
			if (rg_jd_same_schema(v[j], x, 0))
				break;
		if (j == k)
			v[k++] = x;
	}
	*out = v;
	return k;
}

/* "allOf" / "anyOf" / "oneOf" */
static const char *
criterion_name(rg_js_criterion c)
{
	switch (c)
	{
		case RG_JS_ALL_OF:
			return "allOf";
		case RG_JS_ANY_OF:
			return "anyOf";
		default:
			return "oneOf";
	}
}

/*
 * CombinedSchemaDiff.compareCriteria: a change of criterion that keeps
 * what was valid valid extends the type, any other changes it.  Returns
 * the type added, or JD_N_TYPES when the criteria are the same.
 */
static jd_type
compare_criteria(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	rg_js_criterion oc = o->u.combined.criterion;
	rg_js_criterion uc = u->u.combined.criterion;
	bool		o_single = o->u.combined.n_subschemas == 1;
	bool		u_single = u->u.combined.n_subschemas == 1;
	jd_type		type;

	if (oc == uc)
		return JD_N_TYPES;
	if (uc == RG_JS_ANY_OF || (o_single && u_single) ||
		(o_single && uc == RG_JS_ONE_OF) || (u_single && oc == RG_JS_ALL_OF))
		type = JD_COMBINED_TYPE_EXTENDED;
	else
		type = JD_COMBINED_TYPE_CHANGED;
	rg_jd_add(ctx, type);
	return type;
}

/* Kuhn's augmenting path from left vertex i; true if it found one. */
static bool
augment(jd_checker *c, int i, const bool *edge, int nu, bool *seen, int *owner,
		int depth)
{
	int			j;

	if (rg_too_deep(depth) || !rg_jd_spend(c, nu))
		return false;
	for (j = 0; j < nu; j++)
	{
		if (!edge[(size_t) i * nu + j] || seen[j])
			continue;
		seen[j] = true;
		if (owner[j] < 0 || augment(c, owner[j], edge, nu, seen, owner, depth + 1))
		{
			owner[j] = i;
			return true;
		}
	}
	return false;
}

/*
 * The subschema pairs that compare compatibly, as a bipartite graph; add
 * the differences of a maximum matching of it (original's order), and
 * COMBINED_TYPE_SUBSCHEMAS_CHANGED when it leaves a subschema of the
 * smaller side unmatched.
 */
static void
match_subschemas(jd_ctx *ctx, rg_js_criterion oc, const rg_js **os, int no,
				 const rg_js **us, int nu)
{
	jd_checker *c = ctx->c;
	bool	   *edge = rg_jd_alloc(c, ((size_t) no * nu + 1) * sizeof(bool));
	jd_ctx	   *subs = rg_jd_alloc(c, ((size_t) no * nu + 1) * sizeof(jd_ctx));
	bool	   *seen = rg_jd_alloc(c, (size_t) (nu + 1) * sizeof(bool));
	int		   *owner = rg_jd_alloc(c, (size_t) (nu + 1) * sizeof(int));
	char		name[JD_INDEX_SEGMENT_SIZE];
	int			matched = 0;
	int			i;
	int			j;

	if (edge == NULL || subs == NULL || seen == NULL || owner == NULL)
		return;
	for (i = 0; i < no && !rg_jd_stopped(c); i++)
	{
		jd_seg		seg;

		rg_jd_enter(ctx, &seg, rg_jd_index_segment(name, criterion_name(oc), i));
		for (j = 0; j < nu; j++)
		{
			jd_ctx	   *sub = &subs[(size_t) i * nu + j];

			rg_jd_subcontext(sub, ctx);
			rg_jd_compare(sub, os[i], us[j]);
			edge[(size_t) i * nu + j] = rg_jd_compatible(sub);
		}
		rg_jd_leave(ctx, &seg);
	}
	for (j = 0; j < nu; j++)
		owner[j] = -1;
	for (i = 0; i < no && !rg_jd_stopped(c); i++)
	{
		memset(seen, 0, (size_t) nu * sizeof(bool));
		if (augment(c, i, edge, nu, seen, owner, 0))
			matched++;
	}
	if (rg_jd_stopped(c))
		return;
	for (i = 0; i < no; i++)
		for (j = 0; j < nu; j++)
			if (owner[j] == i)
				rg_jd_append(ctx, &subs[(size_t) i * nu + j]);
	if (matched < (no < nu ? no : nu))
		rg_jd_add(ctx, JD_COMBINED_TYPE_SUBSCHEMAS_CHANGED);
}

/* CombinedSchemaDiff */
static void
compare_combined(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	const rg_js **os;
	const rg_js **us;
	int			no;
	int			nu;

	if (compare_criteria(ctx, o, u) == JD_COMBINED_TYPE_CHANGED)
		return;
	no = distinct_subschemas(ctx->c, o, &os);
	nu = distinct_subschemas(ctx->c, u, &us);
	if (os == NULL || us == NULL)
		return;
	if (no < nu)
		rg_jd_add(ctx, u->u.combined.criterion == RG_JS_ALL_OF ?
				  JD_PRODUCT_TYPE_EXTENDED : JD_SUM_TYPE_EXTENDED);
	else if (no > nu)
		rg_jd_add(ctx, o->u.combined.criterion == RG_JS_ALL_OF ?
				  JD_PRODUCT_TYPE_NARROWED : JD_SUM_TYPE_NARROWED);
	match_subschemas(ctx, o->u.combined.criterion, os, no, us, nu);
}

/* ----------------------------------------------------------------------
 * SchemaDiff.compare
 * ---------------------------------------------------------------------- */

/* A ReferenceSchema's target (one level, as normalizeSchema does). */
static const rg_js *
deref(const rg_js *s)
{
	if (s->kind == RG_JS_REF && s->u.ref.target != NULL)
		return s->u.ref.target;
	return s;
}

/* Does s carry "connect.type": "bytes" among its unknown keywords? */
static bool
is_connect_bytes(const rg_js *s)
{
	int			i;

	for (i = 0; i < s->n_unprocessed; i++)
		if (strcmp(s->unprocessed_names[i], "connect.type") == 0)
			return s->unprocessed_values[i] != NULL &&
				s->unprocessed_values[i]->text != NULL &&
				strcmp(s->unprocessed_values[i]->text, "\"bytes\"") == 0;
	return false;
}

/*
 * Try the special cases of a combined schema on one side only: a
 * singleton is compared with its subschema, an anyOf/oneOf update with
 * the first subschema the original fits (SUM_TYPE_EXTENDED), an allOf
 * original by the first subschema that fits the update
 * (PRODUCT_TYPE_NARROWED).  True when one applied.
 */
static bool
compare_one_side_combined(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	bool		o_comb = o->kind == RG_JS_COMBINED;
	bool		u_comb = u->kind == RG_JS_COMBINED;
	const rg_js *comb = o_comb ? o : u;
	int			n = comb->u.combined.n_subschemas;
	int			i;

	if (o_comb == u_comb)
		return false;
	if (!o_comb && u->u.combined.criterion == RG_JS_ALL_OF && n != 1)
		return false;
	if (o_comb && o->u.combined.criterion != RG_JS_ALL_OF && n != 1)
		return false;
	for (i = 0; i < n; i++)
	{
		const rg_js *s = comb->u.combined.subschemas[i];
		jd_ctx		sub;

		rg_jd_subcontext(&sub, ctx);
		if (o_comb)
			rg_jd_compare(&sub, s, u);
		else
			rg_jd_compare(&sub, o, s);
		if (rg_jd_compatible(&sub))
		{
			rg_jd_append(ctx, &sub);
			if (n != 1)
				rg_jd_add(ctx, o_comb ? JD_PRODUCT_TYPE_NARROWED : JD_SUM_TYPE_EXTENDED);
			return true;
		}
	}
	return false;
}

/* The $id a side's draft lets the diff see (2019-09+ models carry none). */
static const char *
visible_id(rg_js_draft draft, const rg_js *s)
{
	return draft >= RG_JS_DRAFT_2019_09 ? NULL : s->id;
}

/* ID, TITLE, DESCRIPTION and DEFAULT changes. */
static void
compare_annotations(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	if (!rg_jd_str_equal(visible_id(ctx->c->orig_draft, o), visible_id(ctx->c->upd_draft, u)))
		rg_jd_add(ctx, JD_ID_CHANGED);
	if (!rg_jd_str_equal(o->title, u->title))
		rg_jd_add(ctx, JD_TITLE_CHANGED);
	if (!rg_jd_str_equal(o->description, u->description))
		rg_jd_add(ctx, JD_DESCRIPTION_CHANGED);
	if (!rg_jd_value_equal(o->default_value, u->default_value))
		rg_jd_add(ctx, JD_DEFAULT_CHANGED);
}

/* The comparison of a pair, at the pair's root. */
static void
compare_types(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	rg_check_interrupts();
	if (compare_one_side_combined(ctx, o, u))
		return;
	if (o->kind != u->kind)
	{
		if (jd_is_false(o) || jd_is_empty(u))
			return;
		if (is_connect_bytes(o) && is_connect_bytes(u))
			return;
		rg_jd_add(ctx, JD_TYPE_CHANGED);
		return;
	}
	compare_annotations(ctx, o, u);
	switch (o->kind)
	{
		case RG_JS_STRING:
			compare_string(ctx, o, u);
			break;
		case RG_JS_NUMBER:
			compare_number(ctx, o, u);
			break;
		case RG_JS_CONST:
			compare_const(ctx, o, u);
			break;
		case RG_JS_ENUM:
			compare_enum(ctx, o, u);
			break;
		case RG_JS_COMBINED:
			compare_combined(ctx, o, u);
			break;
		case RG_JS_NOT:
			compare_not(ctx, o, u);
			break;
		case RG_JS_OBJECT:
			rg_jd_compare_object(ctx, o, u);
			break;
		case RG_JS_ARRAY:
			rg_jd_compare_array(ctx, o, u);
			break;
		default:
			break;
	}
}

/*
 * Does the comparison of a pair of s and a leaf never compare another
 * pair?  Then the pair needs no memo: comparing it again gives the same
 * differences, and it is never part of a cycle.
 */
static bool
is_leaf(const rg_js *s)
{
	switch (s->kind)
	{
		case RG_JS_COMBINED:
		case RG_JS_OBJECT:
		case RG_JS_ARRAY:
		case RG_JS_NOT:
			return false;
		default:
			return true;
	}
}

/* See json_diff_internal.h */
void
rg_jd_compare(jd_ctx *ctx, const rg_js *orig, const rg_js *upd)
{
	jd_checker *c = ctx->c;
	const jd_list *rel;

	if (orig == NULL && upd == NULL)
		return;
	if (orig == NULL)
	{
		rg_jd_add(ctx, JD_SCHEMA_ADDED);
		return;
	}
	if (upd == NULL)
	{
		rg_jd_add(ctx, JD_SCHEMA_REMOVED);
		return;
	}
	if (rg_jd_stopped(c) || !rg_jd_spend(c, 1))
		return;
	if (rg_too_deep(c->depth))
	{
		c->failure = "schema nested too deeply";
		return;
	}
	orig = deref(orig);
	upd = deref(upd);
	if (rg_jd_pair_known(c, orig->content_id, upd->content_id))
		return;
	c->depth++;
	if (is_leaf(orig) && is_leaf(upd))
	{
		uint64_t	before = ctx->diffs.n_incompatible;

		/* no cycle can pass through the pair: compared in place */
		compare_types(ctx, orig, upd);
		c->depth--;
		if (before != UINT64_MAX && ctx->diffs.n_incompatible == before)
			pair_keep(c, orig, upd);
		return;
	}
	rel = compare_memoized(c, orig, upd);
	c->depth--;
	if (rel->n_incompatible == 0)
		pair_keep(c, orig, upd);
	append_rebased(ctx, rel);
}

/* ----------------------------------------------------------------------
 * Entry points
 * ---------------------------------------------------------------------- */

/* The model of a JSON schema, NULL if s is not one. */
static const rg_js_parsed *
model_of(const rg_schema *s)
{
	if (s == NULL || s->model == NULL)
		return NULL;
	return rg_json_model(s);
}

/* Copy into the seed every pair of this pass that came out incompatible. */
static bool
grow_seed(jd_checker *c, int *added)
{
	int			i;

	*added = 0;
	for (i = 0; i < c->memo.cap; i++)
	{
		jd_memo_entry *e = c->memo.slots[i];

		if (e == NULL || e->state != JD_DONE || e->diffs.n_incompatible == 0)
			continue;
		if (memo_get(&c->seed, e->orig, e->upd) != NULL)
		{
			memo_get(&c->seed, e->orig, e->upd)->diffs = e->diffs;
			continue;
		}
		if (!memo_put(c, &c->seed, e))
			return false;
		(*added)++;
	}
	return true;
}

/*
 * SchemaDiff.compare(original, update) into diffs: passes until no cycle
 * was assumed compatible, or the pairs found incompatible stop growing.
 * False (with c->oom, c->too_large or c->failure) when it could not
 * finish.
 */
static bool
run_passes(jd_checker *c, const rg_js *orig, const rg_js *upd, jd_list *diffs)
{
	int			pass;

	for (pass = 0; pass < JD_MAX_PASSES; pass++)
	{
		jd_ctx		ctx;
		int			added;

		memset(&ctx, 0, sizeof(ctx));
		ctx.c = c;
		memset(&c->memo, 0, sizeof(c->memo));
		c->optimism_used = false;
		rg_jd_compare(&ctx, orig, upd);
		if (rg_jd_stopped(c))
			return false;
		*diffs = ctx.diffs;
		if (!c->optimism_used)
			return true;
		if (!grow_seed(c, &added))
		{
			if (!c->too_large)
				c->oom = true;
			return false;
		}
		if (added == 0)
			return true;
	}
	return true;
}

/* Report why the diff could not run, as Confluent reports an exception. */
static void
push_failure(rg_strlist *out, const char *why)
{
	rg_buf		buf;

	rg_buf_init(&buf);
	rg_buf_puts(&buf, JD_UNEXPECTED);
	rg_buf_puts(&buf, why);
	if (buf.oom || !rg_strlist_push(out, buf.data))
		rg_strlist_push(out, JD_UNEXPECTED "out of memory");
	rg_buf_free(&buf);
}

/* Why a stopped diff stopped, as its message says it. */
static void
push_stop(const jd_checker *c, rg_strlist *out)
{
	if (c->too_large)
		rg_strlist_push(out, RG_COMPAT_TOO_LARGE);
	else
		push_failure(out, c->oom ? "out of memory" : c->failure);
}

/*
 * Run the diff of original against update into a fresh checker (its
 * arena then owned by the caller); false with a message in out when it
 * cannot run or finish.  With skip_known (only incompatible differences
 * count), a pair of roots found compatible before gives no difference
 * and no arena.
 */
static bool
run_diff(jd_checker *c, const rg_schema *original, const rg_schema *update,
		 bool lenient, bool skip_known, jd_list *diffs, rg_strlist *out)
{
	const rg_js_parsed *om = model_of(original);
	const rg_js_parsed *um = model_of(update);

	memset(c, 0, sizeof(*c));
	memset(diffs, 0, sizeof(*diffs));
	if (om == NULL || um == NULL || om->root == NULL || um->root == NULL)
	{
		rg_strlist_push(out, JD_UNEXPECTED "schema not parsed");
		return false;
	}
	c->lenient = lenient;
	c->orig_draft = om->draft;
	c->upd_draft = um->draft;
	c->pair_context = pair_context(lenient, om->draft, um->draft);
	c->skip_known = skip_known && !known_pairs_off;
	if (rg_jd_pair_known(c, deref(om->root)->content_id, deref(um->root)->content_id))
		return true;
	c->arena = rg_arena_create();
	if (c->arena == NULL)
	{
		rg_strlist_push(out, JD_UNEXPECTED "out of memory");
		return false;
	}
	if (!run_passes(c, om->root, um->root, diffs))
	{
		push_stop(c, out);
		rg_arena_destroy(c->arena);
		c->arena = NULL;
		return false;
	}
	return true;
}

/* ----------------------------------------------------------------------
 * Listing the differences
 * ---------------------------------------------------------------------- */

/* the walk over a list whose nested lists are shared */
typedef struct jd_walk
{
	jd_checker *c;
	bool		incompatible_only;
	const char **prefixes;		/* of the shared lists entered, outermost
								 * first */
	int			n_prefixes;
	int			limit;			/* differences to list */
	int			listed;
	rg_strlist *out;
	bool		with_type;		/* "TYPE #/path" rather than the message */
	bool		failed;			/* out of memory */
} jd_walk;

/*
 * The full path of a difference: each shared list's path, then the
 * difference's own, joined as path_render joins a prefix and the rest
 * (a "/" only before a non-empty rest).
 */
static char *
walk_path(jd_walk *w, const char *path)
{
	size_t		len = strlen(path);
	size_t		n;
	char	   *out;
	char	   *p;
	int			i;

	for (i = 0; i < w->n_prefixes; i++)
		if (w->prefixes[i] != NULL)
			len += strlen(w->prefixes[i]) + 1;
	if ((out = rg_malloc_noerror(len + 3)) == NULL)
		return NULL;
	p = out + len + 2;
	*p = '\0';
	n = strlen(path);
	p -= n;
	memcpy(p, path, n);
	for (i = w->n_prefixes - 1; i >= 0; i--)
	{
		if (w->prefixes[i] == NULL)
			continue;
		if (*p != '\0')
			*--p = '/';
		n = strlen(w->prefixes[i]);
		p -= n;
		memcpy(p, w->prefixes[i], n);
	}
	*--p = '/';
	*--p = '#';
	if (p != out)
		memmove(out, p, strlen(p) + 1);
	return out;
}

/* List one difference; false when the walk is over. */
static bool
walk_emit(jd_walk *w, jd_type type, const char *rel)
{
	char	   *path = walk_path(w, rel);
	bool		ok;

	if (path == NULL)
	{
		w->failed = true;
		return false;
	}
	if (w->with_type)
		ok = rg_strlist_pushf(w->out, "%s %s", rg_jd_types[type].name, path);
	else
	{
		rg_buf		msg;

		rg_buf_init(&msg);
		rg_jd_format_message(&msg, type, path);
		ok = !msg.oom && rg_strlist_push(w->out, msg.data);
		rg_buf_free(&msg);
	}
	rg_free(path);
	if (!ok)
		w->failed = true;
	return ok && ++w->listed < w->limit;
}

/*
 * List the differences of items in order, shared lists in place (those
 * without an incompatible difference skipped when only those are
 * listed); false when the walk is over (the limit reached, or stopped).
 */
static bool
walk_list(jd_walk *w, const jd_diff *items, int n, int depth)
{
	int			i;

	if (rg_too_deep(depth) || depth >= RG_MAX_RECURSION)
	{
		w->c->failure = "schema nested too deeply";
		return false;
	}
	for (i = 0; i < n; i++)
	{
		const jd_diff *d = &items[i];

		if (!rg_jd_spend(w->c, 1))
			return false;
		if (d->type != JD_N_TYPES)
		{
			if (w->incompatible_only && rg_jd_type_compatible(d->type, w->c->lenient))
				continue;
			if (!walk_emit(w, d->type, d->path))
				return false;
			continue;
		}
		if (w->incompatible_only && d->sub_incompatible == 0)
			continue;
		w->prefixes[w->n_prefixes++] = d->path;
		if (!walk_list(w, d->sub_items, d->sub_n, depth + 1))
			return false;
		w->n_prefixes--;
	}
	return true;
}

/*
 * List the differences of a finished diff into out: at most
 * RG_COMPAT_MAX_MESSAGES, then one line saying how many more there are.
 * False (with the reason in out) when the listing could not finish.
 */
static bool
list_differences(jd_checker *c, const jd_list *diffs, bool incompatible_only,
				 bool with_type, rg_strlist *out)
{
	jd_walk		w;
	uint64_t	total;

	memset(&w, 0, sizeof(w));
	w.c = c;
	w.incompatible_only = incompatible_only;
	w.with_type = with_type;
	w.limit = RG_COMPAT_MAX_MESSAGES;
	w.out = out;
	w.prefixes = rg_jd_alloc(c, sizeof(char *) * (RG_MAX_RECURSION + 1));
	if (w.prefixes != NULL)
		(void) walk_list(&w, diffs->items, diffs->n, 0);
	if (w.failed)
		c->oom = true;
	if (rg_jd_stopped(c))
	{
		push_stop(c, out);
		return false;
	}
	total = incompatible_only ? diffs->n_incompatible : 0;
	if (w.listed == w.limit && total > (uint64_t) w.limit)
		rg_compat_push_more(out, total == UINT64_MAX ? UINT64_MAX :
							total - (uint64_t) w.limit);
	return true;
}

/*
 * Can reader read what writer wrote, under the policy?  One message per
 * incompatible difference of SchemaDiff.compare(writer, reader), its
 * first "%s" the reader's role, the second the writer's.
 */
static bool
can_read(const rg_schema *reader, const rg_schema *writer, bool lenient, rg_strlist *out)
{
	jd_checker	c;
	jd_list		diffs;
	bool		ok;

	if (!run_diff(&c, writer, reader, lenient, true, &diffs, out))
		return false;
	ok = diffs.n_incompatible == 0;
	if (!ok)
		(void) list_differences(&c, &diffs, true, false, out);
	rg_arena_destroy(c.arena);
	return ok;
}

/* rg_format_json's can_read: Confluent's default STRICT policy. */
bool
rg_json_can_read(const rg_schema *reader, const rg_schema *writer, rg_strlist *out)
{
	return can_read(reader, writer, false, out);
}

/* The same under compatibilityPolicy LENIENT. */
bool
rg_json_can_read_lenient(const rg_schema *reader, const rg_schema *writer, rg_strlist *out)
{
	return can_read(reader, writer, true, out);
}

/*
 * Every difference, compatible ones included, as "TYPE #/path" in
 * Confluent's order (SchemaDiff.compare(original, update)), at most
 * RG_COMPAT_MAX_MESSAGES of them; for tests and diagnostics.  False when
 * the diff could not run (the reason is then the last line).
 */
extern bool rg_json_differences(const rg_schema *original, const rg_schema *update,
								bool lenient, rg_strlist *out);

/* See the declaration above. */
bool
rg_json_differences(const rg_schema *original, const rg_schema *update,
					bool lenient, rg_strlist *out)
{
	jd_checker	c;
	jd_list		diffs;
	bool		ok;

	if (!run_diff(&c, original, update, lenient, false, &diffs, out))
		return false;
	ok = list_differences(&c, &diffs, false, true, out);
	rg_arena_destroy(c.arena);
	return ok;
}
