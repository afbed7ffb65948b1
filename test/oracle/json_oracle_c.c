/*-------------------------------------------------------------------------
 *
 * json_oracle_c.c
 *	  Our core's side of the JSON Schema stored-form oracle
 *	  (test/oracle/json_run.sh).
 *
 * Reads lines "id<TAB>document" from stdin and prints, in the same form
 * as JsonOracle.java, the stored form of each document as a JSON schema,
 * and its stored form under normalize, or PARSE_ERROR.
 *
 *-------------------------------------------------------------------------
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rg_jsonschema.h"

/* Print one line: the stored form of doc, plain or normalized. */
static void
print_form(const char *id, const char *what, const char *doc, bool normalize)
{
	rg_error	err;
	rg_schema  *s;

	s = rg_format_json.parse(doc, strlen(doc), NULL, 0, normalize, &err);
	if (s == NULL)
	{
		printf("%s\t%s\tPARSE_ERROR\n", id, what);
		return;
	}
	printf("%s\t%s\t%s\n", id, what, s->canonical);
	rg_schema_free(s);
}

/* One line of input at a time, as the Java side reads it. */
int
main(void)
{
	char	   *line = NULL;
	size_t		cap = 0;
	ssize_t		n;

	while ((n = getline(&line, &cap, stdin)) > 0)
	{
		char	   *tab;

		if (line[n - 1] == '\n')
			line[--n] = '\0';
		tab = strchr(line, '\t');
		if (tab == NULL)
			continue;
		*tab = '\0';
		print_form(line, "stored", tab + 1, false);
		print_form(line, "normalized", tab + 1, true);
	}
	free(line);
	return 0;
}
