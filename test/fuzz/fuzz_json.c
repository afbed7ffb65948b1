/*-------------------------------------------------------------------------
 *
 * fuzz_json.c
 *	  libFuzzer target for the JSON Schema loader, its stored form and the
 *	  JSON Schema compatibility check of the pure-C core.
 *
 * The input is split at its first NUL byte (or, without one, in half)
 * into two texts A and B.  A is parsed alone, with normalize, and with B
 * as a referenced schema named "b.json" (so $refs across documents are
 * reached); B is parsed alone.  Each schema that parses is put through:
 *
 *	- a walk over its node graph (every REF resolved, every list as long
 *	  as it says), with a visited set, since $refs make cycles;
 *	- the idempotence of the stored form: schema->canonical parses again
 *	  to the very same text (abort() otherwise, so libFuzzer records the
 *	  input), and with normalize the normalized text is a fixed point.
 *
 * When A and B both parse, rg_json_can_read and the level driver run in
 * both directions, and can_read gives the same messages with and without
 * the pairs found compatible before (json_diff.c).  Everything is freed, so LeakSanitizer sees any leak.
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_diff_internal.h"
#include "rg_compat.h"
#include "rg_jsonschema.h"

#define FUZZ_TARGET "fuzz_json"
#include "fuzz_common.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parse one text; NULL when refused (an internal error is a finding). */
static rg_schema *
parse_one(const char *text, size_t len, const rg_reference *refs, int n_refs,
		  bool normalize)
{
	rg_error	err;
	rg_schema  *s = rg_json_parse(text, len, refs, n_refs, normalize, &err);

	if (s == NULL)
	{
		if (err.code == RG_ERR_INTERNAL || err.code == RG_OK)
			invariant_failed("rg_json_parse failed without a reason", err.message, NULL);
		return NULL;
	}
	if (s->canonical == NULL || strlen(s->canonical) != s->canonical_len)
		invariant_failed("stored form length", s->canonical, NULL);
	return s;
}

/* a visited set of nodes, open addressing */
typedef struct visited
{
	const rg_js **slots;
	size_t		cap;
	size_t		n;
} visited;

/* Add a node; false if it was there already. */
static bool
visit(visited *v, const rg_js *n)
{
	size_t		h;

	if (v->n * 2 >= v->cap)
	{
		visited		bigger = {calloc(v->cap ? v->cap * 2 : 256, sizeof(rg_js *)),
		v->cap ? v->cap * 2 : 256, 0};
		size_t		i;

		if (bigger.slots == NULL)
			abort();
		for (i = 0; i < v->cap; i++)
			if (v->slots[i])
				visit(&bigger, v->slots[i]);
		free(v->slots);
		*v = bigger;
	}
	h = ((uintptr_t) n >> 4) & (v->cap - 1);
	while (v->slots[h] && v->slots[h] != n)
		h = (h + 1) & (v->cap - 1);
	if (v->slots[h])
		return false;
	v->slots[h] = n;
	v->n++;
	return true;
}

static void walk(visited *v, const rg_js *n, int depth);

/* Walk a list of members. */
static void
walk_members(visited *v, const rg_js_member *m, int n, int depth)
{
	int			i;

	for (i = 0; i < n; i++)
	{
		if (m[i].name == NULL)
			invariant_failed("a member without a name", NULL, NULL);
		walk(v, m[i].schema, depth);
	}
}

/* Walk a node and what it reaches, each node once. */
static void
walk(visited *v, const rg_js *n, int depth)
{
	int			i;

	if (n == NULL)
		invariant_failed("a NULL sub-schema", NULL, NULL);
	if (n->location == NULL)
		invariant_failed("a node without a location", NULL, NULL);
	if (!visit(v, n) || depth > 5000)
		return;
	for (i = 0; i < n->n_unprocessed; i++)
		if (n->unprocessed_values[i] == NULL || n->unprocessed_values[i]->text == NULL)
			invariant_failed("an unprocessed keyword without a value", n->location, NULL);
	switch (n->kind)
	{
		case RG_JS_OBJECT:
			walk_members(v, n->u.object.properties, n->u.object.n_properties, depth + 1);
			walk_members(v, n->u.object.pattern_properties, n->u.object.n_pattern_properties, depth + 1);
			walk_members(v, n->u.object.schema_dependencies, n->u.object.n_schema_dependencies, depth + 1);
			if (n->u.object.additional_schema)
				walk(v, n->u.object.additional_schema, depth + 1);
			if (n->u.object.unevaluated)
				walk(v, n->u.object.unevaluated, depth + 1);
			if (n->u.object.property_names)
				walk(v, n->u.object.property_names, depth + 1);
			break;
		case RG_JS_ARRAY:
			if (n->u.array.all_items)
				walk(v, n->u.array.all_items, depth + 1);
			for (i = 0; i < n->u.array.n_item_schemas; i++)
				walk(v, n->u.array.item_schemas[i], depth + 1);
			if (n->u.array.additional_items)
				walk(v, n->u.array.additional_items, depth + 1);
			if (n->u.array.contains)
				walk(v, n->u.array.contains, depth + 1);
			if (n->u.array.unevaluated)
				walk(v, n->u.array.unevaluated, depth + 1);
			break;
		case RG_JS_COMBINED:
			for (i = 0; i < n->u.combined.n_subschemas; i++)
				walk(v, n->u.combined.subschemas[i], depth + 1);
			break;
		case RG_JS_NOT:
			walk(v, n->u.not.schema, depth + 1);
			break;
		case RG_JS_REF:
			if (n->u.ref.target == NULL)
				invariant_failed("an unresolved REF", n->location, n->u.ref.ref);
			walk(v, n->u.ref.target, depth + 1);
			break;
		case RG_JS_CONDITIONAL:
			if (n->u.conditional.if_schema)
				walk(v, n->u.conditional.if_schema, depth + 1);
			if (n->u.conditional.then_schema)
				walk(v, n->u.conditional.then_schema, depth + 1);
			if (n->u.conditional.else_schema)
				walk(v, n->u.conditional.else_schema, depth + 1);
			break;
		case RG_JS_ENUM:
			for (i = 0; i < n->u.enumeration.n_values; i++)
				if (n->u.enumeration.values[i]->text == NULL)
					invariant_failed("an enum value without text", n->location, NULL);
			break;
		default:
			break;
	}
}

