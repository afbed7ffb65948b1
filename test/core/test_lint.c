/*-------------------------------------------------------------------------
 *
 * test_lint.c
 *	  Unit tests of the semantic lints (rg_compat_lint): the Avro rename
 *	  without an alias, the Protobuf field deleted without `reserved` and
 *	  the field number or name used again; the practices (removal without
 *	  deprecation, a field without a default, a type change) in the three
 *	  formats; what they must not report; the lint names a config gives.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_test.h"
#include "rg_compat.h"
#include "rg_format.h"

#define MAX_VERSIONS 8

/* the lint messages of the last check, joined with " | " */
static char joined[65536];

/*
 * Lint the last of texts (a NULL-terminated list: earlier versions
 * oldest first, then the new schema) in a format; joins the messages into
 * `joined` and returns their lintTypes joined with ","; "PARSE ERROR" if a
 * schema does not parse.
 */
static const char *
lint(const char *format, rg_lint_rules rules, const char *const *texts)
{
	static char types[4096];
	const rg_format *f = rg_format_lookup(format);
	rg_schema  *s[MAX_VERSIONS + 1];
	rg_prior_version prev[MAX_VERSIONS];
	rg_arena   *arena = rg_arena_create();
	rg_strlist	out;
	rg_error	err;
	bool		clean;
	int			n = 0;
	int			i;

	joined[0] = types[0] = '\0';
	while (texts[n] != NULL && n <= MAX_VERSIONS)
	{
		s[n] = f->parse(texts[n], strlen(texts[n]), NULL, 0, false, &err);
		if (s[n] == NULL)
		{
			printf("# parse failed: %s\n#   for %s\n", err.message, texts[n]);
			strcpy(types, "PARSE ERROR");
			while (n-- > 0)
				rg_schema_free(s[n]);
			rg_arena_destroy(arena);
			return types;
		}
		n++;
	}
	if (n == 2)
		rg_test_log_case(format, texts[1], NULL, 0, texts[0], NULL, 0);
	for (i = 0; i < n - 1; i++)
	{
		prev[i].schema = s[i];
		prev[i].version = i + 1;
	}
	rg_strlist_init(&out, arena);
	clean = rg_compat_lint(s[n - 1], prev, n - 1, rules, &out);
	for (i = 0; i < out.n; i++)
	{
		const char *t = strstr(out.items[i], "lintType:'");
		const char *e = t ? strchr(t + 10, '\'') : NULL;

		if (i)
		{
			strncat(joined, " | ", sizeof(joined) - strlen(joined) - 1);
			strncat(types, ",", sizeof(types) - strlen(types) - 1);
		}
		strncat(joined, out.items[i], sizeof(joined) - strlen(joined) - 1);
		if (t && e)
			strncat(types, t + 10, e - t - 10 < (long) (sizeof(types) - strlen(types) - 1) ?
					(size_t) (e - t - 10) : sizeof(types) - strlen(types) - 1);
	}
	if (clean != (out.n == 0))
		strcpy(types, "VERDICT AND MESSAGES DISAGREE");
	for (i = 0; i < n; i++)
		rg_schema_free(s[i]);
	rg_arena_destroy(arena);
	return types;
}

#define LINT(format, want, what, ...) \
	do { \
		const char *const texts_[] = {__VA_ARGS__, NULL}; \
		RG_CHECK_STR(lint(format, RG_LINT_DATA_LOSS, texts_), want, "%s %s", format, what); \
	} while (0)

/* the same with the practices only */
#define PRACTICE(format, want, what, ...) \
	do { \
		const char *const texts_[] = {__VA_ARGS__, NULL}; \
		RG_CHECK_STR(lint(format, RG_LINT_PRACTICES, texts_), want, "%s %s", format, what); \
	} while (0)

#define HAS(text, what) \
	RG_CHECK(strstr(joined, text) != NULL, "%s: says %s", what, text)

#define REC(fields) "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"fields\":[" fields "]}"

