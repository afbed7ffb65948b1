/*-------------------------------------------------------------------------
 *
 * avro_compat.c
 *	  Can an Avro reader schema read data written with a writer schema?
 *
 * Confluent answers this with Avro Java 1.11.4's reader/writer
 * compatibility check and turns each incompatibility it finds into one
 * message.  Clients compare those messages, so this file reproduces that
 * check rule for rule, quirks included (see doc/design.md#avro-rules):
 *
 *	- results are memoized per (reader node, writer node) identity pair, and
 *	  a pair met again while it is still being computed counts as
 *	  compatible; a memoized result keeps the locations of its first
 *	  computation;
 *	- locations are JSON pointers built from a stack of tokens; some nested
 *	  checks start a fresh stack (the "two-argument" form), so their
 *	  locations restart at "/" (Avro 1.11's writer-union quirk);
 *	- a reader field whose name and aliases match more than one writer
 *	  field aborts the whole check (Avro throws; Confluent reports the
 *	  exception text as the only message).
 *
 * All the bookkeeping lives in a scratch arena that dies with the check;
 * only the final messages are copied into the caller's list.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro.h"
#include "rg_pair_memo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* deeper nesting than this is reported instead of risking the C stack */
#define AC_MAX_DEPTH RG_MAX_RECURSION

/*
 * More work than this (pairs compared plus incompatibilities copied into
 * results) is reported instead of exhausting memory: Avro's algorithm
 * compares every branch of a writer union with every branch of the
 * reader's, and an incompatible pair carries the incompatibilities of
 * everything beneath it, so a union of records each holding the previous
 * one costs the cube of its size.  Real schemas stay far below.
 */
#define AC_MAX_WORK 50000000
/* the same for the bookkeeping's memory */
#define AC_MAX_BYTES (256 * 1024 * 1024)

#define AC_UNEXPECTED "Unexpected exception during compatibility check: "

typedef enum ac_kind
{
	AC_READER_FIELD_MISSING_DEFAULT_VALUE,
	AC_TYPE_MISMATCH,
	AC_NAME_MISMATCH,
	AC_FIXED_SIZE_MISMATCH,
	AC_MISSING_ENUM_SYMBOLS,
	AC_MISSING_UNION_BRANCH
} ac_kind;

/* One incompatibility: immutable once made, shared between results. */
typedef struct ac_incompat
{
	ac_kind		kind;
	const char *message;
	const char *location;		/* rendered JSON pointer */
} ac_incompat;

/*
 * The outcome of one (reader, writer) check: the ordered incompatibilities
 * found beneath it.  Compatible exactly when n == 0, as in Avro, where an
 * incompatible result always carries at least one incompatibility.
 */
typedef struct ac_result
{
	const ac_incompat **items;
	int			n;
	int			cap;
} ac_result;

/* The location stack: token 0 is the root, never rendered. */
typedef struct ac_stack
{
	const char **tok;
	int			n;
	int			cap;
} ac_stack;

typedef struct ac_memo_entry
{
	const rg_avro_schema *reader;
	const rg_avro_schema *writer;
	ac_result  *result;			/* NULL while the pair is in progress */
	bool		used;
} ac_memo_entry;

typedef struct ac_checker
{
	rg_arena   *arena;
	ac_memo_entry *memo;
	size_t		memo_cap;		/* a power of two */
	size_t		memo_used;
	int			depth;
	long		work;			/* against AC_MAX_WORK */
	size_t		bytes;			/* allocated, against AC_MAX_BYTES */
	bool		oom;
	const char *failure;		/* set when the check is aborted */
	long		scanned;		/* writer fields compared by scans */
	/* name index of the writer record last searched (see writer_field_named) */
	const rg_avro_schema *fidx_record;
	int		   *fidx_slots;		/* field position + 1, 0 = empty */
	size_t	   *fidx_hashes;	/* each slot's name_hash, compared first */
	size_t		fidx_cap;		/* a power of two */
} ac_checker;

static ac_result *get_compat(ac_checker *c, const char *token,
							 const rg_avro_schema *r, const rg_avro_schema *w,
							 ac_stack *loc);

static const ac_result ac_compatible = {NULL, 0, 0};

/*
 * The pairs of shared nodes (avro_nodes.c: plain primitives and unions of
 * two) found compatible so far in this process (rg_pair_memo.h).  Such a
 * pair holds no named type and cannot recurse, so whether its reader reads
 * its writer is a fact about the two nodes, the same in every check: a
 * field of type ["null","string"] on both sides is compared once per
 * process, not once per field and version.  Only compatible verdicts are
 * kept: an incompatible one is computed again for its locations.  A pair
 * is keyed by the nodes' indexes (the first + 1, never 0); there are fewer
 * such pairs than the set holds, so it is never emptied.
 */
static rg_pair_memo shared_pairs;

_Static_assert(RG_AVRO_N_SHARED * RG_AVRO_N_SHARED < RG_PAIR_MEMO_SLOTS / 4 * 3,
			   "every pair of shared Avro nodes fits in the pair set");

