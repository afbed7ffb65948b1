/*-------------------------------------------------------------------------
 *
 * test_avro_compat.c
 *	  Unit tests of the Avro reader/writer check (avro_compat.c) against
 *	  the rules of Avro Java 1.11.4 as Confluent uses them
 *	  (doc/design.md#avro-rules): one case per rule, each with a
 *	  compatible and an incompatible verdict, and exact messages.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro.h"
#include "rg_compat.h"
#include "rg_test.h"

/*
 * The message templates as can_read returns them (roles still "%s"),
 * built from Confluent's descriptions (doc/design.md#avro-messages).
 */
#define RFMDV(name, loc) \
	"{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field '" name "' at path '" loc \
	"' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'" name "'}"
#define TM(loc, r, w) \
	"{errorType:'TYPE_MISMATCH', description:'The type (path '" loc \
	"') of a field in the %s schema does not match with the %s schema', additionalInfo:'reader type: " r \
	" not compatible with writer type: " w "'}"
#define NM(loc, exp) \
	"{errorType:'NAME_MISMATCH', description:'The name of the schema has changed (path '" loc \
	"')', additionalInfo:'expected: " exp "'}"
#define FSM(loc, e, f) \
	"{errorType:'FIXED_SIZE_MISMATCH', description:'The size of FIXED type field at path '" loc \
	"' in the %s schema does not match with the %s schema', additionalInfo:'expected: " e ", found: " f "'}"
#define MES(loc, syms) \
	"{errorType:'MISSING_ENUM_SYMBOLS', description:'The %s schema is missing enum symbols '" syms \
	"' at path '" loc "' in the %s schema', additionalInfo:'" syms "'}"
#define MUB(loc, t) \
	"{errorType:'MISSING_UNION_BRANCH', description:'The %s schema is missing a type inside a union field at path '" loc \
	"' in the %s schema', additionalInfo:'reader union lacking writer type: " t "'}"

static char joined[65536];
static int	n_msgs;

static rg_schema *
parse(const char *json)
{
	rg_error	err;
	rg_schema  *s;

	rg_error_clear(&err);
	s = rg_avro_parse(json, strlen(json), NULL, 0, false, &err);
	if (s == NULL)
		printf("# parse failed: %s\n#   for %s\n", err.message, json);
	return s;
}

/*
 * Parse both schemas, ask whether reader reads writer, and join the
 * messages with " | " into `joined`.  Returns the verdict; a schema that
 * does not parse yields false with joined = "PARSE ERROR".
 */
static bool
can_read(const char *reader, const char *writer)
{
	rg_schema  *r = parse(reader);
	rg_schema  *w = parse(writer);
	rg_arena   *arena;
	rg_strlist	out;
	bool		ok;
	int			i;

	joined[0] = '\0';
	n_msgs = 0;
	rg_test_log_case("AVRO", reader, NULL, 0, writer, NULL, 0);
	if (r == NULL || w == NULL)
	{
		strcpy(joined, "PARSE ERROR");
		if (r)
			rg_schema_free(r);
		if (w)
			rg_schema_free(w);
		return false;
	}
	arena = rg_arena_create();
	rg_strlist_init(&out, arena);
	ok = rg_avro_can_read(r, w, &out);
	for (i = 0; i < out.n; i++)
	{
		if (i)
			strncat(joined, " | ", sizeof(joined) - strlen(joined) - 1);
		strncat(joined, out.items[i], sizeof(joined) - strlen(joined) - 1);
	}
	n_msgs = out.n;
	/* the verdict and the list must agree */
	if (ok != (out.n == 0))
		strcpy(joined, "VERDICT AND MESSAGES DISAGREE");
	rg_arena_destroy(arena);
	rg_schema_free(r);
	rg_schema_free(w);
	return ok;
}

/* reader reads writer with no message */
#define COMPATIBLE(reader, writer, ...) \
	do { \
		bool ok_ = can_read(reader, writer); \
		RG_CHECK(ok_, __VA_ARGS__); \
		if (!ok_) \
			printf("#   messages: %s\n", joined); \
	} while (0)

/* reader does not read writer, with exactly the messages `want` */
#define INCOMPATIBLE(reader, writer, want, ...) \
	do { \
		bool ok_ = can_read(reader, writer); \
		RG_CHECK(!ok_, __VA_ARGS__); \
		RG_CHECK_STR(joined, want, __VA_ARGS__); \
	} while (0)

/* a record with one field "f" of the given type */
#define REC1(type) "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"f\",\"type\":" type "}]}"

static void
test_primitives_same_type(void)
{
	static const char *const prims[] = {
		"\"null\"", "\"boolean\"", "\"int\"", "\"long\"",
		"\"float\"", "\"double\"", "\"bytes\"", "\"string\""
	};
	int			i;

	for (i = 0; i < 8; i++)
		COMPATIBLE(prims[i], prims[i], "same primitive %s", prims[i]);
	COMPATIBLE("{\"type\":\"int\",\"logicalType\":\"date\"}", "\"int\"",
			   "logical types are ignored");
	COMPATIBLE("{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}",
			   "{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}",
			   "different logical types on the same type are ignored");
}