static void
test_avro_rename(void)
{
	LINT("AVRO", "FIELD_RENAMED_WITHOUT_ALIAS", "a rename without an alias",
		 REC("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"string\"}"),
		 REC("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"c\",\"type\":\"string\",\"default\":\"\"}"));
	HAS("The field 'b' of record 'n.R' was removed and the field 'c' of the same type was added with a default and no alias 'b'",
		"the rename");
	HAS("add \"aliases\": [\"b\"] to the field 'c'", "the rename");
	HAS("additionalInfo:'b -> c'", "the rename");
	LINT("AVRO", "", "a rename with the alias",
		 REC("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"string\"}"),
		 REC("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"c\",\"type\":\"string\",\"default\":\"\",\"aliases\":[\"b\"]}"));
	LINT("AVRO", "", "a field of another type added",
		 REC("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"string\"}"),
		 REC("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"c\",\"type\":\"long\",\"default\":0}"));
	LINT("AVRO", "", "an added field without a default (BACKWARD refuses it)",
		 REC("{\"name\":\"b\",\"type\":\"string\"}"),
		 REC("{\"name\":\"c\",\"type\":\"string\"}"));
	LINT("AVRO", "", "a field removed and none added",
		 REC("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"string\"}"),
		 REC("{\"name\":\"a\",\"type\":\"int\"}"));
	LINT("AVRO", "", "a field added and none removed",
		 REC("{\"name\":\"a\",\"type\":\"int\"}"),
		 REC("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"c\",\"type\":\"int\",\"default\":0}"));
	LINT("AVRO", "", "another logical type is another type",
		 REC("{\"name\":\"b\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}}"),
		 REC("{\"name\":\"c\",\"type\":\"long\",\"default\":0}"));
	LINT("AVRO", "FIELD_RENAMED_WITHOUT_ALIAS", "the same logical type is the same type",
		 REC("{\"name\":\"b\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}}"),
		 REC("{\"name\":\"c\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"},\"default\":0}"));
	LINT("AVRO", "FIELD_RENAMED_WITHOUT_ALIAS", "a nullable union renamed",
		 REC("{\"name\":\"b\",\"type\":[\"null\",\"string\"],\"default\":null}"),
		 REC("{\"name\":\"c\",\"type\":[\"null\",\"string\"],\"default\":null}"));
	LINT("AVRO", "FIELD_RENAMED_WITHOUT_ALIAS,FIELD_RENAMED_WITHOUT_ALIAS",
		 "two removed fields of the type: each is reported",
		 REC("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\"}"),
		 REC("{\"name\":\"c\",\"type\":\"int\",\"default\":0}"));
	LINT("AVRO", "FIELD_RENAMED_WITHOUT_ALIAS", "in a nested record",
		 REC("{\"name\":\"in\",\"type\":{\"type\":\"record\",\"name\":\"I\",\"fields\":[{\"name\":\"x\",\"type\":\"double\"}]}}"),
		 REC("{\"name\":\"in\",\"type\":{\"type\":\"record\",\"name\":\"I\",\"fields\":[{\"name\":\"y\",\"type\":\"double\",\"default\":0}]}}"));
	HAS("of record 'n.I'", "the nested record");
	LINT("AVRO", "FIELD_RENAMED_WITHOUT_ALIAS", "a record renamed with an alias is the same record",
		 REC("{\"name\":\"b\",\"type\":\"string\"}"),
		 "{\"type\":\"record\",\"name\":\"S\",\"namespace\":\"n\",\"aliases\":[\"n.R\"],\"fields\":[{\"name\":\"c\",\"type\":\"string\",\"default\":\"\"}]}");
	LINT("AVRO", "", "only the latest earlier version counts",
		 REC("{\"name\":\"b\",\"type\":\"string\"}"),
		 REC("{\"name\":\"b\",\"type\":\"string\"},{\"name\":\"c\",\"type\":\"string\",\"default\":\"\"}"),
		 REC("{\"name\":\"c\",\"type\":\"string\",\"default\":\"\"},{\"name\":\"b\",\"type\":\"string\",\"default\":\"\"}"));
	LINT("AVRO", "", "a recursive record ends",
		 "{\"type\":\"record\",\"name\":\"L\",\"fields\":[{\"name\":\"next\",\"type\":[\"null\",\"L\"]}]}",
		 "{\"type\":\"record\",\"name\":\"L\",\"fields\":[{\"name\":\"next\",\"type\":[\"null\",\"L\"]}]}");
	LINT("AVRO", "", "no earlier version",
		 REC("{\"name\":\"a\",\"type\":\"int\"}"));
}

#define MSG(body) "syntax = \"proto3\";\npackage p;\nmessage M {\n" body "}\n"

