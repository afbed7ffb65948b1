/*-------------------------------------------------------------------------
 *
 * test_parse_limits.c
 *	  Unit tests of the nesting limits: hostile schemas nested deeper than
 *	  any recursive parser can take are refused fast and cleanly (a 42201
 *	  error value, no crash), legitimately deep ones still parse, and every
 *	  recursive routine stops cleanly when the stack-depth hook says so.
 *
 *-------------------------------------------------------------------------
 */
#include <stdarg.h>
#include <time.h>

#include "rg_test.h"
#include "rg_avro.h"
#include "rg_compat.h"
#include "rg_protobuf.h"
#include "proto_internal.h"
#include "proto_scan.h"

/* ---------- helpers ---------- */

/* A growable malloc'd string, for building big texts. */
typedef struct text
{
	char	   *s;
	size_t		len;
	size_t		cap;
}			text;

/* Append printf-style to t. */
static void
			tprintf(text * t, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

static void
tprintf(text * t, const char *fmt,...)
{
	va_list		ap;
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (t->len + n + 1 > t->cap)
	{
		t->cap = (t->len + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
	}
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, n + 1, fmt, ap);
	va_end(ap);
	t->len += n;
}

/* Append s n times. */
static void
trepeat(text * t, const char *s, int n)
{
	int			i;

	for (i = 0; i < n; i++)
		tprintf(t, "%s", s);
}

/* Monotonic seconds, for timing the refusals. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Parse with format f; the schema, or NULL with *err set.  *secs timed. */
static rg_schema *
parse_timed(const rg_format *f, const text * t, const rg_reference *refs,
			int n_refs, rg_error *err, double *secs)
{
	double		t0 = now();
	rg_schema  *s = f->parse(t->s, t->len, refs, n_refs, false, err);

	*secs = now() - t0;
	return s;
}

/* Is text refused as an invalid schema with a message containing want? */
static void
check_refused(const rg_format *f, const text * t, const rg_reference *refs,
			  int n_refs, const char *want, const char *name)
{
	rg_error	err;
	double		secs;
	rg_schema  *s = parse_timed(f, t, refs, n_refs, &err, &secs);

	RG_CHECK(s == NULL && err.code == RG_ERR_INVALID_SCHEMA &&
			 strstr(err.message, want) != NULL,
			 "%s: refused (%zu bytes, %.4f s)", name, t->len, secs);
	if (s != NULL)
		rg_schema_free(s);
	else if (strstr(err.message, want) == NULL)
		printf("#   got:  %.300s\n#   want: ...%s...\n", err.message, want);
}

/* Does text parse? */
static void
check_accepted(const rg_format *f, const text * t, const char *name)
{
	rg_error	err;
	double		secs;
	rg_schema  *s = parse_timed(f, t, NULL, 0, &err, &secs);

	RG_CHECK(s != NULL, "%s: accepted (%.4f s)", name, secs);
	if (s == NULL)
		printf("#   %.300s\n", err.message);
	else
	{
		/* the stored form parses again, to itself */
		rg_schema  *again = f->parse(s->canonical, s->canonical_len, NULL, 0, false, &err);

		RG_CHECK(again != NULL && strcmp(again->canonical, s->canonical) == 0,
				 "%s: the stored form parses to itself", name);
		if (again == NULL)
			printf("#   %.300s\n", err.message);
		rg_schema_free(again);
		rg_schema_free(s);
	}
}

/* ---------- the .proto pre-scan itself ---------- */

/* rg_proto_nesting_ok on small texts: kinds, positions, strings, comments. */
static void
test_proto_scan(void)
{
	int			line = 0,
				col = 0;
	text		t = {0};

	RG_CHECK(rg_proto_nesting_ok("{[(<>)]}", 8, true, 4, &line, &col),
			 "scan: four kinds of bracket, four levels, within 4");
	RG_CHECK(!rg_proto_nesting_ok("{[(<>)]}", 8, true, 3, &line, &col) &&
			 line == 1 && col == 4,
			 "scan: the fourth level is refused at 1:4 (got %d:%d)", line, col);
	RG_CHECK(!rg_proto_nesting_ok("a\n\t{{", 5, true, 1, &line, &col) &&
			 line == 2 && col == 10,
			 "scan: line 2, a tab counts to column 9 as libprotoc counts (got %d:%d)",
			 line, col);
	RG_CHECK(rg_proto_nesting_ok("\"{{{\" '{{{' // {{{\n /* {{{ \n {{{ */ {}", 38, true, 1, &line, &col),
			 "scan: brackets in strings and comments do not count");
	RG_CHECK(!rg_proto_nesting_ok("// {{{\n{{", 9, true, 1, &line, &col) && line == 2,
			 "scan: a line comment ends at the newline");
	RG_CHECK(!rg_proto_nesting_ok("\"abc\n{{", 7, true, 1, &line, &col) && line == 2,
			 "scan: a newline ends an unterminated string, as in libprotoc's tokenizer");
	RG_CHECK(!rg_proto_nesting_ok("\"a\\\"{\"{{", 9, true, 1, &line, &col),
			 "scan: an escaped quote does not end the string");
	RG_CHECK(!rg_proto_nesting_ok("// x\n{{", 7, false, 1, &line, &col) &&
			 !rg_proto_nesting_ok("/* {{ */", 8, false, 1, &line, &col),
			 "scan: text-format mode has no // or /* */ comments (all brackets count)");
	RG_CHECK(!rg_proto_nesting_ok("{ ) { ] { > {", 13, true, 3, &line, &col) && col == 13,
			 "scan: a closing bracket of another kind closes nothing");
	RG_CHECK(rg_proto_nesting_ok("} } { } { }", 11, true, 1, &line, &col),
			 "scan: stray closing brackets are ignored");

	/* linear: 2 MB of balanced nesting within the limit */
	while (t.len < 2 * 1024 * 1024)
		tprintf(&t, "message A { int32 a = 1 [(x) = { a: [1] }]; map<string, string> m = 2; }\n");
	{
		double		t0 = now();
		bool		ok = rg_proto_nesting_ok(t.s, t.len, true, RG_PROTO_MAX_NESTING, &line, &col);
		double		secs = now() - t0;

		RG_CHECK(ok && secs < 1.0, "scan: 2 MB of shallow text in %.4f s", secs);
	}
	free(t.s);
}

/* ---------- PROTOBUF ---------- */

/* message M0 { message M1 { ... } } : depth messages */
static void
nested_messages(text * t, int depth)
{
	int			i;

	tprintf(t, "syntax = \"proto3\";\n");
	for (i = 0; i < depth; i++)
		tprintf(t, "message M%d { ", i);
	trepeat(t, "} ", depth);
	tprintf(t, "\n");
}

/* Hostile .proto texts: refused fast, with the position and the limit. */
static void
test_protobuf_deep(void)
{
	text		t = {0};
	char		want[128];

	/* the report's case: 20,000 nested messages, about 320 KB */
	nested_messages(&t, 20000);
	{
		rg_error	err;
		double		secs;
		rg_schema  *s = parse_timed(&rg_format_protobuf, &t, NULL, 0, &err, &secs);

		RG_CHECK(s == NULL && err.code == RG_ERR_INVALID_SCHEMA,
				 "PROTOBUF 20,000 nested messages (%zu bytes): refused in %.4f s",
				 t.len, secs);
		/* the 101st brace: line 2, column of "{" in "message M100 { " */
		RG_CHECK_STR(err.message,
					 "2:1404: Nesting is deeper than 100 levels (braces, brackets, parentheses and angle brackets together).",
					 "PROTOBUF 20,000 nested messages: the error names the position and the limit");
		RG_CHECK(secs < 0.5, "PROTOBUF 20,000 nested messages: refused fast (%.4f s)", secs);
		rg_schema_free(s);
	}
	free(t.s);

	/* all of it scanned: the deep part at the end of 2 MB of legal text */
	memset(&t, 0, sizeof(t));
	tprintf(&t, "syntax = \"proto3\";\n");
	while (t.len < 2 * 1024 * 1024)
		tprintf(&t, "message A%zu { int32 a = 1; }\n", t.len);
	trepeat(&t, "message D { ", 20000);
	trepeat(&t, "} ", 20000);
	check_refused(&rg_format_protobuf, &t, NULL, 0, "Nesting is deeper than 100 levels",
				  "PROTOBUF 20,000 nested messages after 2 MB of flat ones");
	free(t.s);

	/* closing brackets of other kinds do not hide nesting */
	memset(&t, 0, sizeof(t));
	tprintf(&t, "syntax = \"proto3\";\n");
	trepeat(&t, "message M { ) ] > ", 20000);
	check_refused(&rg_format_protobuf, &t, NULL, 0, "Nesting is deeper than 100 levels",
				  "PROTOBUF 20,000 messages opened between stray ) ] >");
	free(t.s);

	/* nor does a string left open: a newline ends it */
	memset(&t, 0, sizeof(t));
	tprintf(&t, "syntax = \"proto3\"; option java_package = \"unterminated\n");
	trepeat(&t, "message M { ", 20000);
	check_refused(&rg_format_protobuf, &t, NULL, 0, "2:1211: Nesting is deeper than 100",
				  "PROTOBUF nesting after an unterminated string");
	free(t.s);

	/* option values: braces and the text format's angle brackets */
	memset(&t, 0, sizeof(t));
	tprintf(&t, "syntax = \"proto2\"; import \"google/protobuf/descriptor.proto\";\n"
			"message Rec { optional Rec a = 1; }\n"
			"extend google.protobuf.MessageOptions { optional Rec rec = 50000; }\n"
			"message M { option (rec) = { ");
	trepeat(&t, "a < ", 50000);
	trepeat(&t, "> ", 50000);
	tprintf(&t, "}; }\n");
	check_refused(&rg_format_protobuf, &t, NULL, 0, "Nesting is deeper than 100 levels",
				  "PROTOBUF option value nested 50,000 deep with < >");
	free(t.s);
	memset(&t, 0, sizeof(t));
	tprintf(&t, "syntax = \"proto2\"; import \"google/protobuf/descriptor.proto\";\n"
			"message Rec { optional Rec a = 1; }\n"
			"extend google.protobuf.MessageOptions { optional Rec rec = 50000; }\n"
			"message M { optional int32 f = 1 [(x) = { ");
	trepeat(&t, "a: [{ ", 20000);
	tprintf(&t, "}; }\n");
	check_refused(&rg_format_protobuf, &t, NULL, 0, "Nesting is deeper than 100 levels",
				  "PROTOBUF field option value nested 20,000 deep with [{");
	free(t.s);

	/* a reference nested too deep */
	{
		rg_reference ref;
		text		main = {0};

		memset(&t, 0, sizeof(t));
		nested_messages(&t, 20000);
		ref.name = "deep.proto";
		ref.schema = t.s;
		ref.schema_len = t.len;
		tprintf(&main, "syntax = \"proto3\"; import \"deep.proto\"; message A { M0 m = 1; }");
		snprintf(want, sizeof(want), "deep.proto:2:1404: Nesting is deeper than %d levels",
				 RG_PROTO_MAX_NESTING);
		check_refused(&rg_format_protobuf, &main, &ref, 1, want,
					  "PROTOBUF import of a reference nested 20,000 deep");
		free(main.s);
		free(t.s);
	}
}

/* messages nested messages deep, holding an option value value_depth deep */
static void
deep_but_legal(text * t, int messages, int value_depth)
{
	int			i;

	tprintf(t, "syntax = \"proto2\";\nimport \"google/protobuf/descriptor.proto\";\n"
			"message Rec { optional Rec a = 1; optional int32 v = 2; }\n"
			"extend google.protobuf.MessageOptions { optional Rec rec = 50000; }\n");
	for (i = 0; i < messages; i++)
		tprintf(t, "message N%d {\n", i);
	tprintf(t, "option (rec) = { ");
	trepeat(t, "a { ", value_depth - 1);
	tprintf(t, "v: 1 ");
	trepeat(t, "} ", value_depth - 1);
	tprintf(t, "};\noptional int32 x = 1;\n");
	trepeat(t, "}\n", messages);
}

/* Deep-but-legal .proto texts: the limit itself is accepted. */
static void
test_protobuf_legal(void)
{
	text		t = {0};

	/*
	 * 31 nested messages (libprotoc's own limit) and an option value: 100 in
	 * all
	 */
	deep_but_legal(&t, 31, RG_PROTO_MAX_NESTING - 31);
	check_accepted(&rg_format_protobuf, &t,
				   "PROTOBUF 31 nested messages and an option value 69 deep (100 levels)");
	free(t.s);
	memset(&t, 0, sizeof(t));
	deep_but_legal(&t, 31, RG_PROTO_MAX_NESTING - 30);
	check_refused(&rg_format_protobuf, &t, NULL, 0, "Nesting is deeper than 100 levels",
				  "PROTOBUF the same one level deeper (101 levels)");
	free(t.s);

	/* many messages side by side are not nesting */
	memset(&t, 0, sizeof(t));
	tprintf(&t, "syntax = \"proto3\";\n");
	{
		int			i;

		for (i = 0; i < 2000; i++)
			tprintf(&t, "message F%d { map<string, string> m = 1; oneof o { string s = 2; } }\n", i);
	}
	check_accepted(&rg_format_protobuf, &t, "PROTOBUF 2,000 messages side by side");
	free(t.s);
}

/* A base64 FileDescriptorProto whose option value is depth levels deep. */
static char *
descriptor_with_option_depth(int depth)
{
	const char *src = "syntax = \"proto2\"; import \"google/protobuf/descriptor.proto\";\n"
	"message Rec { optional Rec a = 1; }\n"
	"extend google.protobuf.MessageOptions { optional Rec rec = 50000; }\n"
	"message M { option (rec) = { a { } }; }\n";
	rg_error	err;
	rg_schema  *s = rg_protobuf_parse(src, strlen(src), NULL, 0, false, &err);
	proto_model *m;
	Google__Protobuf__UninterpretedOption *o;
	char	   *saved;
	text		value = {0};
	unsigned char *bytes;
	size_t		len;
	char	   *b64;

	if (s == NULL)
	{
		printf("# %s\n", err.message);
		return NULL;
	}
	/* the parse as written keeps the option uninterpreted: deepen it */
	m = (proto_model *) s->model;
	o = m->raw->message_type[1]->options->uninterpreted_option[0];
	trepeat(&value, "a { ", depth - 1);
	trepeat(&value, "} ", depth - 1);
	saved = o->aggregate_value;
	o->aggregate_value = value.s;
	len = protobuf_c_message_get_packed_size((const ProtobufCMessage *) m->raw);
	bytes = malloc(len);
	protobuf_c_message_pack((const ProtobufCMessage *) m->raw, bytes);
	o->aggregate_value = saved;
	rg_schema_free(s);
	free(value.s);
	b64 = rg_test_base64(bytes, len);
	free(bytes);
	return b64;
}

/* Base64 FileDescriptorProtos: their option values are bounded too. */
static void
test_protobuf_descriptor(void)
{
	char	   *b64 = descriptor_with_option_depth(100000);
	text		t = {0};

	RG_CHECK(b64 != NULL, "descriptor with a deep option value built");
	if (b64 == NULL)
		return;
	t.s = b64;
	t.len = strlen(b64);
	check_refused(&rg_format_protobuf, &t, NULL, 0,
				  "An option value nests deeper than 100 levels.",
				  "PROTOBUF base64 descriptor with an option value 100,000 deep");
	{
		rg_reference ref = {"dep.proto", b64, strlen(b64)};
		text		main = {0};

		tprintf(&main, "syntax = \"proto2\"; import \"dep.proto\"; message A { optional M m = 1; }");
		check_refused(&rg_format_protobuf, &main, &ref, 1,
					  "dep.proto: An option value nests deeper than 100 levels.",
					  "PROTOBUF base64 descriptor reference with an option value 100,000 deep");
		free(main.s);
	}
	free(b64);

	b64 = descriptor_with_option_depth(50);
	t.s = b64;
	t.len = b64 ? strlen(b64) : 0;
	if (b64)
		check_accepted(&rg_format_protobuf, &t,
					   "PROTOBUF base64 descriptor with an option value 50 deep");
	free(b64);
}

/* ---------- AVRO ---------- */

/* Deep Avro JSON: refused before jansson; the limits themselves accepted. */
static void
test_avro_deep(void)
{
	text		t = {0};
	int			i;

	/* 20,000 nested arrays: past jansson's own limit too */
	trepeat(&t, "{\"type\":\"array\",\"items\":", 20000);
	tprintf(&t, "\"int\"");
	trepeat(&t, "}", 20000);
	{
		rg_error	err;
		double		secs;
		rg_schema  *s = parse_timed(&rg_format_avro, &t, NULL, 0, &err, &secs);

		RG_CHECK(s == NULL && err.code == RG_ERR_INVALID_SCHEMA,
				 "AVRO 20,000 nested arrays (%zu bytes): refused in %.4f s", t.len, secs);
		RG_CHECK_STR(err.message,
					 "Invalid JSON: nesting deeper than 1000 levels at line 1, column 24001 (position 24001)",
					 "AVRO 20,000 nested arrays: the error names the position and the limit");
		RG_CHECK(secs < 0.5, "AVRO 20,000 nested arrays: refused fast (%.4f s)", secs);
		rg_schema_free(s);
	}
	free(t.s);

	/* JSON nesting in a property: 1000 levels in all is the limit */
	memset(&t, 0, sizeof(t));
	tprintf(&t, "{\"type\":\"int\",\"p\":");
	trepeat(&t, "[", RG_JSON_MAX_NESTING - 1);
	trepeat(&t, "]", RG_JSON_MAX_NESTING - 1);
	tprintf(&t, "}");
	check_accepted(&rg_format_avro, &t, "AVRO a property value 999 deep (1000 levels of JSON)");
	free(t.s);
	memset(&t, 0, sizeof(t));
	tprintf(&t, "{\"type\":\"int\",\"p\":");
	trepeat(&t, "[", RG_JSON_MAX_NESTING);
	trepeat(&t, "]", RG_JSON_MAX_NESTING);
	tprintf(&t, "}");
	check_refused(&rg_format_avro, &t, NULL, 0,
				  "Invalid JSON: nesting deeper than 1000 levels at line 1, column 1018 (position 1018)",
				  "AVRO a property value 1000 deep (1001 levels of JSON)");
	free(t.s);

	/* in a reference */
	{
		rg_reference ref;
		text		main = {0};

		memset(&t, 0, sizeof(t));
		trepeat(&t, "[", 5000);
		ref.name = "R";
		ref.schema = t.s;
		ref.schema_len = t.len;
		tprintf(&main, "\"int\"");
		check_refused(&rg_format_avro, &main, &ref, 1,
					  "Reference R: Invalid JSON: nesting deeper than 1000 levels",
					  "AVRO a reference nested 5,000 deep");
		free(main.s);
		free(t.s);
	}

	/* brackets in strings and after the first value do not count */
	memset(&t, 0, sizeof(t));
	tprintf(&t, "{\"type\":\"string\",\"doc\":\"");
	trepeat(&t, "[{", 5000);
	tprintf(&t, "\\\"\"} // trailing text is ignored, as by Jackson\n");
	trepeat(&t, "[", 5000);
	check_accepted(&rg_format_avro, &t, "AVRO brackets inside strings and after the value");
	free(t.s);

	/* a schema 250 records deep (750 levels of JSON) still parses */
	memset(&t, 0, sizeof(t));
	for (i = 0; i < 250; i++)
		tprintf(&t, "{\"type\":\"record\",\"name\":\"R%d\",\"fields\":[{\"name\":\"f\",\"type\":", i);
	tprintf(&t, "\"int\"");
	trepeat(&t, "}]}", 250);
	check_accepted(&rg_format_avro, &t, "AVRO 250 nested records (750 levels of JSON)");
	free(t.s);
}

/* [R0, R1 {f: R0}, R2 {f: R1}, ...]: deep as a type graph, flat as JSON */
static void
record_chain(text * t, int n, bool defaults)
{
	int			i;

	tprintf(t, "[{\"type\":\"record\",\"name\":\"R0\",\"fields\":[{\"name\":\"a\",\"type\":\"int\",\"default\":1}]}");
	for (i = 1; i < n; i++)
		tprintf(t, ",{\"type\":\"record\",\"name\":\"R%d\",\"fields\":[{\"name\":\"f\",\"type\":\"R%d\"%s}]}",
				i, i - 1, defaults ? ",\"default\":{}" : "");
	tprintf(t, "]");
}

/* Flat JSON, deep type graph: defaults and the checker stay bounded. */
static void
test_avro_chains(void)
{
	text		t = {0};
	rg_error	err;
	rg_schema  *s;
	double		secs;

	/* a default checked through 20,000 records: bounded, not quadratic */
	record_chain(&t, 20000, true);
	check_refused(&rg_format_avro, &t, NULL, 0,
				  "Invalid default for field f: nested deeper than 1000 levels",
				  "AVRO a default checked through a chain of 20,000 records");
	free(t.s);
	memset(&t, 0, sizeof(t));
	record_chain(&t, 500, true);
	check_accepted(&rg_format_avro, &t, "AVRO a default checked through 500 records");
	free(t.s);

	/* the checker on a union of 1,500 chained records: bounded work */
	memset(&t, 0, sizeof(t));
	record_chain(&t, 1500, false);
	s = parse_timed(&rg_format_avro, &t, NULL, 0, &err, &secs);
	RG_CHECK(s != NULL, "AVRO a union of 1,500 chained records parses");
	if (s != NULL)
	{
		rg_arena   *a = rg_arena_create();
		rg_strlist	out;
		bool		ok;
		double		t0 = now();

		rg_strlist_init(&out, a);
		ok = rg_avro_can_read(s, s, &out);
		secs = now() - t0;
		RG_CHECK(!ok && out.n == 1 &&
				 strcmp(out.items[0], "Unexpected exception during compatibility check: schema comparison too large") == 0 &&
				 secs < 5.0,
				 "AVRO checker: a union of 1,500 chained records is too large, said in %.2f s", secs);
		rg_arena_destroy(a);
		rg_schema_free(s);
	}
	free(t.s);

	/* and the same 300 long is checked */
	memset(&t, 0, sizeof(t));
	record_chain(&t, 300, false);
	s = parse_timed(&rg_format_avro, &t, NULL, 0, &err, &secs);
	if (s != NULL)
	{
		rg_arena   *a = rg_arena_create();
		rg_strlist	out;

		rg_strlist_init(&out, a);
		RG_CHECK(rg_avro_can_read(s, s, &out) && out.n == 0,
				 "AVRO checker: a union of 300 chained records reads itself");
		rg_arena_destroy(a);
		rg_schema_free(s);
	}
	free(t.s);
}

/* ---------- the stack-depth hook ---------- */

static int	hook_calls;
static int	hook_trip_after;

/* A hook that reports the stack used up after hook_trip_after calls. */
static bool
tripping_hook(void)
{
	return ++hook_calls > hook_trip_after;
}

/*
 * Parse text with the hook tripping at its k-th call, for k = 0, 1, ...
 * until the parse gets through: every stop must be a clean error value.
 * Returns the number of stops seen.
 */
static int
parse_under_hook(const rg_format *f, const char *src, bool normalize,
				 int *bad)
{
	int			k;

	*bad = 0;
	for (k = 0; k < 100000; k++)
	{
		rg_error	err;
		rg_schema  *s;

		hook_calls = 0;
		hook_trip_after = k;
		rg_stack_check_hook = tripping_hook;
		s = f->parse(src, strlen(src), NULL, 0, normalize, &err);
		rg_stack_check_hook = NULL;
		if (s != NULL)
		{
			rg_schema_free(s);
			return k;
		}
		if (err.code != RG_ERR_INVALID_SCHEMA)
		{
			if (*bad == 0)
				printf("#   stop %d: code %d: %s\n", k, err.code, err.message);
			(*bad)++;
		}
	}
	return k;
}

/* can_read (and for AVRO the canonical form) with the hook tripping at once */
static void
check_under_hook(const rg_format *f, const char *src, const char *name)
{
	rg_error	err;
	rg_schema  *s = f->parse(src, strlen(src), NULL, 0, false, &err);
	rg_arena   *a = rg_arena_create();
	rg_strlist	out;
	bool		ok;

	if (s == NULL)
	{
		RG_CHECK(false, "%s: parses", name);
		return;
	}
	rg_strlist_init(&out, a);
	hook_calls = 0;
	hook_trip_after = 0;
	rg_stack_check_hook = tripping_hook;
	ok = f->can_read(s, s, &out);
	rg_stack_check_hook = NULL;
	RG_CHECK(!ok && out.n == 1 && strstr(out.items[0], "Unexpected exception") != NULL &&
			 strstr(out.items[0], "too deep") != NULL,
			 "%s: the checker stops cleanly when the stack is used up (%s)", name,
			 out.n ? out.items[0] : "no message");
	if (f == &rg_format_avro)
	{
		char	   *pcf;

		hook_calls = 0;
		rg_stack_check_hook = tripping_hook;
		pcf = rg_avro_canonical_form(s, &err);
		rg_stack_check_hook = NULL;
		RG_CHECK(pcf == NULL && err.code == RG_ERR_INVALID_SCHEMA,
				 "%s: the canonical form stops cleanly when the stack is used up", name);
		free(pcf);
	}
	rg_arena_destroy(a);
	rg_schema_free(s);
}

/* Every recursive routine stops cleanly when the stack-depth hook trips. */
static void
test_hook(void)
{
	const char *avro = "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"fields\":["
	"{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"map\",\"values\":\"long\"}},"
	"\"default\":[{\"k\":1}]},"
	"{\"name\":\"b\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"S\",\"fields\":["
	"{\"name\":\"x\",\"type\":\"double\",\"default\":1}]}],\"default\":null,\"p\":{\"q\":[1,[2]]}},"
	"{\"name\":\"c\",\"type\":\"S\",\"default\":{\"x\":2}}]}";
	const char *proto = "syntax = \"proto2\"; package p;\n"
	"import \"google/protobuf/timestamp.proto\";\n"
	"message A { optional group G = 1 { optional int32 x = 2; message In { optional int32 y = 1; } }\n"
	"  message B { message C { map<string, C> m = 1; } optional C c = 1; }\n"
	"  extend A { optional int32 e = 100; } extensions 100 to 200;\n"
	"  optional google.protobuf.Timestamp t = 3; }\n";
	int			bad;
	int			stops;

	stops = parse_under_hook(&rg_format_avro, avro, false, &bad);
	RG_CHECK(stops > 5 && bad == 0,
			 "hook: AVRO parse stopped at each of its %d checks, each time cleanly", stops);
	stops = parse_under_hook(&rg_format_avro, avro, true, &bad);
	RG_CHECK(stops > 5 && bad == 0,
			 "hook: AVRO parse with normalize stopped at each of its %d checks, each time cleanly",
			 stops);
	stops = parse_under_hook(&rg_format_protobuf, proto, false, &bad);
	RG_CHECK(stops > 5 && bad == 0,
			 "hook: PROTOBUF parse stopped at each of its %d checks, each time cleanly", stops);
	check_under_hook(&rg_format_avro, avro, "hook: AVRO");
	check_under_hook(&rg_format_protobuf, proto, "hook: PROTOBUF");

	/* without a hook nothing stops a parse */
	RG_CHECK(!rg_too_deep(RG_MAX_RECURSION) && rg_too_deep(RG_MAX_RECURSION + 1),
			 "hook: without one, the depth counter alone decides (limit %d)", RG_MAX_RECURSION);
}

/*
 * Wide lists: a record of 100,000 fields, an enum of 100,000 symbols and a
 * union of 20,000 records, each with its one repeat at the end, must be
 * refused (with the repeat named) in well under a second; comparing every
 * name with all before it took tens of seconds.
 */
static void
test_avro_wide_lists(void)
{
	const int	n = 100000;
	rg_buf		b;
	rg_error	err;
	rg_schema  *s;
	clock_t		t0;
	double		secs;
	int			i;

	rg_buf_init(&b);
	rg_buf_puts(&b, "{\"type\":\"record\",\"name\":\"W\",\"fields\":[");
	for (i = 0; i < n; i++)
		rg_buf_printf(&b, "%s{\"name\":\"f%d\",\"type\":\"int\"}", i ? "," : "", i);
	rg_buf_puts(&b, ",{\"name\":\"f7\",\"type\":\"int\"}]}");
	t0 = clock();
	s = rg_format_avro.parse(b.data, b.len, NULL, 0, false, &err);
	secs = (double) (clock() - t0) / CLOCKS_PER_SEC;
	RG_CHECK(s == NULL && strstr(err.message, "Duplicate field f7 in record W") != NULL,
			 "a repeated field among %d is refused and named", n);
	RG_CHECK(secs < 2.0, "... in %.3f s", secs);
	rg_schema_free(s);
	rg_buf_free(&b);

	rg_buf_init(&b);
	rg_buf_puts(&b, "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[");
	for (i = 0; i < n; i++)
		rg_buf_printf(&b, "%s\"S%d\"", i ? "," : "", i);
	rg_buf_puts(&b, ",\"S99\"]}");
	t0 = clock();
	s = rg_format_avro.parse(b.data, b.len, NULL, 0, false, &err);
	secs = (double) (clock() - t0) / CLOCKS_PER_SEC;
	RG_CHECK(s == NULL && strstr(err.message, "Duplicate enum symbol: S99") != NULL,
			 "a repeated symbol among %d is refused and named", n);
	RG_CHECK(secs < 2.0, "... in %.3f s", secs);
	rg_schema_free(s);
	rg_buf_free(&b);

	rg_buf_init(&b);
	rg_buf_putc(&b, '[');
	for (i = 0; i < n / 5; i++)
		rg_buf_printf(&b, "%s{\"type\":\"fixed\",\"name\":\"X%d\",\"size\":1}", i ? "," : "", i);
	rg_buf_puts(&b, ",\"X3\"]");
	t0 = clock();
	s = rg_format_avro.parse(b.data, b.len, NULL, 0, false, &err);
	secs = (double) (clock() - t0) / CLOCKS_PER_SEC;
	RG_CHECK(s == NULL && strstr(err.message, "Duplicate in union:X3") != NULL,
			 "a repeated branch among %d is refused and named", n / 5);
	RG_CHECK(secs < 2.0, "... in %.3f s", secs);
	rg_schema_free(s);
	rg_buf_free(&b);
}

int
main(void)
{
	test_proto_scan();
	test_protobuf_deep();
	test_protobuf_legal();
	test_protobuf_descriptor();
	test_avro_deep();
	test_avro_chains();
	test_avro_wide_lists();
	test_hook();
	return rg_test_done();
}
