/*
 * Unit tests of JSON payloads (rg_format_json's encode and decode): the
 * official JSON-Schema-Test-Suite (Debian's json-schema-test-suite) for
 * drafts 4, 6 and 7, with the pass counts asserted and every case that
 * does not run listed with its reason; then our own cases: 2019-09 and
 * 2020-12 keywords, references to other schemas, the messages (path,
 * keyword, location), the payload's text (compact, nothing after it,
 * UTF-8), the notes, and inputs that must neither crash nor stall (deep
 * values, $ref loops, exponential combinations, long strings against
 * backtracking patterns).
 */
#include "rg_jsonschema.h"
#include "rg_test.h"

#include <dirent.h>
#include <jansson.h>
#include <time.h>

#define SUITE "/usr/share/json-schema-test-suite"

/* one draft of the suite: its directory, $schema and expected outcome */
typedef struct suite_draft
{
	const char *dir;
	const char *url;
	int			expect_passed;
	int			expect_failed;
	int			expect_skipped;
} suite_draft;

/*
 * Every case of the files in tests/draftN runs (optional/ not: formats,
 * bignums, ECMA-262 regexes); the suite's remote references
 * (http://localhost:1234/...) are given as references.  The cases that do
 * not run, 6 per draft, are listed when the test runs: the schema is
 * refused at registration, so no payload can use it:
 *	- definitions.json (2 groups) and ref.json's "remote ref, containing
 *	  refs itself" $ref the draft's meta-schema, which is no reference;
 *	- refRemote.json's "base URI change - change folder": the loader does
 *	  not resolve "folderInteger.json" against the "id": "folder/" of the
 *	  definition it is in when that definition is reached by a $ref.
 * Of draft 7's optional formats, the 20 cases that fail are the formats
 * left as annotations (uri, uri-reference, uri-template, iri,
 * iri-reference, idn-email, idn-hostname, regex): listed as such.
 */
static const suite_draft drafts[] = {
	{"draft4", "http://json-schema.org/draft-04/schema#", 314, 0, 6},
	{"draft6", "http://json-schema.org/draft-06/schema#", 399, 0, 6},
	{"draft7", "http://json-schema.org/draft-07/schema#", 417, 0, 6},
	{"draft7/optional/format", "http://json-schema.org/draft-07/schema#", 102, 20, 0},
};

/* the suite's remotes, given as references by their http://localhost:1234 URLs */
static const char *const remotes[] = {
	"integer.json", "subSchemas.json", "name.json", "folder/folderInteger.json",
};

/* Read a whole file; NULL if it cannot be read. */
static char *
read_text(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	char	   *buf;
	long		n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n + 1);
	if (buf == NULL || fread(buf, 1, n, f) != (size_t) n)
	{
		free(buf);
		fclose(f);
		return NULL;
	}
	buf[n] = '\0';
	fclose(f);
	*len = n;
	return buf;
}

/* a JSON value as compact text (malloc'd) */
static char *
dump(const json_t *v)
{
	return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(15));
}

/* Does the schema admit the data (encode), and does decode agree? */
static bool
admits(const rg_schema *s, const char *data, rg_error *err)
{
	rg_buf		out;
	rg_buf		back;
	rg_error	err2;
	bool		ok;
	bool		ok2;

	rg_buf_init(&out);
	rg_buf_init(&back);
	ok = rg_format_json.encode(s, NULL, data, strlen(data), &out, err);
	ok2 = rg_format_json.decode(s, NULL, (const uint8_t *) data, strlen(data), &back, NULL, &err2);
	if (ok != ok2 || (ok && (out.len != back.len || memcmp(out.data, back.data, out.len) != 0)))
	{
		printf("# encode and decode disagree on %s\n", data);
		ok = !ok;				/* counted as a failure of the case */
	}
	rg_buf_free(&out);
	rg_buf_free(&back);
	return ok;
}

/* counts over one draft */
typedef struct suite_counts
{
	int			passed;
	int			failed;
	int			skipped;
} suite_counts;

/* The references a group of refRemote.json needs: every remote. */
static int
remote_refs(rg_reference *refs, char **texts)
{
	int			n = 0;
	size_t		i;

	for (i = 0; i < sizeof(remotes) / sizeof(remotes[0]); i++)
	{
		char		path[512];
		char	   *name = malloc(256);
		size_t		len;

		snprintf(path, sizeof(path), "%s/remotes/%s", SUITE, remotes[i]);
		snprintf(name, 256, "http://localhost:1234/%s", remotes[i]);
		if ((texts[n] = read_text(path, &len)) == NULL)
		{
			free(name);
			continue;
		}
		refs[n].name = name;
		refs[n].schema = texts[n];
		refs[n].schema_len = len;
		n++;
	}
	return n;
}

