/*-------------------------------------------------------------------------
 *
 * test_protobuf_compat.c
 *	  Unit tests of the Protobuf schema diff (protobuf/proto_compat.c)
 *	  against Confluent's rules (doc/design.md#levels, #protobuf-rules):
 *	  every Difference type in both directions, the exact list of differences
 *	  (compatible ones included) and the exact messages, through
 *	  rg_protobuf_can_read and through the level driver.  All cases are
 *	  our own, written from the rules table.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro_api.h"
#include "rg_protobuf.h"
#include "rg_compat.h"
#include "rg_test.h"

/* proto_compat.c: every difference as "TYPE #/path", in Confluent's order */
extern bool rg_protobuf_differences(const rg_schema *original,
									const rg_schema *update, rg_strlist *out);

#define P2 "syntax = \"proto2\";\n"
#define P3 "syntax = \"proto3\";\n"

/* can_read's message templates, roles still "%s" */
#define MSG(type, desc) "{errorType:\"" type "\", description:\"" desc "\"}"
#define PACKAGE_CHANGED(p) MSG("PACKAGE_CHANGED", "The package at '" p "' in the %s schema does not match the package in the %s schema")
#define MESSAGE_REMOVED(p) MSG("MESSAGE_REMOVED", "The %s schema is missing a MESSAGE type at path '" p "' in the %s schema")
#define FIELD_KIND_CHANGED(p) MSG("FIELD_KIND_CHANGED", "The type of a field at path '" p "' in the %s schema does not match the %s schema")
#define FIELD_SCALAR_KIND_CHANGED(p) MSG("FIELD_SCALAR_KIND_CHANGED", "The kind of a SCALAR field at path '" p "' in the %s schema does not match its kind in the %s schema")
#define FIELD_NAMED_TYPE_CHANGED(p) MSG("FIELD_NAMED_TYPE_CHANGED", "The type of a MESSAGE field at path '" p "' in the %s schema does not match its type in the %s schema")
#define FIELD_NUMERIC_LABEL_CHANGED(p) MSG("FIELD_NUMERIC_LABEL_CHANGED", "The label for a NUMERIC field at path '" p "' in the %s schema does not match its label in the %s schema")
#define REQUIRED_FIELD_ADDED(p) MSG("REQUIRED_FIELD_ADDED", "A required field  at path '" p "' in the %s schema is missing in the %s schema")
#define REQUIRED_FIELD_REMOVED(p) MSG("REQUIRED_FIELD_REMOVED", "The %s schema is missing a required field at path: '" p "' in the %s schema")
#define ONEOF_FIELD_REMOVED(p) MSG("ONEOF_FIELD_REMOVED", "The %s schema is missing a oneof field at path '" p "' in the %s schema")
#define MULTIPLE_FIELDS_MOVED_TO_ONEOF(p) MSG("MULTIPLE_FIELDS_MOVED_TO_ONEOF", "Multiple fields in the oneof at path '" p "' in the %s schema are outside a oneof in the %s schema")
#define FIELD_MOVED_TO_EXISTING_ONEOF(p) MSG("FIELD_MOVED_TO_EXISTING_ONEOF", "A field in the oneof at path '" p "' in the %s schema is outside an existing oneof in the %s schema")

static char joined[65536];

typedef struct refspec
{
	const char *name;
	const char *text;
} refspec;

static rg_schema *
parse_refs(const char *text, const refspec *refs, int n_refs)
{
	rg_reference r[8];
	rg_error	err;
	rg_schema  *s;
	int			i;

	for (i = 0; i < n_refs && i < 8; i++)
	{
		r[i].name = refs[i].name;
		r[i].schema = refs[i].text;
		r[i].schema_len = strlen(refs[i].text);
	}
	rg_error_clear(&err);
	s = rg_protobuf_parse(text, strlen(text), r, n_refs, false, &err);
	if (s == NULL)
		printf("# parse failed: %s\n#   for %s\n", err.message, text);
	return s;
}

/* log a case (test/cli's agreement test): refspecs as name, text pairs */
static void
log_case(const char *reader, const refspec *rrefs, int n_rrefs,
		 const char *writer, const refspec *wrefs, int n_wrefs)
{
	const char *rp[16];
	const char *wp[16];
	int			i;

	for (i = 0; i < n_rrefs && i < 8; i++)
	{
		rp[2 * i] = rrefs[i].name;
		rp[2 * i + 1] = rrefs[i].text;
	}
	for (i = 0; i < n_wrefs && i < 8; i++)
	{
		wp[2 * i] = wrefs[i].name;
		wp[2 * i + 1] = wrefs[i].text;
	}
	rg_test_log_case("PROTOBUF", reader, rp, n_rrefs < 8 ? n_rrefs : 8,
					 writer, wp, n_wrefs < 8 ? n_wrefs : 8);
}

static void
join(const rg_strlist *l, bool only_differences)
{
	int			i;

	joined[0] = '\0';
	for (i = 0; i < l->n; i++)
	{
		if (only_differences && strncmp(l->items[i], "{errorType:", 11) != 0)
			continue;
		if (joined[0])
			strncat(joined, " | ", sizeof(joined) - strlen(joined) - 1);
		strncat(joined, l->items[i], sizeof(joined) - strlen(joined) - 1);
	}
}

/*
 * The differences of SchemaDiff.compare(original, update), joined with
 * " | " into `joined` ("PARSE ERROR" if a schema does not parse).
 */
static void
diffs_refs(const char *original, const refspec *orefs, int n_orefs,
		   const char *update, const refspec *urefs, int n_urefs)
{
	rg_schema  *o = parse_refs(original, orefs, n_orefs);
	rg_schema  *u = parse_refs(update, urefs, n_urefs);
	rg_arena   *arena;
	rg_strlist	out;

	log_case(update, urefs, n_urefs, original, orefs, n_orefs);
	if (o == NULL || u == NULL)
	{
		strcpy(joined, "PARSE ERROR");
		rg_schema_free(o);
		rg_schema_free(u);
		return;
	}
	arena = rg_arena_create();
	rg_strlist_init(&out, arena);
	if (!rg_protobuf_differences(o, u, &out))
		snprintf(joined, sizeof(joined), "FAILED: %s", out.n ? out.items[0] : "");
	else
		join(&out, false);
	rg_arena_destroy(arena);
	rg_schema_free(o);
	rg_schema_free(u);
}

/* can_read(reader, writer): the verdict, messages joined into `joined` */
static bool
can_read_refs(const char *reader, const refspec *rrefs, int n_rrefs,
			  const char *writer, const refspec *wrefs, int n_wrefs)
{
	rg_schema  *r = parse_refs(reader, rrefs, n_rrefs);
	rg_schema  *w = parse_refs(writer, wrefs, n_wrefs);
	rg_arena   *arena;
	rg_strlist	out;
	bool		ok;

	log_case(reader, rrefs, n_rrefs, writer, wrefs, n_wrefs);
	if (r == NULL || w == NULL)
	{
		strcpy(joined, "PARSE ERROR");
		rg_schema_free(r);
		rg_schema_free(w);
		return false;
	}
	arena = rg_arena_create();
	rg_strlist_init(&out, arena);
	ok = rg_protobuf_can_read(r, w, &out);
	join(&out, false);
	if (ok != (out.n == 0))
		strcpy(joined, "VERDICT AND MESSAGES DISAGREE");
	rg_arena_destroy(arena);
	rg_schema_free(r);
	rg_schema_free(w);
	return ok;
}

