/*-------------------------------------------------------------------------
 *
 * test_avro_payload.c
 *	  Unit tests of AVRO payloads: encode (JSON to Avro binary), decode
 *	  (binary to JSON, with schema resolution) and their errors and
 *	  limits.  Binary forms are checked byte for byte against the Avro
 *	  specification's encoding and, for a record of every type, against
 *	  avro-c reading the same bytes.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_test.h"
#include "rg_avro.h"

#include <avro.h>

static char errbuf[RG_ERROR_MAX];
static rg_errcode errcode;

/* A parsed schema, or NULL (printed) */
static rg_schema *
schema(const char *text)
{
	rg_error	err;
	rg_schema  *s = rg_avro_parse(text, strlen(text), NULL, 0, false, &err);

	if (s == NULL)
		printf("# schema does not parse: %s\n", err.message);
	return s;
}

/* hex of n bytes (static buffer) */
static const char *
hex(const char *b, size_t n)
{
	static char out[8192];
	size_t		i;

	out[0] = '\0';
	for (i = 0; i < n && i * 2 + 3 < sizeof(out); i++)
		sprintf(out + 2 * i, "%02x", (unsigned char) b[i]);
	return out;
}

/* bytes of a hex string into out; the count */
static size_t
unhex(const char *h, uint8_t *out)
{
	size_t		n = 0;

	while (h[0] && h[1])
	{
		unsigned	v;

		sscanf(h, "%2x", &v);
		out[n++] = (uint8_t) v;
		h += 2;
	}
	return n;
}

/* encode json against s: the hex of the payload, or NULL with errbuf */
static const char *
enc(const rg_schema *s, const char *json)
{
	rg_buf		out;
	rg_error	err;
	static char result[8192];

	rg_buf_init(&out);
	if (!rg_format_avro.encode(s, NULL, json, strlen(json), &out, &err))
	{
		snprintf(errbuf, sizeof(errbuf), "%s", err.message);
		errcode = err.code;
		rg_buf_free(&out);
		return NULL;
	}
	snprintf(result, sizeof(result), "%s", hex(out.data ? out.data : "", out.len));
	rg_buf_free(&out);
	errbuf[0] = '\0';
	errcode = RG_OK;
	return result;
}

static rg_arena *notes_arena;
static rg_strlist notes;

/* decode hex bytes written with w, read with r: JSON text, or NULL with errbuf */
static const char *
dec(const rg_schema *w, const rg_schema *r, const char *hexbytes)
{
	static uint8_t bytes[1 << 16];
	static char result[1 << 16];
	size_t		n = unhex(hexbytes, bytes);
	rg_buf		out;
	rg_error	err;

	if (notes_arena)
		rg_arena_destroy(notes_arena);
	notes_arena = rg_arena_create();
	rg_strlist_init(&notes, notes_arena);
	rg_buf_init(&out);
	if (!rg_format_avro.decode(w, r, bytes, n, &out, &notes, &err))
	{
		snprintf(errbuf, sizeof(errbuf), "%s", err.message);
		errcode = err.code;
		rg_buf_free(&out);
		return NULL;
	}
	snprintf(result, sizeof(result), "%s", out.data ? out.data : "");
	rg_buf_free(&out);
	errbuf[0] = '\0';
	errcode = RG_OK;
	return result;
}

/* decode raw bytes (not hex) with w only */
static const char *
dec_raw(const rg_schema *w, const uint8_t *b, size_t n)
{
	static char result[1 << 16];
	rg_buf		out;
	rg_error	err;

	rg_buf_init(&out);
	if (!rg_format_avro.decode(w, NULL, b, n, &out, NULL, &err))
	{
		snprintf(errbuf, sizeof(errbuf), "%s", err.message);
		errcode = err.code;
		rg_buf_free(&out);
		return NULL;
	}
	snprintf(result, sizeof(result), "%.*s", (int) (sizeof(result) - 1), out.data ? out.data : "");
	rg_buf_free(&out);
	errcode = RG_OK;
	return result;
}

/* the notes of the last decode, joined with " | " */
static const char *
notes_text(void)
{
	static char out[4096];
	int			i;

	out[0] = '\0';
	for (i = 0; i < notes.n; i++)
	{
		if (i)
			strcat(out, " | ");
		strncat(out, notes.items[i], sizeof(out) - strlen(out) - 1);
	}
	return out;
}

/* json encodes to want_hex and decodes back to want_json */
static void
round_trip(const char *schema_text, const char *json, const char *want_hex,
		   const char *want_json)
{
	rg_schema  *s = schema(schema_text);
	const char *h;

	if (s == NULL)
	{
		RG_CHECK(0, "schema %s", schema_text);
		return;
	}
	h = enc(s, json);
	if (h == NULL)
		printf("#   encode error: %s\n", errbuf);
	if (want_hex != NULL)
		RG_CHECK_STR(h, want_hex, "encode %s as %s", json, schema_text);
	if (h != NULL)
	{
		const char *back = dec(s, NULL, h);

		if (back == NULL)
			printf("#   decode error: %s\n", errbuf);
		RG_CHECK_STR(back, want_json ? want_json : json, "decode %s as %s", json, schema_text);
	}
	rg_schema_free(s);
}

/* encoding json fails with code and a message containing want */
static void
encode_fails(const char *schema_text, const char *json, rg_errcode code, const char *want)
{
	rg_schema  *s = schema(schema_text);
	const char *h = enc(s, json);

	RG_CHECK(h == NULL && errcode == code && strstr(errbuf, want) != NULL,
			 "encode %s refused: %s", json, want);
	if (h != NULL || strstr(errbuf, want) == NULL)
		printf("#   got: %s (%s)\n", h ? h : "error", errbuf);
	rg_schema_free(s);
}