/* One group of a suite file: its schema parsed, then each of its cases. */
static void
run_group(const suite_draft *d, const char *file, json_t *group, bool remote,
		  suite_counts *c)
{
	json_t	   *schema = json_deep_copy(json_object_get(group, "schema"));
	json_t	   *tests = json_object_get(group, "tests");
	const char *desc = json_string_value(json_object_get(group, "description"));
	rg_reference refs[8];
	char	   *texts[8];
	int			n_refs = remote ? remote_refs(refs, texts) : 0;
	char	   *text;
	rg_error	err;
	rg_schema  *s;
	size_t		i;

	if (json_is_object(schema) && json_object_get(schema, "$schema") == NULL)
		json_object_set_new(schema, "$schema", json_string(d->url));
	text = dump(schema);
	s = rg_json_parse(text, strlen(text), refs, n_refs, false, &err);
	if (s == NULL)
	{
		printf("skipped: %s/%s: \"%s\" (%zu cases): the schema is refused: %s\n",
			   d->dir, file, desc, json_array_size(tests), err.message);
		c->skipped += json_array_size(tests);
	}
	for (i = 0; s && i < json_array_size(tests); i++)
	{
		json_t	   *t = json_array_get(tests, i);
		char	   *data = dump(json_object_get(t, "data"));
		bool		want = json_is_true(json_object_get(t, "valid"));
		bool		got = admits(s, data, &err);

		if (got == want)
			c->passed++;
		else
		{
			c->failed++;
			printf("%s %s/%s: \"%s\" / \"%s\": %s, expected %s%s%s\n",
				   strstr(d->dir, "format") ? "annotation only:" : "#", d->dir, file, desc,
				   json_string_value(json_object_get(t, "description")),
				   got ? "accepted" : "refused", want ? "valid" : "invalid",
				   got ? "" : ": ", got ? "" : err.message);
		}
		free(data);
	}
	if (s)
		rg_schema_free(s);
	free(text);
	json_decref(schema);
	while (n_refs-- > 0)
	{
		free((char *) refs[n_refs].name);
		free(texts[n_refs]);
	}
}

/* name order for readdir's entries */
static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Every file of one draft's directory. */
static void
run_draft(const suite_draft *d)
{
	char		dir[512];
	DIR		   *dh;
	struct dirent *e;
	char	   *names[128];
	int			n = 0;
	int			i;
	suite_counts c = {0, 0, 0};

	snprintf(dir, sizeof(dir), "%s/tests/%s", SUITE, d->dir);
	if ((dh = opendir(dir)) == NULL)
	{
		RG_CHECK(false, "%s: the test suite is installed (%s)", d->dir, dir);
		return;
	}
	while ((e = readdir(dh)) != NULL && n < 128)
		if (strstr(e->d_name, ".json") != NULL)
			names[n++] = strdup(e->d_name);
	closedir(dh);
	qsort(names, n, sizeof(char *), by_name);
	for (i = 0; i < n; i++)
	{
		char		path[1024];
		json_error_t jerr;
		json_t	   *groups;
		size_t		g;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		groups = json_load_file(path, JSON_DECODE_ANY, &jerr);
		for (g = 0; groups && g < json_array_size(groups); g++)
			run_group(d, names[i], json_array_get(groups, g),
					  strcmp(names[i], "refRemote.json") == 0, &c);
		json_decref(groups);
		free(names[i]);
	}
	printf("# %s: %d passed, %d failed, %d skipped\n", d->dir, c.passed, c.failed, c.skipped);
	RG_CHECK(c.passed == d->expect_passed && c.failed == d->expect_failed &&
			 c.skipped == d->expect_skipped,
			 "%s of the official suite: %d passed, %d failed, %d skipped (expected %d, %d, %d)",
			 d->dir, c.passed, c.failed, c.skipped, d->expect_passed, d->expect_failed,
			 d->expect_skipped);
}


/* a case of our own: a schema, a value, and the outcome */
typedef struct own_case
{
	const char *name;
	const char *schema;
	const char *value;
	const char *want;			/* NULL: admitted; else a part of the message */
} own_case;

#define S2019 "\"$schema\":\"https://json-schema.org/draft/2019-09/schema\","
#define S2020 "\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","