static void
test_protobuf_deleted(void)
{
	LINT("PROTOBUF", "DELETED_FIELD_NOT_RESERVED", "a deleted field",
		 MSG("int32 a = 1;\nstring b = 2;\n"), MSG("int32 a = 1;\n"));
	HAS("The field 'b' (number 2) of message 'p.M' was deleted without reserving its number and its name",
		"the deleted field");
	HAS("add \"reserved 2;\" and \"reserved \"b\";\"", "the deleted field");
	HAS("additionalInfo:'p.M.b'", "the deleted field");
	LINT("PROTOBUF", "", "a deleted field, reserved",
		 MSG("int32 a = 1;\nstring b = 2;\n"), MSG("int32 a = 1;\nreserved 2;\nreserved \"b\";\n"));
	LINT("PROTOBUF", "", "a deleted field, its number in a reserved range",
		 MSG("int32 a = 1;\nstring b = 7;\n"), MSG("int32 a = 1;\nreserved 5 to 9;\nreserved \"b\";\n"));
	LINT("PROTOBUF", "DELETED_FIELD_NOT_RESERVED", "only the number reserved",
		 MSG("int32 a = 1;\nstring b = 2;\n"), MSG("int32 a = 1;\nreserved 2;\n"));
	HAS("without reserving its name", "only the number reserved");
	LINT("PROTOBUF", "DELETED_FIELD_NOT_RESERVED", "only the name reserved",
		 MSG("int32 a = 1;\nstring b = 2;\n"), MSG("int32 a = 1;\nreserved \"b\";\n"));
	HAS("without reserving its number", "only the name reserved");
	LINT("PROTOBUF", "", "a deleted message is not a deleted field",
		 "syntax = \"proto3\";\npackage p;\nmessage M { int32 a = 1; }\nmessage N { int32 b = 1; }\n",
		 "syntax = \"proto3\";\npackage p;\nmessage M { int32 a = 1; }\n");
	LINT("PROTOBUF", "DELETED_FIELD_NOT_RESERVED", "in a nested message",
		 MSG("message In { int32 x = 1; int32 y = 2; }\nIn in = 1;\n"),
		 MSG("message In { int32 x = 1; }\nIn in = 1;\n"));
	HAS("of message 'p.M.In'", "the nested message");
	LINT("PROTOBUF", "DELETED_FIELD_NOT_RESERVED", "a field of a oneof",
		 MSG("oneof o { int32 a = 1; string b = 2; }\n"), MSG("oneof o { int32 a = 1; }\n"));
	LINT("PROTOBUF", "", "a renamed field keeps its number: not deleted",
		 MSG("string b = 2;\n"), MSG("string c = 2;\n"));
	LINT("PROTOBUF", "", "map entries are not messages of their own",
		 MSG("map<string, int32> m = 1;\n"), MSG("map<string, int32> m = 1;\n"));
}

static void
test_protobuf_reused(void)
{
	LINT("PROTOBUF", "FIELD_NUMBER_REUSED", "a number given back to a field of another type",
		 MSG("int32 a = 1;\nstring b = 2;\n"), MSG("int32 a = 1;\n"), MSG("int32 a = 1;\nint64 c = 2;\n"));
	HAS("The field number 2 of message 'p.M' was the field 'b' of type string in version 1 and is the field 'c' of type int64 in the new schema",
		"the reused number");
	HAS("additionalInfo:'p.M.2'", "the reused number");
	LINT("PROTOBUF", "FIELD_NUMBER_REUSED", "a number given back to a field of the same type and another name",
		 MSG("int32 a = 1;\nstring b = 2;\n"), MSG("int32 a = 1;\n"), MSG("int32 a = 1;\nstring c = 2;\n"));
	LINT("PROTOBUF", "", "the same field deleted and added back",
		 MSG("int32 a = 1;\nstring b = 2;\n"), MSG("int32 a = 1;\n"), MSG("int32 a = 1;\nstring b = 2;\n"));
	LINT("PROTOBUF", "FIELD_NUMBER_REUSED", "a type change in place",
		 MSG("int32 a = 1;\n"), MSG("string a = 1;\n"));
	LINT("PROTOBUF", "FIELD_NUMBER_REUSED", "singular to repeated is another type",
		 MSG("int32 a = 1;\n"), MSG("repeated int32 a = 1;\n"));
	HAS("of type repeated int32", "the repeated field");
	LINT("PROTOBUF", "FIELD_NUMBER_REUSED", "another message type",
		 MSG("message X {}\nmessage Y {}\nX a = 1;\n"), MSG("message X {}\nmessage Y {}\nY a = 1;\n"));
	HAS("of type p.M.X in version 1", "the message type");
	LINT("PROTOBUF", "DELETED_FIELD_NOT_RESERVED,FIELD_NAME_REUSED", "a name moved to another number",
		 MSG("string b = 2;\n"), MSG("string b = 3;\n"));
	HAS("The field name 'b' of message 'p.M' had the number 2 in version 1 and has the number 3 in the new schema",
		"the moved name");
	LINT("PROTOBUF", "FIELD_NUMBER_REUSED", "reported once, against the oldest version",
		 MSG("string b = 2;\n"), MSG("string b = 2;\n"), MSG("reserved 5;\n"), MSG("int64 b = 2;\n"));
	HAS("in version 1", "the oldest version");
	LINT("PROTOBUF", "", "a field added with a new number",
		 MSG("int32 a = 1;\n"), MSG("int32 a = 1;\nstring b = 2;\n"));
}

