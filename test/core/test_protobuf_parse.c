/*-------------------------------------------------------------------------
 *
 * test_protobuf_parse.c
 *	  Unit tests of the PROTOBUF parser (libprotoc through the shim), the
 *	  stored form and normalize=true.
 *
 * Expected texts are our own renderings; what matters is that they are
 * deterministic, independent of layout, and re-parse to themselves.
 *
 *-------------------------------------------------------------------------
 */
#include <time.h>

#include "rg_test.h"
#include "rg_protobuf.h"

static char errbuf[RG_ERROR_MAX];

/* Stored form of text (malloc'd), or NULL with errbuf set. */
static char *
stored_refs(const char *text, const rg_reference *refs, int n_refs, bool normalize)
{
	rg_error	err;
	rg_schema  *s = rg_protobuf_parse(text, strlen(text), refs, n_refs, normalize, &err);
	char	   *out;

	if (s == NULL)
	{
		snprintf(errbuf, sizeof(errbuf), "%s", err.message);
		return NULL;
	}
	errbuf[0] = '\0';
	out = malloc(s->canonical_len + 1);
	memcpy(out, s->canonical, s->canonical_len + 1);
	if (strlen(out) != s->canonical_len)
		printf("# canonical_len mismatch\n");
	rg_schema_free(s);
	return out;
}

static char *
stored(const char *text, bool normalize)
{
	return stored_refs(text, NULL, 0, normalize);
}

/* Check the stored form of text, and that it re-parses to itself. */
static void
check_stored(const char *name, const char *text, bool normalize, const char *want)
{
	char	   *got = stored(text, normalize);
	char	   *again;

	RG_CHECK_STR(got, want, "%s: stored form", name);
	if (got == NULL)
	{
		printf("#   error: %s\n", errbuf);
		return;
	}
	again = stored(got, normalize);
	RG_CHECK_STR(again, got, "%s: idempotent", name);
	free(again);
	free(got);
}

/* The parse fails and the message contains want. */
static void
check_error_refs(const char *name, const char *text, const rg_reference *refs,
				 int n_refs, const char *want)
{
	char	   *got = stored_refs(text, refs, n_refs, false);

	RG_CHECK(got == NULL && strstr(errbuf, want) != NULL, "%s: error", name);
	if (got != NULL || strstr(errbuf, want) == NULL)
		printf("#   got: %s\n#   want substring: %s\n", got ? got : errbuf, want);
	free(got);
}

static void
check_error(const char *name, const char *text, const char *want)
{
	check_error_refs(name, text, NULL, 0, want);
}

/* Both texts have the same stored form. */
static void
check_same(const char *name, const char *a, const char *b, bool normalize)
{
	char	   *x = stored(a, normalize);
	char	   *y = stored(b, normalize);

	RG_CHECK(x != NULL && y != NULL && strcmp(x, y) == 0, "%s", name);
	if (x == NULL || y == NULL || strcmp(x, y) != 0)
		printf("#   a: %s\n#   b: %s\n", x ? x : errbuf, y ? y : errbuf);
	free(x);
	free(y);
}

static void
test_basic(void)
{
	check_stored("minimal proto3",
				 "syntax = \"proto3\"; package x; message M { string a = 1; }",
				 false,
				 "syntax = \"proto3\";\npackage x;\n\nmessage M {\n  string a = 1;\n}\n");
	check_stored("no package, empty message",
				 "syntax = \"proto3\";\nmessage Empty {}\n", false,
				 "syntax = \"proto3\";\n\nmessage Empty {}\n");
	check_stored("labels and maps",
				 "syntax = \"proto3\"; message M { repeated int64 r = 1; optional string o = 2;"
				 " map<string, M> m = 3; bytes b = 4; }",
				 false,
				 "syntax = \"proto3\";\n\nmessage M {\n  repeated int64 r = 1;\n"
				 "  optional string o = 2;\n  map<string, M> m = 3;\n  bytes b = 4;\n}\n");
	check_stored("oneof after the fields",
				 "syntax = \"proto3\"; message M { oneof k { int32 a = 1; string b = 2; } bool c = 3; }",
				 false,
				 "syntax = \"proto3\";\n\nmessage M {\n  bool c = 3;\n\n  oneof k {\n"
				 "    int32 a = 1;\n    string b = 2;\n  }\n}\n");
	check_stored("nested types and enums",
				 "syntax = \"proto3\"; package p; message A { enum E { Z = 0; } message B { E e = 1; } B b = 1; }"
				 " enum Top { T = 0; }",
				 false,
				 "syntax = \"proto3\";\npackage p;\n\nmessage A {\n  B b = 1;\n\n"
				 "  message B {\n    E e = 1;\n  }\n  enum E {\n    Z = 0;\n  }\n}\n\n"
				 "enum Top {\n  T = 0;\n}\n");
	check_stored("reserved",
				 "syntax = \"proto3\"; message M { reserved 2, 9 to 11, 40 to max; reserved \"x\", \"y\"; int32 a = 1; }",
				 false,
				 "syntax = \"proto3\";\n\nmessage M {\n  reserved 2, 9 to 11, 40 to max;\n"
				 "  reserved \"x\", \"y\";\n\n  int32 a = 1;\n}\n");
	check_stored("proto2 with default, required, group, extensions",
				 "syntax = \"proto2\"; package q;\n"
				 "message M { required string s = 1 [default = \"a\\\"b\"]; optional int32 i = 2 [default = -5];\n"
				 " optional group G = 3 { optional int32 x = 1; }\n extensions 100 to 199; }\n"
				 "extend M { optional int32 ext = 100; }\n",
				 false,
				 "syntax = \"proto2\";\npackage q;\n\nmessage M {\n"
				 "  required string s = 1 [default = \"a\\\"b\"];\n"
				 "  optional int32 i = 2 [default = -5];\n"
				 "  optional group G = 3 {\n    optional int32 x = 1;\n  }\n\n"
				 "  extensions 100 to 199;\n}\n\nextend M {\n  optional int32 ext = 100;\n}\n");
	check_stored("service",
				 "syntax = \"proto3\"; message Q {} service S { rpc A (Q) returns (stream Q); }",
				 false,
				 "syntax = \"proto3\";\n\nmessage Q {}\n\nservice S {\n  rpc A (Q) returns (stream Q);\n}\n");
	check_stored("options of every kind",
				 "syntax = \"proto3\"; option java_package = \"a.b\"; option optimize_for = SPEED;\n"
				 "message M { option deprecated = true; int32 a = 1 [deprecated = true, json_name = \"A\"]; }\n"
				 "enum E { option allow_alias = true; X = 0; Y = 0 [deprecated = true]; }",
				 false,
				 "syntax = \"proto3\";\n\noption java_package = \"a.b\";\noption optimize_for = SPEED;\n\n"
				 "message M {\n  option deprecated = true;\n\n"
				 "  int32 a = 1 [json_name = \"A\", deprecated = true];\n}\n\n"
				 "enum E {\n  option allow_alias = true;\n  X = 0;\n  Y = 0 [deprecated = true];\n}\n");
	check_stored("no syntax line (proto2)",
				 "message M { optional int32 a = 1; }", false,
				 "\nmessage M {\n  optional int32 a = 1;\n}\n");
}

