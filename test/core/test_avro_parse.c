/*-------------------------------------------------------------------------
 *
 * test_avro_parse.c
 *	  Unit tests of the Avro schema parser, the stored-form writer and
 *	  normalize=true.
 *
 * Expected stored forms are what Avro Java 1.11's Schema.toString()
 * prints for the same input (derived from its rules, see
 * doc/design.md#stored-form and #normalize); expected errors are checked
 * by the distinctive part of the message.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_test.h"
#include "rg_avro.h"

static char errbuf[RG_ERROR_MAX];
static rg_errcode errcode;

/*
 * A stored form parsed for its model only (as the backend's cache parses
 * stored schemas) keeps no text and writes that text again (every stored
 * form below goes through this).
 */
static void
check_text_again(const char *text, const rg_reference *refs, int n_refs)
{
	rg_error	err;
	rg_schema  *s = rg_parse_for_model(&rg_format_avro, text, strlen(text), refs, n_refs, &err);
	rg_buf		buf;
	size_t		len = 0;
	const char *again;

	RG_CHECK(s != NULL && s->canonical == NULL, "parsed without its text: %s", text);
	if (s == NULL)
		return;
	rg_buf_init(&buf);
	again = rg_schema_text(s, &buf, &len);
	RG_CHECK(again != NULL && len == strlen(text) && strcmp(again, text) == 0,
			 "text written again: %s", text);
	rg_buf_free(&buf);
	rg_schema_free(s);
}

/* Stored form of text (malloc'd), or NULL with errbuf set. */
static char *
stored_refs(const char *text, const rg_reference *refs, int n_refs, bool normalize)
{
	rg_error	err;
	rg_schema  *s = rg_avro_parse(text, strlen(text), refs, n_refs, normalize, &err);
	char	   *out;

	if (s == NULL)
	{
		snprintf(errbuf, sizeof(errbuf), "%s", err.message);
		errcode = err.code;
		return NULL;
	}
	errbuf[0] = '\0';
	errcode = RG_OK;
	out = malloc(s->canonical_len + 1);
	memcpy(out, s->canonical, s->canonical_len + 1);
	if (strlen(out) != s->canonical_len)
		printf("# canonical_len mismatch\n");
	rg_schema_free(s);
	check_text_again(out, refs, n_refs);
	return out;
}

static char *
stored(const char *text)
{
	return stored_refs(text, NULL, 0, false);
}

#define CHECK_STORED(in, want, name) \
	do { \
		char *got_ = stored(in); \
		RG_CHECK_STR(got_, want, "stored form: %s", name); \
		if (got_ == NULL) printf("#   error: %s\n", errbuf); \
		free(got_); \
	} while (0)

#define CHECK_NORMALIZED(in, want, name) \
	do { \
		char *got_ = stored_refs(in, NULL, 0, true); \
		RG_CHECK_STR(got_, want, "normalized: %s", name); \
		if (got_ == NULL) printf("#   error: %s\n", errbuf); \
		free(got_); \
	} while (0)

#define CHECK_ERROR(in, fragment, name) \
	do { \
		char *got_ = stored(in); \
		int ok_ = got_ == NULL && errcode == RG_ERR_INVALID_SCHEMA && strstr(errbuf, fragment) != NULL; \
		RG_CHECK(ok_, "rejected: %s", name); \
		if (!ok_) printf("#   got: %s / error: %s\n#   want error containing: %s\n", got_ ? got_ : "(null)", errbuf, fragment); \
		free(got_); \
	} while (0)