/* decoding hex with writer (and reader) gives want (NULL: fails with code and want_err) */
static void
resolves(const char *writer, const char *reader, const char *json, const char *want,
		 const char *want_notes)
{
	rg_schema  *w = schema(writer);
	rg_schema  *r = schema(reader);
	const char *h = enc(w, json);
	const char *got;

	if (h == NULL)
	{
		RG_CHECK(0, "writer encodes %s: %s", json, errbuf);
		rg_schema_free(w);
		rg_schema_free(r);
		return;
	}
	got = dec(w, r, h);
	if (got == NULL)
		printf("#   decode error: %s\n", errbuf);
	RG_CHECK_STR(got, want, "resolve %s into %s", json, reader);
	if (want_notes != NULL)
		RG_CHECK_STR(notes_text(), want_notes, "notes of %s into %s", json, reader);
	rg_schema_free(w);
	rg_schema_free(r);
}

/* decoding with a reader fails with code and a message containing want */
static void
resolve_fails(const char *writer, const char *reader, const char *json, rg_errcode code,
			  const char *want)
{
	rg_schema  *w = schema(writer);
	rg_schema  *r = schema(reader);
	const char *h = enc(w, json);
	const char *got = h ? dec(w, r, h) : "encode failed";

	RG_CHECK(got == NULL && errcode == code && strstr(errbuf, want) != NULL,
			 "resolve %s into %s refused: %s", json, reader, want);
	if (got != NULL || strstr(errbuf, want) == NULL)
		printf("#   got: %s (%s)\n", got ? got : "error", errbuf);
	rg_schema_free(w);
	rg_schema_free(r);
}

/* decoding hex with s fails with code and a message containing want */
static void
decode_fails(const char *schema_text, const char *hexbytes, rg_errcode code, const char *want)
{
	rg_schema  *s = schema(schema_text);
	const char *got = dec(s, NULL, hexbytes);

	RG_CHECK(got == NULL && errcode == code && strstr(errbuf, want) != NULL,
			 "decode %s refused: %s", hexbytes, want);
	if (got != NULL || strstr(errbuf, want) == NULL)
		printf("#   got: %s (%s)\n", got ? got : "error", errbuf);
	rg_schema_free(s);
}

static void
test_primitives(void)
{
	round_trip("\"null\"", "null", "", NULL);
	round_trip("\"boolean\"", "true", "01", NULL);
	round_trip("\"boolean\"", "false", "00", NULL);
	round_trip("\"int\"", "0", "00", NULL);
	round_trip("\"int\"", "-1", "01", NULL);
	round_trip("\"int\"", "1", "02", NULL);
	round_trip("\"int\"", "64", "8001", NULL);
	round_trip("\"int\"", "2147483647", "feffffff0f", NULL);
	round_trip("\"int\"", "-2147483648", "ffffffff0f", NULL);
	round_trip("\"int\"", "5.0", "0a", "5");
	round_trip("\"long\"", "9223372036854775807", "feffffffffffffffff01", NULL);
	round_trip("\"long\"", "-9223372036854775808", "ffffffffffffffffff01", NULL);
	round_trip("\"float\"", "1.5", "0000c03f", NULL);
	round_trip("\"float\"", "0.1", "cdcccc3d", NULL);
	round_trip("\"double\"", "1.5", "000000000000f83f", NULL);
	round_trip("\"double\"", "0.1", "9a9999999999b93f", NULL);
	round_trip("\"double\"", "1e-7", NULL, "0.0000001");
	round_trip("\"double\"", "-0.005", NULL, NULL);
	round_trip("\"double\"", "12345678901.25", NULL, NULL);
	round_trip("\"double\"", "1e20", NULL, "1e+20");
	round_trip("\"double\"", "3.141592653589793", NULL, NULL);
	round_trip("\"double\"", "2.5e-10", NULL, "2.5e-10");
	round_trip("\"double\"", "123456789.125", NULL, NULL);
	round_trip("\"double\"", "-0.0", "0000000000000080", "-0");
	round_trip("\"double\"", "\"NaN\"", "000000000000f87f", NULL);
	round_trip("\"double\"", "\"-Infinity\"", "000000000000f0ff", NULL);
	round_trip("\"string\"", "\"foo\"", "06666f6f", NULL);
	round_trip("\"string\"", "\"\\u00e9\\n\\\"\"", "08c3a90a22", "\"\xc3\xa9\\n\\\"\"");
	round_trip("\"string\"", "\"\\ud83d\\ude00\"", "08f09f9880", "\"\xf0\x9f\x98\x80\"");
	round_trip("\"bytes\"", "\"AAEC/w==\"", "08000102ff", NULL);
	round_trip("\"bytes\"", "\"\"", "00", NULL);
	round_trip("\"bytes\"", "\"AAEC_w\"", "08000102ff", "\"AAEC/w==\"");
	round_trip("{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}", "\"AQID\"", "010203", NULL);
	round_trip("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\",\"C\"]}", "\"C\"",
			   "04", NULL);
	round_trip("{\"type\":\"array\",\"items\":\"int\"}", "[1,2,3]", "06020406" "00", NULL);
	round_trip("{\"type\":\"array\",\"items\":\"int\"}", "[]", "00", NULL);
	round_trip("{\"type\":\"map\",\"values\":\"long\"}", "{\"a\":1,\"b\":-1}",
			   "0402610202620100", NULL);
	round_trip("{\"type\":\"record\",\"name\":\"R\",\"fields\":["
			   "{\"name\":\"a\",\"type\":\"long\"},{\"name\":\"b\",\"type\":\"string\"}]}",
			   "{\"b\":\"x\",\"a\":27}", "360278", "{\"a\":27,\"b\":\"x\"}");
}