static void
test_type_mismatch(void)
{
	INCOMPATIBLE("\"int\"", "\"string\"", TM("/", "INT", "STRING"), "top-level int vs string");
	INCOMPATIBLE("\"null\"", "\"boolean\"", TM("/", "NULL", "BOOLEAN"), "null vs boolean");
	INCOMPATIBLE("\"boolean\"", "\"int\"", TM("/", "BOOLEAN", "INT"), "boolean vs int");
	INCOMPATIBLE(REC1("\"int\""), "\"int\"", TM("/", "RECORD", "INT"), "record vs int");
	INCOMPATIBLE("{\"type\":\"array\",\"items\":\"int\"}", "{\"type\":\"map\",\"values\":\"int\"}",
				 TM("/", "ARRAY", "MAP"), "array vs map");
	INCOMPATIBLE("{\"type\":\"fixed\",\"name\":\"F\",\"size\":4}", "\"bytes\"",
				 TM("/", "FIXED", "BYTES"), "fixed vs bytes");
	INCOMPATIBLE("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}", "\"string\"",
				 TM("/", "ENUM", "STRING"), "enum vs string");
	INCOMPATIBLE(REC1("\"int\""), REC1("\"boolean\""), TM("/fields/0/type", "INT", "BOOLEAN"),
				 "field type mismatch is located at the field type");
	COMPATIBLE(REC1("\"boolean\""), REC1("\"boolean\""), "same field type");
}

static void
test_promotions(void)
{
	/* allowed writer -> reader promotions */
	COMPATIBLE("\"long\"", "\"int\"", "int -> long");
	COMPATIBLE("\"float\"", "\"int\"", "int -> float");
	COMPATIBLE("\"float\"", "\"long\"", "long -> float");
	COMPATIBLE("\"double\"", "\"int\"", "int -> double");
	COMPATIBLE("\"double\"", "\"long\"", "long -> double");
	COMPATIBLE("\"double\"", "\"float\"", "float -> double");
	COMPATIBLE("\"bytes\"", "\"string\"", "string -> bytes");
	COMPATIBLE("\"string\"", "\"bytes\"", "bytes -> string");

	/* and none of them the other way round */
	INCOMPATIBLE("\"int\"", "\"long\"", TM("/", "INT", "LONG"), "long -> int refused");
	INCOMPATIBLE("\"int\"", "\"float\"", TM("/", "INT", "FLOAT"), "float -> int refused");
	INCOMPATIBLE("\"long\"", "\"float\"", TM("/", "LONG", "FLOAT"), "float -> long refused");
	INCOMPATIBLE("\"int\"", "\"double\"", TM("/", "INT", "DOUBLE"), "double -> int refused");
	INCOMPATIBLE("\"long\"", "\"double\"", TM("/", "LONG", "DOUBLE"), "double -> long refused");
	INCOMPATIBLE("\"float\"", "\"double\"", TM("/", "FLOAT", "DOUBLE"), "double -> float refused");
	INCOMPATIBLE("\"string\"", "\"int\"", TM("/", "STRING", "INT"), "int -> string refused");
	INCOMPATIBLE("\"bytes\"", "\"long\"", TM("/", "BYTES", "LONG"), "long -> bytes refused");
	INCOMPATIBLE("\"boolean\"", "\"null\"", TM("/", "BOOLEAN", "NULL"), "null -> boolean refused");
	COMPATIBLE(REC1("\"double\""), REC1("\"int\""), "promotion inside a field");
}

static void
test_array_map(void)
{
	COMPATIBLE("{\"type\":\"array\",\"items\":\"long\"}", "{\"type\":\"array\",\"items\":\"int\"}",
			   "array items promoted");
	INCOMPATIBLE("{\"type\":\"array\",\"items\":\"int\"}", "{\"type\":\"array\",\"items\":\"long\"}",
				 TM("/items", "INT", "LONG"), "array items mismatch at /items");
	COMPATIBLE("{\"type\":\"map\",\"values\":\"string\"}", "{\"type\":\"map\",\"values\":\"bytes\"}",
			   "map values promoted");
	INCOMPATIBLE("{\"type\":\"map\",\"values\":\"int\"}", "{\"type\":\"map\",\"values\":\"string\"}",
				 TM("/values", "INT", "STRING"), "map values mismatch at /values");
	INCOMPATIBLE(REC1("{\"type\":\"map\",\"values\":{\"type\":\"array\",\"items\":\"int\"}}"),
				 REC1("{\"type\":\"map\",\"values\":{\"type\":\"array\",\"items\":\"string\"}}"),
				 TM("/fields/0/type/values/items", "INT", "STRING"), "nested map of arrays");
}

static void
test_fixed(void)
{
	COMPATIBLE("{\"type\":\"fixed\",\"name\":\"F\",\"size\":8}",
			   "{\"type\":\"fixed\",\"name\":\"F\",\"size\":8}", "same fixed");
	INCOMPATIBLE("{\"type\":\"fixed\",\"name\":\"F\",\"size\":16}",
				 "{\"type\":\"fixed\",\"name\":\"F\",\"size\":8}",
				 FSM("/size", "8", "16"), "fixed size: expected writer, found reader");
	INCOMPATIBLE("{\"type\":\"fixed\",\"name\":\"F\",\"size\":8}",
				 "{\"type\":\"fixed\",\"name\":\"G\",\"namespace\":\"n\",\"size\":8}",
				 NM("/name", "n.G"), "fixed name mismatch names the writer's full name");
	INCOMPATIBLE("{\"type\":\"fixed\",\"name\":\"F\",\"size\":4}",
				 "{\"type\":\"fixed\",\"name\":\"G\",\"size\":8}",
				 NM("/name", "G") " | " FSM("/size", "8", "4"), "fixed: name and size both reported, name first");
	COMPATIBLE("{\"type\":\"fixed\",\"name\":\"F\",\"namespace\":\"a\",\"size\":8}",
			   "{\"type\":\"fixed\",\"name\":\"F\",\"namespace\":\"b\",\"size\":8}",
			   "fixed: namespaces ignored");
}

