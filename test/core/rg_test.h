/*-------------------------------------------------------------------------
 *
 * rg_test.h
 *	  A tiny TAP harness for the core's unit tests.
 *
 * Each test binary prints "ok N - name" / "not ok N - name" lines and, at
 * exit, the plan "1..N" after them (a binary that crashes prints none, which
 * prove counts as a failure); rg_test_done() adds a "# N passed, M failed"
 * comment and gives the exit status, non-zero on any failure.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_TEST_H
#define RG_TEST_H

#include "rg_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int	rg_test_passed;
static int	rg_test_failed;
static int	rg_test_planned;

/* at exit: the TAP plan, the number of tests run */
static void
rg_test_plan(void)
{
	printf("1..%d\n", rg_test_passed + rg_test_failed);
	fflush(stdout);
}

#define RG_CHECK(cond, ...) \
	do { \
		if (!rg_test_planned) { \
			rg_test_planned = 1; \
			atexit(rg_test_plan); \
		} \
		if (cond) { \
			rg_test_passed++; \
			printf("ok %d - ", rg_test_passed + rg_test_failed); \
		} else { \
			rg_test_failed++; \
			printf("not ok %d - ", rg_test_passed + rg_test_failed); \
		} \
		printf(__VA_ARGS__); \
		printf("\n"); \
		if (!(cond)) \
			printf("#   failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	} while (0)

/* compare two strings, printing both on a mismatch */
#define RG_CHECK_STR(got, want, ...) \
	do { \
		const char *g_ = (got); \
		const char *w_ = (want); \
		int eq_ = (g_ != NULL && w_ != NULL && strcmp(g_, w_) == 0) || (g_ == NULL && w_ == NULL); \
		RG_CHECK(eq_, __VA_ARGS__); \
		if (!eq_) \
			printf("#   got:  %s\n#   want: %s\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
	} while (0)

/* s as a JSON string on f (the case log is written without the core's allocator) */
static inline void
rg_test_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
	{
		unsigned char ch = (unsigned char) *s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* [[name, text], ...] of n references given as name, text pairs, on f */
static inline void
rg_test_json_refs(FILE *f, const char *const *pairs, int n)
{
	int			i;

	fputc('[', f);
	for (i = 0; i < n; i++)
	{
		fputs(i ? ",[" : "[", f);
		rg_test_json_string(f, pairs[2 * i]);
		fputc(',', f);
		rg_test_json_string(f, pairs[2 * i + 1]);
		fputc(']', f);
	}
	fputc(']', f);
}

/*
 * With RG_CASE_LOG naming a file, append a compatibility case the test
 * checks (can reader read writer?) to it as one JSON line; references as
 * name, text pairs.  test/cli/agree.py runs every such case through
 * registry-check and through the server and compares their answers.
 */
static inline void
rg_test_log_case(const char *type, const char *reader, const char *const *rrefs, int n_rrefs,
				 const char *writer, const char *const *wrefs, int n_wrefs)
{
	const char *path = getenv("RG_CASE_LOG");
	FILE	   *f;

	if (path == NULL || path[0] == '\0' || reader == NULL || writer == NULL)
		return;
	f = fopen(path, "a");
	if (f == NULL)
		return;
	fputs("{\"type\":", f);
	rg_test_json_string(f, type);
	fputs(",\"reader\":", f);
	rg_test_json_string(f, reader);
	fputs(",\"reader_refs\":", f);
	rg_test_json_refs(f, rrefs, n_rrefs);
	fputs(",\"writer\":", f);
	rg_test_json_string(f, writer);
	fputs(",\"writer_refs\":", f);
	rg_test_json_refs(f, wrefs, n_wrefs);
	fputs("}\n", f);
	fclose(f);
}

/* A copy of text with ' turned into " (cases are written with '), malloc'd. */
static inline char *
rg_test_dequote(const char *text)
{
	char	   *s = strdup(text);
	char	   *p;

	for (p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	return s;
}

/*
 * Parse text (written with ' for ") in format, without references; NULL
 * (and a note) on failure.
 */
static inline rg_schema *
rg_test_parse(const rg_format *format, const char *text)
{
	char	   *t = rg_test_dequote(text);
	rg_error	err;
	rg_schema  *s;

	rg_error_clear(&err);
	s = format->parse(t, strlen(t), NULL, 0, false, &err);
	if (s == NULL)
		printf("# parse failed: %s\n#   for %s\n", err.message, t);
	free(t);
	return s;
}

/* The list joined with " | " into out (size bytes); returns out. */
static inline const char *
rg_test_join(const rg_strlist *l, char *out, size_t size)
{
	int			i;

	out[0] = '\0';
	for (i = 0; i < l->n; i++)
	{
		if (i > 0)
			strncat(out, " | ", size - strlen(out) - 1);
		strncat(out, l->items[i], size - strlen(out) - 1);
	}
	return out;
}

static inline int
rg_test_done(void)
{
	printf("# %d passed, %d failed\n", rg_test_passed, rg_test_failed);
	return rg_test_failed == 0 ? 0 : 1;
}

/* Standard base64 of n bytes, malloc'd (descriptors given as Confluent accepts them). */
static inline char *
rg_test_base64(const unsigned char *p, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char	   *out = malloc(4 * ((n + 2) / 3) + 1);
	size_t		i,
				o = 0;

	for (i = 0; i < n; i += 3)
	{
		unsigned	v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);

		out[o++] = tab[(v >> 18) & 63];
		out[o++] = tab[(v >> 12) & 63];
		out[o++] = i + 1 < n ? tab[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < n ? tab[v & 63] : '=';
	}
	out[o] = '\0';
	return out;
}

#endif							/* RG_TEST_H */