static const own_case own_cases[] = {
	/* 2019-09 and 2020-12 */
	{"2020-12 prefixItems", "{" S2020 "\"prefixItems\":[{\"type\":\"integer\"},{\"type\":\"string\"}]}",
	"[1,\"a\",null]", NULL},
	{"2020-12 prefixItems refuses", "{" S2020 "\"prefixItems\":[{\"type\":\"integer\"},{\"type\":\"string\"}]}",
	"[1,2]", "$[1]: expected string, found integer (type at #/prefixItems/1)"},
	{"2020-12 items after prefixItems", "{" S2020 "\"prefixItems\":[{\"type\":\"integer\"}],\"items\":{\"type\":\"boolean\"}}",
	"[1,true,\"x\"]", "$[2]: expected boolean, found string"},
	{"2020-12 items false after prefixItems", "{" S2020 "\"prefixItems\":[{}],\"items\":false}",
	"[1,2]", "$[1]: the array allows 1 items at most (items at #)"},
	{"2020-12 items false alone", "{" S2020 "\"items\":false}", "[]", NULL},
	{"2020-12 items false alone refuses", "{" S2020 "\"items\":false}", "[1]", "$[0]"},
	{"2020-12 items schema", "{" S2020 "\"items\":{\"type\":\"integer\"}}", "[1,2.5]",
	"$[1]: expected integer, found number 2.5"},
	{"2019-09 dependentRequired", "{" S2019 "\"dependentRequired\":{\"a\":[\"b\"]}}",
	"{\"a\":1}", "the property \"a\" requires the property \"b\", which is missing"},
	{"2019-09 dependentRequired admits", "{" S2019 "\"dependentRequired\":{\"a\":[\"b\"]}}",
	"{\"b\":1}", NULL},
	{"2019-09 dependentSchemas", "{" S2019 "\"dependentSchemas\":{\"a\":{\"required\":[\"c\"]}}}",
	"{\"a\":1}", "the required property \"c\" is missing"},
	{"2020-12 minContains", "{" S2020 "\"contains\":{\"const\":1},\"minContains\":2}",
	"[1,2,3]", "1 items match the schema of contains, fewer than 2 (minContains at #)"},
	{"2020-12 maxContains", "{" S2020 "\"contains\":{\"const\":1},\"maxContains\":1}",
	"[1,1]", "2 items match the schema of contains, more than 1 (maxContains at #)"},
	{"2020-12 minContains 0", "{" S2020 "\"contains\":{\"const\":1},\"minContains\":0}", "[]", NULL},
	{"2020-12 minContains beside $defs and an unknown keyword",
		"{" S2020 "\"$defs\":{\"x\":{}},\"x-note\":1,\"contains\":{\"const\":1},\"minContains\":2,\"minItems\":1}",
	"[1]", "fewer than 2"},
	{"2020-12 $ref beside type", "{" S2020 "\"$defs\":{\"p\":{\"minimum\":0}},\"$ref\":\"#/$defs/p\",\"type\":\"integer\"}",
	"-1", "$: -1 is less than 0 (minimum at #/$defs/p)"},
	{"2020-12 const", "{" S2020 "\"const\":{\"a\":[1,2.0]}}", "{\"a\":[1.0,2]}", NULL},
	{"2020-12 const refuses", "{" S2020 "\"const\":{\"a\":[1,2]}}", "{\"a\":[1,3]}",
	"$: the value is not {\"a\":[1,2]} (const at #)"},
	{"2019-09 type array with properties", "{" S2019 "\"type\":[\"object\",\"null\"],\"properties\":{\"a\":{\"type\":\"string\"}}}",
	"{\"a\":1}", "$.a: expected string, found integer"},
	{"2019-09 type array refuses", "{" S2019 "\"type\":[\"object\",\"null\"]}", "1",
	"$: expected object or null, found integer"},
	{"2020-12 unevaluatedProperties", "{" S2020 "\"properties\":{\"a\":{}},\"unevaluatedProperties\":false}",
	"{\"a\":1,\"b\":2}", "$.b: no value is allowed here (false at #/unevaluatedProperties)"},
	{"2020-12 unevaluatedProperties sees allOf", "{" S2020 "\"allOf\":[{\"properties\":{\"b\":{}}}],\"properties\":{\"a\":{}},\"unevaluatedProperties\":false}",
	"{\"a\":1,\"b\":2}", NULL},
	{"2020-12 unevaluatedProperties after type and allOf", "{" S2020 "\"type\":\"object\",\"allOf\":[{\"properties\":{\"b\":{}}}],\"unevaluatedProperties\":false}",
	"{\"b\":2}", NULL},
	{"2020-12 unevaluatedProperties after allOf", "{" S2020 "\"type\":\"object\",\"allOf\":[{\"properties\":{\"b\":{}}}],\"unevaluatedProperties\":false}",
	"{\"b\":2,\"c\":3}", "$.c: no value is allowed here"},
	{"2020-12 unevaluatedProperties sees a $ref beside $defs", "{" S2020 "\"$defs\":{\"base\":{\"properties\":{\"b\":{}}}},\"$ref\":\"#/$defs/base\",\"properties\":{\"a\":{}},\"unevaluatedProperties\":false}",
	"{\"a\":1,\"b\":2}", NULL},
	{"2020-12 unevaluatedProperties beside $defs refuses", "{" S2020 "\"$defs\":{\"base\":{\"properties\":{\"b\":{}}}},\"$ref\":\"#/$defs/base\",\"properties\":{\"a\":{}},\"unevaluatedProperties\":false}",
	"{\"a\":1,\"c\":2}", "$.c: no value is allowed here"},
	{"2020-12 unevaluatedProperties: every matching anyOf branch", "{" S2020 "\"anyOf\":[{\"properties\":{\"a\":{\"type\":\"string\"}},\"required\":[\"a\"]},{\"properties\":{\"b\":{}},\"required\":[\"b\"]}],\"unevaluatedProperties\":false}",
	"{\"a\":\"x\",\"b\":1}", NULL},
	{"2020-12 unevaluatedProperties: not a failing branch's", "{" S2020 "\"anyOf\":[{\"properties\":{\"a\":{\"type\":\"string\"}},\"required\":[\"a\"]},{\"properties\":{\"b\":{}},\"required\":[\"b\"]}],\"unevaluatedProperties\":false}",
	"{\"a\":1,\"b\":1}", "$.a: no value is allowed here"},
	{"2020-12 unevaluatedProperties: if that matched", "{" S2020 "\"if\":{\"properties\":{\"t\":{\"const\":1}}},\"then\":{\"properties\":{\"x\":{}}},\"unevaluatedProperties\":false}",
	"{\"t\":1,\"x\":2}", NULL},
	{"2020-12 unevaluatedProperties: not an if that failed", "{" S2020 "\"if\":{\"properties\":{\"t\":{\"const\":1}}},\"then\":{\"properties\":{\"x\":{}}},\"unevaluatedProperties\":false}",
	"{\"t\":2}", "$.t: no value is allowed here"},
	{"2020-12 unevaluatedProperties with a type array", "{" S2020 "\"type\":[\"object\",\"null\"],\"properties\":{\"a\":{}},\"unevaluatedProperties\":{\"type\":\"integer\"}}",
	"{\"a\":\"s\",\"b\":\"t\"}", "$.b: expected integer, found string"},
	{"2020-12 unevaluatedProperties nested", "{" S2020 "\"properties\":{\"o\":{\"properties\":{\"i\":{}},\"unevaluatedProperties\":false}},\"unevaluatedProperties\":false}",
	"{\"o\":{\"i\":1,\"j\":2}}", "$.o.j: no value is allowed here"},
	{"2020-12 unevaluatedItems", "{" S2020 "\"prefixItems\":[{\"type\":\"integer\"}],\"unevaluatedItems\":false}",
	"[1,2]", "$[1]: no value is allowed here (false at #/unevaluatedItems)"},
	{"2020-12 unevaluatedItems sees contains", "{" S2020 "\"contains\":{\"type\":\"string\"},\"unevaluatedItems\":{\"type\":\"integer\"}}",
	"[\"a\",1,\"b\"]", NULL},
	{"2020-12 unevaluatedItems refuses", "{" S2020 "\"contains\":{\"type\":\"string\"},\"unevaluatedItems\":{\"type\":\"integer\"}}",
	"[\"a\",true]", "$[1]: expected integer, found boolean"},
	{"2020-12 propertyNames", "{" S2020 "\"propertyNames\":{\"maxLength\":2}}", "{\"abc\":1}",
	"$.abc: the string is 3 characters long, longer than 2"},
	{"2020-12 if then else", "{" S2020 "\"if\":{\"type\":\"string\"},\"then\":{\"minLength\":2},\"else\":{\"minimum\":5}}",
	"3", "3 is less than 5"},

	/* messages: the path, the keyword, the location */
	{"a nested path", "{\"properties\":{\"address\":{\"properties\":{\"zip\":{\"type\":\"integer\"}}}}}",
		"{\"address\":{\"zip\":\"x\"}}",
	"$.address.zip: expected integer, found string (type at #/properties/address/properties/zip)"},
	{"an odd member name", "{\"additionalProperties\":{\"type\":\"integer\"}}", "{\"a b\":true}",
	"$[\"a b\"]: expected integer, found boolean"},
	{"additionalProperties false", "{\"properties\":{\"a\":{}},\"additionalProperties\":false}",
	"{\"a\":1,\"b\":2}", "$.b: the property is not allowed (additionalProperties at #)"},
	{"required", "{\"type\":\"object\",\"required\":[\"id\"]}", "{}",
	"$: the required property \"id\" is missing (required at #)"},
	{"enum", "{\"enum\":[\"a\",\"b\"]}", "\"c\"", "$: the value is none of the enum's 2 values (enum at #)"},
	{"oneOf twice", "{\"oneOf\":[{\"type\":\"integer\"},{\"minimum\":0}]}", "1",
	"the value matches more than one of the oneOf subschemas (0 and 1)"},
	{"anyOf of one type's branch", "{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"object\",\"required\":[\"k\"]}]}",
	"{}", "$: the required property \"k\" is missing"},
	{"not", "{\"not\":{\"type\":\"string\"}}", "\"s\"", "$: the value matches the schema of not (not at #)"},
	{"false schema", "{\"properties\":{\"a\":false}}", "{\"a\":1}", "$.a: no value is allowed here (false at #/properties/a)"},
	{"multipleOf", "{\"multipleOf\":0.01}", "0.075", "0.075 is not a multiple of 0.01"},
	{"multipleOf decimal", "{\"multipleOf\":0.01}", "0.07", NULL},
	{"multipleOf big integers", "{\"multipleOf\":3}", "9007199254740993", NULL},
	{"integer 1.0", "{\"type\":\"integer\"}", "1.0", NULL},
	{"integer 1e2", "{\"type\":\"integer\"}", "1e2", NULL},
	{"integer 1.5e0", "{\"type\":\"integer\"}", "1.5e0", "expected integer, found number 1.5e0"},
	{"integer 15e-1", "{\"type\":\"integer\"}", "15e-1", "expected integer"},
	{"draft 4 exclusiveMaximum", "{\"$schema\":\"http://json-schema.org/draft-04/schema#\",\"maximum\":3,\"exclusiveMaximum\":true}",
	"3", "3 is greater than or equal to 3 (exclusiveMaximum at #)"},
	{"uniqueItems", "{\"uniqueItems\":true}", "[{\"a\":1,\"b\":[1]},2,{\"b\":[1.0],\"a\":1}]",
	"$: items 0 and 2 are equal (uniqueItems at #)"},
	{"pattern", "{\"pattern\":\"^[a-z]+\\\\d{2}$\"}", "\"abc12\"", NULL},
	{"pattern refuses", "{\"pattern\":\"^[a-z]+\\\\d{2}$\"}", "\"abc123\"",
	"$: the string does not match the pattern \"^[a-z]+\\d{2}$\" (pattern at #)"},
	{"pattern searches", "{\"pattern\":\"b+\"}", "\"abbc\"", NULL},
	{"pattern: $ before a final newline (Java)", "{\"pattern\":\"^a$\"}", "\"a\\n\"", NULL},
	{"pattern: classes and alternation", "{\"pattern\":\"^(?:[A-Z][^\\\\s,]*|x{2,3})(,|$)\"}", "\"xxx,\"", NULL},
	{"patternProperties", "{\"patternProperties\":{\"^n_\":{\"type\":\"number\"}},\"additionalProperties\":false}",
	"{\"n_a\":1,\"s\":2}", "$.s: the property is not allowed"},
	{"a pattern the matcher cannot check", "{\"pattern\":\"a(?=b)\"}", "\"ab\"",
	"the pattern \"a(?=b)\" at # cannot be checked: it uses a lookaround"},
	{"a back reference", "{\"pattern\":\"(a)\\\\1\"}", "\"aa\"", "cannot be checked"},
	{"format date-time", "{\"format\":\"date-time\"}", "\"2024-02-30T10:00:00Z\"",
	"$: the string is no valid date-time (format at #)"},
	{"format date-time admits", "{\"format\":\"date-time\"}", "\"2024-02-29T23:59:60.5+05:30\"", NULL},
	{"format ipv6", "{\"format\":\"ipv6\"}", "\"::ffff:192.0.2.1\"", NULL},
	{"format ipv4 refuses", "{\"format\":\"ipv4\"}", "\"256.1.1.1\"", "no valid ipv4"},
	{"format only of strings", "{\"format\":\"email\"}", "12", NULL},
	{"an unknown format is an annotation", "{\"format\":\"x-mine\"}", "\"anything\"", NULL},
	{"2020-12 formats are annotations", "{" S2020 "\"format\":\"date\"}", "\"not a date\"", NULL},
	{"pattern: a negated class with escapes", "{\"pattern\":\"^[^\\\\d\\\\s-]+$\"}", "\"ab_c\"", NULL},
	{"pattern: a negated class refuses", "{\"pattern\":\"^[^\\\\d\\\\s-]+$\"}", "\"ab-c\"", "does not match"},
	{"pattern: counted repetition", "{\"pattern\":\"^a{2}b{1,}c{0,2}$\"}", "\"aabbbcc\"", NULL},
	{"pattern: counted repetition refuses", "{\"pattern\":\"^a{2}b{1,}c{0,2}$\"}", "\"aabccc\"", "does not match"},
	{"pattern: a word boundary", "{\"pattern\":\"\\\\bcat\\\\b\"}", "\"a cat.\"", NULL},
	{"pattern: not a word boundary", "{\"pattern\":\"\\\\bcat\\\\b\"}", "\"concatenate\"", "does not match"},
	{"pattern: unicode escapes and dot", "{\"pattern\":\"^\\\\u00e9.\\\\x41$\"}", "\"\\u00e9\\u4e2dA\"", NULL},
	{"pattern: dot is no line terminator", "{\"pattern\":\"^a.b$\"}", "\"a\\nb\"", "does not match"},
	{"pattern: an escaped brace", "{\"pattern\":\"^x\\\\{a\\\\}$\"}", "\"x{a}\"", NULL},
	{"pattern: a named group and lazy quantifiers", "{\"pattern\":\"^(?<n>[a-z]+?)-\\\\d*?$\"}", "\"ab-12\"", NULL},
	{"string length in code points", "{\"maxLength\":2}", "\"\\u00e9\\u00e9\"", NULL},
	{"a string with a lone surrogate", "{\"type\":\"string\"}", "\"\\ud800\"", NULL},
};