/* Is the pair one of shared nodes found compatible before? */
static bool
shared_pair_known(const rg_avro_schema *r, const rg_avro_schema *w)
{
	int			ri;
	int			wi;

	if (!r->shared || !w->shared)
		return false;
	ri = rg_avro_shared_index(r);
	wi = rg_avro_shared_index(w);
	return ri >= 0 && wi >= 0 &&
		rg_pair_memo_known(&shared_pairs, (uint64_t) ri + 1, (uint64_t) wi);
}

/* Keep the verdict on a pair of shared nodes when it is compatible. */
static void
shared_pair_keep(const rg_avro_schema *r, const rg_avro_schema *w, const ac_result *res)
{
	int			ri;
	int			wi;

	if (!r->shared || !w->shared || res == NULL || res->n != 0)
		return;
	ri = rg_avro_shared_index(r);
	wi = rg_avro_shared_index(w);
	if (ri >= 0 && wi >= 0)
		rg_pair_memo_keep(&shared_pairs, (uint64_t) ri + 1, (uint64_t) wi);
}

/*
 * Avro Java's Schema.Type constant names: its messages print the enum
 * with toString(), which is the upper-case constant name.
 */
static const char *
type_upper(rg_avro_type t)
{
	switch (t)
	{
		case RG_AVRO_NULL:
			return "NULL";
		case RG_AVRO_BOOLEAN:
			return "BOOLEAN";
		case RG_AVRO_INT:
			return "INT";
		case RG_AVRO_LONG:
			return "LONG";
		case RG_AVRO_FLOAT:
			return "FLOAT";
		case RG_AVRO_DOUBLE:
			return "DOUBLE";
		case RG_AVRO_BYTES:
			return "BYTES";
		case RG_AVRO_STRING:
			return "STRING";
		case RG_AVRO_RECORD:
			return "RECORD";
		case RG_AVRO_ENUM:
			return "ENUM";
		case RG_AVRO_ARRAY:
			return "ARRAY";
		case RG_AVRO_MAP:
			return "MAP";
		case RG_AVRO_UNION:
			return "UNION";
		case RG_AVRO_FIXED:
			return "FIXED";
	}
	return "UNKNOWN";
}

/* Zeroed memory from the checker's arena, counted against AC_MAX_BYTES. */
static void *
ac_alloc(ac_checker *c, size_t size)
{
	void	   *p;

	if (c->oom)
		return NULL;
	c->bytes += size;
	if (c->bytes > AC_MAX_BYTES)
	{
		if (c->failure == NULL)
			c->failure = "schema comparison too large";
		return NULL;
	}
	p = rg_arena_alloc(c->arena, size);
	if (p == NULL)
		c->oom = true;
	return p;
}

/* A copy of s in the checker's arena (NULL, oom set, on failure). */
static char *
ac_strdup(ac_checker *c, const char *s)
{
	char	   *p;

	if (c->oom)
		return NULL;
	p = rg_arena_strdup(c->arena, s);
	if (p == NULL)
		c->oom = true;
	return p;
}

/* Take ownership of an rg_buf's text by copying it to the arena. */
static char *
ac_take_buf(ac_checker *c, rg_buf *buf)
{
	char	   *s = NULL;

	if (buf->oom)
		c->oom = true;
	else
		s = ac_strdup(c, buf->data ? buf->data : "");
	rg_buf_free(buf);
	return s;
}

/* Has the check run out of memory or been aborted? */
static bool
stopped(ac_checker *c)
{
	return c->oom || c->failure != NULL;
}

/*
 * Count one unit of work; false (the check stopped with its failure set)
 * past the budget.  Also where a long check gives a pending cancel its
 * chance, at its first unit and every 64th.
 */
static bool
count_work(ac_checker *c)
{
	if ((c->work & 63) == 0)
		rg_check_interrupts();
	if (++c->work > AC_MAX_WORK)
	{
		c->failure = "schema comparison too large";
		return false;
	}
	return true;
}

/* ---------- results ---------- */

/* An empty result: no incompatibility yet. */
static ac_result *
result_new(ac_checker *c)
{
	return ac_alloc(c, sizeof(ac_result));
}

/* Append an incompatibility to a result (counted as work). */
static void
result_add(ac_checker *c, ac_result *res, const ac_incompat *inc)
{
	if (res == NULL || inc == NULL || stopped(c))
		return;
	if (!count_work(c))
		return;
	if (res->n == res->cap)
	{
		int			cap = res->cap ? res->cap * 2 : 4;
		const ac_incompat **items = ac_alloc(c, sizeof(*items) * cap);

		if (items == NULL)
			return;
		if (res->n)
			memcpy(items, res->items, sizeof(*items) * res->n);
		res->items = items;
		res->cap = cap;
	}
	res->items[res->n++] = inc;
}

/* Avro's mergedWith: the other result's incompatibilities, in order, after ours. */
static void
result_merge(ac_checker *c, ac_result *res, const ac_result *other)
{
	int			i;

	if (other == NULL)
		return;
	for (i = 0; i < other->n; i++)
		result_add(c, res, other->items[i]);
}

/* ---------- location stack ---------- */

