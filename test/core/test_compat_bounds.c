/*-------------------------------------------------------------------------
 *
 * test_compat_bounds.c
 *	  Unit tests of the bounds on the JSON Schema and Protobuf
 *	  compatibility checks and on the registry's regular expressions:
 *	  chains of definitions that each use the previous one twice (through
 *	  properties, prefixItems, allOf and $ref; Protobuf message types) are
 *	  compared in polynomial time with at most RG_COMPAT_MAX_MESSAGES
 *	  messages; comparisons past the budget stop with RG_COMPAT_TOO_LARGE;
 *	  counted repetitions are refused past their expanded size.  Each case
 *	  must finish within a few seconds (under ASan); before the bounds,
 *	  the 60-level chains ran until the memory was gone.  All cases are
 *	  our own.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_compat.h"
#include "rg_jsonschema.h"
#include "rg_protobuf.h"
#include "json_internal.h"
#include "rg_test.h"

#include <time.h>

/* proto_compat.c: every difference as "TYPE #/path", in Confluent's order */
extern bool rg_protobuf_differences(const rg_schema *original, const rg_schema *update,
									rg_strlist *out);

/* seconds since some fixed point */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* a growable text */
typedef struct tbuf
{
	char	   *s;
	size_t		n;
	size_t		cap;
} tbuf;

/* Append printf-style to t. */
static void add(tbuf *t, const char *fmt,...) __attribute__((format(printf, 2, 3)));

static void
add(tbuf *t, const char *fmt,...)
{
	va_list		ap;
	int			need;

	va_start(ap, fmt);
	need = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (t->n + need + 1 > t->cap)
	{
		t->cap = (t->n + need + 1) * 2;
		t->s = realloc(t->s, t->cap);
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->n, need + 1, fmt, ap);
	va_end(ap);
	t->n += need;
}

typedef enum chain_kind
{
	CHAIN_PROPERTIES,			/* draft 7: an object of two $refs */
	CHAIN_PREFIX_ITEMS,			/* 2020-12: a tuple of two $refs */
	CHAIN_ALL_OF				/* draft 7: allOf of the two previous
								 * definitions */
} chain_kind;

/*
 * A schema of `levels` definitions, each using the one below twice; the
 * bottom one a string of the given maxLength.
 */
static char *
chain_schema(chain_kind kind, int levels, int max_length)
{
	tbuf		t = {0};
	const char *defs = kind == CHAIN_PREFIX_ITEMS ? "$defs" : "definitions";
	int			k;

	add(&t, "{");
	if (kind == CHAIN_PREFIX_ITEMS)
		add(&t, "\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",");
	add(&t, "\"%s\":{\"a0\":{\"type\":\"string\",\"maxLength\":%d},"
		"\"b0\":{\"type\":\"string\",\"maxLength\":%d}", defs, max_length, max_length);
	for (k = 1; k <= levels; k++)
	{
		switch (kind)
		{
			case CHAIN_PROPERTIES:
				add(&t, ",\"a%d\":{\"type\":\"object\",\"properties\":{"
					"\"x\":{\"$ref\":\"#/%s/a%d\"},\"y\":{\"$ref\":\"#/%s/a%d\"}}}",
					k, defs, k - 1, defs, k - 1);
				break;
			case CHAIN_PREFIX_ITEMS:
				add(&t, ",\"a%d\":{\"type\":\"array\",\"prefixItems\":["
					"{\"$ref\":\"#/%s/a%d\"},{\"$ref\":\"#/%s/a%d\"}]}",
					k, defs, k - 1, defs, k - 1);
				break;
			case CHAIN_ALL_OF:
				add(&t, ",\"a%d\":{\"allOf\":[{\"$ref\":\"#/%s/a%d\"},{\"$ref\":\"#/%s/b%d\"}]}"
					",\"b%d\":{\"allOf\":[{\"$ref\":\"#/%s/b%d\"},{\"$ref\":\"#/%s/a%d\"}]}",
					k, defs, k - 1, defs, k - 1, k, defs, k - 1, defs, k - 1);
				break;
		}
	}
	add(&t, "},\"$ref\":\"#/%s/a%d\"}", defs, levels);
	return t.s;
}

/* Parse a JSON Schema; NULL (and a note) on failure. */
static rg_schema *
json_parse(const char *s)
{
	rg_error	err;
	rg_schema  *schema;

	rg_error_clear(&err);
	schema = rg_json_parse(s, strlen(s), NULL, 0, false, &err);
	if (schema == NULL)
		printf("# parse failed: %s\n", err.message);
	return schema;
}

/* what one can_read answered */
typedef struct verdict
{
	bool		ok;
	int			n;				/* messages */
	char		first[512];
	char		last[512];
	double		seconds;
} verdict;

/* can_read(reader, writer) of a format, summed up */
static verdict
check(bool (*can_read) (const rg_schema *, const rg_schema *, rg_strlist *),
	  const rg_schema *reader, const rg_schema *writer)
{
	rg_arena   *a = rg_arena_create();
	rg_strlist	l;
	verdict		v;
	double		t0 = now();

	rg_strlist_init(&l, a);
	memset(&v, 0, sizeof(v));
	v.ok = can_read(reader, writer, &l);
	v.seconds = now() - t0;
	v.n = l.n;
	if (l.n > 0)
	{
		snprintf(v.first, sizeof(v.first), "%s", l.items[0]);
		snprintf(v.last, sizeof(v.last), "%s", l.items[l.n - 1]);
	}
	rg_arena_destroy(a);
	return v;
}

/* The line after the listed messages, for n more. */
static const char *
more_line(unsigned long long n)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "{errorType:\"TOO_MANY_DIFFERENCES\", description:\""
			 "%llu more incompatible differences are not listed\"}", n);
	return buf;
}

