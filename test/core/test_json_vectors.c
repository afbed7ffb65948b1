/*-------------------------------------------------------------------------
 *
 * test_json_vectors.c
 *	  Runs the JSON Schema compatibility vectors of
 *	  test/core/vectors/json_compat.txt: for every case, the original
 *	  (writer) and the update (reader) schema are parsed and
 *	  rg_json_can_read(update, original) and rg_json_can_read_lenient are
 *	  asked; the incompatibilities each reports must be exactly the ones
 *	  the case expects, in Confluent's words.  STRICT is asked again with
 *	  both schemas parsed with normalize=true.  The file's format is
 *	  described at its top.
 *
 * Usage: test_json_vectors [path-to-json_compat.txt]
 *
 * Without an argument the file is looked up as vectors/json_compat.txt in
 * the directory the test binary is in (test/core).
 *
 *-------------------------------------------------------------------------
 */
#include <ctype.h>
#include <libgen.h>

#include "rg_test.h"
#include "rg_jsonschema.h"

/*
 * Weak, so that the runner links before the format is complete; a missing
 * LENIENT check fails its cases.
 */
extern bool rg_json_can_read_lenient(const rg_schema *reader,
									 const rg_schema *writer,
									 rg_strlist *out) __attribute__((weak));

#define MAX_CASES 1024
#define MAX_EXPECT 32
#define MAX_REFS 8
#define PATH_MAX_LEN 8192		/* a message's path, recursive ones are long */

/* one expected incompatibility: its errorType and, if given, its path */
struct expect_item
{
	char		type[80];
	char		path[256];		/* "" when not checked */
};

/* the expected answer under one policy */
struct expectation
{
	bool		given;
	bool		types_only;		/* "~": the set of distinct types only */
	int			n;
	struct expect_item items[MAX_EXPECT];
};

/* the references of one side: name and schema text, in dependency order */
struct ref_list
{
	int			n;
	char	   *names[MAX_REFS];
	char	   *texts[MAX_REFS];
};

/* one case of the file */
typedef struct vector_case
{
	char		name[128];
	int			line;
	char	   *original;
	char	   *update;
	struct ref_list original_refs;
	struct ref_list update_refs;
	struct expectation strict;
	struct expectation lenient;
	struct expectation normalized;	/* STRICT, both parsed normalized */
	char	   *known;			/* reason of a known failure, or NULL */
} vector_case;

/* the difference types LENIENT accepts beyond STRICT */
static const char *const lenient_extra[] = {
	"ADDITIONAL_PROPERTIES_NARROWED",
	"ADDITIONAL_PROPERTIES_REMOVED",
	"UNEVALUATED_PROPERTIES_NARROWED",
	"UNEVALUATED_PROPERTIES_REMOVED",
	"REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL",
	"OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL",
	"PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL",
	"PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL",
	"PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL",
	NULL
};

/*
 * Confluent's description of each incompatible difference type, "@" where
 * the path goes (Difference.error(): one text per group of types; "" for
 * a type in no group).  The two "%s" are the roles the level driver fills.
 */
#define KEYWORD_ABSENT "The keyword at path '@' in the %s schema is not present in the %s schema"
#define VALUE_MORE "The value at path '@' in the %s schema is more than its value in the %s schema"
#define VALUE_LESS "The value at path '@' in the %s schema is less than its value in the %s schema"
#define VALUE_DIFFERENT "The value at path '@' is different between the %s and %s schema"
#define FEWER_ELEMENTS "An array or combined type at path '@' has fewer elements in the %s schema than the %s schema"
#define MORE_ELEMENTS "An array or combined type at path '@' has more elements in the %s schema than the %s schema"
#define TYPE_DIFFERENT "A type at path '@' is different between the %s schema and the %s schema"
#define ADDED_TO_OPEN "The %s schema has an open content model and has a property or item at path '@' which is missing in the %s schema"

