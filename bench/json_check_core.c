/*-------------------------------------------------------------------------
 *
 * json_check_core.c
 *	  The JSON Schema transitive check of the core alone (no PostgreSQL):
 *	  BACKWARD_TRANSITIVE of schema N+1 against N parsed versions, in
 *	  three modes measured in one run, interleaved:
 *
 *	  off    the pairs found compatible not used (rg_jd_use_known_pairs
 *	         (false)): every pair compared, in Confluent's order, as
 *	         before the set existed; the baseline
 *	  fresh  a new schema N+1 (a title of its own) at every call, parsed
 *	         before the clock starts: its sub-schemas met before are
 *	         answered from the set, its root is compared
 *	  same   the same schema N+1 at every call: each version's root pair
 *	         is answered from the set
 *
 *	  The shapes are bench/json_transitive.sh's (fixed50: c1..c49 integer,
 *	  x_k ["null","string"]; growing: version k has k properties), each
 *	  version's object open to ["null","string"] additional properties.
 *	  Prints min and median ms per check of each mode and their ratios to
 *	  off's (the min is the figure least moved by other work on the
 *	  machine).
 *
 *	  Usage: json_check_core N REPS SHAPE(fixed50|growing)
 *
 *-------------------------------------------------------------------------
 */
#include "rg_compat.h"
#include "rg_jsonschema.h"
#include "json_diff_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Version k of a shape, with a title; malloc'd. */
static char *
schema_text(int k, bool growing, const char *title)
{
	char	   *buf = malloc(64 + 64 * (size_t) (k + 60));
	char	   *p = buf;
	int			i;

	p += sprintf(p, "{\"type\":\"object\",\"title\":\"%s\",\"properties\":{", title);
	if (!growing)
	{
		for (i = 1; i <= 49; i++)
			p += sprintf(p, "\"c%d\":{\"type\":\"integer\"},", i);
		p += sprintf(p, "\"x%d\":{\"type\":[\"null\",\"string\"],\"default\":null}", k);
	}
	else
	{
		p += sprintf(p, "\"id\":{\"type\":\"integer\"}");
		for (i = 1; i <= k; i++)
			p += sprintf(p, ",\"f%d\":{\"type\":[\"null\",\"string\"],\"default\":null}", i);
	}
	sprintf(p, "},\"additionalProperties\":{\"type\":[\"null\",\"string\"]}}");
	return buf;
}

/* Parse a text or exit. */
static rg_schema *
parse_or_exit(const char *text)
{
	rg_error	err;
	rg_schema  *s;

	rg_error_clear(&err);
	s = rg_json_parse(text, strlen(text), NULL, 0, false, &err);
	if (s == NULL)
	{
		fprintf(stderr, "parse: %s\n", err.message);
		exit(1);
	}
	return s;
}

/* Now, in ms. */
static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* qsort order of doubles. */
static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return x < y ? -1 : x > y;
}

/* One timed check of schema against prev; exits if it is not compatible. */
static double
timed_check(const rg_schema *schema, const rg_prior_version *prev, int n)
{
	rg_arena   *arena = rg_arena_create();
	rg_strlist	messages;
	double		t0;
	double		ms;

	rg_strlist_init(&messages, arena);
	t0 = now_ms();
	if (!rg_compat_check_policy(RG_COMPAT_BACKWARD_TRANSITIVE, RG_POLICY_STRICT, schema,
								prev, n, &messages))
	{
		fprintf(stderr, "not compatible: %s\n", messages.n ? messages.items[0] : "?");
		exit(1);
	}
	ms = now_ms() - t0;
	rg_arena_destroy(arena);
	return ms;
}

int
main(int argc, char **argv)
{
	static const char *const modes[] = {"off", "fresh", "same"};
	int			n = argc > 1 ? atoi(argv[1]) : 1000;
	int			reps = argc > 2 ? atoi(argv[2]) : 200;
	bool		growing = argc > 3 && strcmp(argv[3], "growing") == 0;
	rg_prior_version *prev = calloc(n, sizeof(*prev));
	double	   *ms[3];
	char	   *text;
	rg_schema  *same;
	int			i;
	int			m;

	for (i = 0; i < n; i++)
	{
		text = schema_text(i, growing, "R");
		prev[i].schema = parse_or_exit(text);
		prev[i].version = i + 1;
		free(text);
	}
	text = schema_text(n, growing, "R");
	same = parse_or_exit(text);
	free(text);
	for (m = 0; m < 3; m++)
		ms[m] = calloc(reps, sizeof(double));
	/* warm: one call of each mode */
	(void) timed_check(same, prev, n);
	for (i = 0; i < reps; i++)
		for (m = 0; m < 3; m++)
		{
			rg_schema  *schema = same;
			char		title[32];

			if (m == 1)
			{
				snprintf(title, sizeof(title), "R%d", i);
				text = schema_text(n, growing, title);
				schema = parse_or_exit(text);
				free(text);
			}
			rg_jd_use_known_pairs(m != 0);
			ms[m][i] = timed_check(schema, prev, n);
			if (schema != same)
				rg_schema_free(schema);
		}
	printf("%-6s %10s %10s %10s %12s\n", "mode", "min_ms", "median_ms", "x_off_min",
		   "x_off_median");
	for (m = 0; m < 3; m++)
		qsort(ms[m], reps, sizeof(double), cmp_double);
	for (m = 0; m < 3; m++)
		printf("%-6s %10.3f %10.3f %10.3f %12.3f\n", modes[m], ms[m][0], ms[m][reps / 2],
			   ms[m][0] / ms[0][0], ms[m][reps / 2] / ms[0][reps / 2]);
	return 0;
}
