/*
 * Unit tests of schema tags (rg_tags.h): Confluent's ParsedSchema.copy(
 * tagsToAdd, tagsToRemove) on Avro, JSON and Protobuf schemas (where the
 * "confluent:tags" property lands, the order of the tags, the merge of
 * repeated entities, the search for the entity and its errors), the
 * SchemaTags lists read and written, and Avro's inlineTaggedEntities.
 */
#include "rg_avro.h"
#include "rg_jsonschema.h"
#include "rg_protobuf.h"
#include "rg_tags.h"
#include "rg_test.h"

/*
 * The schema with the tags of two SchemaTags JSON lists added and
 * removed, or "ERROR: <message>" (static buffer).
 */
static const char *
with_tags(const rg_format *format, const char *schema, const char *add, const char *remove)
{
	static char out[8192];
	rg_arena   *arena = rg_arena_create();
	rg_schema_tags *a,
			   *r;
	int			na,
				nr;
	rg_error	err;
	char	   *s;

	rg_error_clear(&err);
	if (!rg_schema_tags_parse(arena, add, strlen(add), &a, &na, &err) ||
		!rg_schema_tags_parse(arena, remove, strlen(remove), &r, &nr, &err))
	{
		snprintf(out, sizeof(out), "ERROR: %s", err.message);
		rg_arena_destroy(arena);
		return out;
	}
	s = rg_schema_with_tags(format, schema, strlen(schema), NULL, 0, a, na, r, nr, NULL, &err);
	if (s == NULL)
		snprintf(out, sizeof(out), "ERROR: %s", err.message);
	else
		snprintf(out, sizeof(out), "%s", s);
	rg_free(s);
	rg_arena_destroy(arena);
	return out;
}

/* a SchemaTags list of one entity (static buffer, two at a time) */
static const char *
one(const char *path, const char *type, const char *tags)
{
	static char bufs[2][1024];
	static int	i;

	i = 1 - i;
	snprintf(bufs[i], sizeof(bufs[i]),
			 "[{\"schemaEntity\":{\"entityPath\":\"%s\",\"entityType\":\"%s\"},\"tags\":%s}]",
			 path, type, tags);
	return bufs[i];
}

/* The findTags answer over an Avro schema, or "ERROR: ..." (static buffer). */
static const char *
tagged(const char *schema, const char *const *find, int n_find)
{
	static char out[8192];
	rg_error	err;
	rg_schema  *s = rg_avro_parse(schema, strlen(schema), NULL, 0, false, &err);
	rg_arena   *arena = rg_arena_create();
	rg_schema_tags *list;
	int			n;
	rg_buf		buf;

	if (s == NULL || !rg_schema_tagged_entities(s, arena, find, n_find, &list, &n, &err))
		snprintf(out, sizeof(out), "ERROR: %s", err.message);
	else
	{
		rg_buf_init(&buf);
		rg_schema_tags_write(&buf, list, n);
		rg_buf_putc(&buf, '\0');
		snprintf(out, sizeof(out), "%s", buf.data);
		rg_buf_free(&buf);
	}
	rg_schema_free(s);
	rg_arena_destroy(arena);
	return out;
}

#define REC "{\"type\":\"record\",\"name\":\"Rec\",\"namespace\":\"ns\",\"fields\":[" \
	"{\"name\":\"f\",\"type\":\"string\"},{\"name\":\"g\",\"type\":\"int\"}]}"

