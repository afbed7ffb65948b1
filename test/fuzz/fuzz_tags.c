/*-------------------------------------------------------------------------
 *
 * fuzz_tags.c
 *	  libFuzzer target for schema tags (rg_tags.h): the SchemaTags list
 *	  reader, the tag rewrite of Avro, JSON and PROTOBUF schemas, and Avro's
 *	  inline tagged entities.
 *
 * The input is split at its first NUL byte (or, without one, in half)
 * into a schema text S and a SchemaTags list T.  S is parsed as AVRO, as
 * JSON and as PROTOBUF; T is read as a list.  For each format S parses in, T is applied
 * as tags to add, then the result with T as tags to remove; whatever comes
 * back must parse again in that format and be its own stored form.  The
 * Avro results' tagged entities are listed and written.  An internal
 * error is a finding; everything is freed, so LeakSanitizer sees leaks.
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rg_avro.h"
#include "rg_jsonschema.h"
#include "rg_protobuf.h"
#include "rg_tags.h"

#define FUZZ_TARGET "fuzz_tags"
#include "fuzz_common.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The result of a rewrite parses again to itself; NULL results are checked. */
static void
check_result(const rg_format *format, const char *out, size_t len, rg_error *err)
{
	rg_error	err2;
	rg_schema  *again;

	if (out == NULL)
	{
		if (err->code == RG_ERR_INTERNAL || err->code == RG_OK)
			invariant_failed("rewrite failed without a reason", err->message, NULL);
		return;
	}
	if (strlen(out) != len)
		invariant_failed("result length", out, NULL);
	again = format->parse(out, len, NULL, 0, false, &err2);
	if (again == NULL)
		invariant_failed("result does not parse", out, err2.message);
	if (again->canonical_len != len || memcmp(again->canonical, out, len) != 0)
		invariant_failed("result is not a stored form", out, again->canonical);
	if (format->tagged_entities != NULL)
	{
		rg_arena   *arena = rg_arena_create();
		rg_schema_tags *list;
		int			n;
		const char *all = "*";
		rg_buf		buf;

		if (rg_schema_tagged_entities(again, arena, &all, 1, &list, &n, &err2))
		{
			rg_buf_init(&buf);
			rg_schema_tags_write(&buf, list, n);
			rg_buf_free(&buf);
		}
		rg_arena_destroy(arena);
	}
	rg_schema_free(again);
}

/* Add the tags, then remove them from the result. */
static void
fuzz_format(const rg_format *format, const char *text, size_t len,
			const rg_schema_tags *tags, int n)
{
	rg_error	err;
	size_t		out_len = 0;
	char	   *added = rg_schema_with_tags(format, text, len, NULL, 0, tags, n,
											NULL, 0, &out_len, &err);

	check_result(format, added, out_len, &err);
	if (added)
	{
		char	   *removed = rg_schema_with_tags(format, added, out_len, NULL, 0,
												  NULL, 0, tags, n, &out_len, &err);

		check_result(format, removed, out_len, &err);
		rg_free(removed);
	}
	rg_free(added);
}

/* One fuzz input: a schema and a tag list, see the header comment. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *) data;
	const uint8_t *nul = memchr(data, 0, size);
	size_t		len_s = nul ? (size_t) (nul - data) : size / 2;
	const char *text_t = nul ? text + len_s + 1 : text + len_s;
	size_t		len_t = nul ? size - len_s - 1 : size - len_s;
	rg_arena   *arena = rg_arena_create();
	rg_schema_tags *tags;
	int			n;
	rg_error	err;

	if (rg_schema_tags_parse(arena, text_t, len_t, &tags, &n, &err))
	{
		fuzz_format(&rg_format_avro, text, len_s, tags, n);
		fuzz_format(&rg_format_json, text, len_s, tags, n);
		fuzz_format(&rg_format_protobuf, text, len_s, tags, n);
	}
	else if (err.code == RG_ERR_INTERNAL || err.code == RG_OK)
		invariant_failed("tag list refused without a reason", err.message, NULL);
	rg_arena_destroy(arena);
	return 0;
}
