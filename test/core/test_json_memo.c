/*-------------------------------------------------------------------------
 *
 * test_json_memo.c
 *	  Unit tests of the JSON Schema check's content ids (json_content.c)
 *	  and of the pairs it keeps as found compatible for the process
 *	  (rg_pair_memo.c): the same content has the same id wherever it is,
 *	  and a pair answered from the set gives the messages a full
 *	  comparison gives, where a wrong reuse would not: sub-schemas of the
 *	  same shape at different paths, an incompatible version among
 *	  identical ones, a pair compatible under one policy only, $refs with
 *	  other targets, the table past its bounds, and the list of every
 *	  difference (which skips nothing).  All cases are our own.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_jsonschema.h"
#include "rg_compat.h"
#include "rg_pair_memo.h"
#include "json_diff_internal.h"
#include "rg_test.h"

/* json_diff.c: every difference as "TYPE #/path", in Confluent's order */
extern bool rg_json_differences(const rg_schema *original, const rg_schema *update,
								bool lenient, rg_strlist *out);

static char joined[65536];

/* Parse a JSON Schema written with single quotes; NULL (and a note) on failure. */
static rg_schema *
parse(const char *text)
{
	return rg_test_parse(&rg_format_json, text);
}

/*
 * The level driver's verdict on new_schema against versions 1..n of prev
 * (oldest first) under a level and policy, its messages joined into out
 * ("OK" when compatible).
 */
static void
check(rg_compat_level level, rg_compat_policy policy, const rg_schema *new_schema,
	  rg_schema *const *prev, int n, char *out, size_t size)
{
	rg_prior_version pv[16];
	rg_arena   *a = rg_arena_create();
	rg_strlist	l;
	int			i;

	for (i = 0; i < n; i++)
	{
		pv[i].schema = prev[i];
		pv[i].version = i + 1;
	}
	rg_strlist_init(&l, a);
	if (rg_compat_check_policy(level, policy, new_schema, pv, n, &l))
		snprintf(out, size, "OK%s", l.n ? " with messages" : "");
	else
		rg_test_join(&l, out, size);
	rg_arena_destroy(a);
}

/*
 * The same check three ways: with the pairs kept so far (the set as the
 * earlier tests left it), again (now with what the first run kept), and
 * without the set; all three must agree.  Returns the messages.
 */
static const char *
check_three_ways(const char *what, rg_compat_level level, rg_compat_policy policy,
				 const rg_schema *new_schema, rg_schema *const *prev, int n)
{
	static char first[65536];
	char		again[65536];
	char		cold[65536];

	check(level, policy, new_schema, prev, n, first, sizeof(first));
	check(level, policy, new_schema, prev, n, again, sizeof(again));
	rg_jd_use_known_pairs(false);
	check(level, policy, new_schema, prev, n, cold, sizeof(cold));
	rg_jd_use_known_pairs(true);
	RG_CHECK_STR(first, cold, "%s: with the set, the messages of a full comparison", what);
	RG_CHECK_STR(again, cold, "%s: again with what it kept, the same", what);
	return first;
}

/* The node of property i of an object root. */
static const rg_js *
property(const rg_schema *s, int i)
{
	return rg_json_model(s)->root->u.object.properties[i].schema;
}