/*
 * rg_compat_check(level, new, [old]): the verdict; the difference
 * messages (not the schema info trailers) joined into `joined`.
 */
static bool
level_check(rg_compat_level level, const char *new_text, const char *old_text)
{
	rg_schema  *o = parse_refs(old_text, NULL, 0);
	rg_schema  *n = parse_refs(new_text, NULL, 0);
	rg_arena   *arena;
	rg_strlist	msgs;
	rg_prior_version prev[1];
	bool		ok;

	if (o == NULL || n == NULL)
	{
		strcpy(joined, "PARSE ERROR");
		rg_schema_free(o);
		rg_schema_free(n);
		return false;
	}

	/*
	 * Until rg_format.c lists PROTOBUF, a parsed schema may point at a
	 * parse-only table: plug the check in for the driver.
	 */
	if (n->format == NULL || n->format->can_read == NULL)
	{
		static rg_format with_check;

		with_check = n->format ? *n->format : (rg_format)
		{
			.name = "PROTOBUF"
		};
		with_check.can_read = rg_protobuf_can_read;
		n->format = &with_check;
		o->format = &with_check;
	}
	arena = rg_arena_create();
	rg_strlist_init(&msgs, arena);
	prev[0].schema = o;
	prev[0].version = 1;
	ok = rg_compat_check(level, n, prev, 1, &msgs);
	join(&msgs, true);
	rg_arena_destroy(arena);
	rg_schema_free(o);
	rg_schema_free(n);
	return ok;
}

#define DIFFS(original, update, want, ...) \
	do { \
		diffs_refs(original, NULL, 0, update, NULL, 0); \
		RG_CHECK_STR(joined, want, __VA_ARGS__); \
	} while (0)

/* reader reads writer with no message */
#define COMPATIBLE(reader, writer, ...) \
	do { \
		bool ok_ = can_read_refs(reader, NULL, 0, writer, NULL, 0); \
		RG_CHECK(ok_, __VA_ARGS__); \
		if (!ok_) \
			printf("#   messages: %s\n", joined); \
	} while (0)

/* reader does not read writer, with exactly the messages `want` */
#define INCOMPATIBLE(reader, writer, want, ...) \
	do { \
		bool ok_ = can_read_refs(reader, NULL, 0, writer, NULL, 0); \
		RG_CHECK(!ok_, __VA_ARGS__); \
		RG_CHECK_STR(joined, want, __VA_ARGS__); \
	} while (0)

/*
 * A change from v1 to v2 that only adds information (compatible when v2
 * reads v1) must be checked both ways through the driver: BACKWARD
 * registers v2 over v1, FORWARD registers v2 over v1 too (v1 reads v2).
 */
#define LEVEL_OK(level, new_text, old_text, ...) \
	do { \
		bool ok_ = level_check(level, new_text, old_text); \
		RG_CHECK(ok_, __VA_ARGS__); \
		if (!ok_) \
			printf("#   messages: %s\n", joined); \
	} while (0)

#define LEVEL_FAIL(level, new_text, old_text, want, ...) \
	do { \
		bool ok_ = level_check(level, new_text, old_text); \
		RG_CHECK(!ok_, __VA_ARGS__); \
		RG_CHECK_STR(joined, want, __VA_ARGS__); \
	} while (0)

/* ------------------------------------------------------------------ */

static void
test_identical(void)
{
	const char *s = P3 "package p;\nmessage M { int32 a = 1; string b = 2; repeated M c = 3; map<string, M> d = 4;\n"
	"  oneof o { int64 e = 5; bytes f = 6; } optional double g = 7; enum E { X = 0; Y = 1; } E h = 8; }\n"
	"enum Top { A = 0; }\n";

	DIFFS(s, s, "", "identical schemas have no difference");
	COMPATIBLE(s, s, "identical schemas are compatible");
}

static void
test_package(void)
{
	const char *a = P3 "package a;\nmessage M { int32 x = 1; }\n";
	const char *b = P3 "package b;\nmessage M { int32 x = 1; }\n";
	const char *none = P3 "message M { int32 x = 1; }\n";

	DIFFS(a, b, "PACKAGE_CHANGED #/", "package change");
	DIFFS(none, a, "PACKAGE_CHANGED #/", "package added");
	INCOMPATIBLE(b, a, PACKAGE_CHANGED("#/"), "a package change is incompatible");
	INCOMPATIBLE(a, b, PACKAGE_CHANGED("#/"), "a package change is incompatible the other way too");
	INCOMPATIBLE(none, a, PACKAGE_CHANGED("#/"), "dropping the package is incompatible");
	LEVEL_FAIL(RG_COMPAT_BACKWARD, b, a,
			   "{errorType:\"PACKAGE_CHANGED\", description:\"The package at '#/' in the new schema does not match the package in the old schema\"}",
			   "package change under BACKWARD: new, old");
	LEVEL_FAIL(RG_COMPAT_FORWARD, b, a,
			   "{errorType:\"PACKAGE_CHANGED\", description:\"The package at '#/' in the old schema does not match the package in the new schema\"}",
			   "package change under FORWARD: old, new");
}

static void
test_messages(void)
{
	const char *one = P3 "message M { int32 x = 1; }\n";
	const char *two = P3 "message M { int32 x = 1; }\nmessage N { string y = 1; }\n";
	const char *ab = P3 "message A { int32 x = 1; }\nmessage B { int32 x = 1; }\n";
	const char *ba = P3 "message B { int32 x = 1; }\nmessage A { int32 x = 1; }\n";
	const char *ab_enum = P3 "enum E { Z = 0; }\nmessage A { int32 x = 1; }\nmessage B { int32 x = 1; }\n";

	DIFFS(one, two, "MESSAGE_ADDED #/N", "message added");
	DIFFS(two, one, "MESSAGE_REMOVED #/N", "message removed");
	COMPATIBLE(two, one, "a reader with one more message reads the writer");
	INCOMPATIBLE(one, two, MESSAGE_REMOVED("#/N"), "a reader missing a message does not");
	LEVEL_OK(RG_COMPAT_BACKWARD, two, one, "adding a message: BACKWARD");
	LEVEL_FAIL(RG_COMPAT_FORWARD, two, one,
			   "{errorType:\"MESSAGE_REMOVED\", description:\"The old schema is missing a MESSAGE type at path '#/N' in the new schema\"}",
			   "adding a message: FORWARD fails");
	LEVEL_FAIL(RG_COMPAT_BACKWARD, one, two,
			   "{errorType:\"MESSAGE_REMOVED\", description:\"The new schema is missing a MESSAGE type at path '#/N' in the old schema\"}",
			   "removing a message: BACKWARD fails");
	LEVEL_OK(RG_COMPAT_FORWARD, one, two, "removing a message: FORWARD");

	DIFFS(ab, ba, "MESSAGE_MOVED #/A | MESSAGE_MOVED #/B", "reordered messages are moved");
	COMPATIBLE(ab, ba, "moving messages is compatible");
	COMPATIBLE(ba, ab, "moving messages is compatible the other way");
	DIFFS(ab, ab_enum, "ENUM_ADDED #/E", "an enum does not count in message positions");
}