static void
test_primitives_and_variants(void)
{
	static const char *const prims[] = {
		"null", "boolean", "int", "long", "float", "double", "bytes", "string"
	};
	int			i;

	for (i = 0; i < 8; i++)
	{
		char		a[64];
		char		b[64];
		char		want[64];

		snprintf(a, sizeof(a), "\"%s\"", prims[i]);
		snprintf(b, sizeof(b), " { \"type\" : \"%s\" } ", prims[i]);
		snprintf(want, sizeof(want), "\"%s\"", prims[i]);
		CHECK_STORED(a, want, prims[i]);
		CHECK_STORED(b, want, prims[i]);
	}
	CHECK_STORED("{\"type\":\"int\",\"name\":\"x\",\"doc\":\"d\",\"aliases\":[\"a\"]}", "\"int\"",
				 "reserved attributes of a primitive are dropped");
	CHECK_STORED("{\"type\":\"string\",\"avro.java.string\":\"String\"}",
				 "{\"type\":\"string\",\"avro.java.string\":\"String\"}", "primitive with a property");

	/* whitespace and key order do not matter */
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}",
				 "compact record");
	CHECK_STORED("\n{ \"fields\" : [ { \"type\" : { \"type\" : \"int\" } , \"name\" : \"a\" } ] ,\n"
				 "  \"name\" : \"R\" , \"type\" : \"record\" }\n",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}",
				 "same record, other key order and whitespace");
	CHECK_STORED("[\"null\", {\"type\":\"string\"}]", "[\"null\",\"string\"]", "union");
	CHECK_STORED("[]", "[]", "empty union");
	CHECK_STORED("{\"type\":\"array\",\"items\":{\"type\":\"map\",\"values\":\"long\"}}",
				 "{\"type\":\"array\",\"items\":{\"type\":\"map\",\"values\":\"long\"}}", "array of map");
	CHECK_STORED("{\"type\":\"array\",\"items\":\"int\",\"x\":1}",
				 "{\"type\":\"array\",\"items\":\"int\",\"x\":1}", "array property");
	CHECK_STORED("{\"type\":\"error\",\"name\":\"E\",\"fields\":[]}",
				 "{\"type\":\"error\",\"name\":\"E\",\"fields\":[]}", "error record");
	CHECK_STORED("{\"type\":\"enum\",\"name\":\"E\",\"doc\":\"d\",\"symbols\":[\"A\",\"B\"],\"default\":\"B\",\"x\":true,\"aliases\":[\"F\"]}",
				 "{\"type\":\"enum\",\"name\":\"E\",\"doc\":\"d\",\"symbols\":[\"A\",\"B\"],\"default\":\"B\",\"x\":true,\"aliases\":[\"F\"]}",
				 "enum with everything");
	CHECK_STORED("{\"aliases\":[\"G\"],\"x\":1,\"size\":16,\"doc\":\"d\",\"name\":\"F\",\"type\":\"fixed\"}",
				 "{\"type\":\"fixed\",\"name\":\"F\",\"doc\":\"d\",\"size\":16,\"x\":1,\"aliases\":[\"G\"]}",
				 "fixed key order");
	CHECK_STORED("{\"type\":\"fixed\",\"name\":\"F\",\"size\":0}",
				 "{\"type\":\"fixed\",\"name\":\"F\",\"size\":0}", "fixed of size 0");
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"default\":1,\"fields\":[]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[],\"default\":1}",
				 "\"default\" on a record is a property");
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"aliases\":[\"b\",\"c\",\"b\"],\"p\":[1],\"order\":\"DESCENDING\",\"doc\":\"fd\",\"default\":5,\"type\":\"int\",\"name\":\"a\"},"
				 "{\"name\":\"b\",\"type\":\"int\",\"order\":\"ignore\"},{\"name\":\"c\",\"type\":\"int\",\"order\":\"ascending\"}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\",\"doc\":\"fd\",\"default\":5,\"order\":\"descending\",\"aliases\":[\"b\",\"c\"],\"p\":[1]},"
				 "{\"name\":\"b\",\"type\":\"int\",\"order\":\"ignore\"},{\"name\":\"c\",\"type\":\"int\"}]}",
				 "field key order, order and alias dedupe");

	/*
	 * Jackson (as Avro configures it) allows comments; text after the value
	 * is ignored
	 */
	CHECK_STORED("/* c */ {\"type\" : // line\n \"int\"}", "\"int\"", "comments");
	CHECK_STORED("\"long\" trailing", "\"long\"", "text after the first JSON value");
}

static void
test_namespaces(void)
{
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"a.b\",\"fields\":[]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"a.b\",\"fields\":[]}", "namespace attribute");
	CHECK_STORED("{\"type\":\"record\",\"name\":\"a.b.R\",\"namespace\":\"x.y\",\"fields\":[]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"a.b\",\"fields\":[]}", "dotted name wins");
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"\",\"fields\":[]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}", "empty namespace is none");
	/* nested: inherited, own, explicit null, references relative or full */
	CHECK_STORED("{\"type\":\"record\",\"name\":\"a.b.R\",\"fields\":["
				 "{\"name\":\"x\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"fields\":["
				 "{\"name\":\"y\",\"type\":{\"type\":\"enum\",\"name\":\"c.E\",\"symbols\":[\"A\"]}},"
				 "{\"name\":\"z\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"namespace\":\"\",\"size\":4}}]}},"
				 "{\"name\":\"w\",\"type\":\"S\"},{\"name\":\"w2\",\"type\":\"a.b.S\"},"
				 "{\"name\":\"v\",\"type\":\"c.E\"},{\"name\":\"u\",\"type\":\"F\"}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"a.b\",\"fields\":["
				 "{\"name\":\"x\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"fields\":["
				 "{\"name\":\"y\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"namespace\":\"c\",\"symbols\":[\"A\"]}},"
				 "{\"name\":\"z\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"namespace\":\"\",\"size\":4}}]}},"
				 "{\"name\":\"w\",\"type\":\"S\"},{\"name\":\"w2\",\"type\":\"S\"},"
				 "{\"name\":\"v\",\"type\":\"c.E\"},{\"name\":\"u\",\"type\":\"F\"}]}",
				 "nested namespaces");
	/* a namespaced record nested in a different namespace */
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"a\",\"fields\":["
				 "{\"name\":\"x\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"namespace\":\"b\",\"fields\":["
				 "{\"name\":\"y\",\"type\":{\"type\":\"record\",\"name\":\"T\",\"fields\":[]}}]}},"
				 "{\"name\":\"t\",\"type\":\"b.T\"}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"a\",\"fields\":["
				 "{\"name\":\"x\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"namespace\":\"b\",\"fields\":["
				 "{\"name\":\"y\",\"type\":{\"type\":\"record\",\"name\":\"T\",\"fields\":[]}}]}},"
				 "{\"name\":\"t\",\"type\":\"b.T\"}]}",
				 "inherited namespace is the innermost one");
	/* a short name is looked up in the current namespace, then without one */
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"a\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"X\"]}},"
				 "{\"name\":\"b\",\"type\":{\"type\":\"record\",\"name\":\"n.S\",\"fields\":[{\"name\":\"c\",\"type\":\"E\"}]}}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"a\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"X\"]}},"
				 "{\"name\":\"b\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"namespace\":\"n\",\"fields\":[{\"name\":\"c\",\"type\":\"E\"}]}}]}",
				 "fallback to the null namespace");
	/* {"type":"<defined name>"} is the defined type */
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":[\"null\",{\"type\":\"R\",\"x\":1}]}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":[\"null\",\"R\"]}]}",
				 "type attribute naming a defined type");
	/* aliases: qualified with the type's namespace, written relative to it */
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"aliases\":[\"A\",\"m.B\",\"n.C\",\"A\"],\"fields\":[]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"fields\":[],\"aliases\":[\"A\",\"m.B\",\"C\"]}",
				 "type aliases");
}