/* The same content has one id wherever it is; other content, a $ref, another. */
static void
test_content_ids(void)
{
	rg_schema  *a = parse("{'type':'object','properties':{"
						  "'a':{'type':'string','maxLength':5},"
						  "'b':{'type':'string','maxLength':10},"
						  "'c':{'type':'number','maximum':5},"
						  "'r':{'$ref':'#/definitions/X'},"
						  "'d':{'type':'number','maximum':5.0}},"
						  "'definitions':{'X':{'type':'integer'}}}");
	rg_schema  *b = parse("{'type':'object','description':'elsewhere','properties':{"
						  "'z':{'type':'object','properties':{"
						  "'q':{'type':'string','maxLength':5},"
						  "'i':{'type':'integer'}}}}}");
	const rg_js *q;

	if (a == NULL || b == NULL)
	{
		RG_CHECK(false, "content ids: schemas load");
		rg_schema_free(a);
		rg_schema_free(b);
		return;
	}
	q = property(b, 0)->u.object.properties[0].schema;
	RG_CHECK(rg_js_has_content_id(property(a, 0)->content_id) &&
			 property(a, 0)->content_id == q->content_id,
			 "content ids: {maxLength 5} at #/properties/a and at #/properties/z/properties/q: one id");
	RG_CHECK(property(a, 0)->content_id != property(a, 1)->content_id,
			 "content ids: the same shape with maxLength 10: another id");
	RG_CHECK(rg_js_has_content_id(property(a, 2)->content_id) &&
			 property(a, 2)->content_id != property(a, 4)->content_id,
			 "content ids: maximum 5 and maximum 5.0: two ids");
	RG_CHECK(property(a, 3)->kind == RG_JS_REF &&
			 property(a, 3)->content_id == RG_JS_CONTENT_NONE,
			 "content ids: a $ref has none");
	RG_CHECK(property(a, 3)->u.ref.target->content_id ==
			 property(b, 0)->u.object.properties[1].schema->content_id,
			 "content ids: its target has the id of the same content elsewhere");
	RG_CHECK(rg_json_model(a)->root->content_id == RG_JS_CONTENT_NONE,
			 "content ids: an object with a $ref below it has none");
	RG_CHECK(rg_js_has_content_id(rg_json_model(b)->root->content_id),
			 "content ids: an object without one has one");
	rg_schema_free(a);
	rg_schema_free(b);

	/* a content over 2 KB: no id, but known to reach no $ref, nor its parent */
	{
		char	   *text = malloc(4096);
		char	   *p = text;
		int			i;

		p += sprintf(p, "{'type':'object','properties':{'long':{'type':'string','description':'");
		for (i = 0; i < 3000; i++)
			*p++ = 'x';
		sprintf(p, "'},'short':{'type':'string'}}}");
		a = parse(text);
		free(text);
		if (a == NULL)
		{
			RG_CHECK(false, "content ids: the long schema loads");
			return;
		}
		RG_CHECK(property(a, 0)->content_id == RG_JS_CONTENT_LONG &&
				 rg_json_model(a)->root->content_id == RG_JS_CONTENT_LONG &&
				 rg_js_has_content_id(property(a, 1)->content_id),
				 "content ids: a 3,000-byte description: too long, and its parent, its sibling has one");
		rg_schema_free(a);
	}
}

/*
 * Two properties of the same shape at different paths: the pair of one
 * found compatible says nothing about the other.
 */
static void
test_same_shape_other_path(void)
{
	rg_schema  *v[3];
	rg_schema  *grows = parse("{'type':'object','properties':{"
							  "'a':{'type':'string','maxLength':10},"
							  "'b':{'type':'string','maxLength':10}}}");
	rg_schema  *swapped = parse("{'type':'object','properties':{"
								"'a':{'type':'string','maxLength':10},"
								"'b':{'type':'string','maxLength':5}}}");
	char		text[256];
	const char *m;
	int			i;

	for (i = 0; i < 3; i++)
	{
		snprintf(text, sizeof(text), "{'type':'object','description':'v%d','properties':{"
				 "'a':{'type':'string','maxLength':5},"
				 "'b':{'type':'string','maxLength':10}}}", i + 1);
		v[i] = parse(text);
	}
	if (v[0] == NULL || v[1] == NULL || v[2] == NULL || grows == NULL || swapped == NULL)
	{
		RG_CHECK(false, "same shape: schemas load");
		return;
	}
	m = check_three_ways("same shape: a grows to 10", RG_COMPAT_BACKWARD_TRANSITIVE,
						 RG_POLICY_STRICT, grows, v, 3);
	RG_CHECK_STR(m, "OK", "same shape: a's maxLength 5 -> 10 is compatible with every version");
	m = check_three_ways("same shape: b shrinks to 5", RG_COMPAT_BACKWARD_TRANSITIVE,
						 RG_POLICY_STRICT, swapped, v, 3);
	RG_CHECK(strstr(m, "MAX_LENGTH_DECREASED") != NULL && strstr(m, "#/properties/b") != NULL &&
			 strstr(m, "#/properties/a") == NULL && strstr(m, "{oldSchemaVersion: 3}") != NULL,
			 "same shape: b's maxLength 10 -> 5 fails at #/properties/b against version 3: %s", m);
	for (i = 0; i < 3; i++)
		rg_schema_free(v[i]);
	rg_schema_free(grows);
	rg_schema_free(swapped);
}