/* a reference case: the main schema refers to another subject's schema */
static void
test_references(void)
{
	bool		ok;
	const char *address = "{\"type\":\"object\",\"properties\":{\"zip\":{\"type\":\"integer\"}},\"required\":[\"zip\"]}";
	const char *main_text = "{\"type\":\"object\",\"properties\":{\"home\":{\"$ref\":\"address.json\"}}}";
	rg_reference ref = {"address.json", address, strlen(address)};
	rg_error	err;
	rg_schema  *s = rg_json_parse(main_text, strlen(main_text), &ref, 1, false, &err);
	rg_buf		out;

	RG_CHECK(s != NULL, "a schema with a reference parses");
	if (s == NULL)
		return;
	rg_buf_init(&out);
	ok = rg_format_json.encode(s, NULL, "{\"home\":{\"zip\":1}}", 18, &out, &err);
	RG_CHECK(ok,
			 "the referenced schema admits its value");
	ok = !rg_format_json.encode(s, NULL, "{\"home\":{}}", 11, &out, &err) && err.code == RG_ERR_INVALID_VALUE && strstr(err.message, "$.home: the required property \"zip\" is missing (required at address.json#)") != NULL;
	RG_CHECK(ok,
			 "the referenced schema refuses: %s", err.message);
	rg_buf_free(&out);
	rg_schema_free(s);
}