static void
test_layout_independence(void)
{
	check_same("whitespace and comments",
			   "syntax = \"proto3\"; package x; message M { string a = 1; int32 b = 2; }",
			   "// header\nsyntax   =   \"proto3\" ;\n\n\npackage x ;\n/* block */\n"
			   "message M {\n\tstring a = 1; // trailing\n\n\n\tint32 b=2;\n}\n", false);
	check_same("oneof position among fields",
			   "syntax = \"proto3\"; message M { int32 a = 1; oneof o { int32 b = 2; } int32 c = 3; }",
			   "syntax = \"proto3\"; message M { int32 a = 1; int32 c = 3; oneof o { int32 b = 2; } }", false);
	check_same("single quotes",
			   "syntax = 'proto3'; import 'google/protobuf/empty.proto'; message M { string a = 1 [json_name = 'x']; }",
			   "syntax = \"proto3\"; import \"google/protobuf/empty.proto\"; message M { string a = 1 [json_name = \"x\"]; }",
			   false);
	check_same("normalize: option order",
			   "syntax = \"proto3\"; option java_package = \"p\"; option java_multiple_files = true; message M {}",
			   "syntax = \"proto3\"; option java_multiple_files = true; option java_package = \"p\"; message M {}",
			   true);
	check_same("normalize: field order",
			   "syntax = \"proto3\"; message M { int32 b = 2; int32 a = 1; }",
			   "syntax = \"proto3\"; message M { int32 a = 1; int32 b = 2; }", true);
	check_same("normalize: relative and absolute names",
			   "syntax = \"proto3\"; package p; message A { B b = 1; } message B {}",
			   "syntax = \"proto3\"; package p; message A { .p.B b = 1; } message B {}", true);
}

static void
test_normalize(void)
{
	check_stored("normalize sorts and qualifies",
				 "syntax = \"proto3\"; package p;\n"
				 "import \"google/protobuf/timestamp.proto\"; import \"google/protobuf/any.proto\";\n"
				 "option java_package = \"z\"; option go_package = \"a\";\n"
				 "message M { oneof late { int32 z = 9; int32 y = 8; } google.protobuf.Timestamp t = 3; int32 a = 1;"
				 " oneof early { int32 e = 2; } map<string, N> m = 4; google.protobuf.Any any = 5;"
				 " reserved 30, 10 to 12; }\n"
				 "message N {}\n"
				 "enum E { option allow_alias = true; Z = 0; B = 1; A = 1; }\n",
				 true,
				 "syntax = \"proto3\";\npackage p;\n\n"
				 "import \"google/protobuf/any.proto\";\nimport \"google/protobuf/timestamp.proto\";\n\n"
				 "option go_package = \"a\";\noption java_package = \"z\";\n\n"
				 "message M {\n  reserved 10 to 12, 30;\n\n"
				 "  int32 a = 1;\n  .google.protobuf.Timestamp t = 3;\n  map<string, .p.N> m = 4;\n"
				 "  .google.protobuf.Any any = 5;\n\n"
				 "  oneof early {\n    int32 e = 2;\n  }\n"
				 "  oneof late {\n    int32 y = 8;\n    int32 z = 9;\n  }\n}\n\n"
				 "message N {}\n\n"
				 "enum E {\n  option allow_alias = true;\n  Z = 0;\n  A = 1;\n  B = 1;\n}\n");
	check_stored("normalize keeps message order",
				 "syntax = \"proto3\"; message Z {} message A {}", true,
				 "syntax = \"proto3\";\n\nmessage Z {}\n\nmessage A {}\n");
}