/* A chain compared with its bottom narrowed: 2^levels incompatible differences. */
static void
test_json_chain(chain_kind kind, const char *name, int levels)
{
	char	   *w = chain_schema(kind, levels, 10);
	char	   *r = chain_schema(kind, levels, 5);
	rg_schema  *ws = json_parse(w);
	rg_schema  *rs = json_parse(r);
	unsigned long long total = 1ULL << levels;
	verdict		v;

	if (ws == NULL || rs == NULL)
	{
		RG_CHECK(false, "%s chain of %d: schemas load", name, levels);
		goto done;
	}
	v = check(rg_json_can_read, rs, ws);
	RG_CHECK(!v.ok, "%s chain of %d, bottom narrowed: incompatible", name, levels);
	RG_CHECK(v.n == RG_COMPAT_MAX_MESSAGES + 1,
			 "%s chain of %d: %d messages listed, then one line (got %d)",
			 name, levels, RG_COMPAT_MAX_MESSAGES, v.n);
	RG_CHECK_STR(v.last, more_line(total - RG_COMPAT_MAX_MESSAGES),
				 "%s chain of %d: the line says how many more (2^%d in all)",
				 name, levels, levels);
	RG_CHECK(strstr(v.first, "MAX_LENGTH_DECREASED") != NULL,
			 "%s chain of %d: the first message is the narrowed bottom", name, levels);
	RG_CHECK(v.seconds < 5.0, "%s chain of %d: answered in %.3f s", name, levels, v.seconds);

	/* widened: every difference compatible, none listed */
	rg_schema_free(rs);
	free(r);
	r = chain_schema(kind, levels, 20);
	rs = json_parse(r);
	if (rs != NULL)
	{
		v = check(rg_json_can_read, rs, ws);
		RG_CHECK(v.ok && v.n == 0, "%s chain of %d, bottom widened: compatible, no message",
				 name, levels);
		RG_CHECK(v.seconds < 5.0, "%s chain of %d widened: answered in %.3f s",
				 name, levels, v.seconds);
	}
done:
	rg_schema_free(ws);
	rg_schema_free(rs);
	free(w);
	free(r);
}

/* 2^70 differences: more than 64 bits count; the line says so. */
static void
test_json_chain_uncountable(void)
{
	char	   *w = chain_schema(CHAIN_PROPERTIES, 70, 10);
	char	   *r = chain_schema(CHAIN_PROPERTIES, 70, 5);
	rg_schema  *ws = json_parse(w);
	rg_schema  *rs = json_parse(r);
	verdict		v;

	if (ws != NULL && rs != NULL)
	{
		v = check(rg_json_can_read, rs, ws);
		RG_CHECK(!v.ok && v.n == RG_COMPAT_MAX_MESSAGES + 1 &&
				 strstr(v.last, "more incompatible differences than can be counted") != NULL,
				 "a chain of 70: the line says there are more than can be counted (%s)", v.last);
	}
	else
		RG_CHECK(false, "a chain of 70: schemas load");
	rg_schema_free(ws);
	rg_schema_free(rs);
	free(w);
	free(r);
}

