/*-------------------------------------------------------------------------
 *
 * test_lint.c
 *	  Unit tests of the semantic lints (rg_compat_lint): the Avro rename
 *	  without an alias, the Protobuf field deleted without `reserved` and
 *	  the field number or name used again; what they must not report.
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
lint(const char *format, const char *const *texts)
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
	clean = rg_compat_lint(s[n - 1], prev, n - 1, &out);
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
		RG_CHECK_STR(lint(format, texts_), want, "%s %s", format, what); \
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

static void
test_formats_and_modes(void)
{
	rg_lint_mode m;

	LINT("JSON", "", "JSON Schema has no lints",
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
	test_formats_and_modes();
	return rg_test_done();
}