static void
test_logical(void)
{
	const char *dec_bytes = "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}";
	const char *dec_fixed = "{\"type\":\"fixed\",\"name\":\"D\",\"size\":4,\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}";

	round_trip(dec_bytes, "12.34", "0404d2", NULL);
	round_trip(dec_bytes, "-12.34", "04fb2e", NULL);
	round_trip(dec_bytes, "\"12.3\"", "0404ce", "12.30");
	round_trip(dec_bytes, "0", "0200", "0.00");
	round_trip(dec_bytes, "1.5e2", "043a98", "150.00");
	round_trip(dec_bytes, "0.05", "0205", NULL);
	round_trip(dec_bytes, "-0.05", "02fb", NULL);
	round_trip(dec_bytes, "1.28", "040080", NULL);
	round_trip(dec_bytes, "-1.28", "0280", NULL);
	round_trip(dec_fixed, "12.34", "000004d2", NULL);
	round_trip(dec_fixed, "-12.34", "fffffb2e", NULL);
	round_trip("{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":38,\"scale\":10}",
			   "1234567890123456789012345678.0123456789", NULL, NULL);
	encode_fails(dec_bytes, "1.234", RG_ERR_INVALID_VALUE, "more digits after the point than the scale");
	encode_fails(dec_bytes, "12345678.9", RG_ERR_INVALID_VALUE, "more digits than the precision");

	/*
	 * a string that is not number text is a decimal's bytes in Avro's JSON
	 * encoding
	 */
	round_trip(dec_bytes, "\"1x\"", "043178", "126.64");
	encode_fails(dec_bytes, "\"1\\u0100\"", RG_ERR_INVALID_VALUE, "is neither a decimal number nor");
	round_trip("{\"type\":\"int\",\"logicalType\":\"date\"}", "\"2024-02-29\"", "8cb502", NULL);
	round_trip("{\"type\":\"int\",\"logicalType\":\"date\"}", "19782", "8cb502", "\"2024-02-29\"");
	round_trip("{\"type\":\"int\",\"logicalType\":\"date\"}", "\"1969-12-31\"", "01", NULL);
	round_trip("{\"type\":\"int\",\"logicalType\":\"date\"}", "\"0001-01-01\"", NULL, NULL);
	round_trip("{\"type\":\"int\",\"logicalType\":\"date\"}", "2147483647", NULL, "\"+5881580-07-11\"");
	encode_fails("{\"type\":\"int\",\"logicalType\":\"date\"}", "\"2023-02-29\"",
				 RG_ERR_INVALID_VALUE, "not a valid date");
	round_trip("{\"type\":\"int\",\"logicalType\":\"time-millis\"}", "\"12:34:56.789\"", NULL, NULL);
	round_trip("{\"type\":\"int\",\"logicalType\":\"time-millis\"}", "\"00:00\"", "00", "\"00:00:00.000\"");
	round_trip("{\"type\":\"int\",\"logicalType\":\"time-millis\"}", "-5", "09", "-5");
	round_trip("{\"type\":\"long\",\"logicalType\":\"time-micros\"}", "\"23:59:59.999999\"", NULL, NULL);
	encode_fails("{\"type\":\"int\",\"logicalType\":\"time-millis\"}", "\"12:00:00.0001\"",
				 RG_ERR_INVALID_VALUE, "more digits of a second");
	round_trip("{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}",
			   "\"2024-01-31T12:34:56.789Z\"", NULL, NULL);
	round_trip("{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}", "0", "00",
			   "\"1970-01-01T00:00:00.000Z\"");
	round_trip("{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}", "-1", "01",
			   "\"1969-12-31T23:59:59.999Z\"");
	round_trip("{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}",
			   "\"2024-01-31T14:34:56.789+02:00\"", NULL, "\"2024-01-31T12:34:56.789Z\"");
	round_trip("{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}",
			   "\"2024-01-31T12:34:56.123456Z\"", NULL, NULL);
	round_trip("{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}",
			   "\"2024-01-31T12:34:56.789\"", NULL, NULL);
	round_trip("{\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}",
			   "\"2024-01-31 12:34:56\"", NULL, "\"2024-01-31T12:34:56.000000\"");
	encode_fails("{\"type\":\"long\",\"logicalType\":\"local-timestamp-millis\"}",
				 "\"2024-01-31T12:34:56Z\"", RG_ERR_INVALID_VALUE, "without an offset");
	round_trip("{\"type\":\"string\",\"logicalType\":\"uuid\"}",
			   "\"123e4567-e89b-12d3-a456-426614174000\"", NULL, NULL);
	/* any text, as decode reads any */
	round_trip("{\"type\":\"string\",\"logicalType\":\"uuid\"}", "\"123\"", "06313233", NULL);
	/* an invalid logical type is ignored, as Avro does */
	round_trip("{\"type\":\"string\",\"logicalType\":\"date\"}", "\"x\"", "0278", NULL);
}

/*
 * Avro's JSON encoding of bytes, fixed and decimals (strings of code points
 * U+0000..U+00FF, one byte each) is read as well as the form decode writes
 * (base64, numbers); where a string is both, the stated rule: bytes take
 * valid base64 as base64, fixed the form that has its size, a decimal
 * number text as the number; a bare union branch only the form decode
 * writes.
 */