static const struct
{
	const char *type;
	const char *description;
}			descriptions[] = {
	{"SCHEMA_ADDED", ""},
	{"TYPE_NARROWED", TYPE_DIFFERENT},
	{"TYPE_CHANGED", TYPE_DIFFERENT},
	{"MAX_LENGTH_ADDED", KEYWORD_ABSENT},
	{"MAX_LENGTH_DECREASED", VALUE_LESS},
	{"MIN_LENGTH_ADDED", KEYWORD_ABSENT},
	{"MIN_LENGTH_INCREASED", VALUE_MORE},
	{"PATTERN_ADDED", KEYWORD_ABSENT},
	{"PATTERN_CHANGED", VALUE_DIFFERENT},
	{"MAXIMUM_ADDED", KEYWORD_ABSENT},
	{"MAXIMUM_DECREASED", VALUE_LESS},
	{"MINIMUM_ADDED", KEYWORD_ABSENT},
	{"MINIMUM_INCREASED", VALUE_MORE},
	{"EXCLUSIVE_MAXIMUM_ADDED", KEYWORD_ABSENT},
	{"EXCLUSIVE_MAXIMUM_DECREASED", VALUE_LESS},
	{"EXCLUSIVE_MINIMUM_ADDED", KEYWORD_ABSENT},
	{"EXCLUSIVE_MINIMUM_INCREASED", VALUE_MORE},
	{"MULTIPLE_OF_ADDED", KEYWORD_ABSENT},
	{"MULTIPLE_OF_EXPANDED", VALUE_MORE},
	{"MULTIPLE_OF_CHANGED", VALUE_DIFFERENT},
	{"REQUIRED_ATTRIBUTE_ADDED", KEYWORD_ABSENT},
	{"MAX_PROPERTIES_ADDED", KEYWORD_ABSENT},
	{"MAX_PROPERTIES_DECREASED", VALUE_LESS},
	{"MIN_PROPERTIES_ADDED", KEYWORD_ABSENT},
	{"MIN_PROPERTIES_INCREASED", VALUE_MORE},
	{"ADDITIONAL_PROPERTIES_REMOVED", KEYWORD_ABSENT},
	{"ADDITIONAL_PROPERTIES_NARROWED", FEWER_ELEMENTS},
	{"DEPENDENCY_ARRAY_ADDED", KEYWORD_ABSENT},
	{"DEPENDENCY_ARRAY_EXTENDED", MORE_ELEMENTS},
	{"DEPENDENCY_ARRAY_CHANGED", VALUE_DIFFERENT},
	{"DEPENDENCY_SCHEMA_ADDED", KEYWORD_ABSENT},
	{"REQUIRED_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL", ADDED_TO_OPEN},
	{"REQUIRED_PROPERTY_WITH_DEFAULT_ADDED_TO_OPEN_CONTENT_MODEL", ADDED_TO_OPEN},
	{"OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL", ADDED_TO_OPEN},
	{"REQUIRED_PROPERTY_ADDED_TO_UNOPEN_CONTENT_MODEL",
	"The %s schema has an unopen content model and has a required property at path '@' which is missing in the %s schema"},
	{"PROPERTY_REMOVED_FROM_CLOSED_CONTENT_MODEL",
	"The %s schema has a closed content model and is missing a property or item present at path '@' in the %s schema"},
	{"PROPERTY_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL",
	"A property or item is missing in the %s schema but present at path '@' in the %s schema and is not covered by its partially open content model"},
	{"PROPERTY_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL",
	"The %s schema has a property or item at path '@' which is missing in the %s schema and is not covered by its partially open content model"},
	{"UNEVALUATED_PROPERTIES_REMOVED", KEYWORD_ABSENT},
	{"UNEVALUATED_PROPERTIES_NARROWED", FEWER_ELEMENTS},
	{"MAX_ITEMS_ADDED", KEYWORD_ABSENT},
	{"MAX_ITEMS_DECREASED", VALUE_LESS},
	{"MIN_ITEMS_ADDED", KEYWORD_ABSENT},
	{"MIN_ITEMS_INCREASED", VALUE_MORE},
	{"MAX_CONTAINS_ADDED", KEYWORD_ABSENT},
	{"MAX_CONTAINS_DECREASED", VALUE_LESS},
	{"MIN_CONTAINS_ADDED", KEYWORD_ABSENT},
	{"MIN_CONTAINS_INCREASED", VALUE_MORE},
	{"UNIQUE_ITEMS_ADDED", KEYWORD_ABSENT},
	{"ADDITIONAL_ITEMS_REMOVED", KEYWORD_ABSENT},
	{"ADDITIONAL_ITEMS_NARROWED", FEWER_ELEMENTS},
	{"UNEVALUATED_ITEMS_REMOVED", KEYWORD_ABSENT},
	{"UNEVALUATED_ITEMS_NARROWED", FEWER_ELEMENTS},
	{"ITEM_ADDED_TO_OPEN_CONTENT_MODEL", ADDED_TO_OPEN},
	{"ITEM_REMOVED_FROM_CLOSED_CONTENT_MODEL",
	"The %s schema has a closed content model and is missing a property or item present at path '@' in the %s schema"},
	{"ITEM_REMOVED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL",
	"A property or item is missing in the %s schema but present at path '@' in the %s schema and is not covered by its partially open content model"},
	{"ITEM_ADDED_NOT_COVERED_BY_PARTIALLY_OPEN_CONTENT_MODEL",
	"The %s schema has a property or item at path '@' which is missing in the %s schema and is not covered by its partially open content model"},
	{"ENUM_ARRAY_NARROWED", FEWER_ELEMENTS},
	{"ENUM_ARRAY_CHANGED", TYPE_DIFFERENT},
	{"COMBINED_TYPE_CHANGED", TYPE_DIFFERENT},
	{"PRODUCT_TYPE_EXTENDED", MORE_ELEMENTS},
	{"SUM_TYPE_NARROWED", FEWER_ELEMENTS},
	{"COMBINED_TYPE_SUBSCHEMAS_CHANGED", TYPE_DIFFERENT},
	{"NOT_TYPE_EXTENDED", MORE_ELEMENTS},
};