static void
test_model(void)
{
	const char *text =
	"{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"aliases\":[\"Old\"],\"fields\":["
	"{\"name\":\"a\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"X\",\"Y\"],\"default\":\"Y\"},\"aliases\":[\"aa\"]},"
	"{\"name\":\"b\",\"type\":[\"null\",\"E\",\"R\"],\"default\":null},"
	"{\"name\":\"c\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2,\"z\":null}},"
	"{\"name\":\"d\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":3},\"q\":\"v\",\"order\":\"ignore\"}]}";
	rg_error	err;
	rg_schema  *s = rg_avro_parse(text, strlen(text), NULL, 0, false, &err);
	rg_avro_parsed *p;
	rg_avro_schema *r;

	RG_CHECK(s != NULL, "model: parses");
	if (s == NULL)
		return;
	RG_CHECK(s->format == &rg_format_avro, "model: format");
	p = s->model;
	r = p->root;
	RG_CHECK(p->n_ref_types == 0, "model: no reference types");
	RG_CHECK(r->type == RG_AVRO_RECORD && r->n_fields == 4, "model: record of 4 fields");
	RG_CHECK_STR(r->name, "R", "model: simple name");
	RG_CHECK_STR(r->space, "n", "model: namespace");
	RG_CHECK_STR(r->fullname, "n.R", "model: full name");
	RG_CHECK(r->n_aliases == 1 && strcmp(r->aliases[0], "n.Old") == 0, "model: alias fully qualified");
	RG_CHECK(r->fields[0].type->type == RG_AVRO_ENUM && r->fields[0].type->n_symbols == 2, "model: enum");
	RG_CHECK_STR(r->fields[0].type->enum_default, "Y", "model: enum default");
	RG_CHECK_STR(r->fields[0].type->fullname, "n.E", "model: enum inherits namespace");
	RG_CHECK(r->fields[0].extra->n_aliases == 1 && strcmp(r->fields[0].extra->aliases[0], "aa") == 0, "model: field alias unqualified");
	RG_CHECK(r->fields[0].default_value == NULL, "model: no default");
	RG_CHECK(r->fields[1].type->n_branches == 3, "model: union branches");
	RG_CHECK(r->fields[1].type->branches[1] == r->fields[0].type, "model: enum reference is the same object");
	RG_CHECK(r->fields[1].type->branches[2] == r, "model: recursive reference is the record itself");
	RG_CHECK(r->fields[1].default_value != NULL && json_is_null(r->fields[1].default_value), "model: null default kept");
	RG_CHECK(r->fields[2].type->type == RG_AVRO_BYTES && r->fields[2].type->n_props == 4, "model: logical type props");
	RG_CHECK(r->fields[2].type->n_props == 4 &&
			 strcmp(r->fields[2].type->props[0].key, "logicalType") == 0 &&
			 strcmp(r->fields[2].type->props[1].key, "precision") == 0 &&
			 strcmp(r->fields[2].type->props[2].key, "scale") == 0 &&
			 strcmp(r->fields[2].type->props[3].key, "z") == 0 &&
			 json_integer_value(r->fields[2].type->props[1].value) == 9, "model: props in input order");
	RG_CHECK(r->fields[3].type->type == RG_AVRO_FIXED && r->fields[3].type->size == 3, "model: fixed size");
	RG_CHECK(r->fields[3].extra->order == RG_AVRO_ORDER_IGNORE && r->fields[2].extra->order == RG_AVRO_ORDER_ASCENDING, "model: order");
	RG_CHECK(r->fields[3].extra->n_props == 1 && strcmp(r->fields[3].extra->props[0].key, "q") == 0, "model: field props");
	RG_CHECK_STR(rg_avro_type_name(RG_AVRO_FIXED), "fixed", "type name");
	RG_CHECK(r->fields[1].type != rg_avro_plain_pair(rg_avro_plain(RG_AVRO_NULL), r->fields[0].type),
			 "model: a union with a named branch is not shared");
	rg_schema_free(s);

	RG_CHECK(rg_format_lookup("AVRO") == &rg_format_avro, "lookup AVRO");
	RG_CHECK(rg_format_lookup("avro") == NULL, "lookup avro: schemaType is matched exactly");
	RG_CHECK(rg_format_lookup("THRIFT") == NULL, "lookup an unknown type");
	RG_CHECK(rg_format_lookup(NULL) == NULL, "lookup NULL");
	RG_CHECK(rg_format_avro.parse == rg_avro_parse && strcmp(rg_format_avro.name, "AVRO") == 0, "format table");
	rg_schema_free(NULL);
}

