/*-------------------------------------------------------------------------
 *
 * json_diff_object.c
 *	  The JSON Schema diff of objects and arrays (Confluent's
 *	  ObjectSchemaDiff and ArraySchemaDiff).
 *
 * A property or tuple item present on one side only is judged by the
 * content model of the other side: open (anything else is allowed),
 * partially open (patternProperties, a schema for additionalProperties or
 * additionalItems, or for unevaluatedProperties/unevaluatedItems where the
 * additional keyword is absent: the member must fit that schema) or
 * closed.
 *
 * Order: Confluent walks property names (and dependency names) through
 * java.util.HashMap/HashSet: `required` in the order of the original's
 * property map, properties and dependencies in the order of
 * new HashSet<>(original's names) + addAll(update's names).  That order
 * is reproduced here from String.hashCode() and HashMap's table growth
 * (JDK 19+ sizing of new HashSet<>(collection)), each map filled in
 * document order; tree bins (nine or more names in one bucket of a table
 * of 64 or more) are not modelled.  Pattern properties are tried in
 * document order (Confluent keys them by java.util.regex.Pattern, whose
 * hash is the object's identity, so its order is arbitrary), and a
 * pattern is searched anywhere in the name (Matcher.find()) by the
 * registry's one bounded matcher (json_match.c, which payload validation
 * uses too).
 *
 *-------------------------------------------------------------------------
 */
#include "json_diff_internal.h"
#include "json_internal.h"

#include <stdio.h>
#include <string.h>

/* ----------------------------------------------------------------------
 * java.util.HashMap iteration order
 * ---------------------------------------------------------------------- */

/* One UTF-8 sequence at *p as a code point; advances *p. */
static uint32_t
utf8_next(const unsigned char **p)
{
	const unsigned char *s = *p;
	uint32_t	cp;
	int			len;

	if (s[0] < 0x80)
		cp = s[0], len = 1;
	else if ((s[0] & 0xE0) == 0xC0 && s[1])
		cp = ((uint32_t) (s[0] & 0x1F) << 6) | (s[1] & 0x3F), len = 2;
	else if ((s[0] & 0xF0) == 0xE0 && s[1] && s[2])
		cp = ((uint32_t) (s[0] & 0x0F) << 12) | ((uint32_t) (s[1] & 0x3F) << 6) |
			(s[2] & 0x3F), len = 3;
	else if ((s[0] & 0xF8) == 0xF0 && s[1] && s[2] && s[3])
		cp = ((uint32_t) (s[0] & 0x07) << 18) | ((uint32_t) (s[1] & 0x3F) << 12) |
			((uint32_t) (s[2] & 0x3F) << 6) | (s[3] & 0x3F), len = 4;
	else
		cp = 0xFFFD, len = 1;
	*p = s + len;
	return cp;
}

/* HashMap.hash(key) of a String: hashCode() over UTF-16, high half folded in */
static uint32_t
java_key_hash(const char *name)
{
	const unsigned char *p = (const unsigned char *) name;
	uint32_t	h = 0;

	while (*p)
	{
		uint32_t	cp;

		if (*p < 0x80)
		{
			h = h * 31 + *p++;
			continue;
		}
		cp = utf8_next(&p);

		if (cp < 0x10000)
			h = h * 31 + cp;
		else
		{
			cp -= 0x10000;
			h = h * 31 + (0xD800 + (cp >> 10));
			h = h * 31 + (0xDC00 + (cp & 0x3FF));
		}
	}
	return h ^ (h >> 16);
}

/* HashMap.tableSizeFor */
static uint32_t
table_size_for(uint64_t want)
{
	uint32_t	n = 1;

	while (n < want && n < (1u << 30))
		n <<= 1;
	return n;
}

/* The first table of new HashSet<>(collection of n): HashMap.newHashMap(max(n, 12)). */
static uint32_t
hashset_copy_cap(int n)
{
	uint64_t	m = n > 12 ? (uint64_t) n : 12;

	return table_size_for((m * 4 + 2) / 3);
}

/*
 * The table size a HashMap ends with after n puts of distinct keys
 * (hashes h, in order) into a table of cap buckets: it doubles when the
 * size passes three quarters of it, and when a bucket of a table smaller
 * than 64 already holds eight keys (treeifyBin resizes instead).  False
 * on out of memory.
 */
static bool
hashmap_final_cap(rg_arena *arena, const uint32_t *h, int n, uint32_t *capp)
{
	uint32_t	cap = *capp;
	uint16_t   *fill = NULL;
	uint32_t	fill_cap = 0;
	int			i;

	for (i = 0; i < n; i++)
	{
		uint32_t	b;
		bool		grow_bin = false;

		if (cap < 64 && fill_cap != cap)
		{
			int			j;

			fill = rg_arena_alloc(arena, cap * sizeof(*fill));
			if (fill == NULL)
				return false;
			fill_cap = cap;
			for (j = 0; j < i; j++)
				fill[h[j] & (cap - 1)]++;
		}
		if (cap < 64)
		{
			b = h[i] & (cap - 1);
			grow_bin = fill[b] >= 8;
			fill[b]++;
		}
		if (grow_bin)
			cap <<= 1;
		if ((uint32_t) (i + 1) > cap / 4 * 3)
			cap <<= 1;
	}
	*capp = cap;
	return true;
}