static void
test_enum(void)
{
	COMPATIBLE("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\",\"C\"]}",
			   "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"C\",\"A\"]}",
			   "reader has every writer symbol");
	INCOMPATIBLE("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"C\"]}",
				 "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"D\",\"C\",\"B\",\"A\"]}",
				 MES("/symbols", "[B, D]"), "missing symbols, sorted");
	COMPATIBLE("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"C\",\"U\"],\"default\":\"U\"}",
			   "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"D\",\"C\",\"B\",\"A\"]}",
			   "reader enum default covers missing symbols");
	INCOMPATIBLE("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}",
				 "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"],\"default\":\"A\"}",
				 MES("/symbols", "[B]"), "writer enum default does not help");
	INCOMPATIBLE(REC1("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}"),
				 REC1("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}"),
				 MES("/fields/0/type/symbols", "[B]"), "enum inside a field");
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"f\",\"default\":\"A\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}}]}",
				 REC1("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}"),
				 MES("/fields/0/type/symbols", "[B]"), "a field default does not help an enum");
	INCOMPATIBLE("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}",
				 "{\"type\":\"enum\",\"name\":\"X\",\"symbols\":[\"A\",\"B\"]}",
				 NM("/name", "X"), "enum name mismatch");
	INCOMPATIBLE("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}",
				 "{\"type\":\"enum\",\"name\":\"X\",\"symbols\":[\"Z\",\"A\"]}",
				 NM("/name", "X") " | " MES("/symbols", "[Z]"), "enum name and symbols both reported");
	COMPATIBLE("{\"type\":\"enum\",\"name\":\"E\",\"namespace\":\"x\",\"symbols\":[\"A\"]}",
			   "{\"type\":\"enum\",\"name\":\"E\",\"namespace\":\"y\",\"symbols\":[\"A\"]}",
			   "enum namespaces ignored");
	COMPATIBLE("{\"type\":\"enum\",\"name\":\"E2\",\"aliases\":[\"E\"],\"symbols\":[\"A\"]}",
			   "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}",
			   "enum reader alias");
}

static void
test_record_names(void)
{
	COMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"a.b\",\"fields\":[]}",
			   "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"c\",\"fields\":[]}",
			   "namespaces are ignored in the name check");
	COMPATIBLE("{\"type\":\"record\",\"name\":\"a.b.R\",\"fields\":[]}",
			   "{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}",
			   "dotted name vs bare name");
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}",
				 "{\"type\":\"record\",\"name\":\"W\",\"namespace\":\"n\",\"fields\":[]}",
				 NM("/name", "n.W"), "record name mismatch");
	COMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"aliases\":[\"n.W\"],\"fields\":[]}",
			   "{\"type\":\"record\",\"name\":\"W\",\"namespace\":\"n\",\"fields\":[]}",
			   "reader alias equal to the writer's full name");
	COMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"aliases\":[\"W\"],\"fields\":[]}",
			   "{\"type\":\"record\",\"name\":\"W\",\"namespace\":\"n\",\"fields\":[]}",
			   "unqualified reader alias takes the reader's namespace");
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"m\",\"aliases\":[\"W\"],\"fields\":[]}",
				 "{\"type\":\"record\",\"name\":\"W\",\"namespace\":\"n\",\"fields\":[]}",
				 NM("/name", "n.W"), "reader alias in another namespace does not match");
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}",
				 "{\"type\":\"record\",\"name\":\"W\",\"aliases\":[\"R\"],\"fields\":[]}",
				 NM("/name", "W"), "writer aliases are never consulted");
}

static void
test_record_fields(void)
{
	static const char *w1 = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"f1\",\"type\":\"int\"}]}";

	COMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"f1\",\"type\":\"int\"},{\"name\":\"f2\",\"type\":\"string\",\"default\":\"x\"}]}",
			   w1, "added field with a default");
	COMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"f1\",\"type\":\"int\"},{\"name\":\"f2\",\"type\":[\"null\",\"string\"],\"default\":null}]}",
			   w1, "a JSON null default counts as a default");
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"f1\",\"type\":\"int\"},{\"name\":\"f2\",\"type\":\"string\"}]}",
				 w1,
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f2' at path '/fields/1' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'f2'}",
				 "added field without a default");
	COMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}",
			   w1, "writer-only fields are ignored");
	COMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"g\",\"aliases\":[\"f1\"],\"type\":\"long\"}]}",
			   w1, "reader field alias finds the writer field");
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"x\",\"type\":\"int\",\"default\":1},{\"name\":\"g\",\"aliases\":[\"f1\"],\"type\":\"string\"}]}",
				 w1, TM("/fields/1/type", "STRING", "INT"),
				 "aliased field mismatch at the reader field's position");
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"f1\",\"type\":\"int\"}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"g\",\"aliases\":[\"f1\"],\"type\":\"int\"}]}",
				 RFMDV("f1", "/fields/0"), "writer field aliases are not used");
	/* reader field order decides the order of the messages */
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"c\",\"type\":\"int\"},{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\"}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"}]}",
				 RFMDV("c", "/fields/0") " | " TM("/fields/1/type", "INT", "STRING") " | " RFMDV("b", "/fields/2"),
				 "messages in reader field order");
	/* one node per use of a primitive: distinct locations */
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\"}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"},{\"name\":\"b\",\"type\":\"string\"}]}",
				 TM("/fields/0/type", "INT", "STRING") " | " TM("/fields/1/type", "INT", "STRING"),
				 "same primitive pair at two positions");
	/* one node for every ["null","int"]: still distinct locations */
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":[\"null\",\"int\"]},{\"name\":\"b\",\"type\":[\"null\",\"int\"]}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"X\"]}},{\"name\":\"b\",\"type\":\"E\"}]}",
				 MUB("/fields/0/type", "ENUM") " | " MUB("/fields/1/type", "ENUM"),
				 "same union of primitives against one named type at two positions");
}