/* Push a location token (a copy) onto a location stack. */
static void
stack_push(ac_checker *c, ac_stack *s, const char *tok)
{
	if (c->oom)
		return;
	if (s->n == s->cap)
	{
		int			cap = s->cap ? s->cap * 2 : 16;
		const char **tok2 = ac_alloc(c, sizeof(*tok2) * cap);

		if (tok2 == NULL)
			return;
		if (s->n)
			memcpy(tok2, s->tok, sizeof(*tok2) * s->n);
		s->tok = tok2;
		s->cap = cap;
	}
	s->tok[s->n++] = tok;
}

/* Pop the innermost location token. */
static void
stack_pop(ac_stack *s)
{
	if (s->n > 0)
		s->n--;
}

/*
 * A location token for a field or branch position.  Small positions come
 * from a table filled once, so a check over a wide record does not format
 * and copy a number per field it visits.
 */
#define AC_INDEX_TOKENS 1024
static char ac_index_tokens[AC_INDEX_TOKENS][8];
static bool ac_index_tokens_ready = false;

/* Push a union branch or array position as its decimal token. */
static void
stack_push_index(ac_checker *c, ac_stack *s, int i)
{
	char		num[16];

	if (i >= 0 && i < AC_INDEX_TOKENS)
	{
		if (!ac_index_tokens_ready)
		{
			int			k;

			for (k = 0; k < AC_INDEX_TOKENS; k++)
				snprintf(ac_index_tokens[k], sizeof(ac_index_tokens[k]), "%d", k);
			ac_index_tokens_ready = true;
		}
		stack_push(c, s, ac_index_tokens[i]);
		return;
	}
	snprintf(num, sizeof(num), "%d", i);
	stack_push(c, s, ac_strdup(c, num));
}

/*
 * Render the stack as Avro's Incompatibility.getLocation() does: a JSON
 * pointer of every token but the root, "~" and "/" escaped, and "/" alone
 * for the root itself.
 */
static char *
stack_render(ac_checker *c, const ac_stack *s)
{
	rg_buf		buf;
	int			i;

	rg_buf_init(&buf);
	rg_buf_putc(&buf, '/');
	for (i = 1; i < s->n; i++)
	{
		const char *p;

		if (i > 1)
			rg_buf_putc(&buf, '/');
		for (p = s->tok[i] ? s->tok[i] : ""; *p; p++)
		{
			if (*p == '~')
				rg_buf_puts(&buf, "~0");
			else if (*p == '/')
				rg_buf_puts(&buf, "~1");
			else
				rg_buf_putc(&buf, *p);
		}
	}
	return ac_take_buf(c, &buf);
}

/* An incompatibility located at the current top of the stack. */
static const ac_incompat *
incompat_new(ac_checker *c, ac_kind kind, const char *message,
			 const ac_stack *loc)
{
	ac_incompat *inc = ac_alloc(c, sizeof(ac_incompat));

	if (inc == NULL)
		return NULL;
	inc->kind = kind;
	inc->message = ac_strdup(c, message);
	inc->location = stack_render(c, loc);
	if (c->oom)
		return NULL;
	return inc;
}

/* ---------- memo ---------- */

/* Mix the two schema pointers of a memo key. */
static size_t
memo_hash(const rg_avro_schema *r, const rg_avro_schema *w)
{
	uint64_t	h = (uint64_t) (uintptr_t) r * UINT64_C(0x9E3779B97F4A7C15);

	h ^= (uint64_t) (uintptr_t) w + UINT64_C(0x7F4A7C159E3779B9) + (h << 6) + (h >> 2);
	h ^= h >> 29;
	h *= UINT64_C(0xBF58476D1CE4E5B9);
	h ^= h >> 32;
	return (size_t) h;
}

