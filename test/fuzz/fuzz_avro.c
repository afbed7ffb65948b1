/*-------------------------------------------------------------------------
 *
 * fuzz_avro.c
 *	  libFuzzer target for the Avro parser, the Parsing Canonical Form and
 *	  the reader/writer compatibility check of the pure-C core.
 *
 * The input is split at its first NUL byte (or, without one, in half)
 * into two schema texts A and B.  Each one that parses is put through:
 *
 *	- rg_avro_canonical_form and rg_avro_crc64;
 *	- the idempotence of the stored form: schema->canonical must parse
 *	  again, to the very same stored text and the same Parsing Canonical
 *	  Form (abort() otherwise, so libFuzzer records the input), and
 *	  parsed for its model only it must write that text again;
 *
 * A is also parsed with normalize=true (same checks).  When both parse,
 * rg_avro_can_read runs both ways and rg_compat_check at FULL_TRANSITIVE
 * with the other schema as the only prior version.  Everything is freed,
 * so LeakSanitizer sees any leak in the core.
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rg_avro_api.h"
#include "rg_compat.h"

#define FUZZ_TARGET "fuzz_avro"
#include "fuzz_common.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Parse one schema text; NULL when the core rejects it.  An error code
 * other than "invalid schema" (an internal failure) is a finding too,
 * except out-of-memory, which a fuzzer cannot tell apart from -rss_limit.
 */
static rg_schema *
parse_one(const char *text, size_t len, bool normalize)
{
	rg_error	err;
	rg_schema  *s;

	s = rg_avro_parse(text, len, NULL, 0, normalize, &err);
	if (s == NULL)
	{
		if (err.code == RG_ERR_INTERNAL)
			invariant_failed("rg_avro_parse internal error", err.message, NULL);
		return NULL;
	}
	if (s->canonical == NULL || strlen(s->canonical) != s->canonical_len)
		invariant_failed("stored form length", s->canonical, NULL);
	return s;
}

/*
 * The stored form of s parsed for its model only (as the backend's cache
 * parses stored schemas) keeps no text and writes that text again.
 */
static void
check_text_again(const rg_schema *s)
{
	rg_error	err;
	rg_schema  *kept = rg_parse_for_model(&rg_format_avro, s->canonical, s->canonical_len,
										  NULL, 0, &err);
	rg_buf		buf;
	size_t		len = 0;
	const char *text;

	if (kept == NULL || kept->canonical != NULL)
		invariant_failed("stored form parsed for its model", s->canonical,
						 kept == NULL ? err.message : kept->canonical);
	rg_buf_init(&buf);
	text = rg_schema_text(kept, &buf, &len);
	if (text == NULL || len != s->canonical_len || memcmp(text, s->canonical, len) != 0)
		invariant_failed("text written again differs", s->canonical, text);
	rg_buf_free(&buf);
	rg_schema_free(kept);
}

/*
 * The checks on one parsed schema: PCF and fingerprint, then the stored
 * form re-parsed (without normalize) must give itself back, with the
 * same PCF.
 */
static void
check_schema(const rg_schema *s)
{
	rg_error	err;
	char	   *pcf;
	char	   *pcf2;
	rg_schema  *again;
	volatile uint64_t fp;

	pcf = rg_avro_canonical_form(s, &err);
	if (pcf == NULL)
		invariant_failed("rg_avro_canonical_form failed", s->canonical, err.message);
	fp = rg_avro_crc64(pcf, strlen(pcf));
	(void) fp;

	again = rg_avro_parse(s->canonical, s->canonical_len, NULL, 0, false, &err);
	if (again == NULL)
		invariant_failed("stored form does not parse again", s->canonical, err.message);
	if (again->canonical_len != s->canonical_len ||
		memcmp(again->canonical, s->canonical, s->canonical_len) != 0)
		invariant_failed("stored form not idempotent", s->canonical, again->canonical);

	pcf2 = rg_avro_canonical_form(again, &err);
	if (pcf2 == NULL)
		invariant_failed("rg_avro_canonical_form failed on re-parse", again->canonical, err.message);
	if (strcmp(pcf, pcf2) != 0)
		invariant_failed("PCF changed across the stored form", pcf, pcf2);

	check_text_again(s);
	free(pcf2);
	free(pcf);
	rg_schema_free(again);
}

/* One fuzz input: two schema texts, see the header comment. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *) data;
	const uint8_t *nul = memchr(data, 0, size);
	size_t		len_a;
	const char *text_b;
	size_t		len_b;
	rg_schema  *a;
	rg_schema  *an;
	rg_schema  *b;

	if (nul != NULL)
	{
		len_a = (size_t) (nul - data);
		text_b = text + len_a + 1;
		len_b = size - len_a - 1;
	}
	else
	{
		len_a = size / 2;
		text_b = text + len_a;
		len_b = size - len_a;
	}

	a = parse_one(text, len_a, false);
	an = parse_one(text, len_a, true);
	b = parse_one(text_b, len_b, false);
	if ((a == NULL) != (an == NULL))
	{
		rg_error	err;
		rg_schema  *again = rg_avro_parse(text, len_a, NULL, 0, a != NULL, &err);

		invariant_failed(a ? "parses with normalize=false but not with true"
						 : "parses with normalize=true but not with false",
						 a ? a->canonical : an->canonical,
						 again ? again->canonical : err.message);
	}

	if (a)
		check_schema(a);
	if (an)
		check_schema(an);
	if (b)
		check_schema(b);
	if (a != NULL && b != NULL)
	{
		check_pair(a, b);
		check_pair(b, a);
	}
	if (an != NULL && b != NULL)
		check_pair(an, b);

	rg_schema_free(a);
	rg_schema_free(an);
	rg_schema_free(b);
	return 0;
}
