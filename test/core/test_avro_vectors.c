/*-------------------------------------------------------------------------
 *
 * test_avro_vectors.c
 *	  Apache Avro's Parsing Canonical Form / CRC-64-AVRO vectors
 *	  (share/test/data/schema-tests.txt), read at run time from the copy in
 *	  test/core/vectors/avro (its source and licence are in the README.md
 *	  beside it).
 *
 * Usage: test_avro_vectors [path-to-schema-tests.txt]
 *
 * Without an argument the file is looked up as vectors/avro/schema-tests.txt
 * in the directory the test binary is in (test/core).
 *
 *-------------------------------------------------------------------------
 */
#include <inttypes.h>

#include "rg_test.h"
#include "rg_avro.h"

#define MAX_CASES 64

typedef struct vector_case
{
	char		id[16];
	char	   *input;
	char	   *canonical;
	char	   *fingerprint;	/* NULL when not given */
} vector_case;

static char *
xstrdup(const char *s)
{
	char	   *d = malloc(strlen(s) + 1);

	if (d)
		strcpy(d, s);
	return d;
}

static void
chomp(char *s)
{
	size_t		n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

/* Append line to a growing malloc'd text (multi-line values). */
static char *
append_line(char *text, const char *line)
{
	size_t		a = text ? strlen(text) : 0;
	char	   *r = realloc(text, a + strlen(line) + 2);

	if (r == NULL)
		return text;
	if (a)
		r[a++] = '\n';
	strcpy(r + a, line);
	return r;
}

/*
 * The file's format (SOURCE.md): "// NNN" starts a case; "<<TAG value" on
 * one line, or "<<TAG" alone followed by lines up to one equal to TAG;
 * other lines starting "//" or "#" are comments.
 */
static int
read_cases(FILE *f, vector_case *cases)
{
	char		line[8192];
	int			n = -1;

	while (fgets(line, sizeof(line), f))
	{
		chomp(line);
		if (strncmp(line, "// ", 3) == 0 && line[3] >= '0' && line[3] <= '9')
		{
			if (n + 1 >= MAX_CASES)
				break;
			n++;
			memset(&cases[n], 0, sizeof(vector_case));
			snprintf(cases[n].id, sizeof(cases[n].id), "%.15s", line + 3);
			continue;
		}
		if (n < 0 || strncmp(line, "<<", 2) != 0)
			continue;
		{
			char		tag[32];
			char	   *value = NULL;
			char	   *sp = strchr(line + 2, ' ');

			if (sp)
			{
				snprintf(tag, sizeof(tag), "%.*s", (int) (sp - line - 2), line + 2);
				value = xstrdup(sp + 1);
			}
			else
			{
				snprintf(tag, sizeof(tag), "%.31s", line + 2);
				while (fgets(line, sizeof(line), f))
				{
					chomp(line);
					if (strcmp(line, tag) == 0)
						break;
					value = append_line(value, line);
				}
			}
			if (strcmp(tag, "INPUT") == 0)
				cases[n].input = value;
			else if (strcmp(tag, "canonical") == 0)
				cases[n].canonical = value;
			else if (strcmp(tag, "fingerprint") == 0)
				cases[n].fingerprint = value;
			else
				free(value);
		}
	}
	return n + 1;
}

/*
 * The vectors file beside the test binary: vectors/avro/schema-tests.txt in
 * the directory part of argv0 (the current directory when it has none).
 */
static void
vectors_path(const char *argv0, char *path, size_t size)
{
	const char *slash = strrchr(argv0, '/');
	int			dirlen = slash ? (int) (slash - argv0) + 1 : 0;

	snprintf(path, size, "%.*svectors/avro/schema-tests.txt", dirlen, argv0);
}

int
main(int argc, char **argv)
{
	char		path[4096];
	FILE	   *f;
	vector_case cases[MAX_CASES];
	int			n;
	int			i;
	int			with_fp = 0;

	if (argc > 1)
		snprintf(path, sizeof(path), "%s", argv[1]);
	else
		vectors_path(argv[0], path, sizeof(path));
	f = fopen(path, "r");
	RG_CHECK(f != NULL, "%s found", path);
	if (f == NULL)
		return rg_test_done();
	n = read_cases(f, cases);
	fclose(f);
	RG_CHECK(n == 34, "34 cases read (got %d)", n);

	for (i = 0; i < n; i++)
	{
		vector_case *c = &cases[i];
		rg_error	err;
		rg_schema  *s;
		char	   *pcf;

		if (c->input == NULL || c->canonical == NULL)
		{
			RG_CHECK(0, "case %s complete", c->id);
			continue;
		}
		s = rg_avro_parse(c->input, strlen(c->input), NULL, 0, false, &err);
		RG_CHECK(s != NULL, "case %s parses%s%s", c->id, s ? "" : ": ", s ? "" : err.message);
		if (s == NULL)
			continue;
		pcf = rg_avro_canonical_form(s, &err);
		RG_CHECK_STR(pcf, c->canonical, "case %s canonical form", c->id);
		if (pcf && c->fingerprint)
		{
			int64_t		want = strtoll(c->fingerprint, NULL, 10);
			int64_t		got = (int64_t) rg_avro_crc64(pcf, strlen(pcf));

			with_fp++;
			RG_CHECK(got == want, "case %s fingerprint %" PRId64 " (want %s)",
					 c->id, got, c->fingerprint);
		}
		free(pcf);
		rg_schema_free(s);
	}
	RG_CHECK(with_fp == 26, "26 fingerprints checked (got %d)", with_fp);

	/* the empty input's fingerprint is the CRC's initial value */
	RG_CHECK(rg_avro_crc64("", 0) == UINT64_C(0xc15d213aa4d7a795), "CRC-64-AVRO of nothing is EMPTY");

	for (i = 0; i < n; i++)
	{
		free(cases[i].input);
		free(cases[i].canonical);
		free(cases[i].fingerprint);
	}
	return rg_test_done();
}
