/*-------------------------------------------------------------------------
 *
 * test_top_level_field.c
 *	  Unit tests of has_top_level_field, the fields Confluent's
 *	  confluent:reserved check looks for: an Avro root record's fields,
 *	  every top-level Protobuf message's own fields, a JSON Schema
 *	  document's root "properties".
 *
 *-------------------------------------------------------------------------
 */
#include "rg_test.h"
#include "rg_format.h"

/* Parse text in a format, with references; NULL (and a failed check) if it does not parse. */
static rg_schema *
parse_with(const char *format, const char *text, const rg_reference *refs,
		   int n_refs, bool normalize)
{
	const rg_format *f = rg_format_lookup(format);
	rg_error	err;
	rg_schema  *s = f->parse(text, strlen(text), refs, n_refs, normalize, &err);

	if (s == NULL)
		RG_CHECK(false, "%s parses: %s", format, err.message);
	return s;
}

/* Does a schema (no references) have each name at its top level as want says? */
static void
check_fields(const char *format, const char *what, const char *text,
			 const char *const *present, const char *const *absent)
{
	rg_schema  *s = parse_with(format, text, NULL, 0, false);
	int			i;

	if (s == NULL)
		return;
	for (i = 0; present[i] != NULL; i++)
		RG_CHECK(rg_schema_has_top_level_field(s, present[i]),
				 "%s %s: has %s", format, what, present[i]);
	for (i = 0; absent[i] != NULL; i++)
		RG_CHECK(!rg_schema_has_top_level_field(s, absent[i]),
				 "%s %s: no %s", format, what, absent[i]);
	rg_schema_free(s);
}

#define NAMES(...) ((const char *const[]) {__VA_ARGS__, NULL})
#define NONE ((const char *const[]) {NULL})

/* Avro: the root record's fields by name; not aliases, nested records or other roots. */
static void
test_avro(void)
{
	rg_reference ref = {"com.x.Ref",
		"{\"type\":\"record\",\"name\":\"Ref\",\"namespace\":\"com.x\","
	"\"fields\":[{\"name\":\"r\",\"type\":\"int\"}]}", 0};
	rg_schema  *s;

	check_fields("AVRO", "record",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"a\",\"type\":\"int\",\"aliases\":[\"old_a\"]},"
				 "{\"name\":\"inner\",\"type\":{\"type\":\"record\",\"name\":\"I\","
				 "\"fields\":[{\"name\":\"deep\",\"type\":\"string\"}]}}]}",
				 NAMES("a", "inner"), NAMES("old_a", "deep", "R", "A", ""));
	check_fields("AVRO", "union of records",
				 "[\"null\",{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"a\",\"type\":\"int\"}]}]",
				 NONE, NAMES("a"));
	check_fields("AVRO", "array of records",
				 "{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"R\","
				 "\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}}",
				 NONE, NAMES("a", "items"));
	check_fields("AVRO", "enum", "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"a\"]}",
				 NONE, NAMES("a"));
	check_fields("AVRO", "primitive", "\"string\"", NONE, NAMES("string", "type"));

	/* a root naming a referenced record is that record */
	ref.schema_len = strlen(ref.schema);
	s = parse_with("AVRO", "\"com.x.Ref\"", &ref, 1, false);
	if (s != NULL)
	{
		RG_CHECK(rg_schema_has_top_level_field(s, "r"), "AVRO referenced root: has r");
		RG_CHECK(!rg_schema_has_top_level_field(s, "Ref"), "AVRO referenced root: no Ref");
		rg_schema_free(s);
	}
}