static void
test_avro_json_encoding(void)
{
	const char *amount = "{\"type\":\"record\",\"name\":\"Pay\",\"fields\":[{\"name\":\"amount\","
	"\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":10,\"scale\":2}}]}";
	const char *dec_bytes = "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}";
	const char *dec_fixed = "{\"type\":\"fixed\",\"name\":\"D\",\"size\":4,\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}";
	const char *fixed2 = "{\"type\":\"fixed\",\"name\":\"F\",\"size\":2}";
	const char *either = "[\"null\",\"bytes\",\"string\"]";

	/* the value: "Ö" is the byte 0xD6, -42 unscaled */
	round_trip(amount, "{\"amount\":\"\\u00d6\"}", "02d6", "{\"amount\":-0.42}");
	round_trip(amount, "{\"amount\":\"\xc3\x96\"}", "02d6", "{\"amount\":-0.42}");
	round_trip(dec_bytes, "\"\\u0004\\u00d2\"", "0404d2", "12.34");
	/* written as the value's number would be: minimal two's complement */
	round_trip(dec_bytes, "\"\\u0000\\u0005\"", "0205", "0.05");
	round_trip(dec_bytes, "\"\\u00ff\\u00ff\\u00fb\"", "02fb", "-0.05");
	round_trip(dec_fixed, "\"\\u0000\\u0000\\u0004\\u00d2\"", "000004d2", "12.34");
	round_trip(dec_fixed, "\"\\u00ff\\u00ff\\u00fb\\u002e\"", "fffffb2e", "-12.34");
	/* number text is the number: "12" is 12.00, not the bytes 0x31 0x32 */
	round_trip(dec_bytes, "\"12\"", "0404b0", "12.00");
	round_trip(dec_fixed, "\"12\"", "000004b0", "12.00");
	encode_fails(dec_fixed, "\"\\u0004\\u00d2\"", RG_ERR_INVALID_VALUE, "expected 4 bytes for fixed D, found 2");
	encode_fails(dec_bytes, "\"\\u007f\\u00ff\\u00ff\\u00ff\\u00ff\"", RG_ERR_INVALID_VALUE,
				 "(5497558138.87 in Avro's JSON encoding) has more digits than the precision");
	encode_fails(dec_bytes, "\"\"", RG_ERR_INVALID_VALUE, "is a decimal of no bytes");
	encode_fails(dec_bytes, "\"\\u20ac\"", RG_ERR_INVALID_VALUE, "is neither a decimal number nor");

	/* bytes: not base64, so code points; valid base64 stays base64 */
	round_trip("\"bytes\"", "\"\\u0000\\u0001\\u00ff\"", "060001ff", "\"AAH/\"");
	round_trip("\"bytes\"", "\"\xc3\x96 x\"", "06d62078", "\"1iB4\"");
	round_trip("\"bytes\"", "\"abcd\"", "0669b71d", NULL);
	round_trip("\"bytes\"", "\"AAEC/w==\"", "08000102ff", NULL);
	encode_fails("\"bytes\"", "\"\\u0100\"", RG_ERR_INVALID_VALUE,
				 "is neither base64 nor bytes in Avro's JSON encoding");

	/* fixed: the form that has the size (never both) */
	round_trip(fixed2, "\"//8=\"", "ffff", NULL);
	round_trip(fixed2, "\"//8\"", "ffff", "\"//8=\"");
	round_trip(fixed2, "\"AA\"", "4141", "\"QUE=\"");
	round_trip(fixed2, "\"\\u00d6x\"", "d678", "\"1ng=\"");
	round_trip(fixed2, "\"\\u0000\\u0000\"", "0000", "\"AAA=\"");
	encode_fails(fixed2, "\"\\u00d6xy\"", RG_ERR_INVALID_VALUE, "expected 2 bytes for fixed F, found 3");
	encode_fails(fixed2, "\"AAAA\"", RG_ERR_INVALID_VALUE, "expected 2 bytes for fixed F, found 3");

	/* unions: wrapped, the branch reads both forms; bare, only decode's */
	round_trip(either, "\"h\xc3\xa9llo\"", "040c68c3a96c6c6f", "{\"string\":\"h\xc3\xa9llo\"}");
	round_trip(either, "{\"bytes\":\"\\u00d6\"}", "0202d6", "{\"bytes\":\"1g==\"}");
	round_trip(either, "{\"bytes\":\"1g==\"}", "0202d6", NULL);
	round_trip("[\"null\",{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":4,\"scale\":2}]",
			   "{\"bytes\":\"\\u00d6\"}", "0202d6", "-0.42");
	encode_fails("[\"null\",{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":4,\"scale\":2}]",
				 "\"\\u00d6\"", RG_ERR_INVALID_VALUE, "not a decimal number");
	/* inside a bare branch's record, a field reads both forms again */
	round_trip("[\"null\",{\"type\":\"record\",\"name\":\"W\",\"fields\":[{\"name\":\"b\",\"type\":\"bytes\"}]}]",
			   "{\"b\":\"\\u00d6\"}", "0202d6", "{\"b\":\"1g==\"}");
}

static void
test_unions(void)
{
	const char *opt = "[\"null\",\"string\"]";
	const char *amb = "[\"null\",\"int\",\"long\"]";
	const char *recs = "[\"null\",{\"type\":\"record\",\"name\":\"A\",\"namespace\":\"x\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]},"
	"{\"type\":\"record\",\"name\":\"B\",\"namespace\":\"x\",\"fields\":[{\"name\":\"b\",\"type\":\"int\"}]}]";

	round_trip(opt, "null", "00", NULL);
	round_trip(opt, "\"hi\"", "02046869", NULL);
	round_trip(opt, "{\"string\":\"hi\"}", "02046869", "\"hi\"");
	round_trip("[\"int\",\"string\",\"boolean\"]", "true", "04" "01", NULL);
	round_trip(amb, "5", "020a", "{\"int\":5}");
	round_trip(amb, "{\"long\":5}", "040a", NULL);
	round_trip(amb, "null", "00", NULL);
	round_trip(amb, "4294967296", "048080808020", "{\"long\":4294967296}");
	round_trip(recs, "{\"x.B\":{\"b\":1}}", "0402", NULL);
	round_trip(recs, "{\"B\":{\"b\":1}}", "0402", "{\"x.B\":{\"b\":1}}");
	round_trip(recs, "{\"b\":1}", "0402", "{\"x.B\":{\"b\":1}}");
	/* a map whose one key names a branch, when the wrapper does not fit */
	round_trip("[\"int\",{\"type\":\"map\",\"values\":\"string\"}]", "{\"int\":\"x\"}",
			   "020206696e740278" "00", NULL);
	/* "NaN" in a union of double and string is the string */
	round_trip("[\"double\",\"string\"]", "\"NaN\"", "02064e614e", NULL);
	round_trip("[\"double\",\"string\"]", "1.5", "00000000000000f83f", NULL);
	encode_fails(opt, "5", RG_ERR_INVALID_VALUE, "$: expected one of [null, string], found number");
	encode_fails("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"u\",\"type\":[\"null\","
				 "{\"type\":\"record\",\"name\":\"S\",\"fields\":[{\"name\":\"n\",\"type\":\"int\"}]}]}]}",
				 "{\"u\":{\"n\":\"x\"}}", RG_ERR_INVALID_VALUE, "$.u.n: expected int, found string");
}