/* names of one scope come in java.util.HashSet order */
static void
test_hashset_order(void)
{
	const char *orig = P3 "message Zebra { int32 x = 1; }\nmessage Mango { int32 x = 1; }\n"
	"message Delta { int32 x = 1; }\nmessage Apple { int32 x = 1; }\n";
	const char *upd = P3 "message Echo { int32 x = 1; }\n";

	/* buckets (of 16): Apple 2, Zebra 5, Delta 5, Echo 5, Mango 8 */
	DIFFS(orig, upd,
		  "MESSAGE_REMOVED #/Apple | MESSAGE_REMOVED #/Zebra | MESSAGE_REMOVED #/Delta | "
		  "MESSAGE_ADDED #/Echo | MESSAGE_REMOVED #/Mango",
		  "removed and added messages in HashSet order");
	INCOMPATIBLE(upd, orig,
				 MESSAGE_REMOVED("#/Apple") " | " MESSAGE_REMOVED("#/Zebra") " | "
				 MESSAGE_REMOVED("#/Delta") " | " MESSAGE_REMOVED("#/Mango"),
				 "the messages follow that order");
}

static void
test_enums(void)
{
	const char *e1 = P3 "enum E { A = 0; B = 1; C = 2; }\nmessage M { E e = 1; }\n";
	const char *e_added = P3 "enum E { A = 0; B = 1; C = 2; D = 3; }\nmessage M { E e = 1; }\n";
	const char *e_removed = P3 "enum E { A = 0; B = 1; }\nmessage M { E e = 1; }\n";
	const char *e_renamed = P3 "enum E { A = 0; BB = 1; C = 2; }\nmessage M { E e = 1; }\n";
	const char *no_enum = P3 "message M { int32 e = 1; }\n";
	const char *nested = P3 "message M { enum F { X = 0; } int32 e = 1; }\n";

	DIFFS(e1, e_added, "ENUM_CONST_ADDED #/E/3", "enum constant added");
	DIFFS(e1, e_removed, "ENUM_CONST_REMOVED #/E/2", "enum constant removed");
	DIFFS(e1, e_renamed, "ENUM_CONST_CHANGED #/E/1", "enum constant renamed");
	DIFFS(e1, no_enum, "ENUM_REMOVED #/E", "enum removed (the field's enum -> int32 is silent)");
	DIFFS(no_enum, e1, "ENUM_ADDED #/E", "enum added");
	DIFFS(no_enum, nested, "ENUM_ADDED #/M/F", "nested enum added");
	/* aliases: the last constant of a number stands for it */
	DIFFS(P2 "enum E { option allow_alias = true; A = 0; B = 0; }\n", P2 "enum E { A = 0; }\n",
		  "ENUM_CONST_CHANGED #/E/0", "an alias is compared by its number");
	COMPATIBLE(e_removed, e1, "removing an enum constant is compatible");
	COMPATIBLE(e1, e_removed, "adding an enum constant is compatible");
	COMPATIBLE(e_renamed, e1, "renaming an enum constant is compatible");
	COMPATIBLE(no_enum, e1, "removing an enum is compatible");
	COMPATIBLE(e1, no_enum, "adding an enum is compatible");
	LEVEL_OK(RG_COMPAT_FULL, e_added, e1, "enum changes pass FULL");
}

static void
test_fields_added_removed(void)
{
	const char *a = P3 "message M { int32 x = 1; }\n";
	const char *ab = P3 "message M { int32 x = 1; string y = 2; }\n";
	const char *renamed = P3 "message M { int32 z = 1; }\n";
	const char *renumbered = P3 "message M { int32 x = 2; }\n";

	DIFFS(a, ab, "FIELD_ADDED #/M/2", "field added");
	DIFFS(ab, a, "FIELD_REMOVED #/M/2", "field removed");
	DIFFS(a, renamed, "FIELD_NAME_CHANGED #/M/1", "field renamed");
	DIFFS(a, renumbered, "FIELD_REMOVED #/M/1 | FIELD_ADDED #/M/2",
		  "a new field number is a removal and an addition");
	COMPATIBLE(ab, a, "adding a field is compatible");
	COMPATIBLE(a, ab, "removing a field is compatible");
	COMPATIBLE(renamed, a, "renaming a field is compatible");
	COMPATIBLE(renumbered, a, "renumbering a field is compatible (Confluent, unlike Karapace)");
	LEVEL_OK(RG_COMPAT_FULL, ab, a, "adding a field passes FULL");
	LEVEL_OK(RG_COMPAT_FULL, renumbered, a, "renumbering passes FULL");
}

static void
test_required(void)
{
	const char *opt = P2 "message M { optional int32 a = 1; }\n";
	const char *req = P2 "message M { optional int32 a = 1; required int32 b = 2; }\n";
	const char *optb = P2 "message M { optional int32 a = 1; optional int32 b = 2; }\n";

	DIFFS(opt, req, "REQUIRED_FIELD_ADDED #/M/2", "required field added");
	DIFFS(req, opt, "REQUIRED_FIELD_REMOVED #/M/2", "required field removed");
	INCOMPATIBLE(req, opt, REQUIRED_FIELD_ADDED("#/M/2"), "a reader with a new required field");
	INCOMPATIBLE(opt, req, REQUIRED_FIELD_REMOVED("#/M/2"), "a reader without the writer's required field");
	LEVEL_FAIL(RG_COMPAT_BACKWARD, req, opt,
			   "{errorType:\"REQUIRED_FIELD_ADDED\", description:\"A required field  at path '#/M/2' in the new schema is missing in the old schema\"}",
			   "required field added: BACKWARD");
	LEVEL_FAIL(RG_COMPAT_FORWARD, req, opt,
			   "{errorType:\"REQUIRED_FIELD_REMOVED\", description:\"The old schema is missing a required field at path: '#/M/2' in the new schema\"}",
			   "required field added: FORWARD");
	LEVEL_FAIL(RG_COMPAT_BACKWARD, opt, req,
			   "{errorType:\"REQUIRED_FIELD_REMOVED\", description:\"The new schema is missing a required field at path: '#/M/2' in the old schema\"}",
			   "required field removed: BACKWARD");
	/* optional -> required on the same tag is a label change */
	DIFFS(optb, req, "FIELD_NUMERIC_LABEL_CHANGED #/M/2", "optional -> required");
	INCOMPATIBLE(req, optb, FIELD_NUMERIC_LABEL_CHANGED("#/M/2"), "optional -> required is incompatible");
}

