/*
 * Unit tests of base64 (common/rg_base64.c): the encoder, and the decoder
 * in its two modes, strict (Avro's bytes in JSON: one encoding per value)
 * and lenient (a PROTOBUF schema given as a base64 FileDescriptorProto).
 */
#include <string.h>

#include "rg_base64.h"
#include "rg_test.h"

/* The encoding of n bytes, as a string (static buffer). */
static const char *
encoded(const char *bytes, size_t n)
{
	static char text[256];
	rg_buf		buf;

	rg_buf_init(&buf);
	rg_base64_encode(&buf, (const uint8_t *) bytes, n);
	snprintf(text, sizeof(text), "%.*s", (int) buf.len, buf.data ? buf.data : "");
	rg_buf_free(&buf);
	return text;
}

/* The decoding of text, or "(invalid)". */
static const char *
decoded(const char *text, bool strict)
{
	static char bytes[256];
	rg_buf		buf;
	bool		ok;

	rg_buf_init(&buf);
	ok = rg_base64_decode(text, strlen(text), strict, &buf);
	snprintf(bytes, sizeof(bytes), "%.*s", (int) buf.len, buf.data ? buf.data : "");
	rg_buf_free(&buf);
	return ok ? bytes : "(invalid)";
}

/* RFC 4648's test vectors, both ways. */
static void
test_vectors(void)
{
	static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
	static const char *const text[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
	int			i;

	for (i = 0; i < 7; i++)
	{
		RG_CHECK_STR(encoded(plain[i], strlen(plain[i])), text[i], "encode \"%s\"", plain[i]);
		RG_CHECK_STR(decoded(text[i], true), plain[i], "decode %s (strict)", text[i]);
		RG_CHECK_STR(decoded(text[i], false), plain[i], "decode %s (lenient)", text[i]);
	}
	RG_CHECK_STR(encoded("\xfb\xff", 2), "+/8=", "the standard alphabet on output");
}

/* What both modes accept, and what both refuse. */
static void
test_both(void)
{
	RG_CHECK_STR(decoded("-_8", true), "\xfb\xff", "the URL-safe alphabet, unpadded");
	RG_CHECK_STR(decoded("+/8", false), "\xfb\xff", "the standard alphabet, unpadded");
	RG_CHECK_STR(decoded("Zm9vY", true), "(invalid)", "a lone sextet at the end (strict)");
	RG_CHECK_STR(decoded("Zm9vY", false), "(invalid)", "a lone sextet at the end (lenient)");
	RG_CHECK_STR(decoded("Zm 9v", false), "(invalid)", "a space inside");
	RG_CHECK_STR(decoded("Zm9v===", true), "(invalid)", "three padding characters");
}

/* What only the lenient mode lets through. */
static void
test_strictness(void)
{
	RG_CHECK_STR(decoded("Zh==", true), "(invalid)", "leftover bits not zero (strict)");
	RG_CHECK_STR(decoded("Zh==", false), "f", "leftover bits not zero (lenient)");
	RG_CHECK_STR(decoded("Zg=", true), "(invalid)", "a padding that ends no group of four (strict)");
	RG_CHECK_STR(decoded("Zg=", false), "f", "a padding that ends no group of four (lenient)");
}

int
main(void)
{
	test_vectors();
	test_both();
	test_strictness();
	return rg_test_done();
}