/* The message of encoding value against schema text ("" when admitted, "PARSE: ..." when refused). */
static const char *
encode_message(const char *schema, const char *value, rg_errcode *code)
{
	static char msg[RG_ERROR_MAX + 16];
	rg_error	err;
	rg_schema  *s = rg_json_parse(schema, strlen(schema), NULL, 0, false, &err);
	rg_buf		out;

	*code = RG_OK;
	if (s == NULL)
	{
		snprintf(msg, sizeof(msg), "PARSE: %s", err.message);
		return msg;
	}
	rg_buf_init(&out);
	if (rg_format_json.encode(s, NULL, value, strlen(value), &out, &err))
		msg[0] = '\0';
	else
	{
		*code = err.code;
		snprintf(msg, sizeof(msg), "%s", err.message);
	}
	rg_buf_free(&out);
	rg_schema_free(s);
	return msg;
}

/* Our own cases of the table. */
static void
test_own_cases(void)
{
	size_t		i;

	for (i = 0; i < sizeof(own_cases) / sizeof(own_cases[0]); i++)
	{
		const own_case *c = &own_cases[i];
		rg_errcode	code;
		const char *msg = encode_message(c->schema, c->value, &code);

		if (c->want == NULL)
			RG_CHECK(msg[0] == '\0', "%s: admitted%s%s", c->name, msg[0] ? ": " : "", msg);
		else
		{
			bool		ok = code == RG_ERR_INVALID_VALUE && strstr(msg, c->want) != NULL;

			RG_CHECK(ok, "%s: refused", c->name);
			if (!ok)
				printf("#   got:  %s\n#   want: %s\n", msg, c->want);
		}
	}
}