#define P2(body) "syntax = \"proto2\";\npackage p;\nmessage M {\n" body "}\n"
#define OBJ(props) "{\"type\":\"object\",\"properties\":{" props "}}"
#define OBJR(props, req) "{\"type\":\"object\",\"properties\":{" props "},\"required\":[" req "]}"

static void
test_avro_practices(void)
{
	PRACTICE("AVRO", "FIELD_REMOVED_WITHOUT_DEPRECATION", "a field removed at once",
			 REC("{\"name\":\"a\",\"type\":\"int\",\"default\":0},{\"name\":\"b\",\"type\":\"string\",\"default\":\"\"}"),
			 REC("{\"name\":\"a\",\"type\":\"int\",\"default\":0}"));
	HAS("The field 'b' of record 'n.R' was removed without being deprecated first", "the removal");
	HAS("additionalInfo:'n.R.b'", "the removal");
	PRACTICE("AVRO", "", "a field removed after a deprecated property",
			 REC("{\"name\":\"a\",\"type\":\"int\",\"default\":0},{\"name\":\"b\",\"type\":\"string\",\"default\":\"\",\"deprecated\":true}"),
			 REC("{\"name\":\"a\",\"type\":\"int\",\"default\":0}"));
	PRACTICE("AVRO", "", "a field removed after a doc starting Deprecated",
			 REC("{\"name\":\"a\",\"type\":\"int\",\"default\":0},{\"name\":\"b\",\"type\":\"string\",\"default\":\"\",\"doc\":\"Deprecated: use a\"}"),
			 REC("{\"name\":\"a\",\"type\":\"int\",\"default\":0}"));
	PRACTICE("AVRO", "FIELD_REMOVED_WITHOUT_DEPRECATION", "\"deprecated\": false is no mark",
			 REC("{\"name\":\"a\",\"type\":\"int\",\"default\":0},{\"name\":\"b\",\"type\":\"string\",\"default\":\"\",\"deprecated\":false}"),
			 REC("{\"name\":\"a\",\"type\":\"int\",\"default\":0}"));
	PRACTICE("AVRO", "FIELD_WITHOUT_DEFAULT", "a first version's field without a default",
			 REC("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":[\"null\",\"string\"],\"default\":null}"));
	HAS("The field 'a' of record 'n.R' has no default", "the missing default");
	PRACTICE("AVRO", "FIELD_WITHOUT_DEFAULT", "a union not led by null",
			 REC("{\"name\":\"a\",\"type\":[\"string\",\"null\"],\"default\":\"x\"}"));
	HAS("is a union not led by \"null\"", "the union");
	PRACTICE("AVRO", "", "a field kept without a default is not reported again",
			 REC("{\"name\":\"a\",\"type\":\"int\"}"),
			 REC("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\",\"default\":1}"));
	PRACTICE("AVRO", "FIELD_TYPE_CHANGED", "int to long, a promotion",
			 REC("{\"name\":\"a\",\"type\":\"int\",\"default\":0}"),
			 REC("{\"name\":\"a\",\"type\":\"long\",\"default\":0}"));
	HAS("changed type from int to long (widened)", "the widening");
	PRACTICE("AVRO", "FIELD_TYPE_CHANGED", "long to int, the reverse",
			 REC("{\"name\":\"a\",\"type\":\"long\",\"default\":0}"),
			 REC("{\"name\":\"a\",\"type\":\"int\",\"default\":0}"));
	HAS("changed type from long to int (narrowed)", "the narrowing");
	PRACTICE("AVRO", "FIELD_TYPE_CHANGED", "a logical type added",
			 REC("{\"name\":\"a\",\"type\":\"long\",\"default\":0}"),
			 REC("{\"name\":\"a\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"},\"default\":0}"));
	HAS("from long to long (timestamp-millis) (changed)", "the logical type");
	PRACTICE("AVRO", "FIELD_TYPE_CHANGED", "a type changed in a nested record",
			 REC("{\"name\":\"x\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"fields\":[{\"name\":\"c\",\"type\":\"float\",\"default\":0}]},\"default\":{\"c\":0}}"),
			 REC("{\"name\":\"x\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"fields\":[{\"name\":\"c\",\"type\":\"double\",\"default\":0}]},\"default\":{\"c\":0}}"));
	HAS("record 'n.S' changed type from float to double (widened)", "the nested record");
	PRACTICE("AVRO", "", "the same type under an alias is no change",
			 REC("{\"name\":\"a\",\"type\":\"int\",\"default\":0}"),
			 REC("{\"name\":\"z\",\"type\":\"int\",\"default\":0,\"aliases\":[\"a\"]}"));
	LINT("AVRO", "", "the practices are not data-loss lints",
		 REC("{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"string\"}"),
		 REC("{\"name\":\"a\",\"type\":\"long\"}"));
}

