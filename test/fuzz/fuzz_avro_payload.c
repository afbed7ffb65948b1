/*-------------------------------------------------------------------------
 *
 * fuzz_avro_payload.c
 *	  libFuzzer target for AVRO payloads: decode (with and without a
 *	  reader schema) of arbitrary bytes, and encode of what decode wrote.
 *
 * The first byte picks the writer and the reader among fixed schemas
 * (low nibble: writer, high nibble: reader; a reader of 15 means none).
 * When the first byte is 0xFF, the input is instead a schema text up to
 * the first NUL byte, then the payload, decoded with that schema.  When
 * it is 0xFE, a schema text up to the first NUL byte, then a JSON value
 * that is encoded with it (Avro's JSON encoding of unions, bytes, fixed
 * and decimals as well as decode's form).
 *
 * Invariants (abort() otherwise, so libFuzzer records the input):
 *	- decode fails only with RG_ERR_INVALID_PAYLOAD or RG_ERR_INVALID_VALUE
 *	  (or out of memory), never an internal error;
 *	- what decode writes with the writer alone is JSON that encode takes
 *	  back (but a decimal with more digits than its precision, which Avro
 *	  reads and does not write), and decoding that encoding gives the very
 *	  same JSON;
 *	- encode fails only with RG_ERR_INVALID_VALUE (or out of memory), and
 *	  what it writes of a JSON value it writes again of what decode writes
 *	  of it: the two JSON forms of a value give the same message.
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rg_avro_api.h"

#define FUZZ_TARGET "fuzz_avro_payload"
#include "fuzz_common.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const schemas[] = {
	/* 0: a record of every primitive, with an optional and a default */
	"{\"type\":\"record\",\"name\":\"All\",\"namespace\":\"f\",\"fields\":["
	"{\"name\":\"n\",\"type\":\"null\"},{\"name\":\"b\",\"type\":\"boolean\"},"
	"{\"name\":\"i\",\"type\":\"int\"},{\"name\":\"l\",\"type\":\"long\"},"
	"{\"name\":\"f\",\"type\":\"float\"},{\"name\":\"d\",\"type\":\"double\"},"
	"{\"name\":\"s\",\"type\":\"string\"},{\"name\":\"y\",\"type\":\"bytes\"},"
	"{\"name\":\"o\",\"type\":[\"null\",\"string\"],\"default\":null}]}",
	/* 1: the same record as a reader: promotions, a drop, defaults, aliases */
	"{\"type\":\"record\",\"name\":\"All\",\"namespace\":\"g\",\"fields\":["
	"{\"name\":\"i\",\"type\":\"double\"},{\"name\":\"l\",\"type\":\"float\"},"
	"{\"name\":\"text\",\"type\":\"bytes\",\"aliases\":[\"s\"]},"
	"{\"name\":\"y\",\"type\":\"string\"},"
	"{\"name\":\"o\",\"type\":[\"string\",\"null\"],\"default\":\"x\"},"
	"{\"name\":\"z\",\"type\":{\"type\":\"map\",\"values\":\"int\"},\"default\":{\"a\":1}}]}",
	/* 2: a recursive list */
	"{\"type\":\"record\",\"name\":\"L\",\"fields\":[{\"name\":\"v\",\"type\":\"int\"},"
	"{\"name\":\"next\",\"type\":[\"null\",\"L\"]}]}",
	/* 3: containers of zero-byte items */
	"{\"type\":\"array\",\"items\":{\"type\":\"array\",\"items\":\"null\"}}",
	/* 4: maps of arrays of ambiguous unions */
	"{\"type\":\"map\",\"values\":{\"type\":\"array\",\"items\":[\"null\",\"int\",\"long\",\"string\",\"bytes\"]}}",
	/* 5: logical types */
	"{\"type\":\"record\",\"name\":\"T\",\"fields\":["
	"{\"name\":\"d\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"}},"
	"{\"name\":\"tm\",\"type\":{\"type\":\"int\",\"logicalType\":\"time-millis\"}},"
	"{\"name\":\"tu\",\"type\":{\"type\":\"long\",\"logicalType\":\"time-micros\"}},"
	"{\"name\":\"ts\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}},"
	"{\"name\":\"tx\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-micros\"}},"
	"{\"name\":\"lt\",\"type\":{\"type\":\"long\",\"logicalType\":\"local-timestamp-micros\"}},"
	"{\"name\":\"u\",\"type\":{\"type\":\"string\",\"logicalType\":\"uuid\"}},"
	"{\"name\":\"m\",\"type\":{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":40,\"scale\":7}},"
	"{\"name\":\"x\",\"type\":{\"type\":\"fixed\",\"name\":\"D\",\"size\":9,\"logicalType\":\"decimal\",\"precision\":20,\"scale\":3}}]}",
	/* 6: enums and fixed, with an enum default in the reader */
	"{\"type\":\"record\",\"name\":\"E\",\"fields\":["
	"{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"C\",\"symbols\":[\"A\",\"B\",\"C\"]}},"
	"{\"name\":\"f\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}}]}",
	"{\"type\":\"record\",\"name\":\"E\",\"fields\":["
	"{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"C\",\"symbols\":[\"B\",\"Z\"],\"default\":\"Z\"}},"
	"{\"name\":\"f\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}}]}",
};

#define N_SCHEMAS ((int) (sizeof(schemas) / sizeof(schemas[0])))