static void
test_records(void)
{
	const char *addr = "{\"type\":\"record\",\"name\":\"P\",\"fields\":["
	"{\"name\":\"name\",\"type\":\"string\"},"
	"{\"name\":\"address\",\"type\":{\"type\":\"record\",\"name\":\"A\",\"fields\":["
	"{\"name\":\"zip\",\"type\":\"int\"}]}},"
	"{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"},\"default\":[]},"
	"{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"int\"},\"default\":{}}]}";

	round_trip(addr, "{\"name\":\"n\",\"address\":{\"zip\":1}}", "026e020000",
			   "{\"name\":\"n\",\"address\":{\"zip\":1},\"tags\":[],\"m\":{}}");
	encode_fails(addr, "{\"name\":\"n\",\"address\":{\"zip\":\"x\"}}", RG_ERR_INVALID_VALUE,
				 "$.address.zip: expected int, found string");
	encode_fails(addr, "{\"name\":\"n\",\"address\":{}}", RG_ERR_INVALID_VALUE,
				 "$.address.zip: missing, and the field has no default");
	encode_fails(addr, "{\"name\":\"n\",\"address\":{\"zip\":1},\"x\":1}", RG_ERR_INVALID_VALUE,
				 "$.x: not a field of record P");
	encode_fails(addr, "{\"name\":\"n\",\"address\":{\"zip\":1},\"tags\":[\"a\",2]}",
				 RG_ERR_INVALID_VALUE, "$.tags[1]: expected string, found number");
	encode_fails(addr, "{\"name\":\"n\",\"address\":{\"zip\":1},\"m\":{\"a b\":\"x\"}}",
				 RG_ERR_INVALID_VALUE, "$.m[\"a b\"]: expected int, found string");
	encode_fails(addr, "{\"name\":\"n\",\"address\":{\"zip\":1.5}}", RG_ERR_INVALID_VALUE,
				 "$.address.zip: 1.5 is not an int");
	encode_fails(addr, "{\"name\":\"n\",\"address\":{\"zip\":2147483648}}", RG_ERR_INVALID_VALUE,
				 "$.address.zip: 2147483648 is not an int");
	encode_fails(addr, "{\"name\":", RG_ERR_INVALID_VALUE, "invalid JSON");
	encode_fails(addr, "[1] x", RG_ERR_INVALID_VALUE, "invalid JSON");
	encode_fails("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}", "\"B\"",
				 RG_ERR_INVALID_VALUE, "\"B\" is not a symbol of enum E");
	encode_fails("{\"type\":\"fixed\",\"name\":\"F\",\"size\":2}", "\"AQID\"",
				 RG_ERR_INVALID_VALUE, "expected 2 bytes for fixed F, found 3");
	encode_fails("\"bytes\"", "\"@\\u0100\"", RG_ERR_INVALID_VALUE, "is neither base64 nor");
	encode_fails("[\"null\",\"bytes\"]", "\"@@\"", RG_ERR_INVALID_VALUE, "\"@@\" is not base64");
	encode_fails("\"float\"", "1e39", RG_ERR_INVALID_VALUE, "out of range for float");
	/* defaults of every kind, written from the schema */
	round_trip("{\"type\":\"record\",\"name\":\"D\",\"fields\":["
			   "{\"name\":\"b\",\"type\":\"bytes\",\"default\":\"\\u00ff\\u0001\"},"
			   "{\"name\":\"u\",\"type\":[\"null\",\"int\"],\"default\":null},"
			   "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"X\",\"Y\"]},\"default\":\"Y\"},"
			   "{\"name\":\"d\",\"type\":\"double\",\"default\":\"NaN\"},"
			   "{\"name\":\"t\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"},\"default\":0}]}",
			   "{}", "04ff01" "00" "02" "000000000000f87f" "00",
			   "{\"b\":\"/wE=\",\"u\":null,\"e\":\"Y\",\"d\":\"NaN\",\"t\":\"1970-01-01T00:00:00.000Z\"}");
}