static void
test_protobuf_practices(void)
{
	PRACTICE("PROTOBUF", "FIELD_REMOVED_WITHOUT_DEPRECATION", "a field removed at once",
			 MSG("int32 a = 1;\nstring b = 2;\n"), MSG("int32 a = 1;\nreserved 2;\nreserved \"b\";\n"));
	HAS("The field 'b' (number 2) of message 'p.M' was removed without being deprecated first", "the removal");
	PRACTICE("PROTOBUF", "", "a field removed after [deprecated = true]",
			 MSG("int32 a = 1;\nstring b = 2 [deprecated = true];\n"), MSG("int32 a = 1;\n"));
	PRACTICE("PROTOBUF", "FIELD_WITHOUT_DEFAULT", "a proto2 required field in a first version",
			 P2("required int32 a = 1;\noptional string b = 2;\n"));
	HAS("The field 'a' (number 1) of message 'p.M' is required", "the required field");
	PRACTICE("PROTOBUF", "", "a required field kept is not reported again",
			 P2("required int32 a = 1;\n"), P2("required int32 a = 1;\noptional int32 b = 2;\n"));
	PRACTICE("PROTOBUF", "FIELD_TYPE_CHANGED", "int32 to int64 widens",
			 MSG("int32 a = 1;\n"), MSG("int64 a = 1;\n"));
	HAS("changed type from int32 to int64 (widened)", "the widening");
	HAS("safe in this direction only", "the widening");
	PRACTICE("PROTOBUF", "FIELD_TYPE_CHANGED", "int64 to int32 narrows",
			 MSG("int64 a = 1;\n"), MSG("int32 a = 1;\n"));
	HAS("(narrowed): old values that do not fit the new type are silently truncated", "the narrowing");
	PRACTICE("PROTOBUF", "FIELD_TYPE_CHANGED", "int32 to uint32 changes the sign",
			 MSG("int32 a = 1;\n"), MSG("uint32 a = 1;\n"));
	HAS("the sign changes", "the sign");
	PRACTICE("PROTOBUF", "FIELD_TYPE_CHANGED", "int32 to string changes the wire type",
			 MSG("int32 a = 1;\n"), MSG("string a = 1;\n"));
	HAS("not compatible on the wire", "the wire type");
	PRACTICE("PROTOBUF", "", "a renamed field is FIELD_NUMBER_REUSED's, not a type change",
			 MSG("int32 a = 1;\n"), MSG("int64 c = 1;\n"));
}