/* value, a space, text: a schema continued on the next line (value is freed) */
static char *
join_continuation(char *value, const char *text)
{
	char	   *joined = malloc(strlen(value) + strlen(text) + 2);

	if (joined)
		sprintf(joined, "%s %s", value, text);
	free(value);
	return joined;
}

/* Cut the line end and trailing blanks off a line read by fgets. */
static void
trim_line(char *line)
{
	char	   *end;

	line[strcspn(line, "\r\n")] = '\0';
	end = line + strlen(line);
	while (end > line && end[-1] == ' ')
		*--end = '\0';
}

/* Is the type one LENIENT accepts although STRICT does not? */
static bool
lenient_accepts(const char *type)
{
	int			i;

	for (i = 0; lenient_extra[i]; i++)
		if (strcmp(lenient_extra[i], type) == 0)
			return true;
	return false;
}

/*
 * Parse "compatible" or "[~] TYPE[@path] ..." into e; false on a malformed
 * line.
 */
static bool
parse_expectation(const char *text, struct expectation *e)
{
	const char *p = text;

	memset(e, 0, sizeof(*e));
	e->given = true;
	while (*p == ' ')
		p++;
	if (strcmp(p, "compatible") == 0)
		return true;
	if (*p == '~')
	{
		e->types_only = true;
		p++;
	}
	while (*p)
	{
		const char *start;
		size_t		len;
		const char *at;

		while (*p == ' ')
			p++;
		if (*p == '\0')
			break;
		start = p;
		while (*p && *p != ' ')
			p++;
		len = p - start;
		if (e->n >= MAX_EXPECT)
			return false;
		at = memchr(start, '@', len);
		if (at)
		{
			snprintf(e->items[e->n].type, sizeof(e->items[e->n].type), "%.*s",
					 (int) (at - start), start);
			snprintf(e->items[e->n].path, sizeof(e->items[e->n].path), "%.*s",
					 (int) (len - (at - start) - 1), at + 1);
		}
		else
			snprintf(e->items[e->n].type, sizeof(e->items[e->n].type), "%.*s",
					 (int) len, start);
		if (!isupper((unsigned char) e->items[e->n].type[0]))
			return false;
		e->n++;
	}
	return e->n > 0;
}