static void
test_errors(void)
{
	check_error("syntax error with position",
				"syntax = \"proto3\";\nmessage M {\n  int32 a = 1\n}\n", "4:1: Expected \";\"");
	check_error("duplicate field number",
				"syntax = \"proto3\";\nmessage M {\n  int32 a = 1;\n  int32 b = 1;\n}\n",
				"4:13: Field number 1 has already been used");
	check_error("undefined type", "syntax = \"proto3\";\nmessage M { Nope n = 1; }\n",
				"2:13: \"Nope\" is not defined");
	check_error("unresolved import",
				"syntax = \"proto3\";\nimport \"nope.proto\";\nmessage M {}\n",
				"Import \"nope.proto\" was not found");
	check_error("proto3 required", "syntax = \"proto3\"; message M { required int32 a = 1; }",
				"Required fields are not allowed in proto3");
	check_error("bad syntax", "syntax = \"proto4\";", "Unrecognized syntax identifier \"proto4\"");
	check_error("field number zero", "syntax = \"proto3\"; message M { int32 a = 0; }",
				"Field numbers must be positive integers");
	check_error("proto3 enum first value", "syntax = \"proto3\"; enum E { A = 1; }",
				"The first enum value must be zero");
	check_error("duplicate message", "syntax = \"proto3\"; message M {} message M {}",
				"\"M\" is already defined");
	check_error("garbage", "\x01\x02\xff\xfe not a schema", "");
	check_error("unterminated block", "syntax = \"proto3\"; message M {", "Reached end of input");
}

static void
test_references(void)
{
	rg_reference refs[2];
	rg_reference bad_ref = {
		"bad.proto", "syntax = \"proto3\"; message B { int32 x = 1 }", 44
	};
	char	   *got;

	refs[0].name = "common/address.proto";
	refs[0].schema = "syntax = \"proto3\"; package common; message Address { string street = 1; }";
	refs[0].schema_len = strlen(refs[0].schema);
	refs[1].name = "person.proto";
	refs[1].schema = "syntax = \"proto3\"; package people; import \"common/address.proto\";"
		" message Person { common.Address home = 1; }";
	refs[1].schema_len = strlen(refs[1].schema);

	got = stored_refs("syntax = \"proto3\"; import \"person.proto\";\n"
					  "message Team { repeated people.Person members = 1; }", refs, 2, true);
	RG_CHECK_STR(got, "syntax = \"proto3\";\n\nimport \"person.proto\";\n\n"
				 "message Team {\n  repeated .people.Person members = 1;\n}\n",
				 "transitive references");
	if (got == NULL)
		printf("#   %s\n", errbuf);
	free(got);

	check_error_refs("error inside a reference",
					 "syntax = \"proto3\"; import \"bad.proto\"; message M {}",
					 &bad_ref, 1, "bad.proto:1:");

	got = stored("syntax = \"proto3\"; import \"google/protobuf/timestamp.proto\";"
				 " import \"google/protobuf/struct.proto\"; import \"google/protobuf/wrappers.proto\";"
				 " message M { google.protobuf.Timestamp t = 1; google.protobuf.Struct s = 2;"
				 " google.protobuf.StringValue v = 3; }", false);
	RG_CHECK(got != NULL, "well-known types resolve without references");
	if (got == NULL)
		printf("#   %s\n", errbuf);
	free(got);

	got = stored("syntax = \"proto3\"; import \"confluent/meta.proto\"; import \"confluent/type/decimal.proto\";\n"
				 "message M { option (confluent.message_meta) = { doc: \"m\" tags: \"PII\" };\n"
				 " confluent.type.Decimal amount = 1 [(confluent.field_meta).params = { key: \"precision\" value: \"8\" }]; }\n"
				 "enum E { option (confluent.enum_meta).doc = \"e\"; A = 0 [(confluent.enum_value_meta).tags = \"x\"]; }",
				 false);
	RG_CHECK(got != NULL, "confluent/meta.proto and decimal.proto resolve");
	if (got == NULL)
		printf("#   %s\n", errbuf);
	else
	{
		char	   *again = stored(got, false);

		RG_CHECK_STR(again, got, "confluent options: idempotent");
		free(again);
	}
	free(got);

	check_error("custom option number checked",
				"syntax = \"proto3\"; import \"confluent/meta.proto\";"
				" message M { option (confluent.message_meta).nope = 1; }",
				"nope");
}