static void
test_enum_default_quirk(void)
{
	static const char *w = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}";

	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
				 "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"],\"default\":\"A\"}}]}",
				 w, TM("/fields/1/type", "ENUM", "RECORD"),
				 "missing enum field without field default but with enum default: ENUM vs RECORD");
	COMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
			   "{\"name\":\"e\",\"default\":\"B\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"],\"default\":\"A\"}}]}",
			   w, "missing enum field with a field default");
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
				 "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}}]}",
				 w, RFMDV("e", "/fields/1"), "missing enum field, no default at all");
}

static void
test_ambiguous_alias(void)
{
	static const char *w = "{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\"}]}";
	bool		ok;

	ok = can_read("{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"a\",\"aliases\":[\"b\"],\"type\":\"int\"}]}", w);
	RG_CHECK(!ok && n_msgs == 1, "name + alias matching two writer fields fails with one message");
	RG_CHECK_STR(joined,
				 "Unexpected exception during compatibility check: Reader record field a type:INT pos:0 matches multiple fields in writer record schema "
				 "{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\"}]}",
				 "ambiguous alias: the exception text only");

	ok = can_read("{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"x\",\"type\":\"string\"},{\"name\":\"c\",\"aliases\":[\"a\",\"b\"],\"type\":\"int\"}]}", w);
	RG_CHECK(!ok && n_msgs == 1 && strstr(joined, "Reader record field c type:INT pos:1 matches multiple") != NULL,
			 "two aliases matching two writer fields: earlier incompatibilities are dropped");

	ok = can_read("{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"a\",\"aliases\":[\"a\"],\"type\":\"int\"}]}", w);
	RG_CHECK(!ok && n_msgs == 1 && strncmp(joined, "Unexpected exception during compatibility check: ", 49) == 0,
			 "an alias repeating the field's own name counts twice");

	COMPATIBLE("{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"a\",\"aliases\":[\"zz\",\"zz\"],\"type\":\"int\"}]}", w,
			   "aliases matching nothing are fine");
	COMPATIBLE("{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"q\",\"aliases\":[\"b\",\"b\"],\"type\":\"long\"}]}", w,
			   "a repeated alias counts once");
}

static void
test_unions_both(void)
{
	COMPATIBLE("[\"null\",\"string\"]", "[\"null\",\"string\"]", "same union");
	COMPATIBLE("[\"string\",\"null\",\"long\"]", "[\"null\",\"int\"]", "reader union reads every writer branch");
	INCOMPATIBLE("[\"null\"]", "[\"null\",\"int\",\"string\"]",
				 MUB("/1", "INT") " | " MUB("/2", "STRING"), "missing branches at <loc>/i");
	INCOMPATIBLE(REC1("[\"null\",\"string\"]"), REC1("[\"null\",\"int\"]"),
				 MUB("/fields/0/type/1", "INT"), "missing branch in a field");
	/* nested details are dropped: only the branch is reported */
	INCOMPATIBLE("[\"null\",{\"type\":\"record\",\"name\":\"X\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}]",
				 "[\"null\",{\"type\":\"record\",\"name\":\"X\",\"fields\":[{\"name\":\"b\",\"type\":\"int\"}]}]",
				 MUB("/1", "RECORD"), "nested details of a failing branch are dropped");
}

static void
test_unions_writer_only(void)
{
	COMPATIBLE("\"long\"", "[\"int\",\"long\"]", "reader reads every writer branch");
	INCOMPATIBLE("\"int\"", "[\"int\",\"string\"]", TM("/", "INT", "STRING"), "a writer branch unreadable");
	INCOMPATIBLE("\"int\"", "[\"null\",\"string\"]",
				 TM("/", "INT", "NULL") " | " TM("/", "INT", "STRING"), "every failing writer branch reported");
	/* Avro 1.11: nested checks restart at "/" instead of /fields/0/type/1 */
	INCOMPATIBLE(REC1("\"int\""), REC1("[\"int\",\"string\"]"), TM("/", "INT", "STRING"),
				 "1.11 location restart in a field");
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"f\",\"type\":{\"type\":\"array\",\"items\":\"int\"}}]}",
				 REC1("[\"null\",{\"type\":\"array\",\"items\":\"string\"}]"),
				 TM("/", "ARRAY", "NULL") " | " TM("/items", "INT", "STRING"),
				 "1.11 location restart: nested path relative to the branch");
	COMPATIBLE(REC1("\"string\""), REC1("[\"string\",\"bytes\"]"), "writer union of string and bytes");
}