/* Protobuf: every top-level message's own fields; not oneofs, groups, nesting or enums. */
static void
test_protobuf(void)
{
	check_fields("PROTOBUF", "proto3 file",
				 "syntax = \"proto3\";\npackage p;\n"
				 "message First {\n  int32 a = 1;\n  map<string, int32> m = 2;\n"
				 "  optional string opt = 3;\n"
				 "  oneof choice {\n    string in_oneof = 4;\n    int64 also_oneof = 5;\n  }\n"
				 "  message Nested {\n    int32 deep = 1;\n  }\n  Nested n = 6;\n"
				 "  reserved \"gone\";\n}\n"
				 "enum Colour {\n  RED = 0;\n  BLUE = 1;\n}\n"
				 "message Second {\n  string b = 1;\n}\n"
				 "service S {\n  rpc Call(First) returns (Second);\n}\n",
				 NAMES("a", "m", "opt", "n", "b"),
				 NAMES("in_oneof", "also_oneof", "choice", "deep", "Nested", "gone",
					   "RED", "Colour", "First", "Call", "MEntry", "key", "value",
					   "p.First.a", "A"));
	check_fields("PROTOBUF", "proto2 groups and extensions",
				 "syntax = \"proto2\";\n"
				 "message M {\n  optional int32 a = 1;\n  required string r = 2;\n"
				 "  repeated group Item = 3 {\n    optional int32 inside = 1;\n  }\n"
				 "  extensions 100 to 200;\n}\n"
				 "extend M {\n  optional int32 ext = 100;\n"
				 "  optional group Top = 101 {\n    optional int32 in_top = 1;\n  }\n}\n",
				 NAMES("a", "r"),
				 NAMES("item", "Item", "inside", "ext", "top", "Top", "in_top"));
	check_fields("PROTOBUF", "enum only", "syntax = \"proto3\";\nenum E {\n  X = 0;\n}\n",
				 NONE, NAMES("X", "E"));
}

/* JSON: the document's root "properties" members; not $ref, allOf or deeper properties. */
static void
test_json(void)
{
	check_fields("JSON", "object",
				 "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},"
				 "\"obj\":{\"type\":\"object\",\"properties\":{\"deep\":{}}},"
				 "\"\":true},\"required\":[\"req\"],"
				 "\"patternProperties\":{\"^p\":{}},"
				 "\"definitions\":{\"D\":{\"properties\":{\"in_def\":{}}}}}",
				 NAMES("a", "obj", ""),
				 NAMES("deep", "req", "^p", "in_def", "type", "properties", "A"));
	/* the document, not the loaded schema: no "type", a $ref beside it */
	check_fields("JSON", "properties beside $ref",
				 "{\"$ref\":\"#/definitions/D\",\"properties\":{\"x\":{}},"
				 "\"definitions\":{\"D\":{\"properties\":{\"in_ref\":{}}}}}",
				 NAMES("x"), NAMES("in_ref", "D"));
	check_fields("JSON", "allOf at the root",
				 "{\"allOf\":[{\"properties\":{\"in_all\":{}}}]}",
				 NONE, NAMES("in_all"));
	check_fields("JSON", "a repeated properties keeps its last value",
				 "{\"properties\":{\"first\":{}},\"properties\":{\"last\":{}}}",
				 NAMES("last"), NAMES("first"));
	check_fields("JSON", "boolean document", "true", NONE, NAMES("properties", "a"));
	check_fields("JSON", "2020-12 draft",
				 "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
				 "\"properties\":{\"a\":{}},\"$defs\":{\"D\":{\"properties\":{\"b\":{}}}}}",
				 NAMES("a"), NAMES("b"));
}

/* normalize=true keeps the same fields (the document's keys are only sorted). */
static void
test_normalized(void)
{
	rg_schema  *s = parse_with("JSON", "{\"properties\":{\"z\":{},\"a\":{}}}", NULL, 0, true);

	if (s != NULL)
	{
		RG_CHECK(rg_schema_has_top_level_field(s, "z") &&
				 rg_schema_has_top_level_field(s, "a"), "JSON normalized: has z and a");
		rg_schema_free(s);
	}
	s = parse_with("PROTOBUF", "syntax = \"proto3\";\nmessage M {\n  int32 b = 2;\n  int32 a = 1;\n}\n",
				   NULL, 0, true);
	if (s != NULL)
	{
		RG_CHECK(rg_schema_has_top_level_field(s, "a") &&
				 rg_schema_has_top_level_field(s, "b"), "PROTOBUF normalized: has a and b");
		rg_schema_free(s);
	}
}

int
main(void)
{
	test_avro();
	test_protobuf();
	test_json();
	test_normalized();
	return rg_test_done();
}