/* Avro: where the property lands and what the tags become. */
static void
test_avro_add_remove(void)
{
	const rg_format *avro = &rg_format_avro;

	RG_CHECK_STR(with_tags(avro, REC, one("ns.Rec.f", "sr_field", "[\"PII\"]"), "[]"),
				 "{\"type\":\"record\",\"name\":\"Rec\",\"namespace\":\"ns\",\"fields\":["
				 "{\"name\":\"f\",\"type\":\"string\",\"confluent:tags\":[\"PII\"]},"
				 "{\"name\":\"g\",\"type\":\"int\"}]}",
				 "a field tag is the field's last property");
	RG_CHECK_STR(with_tags(avro, REC, one("ns.Rec", "sr_record", "[\"B\",\"A\",\"B\"]"), "[]"),
				 "{\"type\":\"record\",\"name\":\"Rec\",\"namespace\":\"ns\",\"fields\":["
				 "{\"name\":\"f\",\"type\":\"string\"},{\"name\":\"g\",\"type\":\"int\"}],"
				 "\"confluent:tags\":[\"B\",\"A\"]}",
				 "a record tag after the fields; tags in the order given, once");
	/* the stored form, not the text: whitespace and attribute order go */
	RG_CHECK_STR(with_tags(avro,
						   "{\"fields\": [{\"type\": \"int\", \"name\": \"a\"}], \"aliases\": [\"Old\"],"
						   " \"name\": \"R\", \"type\": \"record\"}",
						   one("R", "sr_record", "[\"T\"]"), "[]"),
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}],"
				 "\"confluent:tags\":[\"T\"],\"aliases\":[\"Old\"]}",
				 "a new record property comes before the aliases, as Avro writes properties");
	RG_CHECK_STR(with_tags(avro,
						   "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\","
						   "\"aliases\":[\"b\"],\"confluent:tags\":[\"A\"],\"x\":1}]}",
						   one("R.a", "sr_field", "[\"B\",\"A\"]"), "[]"),
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\","
				 "\"aliases\":[\"b\"],\"confluent:tags\":[\"A\",\"B\"],\"x\":1}]}",
				 "existing tags keep their place and order; new ones follow");
	RG_CHECK_STR(with_tags(avro,
						   "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\","
						   "\"confluent:tags\":[\"A\",\"B\"],\"x\":1}]}",
						   "[]", one("R.a", "sr_field", "[\"A\",\"B\",\"C\"]")),
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\",\"x\":1}]}",
				 "removing every tag removes the property");
	RG_CHECK_STR(with_tags(avro,
						   "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\","
						   "\"confluent:tags\":[\"A\",\"B\"]}]}",
						   "[]", one("R.a", "sr_field", "[\"X\"]")),
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\","
				 "\"confluent:tags\":[\"A\",\"B\"]}]}",
				 "removing an absent tag changes nothing");
	RG_CHECK_STR(with_tags(avro, REC, one("ns.Rec.f", "sr_field", "[\"A\",\"B\"]"),
						   one("ns.Rec.f", "sr_field", "[\"A\"]")),
				 "{\"type\":\"record\",\"name\":\"Rec\",\"namespace\":\"ns\",\"fields\":["
				 "{\"name\":\"f\",\"type\":\"string\",\"confluent:tags\":[\"B\"]},"
				 "{\"name\":\"g\",\"type\":\"int\"}]}",
				 "a tag both added and removed is removed");
	RG_CHECK_STR(with_tags(avro, REC, one("ns.Rec.f", "sr_field", "[]"), "[]"), REC,
				 "an empty tag list changes nothing");
	RG_CHECK_STR(with_tags(avro, REC, "[]", "[]"), REC, "no entities: the stored form");
	RG_CHECK_STR(with_tags(avro, REC,
						   "[{\"schemaEntity\":{\"entityPath\":\"ns.Rec.g\",\"entityType\":\"sr_field\"},\"tags\":[\"X\"]},"
						   "{\"schemaEntity\":{\"entityPath\":\"ns.Rec.f\",\"entityType\":\"sr_field\"},\"tags\":[\"Y\"]},"
						   "{\"schemaEntity\":{\"entityPath\":\"ns.Rec.g\",\"entityType\":\"sr_field\"},\"tags\":[\"Z\",\"X\"]}]",
						   "[]"),
				 "{\"type\":\"record\",\"name\":\"Rec\",\"namespace\":\"ns\",\"fields\":["
				 "{\"name\":\"f\",\"type\":\"string\",\"confluent:tags\":[\"Y\"]},"
				 "{\"name\":\"g\",\"type\":\"int\",\"confluent:tags\":[\"X\",\"Z\"]}]}",
				 "a repeated entity merges its tags");
}