/* allOf chains: an incompatible pair matches nothing, so only the widened case doubles. */
static void
test_json_all_of_chain(int levels)
{
	char	   *w = chain_schema(CHAIN_ALL_OF, levels, 10);
	char	   *r = chain_schema(CHAIN_ALL_OF, levels, 20);
	char	   *n = chain_schema(CHAIN_ALL_OF, levels, 5);
	rg_schema  *ws = json_parse(w);
	rg_schema  *rs = json_parse(r);
	rg_schema  *ns = json_parse(n);
	verdict		v;

	if (ws == NULL || rs == NULL || ns == NULL)
		RG_CHECK(false, "allOf chain of %d: schemas load", levels);
	else
	{
		v = check(rg_json_can_read, rs, ws);
		RG_CHECK(v.ok && v.n == 0,
				 "allOf chain of %d, bottoms widened (2^%d compatible differences): compatible",
				 levels, levels);
		RG_CHECK(v.seconds < 5.0, "allOf chain of %d widened: answered in %.3f s",
				 levels, v.seconds);
		v = check(rg_json_can_read, ns, ws);
		RG_CHECK(!v.ok && v.n >= 1 && v.n <= RG_COMPAT_MAX_MESSAGES + 1,
				 "allOf chain of %d, bottoms narrowed: incompatible, %d messages", levels, v.n);
		RG_CHECK(v.seconds < 5.0, "allOf chain of %d narrowed: answered in %.3f s",
				 levels, v.seconds);
	}
	rg_schema_free(ws);
	rg_schema_free(rs);
	rg_schema_free(ns);
	free(w);
	free(r);
	free(n);
}

/* anyOf of n distinct objects: n * n pairs to compare */
static char *
wide_any_of(int n, const char *type)
{
	tbuf		t = {0};
	int			i;

	add(&t, "{\"anyOf\":[");
	for (i = 0; i < n; i++)
		add(&t, "%s{\"type\":\"object\",\"properties\":{\"p%d\":{\"type\":\"%s\"},"
			"\"q\":{\"type\":\"%s\"}},\"required\":[\"p%d\"]}",
			i ? "," : "", i, type, type, i);
	add(&t, "]}");
	return t.s;
}

/* Comparisons past the budget stop with RG_COMPAT_TOO_LARGE, quickly. */
static void
test_json_budget(void)
{
	static const int sizes[] = {3000, 1000};
	int			k;

	for (k = 0; k < 2; k++)
	{
		char	   *w = wide_any_of(sizes[k], "string");
		char	   *r = wide_any_of(sizes[k], "integer");
		rg_schema  *ws = json_parse(w);
		rg_schema  *rs = json_parse(r);
		verdict		v;

		if (ws != NULL && rs != NULL)
		{
			v = check(rg_json_can_read, rs, ws);
			RG_CHECK(!v.ok && v.n == 1 && strcmp(v.first, RG_COMPAT_TOO_LARGE) == 0,
					 "anyOf of %d against anyOf of %d: schema comparison too large (%d messages: %s)",
					 sizes[k], sizes[k], v.n, v.first);
			RG_CHECK(v.seconds < 10.0, "anyOf of %d: stopped in %.3f s", sizes[k], v.seconds);
		}
		else
			RG_CHECK(false, "anyOf of %d: schemas load", sizes[k]);
		rg_schema_free(ws);
		rg_schema_free(rs);
		free(w);
		free(r);
	}
}

/* The level driver says when a check stopped at its budget. */
static void
test_too_large_seen(void)
{
	char	   *w = wide_any_of(3000, "string");
	char	   *r = wide_any_of(3000, "integer");
	rg_schema  *ws = json_parse(w);
	rg_schema  *rs = json_parse(r);
	rg_arena   *a = rg_arena_create();
	rg_strlist	l;
	rg_prior_version p;

	rg_strlist_init(&l, a);
	rg_strlist_push(&l, "an earlier message");
	p.schema = ws;
	p.version = 1;
	if (ws != NULL && rs != NULL)
	{
		RG_CHECK(!rg_compat_check(RG_COMPAT_BACKWARD, rs, &p, 1, &l),
				 "a check past the budget is not compatible");
		RG_CHECK(rg_compat_too_large(&l, 1), "rg_compat_too_large sees it");
		RG_CHECK(!rg_compat_too_large(&l, l.n), "and not in messages after it");
	}
	rg_arena_destroy(a);
	rg_schema_free(ws);
	rg_schema_free(rs);
	free(w);
	free(r);
}