/*
 * Plain fields share their type nodes and their empty extra; a union of two
 * plain primitives is one static node; anything with properties is not.
 */
static void
test_shared_nodes(void)
{
	const char *text =
	"{\"type\":\"record\",\"name\":\"R\",\"fields\":["
	"{\"name\":\"a\",\"type\":[\"null\",\"string\"],\"default\":null},"
	"{\"name\":\"b\",\"type\":[\"null\",\"string\"]},"
	"{\"name\":\"c\",\"type\":[\"string\",\"null\"]},"
	"{\"name\":\"d\",\"type\":[\"null\",{\"type\":\"string\",\"x\":1}]},"
	"{\"name\":\"e\",\"type\":[\"null\",\"string\",\"long\"],\"doc\":\"D\"}]}";
	rg_error	err;
	rg_schema  *s = rg_avro_parse(text, strlen(text), NULL, 0, false, &err);
	rg_avro_schema *r;

	RG_CHECK(s != NULL, "shared: parses");
	if (s == NULL)
		return;
	r = ((rg_avro_parsed *) s->model)->root;
	RG_CHECK(r->fields[0].type == r->fields[1].type && r->fields[0].type->shared,
			 "shared: one node for every [null, string]");
	RG_CHECK(r->fields[2].type != r->fields[0].type && r->fields[2].type->shared &&
			 r->fields[2].type->branches[0]->type == RG_AVRO_STRING,
			 "shared: [string, null] is another node, in its order");
	RG_CHECK(!r->fields[3].type->shared && !r->fields[4].type->shared,
			 "shared: not a branch with properties, not three branches");
	RG_CHECK(r->fields[0].extra == &rg_avro_no_extra && r->fields[3].extra == &rg_avro_no_extra,
			 "shared: the empty extra");
	RG_CHECK(r->fields[4].extra != &rg_avro_no_extra && strcmp(r->fields[4].extra->doc, "D") == 0,
			 "shared: a doc gets an extra of its own");
	RG_CHECK(rg_avro_plain_pair(rg_avro_plain(RG_AVRO_INT), rg_avro_plain(RG_AVRO_INT)) == NULL,
			 "shared: no pair of one primitive twice");
	rg_schema_free(s);
}

static void
test_defaults(void)
{
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"a\",\"type\":\"double\",\"default\":1},"
				 "{\"name\":\"b\",\"type\":\"double\",\"default\":1.0},"
				 "{\"name\":\"c\",\"type\":\"double\",\"default\":0.001},"
				 "{\"name\":\"d\",\"type\":\"double\",\"default\":1e7},"
				 "{\"name\":\"e\",\"type\":\"double\",\"default\":0.0001},"
				 "{\"name\":\"f\",\"type\":\"double\",\"default\":-0.0},"
				 "{\"name\":\"g\",\"type\":\"double\",\"default\":1E2},"
				 "{\"name\":\"h\",\"type\":\"double\",\"default\":123456789.125},"
				 "{\"name\":\"i\",\"type\":\"double\",\"default\":9999999.0},"
				 "{\"name\":\"j\",\"type\":\"float\",\"default\":0.1},"
				 "{\"name\":\"k\",\"type\":\"double\",\"default\":1.7976931348623157e308},"
				 "{\"name\":\"l\",\"type\":\"double\",\"default\":-2.5e-10},"
				 "{\"name\":\"m\",\"type\":\"long\",\"default\":-9007199254740993},"
				 "{\"name\":\"n\",\"type\":\"double\",\"default\":4.9e-324},"
				 "{\"name\":\"o\",\"type\":\"double\",\"default\":1e23},"
				 "{\"name\":\"p\",\"type\":\"double\",\"default\":0.30000000000000004}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"a\",\"type\":\"double\",\"default\":1},"
				 "{\"name\":\"b\",\"type\":\"double\",\"default\":1.0},"
				 "{\"name\":\"c\",\"type\":\"double\",\"default\":0.001},"
				 "{\"name\":\"d\",\"type\":\"double\",\"default\":1.0E7},"
				 "{\"name\":\"e\",\"type\":\"double\",\"default\":1.0E-4},"
				 "{\"name\":\"f\",\"type\":\"double\",\"default\":-0.0},"
				 "{\"name\":\"g\",\"type\":\"double\",\"default\":100.0},"
				 "{\"name\":\"h\",\"type\":\"double\",\"default\":1.23456789125E8},"
				 "{\"name\":\"i\",\"type\":\"double\",\"default\":9999999.0},"
				 "{\"name\":\"j\",\"type\":\"float\",\"default\":0.1},"
				 "{\"name\":\"k\",\"type\":\"double\",\"default\":1.7976931348623157E308},"
				 "{\"name\":\"l\",\"type\":\"double\",\"default\":-2.5E-10},"
				 "{\"name\":\"m\",\"type\":\"long\",\"default\":-9007199254740993},"
				 "{\"name\":\"n\",\"type\":\"double\",\"default\":4.9E-324},"
				 "{\"name\":\"o\",\"type\":\"double\",\"default\":1.0E23},"
				 "{\"name\":\"p\",\"type\":\"double\",\"default\":0.30000000000000004}]}",
				 "number defaults as Jackson prints them");
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"s\",\"type\":\"string\",\"default\":\"q\\\"\\\\\\n\\t\\r\\b\\f\\u0001\\u001f\\u00e9/\\u20ac\"}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"s\",\"type\":\"string\",\"default\":\"q\\\"\\\\\\n\\t\\r\\b\\f\\u0001\\u001F\xc3\xa9/\xe2\x82\xac\"}]}",
				 "string default escapes");
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"map\",\"values\":\"int\"}},\"default\":[{\"z\":1,\"a\":2},{}]},"
				 "{\"name\":\"r\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"},{\"name\":\"y\",\"type\":\"string\",\"default\":\"d\"}]},\"default\":{\"x\":1}},"
				 "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]},\"default\":\"A\"},"
				 "{\"name\":\"f\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":2},\"default\":\"\\u00ff\\u0000\"},"
				 "{\"name\":\"u\",\"type\":[\"string\",\"null\"],\"default\":\"x\"},"
				 "{\"name\":\"n\",\"type\":\"null\",\"default\":null},"
				 "{\"name\":\"t\",\"type\":\"boolean\",\"default\":false}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"map\",\"values\":\"int\"}},\"default\":[{\"z\":1,\"a\":2},{}]},"
				 "{\"name\":\"r\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"},{\"name\":\"y\",\"type\":\"string\",\"default\":\"d\"}]},\"default\":{\"x\":1}},"
				 "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]},\"default\":\"A\"},"
				 "{\"name\":\"f\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":2},\"default\":\"\xc3\xbf\\u0000\"},"
				 "{\"name\":\"u\",\"type\":[\"string\",\"null\"],\"default\":\"x\"},"
				 "{\"name\":\"n\",\"type\":\"null\",\"default\":null},"
				 "{\"name\":\"t\",\"type\":\"boolean\",\"default\":false}]}",
				 "nested defaults, key order kept");
	/* a string default of a float/double field is read as a number */
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"a\",\"type\":\"double\",\"default\":\"1.5\"},"
				 "{\"name\":\"b\",\"type\":\"float\",\"default\":\"NaN\"}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"a\",\"type\":\"double\",\"default\":1.5},"
				 "{\"name\":\"b\",\"type\":\"float\",\"default\":\"NaN\"}]}",
				 "string defaults of float/double");
	CHECK_STORED("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\",\"default\":-2147483648},"
				 "{\"name\":\"b\",\"type\":\"int\",\"default\":2147483647}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\",\"default\":-2147483648},"
				 "{\"name\":\"b\",\"type\":\"int\",\"default\":2147483647}]}",
				 "int default range ends");

	/*
	 * a record may default to itself through a union whose first branch is
	 * null
	 */
	CHECK_STORED("{\"type\":\"record\",\"name\":\"Node\",\"fields\":[{\"name\":\"next\",\"type\":[\"null\",\"Node\"],\"default\":null}]}",
				 "{\"type\":\"record\",\"name\":\"Node\",\"fields\":[{\"name\":\"next\",\"type\":[\"null\",\"Node\"],\"default\":null}]}",
				 "recursive record with null default");
}