/* Avro: how findMatchingEntity finds (or does not find) an entity. */
static void
test_avro_search(void)
{
	const rg_format *avro = &rg_format_avro;
	const char *nested =
	"{\"type\":\"record\",\"name\":\"Outer\",\"namespace\":\"a\",\"fields\":["
	"{\"name\":\"u\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"In\",\"fields\":["
	"{\"name\":\"x\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"Deep\","
	"\"namespace\":\"b\",\"fields\":[{\"name\":\"y\",\"type\":\"long\"}]}}}]}]},"
	"{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":{\"type\":\"record\",\"name\":\"V\","
	"\"fields\":[{\"name\":\"z\",\"type\":\"int\"}]}}}]}";
	const char *r;

	r = with_tags(avro, nested, one("a.In.x", "sr_field", "[\"T\"]"), "[]");
	RG_CHECK(strstr(r, "{\"name\":\"x\",\"type\":{\"type\":\"array\"") != NULL &&
			 strstr(r, "\"name\":\"Deep\",\"namespace\":\"b\",\"fields\":[{\"name\":\"y\",\"type\":\"long\"}]}},"
					"\"confluent:tags\":[\"T\"]}") != NULL,
			 "a field of a record inside a union, namespace inherited: %s", r);
	r = with_tags(avro, nested, one("b.Deep.y", "sr_field", "[\"T\"]"), "[]");
	RG_CHECK(strstr(r, "{\"name\":\"y\",\"type\":\"long\",\"confluent:tags\":[\"T\"]}") != NULL,
			 "a record in array items with its own namespace: %s", r);
	r = with_tags(avro, nested, one("a.V", "sr_record", "[\"T\"]"), "[]");
	RG_CHECK(strstr(r, "\"fields\":[{\"name\":\"z\",\"type\":\"int\"}],\"confluent:tags\":[\"T\"]}") != NULL,
			 "a record in map values: %s", r);
	r = with_tags(avro, nested, one("Deep.y", "sr_field", "[\"T\"]"), "[]");
	RG_CHECK(strstr(r, "{\"name\":\"y\",\"type\":\"long\",\"confluent:tags\":[\"T\"]}") != NULL,
			 "no namespace in the path matches any namespace: %s", r);
	RG_CHECK_STR(with_tags(avro, nested, one("a.Deep.y", "sr_field", "[\"T\"]"), "[]"),
				 "ERROR: No matching path 'a.Deep.y' found in the schema",
				 "the namespace must be the record's own");
	RG_CHECK_STR(with_tags(avro, REC, one("ns.Rec.h", "sr_field", "[\"T\"]"), "[]"),
				 "ERROR: No matching path 'ns.Rec.h' found in the schema", "an unknown field");
	RG_CHECK_STR(with_tags(avro, REC, "[]", one("ns.Nope", "sr_record", "[\"T\"]")),
				 "ERROR: No matching path 'ns.Nope' found in the schema",
				 "an unknown record, even only to remove from");
	RG_CHECK_STR(with_tags(avro, REC, one("ns.Rec.f", "sr_record", "[\"T\"]"), "[]"),
				 "ERROR: No matching path 'ns.Rec.f' found in the schema",
				 "a field path as a record");
	RG_CHECK_STR(with_tags(avro, REC, one("f", "sr_field", "[\"T\"]"), "[]"),
				 "ERROR: 0 > -1", "a field path of one part (Arrays.copyOfRange's refusal)");
	RG_CHECK_STR(with_tags(avro, REC, one(".ns.Rec.f", "sr_field", "[\"T\"]"), "[]"),
				 "ERROR: No matching path '.ns.Rec.f' found in the schema",
				 "a leading dot stays in the namespace the search matches");
	RG_CHECK_STR(with_tags(avro, REC, one("ns.Rec.f.", "sr_field", "[\"T\"]"), "[]"),
				 "{\"type\":\"record\",\"name\":\"Rec\",\"namespace\":\"ns\",\"fields\":["
				 "{\"name\":\"f\",\"type\":\"string\",\"confluent:tags\":[\"T\"]},"
				 "{\"name\":\"g\",\"type\":\"int\"}]}",
				 "trailing dots are dropped, as String.split drops them");
	RG_CHECK_STR(with_tags(avro,
						   "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\","
						   "\"confluent:tags\":\"A\"}]}",
						   one("R.a", "sr_field", "[\"B\"]"), "[]"),
				 "ERROR: confluent:tags of 'R.a' is not an array", "tags that are not an array");
	RG_CHECK(strncmp(with_tags(avro, "{\"type\":\"record\"}", one("R", "sr_record", "[\"B\"]"), "[]"),
					 "ERROR: ", 7) == 0, "an invalid schema is refused");
	RG_CHECK_STR(with_tags(avro, "\"string\"", one("R", "sr_record", "[\"B\"]"), "[]"),
				 "ERROR: No matching path 'R' found in the schema", "a primitive schema has no entities");
}

/* JSON Schema: the path walk and where the tags land. */
static void
test_json(void)
{
	const rg_format *json = &rg_format_json;
	const char *doc =
	"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},"
	"\"b\":{\"type\":\"object\",\"properties\":{\"c\":{\"type\":\"integer\"}}},"
	"\"d.e\":{\"type\":\"number\"},"
	"\"l\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"}}}},"
	"\"n\":{\"type\":[\"null\",\"object\"],\"properties\":{\"y\":{\"type\":\"string\"}}}},"
	"\"definitions\":{\"Addr\":{\"type\":\"object\",\"properties\":{\"street\":{\"type\":\"string\"}}}}}";
	const char *r;

	RG_CHECK_STR(with_tags(json, "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}}",
						   one("object.a", "sr_field", "[\"PII\"]"), "[]"),
				 "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"confluent:tags\":[\"PII\"]}}}",
				 "a property's tags, at the end of its schema");
	RG_CHECK_STR(with_tags(json, "{\"confluent:tags\":[\"A\"],\"type\":\"object\"}",
						   one("object", "sr_record", "[\"B\"]"), "[]"),
				 "{\"confluent:tags\":[\"A\",\"B\"],\"type\":\"object\"}",
				 "the root as a record, tags in place");
	RG_CHECK_STR(with_tags(json, "{\"confluent:tags\":[\"A\"],\"type\":\"object\"}",
						   "[]", one("object", "sr_record", "[\"A\"]")),
				 "{\"type\":\"object\"}", "the last tag removed removes the keyword");
	r = with_tags(json, doc, one("object.b.object.c", "sr_field", "[\"T\"]"), "[]");
	RG_CHECK(strstr(r, "\"c\":{\"type\":\"integer\",\"confluent:tags\":[\"T\"]}") != NULL,
			 "a nested property: %s", r);
	r = with_tags(json, doc, one("object.b.object", "sr_record", "[\"T\"]"), "[]");
	RG_CHECK(strstr(r, "\"properties\":{\"c\":{\"type\":\"integer\"}},\"confluent:tags\":[\"T\"]}") != NULL,
			 "a nested object as a record: %s", r);
	r = with_tags(json, doc, one("object.d.e", "sr_field", "[\"T\"]"), "[]");
	RG_CHECK(strstr(r, "\"d.e\":{\"type\":\"number\",\"confluent:tags\":[\"T\"]}") != NULL,
			 "a property name with a dot takes two parts: %s", r);
	r = with_tags(json, doc, one("object.l.array.object.x", "sr_field", "[\"T\"]"), "[]");
	RG_CHECK(strstr(r, "\"x\":{\"type\":\"string\",\"confluent:tags\":[\"T\"]}") != NULL,
			 "array items: %s", r);
	r = with_tags(json, doc, one("object.n.anyof.1.object.y", "sr_field", "[\"T\"]"), "[]");
	RG_CHECK(strstr(r, "\"y\":{\"type\":\"string\",\"confluent:tags\":[\"T\"]}") != NULL,
			 "a type list read as anyOf: %s", r);
	r = with_tags(json, doc, one("object.definitions.Addr.object.street", "sr_field", "[\"T\"]"), "[]");
	RG_CHECK(strstr(r, "\"street\":{\"type\":\"string\",\"confluent:tags\":[\"T\"]}") != NULL,
			 "a definition: %s", r);
	RG_CHECK_STR(with_tags(json, doc, one("object.zz", "sr_field", "[\"T\"]"), "[]"),
				 "ERROR: No matching path 'object.zz' found in the schema", "an unknown property");
	RG_CHECK_STR(with_tags(json, doc, one("string", "sr_field", "[\"T\"]"), "[]"),
				 "ERROR: No matching path 'string' found in the schema", "an unknown step");
	RG_CHECK_STR(with_tags(json, "{\"oneOf\":[{\"type\":\"object\",\"properties\":{\"a\":{}}}]}",
						   one("oneof.0.object.a", "sr_field", "[\"T\"]"), "[]"),
				 "{\"oneOf\":[{\"type\":\"object\",\"properties\":{\"a\":{\"confluent:tags\":[\"T\"]}}}]}",
				 "a composition of one schema");
	RG_CHECK(strncmp(with_tags(json, "{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"object\"}]}",
							   one("anyof.1.object", "sr_record", "[\"T\"]"), "[]"),
					 "ERROR: tags under anyOf", 22) == 0,
			 "a composition of several schemas is refused, not guessed");
	RG_CHECK_STR(with_tags(json, "{\"properties\":{\"a\":true}}",
						   one("object.a", "sr_field", "[\"T\"]"), "[]"),
				 "ERROR: path 'object.a' names a schema that is not an object",
				 "a boolean schema cannot hold tags");
	RG_CHECK_STR(with_tags(json, "{\"properties\":{\"a\":{\"x\":1.50}}}",
						   one("object.a", "sr_field", "[\"T\"]"), "[]"),
				 "{\"properties\":{\"a\":{\"x\":1.50,\"confluent:tags\":[\"T\"]}}}",
				 "the rest of the document as its stored form has it");
}