static void
test_kinds(void)
{
	const char *scalar = P3 "message M { int32 f = 1; }\nmessage T { int32 x = 1; }\n";
	const char *message = P3 "message M { T f = 1; }\nmessage T { int32 x = 1; }\n";
	const char *map = P3 "message M { map<string, int32> f = 1; }\nmessage T { int32 x = 1; }\n";
	const char *enm = P3 "message M { E f = 1; }\nmessage T { int32 x = 1; }\nenum E { Z = 0; }\n";

	DIFFS(scalar, message, "FIELD_KIND_CHANGED #/M/1", "scalar -> message");
	DIFFS(message, map, "FIELD_KIND_CHANGED #/M/1", "message -> map");
	DIFFS(map, scalar, "FIELD_KIND_CHANGED #/M/1", "map -> scalar");
	DIFFS(enm, message, "FIELD_KIND_CHANGED #/M/1 | ENUM_REMOVED #/E",
		  "an enum is a scalar: enum -> message changes the kind");
	INCOMPATIBLE(message, scalar, FIELD_KIND_CHANGED("#/M/1"), "scalar -> message is incompatible");
	INCOMPATIBLE(scalar, message, FIELD_KIND_CHANGED("#/M/1"), "message -> scalar is incompatible");
	INCOMPATIBLE(map, message, FIELD_KIND_CHANGED("#/M/1"), "message -> map is incompatible");
	LEVEL_FAIL(RG_COMPAT_BACKWARD, message, scalar,
			   "{errorType:\"FIELD_KIND_CHANGED\", description:\"The type of a field at path '#/M/1' in the new schema does not match the old schema\"}",
			   "kind change under BACKWARD");
	LEVEL_FAIL(RG_COMPAT_FORWARD, message, scalar,
			   "{errorType:\"FIELD_KIND_CHANGED\", description:\"The type of a field at path '#/M/1' in the old schema does not match the new schema\"}",
			   "kind change under FORWARD");
}

/* a message with one field 1 of the given type */
static const char *
one_field(const char *type)
{
	static char buf[8][256];
	static int	next;
	char	   *b = buf[next++ % 8];

	snprintf(b, 256, P3 "enum E { Z = 0; }\nenum F { Y = 0; }\nmessage M { %s f = 1; }\n", type);
	return b;
}

static void
test_scalar_groups(void)
{
	static const char *const groups[][6] = {
		{"int32", "int64", "uint32", "uint64", "bool", "E"},
		{"sint32", "sint64"},
		{"string", "bytes"},
		{"fixed32", "sfixed32"},
		{"fixed64", "sfixed64"},
		{"float"},
		{"double"},
	};
	static const int sizes[] = {6, 2, 2, 2, 2, 1, 1};
	int			g,
				h,
				i,
				j;

	/* within a group: silent, both ways */
	for (g = 0; g < 7; g++)
		for (i = 0; i < sizes[g]; i++)
			for (j = 0; j < sizes[g]; j++)
			{
				diffs_refs(one_field(groups[g][i]), NULL, 0, one_field(groups[g][j]), NULL, 0);
				RG_CHECK_STR(joined, "", "%s -> %s is the same scalar group", groups[g][i], groups[g][j]);
			}
	/* across groups: FIELD_SCALAR_KIND_CHANGED (first member of each) */
	for (g = 0; g < 7; g++)
		for (h = 0; h < 7; h++)
		{
			bool		ok;

			if (g == h)
				continue;
			ok = can_read_refs(one_field(groups[h][sizes[h] - 1]), NULL, 0,
							   one_field(groups[g][0]), NULL, 0);
			RG_CHECK(!ok, "%s -> %s is incompatible", groups[g][0], groups[h][sizes[h] - 1]);
			RG_CHECK_STR(joined, FIELD_SCALAR_KIND_CHANGED("#/M/1"),
						 "%s -> %s message", groups[g][0], groups[h][sizes[h] - 1]);
		}
	/* two different enums are both plain numbers */
	COMPATIBLE(one_field("F"), one_field("E"), "enum E -> enum F is silent");
	INCOMPATIBLE(one_field("sint32"), one_field("E"), FIELD_SCALAR_KIND_CHANGED("#/M/1"),
				 "enum -> sint32 is incompatible");
	LEVEL_OK(RG_COMPAT_FULL, one_field("int64"), one_field("int32"), "int32 -> int64 passes FULL");
	LEVEL_OK(RG_COMPAT_FULL, one_field("bytes"), one_field("string"), "string -> bytes passes FULL");
	LEVEL_FAIL(RG_COMPAT_BACKWARD, one_field("sint32"), one_field("int32"),
			   "{errorType:\"FIELD_SCALAR_KIND_CHANGED\", description:\"The kind of a SCALAR field at path '#/M/1' in the new schema does not match its kind in the old schema\"}",
			   "int32 -> sint32 under BACKWARD");
	LEVEL_FAIL(RG_COMPAT_FORWARD, one_field("sint32"), one_field("int32"),
			   "{errorType:\"FIELD_SCALAR_KIND_CHANGED\", description:\"The kind of a SCALAR field at path '#/M/1' in the old schema does not match its kind in the new schema\"}",
			   "int32 -> sint32 under FORWARD");
}