/* The LENIENT expectation a STRICT one implies: its lenient-accepted types dropped. */
static void
derive_lenient(const struct expectation *strict, struct expectation *lenient)
{
	int			i;

	memset(lenient, 0, sizeof(*lenient));
	lenient->given = true;
	lenient->types_only = strict->types_only;
	for (i = 0; i < strict->n; i++)
		if (!lenient_accepts(strict->items[i].type))
			lenient->items[lenient->n++] = strict->items[i];
}

/* Add "NAME JSON" to a side's references; its text is where continuations go. */
static bool
add_ref(struct ref_list *refs, const char *value, char ***last)
{
	const char *sp = strchr(value, ' ');

	if (sp == NULL || refs->n >= MAX_REFS)
		return false;
	refs->names[refs->n] = malloc(sp - value + 1);
	if (refs->names[refs->n] == NULL)
		return false;
	memcpy(refs->names[refs->n], value, sp - value);
	refs->names[refs->n][sp - value] = '\0';
	refs->texts[refs->n] = strdup(sp + 1);
	*last = &refs->texts[refs->n];
	refs->n++;
	return true;
}

/*
 * Store one "key value" line of the current case; false if malformed.
 * *last is set to the field a continuation line extends (NULL if none).
 */
static bool
set_field(vector_case *c, const char *key, const char *value, char ***last)
{
	*last = NULL;
	if (strcmp(key, "oldref") == 0)
		return add_ref(&c->original_refs, value, last);
	if (strcmp(key, "newref") == 0)
		return add_ref(&c->update_refs, value, last);
	if (strcmp(key, "old") == 0)
	{
		c->original = strdup(value);
		*last = &c->original;
		return true;
	}
	if (strcmp(key, "new") == 0)
	{
		c->update = strdup(value);
		*last = &c->update;
		return true;
	}
	if (strcmp(key, "strict") == 0)
		return parse_expectation(value, &c->strict);
	if (strcmp(key, "lenient") == 0)
		return parse_expectation(value, &c->lenient);
	if (strcmp(key, "normalized") == 0)
		return parse_expectation(value, &c->normalized);
	if (strcmp(key, "known") == 0)
	{
		c->known = strdup(value);
		return true;
	}
	return false;
}

/*
 * Read the cases of f; a malformed line is reported as a failed check.
 * Lines starting with "#" and blank lines are comments; a line starting
 * with white space continues the previous schema.
 */
static int
read_cases(FILE *f, vector_case *cases)
{
	char		line[16384];
	int			n = -1;
	int			lineno = 0;
	char	  **last = NULL;

	while (fgets(line, sizeof(line), f))
	{
		char	   *sp;

		lineno++;
		trim_line(line);
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if ((line[0] == ' ' || line[0] == '\t') && n >= 0 && last)
		{
			char	   *t = line;

			while (*t == ' ' || *t == '\t')
				t++;
			*last = join_continuation(*last, t);
			continue;
		}
		sp = strchr(line, ' ');
		if (sp)
			*sp++ = '\0';
		if (strcmp(line, "case") == 0)
		{
			if (n + 1 >= MAX_CASES)
				break;
			n++;
			memset(&cases[n], 0, sizeof(vector_case));
			snprintf(cases[n].name, sizeof(cases[n].name), "%s", sp ? sp : "?");
			cases[n].line = lineno;
			last = NULL;
			continue;
		}
		if (n < 0 || sp == NULL || !set_field(&cases[n], line, sp, &last))
		{
			RG_CHECK(0, "line %d of the vectors file is well-formed", lineno);
			last = NULL;
			continue;
		}
	}
	return n + 1;
}

/* The errorType of a message, or "" if it has none. */
static void
message_type(const char *msg, char *out, size_t size)
{
	const char *p = strstr(msg, "{errorType:\"");
	const char *q;

	out[0] = '\0';
	if (p != msg)
		return;
	p += strlen("{errorType:\"");
	q = strchr(p, '"');
	if (q)
		snprintf(out, size, "%.*s", (int) (q - p), p);
}