/* The SchemaTags lists: what is accepted and refused. */
static void
test_lists(void)
{
	const rg_format *avro = &rg_format_avro;

	RG_CHECK_STR(with_tags(avro, REC, one("ns.Rec.f", "SR_FIELD", "[\"T\"]"), "[]"),
				 "ERROR: schema tags 0: entityType is not one of the values accepted: [sr_record, sr_field]",
				 "entity types are lower case, as Confluent's JSON names them");
	RG_CHECK_STR(with_tags(avro, REC, "[{\"tags\":[\"T\"]}]", "[]"),
				 "ERROR: schema tags 0: no schemaEntity object", "an entity is required");
	RG_CHECK_STR(with_tags(avro, REC, "[{\"schemaEntity\":{\"entityType\":\"sr_field\"},\"tags\":[]}]", "[]"),
				 "ERROR: schema tags 0: entityPath is not a string", "a path is required");
	RG_CHECK_STR(with_tags(avro, REC, "{}", "[]"), "ERROR: schema tags: not a JSON array",
				 "a list is required");
	RG_CHECK_STR(with_tags(avro, REC, one("ns.Rec.f", "sr_field", "[{}]"), "[]"),
				 "ERROR: schema tags 0: tag 0 is not a string", "a tag is a string");
	RG_CHECK_STR(with_tags(avro, REC, one("ns.Rec.f", "sr_field", "[1,true]"), "[]"),
				 "{\"type\":\"record\",\"name\":\"Rec\",\"namespace\":\"ns\",\"fields\":["
				 "{\"name\":\"f\",\"type\":\"string\",\"confluent:tags\":[\"1\",\"true\"]},"
				 "{\"name\":\"g\",\"type\":\"int\"}]}",
				 "scalars bind to strings, as Jackson binds them");
}

