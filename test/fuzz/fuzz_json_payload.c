/*-------------------------------------------------------------------------
 *
 * fuzz_json_payload.c
 *	  libFuzzer target for JSON payloads: rg_format_json's encode and
 *	  decode (the strict JSON reader, the validator over the schema graph,
 *	  the bounded pattern matcher, the notes).
 *
 * The input is split at its first NUL byte (or, without one, in half)
 * into a schema text A and a value B.  When A parses, B is encoded
 * against it, decoded with A as the writer, and decoded with A as writer
 * and reader with notes.  Invariants (abort() otherwise, so libFuzzer
 * records the input):
 *
 *	- encode and decode (writer only) agree on whether B is admitted, and
 *	  on the text they write;
 *	- the text written is a fixed point: encoding it again gives itself;
 *	- a refusal has a message and one of the codes the contract allows
 *	  (encode: an invalid value; decode: an invalid payload, or an
 *	  invalid value the reader refuses), or out of memory.
 *
 * Everything is freed, so LeakSanitizer sees any leak.
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rg_jsonschema.h"

#define FUZZ_TARGET "fuzz_json_payload"
#include "fuzz_common.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A refusal must come with a message and an allowed code. */
static void
check_refusal(const rg_error *err, rg_errcode allowed, rg_errcode also, const char *what)
{
	if (err->message[0] == '\0')
		invariant_failed("a refusal without a message", what, NULL);
	if (err->code != allowed && err->code != also && err->code != RG_ERR_NOMEM)
		invariant_failed("a refusal with a code the contract does not allow", what,
						 err->message);
}

/* A buffer's text, NUL-terminated, for reports. */
static const char *
text_of(rg_buf *b)
{
	rg_buf_putc(b, '\0');
	b->len--;
	return b->data ? b->data : "";
}

/* Encode, decode and decode with a reader one value against one schema. */
static void
check_value(const rg_schema *s, const char *value, size_t len)
{
	rg_buf		enc;
	rg_buf		dec;
	rg_buf		again;
	rg_buf		read;
	rg_error	err1;
	rg_error	err2;
	rg_error	err3;
	rg_arena   *arena = rg_arena_create();
	rg_strlist	notes;
	bool		encoded;
	bool		decoded;

	rg_buf_init(&enc);
	rg_buf_init(&dec);
	rg_buf_init(&again);
	rg_buf_init(&read);
	rg_strlist_init(&notes, arena);
	encoded = rg_format_json.encode(s, NULL, value, len, &enc, &err1);
	decoded = rg_format_json.decode(s, NULL, (const uint8_t *) value, len, &dec, NULL, &err2);
	if (!encoded)
		check_refusal(&err1, RG_ERR_INVALID_VALUE, RG_ERR_INVALID_VALUE, "encode");
	if (!decoded)
		check_refusal(&err2, RG_ERR_INVALID_PAYLOAD, RG_ERR_INVALID_PAYLOAD, "decode");
	if (encoded != decoded && err1.code != RG_ERR_NOMEM && err2.code != RG_ERR_NOMEM)
		invariant_failed("encode and decode disagree", encoded ? err2.message : err1.message,
						 s->canonical);
	if (encoded && decoded &&
		(enc.len != dec.len || memcmp(enc.data, dec.data, enc.len) != 0))
		invariant_failed("encode and decode write different texts", text_of(&enc), text_of(&dec));
	if (encoded)
	{
		if (!rg_format_json.encode(s, NULL, enc.data, enc.len, &again, &err1))
			invariant_failed("the encoded text is refused", text_of(&enc), err1.message);
		else if (again.len != enc.len || memcmp(again.data, enc.data, enc.len) != 0)
			invariant_failed("the encoded text is no fixed point", text_of(&enc), text_of(&again));
	}
	if (rg_format_json.decode(s, s, (const uint8_t *) value, len, &read, &notes, &err3))
	{
		if (!encoded && err1.code != RG_ERR_NOMEM)
			invariant_failed("the reader admits what the writer refuses", value, err1.message);
	}
	else
		check_refusal(&err3, RG_ERR_INVALID_VALUE, RG_ERR_INVALID_PAYLOAD, "decode with a reader");
	rg_buf_free(&enc);
	rg_buf_free(&dec);
	rg_buf_free(&again);
	rg_buf_free(&read);
	rg_arena_destroy(arena);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *) data;
	const uint8_t *nul = memchr(data, 0, size);
	size_t		len_a = nul ? (size_t) (nul - data) : size / 2;
	const char *text_b = nul ? text + len_a + 1 : text + len_a;
	size_t		len_b = nul ? size - len_a - 1 : size - len_a;
	rg_error	err;
	rg_schema  *s = rg_json_parse(text, len_a, NULL, 0, false, &err);

	if (s == NULL)
		return 0;
	check_value(s, text_b, len_b);
	rg_schema_free(s);
	return 0;
}