static void
test_unions_reader_only(void)
{
	COMPATIBLE("[\"null\",\"long\"]", "\"int\"", "a reader branch reads the writer (promotion)");
	COMPATIBLE("[\"int\",\"long\"]", "\"int\"", "first matching branch");
	INCOMPATIBLE("[\"null\",\"string\"]", "\"int\"", MUB("/", "INT"), "no reader branch reads the writer");
	INCOMPATIBLE(REC1("[\"null\",\"string\"]"), REC1("\"int\""), MUB("/fields/0/type", "INT"),
				 "no reader branch, in a field");
	INCOMPATIBLE("[\"null\",{\"type\":\"record\",\"name\":\"X\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}]",
				 "{\"type\":\"record\",\"name\":\"X\",\"fields\":[]}",
				 MUB("/", "RECORD"), "reader record branch that cannot read: union branch missing");
	COMPATIBLE("[\"null\",{\"type\":\"record\",\"name\":\"X\",\"fields\":[{\"name\":\"a\",\"type\":\"int\",\"default\":0}]}]",
			   "{\"type\":\"record\",\"name\":\"X\",\"fields\":[]}",
			   "reader record branch that can read");
	COMPATIBLE("[\"null\",{\"type\":\"record\",\"name\":\"Y\",\"aliases\":[\"X\"],\"fields\":[]}]",
			   "{\"type\":\"record\",\"name\":\"X\",\"fields\":[]}",
			   "reader union branch found by alias");
}

#define NODE(vtype) \
	"{\"type\":\"record\",\"name\":\"Node\",\"fields\":[{\"name\":\"value\",\"type\":\"" vtype "\"}," \
	"{\"name\":\"next\",\"type\":[\"null\",\"Node\"]}]}"

static void
test_recursive(void)
{
	COMPATIBLE(NODE("long"), NODE("int"), "linked list, promoted value");
	COMPATIBLE(NODE("int"), NODE("int"), "linked list, identical");
	INCOMPATIBLE(NODE("int"), NODE("long"), TM("/fields/0/type", "INT", "LONG"),
				 "linked list, narrowed value reported once");
	/* mutual recursion through two named types */
	COMPATIBLE("{\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"b\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"B\",\"fields\":[{\"name\":\"a\",\"type\":[\"null\",\"A\"]}]}]}]}",
			   "{\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"b\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"B\",\"fields\":[{\"name\":\"a\",\"type\":[\"null\",\"A\"]}]}]}]}",
			   "mutual recursion terminates");
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"v\",\"type\":\"int\"},{\"name\":\"kids\",\"type\":{\"type\":\"array\",\"items\":\"T\"}}]}",
				 "{\"type\":\"record\",\"name\":\"T\",\"fields\":[{\"name\":\"v\",\"type\":\"string\"},{\"name\":\"kids\",\"type\":{\"type\":\"array\",\"items\":\"T\"}}]}",
				 TM("/fields/0/type", "INT", "STRING"), "recursive tree through an array: in-progress pair is compatible");
}

static void
test_memo_reuse(void)
{
	/*
	 * the second use of the same named pair returns the first result,
	 * locations included
	 */
	INCOMPATIBLE("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"a\",\"type\":{\"type\":\"record\",\"name\":\"I\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}},"
				 "{\"name\":\"b\",\"type\":\"I\"}]}",
				 "{\"type\":\"record\",\"name\":\"R\",\"fields\":["
				 "{\"name\":\"a\",\"type\":{\"type\":\"record\",\"name\":\"I\",\"fields\":[{\"name\":\"x\",\"type\":\"string\"}]}},"
				 "{\"name\":\"b\",\"type\":\"I\"}]}",
				 TM("/fields/0/type/fields/0/type", "INT", "STRING") " | " TM("/fields/0/type/fields/0/type", "INT", "STRING"),
				 "memoized pair reported again with its first location");
}

static void
test_multiple(void)
{
	/* many problems at once, in depth-first order */
	static const char *reader =
	"{\"type\":\"record\",\"name\":\"R\",\"fields\":["
	"{\"name\":\"a\",\"type\":\"int\"},"
	"{\"name\":\"b\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":4}},"
	"{\"name\":\"c\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"X\"]}},"
	"{\"name\":\"d\",\"type\":{\"type\":\"array\",\"items\":[\"null\",\"int\"]}},"
	"{\"name\":\"e\",\"type\":\"string\"},"
	"{\"name\":\"f\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"fields\":[{\"name\":\"g\",\"type\":\"float\"}]}}"
	"]}";
	static const char *writer =
	"{\"type\":\"record\",\"name\":\"Q\",\"fields\":["
	"{\"name\":\"a\",\"type\":\"long\"},"
	"{\"name\":\"b\",\"type\":{\"type\":\"fixed\",\"name\":\"G\",\"size\":8}},"
	"{\"name\":\"c\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"Y\",\"X\",\"W\"]}},"
	"{\"name\":\"d\",\"type\":{\"type\":\"array\",\"items\":[\"null\",\"string\"]}},"
	"{\"name\":\"f\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"fields\":[{\"name\":\"g\",\"type\":\"double\"}]}}"
	"]}";

	INCOMPATIBLE(reader, writer,
				 NM("/name", "Q")
				 " | " TM("/fields/0/type", "INT", "LONG")
				 " | " NM("/fields/1/type/name", "G")
				 " | " FSM("/fields/1/type/size", "8", "4")
				 " | " MES("/fields/2/type/symbols", "[W, Y]")
				 " | " MUB("/fields/3/type/items/1", "STRING")
				 " | " RFMDV("e", "/fields/4")
				 " | " TM("/fields/5/type/fields/0/type", "FLOAT", "DOUBLE"),
				 "eight incompatibilities in depth-first order");
	COMPATIBLE(writer, writer, "the writer reads itself");
}