/*
 * The line of text holding needle, without its indent ("ERROR: ..." as
 * it is; "(none)" when no line has it), static buffer.
 */
static const char *
line_of(const char *text, const char *needle)
{
	static char out[1024];
	const char *at = strstr(text, needle);
	const char *start;
	const char *end;

	if (strncmp(text, "ERROR: ", 7) == 0)
		return text;
	if (at == NULL)
		return "(none)";
	for (start = at; start > text && start[-1] != '\n'; start--)
		;
	while (*start == ' ')
		start++;
	end = strchr(at, '\n');
	snprintf(out, sizeof(out), "%.*s", (int) (end ? end - start : (long) strlen(start)), start);
	return out;
}

#define PROTO_PLAIN "syntax = \"proto3\"; package p; message M { int32 a = 1; " \
	"map<string, int32> m = 4; message N { string b = 1 [deprecated = true]; } " \
	"oneof o { string c = 2; bytes d = 3; } }"
#define PROTO_META "syntax = \"proto3\"; package p; import \"confluent/meta.proto\"; " \
	"message M { option (confluent.message_meta).tags = \"R\"; " \
	"int32 a = 1 [(confluent.field_meta).doc = \"d\", deprecated = true, (confluent.field_meta).tags = \"A\"]; " \
	"string b = 2 [(confluent.field_meta) = { tags: [\"A\", \"B\"], params: [{key: \"k\" value: \"v\"}] }]; " \
	"string c = 3; }"