static void
test_resolution(void)
{
	const char *w1 = "{\"type\":\"record\",\"name\":\"U\",\"namespace\":\"a\",\"fields\":["
	"{\"name\":\"id\",\"type\":\"int\"},"
	"{\"name\":\"age\",\"type\":\"int\"},"
	"{\"name\":\"nick\",\"type\":\"string\"},"
	"{\"name\":\"color\",\"type\":{\"type\":\"enum\",\"name\":\"C\",\"symbols\":[\"RED\",\"GREEN\",\"BLUE\"]}}]}";
	const char *r1 = "{\"type\":\"record\",\"name\":\"U\",\"namespace\":\"b\",\"fields\":["
	"{\"name\":\"color\",\"type\":{\"type\":\"enum\",\"name\":\"C\",\"symbols\":[\"RED\",\"OTHER\"],\"default\":\"OTHER\"}},"
	"{\"name\":\"id\",\"type\":\"double\"},"
	"{\"name\":\"name\",\"type\":\"bytes\",\"aliases\":[\"nick\"]},"
	"{\"name\":\"email\",\"type\":[\"null\",\"string\"],\"default\":null},"
	"{\"name\":\"score\",\"type\":\"float\",\"default\":1.5}]}";

	resolves(w1, r1, "{\"id\":7,\"age\":30,\"nick\":\"ab\",\"color\":\"BLUE\"}",
			 "{\"color\":\"OTHER\",\"id\":7,\"name\":\"YWI=\",\"email\":null,\"score\":1.5}",
			 "$.age: not in the reader, dropped | "
			 "$.color: the symbol BLUE is not in the reader's enum, its default OTHER used | "
			 "$.email: missing from the data, the reader's default used | "
			 "$.score: missing from the data, the reader's default used");
	resolves(w1, r1, "{\"id\":7,\"age\":30,\"nick\":\"ab\",\"color\":\"RED\"}",
			 "{\"color\":\"RED\",\"id\":7,\"name\":\"YWI=\",\"email\":null,\"score\":1.5}", NULL);
	/* promotions */
	resolves("\"int\"", "\"long\"", "5", "5", "");
	resolves("\"int\"", "\"float\"", "16777217", "16777216", "");
	resolves("\"long\"", "\"double\"", "5", "5", "");
	resolves("\"float\"", "\"double\"", "1.5", "1.5", "");
	resolves("\"bytes\"", "\"string\"", "\"aGk=\"", "\"hi\"", "");
	resolves("\"string\"", "\"bytes\"", "\"hi\"", "\"aGk=\"", "");
	resolves("{\"type\":\"array\",\"items\":\"int\"}", "{\"type\":\"array\",\"items\":\"long\"}",
			 "[1,2]", "[1,2]", "");
	resolves("{\"type\":\"map\",\"values\":\"int\"}", "{\"type\":\"map\",\"values\":\"double\"}",
			 "{\"a\":1}", "{\"a\":1}", "");
	/* unions on either side */
	resolves("\"int\"", "[\"null\",\"long\"]", "5", "5", "");
	resolves("[\"null\",\"int\"]", "\"long\"", "5", "5", "");
	resolves("[\"null\",\"int\"]", "[\"string\",\"null\",\"double\"]", "5", "5", "");
	resolves("[\"null\",\"int\"]", "[\"int\",\"long\",\"null\"]", "5", "{\"int\":5}", "");
	resolve_fails("[\"null\",\"string\"]", "\"string\"", "null", RG_ERR_INVALID_VALUE,
				  "the reader's string cannot read the writer's null");
	resolve_fails("\"string\"", "[\"null\",\"int\"]", "\"x\"", RG_ERR_INVALID_VALUE,
				  "the reader's union has no branch for the writer's string");
	resolve_fails("\"long\"", "\"int\"", "5", RG_ERR_INVALID_VALUE,
				  "the reader's int cannot read the writer's long");
	/* named types by alias */
	resolves("{\"type\":\"record\",\"name\":\"Old\",\"namespace\":\"n\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}",
			 "{\"type\":\"record\",\"name\":\"New\",\"aliases\":[\"n.Old\"],\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}",
			 "{\"a\":1}", "{\"a\":1}", "");
	resolve_fails("{\"type\":\"record\",\"name\":\"Old\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}",
				  "{\"type\":\"record\",\"name\":\"New\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}",
				  "{\"a\":1}", RG_ERR_INVALID_VALUE,
				  "the reader's record New cannot read the writer's record Old");
	resolve_fails("{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}",
				  "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"b\",\"type\":\"int\"}]}",
				  "{\"a\":1}", RG_ERR_INVALID_VALUE,
				  "$.b: missing from the data, and the reader's field has no default");
	resolve_fails("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}",
				  "{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}", "\"B\"",
				  RG_ERR_INVALID_VALUE, "the symbol B is not in the reader's enum E");
	resolve_fails("{\"type\":\"fixed\",\"name\":\"F\",\"size\":2}",
				  "{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}", "\"AQI=\"",
				  RG_ERR_INVALID_VALUE, "cannot read the writer's fixed F");
	/* notes name every item with [*], once */
	resolves("{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"I\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"},{\"name\":\"b\",\"type\":\"int\"}]}}",
			 "{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"I\",\"fields\":[{\"name\":\"b\",\"type\":\"long\"},{\"name\":\"c\",\"type\":\"string\",\"default\":\"z\"}]}}",
			 "[{\"a\":1,\"b\":2},{\"a\":3,\"b\":4}]", "[{\"b\":2,\"c\":\"z\"},{\"b\":4,\"c\":\"z\"}]",
			 "$[*].a: not in the reader, dropped | $[*].c: missing from the data, the reader's default used");
	/* a reader's record default with its own nested default */
	resolves("{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}",
			 "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"s\",\"type\":{\"type\":\"record\",\"name\":\"S\",\"fields\":["
			 "{\"name\":\"x\",\"type\":\"int\"},{\"name\":\"y\",\"type\":\"string\",\"default\":\"d\"}]},\"default\":{\"x\":3}}]}",
			 "{}", "{\"s\":{\"x\":3,\"y\":\"d\"}}", NULL);
}