static void
test_errors(void)
{
	char	   *deep;
	size_t		i;
	size_t		n;

	/* JSON */
	CHECK_ERROR("{\"type\":\"int\"", "at line 1, column 13", "unterminated object, with position");
	CHECK_ERROR("{\"type\":\n  \"int\",,}", "at line 2", "syntax error on line 2");
	CHECK_ERROR("", "Invalid JSON", "empty text");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"doc\":\"\xff\",\"fields\":[]}", "Invalid JSON", "invalid UTF-8");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"doc\":\"\xc3\",\"fields\":[]}", "Invalid JSON", "truncated UTF-8");
	/* shape */
	CHECK_ERROR("3", "Schema not yet supported: 3", "number");
	CHECK_ERROR("{}", "No type: {}", "object without type");
	CHECK_ERROR("{\"type\":[\"int\"]}", "No type", "type not a string");
	CHECK_ERROR("{\"type\":\"foo\"}", "Type not supported: foo", "unknown type");
	CHECK_ERROR("\"Foo\"", "Undefined name: \"Foo\"", "undefined name");
	CHECK_ERROR("{\"type\":\"record\",\"fields\":[]}", "No name in schema", "record without name");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\"}", "Record has no fields", "record without fields");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"type\":\"int\"}]}", "No field name", "field without name");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\"}]}", "No field type", "field without type");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"X\"}]}",
				"\"X\" is not a defined name. The type of the \"a\" field must be a defined name", "undefined field type");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"a\",\"type\":\"long\"}]}",
				"Duplicate field a in record R", "duplicate field");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\",\"order\":\"up\"}]}",
				"order", "bad field order");
	CHECK_ERROR("{\"type\":\"array\"}", "Array has no items type", "array without items");
	CHECK_ERROR("{\"type\":\"map\"}", "Map has no values type", "map without values");
	CHECK_ERROR("{\"type\":\"enum\",\"name\":\"E\"}", "Enum has no symbols", "enum without symbols");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"aliases\":\"A\",\"fields\":[]}", "aliases not an array", "aliases not an array");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"aliases\":[1],\"fields\":[]}", "alias not a string: 1", "alias not a string");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"aliases\":[\"a-b\"],\"fields\":[]}", "Illegal character in: a-b", "bad alias name");
	/* names */
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"1R\",\"fields\":[]}", "Illegal initial character: 1R", "name starts with digit");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R-x\",\"fields\":[]}", "Illegal character in: R-x", "name with dash");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"\",\"fields\":[]}", "Empty name", "empty name");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"a.\",\"fields\":[]}", "Empty name", "dotted name ending in a dot");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a.b\",\"type\":\"int\"}]}", "Illegal character in: a.b", "field name with dot");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"\xc3\xa9\",\"type\":\"int\"}]}", "Illegal initial character", "non-ASCII field name");
	CHECK_ERROR("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B-\"]}", "Illegal character in: B-", "bad enum symbol");
	CHECK_ERROR("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",1]}", "Null name", "enum symbol not a string");
	/* redefinition */
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}}]}",
				"Can't redefine: R", "record redefined");
	CHECK_ERROR("[{\"type\":\"enum\",\"name\":\"n.E\",\"symbols\":[\"A\"]},{\"type\":\"fixed\",\"name\":\"E\",\"namespace\":\"n\",\"size\":1}]",
				"Can't redefine: n.E", "enum redefined as fixed");
	/* unions */
	CHECK_ERROR("[[\"int\"]]", "Nested union", "nested union");
	CHECK_ERROR("[\"int\",{\"type\":\"int\"}]", "Duplicate in union:int", "duplicate primitive branch");
	CHECK_ERROR("[{\"type\":\"array\",\"items\":\"int\"},{\"type\":\"array\",\"items\":\"long\"}]", "Duplicate in union:array", "two arrays");
	CHECK_ERROR("[{\"type\":\"map\",\"values\":\"int\"},{\"type\":\"map\",\"values\":\"long\"}]", "Duplicate in union:map", "two maps");
	CHECK_ERROR("[{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]},\"E\"]", "Duplicate in union:E", "same named type twice");
	/* enums, fixed */
	CHECK_ERROR("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"A\"]}", "Duplicate enum symbol: A", "duplicate symbol");
	CHECK_ERROR("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"],\"default\":\"C\"}",
				"The Enum Default: C is not in the enum symbol set: [A, B]", "enum default not a symbol");
	CHECK_ERROR("{\"type\":\"fixed\",\"name\":\"F\",\"size\":-1}", "Invalid fixed size: -1", "negative size");
	CHECK_ERROR("{\"type\":\"fixed\",\"name\":\"F\",\"size\":1.5}", "Invalid or no size", "fractional size");
	CHECK_ERROR("{\"type\":\"fixed\",\"name\":\"F\",\"size\":\"4\"}", "Invalid or no size", "size as string");
	CHECK_ERROR("{\"type\":\"fixed\",\"name\":\"F\",\"size\":4294967296}", "Invalid or no size", "size beyond int");
	CHECK_ERROR("{\"type\":\"fixed\",\"name\":\"F\"}", "Invalid or no size", "no size");
	/* defaults */
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":\"int\",\"default\":\"a\"}]}",
				"Invalid default for field x: \"a\" not a \"int\"", "string default for int");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":\"int\",\"default\":2147483648}]}",
				"Invalid default for field x: 2147483648 not a \"int\"", "int default out of range");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":\"long\",\"default\":1.0}]}",
				"Invalid default for field x: 1.0 not a \"long\"", "real default for long");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":\"boolean\",\"default\":0}]}",
				"not a \"boolean\"", "number default for boolean");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":\"null\",\"default\":\"null\"}]}",
				"not a \"null\"", "string default for null");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":\"string\",\"default\":null}]}",
				"Invalid default for field x: null not a \"string\"", "null default for string");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":[\"int\",\"null\"],\"default\":null}]}",
				"Invalid default for field x: null not a [\"int\",\"null\"]", "union default must match the first branch");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":[\"null\",\"string\"],\"default\":\"s\"}]}",
				"not a [\"null\",\"string\"]", "union default matching a later branch");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]},\"default\":\"B\"}]}",
				"Invalid default for field x: \"B\" not a {\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}", "enum field default not a symbol");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":{\"type\":\"array\",\"items\":\"int\"},\"default\":[1,\"a\"]}]}",
				"not a {\"type\":\"array\",\"items\":\"int\"}", "bad array element");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":{\"type\":\"map\",\"values\":\"int\"},\"default\":[]}]}",
				"not a {\"type\":\"map\",\"values\":\"int\"}", "array default for map");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"fields\":[{\"name\":\"b\",\"type\":\"int\"}]},\"default\":{}}]}",
				"Invalid default for field x: {} not a {\"type\":\"record\",\"name\":\"S\",\"fields\":[{\"name\":\"b\",\"type\":\"int\"}]}",
				"record default missing a field without default");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":\"double\",\"default\":\"abc\"}]}",
				"Invalid default for field x", "unparseable string default for double");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"R\",\"default\":{}}]}",
				"Schema fields not set yet", "record defaulting to itself");
	/* U+0000: fine inside a default, refused where a C string is kept */
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\",\"doc\":\"a\\u0000b\",\"fields\":[]}", "U+0000", "NUL in a doc");
	CHECK_ERROR("{\"type\":\"record\",\"name\":\"R\\u0000x\",\"fields\":[]}", "U+0000", "NUL in a name");
	CHECK_ERROR("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"],\"default\":\"A\\u0000\"}", "U+0000", "NUL in an enum default");
	/* depth */
	n = 300;
	deep = malloc(n * 40 + 16);
	deep[0] = '\0';
	for (i = 0; i < n; i++)
		strcat(deep, "{\"type\":\"array\",\"items\":");
	strcat(deep, "\"int\"");
	for (i = 0; i < n; i++)
		strcat(deep, "}");
	CHECK_ERROR(deep, "deeper than 256", "nesting deeper than 256");
	free(deep);
	n = 100000;
	deep = malloc(n + 1);
	memset(deep, '[', n);
	deep[n] = '\0';
	CHECK_ERROR(deep, "Invalid JSON", "100000 open brackets");
	free(deep);
	{
		char	   *ok;

		n = 250;
		deep = malloc(n * 40 + 16);
		deep[0] = '\0';
		for (i = 0; i < n; i++)
			strcat(deep, "{\"type\":\"array\",\"items\":");
		strcat(deep, "\"int\"");
		for (i = 0; i < n; i++)
			strcat(deep, "}");
		ok = stored(deep);
		RG_CHECK(ok != NULL && strcmp(ok, deep) == 0, "nesting of 250 is accepted");
		free(ok);
		free(deep);
	}
	/* the error value is filled for a NULL-tolerant caller too */
	RG_CHECK(rg_avro_parse("x", 1, NULL, 0, false, NULL) == NULL, "NULL rg_error tolerated");
}