static void
test_labels(void)
{
	const char *p3_plain = P3 "message M { int32 a = 1; string s = 2; }\n";
	const char *p3_rep = P3 "message M { repeated int32 a = 1; repeated string s = 2; }\n";
	const char *p3_opt = P3 "message M { optional int32 a = 1; optional string s = 2; }\n";
	const char *p2_opt = P2 "message M { optional int32 a = 1; optional string s = 2; }\n";
	const char *p2_rep = P2 "message M { repeated int32 a = 1; repeated string s = 2; }\n";
	const char *p3_enum_opt = P3 "enum E { Z = 0; }\nmessage M { optional E a = 1; }\n";
	const char *p3_enum_rep = P3 "enum E { Z = 0; }\nmessage M { repeated E a = 1; }\n";

	/* no label written on one side: no label difference */
	DIFFS(p3_plain, p3_rep, "", "proto3 implicit -> repeated: no label to compare");
	DIFFS(p3_rep, p3_plain, "", "repeated -> proto3 implicit: no label to compare");
	DIFFS(p3_plain, p3_opt, "", "proto3 implicit -> optional: no label to compare");
	COMPATIBLE(p3_rep, p3_plain, "implicit -> repeated is compatible");

	/* both written and different */
	DIFFS(p3_opt, p3_rep,
		  "FIELD_NUMERIC_LABEL_CHANGED #/M/1 | FIELD_STRING_OR_BYTES_LABEL_CHANGED #/M/2",
		  "proto3 optional -> repeated");
	DIFFS(p2_opt, p2_rep,
		  "FIELD_NUMERIC_LABEL_CHANGED #/M/1 | FIELD_STRING_OR_BYTES_LABEL_CHANGED #/M/2",
		  "proto2 optional -> repeated");
	INCOMPATIBLE(p3_rep, p3_opt, FIELD_NUMERIC_LABEL_CHANGED("#/M/1"),
				 "a numeric label change is incompatible, a string one is not");
	INCOMPATIBLE(p2_opt, p2_rep, FIELD_NUMERIC_LABEL_CHANGED("#/M/1"),
				 "repeated -> optional is incompatible too");
	INCOMPATIBLE(p3_enum_rep, p3_enum_opt, FIELD_NUMERIC_LABEL_CHANGED("#/M/1"),
				 "an enum's label is a numeric label");
	LEVEL_FAIL(RG_COMPAT_BACKWARD, p3_rep, p3_opt,
			   "{errorType:\"FIELD_NUMERIC_LABEL_CHANGED\", description:\"The label for a NUMERIC field at path '#/M/1' in the new schema does not match its label in the old schema\"}",
			   "label change under BACKWARD");
	LEVEL_FAIL(RG_COMPAT_FORWARD, p3_rep, p3_opt,
			   "{errorType:\"FIELD_NUMERIC_LABEL_CHANGED\", description:\"The label for a NUMERIC field at path '#/M/1' in the old schema does not match its label in the new schema\"}",
			   "label change under FORWARD");
	/* a proto2 optional and a proto3 optional are the same label */
	DIFFS(p2_opt, p3_opt, "", "proto2 optional -> proto3 optional");
	/* a proto2 optional and a proto3 implicit field: only one label */
	DIFFS(p2_rep, p3_plain, "", "proto2 repeated -> proto3 implicit");
}

