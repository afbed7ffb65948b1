/*-------------------------------------------------------------------------
 *
 * proto_compat_tables.c
 *	  The tables the Protobuf schema diff (proto_compat.c) works over.
 *
 * Ours: a string map in an arena; the type table of each side, every
 * message and enum of the main file and of the files it imports by full
 * name (map entries recognised, so fields can see a map<K, V>), and its
 * files by name; whether two imported files are the same.
 *
 * Java's: Confluent iterates HashMaps and HashSets of names and numbers,
 * so the order it reports differences in is java.util.HashMap's iteration
 * order, reproduced here from String.hashCode()/Integer.hashCode().
 *
 *-------------------------------------------------------------------------
 */
#include "proto_compat_internal.h"

#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------------------
 * String -> pointer map in an arena (open addressing)
 * ---------------------------------------------------------------------- */

/* an FNV-1a-style string hash (the table only needs a spread) */
static uint64_t
str_hash(const char *s)
{
	uint64_t	h = 1469598103934665603ULL;

	while (*s)
	{
		h ^= (unsigned char) *s++;
		h *= 1099511628211ULL;
	}
	return h;
}

/* See proto_compat_internal.h */
void *
rg_pd_map_get(const pd_map *m, const char *key)
{
	size_t		i;

	if (m->cap == 0 || key == NULL)
		return NULL;
	for (i = str_hash(key) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (strcmp(m->keys[i], key) == 0)
			return m->vals[i];
	return NULL;
}

/* See proto_compat_internal.h */
bool
rg_pd_map_put(rg_arena *a, pd_map *m, const char *key, void *val)
{
	size_t		i;

	if ((m->used + 1) * 2 > m->cap)
	{
		size_t		ncap = m->cap ? m->cap * 2 : 64;
		const char **nk = rg_arena_alloc(a, ncap * sizeof(*nk));
		void	  **nv = rg_arena_alloc(a, ncap * sizeof(*nv));

		if (nk == NULL || nv == NULL)
			return false;
		for (i = 0; i < m->cap; i++)
		{
			size_t		j;

			if (m->keys[i] == NULL)
				continue;
			for (j = str_hash(m->keys[i]) & (ncap - 1); nk[j]; j = (j + 1) & (ncap - 1))
				;
			nk[j] = m->keys[i];
			nv[j] = m->vals[i];
		}
		m->keys = nk;
		m->vals = nv;
		m->cap = ncap;
	}
	for (i = str_hash(key) & (m->cap - 1); m->keys[i]; i = (i + 1) & (m->cap - 1))
		if (strcmp(m->keys[i], key) == 0)
		{
			m->vals[i] = val;
			return true;
		}
	m->keys[i] = key;
	m->vals[i] = val;
	m->used++;
	return true;
}

/* ----------------------------------------------------------------------
 * Names
 * ---------------------------------------------------------------------- */

/* See proto_compat_internal.h */
char *
rg_pd_strdup(pd_checker *c, const char *s)
{
	char	   *r = rg_arena_strdup(c->arena, s);

	if (r == NULL)
		c->oom = true;
	return r;
}

/* See proto_compat_internal.h */
char *
rg_pd_join_name(pd_checker *c, const char *scope, const char *name)
{
	size_t		ls = scope ? strlen(scope) : 0;
	size_t		ln = strlen(name);
	char	   *r;

	if (ls == 0)
		return rg_pd_strdup(c, name);
	r = rg_arena_alloc(c->arena, ls + ln + 2);
	if (r == NULL)
	{
		c->oom = true;
		return NULL;
	}
	memcpy(r, scope, ls);
	r[ls] = '.';
	memcpy(r + ls + 1, name, ln + 1);
	return r;
}

/* ----------------------------------------------------------------------
 * java.util.HashMap iteration order
 * ---------------------------------------------------------------------- */

/* See proto_compat_internal.h */
uint32_t
rg_pd_java_string_hash(const char *s)
{
	const unsigned char *p = (const unsigned char *) s;
	uint32_t	h = 0;

	while (*p)
	{
		uint32_t	cp;
		int			n;

		if (*p < 0x80)
		{
			cp = *p;
			n = 1;
		}
		else if ((*p & 0xE0) == 0xC0 && p[1])
		{
			cp = ((uint32_t) (*p & 0x1F) << 6) | (p[1] & 0x3F);
			n = 2;
		}
		else if ((*p & 0xF0) == 0xE0 && p[1] && p[2])
		{
			cp = ((uint32_t) (*p & 0x0F) << 12) | ((uint32_t) (p[1] & 0x3F) << 6) | (p[2] & 0x3F);
			n = 3;
		}
		else if ((*p & 0xF8) == 0xF0 && p[1] && p[2] && p[3])
		{
			cp = ((uint32_t) (*p & 0x07) << 18) | ((uint32_t) (p[1] & 0x3F) << 12) |
				((uint32_t) (p[2] & 0x3F) << 6) | (p[3] & 0x3F);
			n = 4;
		}
		else
		{
			cp = 0xFFFD;
			n = 1;
		}
		if (cp >= 0x10000)
		{
			cp -= 0x10000;
			h = 31 * h + (0xD800 + (cp >> 10));
			h = 31 * h + (0xDC00 + (cp & 0x3FF));
		}
		else
			h = 31 * h + cp;
		p += n;
	}
	return h;
}

/* See proto_compat_internal.h */
uint32_t
rg_pd_java_spread(uint32_t h)
{
	return h ^ (h >> 16);
}

/* HashMap.tableSizeFor(): the power of two at least c */
static uint32_t
java_table_size_for(uint32_t c)
{
	uint32_t	n = 1;

	while (n < c && n < (1u << 30))
		n <<= 1;
	return n;
}

/*
 * Insert n distinct keys (their spread hashes, in insertion order) into a
 * HashMap whose first table has init_cap buckets; return the table size
 * it ends with.  Resizes happen when the size passes 3/4 of the table and
 * when a bucket of a table under 64 reaches 9 entries (treeifyBin resizes
 * instead of building a tree there).  Real tree bins (64+ buckets, 9+
 * collisions) reorder a bucket and are not modelled.
 */
static uint32_t
java_final_cap(pd_checker *c, const uint32_t *hash, int n, uint32_t init_cap)
{
	uint32_t	cap = init_cap;
	uint32_t   *counts = NULL;
	int			size = 0;
	int			i;
	int			j;
	uint32_t	counts_cap = 0;

	for (i = 0; i < n; i++)
	{
		uint32_t	b;
		bool		grow = false;

		if (counts_cap != cap)
		{
			counts = rg_arena_alloc(c->arena, cap * sizeof(uint32_t));
			if (counts == NULL)
			{
				c->oom = true;
				return cap;
			}
			counts_cap = cap;
			for (j = 0; j < i; j++)
				counts[hash[j] & (cap - 1)]++;
		}
		b = hash[i] & (cap - 1);
		if (counts[b] >= 8 && cap < 64)
			grow = true;
		counts[b]++;
		if (grow)
			cap <<= 1;
		size++;
		if ((uint32_t) size > cap / 4 * 3)
			cap <<= 1;
	}
	return cap;
}

typedef struct pd_okey
{
	uint32_t	bucket;
	int			seq;
	int			item;
} pd_okey;

/* qsort order of option keys. */
static int
okey_cmp(const void *a, const void *b)
{
	const pd_okey *x = a;
	const pd_okey *y = b;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

/*
 * Iteration order of a HashMap built by put()ing keys (spread hashes
 * hash[0..n-1], distinct) in order into `new HashMap<>()` (init_cap 16),
 * or of `new HashSet<>(c)` when init_cap comes from c's size: fills
 * order[] with indexes into hash[].
 */
static void
java_order(pd_checker *c, const uint32_t *hash, int n, uint32_t init_cap, int *order)
{
	uint32_t	cap = java_final_cap(c, hash, n, init_cap);
	pd_okey    *k;
	int			i;

	if (n == 0)
		return;
	k = rg_arena_alloc(c->arena, n * sizeof(*k));
	if (k == NULL)
	{
		c->oom = true;
		for (i = 0; i < n; i++)
			order[i] = i;
		return;
	}
	for (i = 0; i < n; i++)
	{
		k[i].bucket = hash[i] & (cap - 1);
		k[i].seq = i;
		k[i].item = i;
	}
	qsort(k, n, sizeof(*k), okey_cmp);
	for (i = 0; i < n; i++)
		order[i] = k[i].item;
}

/*
 * The first table of new HashSet<>(c) for a c of n elements.  JDK 19 and
 * later: HashMap.newHashMap(max(n, 12)), i.e. ceil(max(n, 12) / 0.75)
 * rounded up to a power of two; JDK 17 and earlier (build with
 * -DPD_JDK17_HASHSET): max((int) (n / .75f) + 1, 16), so 12 elements get
 * 32 buckets instead of 16.  Only scopes of 12+ names can tell them apart.
 */
static uint32_t
java_set_init_cap(int n)
{
#ifdef PD_JDK17_HASHSET
	int			want = (int) ((float) n / 0.75f) + 1;

	if (want < 16)
		want = 16;
	return java_table_size_for((uint32_t) want);
#else
	long		m = n > 12 ? n : 12;

	return java_table_size_for((uint32_t) ((m * 4 + 2) / 3));
#endif
}

/* See proto_compat_internal.h */
int
rg_pd_java_union_order(pd_checker *c,
					   const uint32_t *ha, int na,
					   const uint32_t *hb, int nb, const bool *b_in_a,
					   int *out_side, int *out_index)
{
	int		   *oa = rg_arena_alloc(c->arena, (na + 1) * sizeof(int));
	int		   *ob = rg_arena_alloc(c->arena, (nb + 1) * sizeof(int));
	uint32_t   *hs = rg_arena_alloc(c->arena, (na + nb + 1) * sizeof(uint32_t));
	int		   *side = rg_arena_alloc(c->arena, (na + nb + 1) * sizeof(int));
	int		   *idx = rg_arena_alloc(c->arena, (na + nb + 1) * sizeof(int));
	int		   *os = rg_arena_alloc(c->arena, (na + nb + 1) * sizeof(int));
	int			n = 0;
	int			i;

	if (!oa || !ob || !hs || !side || !idx || !os)
	{
		c->oom = true;
		return 0;
	}
	java_order(c, ha, na, 16, oa);
	java_order(c, hb, nb, 16, ob);
	for (i = 0; i < na; i++)
	{
		hs[n] = ha[oa[i]];
		side[n] = 0;
		idx[n] = oa[i];
		n++;
	}
	for (i = 0; i < nb; i++)
	{
		if (b_in_a[ob[i]])
			continue;
		hs[n] = hb[ob[i]];
		side[n] = 1;
		idx[n] = ob[i];
		n++;
	}
	java_order(c, hs, n, java_set_init_cap(na), os);
	for (i = 0; i < n; i++)
	{
		out_side[i] = side[os[i]];
		out_index[i] = idx[os[i]];
	}
	return n;
}

/* ----------------------------------------------------------------------
 * Building the side, and looking its types up
 * ---------------------------------------------------------------------- */

/* See proto_compat_internal.h */
bool
rg_pd_is_map_entry(const pc_msg *m)
{
	return m->options && m->options->has_map_entry && m->options->map_entry;
}

/*
 * Enter the enums and messages of one scope (and, recursively, their
 * nested types) into s->types under their full names.
 */
static bool
collect_types(pd_checker *c, pd_side *s, const pd_file *f, const char *scope,
			  const pc_msg *const *msgs, size_t n_msgs,
			  const pc_enum *const *enums, size_t n_enums, int depth)
{
	size_t		i;

	if (depth > PD_MAX_DEPTH || rg_too_deep(depth))
	{
		c->failure = "schema nested too deeply";
		return false;
	}
	for (i = 0; i < n_enums; i++)
	{
		pd_entry   *e = rg_arena_alloc(c->arena, sizeof(*e));

		if (e == NULL)
			return false;
		if (enums[i]->name == NULL)
			continue;
		e->full_name = rg_pd_join_name(c, scope, enums[i]->name);
		e->file = f;
		e->enm = enums[i];
		if (e->full_name == NULL || !rg_pd_map_put(c->arena, &s->types, e->full_name, e))
			return false;
	}
	for (i = 0; i < n_msgs; i++)
	{
		const pc_msg *m = msgs[i];
		pd_entry   *e = rg_arena_alloc(c->arena, sizeof(*e));
		size_t		j;

		if (e == NULL)
			return false;
		if (m->name == NULL)
			continue;
		e->full_name = rg_pd_join_name(c, scope, m->name);
		e->file = f;
		e->msg = m;
		e->is_map = rg_pd_is_map_entry(m);
		if (e->is_map)
		{
			for (j = 0; j < m->n_field; j++)
			{
				if (m->field[j]->name && strcmp(m->field[j]->name, "key") == 0)
					e->key = m->field[j];
				else if (m->field[j]->name && strcmp(m->field[j]->name, "value") == 0)
					e->value = m->field[j];
			}
			if (e->key == NULL || e->value == NULL)
				e->is_map = false;
		}
		if (e->full_name == NULL || !rg_pd_map_put(c->arena, &s->types, e->full_name, e))
			return false;
		if (!collect_types(c, s, f, e->full_name,
						   (const pc_msg *const *) m->nested_type, m->n_nested_type,
						   (const pc_enum *const *) m->enum_type, m->n_enum_type,
						   depth + 1))
			return false;
	}
	return true;
}

/* See proto_compat_internal.h */
bool
rg_pd_build_side(pd_checker *c, pd_side *s, const rg_proto_parsed *model)
{
	const Google__Protobuf__FileDescriptorSet *set = model->set;
	int			n = set ? (int) set->n_file : 0;
	int			i;
	bool		have_main = false;

	s->model = model;
	s->files = rg_arena_alloc(c->arena, (n + 1) * sizeof(pd_file));
	if (s->files == NULL)
		return false;
	s->n_files = n;
	for (i = 0; i < n; i++)
	{
		const pc_file *fd = set->file[i];
		pd_file    *f = &s->files[i];

		f->fd = fd;
		f->index = i;
		f->is_main = (fd == model->file);
		have_main |= f->is_main;
		/* proto2 when the syntax is absent; editions behave like proto3 */
		f->proto3 = fd->syntax != NULL && fd->syntax[0] != '\0' &&
			strcmp(fd->syntax, "proto2") != 0;
		f->package = fd->package ? fd->package : "";
		if (fd->name && !rg_pd_map_put(c->arena, &s->files_by_name, fd->name, f))
			return false;
	}
	if (!have_main && model->file != NULL)
	{
		/* the main file is not in the set: add it as one more file */
		pd_file    *f = &s->files[n];

		f->fd = model->file;
		f->index = n;
		f->is_main = true;
		f->proto3 = model->file->syntax != NULL && model->file->syntax[0] != '\0' &&
			strcmp(model->file->syntax, "proto2") != 0;
		f->package = model->file->package ? model->file->package : "";
		s->n_files = n + 1;
	}
	/* dependencies first, the main file last: its names win, as in Confluent */
	for (i = 0; i < s->n_files; i++)
	{
		const pd_file *f = &s->files[i];

		if (f->is_main)
			continue;
		if (!collect_types(c, s, f, f->package,
						   (const pc_msg *const *) f->fd->message_type, f->fd->n_message_type,
						   (const pc_enum *const *) f->fd->enum_type, f->fd->n_enum_type, 0))
			return false;
	}
	for (i = 0; i < s->n_files; i++)
	{
		const pd_file *f = &s->files[i];

		if (!f->is_main)
			continue;
		if (!collect_types(c, s, f, f->package,
						   (const pc_msg *const *) f->fd->message_type, f->fd->n_message_type,
						   (const pc_enum *const *) f->fd->enum_type, f->fd->n_enum_type, 0))
			return false;
	}
	return true;
}

/* See proto_compat_internal.h */
const pd_file *
rg_pd_main_file(const pd_side *s)
{
	int			i;

	for (i = 0; i < s->n_files; i++)
		if (s->files[i].is_main)
			return &s->files[i];
	return NULL;
}

/* See proto_compat_internal.h */
const pd_entry *
rg_pd_lookup_type(const pd_side *s, const char *type_name)
{
	if (type_name == NULL)
		return NULL;
	if (type_name[0] == '.')
		type_name++;
	return rg_pd_map_get(&s->types, type_name);
}

/* ----------------------------------------------------------------------
 * Are two imported files the same (bytes, and everything they import)?
 * ---------------------------------------------------------------------- */

/* the serialized descriptor of a file (from rg_malloc, NULL on OOM) */
static unsigned char *
pack_file(const pc_file *fd, size_t *len)
{
	size_t		n = protobuf_c_message_get_packed_size(&fd->base);
	unsigned char *buf = rg_malloc(n ? n : 1);

	if (buf == NULL)
		return NULL;
	*len = protobuf_c_message_pack(&fd->base, buf);
	return buf;
}

/* See proto_compat_internal.h */
bool
rg_pd_file_same(pd_checker *c, const pd_file *of, const pd_file *uf, int depth)
{
	unsigned char *memo;
	unsigned char *a;
	unsigned char *b;
	size_t		la = 0;
	size_t		lb = 0;
	bool		same;
	size_t		i;

	if (of->is_main || uf->is_main || depth > 64 || rg_too_deep(depth))
		return false;
	memo = &c->same_memo[of->index * c->upd.n_files + uf->index];
	if (*memo)
		return *memo == 1;
	*memo = 2;					/* provisional, against import cycles */
	same = of->fd->name && uf->fd->name && strcmp(of->fd->name, uf->fd->name) == 0 &&
		of->fd->n_dependency == uf->fd->n_dependency;
	if (same)
	{
		a = pack_file(of->fd, &la);
		b = pack_file(uf->fd, &lb);
		same = a && b && la == lb && memcmp(a, b, la) == 0;
		rg_free(a);
		rg_free(b);
	}
	for (i = 0; same && i < of->fd->n_dependency; i++)
	{
		const pd_file *od = rg_pd_map_get(&c->orig.files_by_name, of->fd->dependency[i]);
		const pd_file *ud = rg_pd_map_get(&c->upd.files_by_name, uf->fd->dependency[i]);

		same = od && ud && rg_pd_file_same(c, od, ud, depth + 1);
	}
	*memo = same ? 1 : 2;
	return same;
}