/* a referenced named type encodes and decodes in place, and resolves by name */
static void
test_references(void)
{
	const char *money = "{\"type\":\"record\",\"name\":\"Money\",\"namespace\":\"m\",\"fields\":[{\"name\":\"cents\",\"type\":\"long\"}]}";
	const char *order = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"total\",\"type\":\"m.Money\"},"
	"{\"name\":\"lines\",\"type\":{\"type\":\"array\",\"items\":\"m.Money\"}},{\"name\":\"tip\",\"type\":[\"null\",\"m.Money\"]}]}";
	rg_reference ref = {"m.Money", money, strlen(money)};
	rg_error	err;
	rg_schema  *s = rg_avro_parse(order, strlen(order), &ref, 1, false, &err);
	const char *h;

	RG_CHECK(s != NULL, "a schema with a reference parses");
	if (s == NULL)
		return;
	h = enc(s, "{\"total\":{\"cents\":250},\"lines\":[{\"cents\":100}],\"tip\":{\"m.Money\":{\"cents\":5}}}");
	RG_CHECK_STR(h, "f403" "02c801" "00" "020a", "a referenced record's value encodes");
	RG_CHECK_STR(h ? dec(s, NULL, h) : NULL,
				 "{\"total\":{\"cents\":250},\"lines\":[{\"cents\":100}],\"tip\":{\"cents\":5}}",
				 "and decodes");
	rg_schema_free(s);
}

/* a schema as deep as n records, each holding the next */
static void
test_limits(void)
{
	const char *list = "{\"type\":\"record\",\"name\":\"L\",\"fields\":[{\"name\":\"next\",\"type\":[\"null\",\"L\"]}]}";
	rg_schema  *s = schema(list);
	static uint8_t deep[200000];
	size_t		n = 0;
	const char *got;
	int			i;
	rg_buf		json;

	/*
	 * a linked list of 10000 levels: refused as too deep, by decode and
	 * encode
	 */
	for (i = 0; i < 10000; i++)
		deep[n++] = 2;
	deep[n++] = 0;
	got = dec_raw(s, deep, n);
	RG_CHECK(got == NULL && errcode == RG_ERR_INVALID_PAYLOAD && strstr(errbuf, "nests deeper"),
			 "a deep payload is refused: %s", errbuf);
	rg_buf_init(&json);
	for (i = 0; i < 2000; i++)
		rg_buf_puts(&json, "{\"next\":");
	rg_buf_puts(&json, "null");
	for (i = 0; i < 2000; i++)
		rg_buf_puts(&json, "}");
	RG_CHECK(enc(s, json.data) == NULL && strstr(errbuf, "deeper than"),
			 "a deep value is refused: %s", errbuf);
	rg_buf_free(&json);
	/* 100 levels are fine */
	n = 0;
	for (i = 0; i < 100; i++)
		deep[n++] = 2;
	deep[n++] = 0;
	RG_CHECK(dec_raw(s, deep, n) != NULL, "100 levels decode");
	rg_schema_free(s);

	/* huge block counts */
	decode_fails("{\"type\":\"array\",\"items\":\"null\"}", "feffffffffffffffff01", RG_ERR_INVALID_PAYLOAD,
				 "items that take no bytes");
	decode_fails("{\"type\":\"array\",\"items\":\"int\"}", "feffffffffffffffff01", RG_ERR_INVALID_PAYLOAD,
				 "a block of 9223372036854775807 items with 0 bytes left");
	decode_fails("{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"E\",\"fields\":[]}}",
				 "80808080088080808008", RG_ERR_INVALID_PAYLOAD, "items that take no bytes");
	decode_fails("{\"type\":\"map\",\"values\":\"null\"}", "feffffff0f", RG_ERR_INVALID_PAYLOAD,
				 "items with 0 bytes left");
	decode_fails("{\"type\":\"array\",\"items\":\"int\"}", "01ffffffffffffffffff01", RG_ERR_INVALID_PAYLOAD,
				 "invalid block size");
	decode_fails("{\"type\":\"array\",\"items\":\"int\"}", "ffffffffffffffffff01", RG_ERR_INVALID_PAYLOAD,
				 "invalid block count");
	/* a negative count (with a byte size) is a block too */
	{
		rg_schema  *a = schema("{\"type\":\"array\",\"items\":\"int\"}");

		RG_CHECK_STR(dec(a, NULL, "03040204" "00"), "[1,2]", "a block with its byte size");
		rg_schema_free(a);
	}
	/* a million nulls are fine */
	{
		rg_schema  *a = schema("{\"type\":\"array\",\"items\":\"null\"}");
		uint8_t		b[] = {0x80, 0x89, 0x7a, 0x00}; /* 1000000 */
		rg_buf		out;
		rg_error	err;
		bool		ok;

		rg_buf_init(&out);
		ok = rg_format_avro.decode(a, NULL, b, sizeof(b), &out, NULL, &err);
		RG_CHECK(ok && out.len == 5 * 1000000 - 1 + 2, "a million nulls decode (%zu bytes)", out.len);
		rg_buf_free(&out);
		rg_schema_free(a);
	}
}

