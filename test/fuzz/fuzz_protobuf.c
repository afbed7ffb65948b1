/*-------------------------------------------------------------------------
 *
 * fuzz_protobuf.c
 *	  libFuzzer target for the PROTOBUF parser (libprotoc through the
 *	  shim), the stored-form renderer and message indexes.
 *
 * The first byte of the input chooses the options (bit 0: normalize;
 * bit 1: the rest is also offered as an import "dep.proto" to a fixed
 * main file); the rest is a schema text.  Whatever parses is put through:
 *
 *	- the idempotence of the stored form: schema->canonical must parse
 *	  again (same options), to the very same text (abort() otherwise, so
 *	  libFuzzer records the input);
 *	- message indexes: for every declared message path, the name found
 *	  at the path maps back to the same path, and the path survives the
 *	  wire encoding;
 *
 * and the raw input is also decoded as a message-index array.  Everything
 * is freed, so LeakSanitizer sees any leak in the core or the shim.
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rg_protobuf.h"

#define FUZZ_TARGET "fuzz_protobuf"
#include "fuzz_common.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static rg_schema *
parse_one(const char *text, size_t len, const rg_reference *refs, int n_refs,
		  bool normalize)
{
	rg_error	err;
	rg_schema  *s = rg_protobuf_parse(text, len, refs, n_refs, normalize, &err);

	if (s == NULL)
	{
		if (err.code == RG_ERR_INTERNAL)
			invariant_failed("rg_protobuf_parse internal error", err.message, NULL);
		return NULL;
	}
	if (s->canonical == NULL || strlen(s->canonical) != s->canonical_len)
		invariant_failed("stored form length", s->canonical, NULL);
	return s;
}

/* Walk the declared messages depth-first, checking each path */
static void
check_paths(const rg_schema *s, int *path, int depth)
{
	int			i;

	if (depth >= 8)
		return;
	for (i = 0; i < 64; i++)
	{
		char	   *name;
		int			back[8];
		int			n;
		unsigned char wire[64];
		size_t		wlen;
		size_t		consumed;
		int			decoded[8];
		int			m;

		path[depth] = i;
		name = rg_protobuf_message_name(s, path, depth + 1);
		if (name == NULL)
			return;
		n = rg_protobuf_message_indexes(s, name, back, 8);
		if (n != depth + 1 || memcmp(back, path, sizeof(int) * n) != 0)
			invariant_failed("message name -> indexes", name, s->canonical);
		wlen = rg_protobuf_encode_indexes(path, depth + 1, wire, sizeof(wire));
		m = rg_protobuf_decode_indexes(wire, wlen, decoded, 8, &consumed);
		if (consumed != wlen ||
			(m == 0 ? !(depth == 0 && path[0] == 0) :
			 (m != depth + 1 || memcmp(decoded, path, sizeof(int) * m) != 0)))
			invariant_failed("indexes wire round trip", name, NULL);
		free(name);
		check_paths(s, path, depth + 1);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char main_text[] =
	"syntax = \"proto3\";\nimport \"dep.proto\";\nmessage Main { int32 x = 1; }\n";
	bool		normalize;
	bool		as_dep;
	const char *text;
	size_t		len;
	rg_schema  *s;
	int			path[8];
	int			idx[16];
	size_t		consumed;

	if (size == 0)
		return 0;
	normalize = data[0] & 1;
	as_dep = (data[0] & 2) != 0;
	text = (const char *) data + 1;
	len = size - 1;

	(void) rg_protobuf_decode_indexes(data, size, idx, 16, &consumed);

	if (as_dep)
	{
		rg_reference ref = {"dep.proto", text, len};

		s = parse_one(main_text, strlen(main_text), &ref, 1, normalize);
		rg_schema_free(s);
	}

	s = parse_one(text, len, NULL, 0, normalize);
	if (s != NULL)
	{
		rg_schema  *again = parse_one(s->canonical, s->canonical_len, NULL, 0,
									  normalize);

		if (again == NULL)
		{
			rg_error	err;

			rg_protobuf_parse(s->canonical, s->canonical_len, NULL, 0,
							  normalize, &err);
			invariant_failed("stored form does not parse", s->canonical, err.message);
		}
		if (strcmp(again->canonical, s->canonical) != 0)
			invariant_failed("stored form not idempotent", s->canonical,
							 again->canonical);
		rg_schema_free(again);
		check_paths(s, path, 0);
		rg_schema_free(s);
	}
	return 0;
}