static void
test_oneofs(void)
{
	const char *plain = P3 "message M { int32 a = 1; }\n";
	const char *with_oneof = P3 "message M { int32 a = 1; oneof o { int32 b = 2; string c = 3; } }\n";
	const char *oneof_b = P3 "message M { int32 a = 1; oneof o { int32 b = 2; } }\n";
	const char *b_top = P3 "message M { int32 a = 1; int32 b = 2; }\n";
	const char *two_top = P3 "message M { int32 a = 1; int32 b = 2; }\n";
	const char *two_in = P3 "message M { oneof o { int32 a = 1; int32 b = 2; } }\n";
	const char *one_and_oneof = P3 "message M { int32 a = 1; oneof o { int32 b = 2; } }\n";
	const char *merged = P3 "message M { oneof o { int32 a = 1; int32 b = 2; } }\n";
	const char *xy = P3 "message M { oneof x { int32 a = 1; } oneof y { int32 b = 2; } }\n";
	const char *x_only = P3 "message M { oneof x { int32 a = 1; int32 b = 2; } }\n";
	const char *renamed = P3 "message M { int32 a = 1; oneof p { int32 b = 2; } }\n";
	const char *renamed_str = P3 "message M { int32 a = 1; oneof p { string b = 2; } }\n";
	const char *new_tag_in = P3 "message M { int32 a = 1; oneof o { int32 b = 2; int32 n = 9; } }\n";
	const char *three_top = P3 "message M { int32 a = 1; int32 b = 2; int32 c = 3; }\n";
	const char *two_of_three_in = P3 "message M { int32 a = 1; oneof o { int32 b = 2; int32 c = 3; } }\n";

	/* ONEOF_ADDED / ONEOF_FIELD_ADDED and a complete deletion */
	DIFFS(plain, with_oneof, "ONEOF_ADDED #/M/o | ONEOF_FIELD_ADDED #/M/o/2 | ONEOF_FIELD_ADDED #/M/o/3",
		  "oneof added with its fields");
	DIFFS(with_oneof, plain, "ONEOF_REMOVED #/M/o", "a oneof deleted with all its fields");
	COMPATIBLE(with_oneof, plain, "adding a oneof is compatible");
	COMPATIBLE(plain, with_oneof, "deleting a whole oneof is compatible");
	LEVEL_OK(RG_COMPAT_FULL, with_oneof, plain, "adding a oneof passes FULL");

	/* ONEOF_FIELD_REMOVED */
	DIFFS(with_oneof, oneof_b, "ONEOF_FIELD_REMOVED #/M/o/3", "a oneof member removed");
	DIFFS(oneof_b, with_oneof, "ONEOF_FIELD_ADDED #/M/o/3", "a oneof member added");
	INCOMPATIBLE(oneof_b, with_oneof, ONEOF_FIELD_REMOVED("#/M/o/3"), "removing a oneof member is incompatible");
	COMPATIBLE(with_oneof, oneof_b, "adding a oneof member is compatible");
	LEVEL_FAIL(RG_COMPAT_BACKWARD, oneof_b, with_oneof,
			   "{errorType:\"ONEOF_FIELD_REMOVED\", description:\"The new schema is missing a oneof field at path '#/M/o/3' in the old schema\"}",
			   "oneof member removed: BACKWARD");
	LEVEL_OK(RG_COMPAT_FORWARD, oneof_b, with_oneof, "oneof member removed: FORWARD");
	LEVEL_FAIL(RG_COMPAT_FORWARD, with_oneof, oneof_b,
			   "{errorType:\"ONEOF_FIELD_REMOVED\", description:\"The old schema is missing a oneof field at path '#/M/o/3' in the new schema\"}",
			   "oneof member added: FORWARD");

	/* out of a oneof, and a single field into a new oneof */
	DIFFS(oneof_b, b_top, "ONEOF_REMOVED #/M/o | ONEOF_FIELD_MOVED_TO_TOP_LEVEL #/M/2",
		  "a oneof member moved to the top level");
	COMPATIBLE(b_top, oneof_b, "moving a member out of its oneof is compatible");
	DIFFS(b_top, oneof_b, "ONEOF_ADDED #/M/o", "one field moved into a new oneof");
	COMPATIBLE(oneof_b, b_top, "one field into a new oneof is compatible");

	/* MULTIPLE_FIELDS_MOVED_TO_ONEOF */
	DIFFS(two_top, two_in, "MULTIPLE_FIELDS_MOVED_TO_ONEOF #/M/o | ONEOF_ADDED #/M/o",
		  "two top-level fields into one oneof");
	DIFFS(two_in, two_top,
		  "ONEOF_REMOVED #/M/o | ONEOF_FIELD_MOVED_TO_TOP_LEVEL #/M/1 | ONEOF_FIELD_MOVED_TO_TOP_LEVEL #/M/2",
		  "a oneof dissolved into top-level fields");
	INCOMPATIBLE(two_in, two_top, MULTIPLE_FIELDS_MOVED_TO_ONEOF("#/M/o"),
				 "making two fields exclusive is incompatible");
	COMPATIBLE(two_top, two_in, "dissolving a oneof is compatible");
	LEVEL_FAIL(RG_COMPAT_BACKWARD, two_in, two_top,
			   "{errorType:\"MULTIPLE_FIELDS_MOVED_TO_ONEOF\", description:\"Multiple fields in the oneof at path '#/M/o' in the new schema are outside a oneof in the old schema\"}",
			   "multiple fields moved: BACKWARD");
	LEVEL_OK(RG_COMPAT_FORWARD, two_in, two_top, "multiple fields moved: FORWARD");
	DIFFS(three_top, two_of_three_in, "MULTIPLE_FIELDS_MOVED_TO_ONEOF #/M/o | ONEOF_ADDED #/M/o",
		  "two of three fields into a oneof");

	/* FIELD_MOVED_TO_EXISTING_ONEOF */
	DIFFS(one_and_oneof, merged, "FIELD_MOVED_TO_EXISTING_ONEOF #/M/o",
		  "a top-level field into an existing oneof");
	INCOMPATIBLE(merged, one_and_oneof, FIELD_MOVED_TO_EXISTING_ONEOF("#/M/o"),
				 "a field into an existing oneof is incompatible");
	DIFFS(merged, one_and_oneof, "ONEOF_FIELD_MOVED_TO_TOP_LEVEL #/M/1",
		  "a field out of a oneof that stays");
	COMPATIBLE(one_and_oneof, merged, "a field out of a oneof that stays is compatible");
	DIFFS(xy, x_only, "FIELD_MOVED_TO_EXISTING_ONEOF #/M/x | ONEOF_REMOVED #/M/y", "two oneofs merged");
	INCOMPATIBLE(x_only, xy, FIELD_MOVED_TO_EXISTING_ONEOF("#/M/x"), "merging oneofs is incompatible");
	LEVEL_FAIL(RG_COMPAT_BACKWARD, merged, one_and_oneof,
			   "{errorType:\"FIELD_MOVED_TO_EXISTING_ONEOF\", description:\"A field in the oneof at path '#/M/o' in the new schema is outside an existing oneof in the old schema\"}",
			   "field moved to existing oneof: BACKWARD");
	LEVEL_OK(RG_COMPAT_FORWARD, merged, one_and_oneof, "field moved to existing oneof: FORWARD");

	/* a brand-new member does not count as a moved field */
	DIFFS(oneof_b, new_tag_in, "ONEOF_FIELD_ADDED #/M/o/9", "a new member of an existing oneof");
	DIFFS(b_top, new_tag_in, "ONEOF_ADDED #/M/o | ONEOF_FIELD_ADDED #/M/o/9",
		  "one moved field and a new one in a new oneof");

	/* a renamed oneof: its fields are still compared, under the new name */
	DIFFS(oneof_b, renamed, "ONEOF_REMOVED #/M/o | ONEOF_ADDED #/M/p", "a oneof renamed");
	DIFFS(oneof_b, renamed_str, "ONEOF_REMOVED #/M/o | ONEOF_ADDED #/M/p | FIELD_SCALAR_KIND_CHANGED #/M/p/2",
		  "a type change inside a renamed oneof is seen");
	DIFFS(with_oneof, renamed, "ONEOF_REMOVED #/M/o | ONEOF_ADDED #/M/p | ONEOF_FIELD_REMOVED #/M/o/3",
		  "a member dropped while its oneof is renamed");
	INCOMPATIBLE(renamed, with_oneof, ONEOF_FIELD_REMOVED("#/M/o/3"),
				 "a member dropped while its oneof is renamed is incompatible");

	/* a proto2 optional field into a new oneof: the member has no label */
	DIFFS(P2 "message M { optional int32 a = 1; }\n", P2 "message M { oneof o { int32 a = 1; } }\n",
		  "ONEOF_ADDED #/M/o", "proto2 optional into a oneof: no label difference");

	/* proto3 optional is a top-level field, not a oneof */
	DIFFS(P3 "message M { int32 a = 1; }\n", P3 "message M { optional int32 a = 1; optional string b = 2; }\n",
		  "FIELD_ADDED #/M/2", "proto3 optional fields have no oneof");

	/*
	 * The same schema as a descriptor built by hand, as Confluent's
	 * JavaScript client sends one: proto3_optional fields with their
	 * synthetic oneofs declared and no oneof_index
	 */
	{
		const char *js = "CgdtLnByb3RvIisKAU0SDAoBYRgBIAEoBYgBARIMCgFiGAIgASgJiAEBQgQKAl9hQgQKAl9iYgZwcm90bzM=";

		DIFFS(P3 "message M { int32 a = 1; }\n", js,
			  "FIELD_ADDED #/M/2", "a descriptor's proto3 optional fields have no oneof");
		DIFFS(P3 "message M { optional int32 a = 1; optional string b = 2; }\n", js, "",
			  "a descriptor's proto3 optional fields: as their .proto text");
		DIFFS(js, two_in,
			  "MULTIPLE_FIELDS_MOVED_TO_ONEOF #/M/o | ONEOF_ADDED #/M/o | FIELD_SCALAR_KIND_CHANGED #/M/o/2",
			  "a descriptor's proto3 optional fields into a real oneof");
	}
	DIFFS(P3 "message M { optional int32 a = 1; optional int32 b = 2; }\n", two_in,
		  "MULTIPLE_FIELDS_MOVED_TO_ONEOF #/M/o | ONEOF_ADDED #/M/o",
		  "proto3 optional fields into a real oneof");
}