/* A pattern's compilation: NULL with the too-large error, quickly. */
static void
expect_too_large(const char *pattern, const char *name)
{
	rg_arena   *a = rg_arena_create();
	const char *error = NULL;
	double		t0 = now();
	js_regex   *re = js_regex_compile(a, pattern, &error);
	double		s = now() - t0;

	RG_CHECK(re == NULL && error == js_regex_too_large, "%s: refused as too large (%s)",
			 name, error ? error : "compiled");
	RG_CHECK(s < 0.5, "%s: refused in %.3f s", name, s);
	rg_arena_destroy(a);
}

/* Regular expressions: counted repetitions bounded by their expanded size. */
static void
test_regex(void)
{
	rg_arena   *a = rg_arena_create();
	const char *error = NULL;
	js_regex   *re;
	long		budget = 1000000;
	char	   *long_pattern;

	expect_too_large("((a{1,1000}){1,1000}){1,1000}", "nested counted repeats (28 characters)");
	expect_too_large("(a{1,1000}){1,300}", "(a{1,1000}){1,300}");
	expect_too_large("((((){1000}){1000}){1000}){1000}", "nested counts of an empty group");
	expect_too_large("((((x{0}){1000}){1000}){1000}){1000}", "nested counts of x{0}");
	long_pattern = malloc(200001);
	memset(long_pattern, 'a', 200000);
	long_pattern[200000] = '\0';
	expect_too_large(long_pattern, "a pattern of 200,000 bytes");
	free(long_pattern);

	re = js_regex_compile(a, "^(ab){2,900}$", &error);
	RG_CHECK(re != NULL, "a counted repetition within the bound compiles (%s)",
			 error ? error : "ok");
	if (re != NULL)
	{
		RG_CHECK(js_regex_search(re, "ababab", 6, &budget) == 1, "and matches");
		RG_CHECK(js_regex_search(re, "ab", 2, &budget) == 0, "and refuses too few");
	}
	rg_arena_destroy(a);
}

/* patternProperties keys in the JSON diff go through the same matcher. */
static void
test_pattern_properties(void)
{
	static const char *patterns[] = {
		"((a{1,1000}){1,1000}){1,1000}",
		"(a{1,1000}){1,300}",
	};
	int			k;

	for (k = 0; k < 2; k++)
	{
		char		w[512];
		char		r[512];
		rg_schema  *ws;
		rg_schema  *rs;
		verdict		v;

		snprintf(w, sizeof(w), "{\"type\":\"object\",\"patternProperties\":{\"%s\":{\"type\":\"string\"}},"
				 "\"additionalProperties\":false}", patterns[k]);
		snprintf(r, sizeof(r), "{\"type\":\"object\",\"properties\":{\"aaa\":{\"type\":\"string\"}},"
				 "\"patternProperties\":{\"%s\":{\"type\":\"string\"}},"
				 "\"additionalProperties\":false}", patterns[k]);
		ws = json_parse(w);
		rs = json_parse(r);
		if (ws != NULL && rs != NULL)
		{
			v = check(rg_json_can_read, rs, ws);
			RG_CHECK(!v.ok && v.n == 1 && strcmp(v.first, RG_COMPAT_TOO_LARGE) == 0,
					 "patternProperties %s against an added property: too large (%s)",
					 patterns[k], v.first);
			RG_CHECK(v.seconds < 1.0, "patternProperties %s: answered in %.3f s",
					 patterns[k], v.seconds);
		}
		else
			RG_CHECK(false, "patternProperties %s: schemas load", patterns[k]);
		rg_schema_free(ws);
		rg_schema_free(rs);
	}
}

/* A .proto library of `levels` messages, each with two fields of the one below. */
static char *
proto_chain(int levels, const char *bottom_type)
{
	tbuf		t = {0};
	int			k;

	add(&t, "syntax = \"proto3\";\npackage lib;\nmessage M0 { %s v = 1; }\n", bottom_type);
	for (k = 1; k <= levels; k++)
		add(&t, "message M%d { M%d a = 1; M%d b = 2; }\n", k, k - 1, k - 1);
	return t.s;
}

