/*-------------------------------------------------------------------------
 *
 * fuzz_proto_payload.c
 *	  libFuzzer target for PROTOBUF payloads: decode (the message indexes,
 *	  the walk of the bytes, libprotobuf's parse and JSON printer) and
 *	  encode (libprotobuf's JSON parser), against a few fixed schemas that
 *	  have every field kind.
 *
 * The first byte chooses the writer schema (low nibble), the reader
 * (bit 4: none, else the "reader" schema of the same package) and the
 * mode (bit 5: the rest is JSON text to encode as the first message;
 * otherwise bytes to decode, after the index shortcut byte 0 unless bit 6
 * says the rest carries its own indexes).  Whatever decodes must encode
 * again and decode to the same JSON text (a -0 read as 0 aside);
 * whatever encodes must decode (abort() otherwise, so libFuzzer records
 * the input).  Everything is freed, so LeakSanitizer sees any leak.
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rg_protobuf.h"

#define FUZZ_TARGET "fuzz_proto_payload"
#include "fuzz_common.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const writer_texts[] = {
	/* proto3: every scalar, nesting, maps, oneof, optional, enums, recursion */
	"syntax = \"proto3\";\npackage f;\n"
	"import \"google/protobuf/timestamp.proto\";\n"
	"import \"google/protobuf/struct.proto\";\n"
	"import \"google/protobuf/any.proto\";\n"
	"import \"google/protobuf/wrappers.proto\";\n"
	"import \"google/protobuf/duration.proto\";\n"
	"message All {\n"
	"  double d = 1; float f = 2; int64 i64 = 3; uint64 u64 = 4; int32 i32 = 5;\n"
	"  fixed64 f64 = 6; fixed32 f32 = 7; bool b = 8; string s = 9; bytes by = 10;\n"
	"  uint32 u32 = 11; sfixed32 sf32 = 12; sfixed64 sf64 = 13; sint32 si32 = 14; sint64 si64 = 15;\n"
	"  All child = 16; repeated All kids = 17; map<string, All> named = 18; map<int64, string> tags = 19;\n"
	"  enum E { Z = 0; O = 1; } E e = 20; repeated E es = 21;\n"
	"  oneof o { string os = 22; All oa = 23; }\n"
	"  optional int32 opt = 24; repeated double ds = 25; repeated string ss = 26;\n"
	"  google.protobuf.Timestamp ts = 27; google.protobuf.Struct st = 28; google.protobuf.Any any = 29;\n"
	"  google.protobuf.Int64Value w = 30; google.protobuf.Duration du = 31; google.protobuf.Value v = 32;\n"
	"  message Inner { string x = 1; }\n"
	"}\n"
	"message Second { All.Inner in = 1; }\n",
	/* proto2: defaults, required, groups, extensions, closed enums */
	"syntax = \"proto2\";\npackage g;\n"
	"message P { required string name = 1; optional int32 n = 2 [default = 7];\n"
	"  optional K k = 3 [default = B]; repeated P ps = 4;\n"
	"  optional group Gr = 5 { optional int32 x = 6; }\n"
	"  optional bytes raw = 7 [default = \"\\001\"]; extensions 100 to 199; }\n"
	"enum K { A = 0; B = 1; }\n"
	"extend P { optional int32 ext = 100; }\n",
};

static const char *const reader_texts[] = {
	"syntax = \"proto3\";\npackage f;\n"
	"message All { int64 i32 = 5; string b = 8; bytes s = 9; All child = 16;\n"
	"  repeated All kids = 17; string added = 40; map<string, string> tags = 19; }\n",
	"syntax = \"proto2\";\npackage g;\n"
	"message P { optional string name = 1; optional int64 n = 2 [default = 9]; repeated P ps = 4;\n"
	"  optional string more = 9 [default = \"m\"]; }\n",
};

#define N_SCHEMAS ((int) (sizeof(writer_texts) / sizeof(writer_texts[0])))

static rg_schema *writers[N_SCHEMAS];
static rg_schema *readers[N_SCHEMAS];

/* Parse the fixed schemas once (kept for the life of the fuzzer). */
static void
setup(void)
{
	static bool done = false;
	int			i;
	rg_error	err;

	if (done)
		return;
	done = true;
	for (i = 0; i < N_SCHEMAS; i++)
	{
		writers[i] = rg_protobuf_parse(writer_texts[i], strlen(writer_texts[i]), NULL, 0,
									   false, &err);
		if (writers[i] == NULL)
			invariant_failed("fixed writer schema parses", writer_texts[i], err.message);
		readers[i] = rg_protobuf_parse(reader_texts[i], strlen(reader_texts[i]), NULL, 0,
									   false, &err);
		if (readers[i] == NULL)
			invariant_failed("fixed reader schema parses", reader_texts[i], err.message);
	}
}