/*
 * Versions 1, 2, 4 and 5 the same text, version 3 another: the root pair
 * of the identical ones is answered once, and version 3 still fails.
 */
static void
test_incompatible_among_identical(void)
{
	const char *same = "{'type':'object','properties':{'a':{'type':'string'},'n':{'type':'integer'}}}";
	rg_schema  *v[5];
	rg_schema  *new = parse("{'type':'object','description':'new',"
							"'properties':{'a':{'type':'string'},'n':{'type':'integer'}}}");
	const char *m;
	int			i;

	for (i = 0; i < 5; i++)
		v[i] = parse(i == 2 ? "{'type':'object','properties':{'a':{'type':'integer'},'n':{'type':'integer'}}}"
					 : same);
	for (i = 0; i < 5; i++)
		if (v[i] == NULL)
			new = NULL;
	if (new == NULL)
	{
		RG_CHECK(false, "among identical: schemas load");
		return;
	}
	RG_CHECK(rg_js_has_content_id(rg_json_model(v[0])->root->content_id) &&
			 rg_json_model(v[0])->root->content_id == rg_json_model(v[4])->root->content_id,
			 "among identical: versions 1 and 5 have one root id");
	m = check_three_ways("among identical: BACKWARD_TRANSITIVE", RG_COMPAT_BACKWARD_TRANSITIVE,
						 RG_POLICY_STRICT, new, v, 5);
	RG_CHECK(strstr(m, "TYPE_CHANGED") != NULL && strstr(m, "#/properties/a") != NULL &&
			 strstr(m, "{oldSchemaVersion: 3}") != NULL,
			 "among identical: version 3 fails (%s)", m);
	m = check_three_ways("among identical: FULL_TRANSITIVE", RG_COMPAT_FULL_TRANSITIVE,
						 RG_POLICY_STRICT, new, v, 5);
	RG_CHECK(strstr(m, "{oldSchemaVersion: 3}") != NULL,
			 "among identical: FULL_TRANSITIVE fails at version 3 too");
	m = check_three_ways("among identical: BACKWARD", RG_COMPAT_BACKWARD, RG_POLICY_STRICT,
						 new, v, 5);
	RG_CHECK_STR(m, "OK", "among identical: BACKWARD looks at version 5 only");
	for (i = 0; i < 5; i++)
		rg_schema_free(v[i]);
	rg_schema_free(new);
}

/* A pair compatible under LENIENT only: kept for LENIENT, not for STRICT. */
static void
test_policy(void)
{
	rg_schema  *old = parse("{'type':'object','properties':{'s':{'type':'object',"
							"'properties':{'x':{'type':'string'}}}}}");
	rg_schema  *new = parse("{'type':'object','properties':{'s':{'type':'object',"
							"'properties':{'x':{'type':'string'}},'additionalProperties':false}}}");
	const char *m;

	if (old == NULL || new == NULL)
	{
		RG_CHECK(false, "policy: schemas load");
		return;
	}
	m = check_three_ways("policy: LENIENT", RG_COMPAT_BACKWARD, RG_POLICY_LENIENT, new, &old, 1);
	RG_CHECK_STR(m, "OK", "policy: closing a sub-object is compatible under LENIENT");
	m = check_three_ways("policy: STRICT after LENIENT", RG_COMPAT_BACKWARD, RG_POLICY_STRICT,
						 new, &old, 1);
	RG_CHECK(strstr(m, "ADDITIONAL_PROPERTIES_REMOVED") != NULL &&
			 strstr(m, "#/properties/s/additionalProperties") != NULL,
			 "policy: and still incompatible under STRICT (%s)", m);
	rg_schema_free(old);
	rg_schema_free(new);
}