static rg_schema *parsed[N_SCHEMAS];

/* The fixed schemas, parsed once. */
static rg_schema *
fixed_schema(int i)
{
	rg_error	err;

	if (parsed[i] == NULL)
	{
		parsed[i] = rg_avro_parse(schemas[i], strlen(schemas[i]), NULL, 0, false, &err);
		if (parsed[i] == NULL)
			invariant_failed("a fixed schema does not parse", schemas[i], err.message);
	}
	return parsed[i];
}

/* A decode failure must be one of the documented ones. */
static void
check_error(const rg_error *err, const char *what)
{
	if (err->code != RG_ERR_INVALID_PAYLOAD && err->code != RG_ERR_INVALID_VALUE &&
		err->code != RG_ERR_NOMEM)
		invariant_failed(what, err->message, NULL);
}

/* Decode with w (and r), and with w alone check encode's round trip. */
static void
check_payload(const rg_schema *w, const rg_schema *r, const uint8_t *data, size_t size)
{
	rg_buf		json;
	rg_buf		bin;
	rg_buf		again;
	rg_error	err;
	rg_arena   *arena = rg_arena_create();
	rg_strlist	notes;

	if (arena == NULL)
		return;
	rg_strlist_init(&notes, arena);
	rg_buf_init(&json);
	if (r != NULL && !rg_format_avro.decode(w, r, data, size, &json, &notes, &err))
		check_error(&err, "decode with a reader: unexpected error code");
	rg_buf_free(&json);
	rg_arena_destroy(arena);

	rg_buf_init(&json);
	if (!rg_format_avro.decode(w, NULL, data, size, &json, NULL, &err))
	{
		check_error(&err, "decode: unexpected error code");
		rg_buf_free(&json);
		return;
	}
	rg_buf_init(&bin);
	if (!rg_format_avro.encode(w, NULL, json.data, json.len, &bin, &err))
	{
		/*
		 * a decimal past its precision reads, as in Avro Java, but is not
		 * written
		 */
		if (err.code != RG_ERR_NOMEM && strstr(err.message, "more digits than the precision") == NULL)
			invariant_failed("encode refuses what decode wrote", json.data, err.message);
	}
	else
	{
		rg_buf_init(&again);
		if (!rg_format_avro.decode(w, NULL, (const uint8_t *) bin.data, bin.len, &again,
								   NULL, &err))
		{
			if (err.code != RG_ERR_NOMEM)
				invariant_failed("decode refuses what encode wrote", json.data, err.message);
		}
		else if (again.len != json.len || memcmp(again.data, json.data, json.len) != 0)
			invariant_failed("decode(encode(decode(x))) differs", json.data, again.data);
		rg_buf_free(&again);
	}
	rg_buf_free(&bin);
	rg_buf_free(&json);
}

/* Encode a JSON value with s; what decode writes of it encodes the same. */
static void
check_value(const rg_schema *s, const char *json, size_t len)
{
	rg_buf		bin;
	rg_buf		back;
	rg_buf		again;
	rg_error	err;

	rg_buf_init(&bin);
	if (!rg_format_avro.encode(s, NULL, json, len, &bin, &err))
	{
		if (err.code != RG_ERR_INVALID_VALUE && err.code != RG_ERR_NOMEM)
			invariant_failed("encode: unexpected error code", err.message, NULL);
		rg_buf_free(&bin);
		return;
	}
	rg_buf_init(&back);
	rg_buf_init(&again);
	if (!rg_format_avro.decode(s, NULL, (const uint8_t *) bin.data, bin.len, &back, NULL, &err))
	{
		if (err.code != RG_ERR_NOMEM)
			invariant_failed("decode refuses what encode wrote", err.message, NULL);
	}
	else if (!rg_format_avro.encode(s, NULL, back.data, back.len, &again, &err))
	{
		if (err.code != RG_ERR_NOMEM)
			invariant_failed("encode refuses what decode wrote of a value", back.data, err.message);
	}
	else if (again.len != bin.len || memcmp(again.data, bin.data, bin.len) != 0)
		invariant_failed("a value and decode's form of it encode differently", back.data, NULL);
	rg_buf_free(&again);
	rg_buf_free(&back);
	rg_buf_free(&bin);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if (data[0] == 0xFE || data[0] == 0xFF)
	{
		/* a schema text up to the first NUL, then a JSON value or a payload */
		const uint8_t *nul = memchr(data + 1, 0, size - 1);
		const uint8_t *rest;
		size_t		rest_len;
		rg_error	err;
		rg_schema  *s;

		if (nul == NULL)
			return 0;
		s = rg_avro_parse((const char *) data + 1, (size_t) (nul - data - 1), NULL, 0,
						  false, &err);
		if (s == NULL)
			return 0;
		rest = nul + 1;
		rest_len = size - (size_t) (rest - data);
		if (data[0] == 0xFE)
			check_value(s, (const char *) rest, rest_len);
		else
			check_payload(s, s, rest, rest_len);
		rg_schema_free(s);
		return 0;
	}
	{
		int			wi = (data[0] & 0x0F) % N_SCHEMAS;
		int			ri = data[0] >> 4;

		check_payload(fixed_schema(wi), ri == 15 ? NULL : fixed_schema(ri % N_SCHEMAS),
					  data + 1, size - 1);
	}
	return 0;
}