/* The payload's text: compact, numbers and strings as written, one value only. */
static void
test_text(void)
{
	bool		ok;
	const char *schema = "{}";
	rg_error	err;
	rg_schema  *s = rg_json_parse(schema, 2, NULL, 0, false, &err);
	rg_buf		out;
	const char *in = " { \"a\" : 1.50 , \"b\" : [ 1 , 2e3 , \"\\u00e9\\n\" ] , \"a\" : -0 } ";

	rg_buf_init(&out);
	ok = rg_format_json.encode(s, NULL, in, strlen(in), &out, &err);
	RG_CHECK(ok, "encode admits any value against {}");
	rg_buf_putc(&out, '\0');
	RG_CHECK_STR(out.data, "{\"a\":-0,\"b\":[1,2e3,\"\xc3\xa9\\n\"]}", "the payload is compact (a repeated key: its first place, its last value)");
	rg_buf_free(&out);

	rg_buf_init(&out);
	ok = !rg_format_json.encode(s, NULL, "{} {}", 5, &out, &err) && err.code == RG_ERR_INVALID_VALUE && strstr(err.message, "Invalid JSON") != NULL;
	RG_CHECK(ok,
			 "encode refuses a value followed by another: %s", err.message);
	ok = !rg_format_json.decode(s, NULL, (const uint8_t *) "1 x", 3, &out, NULL, &err) && err.code == RG_ERR_INVALID_PAYLOAD;
	RG_CHECK(ok,
			 "decode refuses trailing bytes: %s", err.message);
	ok = !rg_format_json.decode(s, NULL, (const uint8_t *) "\"\xff\"", 3, &out, NULL, &err) && err.code == RG_ERR_INVALID_PAYLOAD;
	RG_CHECK(ok,
			 "decode refuses invalid UTF-8: %s", err.message);
	ok = !rg_format_json.decode(s, NULL, (const uint8_t *) "[1,", 3, &out, NULL, &err) && err.code == RG_ERR_INVALID_PAYLOAD;
	RG_CHECK(ok,
			 "decode refuses a truncated payload: %s", err.message);
	ok = !rg_format_json.decode(s, NULL, (const uint8_t *) "NaN", 3, &out, NULL, &err) && err.code == RG_ERR_INVALID_PAYLOAD;
	RG_CHECK(ok,
			 "decode refuses NaN: %s", err.message);
	ok = !rg_format_json.decode(s, NULL, (const uint8_t *) "", 0, &out, NULL, &err) && err.code == RG_ERR_INVALID_PAYLOAD;
	RG_CHECK(ok,
			 "decode refuses an empty payload: %s", err.message);
	RG_CHECK(out.len == 0, "nothing is written on failure");
	rg_buf_free(&out);
	rg_schema_free(s);
}