static void
test_payload_errors(void)
{
	const char *rec = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"s\",\"type\":\"string\"},{\"name\":\"i\",\"type\":\"int\"}]}";

	decode_fails(rec, "0661", RG_ERR_INVALID_PAYLOAD, "$.s: truncated payload");
	decode_fails(rec, "066162", RG_ERR_INVALID_PAYLOAD, "$.s: truncated payload");
	decode_fails(rec, "06616263", RG_ERR_INVALID_PAYLOAD, "$.i: truncated payload");
	decode_fails(rec, "0661626302ff", RG_ERR_INVALID_PAYLOAD, "1 bytes after the end of the value");
	decode_fails(rec, "05", RG_ERR_INVALID_PAYLOAD, "$.s: negative length -3");
	decode_fails(rec, "0661626380808080808001", RG_ERR_INVALID_PAYLOAD, "$.i: invalid int encoding");
	decode_fails("\"long\"", "ffffffffffffffffffff01", RG_ERR_INVALID_PAYLOAD, "invalid long encoding");
	decode_fails("\"long\"", "ffffffffffffffffff7f", RG_ERR_INVALID_PAYLOAD, "invalid long encoding");
	decode_fails("\"boolean\"", "02", RG_ERR_INVALID_PAYLOAD, "invalid boolean");
	decode_fails("[\"null\",\"int\"]", "04", RG_ERR_INVALID_PAYLOAD, "union branch 2 out of range");
	decode_fails("[\"null\",\"int\"]", "01", RG_ERR_INVALID_PAYLOAD, "union branch -1 out of range");
	decode_fails("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]}", "02", RG_ERR_INVALID_PAYLOAD,
				 "enum index 1 out of range");
	decode_fails("\"string\"", "02ff", RG_ERR_INVALID_PAYLOAD, "not valid UTF-8");
	decode_fails("{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":4}", "00",
				 RG_ERR_INVALID_PAYLOAD, "a decimal of no bytes");
	decode_fails("\"double\"", "00000000", RG_ERR_INVALID_PAYLOAD, "truncated payload");
	decode_fails("\"int\"", "", RG_ERR_INVALID_PAYLOAD, "truncated payload");
}

/*
 * avro-c's memory, from a pool never given back: avro-c 1.11 keeps some
 * of what a generic class allocates, which LeakSanitizer would report.
 */
static void *
pool_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	static char pool[1 << 20];
	static size_t used;
	void	   *p;

	if (nsize == 0)
		return NULL;
	nsize = (nsize + 15) & ~(size_t) 15;
	if (used + nsize > sizeof(pool))
		return NULL;
	p = pool + used;
	used += nsize;
	if (ptr != NULL)
		memcpy(p, ptr, osize < nsize ? osize : nsize);
	return p;
}

/* avro-c reads our bytes of a record of every type as we wrote them */
static void
test_avro_c(void)
{
	const char *text = "{\"type\":\"record\",\"name\":\"All\",\"fields\":["
	"{\"name\":\"n\",\"type\":\"null\"},{\"name\":\"b\",\"type\":\"boolean\"},"
	"{\"name\":\"i\",\"type\":\"int\"},{\"name\":\"l\",\"type\":\"long\"},"
	"{\"name\":\"f\",\"type\":\"float\"},{\"name\":\"d\",\"type\":\"double\"},"
	"{\"name\":\"s\",\"type\":\"string\"},{\"name\":\"y\",\"type\":\"bytes\"},"
	"{\"name\":\"x\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":2}},"
	"{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"P\",\"Q\"]}},"
	"{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"long\"}},"
	"{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"int\"}},"
	"{\"name\":\"u\",\"type\":[\"null\",\"string\"]}]}";
	const char *json = "{\"n\":null,\"b\":true,\"i\":-123456,\"l\":1234567890123,\"f\":1.5,"
	"\"d\":-2.25,\"s\":\"h\\u00e9\",\"y\":\"AQI=\",\"x\":\"/wE=\",\"e\":\"Q\",\"a\":[1,-2],"
	"\"m\":{\"k\":3},\"u\":\"v\"}";
	rg_schema  *s = schema(text);
	rg_buf		out;
	rg_error	err;
	avro_schema_t as;
	avro_value_iface_t *iface;
	avro_value_t value;
	avro_reader_t reader;
	char	   *as_json = NULL;
	bool		ok;
	int			rc;

	avro_set_allocator(pool_alloc, NULL);
	rg_buf_init(&out);
	ok = rg_format_avro.encode(s, NULL, json, strlen(json), &out, &err);
	RG_CHECK(ok, "encode a record of every type");
	rc = avro_schema_from_json_length(text, strlen(text), &as);
	RG_CHECK(rc == 0, "avro-c parses the schema");
	iface = avro_generic_class_from_schema(as);
	avro_generic_value_new(iface, &value);
	reader = avro_reader_memory(out.data, out.len);
	rc = avro_value_read(reader, &value);
	RG_CHECK(rc == 0, "avro-c reads our bytes: %s", avro_strerror());
	avro_value_to_json(&value, 1, &as_json);
	RG_CHECK_STR(as_json,
				 "{\"n\": null, \"b\": true, \"i\": -123456, \"l\": 1234567890123, \"f\": 1.5, "
				 "\"d\": -2.25, \"s\": \"h\\u00E9\", \"y\": \"\\u0001\\u0002\", \"x\": \"\\u00FF\\u0001\", "
				 "\"e\": \"Q\", \"a\": [1, -2], \"m\": {\"k\": 3}, \"u\": {\"string\": \"v\"}}",
				 "avro-c sees the same value");
	free(as_json);
	avro_reader_free(reader);
	avro_value_decref(&value);
	avro_value_iface_decref(iface);
	avro_schema_decref(as);
	{
		const char *back = dec_raw(s, (const uint8_t *) out.data, out.len);

		RG_CHECK_STR(back, "{\"n\":null,\"b\":true,\"i\":-123456,\"l\":1234567890123,\"f\":1.5,"
					 "\"d\":-2.25,\"s\":\"h\xc3\xa9\",\"y\":\"AQI=\",\"x\":\"/wE=\",\"e\":\"Q\",\"a\":[1,-2],"
					 "\"m\":{\"k\":3},\"u\":\"v\"}", "and decode reads them back");
	}
	rg_buf_free(&out);
	rg_schema_free(s);
}

int
main(void)
{
	test_primitives();
	test_logical();
	test_avro_json_encoding();
	test_unions();
	test_records();
	test_resolution();
	test_references();
	test_limits();
	test_payload_errors();
	test_avro_c();
	if (notes_arena)
		rg_arena_destroy(notes_arena);
	return rg_test_done();
}
