/*-------------------------------------------------------------------------
 *
 * test_protobuf_index.c
 *	  Unit tests of message indexes: the path of a message in a schema and
 *	  its encoding in Confluent's wire format.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_test.h"
#include "rg_protobuf.h"

static void
check_encode(const char *name, const int *idx, int n, const unsigned char *want,
			 size_t want_len)
{
	unsigned char buf[64];
	size_t		len = rg_protobuf_encode_indexes(idx, n, buf, sizeof(buf));
	int			out[16];
	size_t		consumed = 0;
	int			m;
	int			i;
	bool		same;

	RG_CHECK(len == want_len && memcmp(buf, want, len) == 0, "%s: encoding", name);
	RG_CHECK(rg_protobuf_encode_indexes(idx, n, NULL, 0) == want_len,
			 "%s: measuring call", name);
	m = rg_protobuf_decode_indexes(buf, len, out, 16, &consumed);
	same = consumed == len;
	if (n == 1 && idx[0] == 0)
		same = same && m == 0;
	else
	{
		same = same && m == n;
		for (i = 0; same && i < n; i++)
			same = out[i] == idx[i];
	}
	RG_CHECK(same, "%s: decodes back (count %d, consumed %zu)", name, m, consumed);
}

static void
test_wire(void)
{
	int			zero[] = {0};
	int			one[] = {1};
	int			nested[] = {0, 1};
	int			three[] = {1, 2, 3};
	int			big[] = {300, 70000};
	int			out[4];
	size_t		consumed;

	check_encode("[0] shortcut", zero, 1, (const unsigned char *) "\x00", 1);
	check_encode("[1]", one, 1, (const unsigned char *) "\x02\x02", 2);
	check_encode("[0, 1]", nested, 2, (const unsigned char *) "\x04\x00\x02", 3);
	check_encode("[1, 2, 3]", three, 3, (const unsigned char *) "\x06\x02\x04\x06", 4);
	check_encode("[300, 70000]", big, 2,
				 (const unsigned char *) "\x04\xd8\x04\xe0\xc5\x08", 6);

	{
		unsigned char b[1];

		RG_CHECK(rg_protobuf_encode_indexes(NULL, 0, b, 1) == 1 && b[0] == 0,
				 "empty path encodes as the shortcut");
		RG_CHECK(rg_protobuf_encode_indexes(three, 3, b, 1) == 4,
				 "too small a buffer: size returned, nothing written past cap");
	}

	/* trailing payload is left alone */
	RG_CHECK(rg_protobuf_decode_indexes((const unsigned char *) "\x02\x04\x0a\x0b", 4,
										out, 4, &consumed) == 1 &&
			 out[0] == 2 && consumed == 2, "decode stops before the payload");

	/* malformed */
	RG_CHECK(rg_protobuf_decode_indexes((const unsigned char *) "", 0, out, 4, &consumed) == -1,
			 "empty input");
	RG_CHECK(rg_protobuf_decode_indexes((const unsigned char *) "\x80", 1, out, 4, &consumed) == -1,
			 "truncated varint");
	RG_CHECK(rg_protobuf_decode_indexes((const unsigned char *) "\x04\x02", 2, out, 4, &consumed) == -1,
			 "count larger than the indexes present");
	RG_CHECK(rg_protobuf_decode_indexes((const unsigned char *) "\x80\x80\x80\x80\x80\x01", 6,
										out, 4, &consumed) == -1,
			 "overlong varint");
	RG_CHECK(rg_protobuf_decode_indexes((const unsigned char *) "\x01", 1, out, 4, &consumed) == -1,
			 "negative count");
	RG_CHECK(rg_protobuf_decode_indexes((const unsigned char *) "\x02\x01", 2, out, 4, &consumed) == -1,
			 "negative index");
	RG_CHECK(rg_protobuf_decode_indexes((const unsigned char *) "\x0a\x00\x00\x00\x00\x00", 6,
										out, 4, &consumed) == -1,
			 "count above max");
	RG_CHECK(rg_protobuf_decode_indexes((const unsigned char *) "\xff\xff\xff\xff\x1f", 5,
										out, 4, &consumed) == -1,
			 "varint above 32 bits");
	RG_CHECK(rg_protobuf_decode_indexes(NULL, 0, out, 4, &consumed) == -1, "NULL buffer");
}