/* Confluent's full message list (doc/design.md#messages) for BACKWARD, a new field without default. */
static void
test_confluent_example(void)
{
	static const char *v1 = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"f1\",\"type\":\"string\"}]}";
	static const char *v2 = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"f1\",\"type\":\"string\"},{\"name\":\"f2\",\"type\":\"string\"}]}";
	rg_schema  *old = parse(v1);
	rg_schema  *new = parse(v2);
	rg_arena   *arena = rg_arena_create();
	rg_strlist	msgs;
	rg_prior_version prev[1];
	bool		ok;

	if (old == NULL || new == NULL)
	{
		RG_CHECK(0, "Confluent example parses");
		return;
	}
	prev[0].schema = old;
	prev[0].version = 1;
	rg_strlist_init(&msgs, arena);
	ok = rg_compat_check(RG_COMPAT_BACKWARD, new, prev, 1, &msgs);
	RG_CHECK(!ok && msgs.n == 4, "Confluent example: 4 messages");
	if (msgs.n == 4)
	{
		RG_CHECK_STR(msgs.items[0],
					 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f2' at path '/fields/1' in the new schema has no default value and is missing in the old schema', additionalInfo:'f2'}",
					 "Confluent example: difference");
		RG_CHECK_STR(msgs.items[1], "{oldSchemaVersion: 1}", "Confluent example: version");
		RG_CHECK_STR(msgs.items[2], "{oldSchema: '{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"f1\",\"type\":\"string\"}]}'}",
					 "Confluent example: old schema");
		RG_CHECK_STR(msgs.items[3], "{validateFields: 'false', compatibility: 'BACKWARD'}", "Confluent example: trailer");
	}

	/* FORWARD: the old schema reads the new one, which only adds a field */
	rg_strlist_init(&msgs, arena);
	ok = rg_compat_check(RG_COMPAT_FORWARD, new, prev, 1, &msgs);
	RG_CHECK(ok && msgs.n == 0, "Confluent example: FORWARD compatible");

	/* FULL: forward half fine, backward half fails: roles new/old */
	rg_strlist_init(&msgs, arena);
	ok = rg_compat_check(RG_COMPAT_FULL, new, prev, 1, &msgs);
	RG_CHECK(!ok && msgs.n == 4 && strstr(msgs.items[0], "in the new schema has no default value and is missing in the old schema") != NULL,
			 "Confluent example: FULL");

	/* the reverse change under FORWARD: roles old/new */
	prev[0].schema = new;
	prev[0].version = 2;
	rg_strlist_init(&msgs, arena);
	ok = rg_compat_check(RG_COMPAT_FORWARD, old, prev, 1, &msgs);
	RG_CHECK(!ok && msgs.n == 4, "removing f2 under FORWARD fails");
	if (msgs.n == 4)
		RG_CHECK_STR(msgs.items[0],
					 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f2' at path '/fields/1' in the old schema has no default value and is missing in the new schema', additionalInfo:'f2'}",
					 "FORWARD roles: old reads new");

	rg_arena_destroy(arena);
	rg_schema_free(old);
	rg_schema_free(new);
}

/* Corner cases: empty unions, "error" records, a nested ambiguous record. */
static void
test_corners(void)
{
	bool		ok;

	COMPATIBLE("[\"null\"]", "[]", "empty writer union (both unions) is compatible");
	COMPATIBLE("\"int\"", "[]", "empty writer union (writer union only) is compatible");
	INCOMPATIBLE("[]", "\"int\"", MUB("/", "INT"), "empty reader union reads nothing");
	COMPATIBLE("{\"type\":\"error\",\"name\":\"X\",\"fields\":[]}",
			   "{\"type\":\"record\",\"name\":\"X\",\"fields\":[]}", "an error is a record");

	/*
	 * the writer record in the exception text is the nested one, as
	 * Schema.toString() prints it
	 */
	ok = can_read("{\"type\":\"record\",\"name\":\"O\",\"namespace\":\"n\",\"fields\":[{\"name\":\"i\",\"type\":"
				  "{\"type\":\"record\",\"name\":\"I\",\"fields\":[{\"name\":\"a\",\"aliases\":[\"b\"],\"type\":\"int\"}]}}]}",
				  "{\"type\":\"record\",\"name\":\"O\",\"namespace\":\"n\",\"fields\":[{\"name\":\"i\",\"type\":"
				  "{\"type\":\"record\",\"name\":\"I\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
				  "{\"name\":\"b\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"namespace\":\"m\",\"symbols\":[\"A\"]}}]}}]}");
	RG_CHECK(!ok, "nested ambiguous field fails");
	RG_CHECK_STR(joined,
				 "Unexpected exception during compatibility check: Reader record field a type:INT pos:0 matches multiple fields in writer record schema "
				 "{\"type\":\"record\",\"name\":\"I\",\"namespace\":\"n\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},"
				 "{\"name\":\"b\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"namespace\":\"m\",\"symbols\":[\"A\"]}}]}",
				 "nested ambiguous field: the nested writer record in the text");
}

