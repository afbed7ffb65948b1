/*-------------------------------------------------------------------------
 *
 * oracle_c.c
 *	  Our core's side of the differential oracle (test/oracle/run.sh).
 *
 * Reads pairs "id<TAB>schemaA<TAB>schemaB" from stdin and prints, in the
 * same form as Oracle.java, the stored form (Schema.toString()) of each
 * schema, its Parsing Canonical Form with CRC-64-AVRO fingerprint, and
 * rg_avro_can_read's verdict both ways: COMPATIBLE,
 * INCOMPATIBLE, ERROR (Avro would have thrown: the "Unexpected
 * exception" message) or SKIP (a schema did not parse).
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rg_avro_api.h"

#define UNEXPECTED "Unexpected exception"

/* Parsing Canonical Form and fingerprint, as "<pcf> <16 hex digits>". */
static void
print_pcf(const char *id, const char *which, const rg_schema *s)
{
	rg_error	err;
	char	   *form;

	if (s == NULL)
	{
		printf("%s\t%s#pcf\tPARSE_ERROR\n", id, which);
		return;
	}
	form = rg_avro_canonical_form(s, &err);
	if (form == NULL)
	{
		printf("%s\t%s#pcf\tERROR %s\n", id, which, err.message);
		return;
	}
	printf("%s\t%s#pcf\t%s %016llx\n", id, which, form,
		   (unsigned long long) rg_avro_crc64(form, strlen(form)));
	free(form);
}

/* One direction of the check, as a word. */
static const char *
verdict(const rg_schema *reader, const rg_schema *writer)
{
	rg_arena   *arena;
	rg_strlist	out;
	const char *v;
	int			i;

	if (reader == NULL || writer == NULL)
		return "SKIP";
	arena = rg_arena_create();
	if (arena == NULL)
		return "ERROR";
	rg_strlist_init(&out, arena);
	v = rg_avro_can_read(reader, writer, &out) ? "COMPATIBLE" : "INCOMPATIBLE";
	for (i = 0; i < out.n; i++)
		if (strncmp(out.items[i], UNEXPECTED, strlen(UNEXPECTED)) == 0)
			v = "ERROR";
	rg_arena_destroy(arena);
	return v;
}

int
main(void)
{
	char	   *line = NULL;
	size_t		cap = 0;
	ssize_t		len;

	while ((len = getline(&line, &cap, stdin)) > 0)
	{
		char	   *id = line;
		char	   *a_text;
		char	   *b_text;
		rg_schema  *a;
		rg_schema  *b;
		rg_error	err;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		a_text = strchr(id, '\t');
		if (a_text == NULL)
			continue;
		*a_text++ = '\0';
		b_text = strchr(a_text, '\t');
		if (b_text == NULL)
			continue;
		*b_text++ = '\0';

		a = rg_avro_parse(a_text, strlen(a_text), NULL, 0, false, &err);
		b = rg_avro_parse(b_text, strlen(b_text), NULL, 0, false, &err);
		printf("%s\tA\t%s\n", id, a ? a->canonical : "PARSE_ERROR");
		printf("%s\tB\t%s\n", id, b ? b->canonical : "PARSE_ERROR");
		print_pcf(id, "A", a);
		print_pcf(id, "B", b);
		printf("%s\tA<-B\t%s\n", id, verdict (a, b));
		printf("%s\tB<-A\t%s\n", id, verdict (b, a));
		rg_schema_free(a);
		rg_schema_free(b);
	}
	free(line);
	return 0;
}