/* Parse a main file that uses the chain's top from an import. */
static rg_schema *
proto_parse_chain(const char *lib, int levels)
{
	char		main_text[256];
	rg_reference ref;
	rg_error	err;
	rg_schema  *s;

	snprintf(main_text, sizeof(main_text),
			 "syntax = \"proto3\";\npackage app;\nimport \"lib.proto\";\n"
			 "message Root { lib.M%d top = 1; }\n", levels);
	ref.name = "lib.proto";
	ref.schema = lib;
	ref.schema_len = strlen(lib);
	rg_error_clear(&err);
	s = rg_protobuf_parse(main_text, strlen(main_text), &ref, 1, false, &err);
	if (s == NULL)
		printf("# parse failed: %s\n", err.message);
	return s;
}

/* Protobuf: a type used twice at each level of an imported chain. */
static void
test_proto_chain(int levels)
{
	char	   *wl = proto_chain(levels, "int32");
	char	   *rl = proto_chain(levels, "string");
	rg_schema  *ws = proto_parse_chain(wl, levels);
	rg_schema  *rs = proto_parse_chain(rl, levels);
	verdict		v;

	if (ws == NULL || rs == NULL)
		RG_CHECK(false, "Protobuf chain of %d: schemas load", levels);
	else
	{
		v = check(rg_protobuf_can_read, rs, ws);
		RG_CHECK(!v.ok, "Protobuf chain of %d, bottom changed: incompatible", levels);
		RG_CHECK(v.n == RG_COMPAT_MAX_MESSAGES + 1,
				 "Protobuf chain of %d: %d messages listed, then one line (got %d: %s)",
				 levels, RG_COMPAT_MAX_MESSAGES, v.n, v.last);
		RG_CHECK(strstr(v.last, "TOO_MANY_DIFFERENCES") != NULL,
				 "Protobuf chain of %d: the last line says how many more", levels);
		RG_CHECK(strstr(v.first, "FIELD_SCALAR_KIND_CHANGED") != NULL,
				 "Protobuf chain of %d: the first message is the changed bottom (%s)",
				 levels, v.first);
		RG_CHECK(v.seconds < 5.0, "Protobuf chain of %d: answered in %.3f s", levels, v.seconds);
		v = check(rg_protobuf_can_read, ws, ws);
		RG_CHECK(v.ok && v.n == 0, "Protobuf chain of %d against itself: compatible", levels);
	}
	rg_schema_free(ws);
	rg_schema_free(rs);
	free(wl);
	free(rl);
}

/*
 * A kept diff is used only where the recursion guard would cut nothing
 * else: these mutually recursive imported types, some reached again while
 * one of the messages their earlier diff entered is on the stack, give
 * the 47 differences the diff gave before anything was kept (every one
 * listed, in order; keeping the first diff of each pair regardless gave 57).
 */
static const char *const c010_expected[] = {
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/Root/1",
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/M5/2",
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/M3/1",
	"FIELD_NAMED_TYPE_CHANGED #/M2/2",
	"FIELD_KIND_CHANGED #/M2/3",
	"FIELD_NAMED_TYPE_CHANGED #/M5/3",
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/M5/4",
	"FIELD_NAMED_TYPE_CHANGED #/M4/1",
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/M3/1",
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/M5/2",
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/M5/4",
	"FIELD_NAMED_TYPE_CHANGED #/M3/3",
	"FIELD_NAMED_TYPE_CHANGED #/M2/2",
	"FIELD_KIND_CHANGED #/M2/3",
	"FIELD_NAMED_TYPE_CHANGED #/M4/2",
	"FIELD_NAMED_TYPE_CHANGED #/M4/3",
	"FIELD_NAMED_TYPE_CHANGED #/M0/1",
	"FIELD_NAMED_TYPE_CHANGED #/Root/2",
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/M5/2",
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/M3/1",
	"FIELD_NAMED_TYPE_CHANGED #/M2/2",
	"FIELD_KIND_CHANGED #/M2/3",
	"FIELD_NAMED_TYPE_CHANGED #/M5/3",
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/M5/4",
	"FIELD_NAMED_TYPE_CHANGED #/M4/1",
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/M3/1",
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/M5/2",
	"FIELD_KIND_CHANGED #/M1/1",
	"FIELD_NAMED_TYPE_CHANGED #/M5/4",
	"FIELD_NAMED_TYPE_CHANGED #/M3/3",
	"FIELD_NAMED_TYPE_CHANGED #/M2/2",
	"FIELD_KIND_CHANGED #/M2/3",
	"FIELD_NAMED_TYPE_CHANGED #/M4/2",
	"FIELD_NAMED_TYPE_CHANGED #/M4/3",
	"FIELD_NAMED_TYPE_CHANGED #/Root/3",
};