/* Run rg_compat_check on Avro texts; messages joined into `joined`. */
static bool
level_check(rg_compat_level level, const char *new_text, const char *old_text, int old_version)
{
	rg_schema  *o = parse(old_text);
	rg_schema  *n = parse(new_text);
	rg_arena   *arena = rg_arena_create();
	rg_strlist	msgs;
	rg_prior_version prev[1];
	bool		ok = false;
	int			i;

	joined[0] = '\0';
	if (o != NULL && n != NULL)
	{
		prev[0].schema = o;
		prev[0].version = old_version;
		rg_strlist_init(&msgs, arena);
		ok = rg_compat_check(level, n, prev, 1, &msgs);
		for (i = 0; i < msgs.n; i++)
		{
			if (i)
				strncat(joined, " | ", sizeof(joined) - strlen(joined) - 1);
			strncat(joined, msgs.items[i], sizeof(joined) - strlen(joined) - 1);
		}
	}
	else
		strcpy(joined, "PARSE ERROR");
	rg_arena_destroy(arena);
	if (o)
		rg_schema_free(o);
	if (n)
		rg_schema_free(n);
	return ok;
}

/* The driver over real Avro: FULL with both halves failing, and the exception path. */
static void
test_levels_with_avro(void)
{
	static const char *old_s = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}";
	static const char *new_s = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"b\",\"type\":\"int\"}]}";
	static const char *amb_old = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\"}]}";
	static const char *amb_new = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"aliases\":[\"b\"],\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\"}]}";
	bool		ok;

	ok = level_check(RG_COMPAT_FULL, new_s, old_s, 5);
	RG_CHECK(!ok, "FULL over Avro: renamed field fails both ways");
	RG_CHECK_STR(joined,
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'a' at path '/fields/0' in the old schema has no default value and is missing in the new schema', additionalInfo:'a'}"
				 " | {errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'b' at path '/fields/0' in the new schema has no default value and is missing in the old schema', additionalInfo:'b'}"
				 " | {oldSchemaVersion: 5} | {oldSchema: '{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}'}"
				 " | {validateFields: 'false', compatibility: 'FULL'}",
				 "FULL over Avro: forward half, backward half, schema info, trailer");

	ok = level_check(RG_COMPAT_BACKWARD, amb_new, amb_old, 1);
	RG_CHECK(!ok, "BACKWARD with an ambiguous alias fails");
	RG_CHECK_STR(joined,
				 "Unexpected exception during compatibility check: Reader record field a type:INT pos:0 matches multiple fields in writer record schema "
				 "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\"}]}"
				 " | {oldSchemaVersion: 1} | {oldSchema: '{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\"}]}'}"
				 " | {validateFields: 'false', compatibility: 'BACKWARD'}",
				 "the exception message is followed by schema info and trailer");
	ok = level_check(RG_COMPAT_FORWARD, amb_new, amb_old, 1);
	RG_CHECK(ok && joined[0] == '\0', "FORWARD: the old schema has no aliases, no exception");

	ok = level_check(RG_COMPAT_FULL_TRANSITIVE, old_s, old_s, 1);
	RG_CHECK(ok && joined[0] == '\0', "identical schema is FULL_TRANSITIVE compatible");
	ok = level_check(RG_COMPAT_NONE, new_s, old_s, 1);
	RG_CHECK(ok && joined[0] == '\0', "NONE over Avro");
}

/*
 * Two record cycles of co-prime lengths (31 and 37): the pairs only repeat
 * after 1147 steps, deeper than the checker recurses.  The check must stop
 * cleanly with one message instead of exhausting the C stack.
 */
static char *
cycle_schema(char prefix, int len)
{
	static char bufs[2][8192];
	char	   *b = bufs[prefix == 'W'];
	size_t		off = 0;
	int			i;

	for (i = 0; i < len; i++)
		off += snprintf(b + off, sizeof(bufs[0]) - off,
						"{\"type\":\"record\",\"name\":\"%c%d\",\"fields\":[{\"name\":\"x\",\"type\":[\"null\",",
						prefix, i);
	off += snprintf(b + off, sizeof(bufs[0]) - off, "\"%c0\"", prefix);
	for (i = 0; i < len; i++)
		off += snprintf(b + off, sizeof(bufs[0]) - off, "]}]}");
	return b;
}

static void
test_depth_guard(void)
{
	bool		ok = can_read(cycle_schema('R', 31), cycle_schema('W', 37));

	RG_CHECK(!ok && n_msgs == 1, "very long pair chain stops with one message");
	RG_CHECK_STR(joined, "Unexpected exception during compatibility check: schema nesting too deep for the compatibility check",
				 "depth guard message");
	COMPATIBLE(cycle_schema('R', 31), cycle_schema('R', 31), "long cycle against itself is fine");
}

/*
 * Wide records (16 fields or more) are searched through a name index: the
 * verdicts and locations must be those of a field-by-field scan, for
 * fields at other positions, missing fields, and fields found by alias.
 */
static char *
wide_record(const char *before, int n, const char *after)
{
	static char buf[16384];
	int			i;

	snprintf(buf, sizeof(buf), "{\"type\":\"record\",\"name\":\"W\",\"fields\":[%s", before);
	for (i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s{\"name\":\"f%d\",\"type\":\"int\"}",
				 (i == 0 && before[0] == '\0') ? "" : ",", i);
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s]}", after);
	return strdup(buf);
}