/* The same $ref written on both sides, its targets of other content. */
static void
test_ref_targets(void)
{
	rg_schema  *old = parse("{'type':'object','properties':{'p':{'$ref':'#/definitions/X'}},"
							"'definitions':{'X':{'type':'string'}}}");
	rg_schema  *same = parse("{'type':'object','description':'same','properties':{'p':{'$ref':'#/definitions/X'}},"
							 "'definitions':{'X':{'type':'string'}}}");
	rg_schema  *other = parse("{'type':'object','properties':{'p':{'$ref':'#/definitions/X'}},"
							  "'definitions':{'X':{'type':'integer'}}}");
	const char *m;

	if (old == NULL || same == NULL || other == NULL)
	{
		RG_CHECK(false, "ref targets: schemas load");
		return;
	}
	m = check_three_ways("ref targets: the same target", RG_COMPAT_BACKWARD, RG_POLICY_STRICT,
						 same, &old, 1);
	RG_CHECK_STR(m, "OK", "ref targets: the same target is compatible");
	m = check_three_ways("ref targets: another target", RG_COMPAT_BACKWARD, RG_POLICY_STRICT,
						 other, &old, 1);
	RG_CHECK(strstr(m, "TYPE_CHANGED") != NULL && strstr(m, "#/properties/p") != NULL,
			 "ref targets: another target under the same $ref fails (%s)", m);
	rg_schema_free(old);
	rg_schema_free(same);
	rg_schema_free(other);
}

/*
 * Many properties, some changed incompatibly, one deeper down: the
 * messages in Confluent's order (the properties' HashSet order), whether
 * the objects are first compared in document order or not.
 */
static void
test_order(void)
{
	char		old_text[4096];
	char		new_text[4096];
	char	   *o = old_text;
	char	   *n = new_text;
	rg_schema  *old;
	rg_schema  *new;
	const char *m;
	int			i;

	o += sprintf(o, "{'type':'object','properties':{'deep':{'type':'object','properties':{'x':{'type':'string'}}}");
	n += sprintf(n, "{'type':'object','properties':{'deep':{'type':'object','properties':{'x':{'type':'number'}}}");
	for (i = 0; i < 30; i++)
	{
		o += sprintf(o, ",'p%d':{'type':'string'}", i);
		n += sprintf(n, ",'p%d':{'type':'%s'}", i, i % 6 == 1 ? "integer" : "string");
	}
	sprintf(o, "}}");
	sprintf(n, ",'added':{'type':'string'}},'additionalProperties':false}");
	old = parse(old_text);
	new = parse(new_text);
	if (old == NULL || new == NULL)
	{
		RG_CHECK(false, "order: schemas load");
		return;
	}
	m = check_three_ways("order: 30 properties, 5 changed", RG_COMPAT_BACKWARD,
						 RG_POLICY_STRICT, new, &old, 1);
	RG_CHECK(strstr(m, "#/properties/p1'") != NULL && strstr(m, "#/properties/p25'") != NULL &&
			 strstr(m, "#/properties/deep/properties/x'") != NULL &&
			 strstr(m, "#/properties/p7'") != NULL,
			 "order: every changed property listed (%s)", m);
	rg_schema_free(old);
	rg_schema_free(new);
}