static void
test_references(void)
{
	const char *addr = "{\"type\":\"record\",\"name\":\"Addr\",\"namespace\":\"com.x\",\"fields\":["
	"{\"name\":\"c\",\"type\":{\"type\":\"enum\",\"name\":\"Country\",\"symbols\":[\"US\"]}}]}";
	const char *money = "{\"type\":\"fixed\",\"name\":\"Money\",\"size\":8}";
	rg_reference refs[2];
	rg_error	err;
	rg_schema  *s;
	char	   *out;

	refs[0].name = "com.x.Addr";
	refs[0].schema = addr;
	refs[0].schema_len = strlen(addr);
	refs[1].name = "Money";
	refs[1].schema = money;
	refs[1].schema_len = strlen(money);

	out = stored_refs("{\"type\":\"record\",\"name\":\"Person\",\"namespace\":\"com.x\",\"fields\":["
					  "{\"name\":\"a\",\"type\":\"Addr\"},{\"name\":\"c\",\"type\":\"Country\"},"
					  "{\"name\":\"b\",\"type\":[\"null\",\"com.x.Addr\"]},{\"name\":\"m\",\"type\":\"Money\"}]}",
					  refs, 2, false);
	RG_CHECK_STR(out, "{\"type\":\"record\",\"name\":\"Person\",\"namespace\":\"com.x\",\"fields\":["
				 "{\"name\":\"a\",\"type\":\"Addr\"},{\"name\":\"c\",\"type\":\"Country\"},"
				 "{\"name\":\"b\",\"type\":[\"null\",\"Addr\"]},{\"name\":\"m\",\"type\":\"Money\"}]}",
				 "references are written as names");
	free(out);

	s = rg_avro_parse("[\"null\",\"com.x.Addr\"]", 21, refs, 2, false, &err);
	RG_CHECK(s != NULL, "union of a referenced type parses");
	if (s)
	{
		rg_avro_parsed *p = s->model;

		RG_CHECK(p->n_ref_types == 3, "three reference types (Addr, Country, Money)");
		RG_CHECK(p->n_ref_types == 3 && p->ref_types[0]->is_reference &&
				 strcmp(p->ref_types[1]->fullname, "com.x.Country") == 0 &&
				 strcmp(p->ref_types[2]->fullname, "Money") == 0, "reference types in definition order");
		RG_CHECK(p->root->branches[1] == p->ref_types[0], "use of a referenced type is the reference's object");
		RG_CHECK(!p->root->branches[0]->is_reference, "main types are not references");
		RG_CHECK_STR(s->canonical, "[\"null\",\"com.x.Addr\"]", "top-level reference written as full name");
		rg_schema_free(s);
	}
	out = stored_refs("\"com.x.Addr\"", refs, 1, false);
	RG_CHECK_STR(out, "\"com.x.Addr\"", "a schema that is just a reference");
	free(out);

	out = stored_refs("{\"type\":\"record\",\"name\":\"Addr\",\"namespace\":\"com.x\",\"fields\":[]}", refs, 1, false);
	RG_CHECK(out == NULL && strstr(errbuf, "Can't redefine: com.x.Addr"), "main redefines a referenced type");
	free(out);
	out = stored_refs("\"Addr\"", refs, 0, false);
	RG_CHECK(out == NULL && strstr(errbuf, "Undefined name"), "without the reference the name is undefined");
	free(out);
	refs[1].schema = "{\"type\":\"fixed\"";
	refs[1].schema_len = strlen(refs[1].schema);
	out = stored_refs("\"int\"", refs, 2, false);
	RG_CHECK(out == NULL && strstr(errbuf, "Reference Money: Invalid JSON"), "invalid reference names the reference (%s)", errbuf);
	free(out);
	refs[1].schema = "{\"type\":\"fixed\",\"name\":\"M\",\"size\":-2}";
	refs[1].schema_len = strlen(refs[1].schema);
	out = stored_refs("\"int\"", refs, 2, false);
	RG_CHECK(out == NULL && strstr(errbuf, "Reference Money: Invalid fixed size"), "invalid reference schema (%s)", errbuf);
	free(out);
}