/* The first '#...' path quoted in the message's description, or "". */
static void
message_path(const char *msg, char *out, size_t size)
{
	const char *p = strstr(msg, "'#");
	const char *q;

	out[0] = '\0';
	if (p == NULL)
		return;
	p++;
	q = strchr(p, '\'');
	if (q)
		snprintf(out, size, "%.*s", (int) (q - p), p);
}

/* Render the messages' "TYPE@path" list into buf. */
static void
render_got(const rg_strlist *out, char *buf, size_t size)
{
	int			i;

	buf[0] = '\0';
	for (i = 0; i < out->n; i++)
	{
		char		type[128];
		char		path[PATH_MAX_LEN];
		size_t		len = strlen(buf);

		message_type(out->items[i], type, sizeof(type));
		message_path(out->items[i], path, sizeof(path));
		snprintf(buf + len, size - len, "%s%s%s%s", i ? " " : "",
				 type[0] ? type : out->items[i], path[0] ? "@" : "", path);
	}
	if (out->n == 0)
		snprintf(buf, size, "compatible");
}

/* Render an expectation like its line in the file. */
static void
render_want(const struct expectation *e, char *buf, size_t size)
{
	int			i;

	buf[0] = '\0';
	if (e->n == 0)
	{
		snprintf(buf, size, "compatible");
		return;
	}
	if (e->types_only)
		snprintf(buf, size, "~ ");
	for (i = 0; i < e->n; i++)
	{
		size_t		len = strlen(buf);

		snprintf(buf + len, size - len, "%s%s%s%s", i ? " " : "", e->items[i].type,
				 e->items[i].path[0] ? "@" : "", e->items[i].path);
	}
}

/*
 * The message Confluent writes for a difference of that type at that path,
 * into buf; false for a type that is not an incompatible one.
 */
static bool
confluent_message(const char *type, const char *path, char *buf, size_t size)
{
	size_t		i;

	for (i = 0; i < sizeof(descriptions) / sizeof(descriptions[0]); i++)
	{
		const char *d = descriptions[i].description;
		const char *at = strchr(d, '@');

		if (strcmp(descriptions[i].type, type) != 0)
			continue;
		if (at)
			snprintf(buf, size, "{errorType:\"%s\", description:\"%.*s%s%s\"}",
					 type, (int) (at - d), d, path, at + 1);
		else
			snprintf(buf, size, "{errorType:\"%s\", description:\"%s\"}", type, d);
		return true;
	}
	return false;
}

/*
 * Is every message, word for word, the one Confluent writes for its type
 * and path?  The first that is not goes to *bad.
 */
static bool
messages_exact(const rg_strlist *out, const char **bad)
{
	int			i;

	for (i = 0; i < out->n; i++)
	{
		char		type[128];
		char		path[PATH_MAX_LEN];
		char		want[PATH_MAX_LEN + 512];

		message_type(out->items[i], type, sizeof(type));
		message_path(out->items[i], path, sizeof(path));
		if (!confluent_message(type, path, want, sizeof(want)) ||
			strcmp(want, out->items[i]) != 0)
		{
			*bad = out->items[i];
			return false;
		}
	}
	return true;
}

/* Is every type of e among the messages' types, and every message type in e? */
static bool
match_types_only(const struct expectation *e, const rg_strlist *out)
{
	int			i,
				j;

	for (i = 0; i < out->n; i++)
	{
		char		type[128];
		bool		found = false;

		message_type(out->items[i], type, sizeof(type));
		for (j = 0; j < e->n && !found; j++)
			found = strcmp(type, e->items[j].type) == 0;
		if (!found)
			return false;
	}
	for (j = 0; j < e->n; j++)
	{
		bool		found = false;

		for (i = 0; i < out->n && !found; i++)
		{
			char		type[128];

			message_type(out->items[i], type, sizeof(type));
			found = strcmp(type, e->items[j].type) == 0;
		}
		if (!found)
			return false;
	}
	return true;
}