/* The graph walk, then the stored form parsed again gives itself. */
static void
check_schema(const rg_schema *s, bool normalize)
{
	visited		v = {0};
	rg_error	err;
	rg_schema  *again;

	walk(&v, rg_json_model(s)->root, 0);
	free(v.slots);
	again = rg_json_parse(s->canonical, s->canonical_len, NULL, 0, normalize, &err);
	if (again == NULL)
	{
		/* a $ref to a reference's document is not in the text alone */
		if (strstr(err.message, "cannot be resolved") == NULL)
			invariant_failed("stored form does not parse again", s->canonical, err.message);
		return;
	}
	if (again->canonical_len != s->canonical_len ||
		memcmp(again->canonical, s->canonical, s->canonical_len) != 0)
		invariant_failed("stored form not idempotent", s->canonical, again->canonical);
	rg_schema_free(again);
}

/* The messages of can_read(reader, writer), joined by newlines (malloc'd). */
static char *
can_read_text(const rg_schema *reader, const rg_schema *writer, bool *ok)
{
	rg_arena   *arena = rg_arena_create();
	rg_strlist	out;
	size_t		len = 1;
	size_t		at = 0;
	char	   *text;
	int			i;

	if (arena == NULL)
		abort();
	rg_strlist_init(&out, arena);
	*ok = rg_json_can_read(reader, writer, &out);
	for (i = 0; i < out.n; i++)
		len += strlen(out.items[i]) + 1;
	if ((text = malloc(len)) == NULL)
		abort();
	for (i = 0; i < out.n; i++)
	{
		size_t		n = strlen(out.items[i]);

		memcpy(text + at, out.items[i], n);
		at += n;
		text[at++] = '\n';
	}
	text[at] = '\0';
	rg_arena_destroy(arena);
	return text;
}

/*
 * The pairs found compatible before change nothing: can_read without the
 * set, then twice with it (the second time with what the first kept),
 * the same verdict and messages.
 */
static void
check_known_pairs(const rg_schema *reader, const rg_schema *writer)
{
	bool		ok_cold;
	bool		ok_set;
	bool		ok_again;
	char	   *cold;
	char	   *with_set;
	char	   *again;

	rg_jd_use_known_pairs(false);
	cold = can_read_text(reader, writer, &ok_cold);
	rg_jd_use_known_pairs(true);
	with_set = can_read_text(reader, writer, &ok_set);
	again = can_read_text(reader, writer, &ok_again);
	if (ok_cold != ok_set || ok_cold != ok_again || strcmp(cold, with_set) != 0 ||
		strcmp(cold, again) != 0)
		invariant_failed("the pairs found compatible before change a verdict",
						 reader->canonical, writer->canonical);
	free(cold);
	free(with_set);
	free(again);
}

/* One fuzz input: two texts, see the header comment. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *) data;
	const uint8_t *nul = memchr(data, 0, size);
	size_t		len_a = nul ? (size_t) (nul - data) : size / 2;
	const char *text_b = nul ? text + len_a + 1 : text + len_a;
	size_t		len_b = nul ? size - len_a - 1 : size - len_a;
	rg_reference ref = {"b.json", text_b, len_b};
	rg_schema  *a = parse_one(text, len_a, NULL, 0, false);
	rg_schema  *an = parse_one(text, len_a, NULL, 0, true);
	rg_schema  *ar = parse_one(text, len_a, &ref, 1, false);
	rg_schema  *b = parse_one(text_b, len_b, NULL, 0, false);

	if ((a == NULL) != (an == NULL))
		invariant_failed("normalize changes whether a schema parses", text, NULL);

	/*
	 * (a reference must be an object for everit's drafts: a boolean B may
	 * fail)
	 */
	if (a && b && b->canonical[0] == '{' && !ar)
		invariant_failed("a valid reference made a schema fail", a->canonical, b->canonical);
	if (a)
		check_schema(a, false);
	if (an)
		check_schema(an, true);
	if (ar)
		check_schema(ar, false);
	if (b)
		check_schema(b, false);
	if (a && b)
	{
		check_pair(a, b);
		check_pair(b, a);
		check_known_pairs(a, b);
		check_known_pairs(b, a);
	}
	rg_schema_free(a);
	rg_schema_free(an);
	rg_schema_free(ar);
	rg_schema_free(b);
	return 0;
}