/* decode: the reader's verdict when there is one, the writer's otherwise, and the notes. */
static void
test_decode_reader(void)
{
	bool		ok;
	const char *writer_text = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"},\"x\":{}}}";
	const char *reader_text = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\",\"minimum\":5},"
	"\"email\":{\"type\":\"string\",\"default\":\"none\"},"
	"\"inner\":{\"type\":\"object\",\"properties\":{\"n\":{\"default\":0}}}}}";
	const char *closed_text = "{\"type\":\"object\",\"properties\":{\"a\":{}},\"additionalProperties\":false}";
	rg_error	err;
	rg_schema  *w = rg_json_parse(writer_text, strlen(writer_text), NULL, 0, false, &err);
	rg_schema  *r = rg_json_parse(reader_text, strlen(reader_text), NULL, 0, false, &err);
	rg_schema  *closed = rg_json_parse(closed_text, strlen(closed_text), NULL, 0, false, &err);
	rg_arena   *arena = rg_arena_create();
	rg_strlist	notes;
	rg_buf		out;
	const char *data = "{\"a\":7,\"x\":true,\"inner\":{}}";

	rg_strlist_init(&notes, arena);
	rg_buf_init(&out);
	ok = rg_format_json.decode(w, r, (const uint8_t *) data, strlen(data), &out, &notes, &err);
	RG_CHECK(ok,
			 "the reader reads what the writer wrote");
	RG_CHECK(notes.n == 3, "three notes (%d)", notes.n);
	RG_CHECK_STR(notes.n > 0 ? notes.items[0] : NULL,
				 "$.email: missing from the data; the reader's default \"none\" is not filled in",
				 "a reader's default the data lacks");
	RG_CHECK_STR(notes.n > 1 ? notes.items[1] : NULL, "$.x: not declared by the reader, kept unchecked",
				 "a member the open reader does not declare");
	RG_CHECK_STR(notes.n > 2 ? notes.items[2] : NULL,
				 "$.inner.n: missing from the data; the reader's default 0 is not filled in",
				 "down the declared properties");
	rg_buf_free(&out);

	rg_buf_init(&out);
	ok = !rg_format_json.decode(w, r, (const uint8_t *) "{\"a\":1}", 7, &out, NULL, &err) && err.code == RG_ERR_INVALID_VALUE && strstr(err.message, "$.a: 1 is less than 5") != NULL;
	RG_CHECK(ok,
			 "the reader refuses what the writer admits: %s", err.message);
	ok = !rg_format_json.decode(w, NULL, (const uint8_t *) "{\"a\":\"s\"}", 9, &out, NULL, &err) && err.code == RG_ERR_INVALID_PAYLOAD;
	RG_CHECK(ok,
			 "without a reader, what the writer cannot have written is an invalid payload: %s", err.message);
	ok = !rg_format_json.decode(w, closed, (const uint8_t *) "{\"a\":1,\"x\":2}", 13, &out, &notes, &err) && err.code == RG_ERR_INVALID_VALUE && strstr(err.message, "$.x: the property is not allowed") != NULL;
	RG_CHECK(ok,
			 "a closed reader refuses a member it does not declare: %s", err.message);
	rg_buf_free(&out);
	rg_arena_destroy(arena);
	rg_schema_free(w);
	rg_schema_free(r);
	rg_schema_free(closed);
}