/*
 * Is the multiset of messages exactly e?  Items with a path must match a
 * message of that type and path; items without one any message of that
 * type.  Pathed items are matched first so that a pathless one cannot take
 * the message a pathed one needs.
 */
static bool
match_exact(const struct expectation *e, const rg_strlist *out)
{
	bool		used[MAX_EXPECT * 4] = {false};
	int			pass,
				i,
				j;

	if (out->n != e->n || out->n > MAX_EXPECT * 4)
		return false;
	for (pass = 0; pass < 2; pass++)
	{
		for (j = 0; j < e->n; j++)
		{
			const struct expect_item *it = &e->items[j];
			bool		found = false;

			if ((pass == 0) != (it->path[0] != '\0'))
				continue;
			for (i = 0; i < out->n && !found; i++)
			{
				char		type[128];
				char		path[PATH_MAX_LEN];

				if (used[i])
					continue;
				message_type(out->items[i], type, sizeof(type));
				message_path(out->items[i], path, sizeof(path));
				if (strcmp(type, it->type) == 0 &&
					(it->path[0] == '\0' || strcmp(path, it->path) == 0))
				{
					used[i] = true;
					found = true;
				}
			}
			if (!found)
				return false;
		}
	}
	return true;
}

/* Run one policy of one case and report it. */
static void
check_policy(const vector_case *c, const char *policy,
			 bool (*can_read) (const rg_schema *, const rg_schema *, rg_strlist *),
			 const rg_schema *update, const rg_schema *original,
			 const struct expectation *e)
{
	rg_arena   *arena = rg_arena_create();
	rg_strlist	out;
	bool		ok;
	bool		pass;
	const char *bad = NULL;
	static char got[1 << 20];
	char		want[4096];

	rg_strlist_init(&out, arena);
	ok = can_read(update, original, &out);
	pass = ok == (out.n == 0) && messages_exact(&out, &bad) &&
		(e->types_only ? match_types_only(e, &out) : match_exact(e, &out));
	render_got(&out, got, sizeof(got));
	render_want(e, want, sizeof(want));
	if (!pass && c->known)
	{
		RG_CHECK(1, "%s %s # TODO known failing (line %d): %s; got %.300s",
				 c->name, policy, c->line, c->known, got);
	}
	else
	{
		RG_CHECK(pass, "%s %s (line %d)", c->name, policy, c->line);
		if (!pass)
			printf("#   want: %s\n#   got:  %.3000s%s\n", want, got,
				   ok == (out.n == 0) ? "" : " (verdict and messages disagree)");
		if (bad)
			printf("#   not Confluent's words: %.3000s\n", bad);
	}
	rg_arena_destroy(arena);
}

/* Parse one schema of a case, reporting a failure. */
static rg_schema *
parse_schema(const vector_case *c, const char *which, const char *text,
			 const struct ref_list *refs, bool normalize)
{
	rg_reference r[MAX_REFS];
	rg_error	err;
	rg_schema  *s;
	int			i;

	for (i = 0; i < refs->n; i++)
	{
		r[i].name = refs->names[i];
		r[i].schema = refs->texts[i];
		r[i].schema_len = strlen(refs->texts[i]);
	}
	rg_error_clear(&err);
	s = rg_json_parse(text, strlen(text), r, refs->n, normalize, &err);
	if (s == NULL)
		printf("# %s: the %s schema does not parse: %s\n", c->name, which, err.message);
	return s;
}

/*
 * The same case with both schemas parsed with normalize=true (every
 * object's keys sorted): STRICT must say what the case's "normalized" line
 * says, or else what its "strict" line says.
 */
static void
run_normalized(const vector_case *c)
{
	rg_schema  *original = parse_schema(c, "old", c->original, &c->original_refs, true);
	rg_schema  *update = parse_schema(c, "new", c->update, &c->update_refs, true);

	if (original == NULL || update == NULL)
		RG_CHECK(c->known != NULL, "%s (line %d): both schemas parse normalized",
				 c->name, c->line);
	else
		check_policy(c, "STRICT normalized", rg_json_can_read, update, original,
					 c->normalized.given ? &c->normalized : &c->strict);
	rg_schema_free(original);
	rg_schema_free(update);
}