/* The memo slot of (r, w): its entry, or the empty slot it would take. */
static ac_memo_entry *
memo_slot(ac_memo_entry *tab, size_t cap,
		  const rg_avro_schema *r, const rg_avro_schema *w)
{
	size_t		i = memo_hash(r, w) & (cap - 1);

	while (tab[i].used && !(tab[i].reader == r && tab[i].writer == w))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

/* Grow the open-addressing table to keep it at most half full. */
static bool
memo_reserve(ac_checker *c)
{
	size_t		cap;
	ac_memo_entry *tab;
	size_t		i;

	if (c->memo != NULL && (c->memo_used + 1) * 2 <= c->memo_cap)
		return true;
	cap = c->memo_cap ? c->memo_cap * 2 : 16;
	tab = ac_alloc(c, sizeof(ac_memo_entry) * cap);
	if (tab == NULL)
		return false;
	for (i = 0; i < c->memo_cap; i++)
	{
		if (c->memo[i].used)
			*memo_slot(tab, cap, c->memo[i].reader, c->memo[i].writer) = c->memo[i];
	}
	c->memo = tab;
	c->memo_cap = cap;
	return true;
}

/* ---------- the rules ---------- */

/*
 * Named types match on their unqualified names (namespaces play no part),
 * or when one of the reader's fully qualified aliases is the writer's full
 * name.  Writer aliases are never looked at.
 */
static bool
names_match(const rg_avro_schema *r, const rg_avro_schema *w)
{
	int			i;

	if (r->name != NULL && w->name != NULL && strcmp(r->name, w->name) == 0)
		return true;
	if (r->name == NULL && w->name == NULL)
		return true;
	if (w->fullname == NULL)
		return false;
	for (i = 0; i < r->n_aliases; i++)
	{
		if (r->aliases[i] != NULL && strcmp(r->aliases[i], w->fullname) == 0)
			return true;
	}
	return false;
}

/* Named types must match by full name or alias (NAME_MISMATCH). */
static void
check_names(ac_checker *c, const rg_avro_schema *r, const rg_avro_schema *w,
			ac_stack *loc, ac_result *res)
{
	stack_push(c, loc, "name");
	if (!names_match(r, w))
	{
		rg_buf		buf;
		char	   *msg;

		rg_buf_init(&buf);
		rg_buf_puts(&buf, "expected: ");
		rg_buf_puts(&buf, w->fullname ? w->fullname : "null");
		msg = ac_take_buf(c, &buf);
		if (msg)
			result_add(c, res, incompat_new(c, AC_NAME_MISMATCH, msg, loc));
	}
	stack_pop(loc);
}

/* Fixed types must have the same size (FIXED_SIZE_MISMATCH). */
static void
check_fixed_size(ac_checker *c, const rg_avro_schema *r,
				 const rg_avro_schema *w, ac_stack *loc, ac_result *res)
{
	stack_push(c, loc, "size");
	if (r->size != w->size)
	{
		char		msg[64];

		snprintf(msg, sizeof(msg), "expected: %d, found: %d", w->size, r->size);
		result_add(c, res, incompat_new(c, AC_FIXED_SIZE_MISMATCH, msg, loc));
	}
	stack_pop(loc);
}

/*
 * Decode one UTF-8 sequence (lenient: a stray byte stands for itself) and
 * advance *p.
 */
static uint32_t
utf8_next(const unsigned char **p)
{
	const unsigned char *s = *p;
	uint32_t	cp = s[0];
	int			extra = 0;
	int			k;

	if (cp >= 0xF0 && cp < 0xF8)
	{
		cp &= 0x07;
		extra = 3;
	}
	else if (cp >= 0xE0)
	{
		cp &= 0x0F;
		extra = 2;
	}
	else if (cp >= 0xC0)
	{
		cp &= 0x1F;
		extra = 1;
	}
	for (k = 1; k <= extra; k++)
	{
		if ((s[k] & 0xC0) != 0x80)
		{
			*p = s + 1;
			return s[0];
		}
		cp = (cp << 6) | (s[k] & 0x3F);
	}
	*p = s + 1 + extra;
	return cp;
}

/* the first UTF-16 code unit of a code point, which is what Java compares */
static uint32_t
utf16_lead(uint32_t cp)
{
	return cp < 0x10000 ? cp : 0xD800 + ((cp - 0x10000) >> 10);
}

/*
 * Java's String.compareTo (UTF-16 code unit order) on UTF-8 text, so the
 * missing symbols come out in the order of Avro's TreeSet even beyond
 * ASCII.
 */
static int
java_strcmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *) a;
	const unsigned char *q = (const unsigned char *) b;

	while (*p && *q)
	{
		uint32_t	x = utf8_next(&p);
		uint32_t	y = utf8_next(&q);

		if (x != y)
		{
			uint32_t	ux = utf16_lead(x);
			uint32_t	uy = utf16_lead(y);

			if (ux != uy)
				return ux < uy ? -1 : 1;
			return x < y ? -1 : 1;
		}
	}
	if (*p)
		return 1;
	if (*q)
		return -1;
	return 0;
}