/* Encode value against schema, timed; the message in msg. */
static bool
timed_encode(const char *schema, const char *value, size_t value_len, double *seconds,
			 char *msg, size_t msg_size)
{
	rg_error	err;
	rg_schema  *s = rg_json_parse(schema, strlen(schema), NULL, 0, false, &err);
	rg_buf		out;
	bool		ok;
	clock_t		start = clock();

	if (s == NULL)
	{
		snprintf(msg, msg_size, "PARSE: %s", err.message);
		*seconds = 0;
		return false;
	}
	rg_buf_init(&out);
	ok = rg_format_json.encode(s, NULL, value, value_len, &out, &err);
	*seconds = (double) (clock() - start) / CLOCKS_PER_SEC;
	snprintf(msg, msg_size, "%s", ok ? "" : err.message);
	rg_buf_free(&out);
	rg_schema_free(s);
	return ok;
}

/* A string value of n copies of c, then tail: "ccc...tail" (malloc'd). */
static char *
long_string(size_t n, char c, const char *tail)
{
	char	   *v = malloc(n + strlen(tail) + 3);

	v[0] = '"';
	memset(v + 1, c, n);
	strcpy(v + 1 + n, tail);
	strcat(v, "\"");
	return v;
}

/* Inputs that must neither crash nor stall. */
static void
test_bombs(void)
{
	bool		ok;
	char		msg[RG_ERROR_MAX];
	double		t;
	char	   *v;
	char	   *deep;
	int			i;
	size_t		n;
	char		schema[8192];

	v = long_string(100000, 'a', "");
	ok = timed_encode("{\"pattern\":\"^(a|b)*$\"}", v, strlen(v), &t, msg, sizeof(msg)) && t < 5;
	RG_CHECK(ok,
			 "\"(a|b)*\" over 100 KB: matched in %.2f s without recursion %s", t, msg);
	free(v);
	v = long_string(30, 'a', "!");
	ok = !timed_encode("{\"pattern\":\"^(a+)+$\"}", v, strlen(v), &t, msg, sizeof(msg)) && t < 1 && strstr(msg, "does not match") != NULL;
	RG_CHECK(ok,
			 "\"^(a+)+$\" against 30 a's and a '!': refused in %.3f s (a backtracking engine takes minutes)", t);
	free(v);
	v = long_string(1000000, 'x', "y");
	ok = !timed_encode("{\"pattern\":\"(x|xx|xxx|xxxx)*z\"}", v, strlen(v), &t, msg, sizeof(msg)) && t < 10;
	RG_CHECK(ok,
			 "a 1 MB string against an alternation: refused in %.2f s: %s", t, msg);
	free(v);

	/* a value nested deeper than the reader allows */
	n = 1001;
	deep = malloc(2 * n + 1);
	for (i = 0; i < (int) n; i++)
	{
		deep[i] = '[';
		deep[n + i] = ']';
	}
	deep[2 * n] = '\0';
	ok = !timed_encode("{}", deep, 2 * n, &t, msg, sizeof(msg)) && strstr(msg, "nesting depth exceeds the maximum allowed (1000)") != NULL;
	RG_CHECK(ok,
			 "a value nested 1001 deep is refused before it is read: %s", msg);
	/* 1000 deep, against a schema that follows every level */
	deep[999] = ' ';
	deep[1001] = ' ';
	ok = !timed_encode("{\"items\":{\"$ref\":\"#\"}}", deep, 2 * n, &t, msg, sizeof(msg)) && strstr(msg, "nest too deeply") != NULL;
	RG_CHECK(ok,
			 "a value 1000 deep against a recursive schema: a clean error: %s", msg);
	deep[999] = '[';
	deep[1001] = ']';
	free(deep);

	/* a $ref loop that consumes nothing */
	ok = !timed_encode("{\"anyOf\":[{\"$ref\":\"#\"}]}", "1", 1, &t, msg, sizeof(msg)) && strstr(msg, "nest too deeply to validate (a $ref loop?)") != NULL;
	RG_CHECK(ok,
			 "a $ref loop stops: %s", msg);

	/* anyOf of anyOf ... through definitions: exponential work is cut off */
	strcpy(schema, "{\"definitions\":{");
	for (i = 0; i < 40; i++)
		snprintf(schema + strlen(schema), sizeof(schema) - strlen(schema),
				 "%s\"d%d\":{\"anyOf\":[{\"$ref\":\"#/definitions/d%d\"},{\"$ref\":\"#/definitions/d%d\"}]}",
				 i ? "," : "", i, i + 1, i + 1);
	snprintf(schema + strlen(schema), sizeof(schema) - strlen(schema),
			 ",\"d40\":{\"type\":\"string\"}},\"$ref\":\"#/definitions/d0\"}");
	ok = !timed_encode(schema, "1", 1, &t, msg, sizeof(msg)) && t < 30 && strstr(msg, "steps to validate") != NULL;
	RG_CHECK(ok,
			 "2^40 branches: given up after the step budget in %.2f s: %s", t, msg);
}

int
main(void)
{
	size_t		i;

	for (i = 0; i < sizeof(drafts) / sizeof(drafts[0]); i++)
		run_draft(&drafts[i]);
	test_own_cases();
	test_references();
	test_text();
	test_decode_reader();
	test_bombs();
	return rg_test_done();
}