static void
test_json_practices(void)
{
	PRACTICE("JSON", "FIELD_REMOVED_WITHOUT_DEPRECATION", "a property removed at once",
			 OBJ("\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"}"), OBJ("\"a\":{\"type\":\"string\"}"));
	HAS("The property 'b' was removed without being deprecated first", "the removal");
	PRACTICE("JSON", "", "a property removed after \"deprecated\": true",
			 OBJ("\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\",\"deprecated\":true}"),
			 OBJ("\"a\":{\"type\":\"string\"}"));
	PRACTICE("JSON", "FIELD_REMOVED_WITHOUT_DEPRECATION", "reported at the highest property gone",
			 OBJ("\"a\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"},\"y\":{\"type\":\"string\"}}}"),
			 OBJ("\"b\":{\"type\":\"string\"}"));
	HAS("additionalInfo:'a'", "the highest property");
	PRACTICE("JSON", "FIELD_REMOVED_WITHOUT_DEPRECATION", "a nested property of an array's items",
			 OBJ("\"l\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"},\"y\":{}}}}"),
			 OBJ("\"l\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"}}}}"));
	HAS("The property 'l[].y'", "the items path");
	PRACTICE("JSON", "FIELD_WITHOUT_DEFAULT", "a required property in a first version",
			 OBJR("\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"string\"}", "\"a\""));
	HAS("The property 'a' is required", "the required property");
	PRACTICE("JSON", "FIELD_WITHOUT_DEFAULT", "a property made required",
			 OBJ("\"a\":{\"type\":\"string\"}"), OBJR("\"a\":{\"type\":\"string\"}", "\"a\""));
	HAS("is required now and was not", "made required");
	PRACTICE("JSON", "", "a property required before too",
			 OBJR("\"a\":{\"type\":\"string\"}", "\"a\""), OBJR("\"a\":{\"type\":\"string\"},\"b\":{}", "\"a\""));
	PRACTICE("JSON", "FIELD_TYPE_CHANGED", "integer to number widens",
			 OBJ("\"a\":{\"type\":\"integer\"}"), OBJ("\"a\":{\"type\":\"number\"}"));
	HAS("changed type from integer to number (widened)", "the widening");
	PRACTICE("JSON", "FIELD_TYPE_CHANGED", "number to integer narrows",
			 OBJ("\"a\":{\"type\":\"number\"}"), OBJ("\"a\":{\"type\":\"integer\"}"));
	HAS("(narrowed)", "the narrowing");
	PRACTICE("JSON", "FIELD_TYPE_CHANGED", "a type list",
			 OBJ("\"a\":{\"type\":\"string\"}"), OBJ("\"a\":{\"type\":[\"string\",\"null\"]}"));
	HAS("from string to [string, null] (changed)", "the type list");
}

static void
test_rule_names(void)
{
	rg_lint_rules r = 0;

	RG_CHECK(rg_lint_rules_parse(NULL, &r) && r == RG_LINT_DATA_LOSS, "no lintRules: the data-loss lints");
	RG_CHECK(rg_lint_rules_parse("practices", &r) && r == RG_LINT_PRACTICES, "PRACTICES, any case");
	RG_CHECK(rg_lint_rules_parse("ALL", &r) && r == RG_LINT_ALL, "ALL");
	RG_CHECK(rg_lint_rules_parse(" FIELD_TYPE_CHANGED , field_renamed_without_alias", &r) &&
			 r == (RG_LINT_TYPE_CHANGED | RG_LINT_RENAMED_WITHOUT_ALIAS), "a list of names");
	RG_CHECK(!rg_lint_rules_parse("", &r), "an empty list is no set");
	RG_CHECK(!rg_lint_rules_parse("ALL,", &r), "an empty name is no name");
	RG_CHECK(!rg_lint_rules_parse("FIELD_TYPE_CHANGE", &r), "an unknown name");
	RG_CHECK(!rg_lint_rules_parse("NON_TRANSITIVE_LEVEL", &r), "the advice is no lint a config turns on");
}

static void
test_formats_and_modes(void)
{
	rg_lint_mode m;

	LINT("JSON", "", "JSON Schema has no data-loss lints",
		 "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}", "{\"type\":\"object\"}");
	RG_CHECK(rg_lint_mode_parse("warn", &m) && m == RG_LINT_WARN, "lint mode warn");
	RG_CHECK(rg_lint_mode_parse("FAIL", &m) && m == RG_LINT_FAIL, "lint mode FAIL");
	RG_CHECK(rg_lint_mode_parse("None", &m) && m == RG_LINT_NONE, "lint mode None");
	RG_CHECK(!rg_lint_mode_parse("OFF", &m), "lint mode OFF is not one");
}

int
main(void)
{
	test_avro_rename();
	test_protobuf_deleted();
	test_protobuf_reused();
	test_avro_practices();
	test_protobuf_practices();
	test_json_practices();
	test_rule_names();
	test_formats_and_modes();
	return rg_test_done();
}