static void
test_wide_records(void)
{
	char	   *writer = wide_record("", 30, "");
	char	   *reader_extra = wide_record("{\"name\":\"extra\",\"type\":\"long\"}", 30, "");
	char	   *reader_extra_default = wide_record("{\"name\":\"extra\",\"type\":\"long\",\"default\":0}", 30, "");
	char	   *reader_alias = wide_record("{\"name\":\"renamed\",\"type\":\"int\",\"aliases\":[\"f29\"]}", 29, "");
	char	   *reader_retyped = wide_record("", 29, ",{\"name\":\"f29\",\"type\":\"string\"}");
	char	   *writer_short = wide_record("", 20, "");

	COMPATIBLE(writer, writer, "wide record reads itself");
	INCOMPATIBLE(reader_extra, writer,
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'extra' at path '/fields/0' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'extra'}",
				 "wide record: a new first field shifts every position, the missing one is still found");
	COMPATIBLE(reader_extra_default, writer, "wide record: shifted positions with a default");
	COMPATIBLE(reader_alias, writer, "wide record: a field found by its alias at another position");
	INCOMPATIBLE(reader_retyped, writer,
				 "{errorType:'TYPE_MISMATCH', description:'The type (path '/fields/29/type') of a field in the %s schema does not match with the %s schema', additionalInfo:'reader type: STRING not compatible with writer type: INT'}",
				 "wide record: the matching field's type is checked");
	INCOMPATIBLE(writer, writer_short,
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f20' at path '/fields/20' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'f20'} | "
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f21' at path '/fields/21' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'f21'} | "
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f22' at path '/fields/22' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'f22'} | "
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f23' at path '/fields/23' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'f23'} | "
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f24' at path '/fields/24' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'f24'} | "
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f25' at path '/fields/25' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'f25'} | "
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f26' at path '/fields/26' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'f26'} | "
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f27' at path '/fields/27' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'f27'} | "
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f28' at path '/fields/28' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'f28'} | "
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'f29' at path '/fields/29' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'f29'}",
				 "wide record: each field the writer lacks is reported in order");
	free(writer);
	free(reader_extra);
	free(reader_extra_default);
	free(reader_alias);
	free(reader_retyped);
	free(writer_short);

	/*
	 * 300 fields: the first lookups of a shifted record are scans, the later
	 * ones go through the name index; both find the same fields
	 */
	writer = wide_record("", 300, "");
	reader_extra = wide_record("{\"name\":\"extra\",\"type\":\"long\"}", 300, "");
	reader_retyped = wide_record("{\"name\":\"extra\",\"type\":\"long\",\"default\":0}", 299,
								 ",{\"name\":\"f299\",\"type\":\"string\"}");
	INCOMPATIBLE(reader_extra, writer,
				 "{errorType:'READER_FIELD_MISSING_DEFAULT_VALUE', description:'The field 'extra' at path '/fields/0' in the %s schema has no default value and is missing in the %s schema', additionalInfo:'extra'}",
				 "300 fields, shifted: only the new field is missing");
	INCOMPATIBLE(reader_retyped, writer,
				 "{errorType:'TYPE_MISMATCH', description:'The type (path '/fields/300/type') of a field in the %s schema does not match with the %s schema', additionalInfo:'reader type: STRING not compatible with writer type: INT'}",
				 "300 fields, shifted: the last field's type is checked through the index");
	free(writer);
	free(reader_extra);
	free(reader_retyped);
}

/*
 * Pairs of shared nodes (a field typed "long", or ["null","string"]) are
 * answered from the process's table once found compatible; an
 * incompatible pair is never taken from it, so each such field is still
 * reported at its own location, however often the pair comes back.
 */
static void
test_shared_pairs(void)
{
#define OPT3(b, c) "{\"type\":\"record\",\"name\":\"R\",\"fields\":[" \
	"{\"name\":\"a\",\"type\":[\"null\",\"string\"]}," \
	"{\"name\":\"b\",\"type\":" b "},{\"name\":\"c\",\"type\":" c "}]}"
	int			round;

	for (round = 0; round < 2; round++)
	{
		COMPATIBLE(OPT3("[\"null\",\"string\"]", "[\"null\",\"string\"]"),
				   OPT3("[\"null\",\"string\"]", "[\"null\",\"string\"]"),
				   "round %d: three optional strings", round);
		INCOMPATIBLE(OPT3("[\"null\",\"int\"]", "[\"null\",\"int\"]"),
					 OPT3("[\"null\",\"string\"]", "[\"null\",\"string\"]"),
					 MUB("/fields/1/type/1", "STRING") " | " MUB("/fields/2/type/1", "STRING"),
					 "round %d: the same unreadable union pair, reported at both fields", round);
		COMPATIBLE(OPT3("\"long\"", "[\"null\",\"long\"]"), OPT3("\"int\"", "\"long\""),
				   "round %d: int promoted to long; a long read by a union", round);
		INCOMPATIBLE(OPT3("\"int\"", "\"int\""), OPT3("\"long\"", "\"long\""),
					 TM("/fields/1/type", "INT", "LONG") " | " TM("/fields/2/type", "INT", "LONG"),
					 "round %d: long is not read as int, at both fields", round);
		INCOMPATIBLE(OPT3("[\"null\",\"string\"]", "\"string\""),
					 OPT3("[\"null\",\"string\"]", "[\"null\",\"string\"]"),
					 TM("/", "STRING", "NULL"),
					 "round %d: a writer union's branch is checked from a fresh location (Avro's)", round);
	}
#undef OPT3
}

int
main(void)
{
	test_primitives_same_type();
	test_type_mismatch();
	test_promotions();
	test_array_map();
	test_fixed();
	test_enum();
	test_record_names();
	test_record_fields();
	test_enum_default_quirk();
	test_ambiguous_alias();
	test_unions_both();
	test_unions_writer_only();
	test_unions_reader_only();
	test_recursive();
	test_memo_reuse();
	test_multiple();
	test_confluent_example();
	test_corners();
	test_levels_with_avro();
	test_depth_guard();
	test_wide_records();
	test_shared_pairs();
	return rg_test_done();
}
