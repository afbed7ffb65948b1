/*-------------------------------------------------------------------------
 *
 * json_refs.c
 *	  $ref resolution, as everit's ReferenceLookup does it for Confluent:
 *	  - every document's identified sub-schemas ($id, or id in draft 4, and
 *	    $anchor from 2019-09 on) are collected first, each id resolved
 *	    against the resolution scope it appears in;
 *	  - a $ref is resolved against the scope it appears in; an identified
 *	    sub-schema of the current document with that URI is its target;
 *	    else a $ref written "#..." is a JSON pointer (percent-decoded as
 *	    URLDecoder does, then ~1 and ~0) from the current document's root,
 *	    whatever ids lie between; else the URI must name a referenced
 *	    document, whole or with a pointer in its fragment (everit would
 *	    fetch anything else over HTTP: here it is unresolvable);
 *	  - a reference to another subject's schema is a document registered
 *	    under its name resolved against the main document's id (as
 *	    JsonSchema.loadPreviousDraft registers resolvedReferences), so a
 *	    $ref "address.json" or "address.json#/definitions/x" finds it;
 *	  - each target is loaded once and shared by every $ref to the same
 *	    place; targets are loaded from a queue after the tree, so a chain
 *	    of references never deepens the recursion, and a cycle of $refs that
 *	    never reaches a schema (a $ref to itself) is refused.
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"

#include <stdio.h>
#include <string.h>

/* the parts of a URI reference (RFC 3986), pointing into a copy */
typedef struct uri_parts
{
	const char *scheme;			/* NULL if none */
	const char *authority;		/* NULL if none */
	const char *path;			/* never NULL */
	const char *query;			/* NULL if none */
	const char *fragment;		/* NULL if none */
} uri_parts;

/* See json_internal.h */
const char *
js_id_keyword(rg_js_draft draft)
{
	return draft == RG_JS_DRAFT_4 ? "id" : "$id";
}