/* The linked model: dependencies first, names fully qualified. */
static void
test_model(void)
{
	const char *text = "syntax = \"proto3\"; package p; import \"google/protobuf/timestamp.proto\";"
	" message M { google.protobuf.Timestamp t = 1; N n = 2; } message N {}";
	rg_error	err;
	rg_schema  *s = rg_protobuf_parse(text, strlen(text), NULL, 0, false, &err);
	const rg_proto_parsed *p = rg_protobuf_model(s);
	size_t		len = 0;
	const unsigned char *bytes;
	Google__Protobuf__FileDescriptorProto *fd;

	RG_CHECK(s != NULL && p != NULL, "model present");
	if (p == NULL)
		return;
	RG_CHECK(p->set->n_file == 2 &&
			 strcmp(p->set->file[0]->name, "google/protobuf/timestamp.proto") == 0 &&
			 p->file == p->set->file[1], "set: dependency first, main last");
	RG_CHECK_STR(p->file->message_type[0]->field[0]->type_name, ".google.protobuf.Timestamp",
				 "linked type name of an import");
	RG_CHECK_STR(p->file->message_type[0]->field[1]->type_name, ".p.N",
				 "linked type name of a local type");
	RG_CHECK(p->file->message_type[0]->field[1]->type ==
			 GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_MESSAGE,
			 "linked field type resolved to MESSAGE");
	bytes = rg_protobuf_serialized(s, &len);
	fd = google__protobuf__file_descriptor_proto__unpack(NULL, len, bytes);
	RG_CHECK(fd != NULL && strcmp(fd->package, "p") == 0 && fd->n_message_type == 2,
			 "serialized main file unpacks");
	if (fd)
		google__protobuf__file_descriptor_proto__free_unpacked(fd, NULL);
	RG_CHECK(s->format == &rg_format_protobuf, "schema points at rg_format_protobuf");
	RG_CHECK(rg_format_lookup("protobuf") == NULL &&
			 rg_format_lookup("PROTOBUF") == &rg_format_protobuf, "lookup PROTOBUF, exactly");
	{
		rg_arena   *a = rg_arena_create();
		rg_strlist	msgs;

		rg_strlist_init(&msgs, a);
		RG_CHECK(s->format->can_read(s, s, &msgs) && msgs.n == 0,
				 "can_read through the vtable: a schema reads itself");
		rg_arena_destroy(a);
	}
	rg_schema_free(s);
}

/* A schema given as a base64 FileDescriptorProto, as Confluent accepts. */
static void
test_base64_descriptor(void)
{
	const char *text = "syntax = \"proto3\"; package p; import \"google/protobuf/timestamp.proto\";\n"
	"option java_package = \"j\";\n"
	"message M { google.protobuf.Timestamp t = 1; map<string, int32> m = 2; oneof o { string a = 3; }"
	" optional int32 q = 4; message In { E e = 1; } enum E { Z = 0; } }";
	rg_error	err;
	rg_schema  *s = rg_protobuf_parse(text, strlen(text), NULL, 0, true, &err);
	rg_schema  *d;
	size_t		len;
	const unsigned char *bytes;
	char	   *b64;

	RG_CHECK(s != NULL, "base64: source parses");
	if (s == NULL)
		return;
	bytes = rg_protobuf_serialized(s, &len);
	b64 = rg_test_base64(bytes, len);
	d = rg_protobuf_parse(b64, strlen(b64), NULL, 0, true, &err);
	RG_CHECK(d != NULL, "base64 descriptor parses");
	if (d == NULL)
		printf("#   %s\n", err.message);
	else
	{
		size_t		len2;

		(void) rg_protobuf_serialized(d, &len2);

		RG_CHECK_STR(d->canonical, s->canonical, "base64 descriptor: same normalized form");
		/* map entries may move among the nested types, nothing else */
		RG_CHECK(len2 == len, "base64 descriptor: same serialized size");
		rg_schema_free(d);
	}
	free(b64);
	rg_schema_free(s);

	/* as a reference too */
	{
		const char *reftext = "syntax = \"proto3\"; package r; message R { int32 x = 1; }";
		rg_schema  *r = rg_protobuf_parse(reftext, strlen(reftext), NULL, 0, false, &err);
		rg_reference ref;
		char	   *got;

		bytes = rg_protobuf_serialized(r, &len);
		b64 = rg_test_base64(bytes, len);
		ref.name = "r.proto";
		ref.schema = b64;
		ref.schema_len = strlen(b64);
		got = stored_refs("syntax = \"proto3\"; import \"r.proto\"; message M { r.R r = 1; }",
						  &ref, 1, true);
		RG_CHECK_STR(got, "syntax = \"proto3\";\n\nimport \"r.proto\";\n\nmessage M {\n  .r.R r = 1;\n}\n",
					 "base64 descriptor as a reference");
		free(got);
		free(b64);
		rg_schema_free(r);
	}
	check_error("not base64, not proto", "QUJD!!", "");
}

/*
 * The stored form of text given as the descriptor format=serialized
 * serves (base64 of the serialized main file), not normalized; NULL with
 * errbuf set on failure.
 */
static char *
stored_via_descriptor(const char *text, const rg_reference *refs, int n_refs)
{
	rg_error	err;
	rg_schema  *s = rg_protobuf_parse(text, strlen(text), refs, n_refs, false, &err);
	size_t		len;
	const unsigned char *bytes;
	char	   *b64;
	char	   *out;

	if (s == NULL)
	{
		snprintf(errbuf, sizeof(errbuf), "%s", err.message);
		return NULL;
	}
	bytes = rg_protobuf_serialized(s, &len);
	b64 = rg_test_base64(bytes, len);
	rg_schema_free(s);
	out = stored_refs(b64, refs, n_refs, false);
	free(b64);
	return out;
}

/*
 * Text in the usual style and its descriptor have the same stored form
 * (so the same identity): type names as .proto files write them (the
 * shortest within the package, package-qualified across packages),
 * json_name only where it is not the default.
 */