static void
test_nested(void)
{
	const char *v1 = P3 "message Outer {\n  message Inner { int32 x = 1; message Deep { int32 y = 1; } }\n  Inner i = 1;\n}\n";
	const char *v2 = P3 "message Outer {\n  message Inner { string x = 1; message Deep { sint32 y = 1; } }\n  Inner i = 1;\n}\n";
	const char *no_inner = P3 "message Outer {\n  int32 i = 1;\n}\n";
	const char *added = P3 "message Outer {\n  message Inner { int32 x = 1; message Deep { int32 y = 1; } }\n"
	"  message Other { int32 z = 1; }\n  Inner i = 1;\n}\n";
	const char *swapped = P3 "message Outer {\n  message Other { int32 z = 1; }\n"
	"  message Inner { int32 x = 1; message Deep { int32 y = 1; } }\n  Inner i = 1;\n}\n";

	/* local message types are compared where they are declared, once */
	DIFFS(v1, v2, "FIELD_SCALAR_KIND_CHANGED #/Outer/Inner/1 | FIELD_SCALAR_KIND_CHANGED #/Outer/Inner/Deep/1",
		  "nested changes at nested paths");
	INCOMPATIBLE(v2, v1, FIELD_SCALAR_KIND_CHANGED("#/Outer/Inner/1") " | "
				 FIELD_SCALAR_KIND_CHANGED("#/Outer/Inner/Deep/1"), "nested changes are incompatible");
	DIFFS(v1, no_inner, "FIELD_KIND_CHANGED #/Outer/1 | MESSAGE_REMOVED #/Outer/Inner",
		  "nested message removed");
	INCOMPATIBLE(no_inner, v1, FIELD_KIND_CHANGED("#/Outer/1") " | " MESSAGE_REMOVED("#/Outer/Inner"),
				 "nested message removed: messages");
	DIFFS(v1, added, "MESSAGE_ADDED #/Outer/Other", "nested message added");
	DIFFS(added, swapped, "MESSAGE_MOVED #/Outer/Inner | MESSAGE_MOVED #/Outer/Other", "nested messages moved");
	COMPATIBLE(swapped, added, "moving nested messages is compatible");

	/* a field's message type renamed */
	DIFFS(P3 "message A { int32 x = 1; }\nmessage B { int32 x = 1; }\nmessage M { A f = 1; }\n",
		  P3 "message A { int32 x = 1; }\nmessage B { int32 x = 1; }\nmessage M { B f = 1; }\n",
		  "FIELD_NAMED_TYPE_CHANGED #/M/1", "a field's message type changed");
	INCOMPATIBLE(P3 "message A { int32 x = 1; }\nmessage B { int32 x = 1; }\nmessage M { B f = 1; }\n",
				 P3 "message A { int32 x = 1; }\nmessage B { int32 x = 1; }\nmessage M { A f = 1; }\n",
				 FIELD_NAMED_TYPE_CHANGED("#/M/1"), "a field's message type changed: message");
	/* the same local name in another scope is another type */
	DIFFS(P3 "message A { int32 x = 1; }\nmessage M { message A { int32 x = 1; } .A f = 1; }\n",
		  P3 "message A { int32 x = 1; }\nmessage M { message A { int32 x = 1; } A f = 1; }\n",
		  "FIELD_NAMED_TYPE_CHANGED #/M/1", "A vs M.A");
}

static void
test_recursive(void)
{
	const char *v1 = P3 "message Node { Node next = 1; int32 v = 2; repeated Node kids = 3; }\n";
	const char *v2 = P3 "message Node { Node next = 1; string v = 2; repeated Node kids = 3; }\n";
	const char *mutual1 = P3 "message A { B b = 1; int32 x = 2; }\nmessage B { A a = 1; int32 y = 2; }\n";
	const char *mutual2 = P3 "message A { B b = 1; int32 x = 2; }\nmessage B { A a = 1; float y = 2; }\n";

	DIFFS(v1, v1, "", "a recursive message against itself");
	DIFFS(v1, v2, "FIELD_SCALAR_KIND_CHANGED #/Node/2", "a recursive message changed");
	DIFFS(mutual1, mutual2, "FIELD_SCALAR_KIND_CHANGED #/B/2", "mutually recursive messages");
	INCOMPATIBLE(mutual2, mutual1, FIELD_SCALAR_KIND_CHANGED("#/B/2"), "mutually recursive: message");
}

static void
test_maps(void)
{
	const char *base = P3 "message V { int32 x = 1; }\nmessage W { int32 x = 1; }\nmessage M { %s f = 1; }\n";
	char		a[512],
				b[512];

#define MAPCASE(t1, t2, want, ...) \
	do { \
		snprintf(a, sizeof(a), base, t1); \
		snprintf(b, sizeof(b), base, t2); \
		diffs_refs(a, NULL, 0, b, NULL, 0); \
		RG_CHECK_STR(joined, want, __VA_ARGS__); \
	} while (0)

	MAPCASE("map<string, int32>", "map<string, int32>", "", "same map");
	MAPCASE("map<string, int32>", "map<string, int64>", "", "map value int32 -> int64");
	MAPCASE("map<string, int32>", "map<string, string>", "FIELD_SCALAR_KIND_CHANGED #/M/1", "map value kind changed");
	MAPCASE("map<string, int32>", "map<int32, int32>", "FIELD_SCALAR_KIND_CHANGED #/M/1", "map key kind changed");
	MAPCASE("map<int64, int32>", "map<sint64, sint32>",
			"FIELD_SCALAR_KIND_CHANGED #/M/1 | FIELD_SCALAR_KIND_CHANGED #/M/1", "key and value kinds changed");
	MAPCASE("map<string, V>", "map<string, W>", "FIELD_NAMED_TYPE_CHANGED #/M/1", "map value message changed");
	MAPCASE("map<string, V>", "map<string, int32>", "FIELD_KIND_CHANGED #/M/1", "map value message -> scalar");
	MAPCASE("map<string, int32>", "repeated V", "FIELD_KIND_CHANGED #/M/1", "map -> repeated message");
	MAPCASE("map<string, int32>", "int32", "FIELD_KIND_CHANGED #/M/1", "map -> scalar");
#undef MAPCASE

	/* map entries are not messages of the diff */
	DIFFS(P3 "message M { int32 a = 1; }\n", P3 "message M { int32 a = 1; map<string, M> m = 2; }\n",
		  "FIELD_ADDED #/M/2", "adding a map field adds no message");
	DIFFS(P3 "message M { map<string, int32> m = 1; message A { int32 x = 1; } }\n",
		  P3 "message M { message A { int32 x = 1; } map<string, int32> m = 1; }\n",
		  "", "a map entry does not take a message position");
	DIFFS(P3 "message M { map<string, int32> m = 1; }\n",
		  P3 "message M { repeated MEntry m = 1; message MEntry { string key = 1; int32 value = 2; } }\n",
		  "FIELD_KIND_CHANGED #/M/1 | MESSAGE_ADDED #/M/MEntry",
		  "a map replaced by a look-alike message");
	INCOMPATIBLE(P3 "message M { map<string, string> m = 1; }\n", P3 "message M { map<string, int32> m = 1; }\n",
				 FIELD_SCALAR_KIND_CHANGED("#/M/1"), "map value change is incompatible");
}