/* rg_json_differences lists a kept pair's compatible differences. */
static void
test_differences_skip_nothing(void)
{
	rg_schema  *old = parse("{'type':'object','properties':{'a':{'type':'string','description':'one'}}}");
	rg_schema  *new = parse("{'type':'object','properties':{'a':{'type':'string','description':'two'}}}");
	rg_arena   *ar = rg_arena_create();
	rg_strlist	l;
	const char *m;

	if (old == NULL || new == NULL)
	{
		RG_CHECK(false, "differences: schemas load");
		return;
	}
	m = check_three_ways("differences: a description changed", RG_COMPAT_BACKWARD,
						 RG_POLICY_STRICT, new, &old, 1);
	RG_CHECK_STR(m, "OK", "differences: a description change is compatible");
	rg_strlist_init(&l, ar);
	rg_json_differences(old, new, false, &l);
	RG_CHECK_STR(rg_test_join(&l, joined, sizeof(joined)), "DESCRIPTION_CHANGED #/properties/a",
				 "differences: still listed once the pair is kept");
	rg_arena_destroy(ar);
	rg_schema_free(old);
	rg_schema_free(new);
}

/*
 * Past its bounds the table of contents is emptied and ids go on: a schema
 * loaded before compares with one loaded after as before.
 */
static void
test_bounds(void)
{
	rg_jd_content_usage before;
	rg_jd_content_usage after;
	rg_schema  *early = parse("{'type':'object','properties':{'a':{'type':'string','maxLength':7}}}");
	rg_schema  *late;
	rg_schema  *shrunk;
	rg_pair_memo *memo = calloc(1, sizeof(rg_pair_memo));
	char		text[128];
	const char *m;
	int			max_entries = 0;
	int			i;

	rg_jd_content_stats(&before);
	for (i = 0; i < 10000; i++)
	{
		rg_schema  *s;

		snprintf(text, sizeof(text), "{'type':'string','maxLength':%d,'title':'t%d'}", i, i);
		s = parse(text);
		rg_schema_free(s);
		rg_jd_content_stats(&after);
		if (after.entries > max_entries)
			max_entries = after.entries;
	}
	RG_CHECK(after.resets > before.resets && max_entries <= RG_PAIR_MEMO_SLOTS &&
			 after.bytes <= 1024 * 1024 && after.next_id >= before.next_id + 10000,
			 "bounds: 10,000 contents: at most %d kept, emptied %llu times, ids go on",
			 max_entries, (unsigned long long) (after.resets - before.resets));
	late = parse("{'type':'object','properties':{'a':{'type':'string','maxLength':7}}}");
	shrunk = parse("{'type':'object','properties':{'a':{'type':'string','maxLength':6}}}");
	if (early == NULL || late == NULL || shrunk == NULL)
	{
		RG_CHECK(false, "bounds: schemas load");
		return;
	}
	RG_CHECK(property(early, 0)->content_id != property(late, 0)->content_id,
			 "bounds: the same content loaded after a reset has a new id");
	m = check_three_ways("bounds: early against late", RG_COMPAT_FULL, RG_POLICY_STRICT,
						 late, &early, 1);
	RG_CHECK_STR(m, "OK", "bounds: the same content across a reset is compatible");
	m = check_three_ways("bounds: shrunk", RG_COMPAT_BACKWARD, RG_POLICY_STRICT, shrunk, &early, 1);
	RG_CHECK(strstr(m, "MAX_LENGTH_DECREASED") != NULL, "bounds: a shrunk maxLength fails");

	/* the pair set itself */
	for (i = 1; i <= 20000; i++)
		rg_pair_memo_keep(memo, (uint64_t) i, (uint64_t) i * 3);
	RG_CHECK(memo->used <= RG_PAIR_MEMO_SLOTS / 4 * 3 && memo->resets >= 3 &&
			 rg_pair_memo_known(memo, 20000, 60000) && !rg_pair_memo_known(memo, 20000, 60001) &&
			 !rg_pair_memo_known(memo, 60000, 20000),
			 "bounds: 20,000 pairs kept: %d held, emptied %llu times", memo->used,
			 (unsigned long long) memo->resets);
	free(memo);
	rg_schema_free(early);
	rg_schema_free(late);
	rg_schema_free(shrunk);
}

int
main(void)
{
	test_content_ids();
	test_same_shape_other_path();
	test_incompatible_among_identical();
	test_policy();
	test_ref_targets();
	test_order();
	test_differences_skip_nothing();
	test_bounds();
	return rg_test_done();
}