/* Split a copy of a URI reference in place. */
static void
uri_split(char *s, uri_parts *u)
{
	char	   *p;

	memset(u, 0, sizeof(*u));
	p = strchr(s, '#');
	if (p)
	{
		*p = '\0';
		u->fragment = p + 1;
	}
	p = strchr(s, '?');
	if (p)
	{
		*p = '\0';
		u->query = p + 1;
	}
	p = s;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		   (p > s && ((*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.')))
		p++;
	if (p > s && *p == ':')
	{
		*p = '\0';
		u->scheme = s;
		s = p + 1;
	}
	if (s[0] == '/' && s[1] == '/')
	{
		s += 2;
		p = strchr(s, '/');
		if (p)
		{
			memmove(s - 1, s, p - s);
			p[-1] = '\0';
			u->authority = s - 1;
			s = p;
		}
		else
		{
			u->authority = s;
			s = s + strlen(s);
		}
	}
	u->path = s;
}

/* RFC 3986 5.2.4: remove "." and ".." segments, into out (as long as in). */
static void
remove_dot_segments(const char *in, char *out)
{
	char	   *o = out;

	while (*in)
	{
		if (strncmp(in, "../", 3) == 0)
			in += 3;
		else if (strncmp(in, "./", 2) == 0)
			in += 2;
		else if (strncmp(in, "/./", 3) == 0)
			in += 2;
		else if (strcmp(in, "/.") == 0)
			in = "/";
		else if (strncmp(in, "/../", 4) == 0 || strcmp(in, "/..") == 0)
		{
			in = in[3] ? in + 3 : "/";
			while (o > out && *--o != '/')
				;
			*o = '\0';
		}
		else if (strcmp(in, ".") == 0 || strcmp(in, "..") == 0)
			in += strlen(in);
		else
		{
			if (*in == '/')
				*o++ = *in++;
			while (*in && *in != '/')
				*o++ = *in++;
		}
	}
	*o = '\0';
}

/* Join the parts of a URI into the arena. */
static char *
uri_join(rg_arena *arena, const uri_parts *u, const char *path)
{
	size_t		n = strlen(path) + 8;
	char	   *out;

	n += u->scheme ? strlen(u->scheme) : 0;
	n += u->authority ? strlen(u->authority) : 0;
	n += u->query ? strlen(u->query) : 0;
	n += u->fragment ? strlen(u->fragment) : 0;
	out = rg_arena_alloc(arena, n);
	if (out == NULL)
		return NULL;
	snprintf(out, n, "%s%s%s%s%s%s%s%s",
			 u->scheme ? u->scheme : "", u->scheme ? ":" : "",
			 u->authority ? "//" : "", u->authority ? u->authority : "",
			 path, u->query ? "?" : "", u->query ? u->query : "",
			 u->fragment ? "#" : "");
	if (u->fragment)
		strcat(out, u->fragment);
	return out;
}

/*
 * RFC 3986 5.2.2: ref resolved against base (either may be relative; a
 * NULL base leaves ref as it is).  The result is in the arena.
 */
char *
js_uri_resolve(rg_arena *arena, const char *base, const char *ref)
{
	char	   *bcopy;
	char	   *rcopy;
	uri_parts	b;
	uri_parts	r;
	uri_parts	t;
	char	   *merged;
	char	   *path;

	if (base == NULL)
		return rg_arena_strdup(arena, ref);
	bcopy = rg_arena_strdup(arena, base);
	rcopy = rg_arena_strdup(arena, ref);
	merged = rg_arena_alloc(arena, strlen(base) + strlen(ref) + 2);
	path = rg_arena_alloc(arena, strlen(base) + strlen(ref) + 2);
	if (bcopy == NULL || rcopy == NULL || merged == NULL || path == NULL)
		return NULL;
	uri_split(bcopy, &b);
	uri_split(rcopy, &r);
	memset(&t, 0, sizeof(t));
	t.fragment = r.fragment;
	if (r.scheme)
	{
		t = r;
		remove_dot_segments(r.path, path);
		return uri_join(arena, &t, path);
	}
	t.scheme = b.scheme;
	if (r.authority)
	{
		t.authority = r.authority;
		t.query = r.query;
		remove_dot_segments(r.path, path);
		return uri_join(arena, &t, path);
	}
	t.authority = b.authority;
	if (r.path[0] == '\0')
	{
		t.query = r.query ? r.query : b.query;
		return uri_join(arena, &t, b.path);
	}
	t.query = r.query;
	if (r.path[0] == '/')
		remove_dot_segments(r.path, path);
	else
	{
		const char *slash = strrchr(b.path, '/');

		if (b.authority && b.path[0] == '\0')
			snprintf(merged, strlen(base) + strlen(ref) + 2, "/%s", r.path);
		else
			snprintf(merged, strlen(base) + strlen(ref) + 2, "%.*s%s",
					 slash ? (int) (slash - b.path + 1) : 0, b.path, r.path);
		remove_dot_segments(merged, path);
	}
	return uri_join(arena, &t, path);
}

/* A URI without an empty fragment: "x#" and "x" name the same resource. */
static const char *
uri_key(js_ctx *ctx, const char *uri)
{
	size_t		n = strlen(uri);

	if (n > 0 && uri[n - 1] == '#')
		return rg_arena_strndup(ctx->arena, uri, n - 1);
	return uri;
}

/* FNV-1a of a string, for the tables. */
static unsigned
str_hash(const char *s)
{
	unsigned	h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * 16777619u;
	return h % JS_HASH;
}

/* The identified sub-schema with this URI, NULL if none. */
static js_ident *
find_ident(js_ctx *ctx, const char *uri)
{
	js_ident   *i;

	for (i = ctx->idents[str_hash(uri)]; i; i = i->next)
		if (strcmp(i->uri, uri) == 0)
			return i;
	return NULL;
}

/* Register an identified sub-schema (the first of a URI wins). */
static bool
add_ident(js_ctx *ctx, js_doc *doc, const char *uri, jx *value,
		  const char *pointer, const char *scope)
{
	js_ident   *i;
	unsigned	h;

	uri = uri_key(ctx, uri);
	if (uri == NULL)
		return false;
	if (find_ident(ctx, uri))
		return true;
	i = rg_arena_alloc(ctx->arena, sizeof(js_ident));
	if (i == NULL)
		return false;
	h = str_hash(uri);
	i->uri = uri;
	i->doc = doc;
	i->value = value;
	i->pointer = pointer;
	i->scope = scope;
	i->next = ctx->idents[h];
	ctx->idents[h] = i;
	return true;
}

/* json-sKema's keywords (2019-09 on: ids under any other key are not looked for) */
static const char *const modern_keywords[] = {
	"$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$ref", "$defs", "$schema",
	"$vocabulary", "minLength", "maxLength", "allOf", "anyOf", "oneOf",
	"additionalProperties", "properties", "patternProperties", "title",
	"description", "readOnly", "writeOnly", "deprecated", "default", "enum",
	"const", "type", "not", "required", "maximum", "minimum", "exclusiveMaximum",
	"exclusiveMinimum", "multipleOf", "uniqueItems", "items", "prefixItems",
	"contains", "minContains", "maxContains", "if", "then", "else",
	"dependentSchemas", "dependentRequired", "unevaluatedItems",
	"unevaluatedProperties", "minItems", "maxItems", "minProperties",
	"maxProperties", "propertyNames", "pattern", "format", NULL
};

/* Is a key one of json-sKema's keywords? */
static bool
modern_keyword(const char *key)
{
	const char *const *k;

	for (k = modern_keywords; *k; k++)
		if (strcmp(*k, key) == 0)
			return true;
	return false;
}

/*
 * Is this member's value data rather than schemas (so ids inside are not
 * ids)?  From 2019-09 on, json-sKema's lookupAnchors also stops at an
 * unknown keyword, unless it is a name in properties, patternProperties
 * or $defs (and at array items, whose index is no keyword either).
 */
static bool
data_keyword(js_ctx *ctx, const char *key, const char *parent_key)
{
	if (strcmp(key, "enum") == 0 || strcmp(key, "const") == 0)
		return true;
	if (!ctx->skema)
		return strcmp(key, "default") == 0 || strcmp(key, "examples") == 0;
	if (modern_keyword(key))
		return false;
	return parent_key == NULL ||
		!(strcmp(parent_key, "properties") == 0 || strcmp(parent_key, "patternProperties") == 0 ||
		  strcmp(parent_key, "$defs") == 0);
}

/* Collect the identified sub-schemas under v (the value of key), in scope. */
static bool
collect_under(js_ctx *ctx, js_doc *doc, jx *v, const char *key, const char *pointer,
			  const char *scope, int depth)
{
	int			i;

	if (rg_too_deep(depth))
	{
		js_fail(ctx, "%s: schema nesting is too deep", pointer);
		return false;
	}
	if (v->type == JX_ARRAY)
	{
		if (ctx->skema)
			return true;		/* an index is no keyword: json-sKema stops */
		for (i = 0; i < v->n; i++)
			if (!collect_under(ctx, doc, v->items[i], key, js_pointer_index(ctx, pointer, i),
							   scope, depth + 1))
				return false;
		return true;
	}
	if (v->type != JX_OBJECT)
		return true;
	{
		jx		   *id = jx_get(v, js_id_keyword(ctx->draft));
		jx		   *anchor = ctx->skema ? jx_get(v, "$anchor") : NULL;

		if (id && id->type == JX_STRING)
		{
			scope = js_uri_resolve(ctx->arena, scope, id->text);
			if (scope == NULL || !add_ident(ctx, doc, scope, v, pointer, scope))
				goto oom;
		}
		if (anchor && anchor->type == JX_STRING)
		{
			char	   *frag = rg_arena_alloc(ctx->arena, anchor->len + 2);
			const char *uri;

			if (frag == NULL)
				goto oom;
			frag[0] = '#';
			memcpy(frag + 1, anchor->text, anchor->len + 1);
			uri = js_uri_resolve(ctx->arena, scope, frag);
			if (uri == NULL || !add_ident(ctx, doc, uri, v, pointer, scope))
				goto oom;
		}
	}
	for (i = 0; i < v->n; i++)
	{
		jx_member  *m = &v->members[i];

		if (data_keyword(ctx, m->key, key))
			continue;
		if (!collect_under(ctx, doc, m->value, m->key,
						   js_pointer_child(ctx, pointer, m->key, m->key_len),
						   scope, depth + 1))
			return false;
	}
	return !ctx->failed;

oom:
	js_oom(ctx);
	return false;
}

/* See json_internal.h */
bool
js_collect_idents(js_ctx *ctx, js_doc *doc)
{
	const char *pointer = doc->name ? doc->name : "";
	char	   *root;

	root = rg_arena_alloc(ctx->arena, strlen(pointer) + 2);
	if (root == NULL)
	{
		js_oom(ctx);
		return false;
	}
	sprintf(root, "%s#", pointer);
	doc->pointer = root;
	return collect_under(ctx, doc, doc->root, NULL, root, doc->key, 0);
}

/* Decode a URI fragment as URLDecoder does (%XX, '+' a space) into the arena. */
static char *
percent_decode(js_ctx *ctx, const char *s)
{
	char	   *out = rg_arena_alloc(ctx->arena, strlen(s) + 1);
	char	   *o = out;

	if (out == NULL)
		return NULL;
	while (*s)
	{
		int			hi,
					lo;

		if (s[0] == '%' && s[1] && s[2] &&
			(hi = (s[1] >= 'a' ? s[1] - 'a' + 10 : s[1] >= 'A' ? s[1] - 'A' + 10 : s[1] - '0')) >= 0 && hi < 16 &&
			(lo = (s[2] >= 'a' ? s[2] - 'a' + 10 : s[2] >= 'A' ? s[2] - 'A' + 10 : s[2] - '0')) >= 0 && lo < 16)
		{
			*o++ = (char) (hi * 16 + lo);
			s += 3;
		}
		else if (*s == '+')
		{
			*o++ = ' ';
			s++;
		}
		else
			*o++ = *s++;
	}
	*o = '\0';
	return out;
}

/* a place a JSON pointer leads to */
typedef struct place
{
	jx		   *value;
	const char *pointer;
	const char *scope;
} place;

/*
 * Follow a JSON pointer (the fragment, decoded) from a resource's root,
 * the resolution scope changing at each id passed.  false if it leads
 * nowhere.
 */
static bool
follow_pointer(js_ctx *ctx, const char *frag, place *at)
{
	const char *p = frag;

	while (*p == '/')
	{
		const char *end = strchr(p + 1, '/');
		size_t		n = end ? (size_t) (end - p - 1) : strlen(p + 1);
		char	   *token = rg_arena_alloc(ctx->arena, n + 1);
		size_t		t = 0;
		size_t		i;
		jx		   *next = NULL;

		if (token == NULL)
			return false;
		for (i = 0; i < n; i++)
		{
			if (p[1 + i] == '~' && i + 1 < n && (p[2 + i] == '0' || p[2 + i] == '1'))
			{
				token[t++] = p[2 + i] == '0' ? '~' : '/';
				i++;
			}
			else
				token[t++] = p[1 + i];
		}
		token[t] = '\0';
		if (at->value->type == JX_OBJECT)
		{
			int			k;

			for (k = 0; k < at->value->n; k++)
				if (at->value->members[k].key_len == t &&
					memcmp(at->value->members[k].key, token, t) == 0)
					next = at->value->members[k].value;
		}
		else if (at->value->type == JX_ARRAY && t > 0 && strspn(token, "0123456789") == t &&
				 (t == 1 || token[0] != '0') && t < 10 && atoi(token) < at->value->n)
			next = at->value->items[atoi(token)];
		if (next == NULL)
			return false;
		at->pointer = js_pointer_child(ctx, at->pointer, token, t);
		at->value = next;
		if (next->type == JX_OBJECT)
		{
			jx		   *id = jx_get(next, js_id_keyword(ctx->draft));

			if (id && id->type == JX_STRING)
				at->scope = js_uri_resolve(ctx->arena, at->scope, id->text);
		}
		p += 1 + n;
	}
	return *p == '\0';
}

/* The referenced document a URI (without fragment) names, NULL if none. */
static js_doc *
find_document(js_ctx *ctx, const char *uri)
{
	int			i;

	for (i = 0; i < ctx->n_docs; i++)
	{
		js_doc	   *d = &ctx->docs[i];

		if ((d->key && strcmp(d->key, uri) == 0) ||
			(d->name && strcmp(d->name, uri) == 0))
			return d;
	}
	return NULL;
}

/* Start a place at an identified sub-schema. */
static void
place_at_ident(const js_ident *ident, js_doc **doc, place *at)
{
	*doc = ident->doc;
	at->value = ident->value;
	at->pointer = ident->pointer;
	at->scope = ident->scope;
}

/* Start a place at a document's root. */
static void
place_at_root(js_doc *d, js_doc **doc, place *at)
{
	*doc = d;
	at->value = d->root;
	at->pointer = d->pointer;
	at->scope = d->key;
}

/*
 * json-sKema's resolution (2019-09 on): the resource the URI without its
 * fragment names (an identified sub-schema, a referenced document, the
 * document itself), then the fragment's JSON pointer inside it.
 */
static bool
locate_in_resource(js_ctx *ctx, const char *abs, js_doc **doc, place *at)
{
	const char *hash = strchr(abs, '#');
	char	   *docpart = rg_arena_strndup(ctx->arena, abs, hash ? (size_t) (hash - abs) : strlen(abs));
	const char *frag = percent_decode(ctx, hash ? hash + 1 : "");
	js_ident   *ident;
	js_doc	   *d;

	if (docpart == NULL || frag == NULL)
		return false;
	if (docpart[0] == '\0' || (ctx->doc->key && strcmp(docpart, ctx->doc->key) == 0))
		place_at_root(ctx->doc, doc, at);
	else if ((ident = find_ident(ctx, docpart)) != NULL)
		place_at_ident(ident, doc, at);
	else if ((d = find_document(ctx, docpart)) != NULL)
		place_at_root(d, doc, at);
	else
		return false;
	return follow_pointer(ctx, frag, at);
}

/*
 * Find where a $ref leads, as everit's ReferenceLookup: a sub-schema of
 * the current document identified by the resolved URI; else, for a $ref
 * written as "#...", the JSON pointer in the current document (from its
 * root, whatever the scope); else a referenced document registered under
 * the URI, whole or with the JSON pointer of the fragment (everit would
 * fetch anything else over HTTP: unresolvable here).  false if nowhere.
 */
static bool
locate(js_ctx *ctx, const char *ref, const char *abs, js_doc **doc, place *at)
{
	const char *key = uri_key(ctx, abs);
	js_ident   *ident = key ? find_ident(ctx, key) : NULL;
	const char *hash = strchr(abs, '#');
	char	   *docpart;
	const char *frag;
	js_doc	   *d;

	if (ident && (ident->doc == ctx->doc || ctx->skema))
	{
		place_at_ident(ident, doc, at);
		return true;
	}
	if (ctx->skema)
		return locate_in_resource(ctx, abs, doc, at);
	if (ref[0] == '#')
	{
		place_at_root(ctx->doc, doc, at);
		frag = percent_decode(ctx, ref + 1);
		return frag && follow_pointer(ctx, frag, at);
	}
	if ((d = find_document(ctx, abs)) != NULL)
	{
		place_at_root(d, doc, at);
		return true;
	}
	docpart = rg_arena_strndup(ctx->arena, abs, hash ? (size_t) (hash - abs) : strlen(abs));
	frag = percent_decode(ctx, hash ? hash + 1 : "");
	if (docpart == NULL || frag == NULL || (d = find_document(ctx, docpart)) == NULL)
		return false;
	place_at_root(d, doc, at);
	return follow_pointer(ctx, frag, at);
}

/* The shared target of a place, made and queued on first use. */
static js_target *
target_of(js_ctx *ctx, js_doc *doc, const place *at)
{
	unsigned	h = str_hash(at->pointer);
	js_target  *t;

	for (t = ctx->targets[h]; t; t = t->next)
		if (t->doc == doc && strcmp(t->pointer, at->pointer) == 0)
			return t;
	t = rg_arena_alloc(ctx->arena, sizeof(js_target));
	if (t == NULL)
		return NULL;
	t->key = at->pointer;
	t->doc = doc;
	t->value = at->value;
	t->pointer = at->pointer;
	t->scope = at->scope;
	t->next = ctx->targets[h];
	ctx->targets[h] = t;
	*ctx->queue_tail = t;
	ctx->queue_tail = &t->queue;
	return t;
}

/* The hash of a REF node's address. */
static unsigned
node_hash(const rg_js *node)
{
	return (unsigned) (((uintptr_t) node >> 4) % JS_HASH);
}

/* The target a REF node was made for. */
static js_target *
target_of_ref(js_ctx *ctx, const rg_js *node)
{
	js_pending *p;

	for (p = ctx->refs_by_node[node_hash(node)]; p; p = p->by_node)
		if (p->ref == node)
			return p->target;
	return NULL;
}

/* See json_internal.h */
rg_js *
js_load_ref(js_ctx *ctx, const char *ref, const char *pointer,
			const char *scope, int depth)
{
	rg_js	   *node = rg_arena_alloc(ctx->arena, sizeof(rg_js));
	js_pending *p = rg_arena_alloc(ctx->arena, sizeof(js_pending));
	const char *abs = js_uri_resolve(ctx->arena, scope, ref);
	js_doc	   *doc = NULL;
	place		at;

	if (node == NULL || p == NULL || abs == NULL)
	{
		js_oom(ctx);
		return NULL;
	}
	node->kind = RG_JS_REF;
	node->location = pointer;
	node->u.ref.ref = ref;
	if (!locate(ctx, ref, abs, &doc, &at))
	{
		if (!ctx->failed)
			js_fail(ctx, "%s: $ref \"%s\" cannot be resolved", pointer, ref);
		return NULL;
	}
	p->target = target_of(ctx, doc, &at);
	if (p->target == NULL)
	{
		js_oom(ctx);
		return NULL;
	}
	p->ref = node;
	p->next = ctx->pending;
	ctx->pending = p;
	p->by_node = ctx->refs_by_node[node_hash(node)];
	ctx->refs_by_node[node_hash(node)] = p;
	return node;
}

/* Load every queued target (more may be queued meanwhile). */
static bool
load_targets(js_ctx *ctx)
{
	js_target  *t;

	for (t = ctx->queue_head; t && !ctx->failed; t = t->queue)
	{
		ctx->doc = t->doc;
		rg_check_interrupts();
		t->node = js_load_schema(ctx, t->value, t->pointer, t->scope, 0);
		if (t->node == NULL)
			return false;
		if (t->node->kind == RG_JS_REF)
			t->chain = target_of_ref(ctx, t->node);
	}
	return !ctx->failed;
}

/* Refuse a chain of $refs that comes back to itself without a schema. */
static bool
check_cycles(js_ctx *ctx)
{
	js_target  *t;

	for (t = ctx->queue_head; t; t = t->queue)
	{
		js_target  *u;

		for (u = t; u && u->state == 0 && u->node->kind == RG_JS_REF; u = u->chain)
			u->state = 1;
		if (u && u->state == 1 && u->node->kind == RG_JS_REF)
		{
			js_fail(ctx, "%s: $ref \"%s\" refers to itself without reaching a schema",
					u->pointer, u->node->u.ref.ref);
			return false;
		}
		for (u = t; u && u->state == 1; u = u->chain)
			u->state = 2;
	}
	return true;
}

/* See json_internal.h */
bool
js_finish_refs(js_ctx *ctx)
{
	js_pending *p;

	if (!load_targets(ctx) || !check_cycles(ctx))
		return false;
	for (p = ctx->pending; p; p = p->next)
		p->ref->u.ref.target = p->target->node;
	return true;
}