static void
test_descriptor_identity(void)
{
	static const char *texts[] = {
		/* nested, sibling-scoped, enum and map value types; a json_name */
		"syntax = \"proto3\";\npackage shop.v1;\nimport \"google/protobuf/timestamp.proto\";\n"
		"message Order {\n  message Line { string sku = 1; Kind kind = 2; }\n"
		"  enum Kind { K0 = 0; K1 = 1; }\n  repeated Line lines = 1;\n"
		"  google.protobuf.Timestamp placed_at = 2;\n  map<string, Line> by_sku = 3;\n"
		"  Kind kind = 4;\n  string note = 5 [json_name = \"memo\"];\n"
		"  oneof pay { string card_no = 6; Refund refund = 7; }\n}\n"
		"message Refund { Order.Line line = 1; Order.Kind kind = 2; int64 order_id = 3; }\n",
		/* no package; proto2 with a group, extensions, a service */
		"syntax = \"proto2\";\nmessage A { optional int32 x = 1 [default = 5]; required string y = 2;"
		" repeated B b = 3; extensions 100 to 200; message B { optional group G = 1 {"
		" optional int32 z = 1; } } }\nextend A { optional A.B e = 100; }\n"
		"service S { rpc Go (A) returns (A.B); }\n",
		/* a nearer symbol shadows the short name: p.A.B needs its package */
		"syntax = \"proto3\";\npackage p;\nmessage A { message B { int32 v = 1; } }\n"
		"message C { message A { int32 w = 1; } p.A.B x = 1; A y = 2; }\n",
		/* a field named like a type does not hide it */
		"syntax = \"proto3\";\npackage q;\nmessage T { int32 a = 1; }\n"
		"message U { T T = 1; repeated T others = 2; }\n",
		/* Confluent's custom options, package-qualified as written */
		"syntax = \"proto3\";\npackage tags.v1;\nimport \"confluent/meta.proto\";\n"
		"option (confluent.file_meta) = { doc: \"f\" };\n"
		"message M {\n  option (confluent.message_meta) = { tags: \"M\" };\n"
		"  string ssn = 1 [(confluent.field_meta) = { tags: \"PII\" }];\n"
		"  E e = 2;\n}\n"
		"enum E {\n  option (confluent.enum_meta) = { doc: \"e\" };\n"
		"  Z = 0 [(confluent.enum_value_meta) = { doc: \"z\" }];\n}\n",
		/* a nearer symbol named like the option's package: absolute */
		"syntax = \"proto3\";\nimport \"confluent/meta.proto\";\n"
		"message M {\n  message confluent { int32 c = 1; }\n"
		"  string ssn = 1 [(.confluent.field_meta) = { doc: \"x\" }];\n}\n",
		/* proto3 optional: synthetic oneofs, after the real ones */
		"syntax = \"proto3\";\npackage opt.v1;\n"
		"message P {\n  optional string name = 1;\n  oneof pick { int32 a = 2; string b = 3; }\n"
		"  optional Inner inner = 4;\n  message Inner { optional int64 n = 1; }\n}\n",
	};
	size_t		i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
	{
		char	   *want = stored(texts[i], false);
		char	   *got = stored_via_descriptor(texts[i], NULL, 0);

		RG_CHECK(want != NULL, "descriptor %zu: the text parses", i);
		RG_CHECK_STR(got, want, "descriptor %zu: same stored form as its text", i);
		if (got == NULL)
			printf("#   error: %s\n", errbuf);
		free(got);
		free(want);
	}

	/* across a reference: package-qualified, as written */
	{
		const char *common = "syntax = \"proto3\"; package test.common; message Money { int64 units = 1; }";
		const char *text = "syntax = \"proto3\";\npackage test.billing;\nimport \"common.proto\";\n"
		"message Invoice { test.common.Money total = 1; }\n";
		rg_reference ref;
		char	   *want;
		char	   *got;

		ref.name = "common.proto";
		ref.schema = common;
		ref.schema_len = strlen(common);
		want = stored_refs(text, &ref, 1, false);
		got = stored_via_descriptor(text, &ref, 1);
		RG_CHECK_STR(got, want, "descriptor with a reference: same stored form as its text");
		free(got);
		free(want);
	}
}

/*
 * A descriptor of messages nested 30 deep (as deep as protoc parses), each with a field of the
 * innermost type: the type names of its stored form cost their nesting
 * squared to shorten, which stays bounded, and the stored form still
 * links to the same descriptor.
 */
static void
test_descriptor_deep_names(void)
{
	rg_buf		b;
	rg_error	err;
	rg_schema  *s;
	rg_schema  *d = NULL;
	rg_schema  *again = NULL;
	size_t		len,
				len2 = 0;
	const unsigned char *bytes;
	const unsigned char *bytes2 = NULL;
	char	   *b64;
	clock_t		t0;
	double		secs;
	int			i;

	rg_buf_init(&b);
	rg_buf_puts(&b, "syntax = \"proto3\";\npackage deep;\n");
	for (i = 0; i < 30; i++)
		rg_buf_printf(&b, "message M%d {\n", i);
	for (i = 29; i >= 0; i--)
	{
		int			j;

		rg_buf_puts(&b, ".deep");
		for (j = 0; j < 30; j++)
			rg_buf_printf(&b, ".M%d", j);
		rg_buf_printf(&b, " f%d = 1;\n}\n", i);
	}
	rg_buf_putc(&b, '\0');
	s = rg_protobuf_parse(b.data, strlen(b.data), NULL, 0, false, &err);
	RG_CHECK(s != NULL, "deep names: the text parses");
	if (s == NULL)
	{
		printf("#   %s\n", err.message);
		rg_buf_free(&b);
		return;
	}
	bytes = rg_protobuf_serialized(s, &len);
	b64 = rg_test_base64(bytes, len);
	t0 = clock();
	d = rg_protobuf_parse(b64, strlen(b64), NULL, 0, false, &err);
	secs = (double) (clock() - t0) / CLOCKS_PER_SEC;
	RG_CHECK(d != NULL && secs < 5.0, "deep names: the descriptor parses in %.2f s", secs);
	if (d != NULL)
		again = rg_protobuf_parse(d->canonical, d->canonical_len, NULL, 0, false, &err);
	if (again != NULL)
		bytes2 = rg_protobuf_serialized(again, &len2);
	RG_CHECK(again != NULL && len2 == len && memcmp(bytes2, bytes, len) == 0,
			 "deep names: the stored form links to the same descriptor");
	if (again != NULL)
		rg_schema_free(again);
	if (d != NULL)
		rg_schema_free(d);
	free(b64);
	rg_schema_free(s);
	rg_buf_free(&b);
}