/*
 * Confluent's ProtobufSchema.copy(tagsToAdd, tagsToRemove): the entities
 * it finds (messages by their names under the file, fields under them,
 * a oneof's fields either way) and the (confluent.message_meta) and
 * (confluent.field_meta) options it merges the tags into.
 */
static void
test_protobuf(void)
{
	const rg_format *proto = &rg_format_protobuf;

	RG_CHECK_STR(with_tags(proto, PROTO_PLAIN, one("M.a", "sr_field", "[\"PII\"]"), "[]"),
				 "syntax = \"proto3\";\n"
				 "package p;\n"
				 "\n"
				 "import \"confluent/meta.proto\";\n"
				 "\n"
				 "message M {\n"
				 "  int32 a = 1 [(confluent.field_meta) = { tags: [ \"PII\" ] }];\n"
				 "  map<string, int32> m = 4;\n"
				 "\n"
				 "  oneof o {\n"
				 "    string c = 2;\n"
				 "    bytes d = 3;\n"
				 "  }\n"
				 "\n"
				 "  message N {\n"
				 "    string b = 1 [deprecated = true];\n"
				 "  }\n"
				 "}\n",
				 "a field's first tag: its option appended, confluent/meta.proto imported");
	{
		const char *many = "[{\"schemaEntity\":{\"entityPath\":\"M\",\"entityType\":\"sr_record\"},\"tags\":[\"R\"]},"
		"{\"schemaEntity\":{\"entityPath\":\"M.N\",\"entityType\":\"sr_record\"},\"tags\":[\"NESTED\"]},"
		"{\"schemaEntity\":{\"entityPath\":\"M.N.b\",\"entityType\":\"sr_field\"},\"tags\":[\"B\"]},"
		"{\"schemaEntity\":{\"entityPath\":\"M.m\",\"entityType\":\"sr_field\"},\"tags\":[\"MAP\"]}]";
		char		text[8192];

		snprintf(text, sizeof(text), "%s", with_tags(proto, PROTO_PLAIN, many, "[]"));
		RG_CHECK_STR(line_of(text, "message_meta) = { tags: [ \"R\""),
					 "option (confluent.message_meta) = { tags: [ \"R\" ] };", "a top-level message");
		RG_CHECK_STR(line_of(text, "NESTED"),
					 "option (confluent.message_meta) = { tags: [ \"NESTED\" ] };",
					 "a nested message through its parent's name");
		RG_CHECK_STR(line_of(text, " b = 1"),
					 "string b = 1 [deprecated = true, (confluent.field_meta) = { tags: [ \"B\" ] }];",
					 "a nested message's field, its other options kept before the new one");
		RG_CHECK_STR(line_of(text, " m = 4"),
					 "map<string, int32> m = 4 [(confluent.field_meta) = { tags: [ \"MAP\" ] }];",
					 "a map field");
	}
	RG_CHECK_STR(line_of(with_tags(proto, PROTO_PLAIN, one("M.o.c", "sr_field", "[\"ONE\"]"), "[]"), " c = 2"),
				 "string c = 2 [(confluent.field_meta) = { tags: [ \"ONE\" ] }];",
				 "a oneof's field through the oneof's name");
	RG_CHECK_STR(line_of(with_tags(proto, PROTO_PLAIN, one(".M.d", "sr_field", "[\"ONE\"]"), "[]"), " d = 3"),
				 "bytes d = 3 [(confluent.field_meta) = { tags: [ \"ONE\" ] }];",
				 "a oneof's field straight under its message (a leading dot dropped)");
	RG_CHECK_STR(with_tags(proto, PROTO_PLAIN, one("p.M", "sr_record", "[\"R\"]"), "[]"),
				 "ERROR: No matching Message with name 'p' found in the schema",
				 "the path has no package");
	RG_CHECK_STR(with_tags(proto, PROTO_PLAIN, one("M.zz", "sr_field", "[\"T\"]"), "[]"),
				 "ERROR: No matching Field with name 'zz' found in the schema", "an unknown field");
	RG_CHECK_STR(with_tags(proto, PROTO_PLAIN, one("M.Q.zz", "sr_field", "[\"T\"]"), "[]"),
				 "ERROR: No matching Field with name 'zz' found in the schema",
				 "an unknown message just before the field is taken for a oneof");
	RG_CHECK_STR(with_tags(proto, PROTO_PLAIN, one("M.Q.R.zz", "sr_field", "[\"T\"]"), "[]"),
				 "ERROR: No matching Message with name 'Q' found in the schema",
				 "an unknown message further up");
	RG_CHECK_STR(with_tags(proto, PROTO_PLAIN, one("M.MEntry", "sr_record", "[\"T\"]"), "[]"),
				 "ERROR: No matching Message with name 'MEntry' found in the schema",
				 "a map's entry is no message of the schema");
	RG_CHECK_STR(with_tags(proto, PROTO_PLAIN, one("M.a", "sr_record", "[\"T\"]"), "[]"),
				 "ERROR: No matching Message with name 'a' found in the schema",
				 "an sr_record path names a message");
	RG_CHECK_STR(with_tags(proto, PROTO_PLAIN, one("..", "sr_field", "[\"T\"]"), "[]"),
				 "ERROR: No matching Field with name '' found in the schema",
				 "a path of no names names no field");

	RG_CHECK_STR(line_of(with_tags(proto, PROTO_META, one("M.a", "sr_field", "[\"B\",\"A\",\"C\"]"), "[]"), " a = 1"),
				 "int32 a = 1 [(confluent.field_meta) = { doc: \"d\", tags: [ \"A\", \"B\", \"C\" ] }, deprecated = true];",
				 "the meta options merged into one where the first stood; new tags after those there");
	RG_CHECK_STR(line_of(with_tags(proto, PROTO_META, "[]", one("M.a", "sr_field", "[\"A\"]")), " a = 1"),
				 "int32 a = 1 [(confluent.field_meta) = { doc: \"d\" }, deprecated = true];",
				 "the last tag removed: the tags go, the doc stays");
	RG_CHECK_STR(line_of(with_tags(proto, PROTO_META, "[]", one("M.b", "sr_field", "[\"A\",\"B\"]")), " b = 2"),
				 "string b = 2 [(confluent.field_meta) = { params: [ { key: \"k\" value: \"v\" } ] }];",
				 "the params stay when the tags go");
	RG_CHECK_STR(line_of(with_tags(proto, PROTO_META, one("M.b", "sr_field", "[\"C\"]"),
								   one("M.b", "sr_field", "[\"A\"]")), " b = 2"),
				 "string b = 2 [(confluent.field_meta) = { tags: [ \"B\", \"C\" ], params: [ { key: \"k\" value: \"v\" } ] }];",
				 "tags added and removed at once, the keys in their order");
	{
		const char *gone = with_tags(proto, PROTO_META, "[]", one("M", "sr_record", "[\"R\"]"));

		RG_CHECK_STR(line_of(gone, "message_meta"), "(none)",
					 "a message's only tag removed: its option goes");
		RG_CHECK_STR(line_of(gone, "import"), "import \"confluent/meta.proto\";",
					 "the import stays");
	}
	RG_CHECK_STR(line_of(with_tags(proto, PROTO_META, "[]", one("M.c", "sr_field", "[\"T\"]")), " c = 3"),
				 "string c = 3;", "nothing to remove from: no option made");
	RG_CHECK_STR(line_of(with_tags(proto, "syntax = \"proto3\"; import \"confluent/meta.proto\"; "
								   "message M { int32 a = 1 [(confluent.field_meta).tags = \"q\\\"x\"]; }",
								   one("M.a", "sr_field", "[\"q\\\"x\",\"y z\"]"), "[]"), " a = 1"),
				 "int32 a = 1 [(confluent.field_meta) = { tags: [ \"q\\\"x\", \"y z\" ] }];",
				 "a tag with a quote in it is the same tag; one with a space stays one");
}