static void
test_proto_recursive_memo(void)
{
	static const char main_text[] =
	"syntax = \"proto3\"; package app; import \"dep.proto\"; "
	"message Root { lib.M1 r0 = 1; lib.M0 r1 = 2; lib.M4 r2 = 3; }";
	static const char lib_a[] =
	"syntax = \"proto3\"; package lib;\n"
	"message M0 { M4 f0 = 1; }\n"
	"message M1 { M3 f0 = 1; }\n"
	"message M2 { string f0 = 1; M3 f1 = 2; M1 f2 = 3; }\n"
	"message M3 { M1 f0 = 1; double f1 = 2; M5 f2 = 3; }\n"
	"message M4 { M5 f0 = 1; M2 f1 = 2; M1 f2 = 3; }\n"
	"message M5 { int32 f0 = 1; M1 f1 = 2; M2 f2 = 3; M1 f3 = 4; }\n";
	static const char lib_b[] =
	"syntax = \"proto3\"; package lib;\n"
	"message M0 { M4 f0 = 1; }\n"
	"message M1 { fixed32 f0 = 1; }\n"
	"message M2 { string f0 = 1; M3 f1 = 2; sint32 f2 = 3; }\n"
	"message M3 { M1 f0 = 1; double f1 = 2; M5 f2 = 3; }\n"
	"message M4 { M5 f0 = 1; M2 f1 = 2; M3 f2 = 3; }\n"
	"message M5 { int32 f0 = 1; M1 f1 = 2; M2 f2 = 3; M1 f3 = 4; }\n";
	rg_reference ra = {"dep.proto", lib_a, sizeof(lib_a) - 1};
	rg_reference rb = {"dep.proto", lib_b, sizeof(lib_b) - 1};
	rg_error	err;
	rg_schema  *a = rg_protobuf_parse(main_text, sizeof(main_text) - 1, &ra, 1, false, &err);
	rg_schema  *b = rg_protobuf_parse(main_text, sizeof(main_text) - 1, &rb, 1, false, &err);
	rg_arena   *arena = rg_arena_create();
	rg_strlist	l;
	int			n = (int) (sizeof(c010_expected) / sizeof(c010_expected[0]));
	int			i;
	int			first_bad = -1;

	rg_strlist_init(&l, arena);
	if (a == NULL || b == NULL || !rg_protobuf_differences(a, b, &l))
		RG_CHECK(false, "recursive imported types: the diff runs");
	else
	{
		for (i = 0; i < n && i < l.n && first_bad < 0; i++)
			if (strcmp(l.items[i], c010_expected[i]) != 0)
				first_bad = i;
		RG_CHECK(l.n == n && first_bad < 0,
				 "recursive imported types: the %d differences of the diff without kept results "
				 "(got %d, first different: %d)", n, l.n, first_bad);
	}
	rg_arena_destroy(arena);
	rg_schema_free(a);
	rg_schema_free(b);
}

int
main(void)
{
	test_json_chain(CHAIN_PROPERTIES, "$ref/properties", 18);
	test_json_chain(CHAIN_PROPERTIES, "$ref/properties", 60);
	test_json_chain(CHAIN_PREFIX_ITEMS, "prefixItems", 18);
	test_json_chain(CHAIN_PREFIX_ITEMS, "prefixItems", 60);
	test_json_chain_uncountable();
	test_json_all_of_chain(18);
	test_json_all_of_chain(60);
	test_json_budget();
	test_too_large_seen();
	test_regex();
	test_pattern_properties();
	test_proto_chain(18);
	test_proto_chain(60);
	test_proto_recursive_memo();
	return rg_test_done();
}