/*
 * The iteration order of a HashMap filled with keys of hashes h[0..n-1]
 * in that order, starting with cap buckets: order[k] = the insertion
 * index of the k-th key visited (by bucket, then by insertion: a
 * counting sort over the final table).  False on out of memory.
 */
static bool
hashmap_order(rg_arena *arena, const uint32_t *h, int n, uint32_t cap, int *order)
{
	int		   *start;
	uint32_t	b;
	int			i;

	if (n <= 1)
	{
		if (n == 1)
			order[0] = 0;
		return true;
	}
	if (!hashmap_final_cap(arena, h, n, &cap))
		return false;
	start = rg_arena_alloc(arena, ((size_t) cap + 1) * sizeof(int));
	if (start == NULL)
		return false;
	for (i = 0; i < n; i++)
		start[(h[i] & (cap - 1)) + 1]++;
	for (b = 0; b < cap; b++)
		start[b + 1] += start[b];
	for (i = 0; i < n; i++)
		order[start[h[i] & (cap - 1)]++] = i;
	return true;
}

/* strcmp(a, b) == 0, inline: names are short */
static inline bool
same_name(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b)
		a++, b++;
	return *a == *b;
}

/* The index of name (hash h) in k, -1 if absent; the first one if twice. */
static int
names_find(const jd_names *k, const char *name, uint32_t h)
{
	uint32_t	j;

	if (k->cap == 0)
		return -1;
	for (j = h & (k->cap - 1); k->slot[j] != 0; j = (j + 1) & (k->cap - 1))
	{
		int			i = k->slot[j] - 1;

		if (k->hash[i] == h && same_name(k->v[i], name))
			return i;
	}
	return -1;
}

/* Is name in s's required list? */
static bool
is_required(const rg_js *s, const char *name)
{
	int			i;

	for (i = 0; i < s->u.object.n_required; i++)
		if (strcmp(s->u.object.required[i], name) == 0)
			return true;
	return false;
}

/*
 * Index the n names of v into k, in arena; with required_of (an object)
 * also whether each is in its required list.  False on out of memory.
 */
static bool
names_fill(rg_arena *arena, jd_names *k, const char **v, int n, const rg_js *required_of)
{
	int			i;

	memset(k, 0, sizeof(*k));
	k->v = v;
	k->n = n;
	k->cap = table_size_for((uint64_t) n * 2 + 2);
	k->hash = rg_arena_alloc(arena, (size_t) (n + 1) * sizeof(uint32_t));
	k->slot = rg_arena_alloc(arena, k->cap * sizeof(int));
	k->order = rg_arena_alloc(arena, (size_t) (n + 1) * sizeof(int));
	if (k->hash == NULL || k->slot == NULL || k->order == NULL)
		return false;
	for (i = 0; i < n; i++)
	{
		uint32_t	j;

		k->hash[i] = java_key_hash(v[i]);
		for (j = k->hash[i] & (k->cap - 1); k->slot[j] != 0; j = (j + 1) & (k->cap - 1))
			;
		k->slot[j] = i + 1;
	}
	k->unique = true;
	for (i = 0; i < n && k->unique; i++)
		k->unique = names_find(k, v[i], k->hash[i]) == i;
	if (required_of != NULL)
	{
		k->required = rg_arena_alloc(arena, (size_t) (n + 1) * sizeof(bool));
		if (k->required == NULL)
			return false;
		for (i = 0; i < n; i++)
			k->required[i] = is_required(required_of, v[i]);
	}
	return hashmap_order(arena, k->hash, n, 16, k->order);
}

/* Index the n names of v in the checker's arena; false on out of memory. */
static bool
names_build(jd_checker *c, jd_names *k, const char **v, int n)
{
	if (!names_fill(c->arena, k, v, n, NULL))
	{
		c->oom = true;
		return false;
	}
	return true;
}