/* log a case (test/cli's agreement test): the update reads the original */
static void
log_case(const vector_case *c)
{
	const char *up[2 * MAX_REFS];
	const char *op[2 * MAX_REFS];
	int			i;

	for (i = 0; i < c->update_refs.n; i++)
	{
		up[2 * i] = c->update_refs.names[i];
		up[2 * i + 1] = c->update_refs.texts[i];
	}
	for (i = 0; i < c->original_refs.n; i++)
	{
		op[2 * i] = c->original_refs.names[i];
		op[2 * i + 1] = c->original_refs.texts[i];
	}
	rg_test_log_case("JSON", c->update, up, c->update_refs.n,
					 c->original, op, c->original_refs.n);
}

/* Run one case under both policies. */
static void
run_case(vector_case *c)
{
	rg_schema  *original;
	rg_schema  *update;

	if (c->original == NULL || c->update == NULL || !c->strict.given)
	{
		RG_CHECK(0, "%s (line %d) has old, new and strict", c->name, c->line);
		return;
	}
	if (!c->lenient.given)
		derive_lenient(&c->strict, &c->lenient);
	log_case(c);
	original = parse_schema(c, "old", c->original, &c->original_refs, false);
	update = parse_schema(c, "new", c->update, &c->update_refs, false);
	if (original == NULL || update == NULL)
	{
		if (c->known)
			RG_CHECK(1, "%s # TODO known failing (line %d): %s; does not parse",
					 c->name, c->line, c->known);
		else
			RG_CHECK(0, "%s (line %d): both schemas parse", c->name, c->line);
	}
	else
	{
		check_policy(c, "STRICT", rg_json_can_read, update, original, &c->strict);
		if (rg_json_can_read_lenient)
			check_policy(c, "LENIENT", rg_json_can_read_lenient, update, original,
						 &c->lenient);
		else
			RG_CHECK(0, "%s LENIENT: rg_json_can_read_lenient exists", c->name);
	}
	rg_schema_free(original);
	rg_schema_free(update);
	if (original && update)
		run_normalized(c);
}

static void
free_refs(struct ref_list *refs)
{
	int			i;

	for (i = 0; i < refs->n; i++)
	{
		free(refs->names[i]);
		free(refs->texts[i]);
	}
}

/* Does the format load a document at all (not the placeholder that refuses all)? */
static bool
loader_present(void)
{
	rg_error	err;
	rg_schema  *s;

	rg_error_clear(&err);
	s = rg_json_parse("{}", 2, NULL, 0, false, &err);
	rg_schema_free(s);
	return s != NULL;
}

/* The vectors file: the argument, else json_compat.txt beside the binary. */
static FILE *
open_vectors(int argc, char **argv, char *path, size_t size)
{
	char	   *dir;

	if (argc > 1)
		snprintf(path, size, "%s", argv[1]);
	else
	{
		dir = strdup(argv[0]);
		snprintf(path, size, "%s/vectors/json_compat.txt",
				 dir && strchr(dir, '/') ? dirname(dir) : ".");
		free(dir);
	}
	return fopen(path, "r");
}

int
main(int argc, char **argv)
{
	char		path[4096];
	FILE	   *f;
	static vector_case cases[MAX_CASES];
	int			n;
	int			i;

	f = open_vectors(argc, argv, path, sizeof(path));
	RG_CHECK(f != NULL, "%s found", path);
	if (f == NULL)
		return rg_test_done();
	n = read_cases(f, cases);
	fclose(f);
	RG_CHECK(n >= 150, "at least 150 cases read (got %d)", n);
	if (!loader_present())
	{
		printf("# SKIP the JSON Schema loader refuses every document: vectors not run\n");
		return rg_test_done();
	}

	for (i = 0; i < n; i++)
		run_case(&cases[i]);

	for (i = 0; i < n; i++)
	{
		free(cases[i].original);
		free(cases[i].update);
		free(cases[i].known);
		free_refs(&cases[i].original_refs);
		free_refs(&cases[i].update_refs);
	}
	return rg_test_done();
}