/* Avro's inlineTaggedEntities and findTags. */
static void
test_entities(void)
{
	const char *all[] = {"*"};
	const char *pii[] = {"PII"};
	const char *none[] = {"NOPE"};
	const char *schema =
	"{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"confluent:tags\":[\"REC\",\"REC\"],"
	"\"fields\":[{\"name\":\"a\",\"type\":\"int\",\"confluent:tags\":[\"PII\",\"X\"]},"
	"{\"name\":\"b\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"fields\":["
	"{\"name\":\"c\",\"type\":\"string\",\"confluent:tags\":[\"PII\"]}]}},"
	"{\"name\":\"d\",\"type\":\"S\",\"confluent:tags\":\"notalist\"}]}";

	RG_CHECK_STR(tagged(schema, all, 1),
				 "[{\"schemaEntity\":{\"entityPath\":\"n.R\",\"entityType\":\"sr_record\"},\"tags\":[\"REC\"]},"
				 "{\"schemaEntity\":{\"entityPath\":\"n.R.a\",\"entityType\":\"sr_field\"},\"tags\":[\"PII\",\"X\"]},"
				 "{\"schemaEntity\":{\"entityPath\":\"n.S.c\",\"entityType\":\"sr_field\"},\"tags\":[\"PII\"]}]",
				 "every tagged entity, records once, full names");
	RG_CHECK_STR(tagged(schema, pii, 1),
				 "[{\"schemaEntity\":{\"entityPath\":\"n.R.a\",\"entityType\":\"sr_field\"},\"tags\":[\"PII\",\"X\"]},"
				 "{\"schemaEntity\":{\"entityPath\":\"n.S.c\",\"entityType\":\"sr_field\"},\"tags\":[\"PII\"]}]",
				 "findTags=PII: the entities with that tag");
	RG_CHECK_STR(tagged(schema, none, 1), "[]", "no entity has the tag");
	RG_CHECK_STR(tagged(REC, all, 1), "[]", "no tags at all");
	{
		const char *js = "{\"type\":\"object\",\"confluent:tags\":[\"A\"]}";
		rg_error	err;
		rg_schema  *s = rg_json_parse(js, strlen(js), NULL, 0, false, &err);
		rg_arena   *arena = rg_arena_create();
		rg_schema_tags *list = NULL;
		int			n = -1;

		RG_CHECK(s != NULL && rg_schema_tagged_entities(s, arena, all, 1, &list, &n, &err) && n == 0,
				 "a JSON schema has no tagged entities (ParsedSchema's default)");
		rg_schema_free(s);
		rg_arena_destroy(arena);
	}
}