static void
test_normalize(void)
{
	CHECK_NORMALIZED("{\"type\":\"int\"}", "\"int\"", "primitive");
	CHECK_NORMALIZED("{\"type\":\"record\",\"name\":\"D\",\"fields\":[{\"name\":\"f\",\"type\":\"float\",\"default\":1e39}]}",
					 "{\"type\":\"record\",\"name\":\"D\",\"fields\":[{\"name\":\"f\",\"type\":\"float\",\"default\":1.0E39}]}",
					 "a float default beyond float range is kept, not an error (fuzz finding)");
	CHECK_NORMALIZED("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"doc\":\"\",\"z\":1,\"a\":{\"y\":1,\"b\":2},"
					 "\"aliases\":[\"Z\",\"m.B\",\"A\",\"A\"],\"fields\":["
					 "{\"name\":\"f\",\"doc\":\"\",\"type\":\"int\",\"aliases\":[\"h\",\"g\"],\"b\":1,\"a\":2}]}",
					 "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"fields\":["
					 "{\"name\":\"f\",\"type\":\"int\",\"doc\":\"\",\"aliases\":[\"g\",\"h\"],\"a\":2,\"b\":1}],"
					 "\"a\":{\"y\":1,\"b\":2},\"z\":1,\"aliases\":[\"m.B\",\"A\",\"Z\"]}",
					 "sorted props and aliases, empty type doc dropped");
	CHECK_NORMALIZED("{\"type\":\"long\",\"b\":1,\"logicalType\":\"timestamp-millis\",\"a\":0}",
					 "{\"type\":\"long\",\"logicalType\":\"timestamp-millis\",\"a\":0,\"b\":1}", "logical type first");
	CHECK_NORMALIZED("{\"type\":\"long\",\"b\":1,\"logicalType\":\"date\",\"a\":0}",
					 "{\"type\":\"long\",\"a\":0,\"b\":1,\"logicalType\":\"date\"}", "invalid logical type is a plain prop");
	CHECK_NORMALIZED("{\"type\":\"bytes\",\"x\":1,\"scale\":2,\"precision\":4,\"logicalType\":\"decimal\"}",
					 "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":4,\"scale\":2,\"x\":1}", "decimal");
	CHECK_NORMALIZED("{\"type\":\"bytes\",\"x\":1,\"scale\":0,\"precision\":4,\"logicalType\":\"decimal\"}",
					 "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":4,\"scale\":0,\"x\":1}", "decimal scale 0");
	CHECK_NORMALIZED("{\"type\":\"fixed\",\"name\":\"F\",\"size\":2,\"a\":1,\"precision\":4,\"logicalType\":\"decimal\"}",
					 "{\"type\":\"fixed\",\"name\":\"F\",\"size\":2,\"logicalType\":\"decimal\",\"precision\":4,\"a\":1}", "fixed decimal");
	CHECK_NORMALIZED("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"fields\":["
					 "{\"name\":\"s\",\"type\":{\"type\":\"record\",\"name\":\"Sub\",\"namespace\":\"\",\"fields\":[]}},"
					 "{\"name\":\"t\",\"type\":\"Sub\"}]}",
					 "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"fields\":["
					 "{\"name\":\"s\",\"type\":{\"type\":\"record\",\"name\":\"Sub\",\"fields\":[]}},"
					 "{\"name\":\"t\",\"type\":\"Sub\"}]}",
					 "null-namespace type nested in a namespace moves into it");
	CHECK_NORMALIZED("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
					 "{\"name\":\"d\",\"type\":\"double\",\"default\":1},"
					 "{\"name\":\"f\",\"type\":\"float\",\"default\":0.123456789},"
					 "{\"name\":\"u\",\"type\":[\"double\",\"null\"],\"default\":2},"
					 "{\"name\":\"l\",\"type\":\"long\",\"default\":2}]}",
					 "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
					 "{\"name\":\"d\",\"type\":\"double\",\"default\":1.0},"
					 "{\"name\":\"f\",\"type\":\"float\",\"default\":0.12345679},"
					 "{\"name\":\"u\",\"type\":[\"double\",\"null\"],\"default\":2.0},"
					 "{\"name\":\"l\",\"type\":\"long\",\"default\":2}]}",
					 "defaults take the field's type");
	CHECK_NORMALIZED("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
					 "{\"name\":\"b\",\"type\":\"bytes\",\"default\":\"\\u00ff\\u20ac\\u0000z\"}]}",
					 "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
					 "{\"name\":\"b\",\"type\":\"bytes\",\"default\":\"\xc3\xbf?\\u0000z\"}]}",
					 "bytes default through Latin-1");
	/* normalized and plain forms of equivalent texts agree */
	{
		char	   *a = stored_refs("{\"type\":\"record\",\"name\":\"R\",\"fields\":[],\"b\":1,\"a\":2}", NULL, 0, true);
		char	   *b = stored_refs("{\"a\":2,\"fields\":[],\"b\":1,\"name\":\"R\",\"type\":\"record\"}", NULL, 0, true);

		RG_CHECK(a && b && strcmp(a, b) == 0, "normalize makes property order irrelevant");
		free(a);
		free(b);
	}
}

int
main(void)
{
	test_primitives_and_variants();
	test_namespaces();
	test_model();
	test_shared_nodes();
	test_defaults();
	test_errors();
	test_references();
	test_normalize();
	return rg_test_done();
}