/* The json_name of a field of the serialized main file, NULL if none. */
static const char *
json_name_of(const Google__Protobuf__DescriptorProto *m, const char *field)
{
	size_t		i;

	for (i = 0; i < m->n_field; i++)
		if (strcmp(m->field[i]->name, field) == 0)
			return m->field[i]->json_name;
	return NULL;
}

/* format=serialized carries every field's json_name, as protoc writes it. */
static void
test_serialized_json_names(void)
{
	const char *text = "syntax = \"proto3\"; message M { string foo_bar = 1; int32 x = 2;"
	" string a_b_c = 3; string _lead = 4; string set_ID2x = 5; string own = 6 [json_name = \"custom\"];"
	" oneof o { string in_oneof = 7; } map<string, int32> by_key = 8; message N { bool is_ok = 1; } }";
	rg_error	err;
	rg_schema  *s = rg_protobuf_parse(text, strlen(text), NULL, 0, false, &err);
	size_t		len;
	const unsigned char *bytes;
	Google__Protobuf__FileDescriptorProto *fd;
	const Google__Protobuf__DescriptorProto *m;

	RG_CHECK(s != NULL, "json_name: parses");
	if (s == NULL)
		return;
	bytes = rg_protobuf_serialized(s, &len);
	fd = google__protobuf__file_descriptor_proto__unpack(NULL, len, bytes);
	RG_CHECK(fd != NULL && fd->n_message_type == 1, "json_name: serialized unpacks");
	if (fd == NULL)
	{
		rg_schema_free(s);
		return;
	}
	m = fd->message_type[0];
	RG_CHECK_STR(json_name_of(m, "foo_bar"), "fooBar", "json_name of foo_bar");
	RG_CHECK_STR(json_name_of(m, "x"), "x", "json_name of x");
	RG_CHECK_STR(json_name_of(m, "a_b_c"), "aBC", "json_name of a_b_c");
	RG_CHECK_STR(json_name_of(m, "_lead"), "Lead", "json_name of _lead");
	RG_CHECK_STR(json_name_of(m, "set_ID2x"), "setID2x", "json_name of set_ID2x");
	RG_CHECK_STR(json_name_of(m, "own"), "custom", "an explicit json_name is kept");
	RG_CHECK_STR(json_name_of(m, "in_oneof"), "inOneof", "json_name of a oneof member");
	RG_CHECK_STR(json_name_of(m, "by_key"), "byKey", "json_name of a map field");
	{
		const char *nested = NULL;
		size_t		i;

		for (i = 0; i < m->n_nested_type; i++)
			if (strcmp(m->nested_type[i]->name, "N") == 0)
				nested = json_name_of(m->nested_type[i], "is_ok");
		RG_CHECK_STR(nested, "isOk", "json_name of a nested message's field");
	}
	google__protobuf__file_descriptor_proto__free_unpacked(fd, NULL);
	rg_schema_free(s);
}

/* How js_shaped() takes a descriptor apart */
typedef enum
{
	SHAPE_NO_INDEX,				/* synthetic oneofs declared, no oneof_index */
	SHAPE_NO_ONEOF,				/* neither */
	SHAPE_EMPTY_ONEOF,			/* no oneof_index, and an empty oneof first */
} descriptor_shape;

/* The descriptor of text (its format=serialized form), unpacked; NULL if it does not parse. */
static Google__Protobuf__FileDescriptorProto *
descriptor_of(const char *text)
{
	rg_error	err;
	rg_schema  *s = rg_protobuf_parse(text, strlen(text), NULL, 0, false, &err);
	Google__Protobuf__FileDescriptorProto *fd;
	const unsigned char *bytes;
	size_t		len;

	if (s == NULL)
		return NULL;
	bytes = rg_protobuf_serialized(s, &len);
	fd = google__protobuf__file_descriptor_proto__unpack(NULL, len, bytes);
	rg_schema_free(s);
	return fd;
}

/* fd packed, in base64 (malloc'd), as a schema is given */
static char *
packed_base64(const Google__Protobuf__FileDescriptorProto *fd)
{
	size_t		len = google__protobuf__file_descriptor_proto__get_packed_size(fd);
	unsigned char *packed = malloc(len);
	char	   *b64;

	google__protobuf__file_descriptor_proto__pack(fd, packed);
	b64 = rg_test_base64(packed, len);
	free(packed);
	return b64;
}