/* An error code a payload call may give on any input */
static void
check_code(const rg_error *err, const char *what)
{
	if (err->code != RG_ERR_INVALID_VALUE && err->code != RG_ERR_INVALID_PAYLOAD)
		invariant_failed(what, err->message, NULL);
	if (err->message[0] != '$')
		invariant_failed("error messages start with a path", err->message, NULL);
}

/* A NUL-terminated copy of a buffer's text */
static char *
text_of(const rg_buf *b)
{
	char	   *s = malloc(b->len + 1);

	if (s == NULL)
		abort();
	memcpy(s, b->data, b->len);
	s[b->len] = '\0';
	return s;
}

/*
 * The JSON text with each number -0 written 0: libprotobuf's JSON parser
 * reads -0 as the integer 0 (and jsonb has no negative zero either)
 */
static void
unsign_zeros(char *json)
{
	char	   *p;

	for (p = json; (p = strstr(p, "-0")) != NULL; p++)
		if (p > json && strchr(":[,", p[-1]) != NULL && p[2] != '\0' &&
			strchr(",]}", p[2]) != NULL)
			memmove(p, p + 1, strlen(p + 1) + 1);
}

/*
 * JSON a decode gave: it encodes again (as the message the payload named)
 * and decodes to the very same text.
 */
static void
check_again(const rg_schema *s, const char *message, char *json)
{
	rg_buf		bytes;
	rg_buf		again;
	rg_error	err;
	char	   *second;

	rg_buf_init(&bytes);
	rg_buf_init(&again);
	if (!rg_format_protobuf.encode(s, message, json, strlen(json), &bytes, &err))
		invariant_failed("decoded JSON encodes again", json, err.message);
	if (!rg_format_protobuf.decode(s, NULL, (const uint8_t *) bytes.data, bytes.len, &again,
								   NULL, &err))
		invariant_failed("re-encoded payload decodes", json, err.message);
	second = text_of(&again);
	unsign_zeros(json);
	if (strcmp(json, second) != 0)
		invariant_failed("decode, encode, decode gives the same JSON", json, second);
	free(second);
	rg_buf_free(&bytes);
	rg_buf_free(&again);
}

/* Decode data (indexes included) with writer w and maybe reader r. */
static void
fuzz_decode(const rg_schema *w, const rg_schema *r, const uint8_t *data, size_t size)
{
	rg_arena   *arena = rg_arena_create();
	rg_strlist	notes;
	rg_buf		out;
	rg_error	err;
	size_t		consumed;
	int			idx[128];
	int			n;

	if (arena == NULL)
		abort();
	rg_strlist_init(&notes, arena);
	rg_buf_init(&out);
	if (!rg_format_protobuf.decode(w, r, data, size, &out, &notes, &err))
		check_code(&err, "decode fails only on invalid payloads or values");
	else if (r == NULL)
	{
		char	   *json = text_of(&out);
		char	   *name;

		n = rg_protobuf_decode_indexes(data, size, idx, 128, &consumed);
		name = n >= 0 ? rg_protobuf_message_name(w, idx, n) : NULL;
		if (name == NULL)
			invariant_failed("decoded payload has indexes of the schema", json, NULL);
		check_again(w, name, json);
		rg_free(name);
		free(json);
	}
	rg_buf_free(&out);
	rg_arena_destroy(arena);
}

/* Encode data as JSON text of the first message; what encodes decodes. */
static void
fuzz_encode(const rg_schema *w, const uint8_t *data, size_t size)
{
	rg_buf		out;
	rg_buf		json;
	rg_error	err;

	rg_buf_init(&out);
	rg_buf_init(&json);
	if (!rg_format_protobuf.encode(w, NULL, (const char *) data, size, &out, &err))
		check_code(&err, "encode fails only on invalid values");
	else if (!rg_format_protobuf.decode(w, NULL, (const uint8_t *) out.data, out.len, &json,
										NULL, &err))
		invariant_failed("an encoded value decodes", err.message, NULL);
	rg_buf_free(&out);
	rg_buf_free(&json);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int			which;
	const rg_schema *w;
	const rg_schema *r;

	if (size < 1)
		return 0;
	setup();
	which = (data[0] & 0x0f) % N_SCHEMAS;
	w = writers[which];
	r = (data[0] & 0x10) ? NULL : readers[which];
	if (data[0] & 0x20)
		fuzz_encode(w, data + 1, size - 1);
	else if (data[0] & 0x40)
		fuzz_decode(w, r, data + 1, size - 1);
	else
	{
		uint8_t    *payload = malloc(size);

		if (payload == NULL)
			abort();
		payload[0] = 0;
		memcpy(payload + 1, data + 1, size - 1);
		fuzz_decode(w, r, payload, size);
		free(payload);
	}
	return 0;
}