static rg_schema *
parse(const char *text)
{
	rg_error	err;
	rg_schema  *s = rg_protobuf_parse(text, strlen(text), NULL, 0, false, &err);

	if (s == NULL)
		printf("# parse failed: %s\n", err.message);
	return s;
}

static void
check_path(rg_schema *s, const char *name, const int *want, int n)
{
	int			out[8];
	int			got = rg_protobuf_message_indexes(s, name, out, 8);
	bool		same = got == n;
	int			i;

	for (i = 0; same && i < n; i++)
		same = out[i] == want[i];
	RG_CHECK(same, "indexes of %s (got %d entries)", name, got);
}

static void
check_name(rg_schema *s, const int *idx, int n, const char *want)
{
	char	   *got = rg_protobuf_message_name(s, idx, n);

	RG_CHECK_STR(got, want, "name at a path of %d", n);
	free(got);
}

static void
test_paths(void)
{
	rg_schema  *s = parse("syntax = \"proto3\"; package com.acme;\n"
						  "enum Kind { K = 0; }\n"
						  "message A { int32 x = 1; }\n"
						  "message B {\n"
						  "  map<string, A> by_name = 1;\n"
						  "  enum E { Z = 0; }\n"
						  "  message C { int32 y = 1; }\n"
						  "  map<int32, C> by_id = 2;\n"
						  "  message D { message E2 { int32 z = 1; } }\n"
						  "}\n"
						  "message F {}\n");
	int			p0[] = {0};
	int			p1[] = {1};
	int			p2[] = {2};
	int			pc[] = {1, 0};
	int			pd[] = {1, 1};
	int			pe[] = {1, 1, 0};
	int			bad1[] = {3};
	int			bad2[] = {1, 2};
	int			neg[] = {-1};
	int			scratch[4] = {0};

	if (s == NULL)
		return;
	check_path(s, "com.acme.A", p0, 1);
	check_path(s, "com.acme.B", p1, 1);
	check_path(s, "com.acme.F", p2, 1);
	check_path(s, ".com.acme.B.C", pc, 2);
	check_path(s, "com.acme.B.D", pd, 2);
	check_path(s, "com.acme.B.D.E2", pe, 3);
	check_path(s, "B.D.E2", pe, 3);
	RG_CHECK(rg_protobuf_message_indexes(s, "com.acme.Kind", NULL, 0) == -1, "an enum has no index");
	RG_CHECK(rg_protobuf_message_indexes(s, "com.acme.B.ByNameEntry", scratch, 4) == -1,
			 "a map entry has no index");
	RG_CHECK(rg_protobuf_message_indexes(s, "com.acme.Nope", scratch, 4) == -1, "unknown message");
	RG_CHECK(rg_protobuf_message_indexes(s, "com.acme.B.D.E2", scratch, 2) == -1,
			 "path longer than max");
	RG_CHECK(rg_protobuf_message_indexes(s, "", scratch, 2) == -1, "empty name");

	check_name(s, p0, 1, "com.acme.A");
	check_name(s, NULL, 0, "com.acme.A");
	check_name(s, p2, 1, "com.acme.F");
	check_name(s, pc, 2, "com.acme.B.C");
	check_name(s, pe, 3, "com.acme.B.D.E2");
	check_name(s, bad1, 1, NULL);
	check_name(s, bad2, 2, NULL);
	check_name(s, neg, 1, NULL);
	rg_schema_free(s);

	s = parse("syntax = \"proto2\"; message G { optional group Inner = 1 { optional int32 a = 1; }"
			  " message After {} }");
	if (s != NULL)
	{
		int			pa[] = {0, 0};

		check_path(s, "G.After", pa, 2);
		rg_schema_free(s);
	}

	s = parse("syntax = \"proto3\";");
	if (s != NULL)
	{
		RG_CHECK(rg_protobuf_message_name(s, NULL, 0) == NULL, "no message at [0] of an empty file");
		rg_schema_free(s);
	}
}

int
main(void)
{
	test_wire();
	test_paths();
	return rg_test_done();
}