/* No oneof_index on the proto3 optional fields of a file's messages, nested ones too. */
static void
clear_optional_indexes(Google__Protobuf__DescriptorProto **ms, size_t n)
{
	size_t		i,
				j;

	for (i = 0; i < n; i++)
	{
		for (j = 0; j < ms[i]->n_field; j++)
			if (ms[i]->field[j]->proto3_optional)
				ms[i]->field[j]->has_oneof_index = false;
		clear_optional_indexes(ms[i]->nested_type, ms[i]->n_nested_type);
	}
}

/*
 * The descriptor of text laid out as clients that build descriptors by
 * hand send it, base64 (malloc'd); NULL if the text does not parse.  Only
 * the first message changes its oneof declarations (protoc puts the
 * synthetic ones last, so fewer of them is a prefix); the counts are
 * restored before the unpacked copy is freed.
 */
static char *
js_shaped(const char *text, descriptor_shape shape)
{
	Google__Protobuf__FileDescriptorProto *fd = descriptor_of(text);
	Google__Protobuf__DescriptorProto *m;
	Google__Protobuf__OneofDescriptorProto empty = GOOGLE__PROTOBUF__ONEOF_DESCRIPTOR_PROTO__INIT;
	Google__Protobuf__OneofDescriptorProto **decls;
	Google__Protobuf__OneofDescriptorProto **with_empty = NULL;
	size_t		n_decls;
	size_t		i;
	char	   *b64;

	if (fd == NULL || fd->n_message_type == 0)
		return NULL;
	clear_optional_indexes(fd->message_type, fd->n_message_type);
	m = fd->message_type[0];
	decls = m->oneof_decl;
	n_decls = m->n_oneof_decl;
	if (shape == SHAPE_NO_ONEOF)
	{
		size_t		real = 0;

		for (i = 0; i < m->n_field; i++)
			if (m->field[i]->has_oneof_index && m->field[i]->oneof_index + 1 > (int32_t) real)
				real = m->field[i]->oneof_index + 1;
		m->n_oneof_decl = real;
	}
	else if (shape == SHAPE_EMPTY_ONEOF)
	{
		empty.name = "nothing_here";
		with_empty = malloc((n_decls + 1) * sizeof(*with_empty));
		with_empty[0] = &empty;
		for (i = 0; i < n_decls; i++)
			with_empty[i + 1] = decls[i];
		for (i = 0; i < m->n_field; i++)
			if (m->field[i]->has_oneof_index)
				m->field[i]->oneof_index++;
		m->oneof_decl = with_empty;
		m->n_oneof_decl = n_decls + 1;
	}
	b64 = packed_base64(fd);
	m->oneof_decl = decls;
	m->n_oneof_decl = n_decls;
	free(with_empty);
	google__protobuf__file_descriptor_proto__free_unpacked(fd, NULL);
	return b64;
}

/*
 * proto3 `optional` fields in a descriptor without their synthetic oneofs
 * (or with them declared and not pointed at, or beside an empty oneof), as
 * Confluent's JavaScript client sends one: the schema of the .proto text
 * with `optional` fields, as Confluent reads it; libprotobuf alone refuses
 * it ("Fields with proto3_optional set must be a member of a one-field
 * oneof").
 */
static void
test_descriptor_proto3_optional(void)
{
	static const char *texts[] = {
		"syntax = \"proto3\";\npackage opt.v1;\n"
		"message P {\n  optional string name = 1;\n  oneof pick { int32 a = 2; string b = 3; }\n"
		"  optional Inner inner = 4;\n  repeated int32 r = 5;\n  optional E e = 6;\n"
		"  message Inner { optional int64 n = 1; int32 plain = 2; }\n  enum E { E0 = 0; }\n}\n",

		/*
		 * a oneof and a field named like the synthetic oneofs protoc would
		 * name first
		 */
		"syntax = \"proto3\";\nmessage Q {\n  optional int32 a = 1;\n  int32 X_a = 2;\n"
		"  oneof _a { bool c = 3; }\n}\n",
	};
	static const descriptor_shape shapes[] = {SHAPE_NO_INDEX, SHAPE_NO_ONEOF, SHAPE_EMPTY_ONEOF};
	size_t		i,
				j;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		for (j = 0; j < sizeof(shapes) / sizeof(shapes[0]); j++)
		{
			char	   *want = stored(texts[i], false);
			char	   *b64 = js_shaped(texts[i], shapes[j]);
			char	   *got = b64 ? stored(b64, false) : NULL;

			RG_CHECK(want != NULL && b64 != NULL, "optional %zu/%zu: the text parses", i, j);
			RG_CHECK_STR(got, want, "optional %zu, shape %zu: the stored form of the text", i, j);
			if (got == NULL)
				printf("#   error: %s\n", errbuf);
			free(got);
			free(b64);
			free(want);
		}

	/*
	 * Confluent's JavaScript client's own case: relative type names of every
	 * kind, an import, and proto3 optional fields without oneof_index.
	 */
	{
		const char *text = "syntax = \"proto3\";\npackage test;\n"
		"import \"google/protobuf/timestamp.proto\";\n"
		"message MyMessage {\n  optional MyEnum my_field = 1;\n  optional MyEnum my_field2 = 2;\n"
		"  optional Outer.Inner my_nested = 3;\n  optional google.protobuf.Timestamp my_ts = 4;\n}\n"
		"message Outer {\n  message Inner {\n    optional int32 value = 1;\n  }\n}\n"
		"enum MyEnum {\n  MY_ENUM_UNSPECIFIED = 0;\n  MY_ENUM_FOO = 1;\n}\n";
		static char *relative[4] = {"MyEnum", "test.MyEnum", "Outer.Inner", "google.protobuf.Timestamp"};
		Google__Protobuf__FileDescriptorProto *fd = descriptor_of(text);
		char	   *saved[4];
		char	   *b64;
		char	   *got;
		char	   *want = stored(text, false);

		RG_CHECK(fd != NULL && want != NULL, "relative names: the text parses");
		if (fd == NULL)
			return;
		clear_optional_indexes(fd->message_type, fd->n_message_type);
		for (i = 0; i < 4; i++)
		{
			saved[i] = fd->message_type[0]->field[i]->type_name;
			fd->message_type[0]->field[i]->type_name = relative[i];
		}
		b64 = packed_base64(fd);
		for (i = 0; i < 4; i++)
			fd->message_type[0]->field[i]->type_name = saved[i];
		google__protobuf__file_descriptor_proto__free_unpacked(fd, NULL);
		got = stored(b64, false);
		RG_CHECK_STR(got, want, "relative names, no oneof_index: the stored form of the text");
		if (got == NULL)
			printf("#   error: %s\n", errbuf);
		free(got);
		free(b64);
		free(want);
	}

	/* a oneof_index out of range is still the pool's error */
	{
		Google__Protobuf__FileDescriptorProto *fd =
		descriptor_of("syntax = \"proto3\";\nmessage M {\n  optional int32 a = 1;\n  oneof o { int32 b = 2; }\n}\n");
		char	   *b64;

		fd->message_type[0]->field[1]->oneof_index = 7;
		b64 = packed_base64(fd);
		google__protobuf__file_descriptor_proto__free_unpacked(fd, NULL);
		check_error("oneof_index out of range", b64, "out of range");
		free(b64);
	}
}

