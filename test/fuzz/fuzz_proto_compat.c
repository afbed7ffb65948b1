/*-------------------------------------------------------------------------
 *
 * fuzz_proto_compat.c
 *	  libFuzzer target for the PROTOBUF compatibility check of the
 *	  pure-C core (proto_compat.c), for crashes and for resource use: the
 *	  smoke run gives it -rss_limit_mb and -timeout, so a comparison that
 *	  grows without bound (a type used twice at each level of an import)
 *	  is a finding.
 *
 * The input is split at its NUL bytes into up to three texts A, B and C
 * (without a NUL: A and B halves, C = B).  A is a main file; B and C are
 * two versions of the import "dep.proto" it may use.  A with B and A with
 * C are compared both ways (can_read and the level driver), and so are A
 * and B parsed alone as main files.  Everything is freed, so
 * LeakSanitizer sees any leak.
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rg_protobuf.h"

#define FUZZ_TARGET "fuzz_proto_compat"
#include "fuzz_common.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Parse a text (NUL-terminated copy) with an optional import; NULL when refused. */
static rg_schema *
parse_one(const char *text, size_t len, const char *dep, size_t dep_len)
{
	char	   *t = malloc(len + 1);
	char	   *d = dep ? malloc(dep_len + 1) : NULL;
	rg_reference ref;
	rg_error	err;
	rg_schema  *s;

	if (t == NULL || (dep && d == NULL))
		abort();
	memcpy(t, text, len);
	t[len] = '\0';
	if (d)
	{
		memcpy(d, dep, dep_len);
		d[dep_len] = '\0';
	}
	ref.name = "dep.proto";
	ref.schema = d;
	ref.schema_len = dep_len;
	s = rg_protobuf_parse(t, len, d ? &ref : NULL, d ? 1 : 0, false, &err);
	if (s == NULL && (err.code == RG_ERR_INTERNAL || err.code == RG_OK))
		invariant_failed("rg_protobuf_parse failed without a reason", t, err.message);
	free(t);
	free(d);
	return s;
}

/* Compare two parsed schemas both ways, if both parsed. */
static void
pair(const rg_schema *x, const rg_schema *y)
{
	if (x && y)
	{
		check_pair(x, y);
		check_pair(y, x);
	}
}

/* One fuzz input: see the header comment. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *a = (const char *) data;
	const uint8_t *nul1 = memchr(data, 0, size);
	size_t		len_a = nul1 ? (size_t) (nul1 - data) : size / 2;
	const char *b = nul1 ? a + len_a + 1 : a + len_a;
	size_t		rest = size - (size_t) (b - a);
	const uint8_t *nul2 = nul1 ? memchr(b, 0, rest) : NULL;
	size_t		len_b = nul2 ? (size_t) ((const char *) nul2 - b) : rest;
	const char *c = nul2 ? b + len_b + 1 : b;
	size_t		len_c = nul2 ? rest - len_b - 1 : len_b;
	rg_schema  *ab = parse_one(a, len_a, b, len_b);
	rg_schema  *ac = parse_one(a, len_a, c, len_c);
	rg_schema  *a0 = parse_one(a, len_a, NULL, 0);
	rg_schema  *b0 = parse_one(b, len_b, NULL, 0);

	pair(ab, ac);
	pair(a0, b0);
	rg_schema_free(ab);
	rg_schema_free(ac);
	rg_schema_free(a0);
	rg_schema_free(b0);
	return 0;
}