/* qsort order of enum symbols: strcmp. */
static int
cmp_symbols(const void *a, const void *b)
{
	return java_strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* Does enum e declare sym? */
static bool
has_symbol(const rg_avro_schema *e, const char *sym)
{
	int			i;

	for (i = 0; i < e->n_symbols; i++)
	{
		if (e->symbols[i] != NULL && strcmp(e->symbols[i], sym) == 0)
			return true;
	}
	return false;
}

/*
 * Every writer symbol must be a reader symbol, unless the reader enum has
 * a default that is one of its own symbols.  The missing ones are reported
 * sorted and de-duplicated, as Java prints a TreeSet: "[B, D]".
 */
static void
check_enum_symbols(ac_checker *c, const rg_avro_schema *r,
				   const rg_avro_schema *w, ac_stack *loc, ac_result *res)
{
	const char **missing;
	int			n = 0;
	int			i;

	stack_push(c, loc, "symbols");
	missing = ac_alloc(c, sizeof(char *) * (w->n_symbols + 1));
	if (missing == NULL)
		return;
	for (i = 0; i < w->n_symbols; i++)
	{
		if (w->symbols[i] != NULL && !has_symbol(r, w->symbols[i]))
			missing[n++] = w->symbols[i];
	}
	if (n > 0 && !(r->enum_default != NULL && has_symbol(r, r->enum_default)))
	{
		rg_buf		buf;
		char	   *msg;
		int			printed = 0;

		qsort(missing, n, sizeof(char *), cmp_symbols);
		rg_buf_init(&buf);
		rg_buf_putc(&buf, '[');
		for (i = 0; i < n; i++)
		{
			if (i > 0 && strcmp(missing[i], missing[i - 1]) == 0)
				continue;
			if (printed++)
				rg_buf_puts(&buf, ", ");
			rg_buf_puts(&buf, missing[i]);
		}
		rg_buf_putc(&buf, ']');
		msg = ac_take_buf(c, &buf);
		if (msg)
			result_add(c, res, incompat_new(c, AC_MISSING_ENUM_SYMBOLS, msg, loc));
	}
	stack_pop(loc);
}

/* djb2 hash of a field name, for the writer's field index. */
static size_t
name_hash(const char *s)
{
	size_t		h = 5381;

	while (*s)
		h = h * 33 + (unsigned char) *s++;
	return h;
}

/*
 * Build (or reuse) an open-addressing index of a writer record's field
 * names.  Worth it only for wide records; false when memory ran out (the
 * caller then scans).
 */
static bool
field_index(ac_checker *c, const rg_avro_schema *w)
{
	size_t		cap = 16;
	int			i;

	if (c->fidx_record == w)
		return true;
	while (cap < (size_t) w->n_fields * 2)
		cap *= 2;
	if (cap > c->fidx_cap)
	{
		int		   *slots = ac_alloc(c, sizeof(int) * cap);
		size_t	   *hashes = ac_alloc(c, sizeof(size_t) * cap);

		if (slots == NULL || hashes == NULL)
			return false;
		c->fidx_slots = slots;
		c->fidx_hashes = hashes;
		c->fidx_cap = cap;
	}
	else
		cap = c->fidx_cap;
	memset(c->fidx_slots, 0, sizeof(int) * cap);
	for (i = 0; i < w->n_fields; i++)
	{
		size_t		h;
		size_t		hash;

		if (w->fields[i].name == NULL)
			continue;
		hash = name_hash(w->fields[i].name);
		h = hash & (cap - 1);
		while (c->fidx_slots[h] != 0)
			h = (h + 1) & (cap - 1);
		c->fidx_slots[h] = i + 1;
		c->fidx_hashes[h] = hash;
	}
	c->fidx_record = w;
	return true;
}

/*
 * Is a field's name this name?  Compared inline: field names are short,
 * and a wide record's check compares one pair of them per field.
 */
static inline bool
field_is_named(const rg_avro_field *f, const char *name)
{
	const char *a = f->name;

	if (a == NULL)
		return false;
	while (*a != '\0' && *a == *name)
	{
		a++;
		name++;
	}
	return *a == *name;
}

/*
 * Field comparisons a check may spend scanning writer records for names
 * not at their reader position before wide records are searched through a
 * name index instead (see writer_field_named).
 */
#define AC_SCAN_BUDGET 256

/*
 * The writer field with this name (field names are unique in a record).
 * hint is the reader field's position: schemas usually evolve by
 * appending, so the field is most often at the same position.  Otherwise
 * the record is scanned, until the check has spent AC_SCAN_BUDGET
 * comparisons on scans: then a wide record is searched through a name
 * index.  One added field misses one name in each version a transitive
 * check reads, cheaper scanned than indexed; a field inserted near the
 * front of a wide record shifts all those after it, which would cost a
 * scan each.
 */
static const rg_avro_field *
writer_field_named(ac_checker *c, const rg_avro_schema *w, const char *name, int hint)
{
	int			i;

	if (name == NULL)
		return NULL;
	if (hint >= 0 && hint < w->n_fields && field_is_named(&w->fields[hint], name))
		return &w->fields[hint];
	if (w->n_fields >= 16 && c->scanned >= AC_SCAN_BUDGET && field_index(c, w))
	{
		size_t		hash = name_hash(name);
		size_t		h = hash & (c->fidx_cap - 1);

		for (; c->fidx_slots[h] != 0; h = (h + 1) & (c->fidx_cap - 1))
		{
			const rg_avro_field *f = &w->fields[c->fidx_slots[h] - 1];

			if (c->fidx_hashes[h] == hash && strcmp(f->name, name) == 0)
				return f;
		}
		return NULL;
	}
	for (i = 0; i < w->n_fields; i++)
	{
		if (field_is_named(&w->fields[i], name))
		{
			c->scanned += i + 1;
			return &w->fields[i];
		}
	}
	c->scanned += w->n_fields;
	return NULL;
}

/*
 * Abort the whole check the way Avro's AvroRuntimeException does when a
 * reader field's name and aliases select more than one writer field.  The
 * text follows Avro's: the field as "name type:TYPE pos:N" and the writer
 * record as Schema.toString() prints it (named types from references
 * written out in full, as Java's no-argument toString() does).
 */
static void
fail_ambiguous(ac_checker *c, const rg_avro_field *rf, int pos,
			   const rg_avro_schema *w)
{
	rg_buf		buf;

	rg_buf_init(&buf);
	rg_buf_printf(&buf, "Reader record field %s type:%s pos:%d matches multiple fields in writer record schema ",
				  rf->name ? rf->name : "null",
				  rf->type ? type_upper(rf->type->type) : "NULL", pos);
	rg_avro_write(&buf, w, false);
	c->failure = ac_take_buf(c, &buf);
	if (c->failure == NULL)
		c->oom = true;
}

/*
 * Find the writer field a reader field reads from: the writer field with
 * the reader field's name, plus one per distinct reader alias naming a
 * writer field.  Returns NULL when there is none; more than one (even the
 * same field twice, when an alias repeats the name) aborts the check.
 */
static const rg_avro_field *
lookup_writer_field(ac_checker *c, const rg_avro_schema *w,
					const rg_avro_field *rf, int pos)
{
	const rg_avro_field *found = writer_field_named(c, w, rf->name, pos);
	int			n = found ? 1 : 0;
	int			i,
				j;

	for (i = 0; i < rf->extra->n_aliases; i++)
	{
		const rg_avro_field *wf;
		bool		dup = false;

		/* the aliases are a set in Avro: repeats count once */
		for (j = 0; j < i; j++)
		{
			if (rf->extra->aliases[j] && rf->extra->aliases[i] &&
				strcmp(rf->extra->aliases[j], rf->extra->aliases[i]) == 0)
				dup = true;
		}
		if (dup)
			continue;
		wf = writer_field_named(c, w, rf->extra->aliases[i], -1);
		if (wf != NULL)
		{
			if (n == 0)
				found = wf;
			n++;
		}
	}
	if (n > 1)
	{
		fail_ambiguous(c, rf, pos, w);
		return NULL;
	}
	return found;
}

/*
 * Each reader field must be fed by a writer field or have a default;
 * writer-only fields are skipped.  A missing enum-typed field without a
 * default but whose enum has a default is compared against the writer
 * record itself (Avro does that; it always ends in a TYPE_MISMATCH).
 */
static void
check_record_fields(ac_checker *c, const rg_avro_schema *r,
					const rg_avro_schema *w, ac_stack *loc, ac_result *res)
{
	int			i;

	stack_push(c, loc, "fields");
	for (i = 0; i < r->n_fields && !stopped(c); i++)
	{
		const rg_avro_field *rf = &r->fields[i];
		const rg_avro_field *wf;

		stack_push_index(c, loc, i);
		wf = lookup_writer_field(c, w, rf, i);
		if (stopped(c))
			break;
		if (wf != NULL)
			result_merge(c, res, get_compat(c, "type", rf->type, wf->type, loc));
		else if (rf->default_value == NULL)
		{
			if (rf->type != NULL && rf->type->type == RG_AVRO_ENUM &&
				rf->type->enum_default != NULL)
				result_merge(c, res, get_compat(c, "type", rf->type, w, loc));
			else
				result_add(c, res,
						   incompat_new(c, AC_READER_FIELD_MISSING_DEFAULT_VALUE,
										rf->name ? rf->name : "null", loc));
		}
		stack_pop(loc);
	}
	stack_pop(loc);
}

/* Avro's two-argument getCompatibility: a fresh stack holding only the root. */
static ac_result *
get_compat_fresh(ac_checker *c, const rg_avro_schema *r,
				 const rg_avro_schema *w)
{
	ac_stack	fresh = {NULL, 0, 0};

	stack_push(c, &fresh, "");
	return get_compat(c, NULL, r, w, &fresh);
}

/* A reader union lacks the writer's type (MISSING_UNION_BRANCH). */
static void
add_missing_branch(ac_checker *c, rg_avro_type wtype, ac_stack *loc,
				   ac_result *res)
{
	char		msg[64];

	snprintf(msg, sizeof(msg), "reader union lacking writer type: %s",
			 type_upper(wtype));
	result_add(c, res, incompat_new(c, AC_MISSING_UNION_BRANCH, msg, loc));
}

/* Reader and writer types cannot be promoted (TYPE_MISMATCH). */
static void
add_type_mismatch(ac_checker *c, const rg_avro_schema *r,
				  const rg_avro_schema *w, ac_stack *loc, ac_result *res)
{
	char		msg[96];

	snprintf(msg, sizeof(msg), "reader type: %s not compatible with writer type: %s",
			 type_upper(r->type), type_upper(w->type));
	result_add(c, res, incompat_new(c, AC_TYPE_MISMATCH, msg, loc));
}

/* Both sides have the same type. */
static void
calc_same_type(ac_checker *c, const rg_avro_schema *r,
			   const rg_avro_schema *w, ac_stack *loc, ac_result *res)
{
	int			i;

	switch (r->type)
	{
		case RG_AVRO_NULL:
		case RG_AVRO_BOOLEAN:
		case RG_AVRO_INT:
		case RG_AVRO_LONG:
		case RG_AVRO_FLOAT:
		case RG_AVRO_DOUBLE:
		case RG_AVRO_BYTES:
		case RG_AVRO_STRING:
			return;
		case RG_AVRO_ARRAY:
			result_merge(c, res, get_compat(c, "items", r->items, w->items, loc));
			return;
		case RG_AVRO_MAP:
			result_merge(c, res, get_compat(c, "values", r->items, w->items, loc));
			return;
		case RG_AVRO_FIXED:
			check_names(c, r, w, loc, res);
			check_fixed_size(c, r, w, loc, res);
			return;
		case RG_AVRO_ENUM:
			check_names(c, r, w, loc, res);
			check_enum_symbols(c, r, w, loc, res);
			return;
		case RG_AVRO_RECORD:
			check_names(c, r, w, loc, res);
			check_record_fields(c, r, w, loc, res);
			return;
		case RG_AVRO_UNION:

			/*
			 * Every writer branch must be readable by the reader union.  The
			 * nested details are dropped; only the branch index is kept.
			 */
			for (i = 0; i < w->n_branches && !stopped(c); i++)
			{
				const ac_result *sub;

				stack_push_index(c, loc, i);
				sub = get_compat_fresh(c, r, w->branches[i]);
				if (sub != NULL && sub->n > 0)
					add_missing_branch(c, w->branches[i]->type, loc, res);
				stack_pop(loc);
			}
			return;
	}
}

/* Writer type -> reader type promotions of the Avro specification. */
static bool
promotable(rg_avro_type reader, rg_avro_type writer)
{
	switch (reader)
	{
		case RG_AVRO_LONG:
			return writer == RG_AVRO_INT;
		case RG_AVRO_FLOAT:
			return writer == RG_AVRO_INT || writer == RG_AVRO_LONG;
		case RG_AVRO_DOUBLE:
			return writer == RG_AVRO_INT || writer == RG_AVRO_LONG ||
				writer == RG_AVRO_FLOAT;
		case RG_AVRO_BYTES:
			return writer == RG_AVRO_STRING;
		case RG_AVRO_STRING:
			return writer == RG_AVRO_BYTES;
		default:
			return false;
	}
}

/* The two sides have different types. */
static void
calc_different_types(ac_checker *c, const rg_avro_schema *r,
					 const rg_avro_schema *w, ac_stack *loc, ac_result *res)
{
	int			i;

	if (w->type == RG_AVRO_UNION)
	{
		/*
		 * Every writer branch must be readable.  Avro 1.11 checks each branch
		 * with a fresh location stack, so nested locations restart at "/".
		 */
		for (i = 0; i < w->n_branches && !stopped(c); i++)
			result_merge(c, res, get_compat_fresh(c, r, w->branches[i]));
		return;
	}
	if (r->type == RG_AVRO_UNION)
	{
		/* the first reader branch that reads the writer wins */
		for (i = 0; i < r->n_branches && !stopped(c); i++)
		{
			const ac_result *sub = get_compat_fresh(c, r->branches[i], w);

			if (stopped(c))
				return;
			if (sub != NULL && sub->n == 0)
				return;
		}
		add_missing_branch(c, w->type, loc, res);
		return;
	}
	if (promotable(r->type, w->type))
		return;
	add_type_mismatch(c, r, w, loc, res);
}

/* Is t one of Avro's primitive types? */
static bool
is_primitive(rg_avro_type t)
{
	return t <= RG_AVRO_STRING;
}

/*
 * Avro's getCompatibility(token, reader, writer, location): push the
 * token, answer from the memo when the pair was seen (in progress counts
 * as compatible), else compute and remember.
 *
 * Pairs with a primitive or shared side are not memoized.  In Avro Java every use of
 * a primitive is its own object, so such a pair is only ever met once
 * (its parents' pairs are memoized); our model may share one node for all
 * uses of "int" (and one for all uses of a union of two plain primitives,
 * such as ["null","string"]), which would make distinct positions collide
 * in the memo and report stale locations.  Such a pair cannot recurse, so
 * leaving it out changes nothing else.  A pair of two shared nodes is
 * answered from shared_pairs once found compatible: no location to
 * go stale.
 */
static ac_result *
get_compat(ac_checker *c, const char *token, const rg_avro_schema *r,
		   const rg_avro_schema *w, ac_stack *loc)
{
	ac_memo_entry *slot;
	ac_result  *res;
	bool		memoize;

	if (stopped(c))
		return NULL;
	if (r == NULL || w == NULL)
	{
		c->failure = "null schema in compatibility check";
		return NULL;
	}
	if (c->depth >= AC_MAX_DEPTH)
	{
		c->failure = "schema nesting too deep for the compatibility check";
		return NULL;
	}
	/* two uses of one primitive type: nothing to compare, nothing to keep */
	if (r->type == w->type && is_primitive(r->type))
		return count_work(c) ? (ac_result *) &ac_compatible : NULL;
	if (rg_too_deep(c->depth))
	{
		c->failure = "schema nesting too deep for the compatibility check";
		return NULL;
	}
	/* a pair of shared nodes found compatible before: one unit of work */
	if (shared_pair_known(r, w))
		return count_work(c) ? (ac_result *) &ac_compatible : NULL;
	if (token != NULL)
		stack_push(c, loc, token);

	memoize = !is_primitive(r->type) && !is_primitive(w->type) &&
		!r->shared && !w->shared;
	slot = NULL;
	if (memoize)
	{
		if (!memo_reserve(c))
			return NULL;
		slot = memo_slot(c->memo, c->memo_cap, r, w);
	}
	if (slot != NULL && slot->used)
	{
		res = slot->result ? slot->result : (ac_result *) &ac_compatible;
	}
	else
	{
		if (slot != NULL)
		{
			slot->used = true;
			slot->reader = r;
			slot->writer = w;
			slot->result = NULL;
			c->memo_used++;
		}
		res = result_new(c);
		if (res != NULL && count_work(c))
		{
			c->depth++;
			if (r->type == w->type)
				calc_same_type(c, r, w, loc, res);
			else
				calc_different_types(c, r, w, loc, res);
			c->depth--;
		}
		/* the table may have grown meanwhile: find the slot again */
		if (memoize && !c->oom)
			memo_slot(c->memo, c->memo_cap, r, w)->result = res;
		if (!stopped(c))
			shared_pair_keep(r, w, res);
	}

	if (token != NULL)
		stack_pop(loc);
	return stopped(c) ? NULL : res;
}

/* Avro's SchemaIncompatibilityType constant name of an incompatibility kind. */
static const char *
kind_name(ac_kind k)
{
	switch (k)
	{
		case AC_READER_FIELD_MISSING_DEFAULT_VALUE:
			return "READER_FIELD_MISSING_DEFAULT_VALUE";
		case AC_TYPE_MISMATCH:
			return "TYPE_MISMATCH";
		case AC_NAME_MISMATCH:
			return "NAME_MISMATCH";
		case AC_FIXED_SIZE_MISMATCH:
			return "FIXED_SIZE_MISMATCH";
		case AC_MISSING_ENUM_SYMBOLS:
			return "MISSING_ENUM_SYMBOLS";
		case AC_MISSING_UNION_BRANCH:
			return "MISSING_UNION_BRANCH";
	}
	return "UNKNOWN";
}

/*
 * Confluent's message for one incompatibility.  The "%s" left in the
 * description are filled later with the reader's then the writer's role.
 */
static void
render_incompat(rg_buf *buf, const ac_incompat *inc)
{
	const char *loc = inc->location;
	const char *msg = inc->message;

	rg_buf_puts(buf, "{errorType:'");
	rg_buf_puts(buf, kind_name(inc->kind));
	rg_buf_puts(buf, "', description:'");
	switch (inc->kind)
	{
		case AC_FIXED_SIZE_MISMATCH:
			rg_buf_printf(buf, "The size of FIXED type field at path '%s' in the %%s schema does not match with the %%s schema", loc);
			break;
		case AC_TYPE_MISMATCH:
			rg_buf_printf(buf, "The type (path '%s') of a field in the %%s schema does not match with the %%s schema", loc);
			break;
		case AC_NAME_MISMATCH:
			rg_buf_printf(buf, "The name of the schema has changed (path '%s')", loc);
			break;
		case AC_MISSING_ENUM_SYMBOLS:
			rg_buf_printf(buf, "The %%s schema is missing enum symbols '%s' at path '%s' in the %%s schema", msg, loc);
			break;
		case AC_MISSING_UNION_BRANCH:
			rg_buf_printf(buf, "The %%s schema is missing a type inside a union field at path '%s' in the %%s schema", loc);
			break;
		case AC_READER_FIELD_MISSING_DEFAULT_VALUE:
			rg_buf_printf(buf, "The field '%s' at path '%s' in the %%s schema has no default value and is missing in the %%s schema", msg, loc);
			break;
	}
	rg_buf_puts(buf, "', additionalInfo:'");
	rg_buf_puts(buf, msg);
	rg_buf_puts(buf, "'}");
}

/*
 * Entry point (rg_format_avro.can_read): run the check, then turn each
 * incompatibility into Confluent's message, in Avro's depth-first order.
 */
bool
rg_avro_can_read(const rg_schema *reader, const rg_schema *writer,
				 rg_strlist *out)
{
	ac_checker	c;
	const rg_avro_parsed *rp;
	const rg_avro_parsed *wp;
	const ac_result *res = NULL;
	bool		ok;
	int			i;

	memset(&c, 0, sizeof(c));
	rp = reader ? reader->model : NULL;
	wp = writer ? writer->model : NULL;
	if (rp == NULL || wp == NULL || rp->root == NULL || wp->root == NULL)
	{
		rg_strlist_push(out, AC_UNEXPECTED "schema not parsed");
		return false;
	}
	c.arena = rg_arena_create();
	if (c.arena == NULL)
	{
		rg_strlist_push(out, AC_UNEXPECTED "out of memory");
		return false;
	}

	res = get_compat_fresh(&c, rp->root, wp->root);

	if (c.oom)
	{
		rg_strlist_push(out, AC_UNEXPECTED "out of memory");
		ok = false;
	}
	else if (c.failure != NULL)
	{
		rg_buf		buf;

		rg_buf_init(&buf);
		rg_buf_puts(&buf, AC_UNEXPECTED);
		rg_buf_puts(&buf, c.failure);
		if (buf.oom || !rg_strlist_push(out, buf.data))
			rg_strlist_push(out, AC_UNEXPECTED "out of memory");
		rg_buf_free(&buf);
		ok = false;
	}
	else
	{
		ok = (res == NULL || res->n == 0);
		for (i = 0; res != NULL && i < res->n; i++)
		{
			rg_buf		buf;

			rg_buf_init(&buf);
			render_incompat(&buf, res->items[i]);
			if (buf.oom || !rg_strlist_push(out, buf.data))
			{
				rg_buf_free(&buf);
				rg_strlist_push(out, AC_UNEXPECTED "out of memory");
				break;
			}
			rg_buf_free(&buf);
		}
	}
	rg_arena_destroy(c.arena);
	return ok;
}