/* A large file parses and renders idempotently. */
static void
test_huge(void)
{
	rg_buf		b;
	int			i,
				j;
	char	   *got;
	char	   *again;

	rg_buf_init(&b);
	rg_buf_puts(&b, "syntax = \"proto3\";\npackage big;\n");
	for (i = 0; i < 1500; i++)
	{
		rg_buf_printf(&b, "message M%d {\n", i);
		for (j = 1; j <= 20; j++)
			rg_buf_printf(&b, "  %s f%d = %d;\n", j % 3 ? "string" : (i ? "M0" : "int64"), j, j);
		rg_buf_puts(&b, "}\n");
	}
	rg_buf_putc(&b, '\0');
	got = stored(b.data, false);
	RG_CHECK(got != NULL && strlen(got) > 500000, "huge file parses (%zu bytes)", b.len);
	again = got ? stored(got, false) : NULL;
	RG_CHECK(again != NULL && strcmp(again, got) == 0, "huge file idempotent");
	free(got);
	free(again);
	rg_buf_free(&b);
}

/*
 * Mutations of valid schemas never crash; whatever still parses renders
 * idempotently.
 */
static void
test_mutations(void)
{
	static const char *seeds[] = {
		"syntax = \"proto3\"; package a.b; import \"google/protobuf/any.proto\";\n"
		"message M { map<string, int32> m = 1; oneof o { string s = 2; bytes b = 3; }"
		" repeated google.protobuf.Any any = 4; message N { optional int32 x = 1; } }\n"
		"enum E { A = 0; B = 1; } service S { rpc R (M) returns (M); }\n",
		"syntax = \"proto2\"; message P { required int32 a = 1 [default = 3]; optional group G = 2 {"
		" optional string s = 1 [default = \"x\"]; } extensions 10 to max; }\n"
		"extend P { optional P.G ge = 10; }\n",
	};
	unsigned	seed = 12345;
	int			bad = 0,
				parsed = 0,
				k;

	for (k = 0; k < 600; k++)
	{
		const char *src = seeds[k % 2];
		size_t		n = strlen(src);
		char	   *t = malloc(n + 1);
		int			m;
		char	   *got;

		memcpy(t, src, n + 1);
		for (m = 0; m < 1 + k % 4; m++)
		{
			seed = seed * 1103515245 + 12345;
			switch ((seed >> 16) % 4)
			{
				case 0:
					t[(seed >> 8) % n] = "{};=<>\"'.x09 \n"[(seed >> 4) % 14];
					break;
				case 1:
					t[(seed >> 8) % n] = (char) (seed >> 3);
					break;
				case 2:
					t[(seed >> 8) % n] = '\0';
					break;
				default:
					memmove(t + (seed >> 8) % n, t + (seed >> 8) % n + 1,
							n - (seed >> 8) % n);
			}
		}
		got = stored(t, k % 3 == 0);
		if (got != NULL)
		{
			char	   *again = stored(got, k % 3 == 0);

			parsed++;
			if (again == NULL || strcmp(again, got) != 0)
			{
				bad++;
				if (bad < 3)
					printf("# not idempotent:\n%s\n# ->\n%s\n", got, again ? again : errbuf);
			}
			free(again);
		}
		free(got);
		free(t);
	}
	RG_CHECK(bad == 0, "mutations: %d of 600 still parse, all idempotent", parsed);
}

int
main(void)
{
	test_basic();
	test_layout_independence();
	test_normalize();
	test_errors();
	test_references();
	test_model();
	test_base64_descriptor();
	test_descriptor_identity();
	test_descriptor_deep_names();
	test_serialized_json_names();
	test_descriptor_proto3_optional();
	test_huge();
	test_mutations();
	return rg_test_done();
}