/*
 * propagateSchemaTags as the glue composes it: the previous schema's
 * tagged entities added to the next schema's text (static buffer).
 */
static const char *
propagated(const char *previous, const char *next)
{
	static char out[8192];
	rg_error	err;
	rg_schema  *prev = rg_avro_parse(previous, strlen(previous), NULL, 0, false, &err);
	rg_arena   *arena = rg_arena_create();
	rg_schema_tags *list;
	int			n;
	char	   *s = NULL;

	if (prev != NULL && rg_schema_tagged_entities(prev, arena, NULL, 0, &list, &n, &err))
		s = rg_schema_with_tags(&rg_format_avro, next, strlen(next), NULL, 0, list, n, NULL, 0, NULL, &err);
	snprintf(out, sizeof(out), "%s%s", s ? "" : "ERROR: ", s ? s : err.message);
	rg_free(s);
	rg_schema_free(prev);
	rg_arena_destroy(arena);
	return out;
}

/* The previous version's tags carried to a new schema. */
static void
test_propagate(void)
{
	const char *prev =
	"{\"type\":\"record\",\"name\":\"R\",\"confluent:tags\":[\"REC\"],\"fields\":["
	"{\"name\":\"a\",\"type\":\"int\",\"confluent:tags\":[\"PII\"]}]}";

	RG_CHECK_STR(propagated(prev,
							"{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\","
							"\"confluent:tags\":[\"OWN\"]},{\"name\":\"b\",\"type\":\"string\",\"default\":\"x\"}]}"),
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\","
				 "\"confluent:tags\":[\"OWN\",\"PII\"]},{\"name\":\"b\",\"type\":\"string\",\"default\":\"x\"}],"
				 "\"confluent:tags\":[\"REC\"]}",
				 "the previous tags join the new schema's own");
	RG_CHECK_STR(propagated(prev, "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"z\",\"type\":\"int\"}]}"),
				 "ERROR: No matching path 'R.a' found in the schema",
				 "a tagged field the new schema lacks is an error, as in Confluent");
}

int
main(void)
{
	test_avro_add_remove();
	test_avro_search();
	test_json();
	test_protobuf();
	test_lists();
	test_entities();
	test_propagate();
	return rg_test_done();
}