static void
test_references(void)
{
	static const refspec dep1[] = {{"dep.proto", P3 "package dep;\nmessage D { int32 x = 1; }\n"}};
	static const refspec dep2[] = {{"dep.proto", P3 "package dep;\nmessage D { string x = 1; }\n"}};
	static const refspec dep3[] = {{"dep.proto", P3 "package dep;\nmessage D { int32 x = 1; int32 y = 2; }\n"}};
	static const refspec dep_rec1[] = {{"dep.proto", P3 "package dep;\nmessage R { R next = 1; int32 v = 2; }\n"}};
	static const refspec dep_rec2[] = {{"dep.proto", P3 "package dep;\nmessage R { R next = 1; sint32 v = 2; }\n"}};
	static const refspec chain1[] = {
		{"leaf.proto", P3 "package leaf;\nmessage L { int32 x = 1; }\n"},
	{"mid.proto", P3 "package mid;\nimport \"leaf.proto\";\nmessage Mid { leaf.L l = 1; }\n"}};
	static const refspec chain2[] = {
		{"leaf.proto", P3 "package leaf;\nmessage L { double x = 1; }\n"},
	{"mid.proto", P3 "package mid;\nimport \"leaf.proto\";\nmessage Mid { leaf.L l = 1; }\n"}};
	const char *main1 = P3 "package m;\nimport \"dep.proto\";\nmessage M { dep.D d = 1; }\n";
	const char *main2 = P3 "package m;\nimport \"dep.proto\";\nmessage M { dep.D d = 1; dep.D e = 2; }\n";
	const char *main_rec = P3 "package m;\nimport \"dep.proto\";\nmessage M { dep.R r = 1; }\n";
	const char *main_chain = P3 "package m;\nimport \"mid.proto\";\nmessage M { mid.Mid x = 1; }\n";
	const char *local_d = P3 "package m;\nmessage M { D d = 1; }\nmessage D { int32 x = 1; }\n";
	const char *main_wkt = P3 "package m;\nimport \"google/protobuf/timestamp.proto\";\nmessage M { google.protobuf.Timestamp t = 1; }\n";
	bool		ok;

	diffs_refs(main1, dep1, 1, main1, dep1, 1);
	RG_CHECK_STR(joined, "", "the same reference: nothing");
	diffs_refs(main1, dep1, 1, main1, dep2, 1);
	RG_CHECK_STR(joined, "FIELD_SCALAR_KIND_CHANGED #/D/1 | FIELD_NAMED_TYPE_CHANGED #/M/1",
				 "a referenced message changed incompatibly");
	ok = can_read_refs(main1, dep2, 1, main1, dep1, 1);
	RG_CHECK(!ok, "a referenced message changed incompatibly: verdict");
	RG_CHECK_STR(joined, FIELD_SCALAR_KIND_CHANGED("#/D/1") " | " FIELD_NAMED_TYPE_CHANGED("#/M/1"),
				 "a referenced message changed incompatibly: messages");
	diffs_refs(main1, dep1, 1, main1, dep3, 1);
	RG_CHECK_STR(joined, "FIELD_ADDED #/D/2", "a referenced message changed compatibly");
	ok = can_read_refs(main1, dep3, 1, main1, dep1, 1);
	RG_CHECK(ok, "a referenced message changed compatibly: verdict");

	/* every field using the changed type reports it again */
	diffs_refs(main2, dep1, 1, main2, dep2, 1);
	RG_CHECK_STR(joined, "FIELD_SCALAR_KIND_CHANGED #/D/1 | FIELD_NAMED_TYPE_CHANGED #/M/1 | "
				 "FIELD_SCALAR_KIND_CHANGED #/D/1 | FIELD_NAMED_TYPE_CHANGED #/M/2",
				 "two fields of a changed referenced type");

	/* recursive referenced type: no infinite loop */
	diffs_refs(main_rec, dep_rec1, 1, main_rec, dep_rec2, 1);
	RG_CHECK_STR(joined, "FIELD_SCALAR_KIND_CHANGED #/R/2 | FIELD_NAMED_TYPE_CHANGED #/M/1",
				 "a recursive referenced type changed");

	/* a change two imports away */
	diffs_refs(main_chain, chain1, 2, main_chain, chain2, 2);
	RG_CHECK_STR(joined, "FIELD_SCALAR_KIND_CHANGED #/L/1 | FIELD_NAMED_TYPE_CHANGED #/Mid/1 | "
				 "FIELD_NAMED_TYPE_CHANGED #/M/1", "a change in a transitive import");

	/* a local type moved to a reference: the same local name, compared */
	diffs_refs(local_d, NULL, 0, main1, dep2, 1);
	/* D (bucket 4) comes before M (bucket 13) */
	RG_CHECK_STR(joined, "MESSAGE_REMOVED #/D | FIELD_SCALAR_KIND_CHANGED #/D/1 | FIELD_NAMED_TYPE_CHANGED #/M/1",
				 "a local type replaced by an imported one");
	diffs_refs(local_d, NULL, 0, main1, dep1, 1);
	RG_CHECK_STR(joined, "MESSAGE_REMOVED #/D", "a local type moved to an import unchanged");

	/* well-known types resolve without a reference */
	diffs_refs(main_wkt, NULL, 0, main_wkt, NULL, 0);
	RG_CHECK_STR(joined, "", "well-known types");
}

static void
test_groups(void)
{
	/* Wire keeps proto2 groups apart from fields and nested types */
	DIFFS(P2 "message M { optional int32 a = 1; optional group G = 2 { optional int32 x = 3; } }\n",
		  P2 "message M { optional int32 a = 1; }\n",
		  "", "a group is not diffed");
}

static void
test_full_and_transitive(void)
{
	const char *v1 = P3 "message M { int32 a = 1; int32 b = 2; }\n";
	const char *v2 = P3 "message M { oneof o { int32 a = 1; int32 b = 2; } }\n";

	LEVEL_FAIL(RG_COMPAT_FULL, v2, v1,
			   "{errorType:\"MULTIPLE_FIELDS_MOVED_TO_ONEOF\", description:\"Multiple fields in the oneof at path '#/M/o' in the new schema are outside a oneof in the old schema\"}",
			   "FULL: only the backward half fails");
	LEVEL_FAIL(RG_COMPAT_FULL, one_field("sint32"), one_field("int32"),
			   "{errorType:\"FIELD_SCALAR_KIND_CHANGED\", description:\"The kind of a SCALAR field at path '#/M/1' in the old schema does not match its kind in the new schema\"} | "
			   "{errorType:\"FIELD_SCALAR_KIND_CHANGED\", description:\"The kind of a SCALAR field at path '#/M/1' in the new schema does not match its kind in the old schema\"}",
			   "FULL: forward half first, then backward");
	LEVEL_OK(RG_COMPAT_NONE, v2, v1, "NONE checks nothing");
}

/* a schema of another format is reported, not crashed on */
static void
test_not_protobuf(void)
{
	rg_error	err;
	rg_schema  *avro = rg_format_avro.parse("\"int\"", 5, NULL, 0, false, &err);
	rg_schema  *proto = parse_refs(P3 "message M { int32 a = 1; }\n", NULL, 0);
	rg_arena   *arena = rg_arena_create();
	rg_strlist	out;
	bool		ok;

	rg_strlist_init(&out, arena);
	ok = avro && proto && rg_protobuf_can_read(proto, avro, &out);
	RG_CHECK(!ok && out.n == 1, "an Avro writer is refused");
	if (out.n == 1)
		RG_CHECK_STR(out.items[0], "Unexpected exception during compatibility check: schema not parsed",
					 "an Avro writer: message");
	rg_arena_destroy(arena);
	rg_schema_free(avro);
	rg_schema_free(proto);
}

int
main(void)
{
	test_identical();
	test_package();
	test_messages();
	test_hashset_order();
	test_enums();
	test_fields_added_removed();
	test_required();
	test_kinds();
	test_scalar_groups();
	test_labels();
	test_oneofs();
	test_nested();
	test_recursive();
	test_maps();
	test_references();
	test_groups();
	test_full_and_transitive();
	test_not_protobuf();
	return rg_test_done();
}