/* The names of n members, in arena (NULL on out of memory). */
static const char **
member_names(rg_arena *arena, const rg_js_member *m, int n)
{
	const char **v = rg_arena_alloc(arena, (size_t) (n + 1) * sizeof(*v));
	int			i;

	if (v == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		v[i] = m[i].name;
	return v;
}

/* Index the names of n members; false on out of memory. */
static bool
members_index(jd_checker *c, jd_names *k, const rg_js_member *m, int n)
{
	const char **v = member_names(c->arena, m, n);

	if (v == NULL)
	{
		c->oom = true;
		return false;
	}
	return names_build(c, k, v, n);
}

/*
 * The names of n members copied side by side into arena (what the diff
 * reads of them then sits together), NULL on out of memory.
 */
static const char **
member_names_packed(rg_arena *arena, const rg_js_member *m, int n)
{
	const char **v = rg_arena_alloc(arena, (size_t) (n + 1) * sizeof(*v));
	size_t		total = 0;
	char	   *p;
	int			i;

	if (v == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		total += strlen(m[i].name) + 1;
	p = rg_arena_alloc(arena, total + 1);
	if (p == NULL)
		return NULL;
	for (i = 0; i < n; i++)
	{
		size_t		len = strlen(m[i].name) + 1;

		memcpy(p, m[i].name, len);
		v[i] = p;
		p += len;
	}
	return v;
}

/* The property index of object s in arena, NULL on out of memory. */
static jd_names *
property_index_new(rg_arena *arena, const rg_js *s)
{
	jd_names   *k = rg_arena_alloc(arena, sizeof(*k));
	const char **v = member_names_packed(arena, s->u.object.properties,
										 s->u.object.n_properties);

	if (k == NULL || v == NULL ||
		!names_fill(arena, k, v, s->u.object.n_properties, s))
		return NULL;
	return k;
}

/* See json_diff_internal.h */
bool
rg_jd_index_object(rg_arena *arena, rg_js *s)
{
	s->u.object.property_index = property_index_new(arena, s);
	return s->u.object.property_index != NULL;
}

/* The property index of object s: the loader's, else built for this diff. */
static const jd_names *
property_index(jd_checker *c, const rg_js *s)
{
	const jd_names *k = s->u.object.property_index;

	if (k == NULL && (k = property_index_new(c->arena, s)) == NULL)
		c->oom = true;
	return k;
}

/* one name of the union of two lists: its index on each side, -1 if absent */
typedef struct jd_pair_index
{
	int			a;
	int			b;
} jd_pair_index;

/* the union of two name lists */
struct jd_union
{
	jd_pair_index *keys;		/* in the order Confluent visits them */
	int			n;
	int		   *b_of_a;			/* per index of a: its name's index in b, -1 */
};

/*
 * The names of a and b in the order Confluent visits them:
 * new HashSet<>(a's map keys) then addAll(b's map keys).  False on out of
 * memory.
 */
static bool
names_union(jd_checker *c, const jd_names *a, const jd_names *b, struct jd_union *out)
{
	int			total = a->n + b->n;
	jd_pair_index *seq = rg_jd_alloc(c, (size_t) (total + 1) * sizeof(*seq));
	jd_pair_index *res = rg_jd_alloc(c, (size_t) (total + 1) * sizeof(*res));
	uint32_t   *h = rg_jd_alloc(c, (size_t) (total + 1) * sizeof(uint32_t));
	int		   *order = rg_jd_alloc(c, (size_t) (total + 1) * sizeof(int));
	int		   *b_of_a = rg_jd_alloc(c, (size_t) (a->n + 1) * sizeof(int));
	bool	   *in_a = rg_jd_alloc(c, (size_t) (b->n + 1) * sizeof(bool));
	int			n = 0;
	int			i;

	memset(out, 0, sizeof(*out));
	if (seq == NULL || res == NULL || h == NULL || order == NULL || b_of_a == NULL ||
		in_a == NULL)
	{
		c->oom = true;
		return false;
	}
	for (i = 0; i < a->n; i++)
	{
		int			x = a->order[i];
		int			y = names_find(b, a->v[x], a->hash[x]);

		b_of_a[x] = y;
		if (y >= 0)
			in_a[y] = true;
		seq[n].a = x;
		seq[n].b = y;
		h[n++] = a->hash[x];
	}
	for (i = 0; i < b->n; i++)
	{
		int			y = b->order[i];

		/* a name of b is in a when a name of a found it (b has it once) */
		if (b->unique ? in_a[y] : names_find(a, b->v[y], b->hash[y]) >= 0)
			continue;
		seq[n].a = -1;
		seq[n].b = y;
		h[n++] = b->hash[y];
	}
	if (!hashmap_order(c->arena, h, n, hashset_copy_cap(a->n), order))
	{
		c->oom = true;
		return false;
	}
	for (i = 0; i < n; i++)
		res[i] = seq[order[i]];
	out->keys = res;
	out->n = n;
	out->b_of_a = b_of_a;
	return true;
}

/* ----------------------------------------------------------------------
 * Content models
 * ---------------------------------------------------------------------- */

/*
 * A patternProperties key compiled for one diff.  NULL: it uses what the
 * matcher does not have (a back reference, a lookaround), and it is taken
 * to match nothing, as before the matcher was ours.
 */
typedef struct jd_pattern
{
	const char *source;
	js_regex   *re;
	struct jd_pattern *next;
} jd_pattern;

/* buckets of the compiled patterns */
#define JD_PATTERN_SLOTS 64

/* The compiled form of a pattern, compiled once per diff; NULL if it has none. */
static js_regex *
compiled_pattern(jd_checker *c, const char *source)
{
	uintptr_t	h = ((uintptr_t) source >> 4) % JD_PATTERN_SLOTS;
	jd_pattern *p;
	const char *error = NULL;

	if (c->patterns == NULL &&
		(c->patterns = rg_jd_alloc(c, sizeof(jd_pattern *) * JD_PATTERN_SLOTS)) == NULL)
		return NULL;
	for (p = c->patterns[h]; p != NULL; p = p->next)
		if (p->source == source)
			return p->re;
	if ((p = rg_jd_alloc(c, sizeof(jd_pattern))) == NULL)
		return NULL;
	/* its parse is linear in its length; its program is bounded */
	if (!rg_jd_spend(c, (long) strlen(source) + 1))
		return NULL;
	p->source = source;
	p->re = js_regex_compile(c->arena, source, &error);
	if (p->re == NULL && error == js_regex_too_large)
	{
		/* too large to match within bounds: the check is */
		c->too_large = true;
		return NULL;
	}
	if (p->re != NULL)
	{
		c->bytes += js_regex_bytes(p->re);
		if (c->bytes > JD_MAX_BYTES)
		{
			c->too_large = true;
			return NULL;
		}
	}
	p->next = c->patterns[h];
	c->patterns[h] = p;
	return p->re;
}

/* See json_diff_internal.h */
bool
rg_jd_pattern_finds(jd_checker *c, const char *pattern, const char *name)
{
	js_regex   *re;
	long		left = JD_MAX_STEPS - c->steps; /* what the diff has left */
	long		budget = left;
	int			r;

	if (rg_jd_stopped(c) || (re = compiled_pattern(c, pattern)) == NULL)
		return false;
	r = js_regex_search(re, name, strlen(name), &budget);
	if (r == -2)
		c->oom = true;
	/* the steps it took count against the diff's budget */
	if (!rg_jd_spend(c, left - budget) || r < 0)
	{
		if (r == -1)
			c->too_large = true;
		return false;
	}
	return r == 1;
}

/*
 * What an object or an array allows beside the members it names:
 * patternProperties (objects only), additionalProperties/additionalItems
 * (permits = not false; schema = its schema if it is one), and
 * unevaluatedProperties/unevaluatedItems (NULL when absent).
 */
typedef struct jd_content
{
	bool		permits;
	const rg_js *additional;
	const rg_js *unevaluated;
	const rg_js_member *patterns;
	int			n_patterns;
} jd_content;

/* The content model of an object. */
static jd_content
object_content(const rg_js *s)
{
	jd_content	m;

	m.permits = s->u.object.permits_additional || s->u.object.additional_schema != NULL;
	m.additional = s->u.object.additional_schema;
	m.unevaluated = s->u.object.unevaluated;
	m.patterns = s->u.object.pattern_properties;
	m.n_patterns = s->u.object.n_pattern_properties;
	return m;
}

/* The content model of an array (its extra items). */
static jd_content
array_content(const rg_js *s)
{
	jd_content	m;

	m.permits = s->u.array.permits_additional || s->u.array.additional_items != NULL;
	m.additional = s->u.array.additional_items;
	m.unevaluated = s->u.array.unevaluated;
	m.patterns = NULL;
	m.n_patterns = 0;
	return m;
}

/*
 * Open: the additional keyword not false and without a schema, no
 * patternProperties, the unevaluated keyword absent or true.
 */
static bool
content_is_open(const jd_content *m)
{
	return m->permits && m->additional == NULL && m->n_patterns == 0 &&
		(m->unevaluated == NULL || jd_is_empty(m->unevaluated));
}

/*
 * The schema a partially open content model gives a member (key: a
 * property name, NULL for an item), or NULL: the first pattern that
 * matches, else the additional schema, else the unevaluated schema where
 * the additional keyword is absent.
 */
static const rg_js *
content_partial(jd_checker *c, const jd_content *m, const char *key)
{
	const rg_js *u = m->unevaluated;
	int			i;

	for (i = 0; key != NULL && i < m->n_patterns; i++)
		if (rg_jd_pattern_finds(c, m->patterns[i].name, key))
			return m->patterns[i].schema;
	if (m->additional != NULL)
		return m->additional;
	if (m->permits && u != NULL && !jd_is_false(u) && !jd_is_empty(u))
		return u;
	return NULL;
}

/* the types of a member present on the original's side only */
typedef struct jd_removed_types
{
	jd_type		open;
	jd_type		covered;
	jd_type		not_covered;
	jd_type		false_closed;
	jd_type		closed;
} jd_removed_types;

static const jd_removed_types property_removed_types = {
	JD_PROPERTY_REMOVED_FROM_OPEN_CONTENT_MODEL,
	JD_PROPERTY_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL,
	JD_PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL,
	JD_PROPERTY_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL,
	JD_PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL
};
static const jd_removed_types item_removed_types = {
	JD_ITEM_REMOVED_FROM_OPEN_CONTENT_MODEL,
	JD_ITEM_REMOVED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL,
	JD_ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL,
	JD_ITEM_WITH_FALSE_REMOVED_FROM_CLOSED_CONTENT_MODEL,
	JD_ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL
};

/*
 * Compare a member with the schema a partially open content model gives
 * it (in that direction), add the differences, then `covered` or
 * `not_covered` as they came out.
 */
static void
compare_with_partial(jd_ctx *ctx, const rg_js *orig, const rg_js *upd,
					 jd_type covered, jd_type not_covered)
{
	jd_ctx		sub;

	rg_jd_subcontext(&sub, ctx);
	rg_jd_compare(&sub, orig, upd);
	rg_jd_append(ctx, &sub);
	rg_jd_add(ctx, rg_jd_compatible(&sub) ? covered : not_covered);
}

/*
 * A member only the original has (a property, key its name; a tuple
 * item, key NULL), judged by the update's content model.
 */
static void
member_removed(jd_ctx *ctx, const rg_js *member, const jd_content *upd, const char *key,
			   const jd_removed_types *t)
{
	const rg_js *partial;

	if (content_is_open(upd))
	{
		rg_jd_add(ctx, t->open);
		return;
	}
	partial = content_partial(ctx->c, upd, key);
	if (partial != NULL)
		compare_with_partial(ctx, member, partial, t->covered, t->not_covered);
	else
		rg_jd_add(ctx, jd_is_false(member) ? t->false_closed : t->closed);
}

/* ----------------------------------------------------------------------
 * Objects
 * ---------------------------------------------------------------------- */

/*
 * `required` of the properties on both sides, in the original's map order
 * (b_of_a: per property of the original, the update's one of its name).
 */
static void
compare_required(jd_ctx *ctx, const rg_js *o, const rg_js *u, const jd_names *on,
				 const jd_names *un, const int *b_of_a)
{
	jd_seg		seg;
	int			i;

	/* nothing required on either side: nothing changed */
	if (o->u.object.n_required == 0 && u->u.object.n_required == 0)
		return;
	rg_jd_enter(ctx, &seg, "required");
	for (i = 0; i < on->n; i++)
	{
		int			x = on->order[i];
		int			y = b_of_a[x];
		bool		was;
		bool		is;

		if (y < 0)
			continue;
		was = on->required[x];
		is = un->required[y];
		if (was && !is)
			rg_jd_add_at(ctx, on->v[x], JD_REQUIRED_ATTRIBUTE_REMOVED);
		else if (!was && is)
			rg_jd_add_at(ctx, on->v[x],
						 u->u.object.properties[y].schema->default_value != NULL ?
						 JD_REQUIRED_ATTRIBUTE_WITH_DEFAULT_ADDED : JD_REQUIRED_ATTRIBUTE_ADDED);
	}
	rg_jd_leave(ctx, &seg);
}

/*
 * A property only the update has (required there or not), judged by the
 * original's content model.
 */
static void
property_added(jd_ctx *ctx, const rg_js *o, const rg_js *prop, bool required, const char *key)
{
	bool		with_default = prop->default_value != NULL;
	jd_content	orig = object_content(o);
	const rg_js *partial;

	if (content_is_open(&orig))
	{
		if (jd_is_empty(prop))
			rg_jd_add(ctx, JD_PROPERTY_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL);
		else if (required)
			rg_jd_add(ctx, with_default ?
					  JD_REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL :
					  JD_REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL);
		else
			rg_jd_add(ctx, JD_OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL);
		return;
	}
	partial = content_partial(ctx->c, &orig, key);
	if (partial != NULL)
		compare_with_partial(ctx, partial, prop,
							 JD_PROPERTY_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL,
							 JD_PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL);
	if (required)
		rg_jd_add(ctx, with_default ?
				  JD_REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_UNOPEN_CONTENT_MODEL :
				  JD_REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL);
	else
		rg_jd_add(ctx, JD_OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL);
}

/*
 * One property, by its index on each side (-1 where absent): a removed one
 * judged by the update's content model, an added one by the original's,
 * two compared.
 */
static void
compare_property(jd_ctx *ctx, const rg_js *o, const rg_js *u, const jd_names *on,
				 const jd_names *un, int a, int b, const jd_content *upd_content)
{
	jd_seg		key_seg;
	const rg_js *op;
	const rg_js *up;
	const char *key;

	rg_check_interrupts();
	/* a pair found compatible before, by the ids beside the names */
	if (a >= 0 && b >= 0 && on->content_ids != NULL && un->content_ids != NULL &&
		rg_jd_pair_known(ctx->c, on->content_ids[a], un->content_ids[b]))
		return;
	op = a >= 0 ? o->u.object.properties[a].schema : NULL;
	up = b >= 0 ? u->u.object.properties[b].schema : NULL;
	key = a >= 0 ? on->v[a] : un->v[b];
	rg_jd_enter(ctx, &key_seg, key);
	if (up == NULL)
		member_removed(ctx, op, upd_content, key, &property_removed_types);
	else if (op == NULL)
		property_added(ctx, o, up, un->required[b], key);
	else
		rg_jd_compare(ctx, op, up);
	rg_jd_leave(ctx, &key_seg);
}

/* `properties`, in Confluent's HashSet order (keys: their union). */
static void
compare_properties(jd_ctx *ctx, const rg_js *o, const rg_js *u,
				   const jd_names *on, const jd_names *un, const struct jd_union *keys)
{
	jd_content	upd_content = object_content(u);
	jd_seg		seg;
	int			i;

	rg_jd_enter(ctx, &seg, "properties");
	for (i = 0; i < keys->n; i++)
		compare_property(ctx, o, u, on, un, keys->keys[i].a, keys->keys[i].b, &upd_content);
	rg_jd_leave(ctx, &seg);
}

/*
 * `required` and `properties` in document order, for can_read, where the
 * order of differences matters only when one is incompatible: true (the
 * differences added to ctx) when none is; false, and ctx's list as it
 * was, when one is, for the caller to compare again in Confluent's order.
 * Only for two objects that reach no $ref (json_content.c): nothing below
 * them is on a cycle, so the pairs compared here come out the same in
 * either order.
 */
static bool
compare_members_unordered(jd_ctx *ctx, const rg_js *o, const rg_js *u,
						  const jd_names *on, const jd_names *un)
{
	jd_checker *c = ctx->c;
	jd_content	upd_content = object_content(u);
	int		   *b_of_a = rg_jd_alloc(c, (size_t) (on->n + 1) * sizeof(int));
	bool	   *in_a = rg_jd_alloc(c, (size_t) (un->n + 1) * sizeof(bool));
	int			n_before = ctx->diffs.n;
	uint64_t	incompatible_before = ctx->diffs.n_incompatible;
	jd_seg		seg;
	int			i;

	if (b_of_a == NULL || in_a == NULL || incompatible_before == UINT64_MAX)
		return false;
	for (i = 0; i < on->n; i++)
	{
		b_of_a[i] = names_find(un, on->v[i], on->hash[i]);
		if (b_of_a[i] >= 0)
			in_a[b_of_a[i]] = true;
	}
	compare_required(ctx, o, u, on, un, b_of_a);
	rg_jd_enter(ctx, &seg, "properties");
	for (i = 0; i < on->n; i++)
		compare_property(ctx, o, u, on, un, i, b_of_a[i], &upd_content);
	for (i = 0; i < un->n; i++)
		/* as names_union: a name of b is in a when a name of a found it */
		if (!(un->unique ? in_a[i] : names_find(on, un->v[i], un->hash[i]) >= 0))
			compare_property(ctx, o, u, on, un, -1, i, &upd_content);
	rg_jd_leave(ctx, &seg);
	if (!rg_jd_stopped(c) && ctx->diffs.n_incompatible == incompatible_before)
		return true;
	/* the list only grows: what this added goes */
	ctx->diffs.n = n_before;
	ctx->diffs.n_incompatible = incompatible_before;
	return false;
}

/* The property dependency of one name, both sides present. */
static void
compare_prop_dependency(jd_ctx *ctx, const rg_js_prop_dependency *od,
						const rg_js_prop_dependency *ud)
{
	bool		upd_has_all = rg_jd_names_contain_all(ud->requires, ud->n_requires,
													  od->requires, od->n_requires);
	bool		orig_has_all = rg_jd_names_contain_all(od->requires, od->n_requires,
													   ud->requires, ud->n_requires);

	if (upd_has_all && orig_has_all)
		return;
	if (upd_has_all)
		rg_jd_add(ctx, JD_DEPENDENCY_ARRAY_EXTENDED);
	else if (orig_has_all)
		rg_jd_add(ctx, JD_DEPENDENCY_ARRAY_NARROWED);
	else
		rg_jd_add(ctx, JD_DEPENDENCY_ARRAY_CHANGED);
}

/* Property dependencies ("dependencies": {"a": ["b"]}), in HashSet order. */
static void
compare_prop_dependencies(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	jd_checker *c = ctx->c;
	const rg_js_prop_dependency *od = o->u.object.property_dependencies;
	const rg_js_prop_dependency *ud = u->u.object.property_dependencies;
	int			no = o->u.object.n_property_dependencies;
	int			nu = u->u.object.n_property_dependencies;
	const char **ov = rg_jd_alloc(c, (size_t) (no + 1) * sizeof(*ov));
	const char **uv = rg_jd_alloc(c, (size_t) (nu + 1) * sizeof(*uv));
	jd_names	on;
	jd_names	un;
	struct jd_union keys;
	int			i;

	if (ov == NULL || uv == NULL)
	{
		c->oom = true;
		return;
	}
	for (i = 0; i < no; i++)
		ov[i] = od[i].name;
	for (i = 0; i < nu; i++)
		uv[i] = ud[i].name;
	if (!names_build(c, &on, ov, no) || !names_build(c, &un, uv, nu) ||
		!names_union(c, &on, &un, &keys))
		return;
	for (i = 0; i < keys.n; i++)
	{
		int			a = keys.keys[i].a;
		int			b = keys.keys[i].b;
		jd_seg		seg;

		rg_jd_enter(ctx, &seg, a >= 0 ? ov[a] : uv[b]);
		if (b < 0)
			rg_jd_add(ctx, JD_DEPENDENCY_ARRAY_REMOVED);
		else if (a < 0)
			rg_jd_add(ctx, JD_DEPENDENCY_ARRAY_ADDED);
		else
			compare_prop_dependency(ctx, &od[a], &ud[b]);
		rg_jd_leave(ctx, &seg);
	}
}

/* Schema dependencies ("dependencies": {"a": {...}}), in HashSet order. */
static void
compare_schema_dependencies(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	jd_checker *c = ctx->c;
	const rg_js_member *od = o->u.object.schema_dependencies;
	const rg_js_member *ud = u->u.object.schema_dependencies;
	jd_names	on;
	jd_names	un;
	struct jd_union keys;
	int			i;

	if (!members_index(c, &on, od, o->u.object.n_schema_dependencies) ||
		!members_index(c, &un, ud, u->u.object.n_schema_dependencies) ||
		!names_union(c, &on, &un, &keys))
		return;
	for (i = 0; i < keys.n; i++)
	{
		int			a = keys.keys[i].a;
		int			b = keys.keys[i].b;
		jd_seg		seg;

		rg_jd_enter(ctx, &seg, a >= 0 ? on.v[a] : un.v[b]);
		if (b < 0)
			rg_jd_add(ctx, JD_DEPENDENCY_SCHEMA_REMOVED);
		else if (a < 0)
			rg_jd_add(ctx, JD_DEPENDENCY_SCHEMA_ADDED);
		else
			rg_jd_compare(ctx, od[a].schema, ud[b].schema);
		rg_jd_leave(ctx, &seg);
	}
}

/* `dependencies`: property dependencies, then schema dependencies. */
static void
compare_dependencies(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	jd_seg		seg;

	if (o->u.object.n_property_dependencies == 0 && u->u.object.n_property_dependencies == 0 &&
		o->u.object.n_schema_dependencies == 0 && u->u.object.n_schema_dependencies == 0)
		return;
	rg_jd_enter(ctx, &seg, "dependencies");
	compare_prop_dependencies(ctx, o, u);
	compare_schema_dependencies(ctx, o, u);
	rg_jd_leave(ctx, &seg);
}

/*
 * additionalProperties / additionalItems: allowing extra members is
 * ADDED, forbidding them REMOVED, a schema where there was none NARROWED,
 * none where there was one EXTENDED; two schemas are compared.
 */
static void
compare_additional(jd_ctx *ctx, const char *attr, jd_content o, jd_content u,
				   const jd_type types[4])
{
	jd_seg		seg;

	rg_jd_enter(ctx, &seg, attr);
	if (o.permits != u.permits)
		rg_jd_add(ctx, u.permits ? types[0] : types[1]);
	else if (o.additional == NULL && u.additional != NULL)
		rg_jd_add(ctx, types[3]);
	else if (u.additional == NULL && o.additional != NULL)
		rg_jd_add(ctx, types[2]);
	else
		rg_jd_compare(ctx, o.additional, u.additional);
	rg_jd_leave(ctx, &seg);
}

/*
 * unevaluatedProperties / unevaluatedItems (absent = NULL): false where
 * it was absent or anything else is REMOVED, another schema where it was
 * absent or true is NARROWED; the reverse changes are ADDED and EXTENDED;
 * two other schemas are compared.  types: ADDED, REMOVED, EXTENDED,
 * NARROWED.
 */
static void
compare_unevaluated(jd_ctx *ctx, const char *attr, const rg_js *o, const rg_js *u,
					const jd_type types[4])
{
	jd_seg		seg;

	if (o == NULL && u == NULL)
		return;
	rg_jd_enter(ctx, &seg, attr);
	if (o == NULL)
		rg_jd_add(ctx, jd_is_false(u) ? types[1] : types[3]);
	else if (u == NULL)
		rg_jd_add(ctx, jd_is_false(o) ? types[0] : types[2]);
	else if (jd_is_false(o) && !jd_is_false(u))
		rg_jd_add(ctx, types[0]);
	else if (!jd_is_false(o) && jd_is_false(u))
		rg_jd_add(ctx, types[1]);
	else if (jd_is_empty(o) && !jd_is_empty(u))
		rg_jd_add(ctx, types[3]);
	else if (!jd_is_empty(o) && jd_is_empty(u))
		rg_jd_add(ctx, types[2]);
	else
		rg_jd_compare(ctx, o, u);
	rg_jd_leave(ctx, &seg);
}

static const jd_type additional_properties_types[4] = JD_WIDTH_TYPES(ADDITIONAL_PROPERTIES);
static const jd_type unevaluated_properties_types[4] = JD_WIDTH_TYPES(UNEVALUATED_PROPERTIES);
static const jd_type max_properties_types[4] = JD_BOUND_TYPES(MAX_PROPERTIES);
static const jd_type min_properties_types[4] = JD_BOUND_TYPES(MIN_PROPERTIES);

/* See json_diff_internal.h */
void
rg_jd_compare_object(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	const jd_names *on = property_index(ctx->c, o);
	const jd_names *un = property_index(ctx->c, u);
	struct jd_union keys;

	if (on == NULL || un == NULL)
		return;
	if (!ctx->c->skip_known || !rg_js_without_refs(o->content_id) ||
		!rg_js_without_refs(u->content_id) ||
		!compare_members_unordered(ctx, o, u, on, un))
	{
		if (rg_jd_stopped(ctx->c) || !names_union(ctx->c, on, un, &keys))
			return;
		compare_required(ctx, o, u, on, un, keys.b_of_a);
		compare_properties(ctx, o, u, on, un, &keys);
	}
	compare_dependencies(ctx, o, u);
	compare_additional(ctx, "additionalProperties", object_content(o), object_content(u),
					   additional_properties_types);
	compare_unevaluated(ctx, "unevaluatedProperties", o->u.object.unevaluated,
						u->u.object.unevaluated, unevaluated_properties_types);
	rg_jd_compare_count(ctx, "maxProperties", o->u.object.max_properties,
						u->u.object.max_properties, max_properties_types);
	rg_jd_compare_count(ctx, "minProperties", o->u.object.min_properties,
						u->u.object.min_properties, min_properties_types);
}

/* ----------------------------------------------------------------------
 * Arrays
 * ---------------------------------------------------------------------- */

/* A tuple item only the update has, judged by the original's content model. */
static void
item_added(jd_ctx *ctx, const rg_js *o, const rg_js *item)
{
	jd_content	orig = array_content(o);
	const rg_js *partial;

	if (content_is_open(&orig))
	{
		rg_jd_add(ctx, jd_is_empty(item) ?
				  JD_ITEM_WITH_EMPTY_SCHEMA_ADDED_TO_OPEN_CONTENT_MODEL :
				  JD_ITEM_ADDED_TO_OPEN_CONTENT_MODEL);
		return;
	}
	partial = content_partial(ctx->c, &orig, NULL);
	if (partial != NULL)
		compare_with_partial(ctx, partial, item,
							 JD_ITEM_ADDED_IS_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL,
							 JD_ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL);
	else
		rg_jd_add(ctx, JD_ITEM_ADDED_TO_CLOSED_CONTENT_MODEL);
}

/* Tuple items ("items": [...] / prefixItems) pairwise, then the extra ones. */
static void
compare_tuple(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	int			no = o->u.array.n_item_schemas;
	int			nu = u->u.array.n_item_schemas;
	jd_content	upd_content = array_content(u);
	int			i;

	for (i = 0; i < no || i < nu; i++)
	{
		char		name[JD_INDEX_SEGMENT_SIZE];
		jd_seg		seg;

		rg_check_interrupts();
		rg_jd_enter(ctx, &seg, rg_jd_index_segment(name, "items", i));
		if (i < no && i < nu)
			rg_jd_compare(ctx, o->u.array.item_schemas[i], u->u.array.item_schemas[i]);
		else if (i < no)
			member_removed(ctx, o->u.array.item_schemas[i], &upd_content, NULL,
						   &item_removed_types);
		else
			item_added(ctx, o, u->u.array.item_schemas[i]);
		rg_jd_leave(ctx, &seg);
	}
}

static const jd_type additional_items_types[4] = JD_WIDTH_TYPES(ADDITIONAL_ITEMS);
static const jd_type unevaluated_items_types[4] = JD_WIDTH_TYPES(UNEVALUATED_ITEMS);
static const jd_type max_items_types[4] = JD_BOUND_TYPES(MAX_ITEMS);
static const jd_type min_items_types[4] = JD_BOUND_TYPES(MIN_ITEMS);
static const jd_type max_contains_types[4] = JD_BOUND_TYPES(MAX_CONTAINS);
static const jd_type min_contains_types[4] = JD_BOUND_TYPES(MIN_CONTAINS);

/* See json_diff_internal.h */
void
rg_jd_compare_array(jd_ctx *ctx, const rg_js *o, const rg_js *u)
{
	jd_seg		seg;

	rg_jd_enter(ctx, &seg, "items");
	rg_jd_compare(ctx, o->u.array.all_items, u->u.array.all_items);
	rg_jd_leave(ctx, &seg);
	compare_tuple(ctx, o, u);
	compare_additional(ctx, "additionalItems", array_content(o), array_content(u),
					   additional_items_types);
	compare_unevaluated(ctx, "unevaluatedItems", o->u.array.unevaluated,
						u->u.array.unevaluated, unevaluated_items_types);
	rg_jd_compare_count(ctx, "maxItems", o->u.array.max_items, u->u.array.max_items, max_items_types);
	rg_jd_compare_count(ctx, "minItems", o->u.array.min_items, u->u.array.min_items, min_items_types);
	if (o->u.array.unique_items != u->u.array.unique_items)
		rg_jd_add_at(ctx, "uniqueItems",
					 o->u.array.unique_items ? JD_UNIQUE_ITEMS_REMOVED : JD_UNIQUE_ITEMS_ADDED);
	rg_jd_compare_count(ctx, "maxContains", o->u.array.max_contains, u->u.array.max_contains,
						max_contains_types);
	rg_jd_compare_count(ctx, "minContains", o->u.array.min_contains, u->u.array.min_contains,
						min_contains_types);
}
