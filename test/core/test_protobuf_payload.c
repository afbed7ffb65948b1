/*-------------------------------------------------------------------------
 *
 * test_protobuf_payload.c
 *	  Unit tests of PROTOBUF payloads: encode (JSON value -> message
 *	  indexes + Protobuf bytes) and decode (back to the JSON mapping, as
 *	  the writer wrote it or as a reader reads it), their errors and
 *	  their limits.
 *
 * Expected bytes are the protobuf encoding written out by hand and
 * checked against python3-protobuf (test/core/protobuf_payload_check.py).
 *
 *-------------------------------------------------------------------------
 */
#include "rg_test.h"
#include "rg_protobuf.h"

#define RESULTS 8
#define RESULT_MAX 65536

static char results[RESULTS][RESULT_MAX];
static int	next_result;

/* A result slot, reused after RESULTS calls */
static char *
result(void)
{
	char	   *r = results[next_result];

	next_result = (next_result + 1) % RESULTS;
	r[0] = '\0';
	return r;
}

/* Parse a schema that must parse */
static rg_schema *
parse_refs(const char *text, const rg_reference *refs, int n)
{
	rg_error	err;
	rg_schema  *s = rg_protobuf_parse(text, strlen(text), refs, n, false, &err);

	if (s == NULL)
		printf("# parse failed: %s\n", err.message);
	return s;
}

static rg_schema *
parse(const char *text)
{
	return parse_refs(text, NULL, 0);
}

/* "ERR <code>: message" for a failed call */
static char *
error_text(const rg_error *err)
{
	char	   *r = result();

	snprintf(r, RESULT_MAX, "ERR %d: %s", (int) err->code, err->message);
	return r;
}

/* Encode json as message (NULL: the first): the payload in hex, or the error */
static char *
enc(const rg_schema *s, const char *message, const char *json)
{
	rg_buf		out;
	rg_error	err;
	char	   *r;
	size_t		i;

	rg_buf_init(&out);
	if (!rg_format_protobuf.encode(s, message, json, strlen(json), &out, &err))
	{
		rg_buf_free(&out);
		return error_text(&err);
	}
	r = result();
	for (i = 0; i < out.len && 2 * i + 2 < RESULT_MAX; i++)
		sprintf(r + 2 * i, "%02x", (unsigned char) out.data[i]);
	rg_buf_free(&out);
	return r;
}

/* Bytes of a hex string (static, at most 4 KB), length in *len */
static const uint8_t *
unhex(const char *hex, size_t *len)
{
	static uint8_t buf[4096];
	size_t		n = 0;

	for (; hex[0] && hex[1] && n < sizeof(buf); hex += 2)
	{
		unsigned	v;

		sscanf(hex, "%2x", &v);
		buf[n++] = (uint8_t) v;
	}
	*len = n;
	return buf;
}

/* Decode raw bytes with writer (and reader): the JSON text, or the error */
static char *
dec_bytes(const rg_schema *w, const rg_schema *r, const uint8_t *data, size_t len,
		  rg_strlist *notes)
{
	rg_buf		out;
	rg_error	err;
	char	   *res;

	rg_buf_init(&out);
	if (!rg_format_protobuf.decode(w, r, data, len, &out, notes, &err))
	{
		rg_buf_free(&out);
		return error_text(&err);
	}
	res = result();
	snprintf(res, RESULT_MAX, "%.*s", (int) out.len, out.data);
	rg_buf_free(&out);
	return res;
}

/* Decode a hex payload */
static char *
dec(const rg_schema *w, const rg_schema *r, const char *hex, rg_strlist *notes)
{
	size_t		len;
	const uint8_t *data = unhex(hex, &len);

	return dec_bytes(w, r, data, len, notes);
}

/* Encode then decode json: the JSON decode gives, or the first error */
static char *
round_trip(const rg_schema *s, const char *message, const char *json)
{
	char	   *hex = enc(s, message, json);

	if (strncmp(hex, "ERR", 3) == 0)
		return hex;
	return dec(s, NULL, hex, NULL);
}

/* The notes as one string, lines joined by " | " */
static char *
joined(const rg_strlist *notes)
{
	char	   *r = result();
	int			i;

	for (i = 0; i < notes->n; i++)
	{
		if (i > 0)
			strncat(r, " | ", RESULT_MAX - strlen(r) - 1);
		strncat(r, notes->items[i], RESULT_MAX - strlen(r) - 1);
	}
	return r;
}

static const char scalars_proto[] =
"syntax = \"proto3\";\n"
"package t;\n"
"message Scalars {\n"
"  double d = 1; float f = 2; int64 i64 = 3; uint64 u64 = 4; int32 i32 = 5;\n"
"  fixed64 f64 = 6; fixed32 f32 = 7; bool b = 8; string s = 9; bytes by = 10;\n"
"  uint32 u32 = 11; sfixed32 sf32 = 12; sfixed64 sf64 = 13; sint32 si32 = 14;\n"
"  sint64 si64 = 15;\n"
"}\n";

/* Every scalar kind: bytes as protobuf writes them, and back. */
static void
test_scalars(void)
{
	rg_schema  *s = parse(scalars_proto);

	if (s == NULL)
	{
		RG_CHECK(false, "scalars schema parses");
		return;
	}
	RG_CHECK_STR(enc(s, NULL, "{}"), "00", "empty message: the [0] shortcut and no bytes");
	RG_CHECK_STR(enc(s, NULL, "{\"i32\": 150}"), "00289601", "int32 150 as a varint");
	RG_CHECK_STR(enc(s, NULL, "{\"i32\": -1}"), "0028ffffffffffffffffff01",
				 "negative int32: ten-byte varint");
	RG_CHECK_STR(enc(s, NULL, "{\"si32\": -1, \"si64\": \"-2\"}"), "0070017803",
				 "sint32/sint64: zigzag");
	RG_CHECK_STR(enc(s, NULL, "{\"s\": \"h\\u00e9\", \"by\": \"AAE=\", \"b\": true}"),
				 "0040014a0368c3a952020001",
				 "string in UTF-8, bytes from base64, bool");
	RG_CHECK_STR(enc(s, NULL, "{\"d\": 1.5, \"f\": -2, \"f64\": \"1\", \"f32\": 1, \"sf32\": -1, \"sf64\": \"-1\"}"),
				 "0009000000000000f83f15000000c0310100000000000000" "3d01000000" "65ffffffff" "69ffffffffffffffff",
				 "double, float, fixed and sfixed widths");
	RG_CHECK_STR(enc(s, NULL, "{\"i64\": \"9223372036854775807\", \"u64\": 18446744073709551615, \"u32\": 4294967295}"),
				 "0018ffffffffffffffff7f20ffffffffffffffffff0158ffffffff0f",
				 "64-bit limits as a string and as a number");

	RG_CHECK_STR(round_trip(s, NULL, "{\"i64\": 1, \"u64\": \"2\", \"f64\": 3, \"sf64\": -4, \"si64\": 5}"),
				 "{\"d\":0,\"f\":0,\"i64\":\"1\",\"u64\":\"2\",\"i32\":0,\"f64\":\"3\",\"f32\":0,\"b\":false,"
				 "\"s\":\"\",\"by\":\"\",\"u32\":0,\"sf32\":0,\"sf64\":\"-4\",\"si32\":0,\"si64\":\"5\"}",
				 "decode: every field printed, 64-bit integers as strings");
	RG_CHECK_STR(round_trip(s, NULL, "{\"d\": \"NaN\", \"f\": \"-Infinity\", \"by\": \"/w==\", \"s\": \"\\u0001\"}"),
				 "{\"d\":\"NaN\",\"f\":\"-Infinity\",\"i64\":\"0\",\"u64\":\"0\",\"i32\":0,\"f64\":\"0\",\"f32\":0,"
				 "\"b\":false,\"s\":\"\\u0001\",\"by\":\"/w==\",\"u32\":0,\"sf32\":0,\"sf64\":\"0\",\"si32\":0,\"si64\":\"0\"}",
				 "NaN, infinities, bytes and control characters");

	/* errors name the field */
	RG_CHECK_STR(enc(s, NULL, "{\"i32\": \"x\"}"),
				 "ERR 2: $.i32: invalid value \"x\" for int32", "a string for an int32");
	RG_CHECK_STR(enc(s, NULL, "{\"i32\": 1.5}"),
				 "ERR 2: $.i32: invalid value 1.5 for int32", "a fraction for an int32");
	RG_CHECK_STR(enc(s, NULL, "{\"i32\": 2147483648}"),
				 "ERR 2: $.i32: invalid value 2147483648 for int32", "int32 out of range");
	RG_CHECK_STR(enc(s, NULL, "{\"nope\": 1}"),
				 "ERR 2: $.nope: no such field", "an unknown field");
	RG_CHECK_STR(enc(s, NULL, "[1]"),
				 "ERR 2: $: Root element must be a message.", "not an object");
	RG_CHECK(strncmp(enc(s, NULL, "{\"i32\": 1} x"), "ERR 2: $: ", 10) == 0,
			 "trailing text after the value");
	RG_CHECK_STR(enc(s, "t.Nope", "{}"),
				 "ERR 2: $: the schema's file declares no message t.Nope", "an unknown message name");
	rg_schema_free(s);
}

static const char shapes_proto[] =
"syntax = \"proto3\";\n"
"package t.v1;\n"
"message Order {\n"
"  message Line { string sku = 1; int32 qty = 2; }\n"
"  enum Status { NEW = 0; PAID = 1; }\n"
"  string id = 1;\n"
"  repeated Line lines = 2;\n"
"  map<string, int32> totals = 3;\n"
"  Status status = 4;\n"
"  oneof payment { string card = 5; int64 account = 6; }\n"
"  optional int32 priority = 7;\n"
"  repeated int32 codes = 8;\n"
"  Line first = 9;\n"
"  map<int32, Line> by_pos = 10;\n"
"}\n"
"message Refund { string order_id = 1; }\n";

/* Nested messages, enums, oneofs, maps, repeated, proto3 optional; message choice. */
static void
test_shapes(void)
{
	rg_schema  *s = parse(shapes_proto);

	if (s == NULL)
	{
		RG_CHECK(false, "shapes schema parses");
		return;
	}
	RG_CHECK_STR(round_trip(s, NULL, "{}"),
				 "{\"id\":\"\",\"lines\":[],\"totals\":{},\"status\":\"NEW\",\"codes\":[],\"by_pos\":{}}",
				 "defaults: no oneof member, no unset optional or message");
	RG_CHECK_STR(round_trip(s, NULL,
							"{\"id\": \"o1\", \"lines\": [{\"sku\": \"a\", \"qty\": 2}, {}], "
							"\"totals\": {\"b\": 2, \"a\": 1}, \"status\": \"PAID\", \"card\": \"c\", "
							"\"priority\": 0, \"codes\": [1, 2, 3], \"first\": {}, "
							"\"byPos\": {\"7\": {\"sku\": \"z\"}}}"),
				 "{\"id\":\"o1\",\"lines\":[{\"sku\":\"a\",\"qty\":2},{\"sku\":\"\",\"qty\":0}],"
				 "\"totals\":{\"a\":1,\"b\":2},\"status\":\"PAID\",\"codes\":[1,2,3],"
				 "\"first\":{\"sku\":\"\",\"qty\":0},\"by_pos\":{\"7\":{\"sku\":\"z\",\"qty\":0}},"
				 "\"card\":\"c\",\"priority\":0}",
				 "every shape round trips, lowerCamelCase accepted, .proto names printed");
	RG_CHECK_STR(dec(s, NULL, "00" "0a026f3112050a0161100212001a050a016110011a050a016210022001"
					 "2a016338004203010203" "4a00" "5207080712030a017a", NULL),
				 "{\"id\":\"o1\",\"lines\":[{\"sku\":\"a\",\"qty\":2},{\"sku\":\"\",\"qty\":0}],"
				 "\"totals\":{\"a\":1,\"b\":2},\"status\":\"PAID\",\"codes\":[1,2,3],"
				 "\"first\":{\"sku\":\"\",\"qty\":0},\"by_pos\":{\"7\":{\"sku\":\"z\",\"qty\":0}},"
				 "\"card\":\"c\",\"priority\":0}",
				 "decode of bytes python3-protobuf decodes to the same value");
	RG_CHECK_STR(enc(s, NULL, "{\"codes\": [1, 2], \"totals\": {\"b\": 2, \"a\": 1}}"),
				 "001a050a016110011a050a0162100242020102",
				 "map entries sorted by key, repeated scalars packed");
	RG_CHECK_STR(enc(s, NULL, "{\"status\": 1, \"account\": \"5\"}"),
				 "0020013005", "an enum by number, a oneof member");
	RG_CHECK_STR(enc(s, NULL, "{\"card\": \"x\", \"account\": 1}"),
				 "ERR 2: $: invalid value oneof field 'payment' is already set. Cannot set 'account' for type oneof",
				 "two members of one oneof");
	RG_CHECK_STR(enc(s, NULL, "{\"status\": \"GONE\"}"),
				 "ERR 2: $.status: invalid value \"GONE\" for type t.v1.Order.Status",
				 "an unknown enum name");
	RG_CHECK_STR(enc(s, NULL, "{\"lines\": [{}, {\"qty\": \"many\"}]}"),
				 "ERR 2: $.lines[1].qty: invalid value \"many\" for int32",
				 "an error inside a repeated message names its index");

	/* a second top-level message, by name and by indexes */
	RG_CHECK_STR(enc(s, "t.v1.Refund", "{\"order_id\": \"o1\"}"), "02020a026f31",
				 "second message: indexes [1]");
	RG_CHECK_STR(enc(s, ".t.v1.Refund", "{\"orderId\": \"o1\"}"), "02020a026f31",
				 "a leading dot is allowed");
	RG_CHECK_STR(dec(s, NULL, "02020a026f31", NULL), "{\"order_id\":\"o1\"}",
				 "decode picks the message by its indexes");
	RG_CHECK_STR(enc(s, "t.v1.Order.Line", "{\"sku\": \"a\"}"), "0400000a0161",
				 "a nested message: indexes [0, 0]");
	RG_CHECK_STR(dec(s, NULL, "0400000a0161", NULL), "{\"sku\":\"a\",\"qty\":0}",
				 "decode of a nested message");
	RG_CHECK_STR(dec(s, NULL, "0200", NULL), "{\"id\":\"\",\"lines\":[],\"totals\":{},\"status\":\"NEW\",\"codes\":[],\"by_pos\":{}}",
				 "indexes [0] written in full");
	RG_CHECK_STR(dec(s, NULL, "0204", NULL),
				 "ERR 3: $: message indexes [2] out of range of the writer's schema",
				 "an index out of range");
	RG_CHECK_STR(dec(s, NULL, "040002", NULL),
				 "ERR 3: $: message indexes [0, 1] out of range of the writer's schema",
				 "a nested index out of range (map entries do not count)");
	RG_CHECK_STR(dec(s, NULL, "", NULL), "ERR 3: $: empty payload, no message indexes",
				 "an empty payload");
	RG_CHECK_STR(dec(s, NULL, "03", NULL), "ERR 3: $: malformed message indexes",
				 "a negative count");
	RG_CHECK_STR(dec(s, NULL, "0020", NULL), "ERR 3: $.status: truncated or malformed enum",
				 "truncated varint names the field");
	RG_CHECK_STR(dec(s, NULL, "0020ff", NULL), "ERR 3: $.status: truncated or malformed enum",
				 "truncated varint continuation");
	RG_CHECK_STR(dec(s, NULL, "0012050a01", NULL), "ERR 3: $.lines[0]: length 5 past the end of the data",
				 "a length past the end");
	RG_CHECK_STR(dec(s, NULL, "0012021203", NULL), "ERR 3: $.lines[0]: length 3 past the end of the data",
				 "a length past the end of the enclosing message");
	RG_CHECK_STR(dec(s, NULL, "000a8080808008", NULL),
				 "ERR 3: $.id: length 2147483648 past the end of the data", "a huge length prefix");
	RG_CHECK_STR(dec(s, NULL, "000a02ff00", NULL), "ERR 3: $.id: string is not UTF-8",
				 "invalid UTF-8 in a proto3 string");
	RG_CHECK_STR(dec(s, NULL, "0012001202100312031003ff", NULL),
				 "ERR 3: $.lines[2]: truncated or malformed field tag", "a malformed tag inside a message");
	RG_CHECK_STR(dec(s, NULL, "0012001202100312021003", NULL) /* ok */ ,
				 "{\"id\":\"\",\"lines\":[{\"sku\":\"\",\"qty\":0},{\"sku\":\"\",\"qty\":3},{\"sku\":\"\",\"qty\":3}],"
				 "\"totals\":{},\"status\":\"NEW\",\"codes\":[],\"by_pos\":{}}",
				 "repeated messages in order");
	RG_CHECK_STR(dec(s, NULL, "00120408051003", NULL),
				 "{\"id\":\"\",\"lines\":[{\"sku\":\"\",\"qty\":3}],\"totals\":{},\"status\":\"NEW\",\"codes\":[],\"by_pos\":{}}",
				 "a field of another wire type is skipped (sku as a varint)");
	RG_CHECK_STR(dec(s, NULL, "001a0210ff", NULL),
				 "ERR 3: $.totals[0].value: truncated or malformed int32",
				 "a malformed map entry");
	RG_CHECK_STR(dec(s, NULL, "001a050a016110011a050a01611002", NULL),
				 "{\"id\":\"\",\"lines\":[],\"totals\":{\"a\":2},\"status\":\"NEW\",\"codes\":[],\"by_pos\":{}}",
				 "a map key written twice: the last entry");
	RG_CHECK_STR(dec(s, NULL, "00520612040a027a31520612040a027a32", NULL),
				 "{\"id\":\"\",\"lines\":[],\"totals\":{},\"status\":\"NEW\",\"codes\":[],\"by_pos\":{\"0\":{\"sku\":\"z2\",\"qty\":0}}}",
				 "a message-valued map key written twice: the last entry");
	RG_CHECK_STR(dec(s, NULL, "001a030a01ff", NULL), "ERR 3: $.totals[0].key: string is not UTF-8",
				 "a map key that is not UTF-8");
	RG_CHECK_STR(dec(s, NULL, "0042030102", NULL), "ERR 3: $.codes: length 3 past the end of the data",
				 "a packed run past the end");
	RG_CHECK_STR(dec(s, NULL, "004202ff01420180", NULL),
				 "ERR 3: $.codes[0]: truncated or malformed int32", "a truncated packed element");
	RG_CHECK_STR(dec(s, NULL, "00000a", NULL), "ERR 3: $: field number 0", "field number 0");
	RG_CHECK_STR(dec(s, NULL, "000f", NULL), "ERR 3: $: invalid wire type 7 of field 1",
				 "wire type 7");
	RG_CHECK_STR(dec(s, NULL, "00a306", NULL), "ERR 3: $: truncated group 100",
				 "an unknown group not closed");
	RG_CHECK_STR(dec(s, NULL, "00a306a406", NULL),
				 "{\"id\":\"\",\"lines\":[],\"totals\":{},\"status\":\"NEW\",\"codes\":[],\"by_pos\":{}}",
				 "an unknown group is skipped");
	RG_CHECK_STR(dec(s, NULL, "00a306ac06", NULL), "ERR 3: $: group 100 closed by another end-group tag",
				 "a group closed by another number");
	RG_CHECK_STR(dec(s, NULL, "000c", NULL), "ERR 3: $: end-group tag 1 without its start",
				 "a stray end-group tag");
	rg_schema_free(s);
}

/* References (another subject's file) and the well-known types. */
static void
test_imports(void)
{
	static const char common[] =
	"syntax = \"proto3\";\npackage common;\nmessage Money { string currency = 1; int64 units = 2; }\n";
	static const char main_proto[] =
	"syntax = \"proto3\";\npackage shop;\n"
	"import \"common/money.proto\";\n"
	"import \"google/protobuf/timestamp.proto\";\n"
	"import \"google/protobuf/duration.proto\";\n"
	"import \"google/protobuf/wrappers.proto\";\n"
	"import \"google/protobuf/struct.proto\";\n"
	"import \"google/protobuf/any.proto\";\n"
	"import \"google/protobuf/field_mask.proto\";\n"
	"message Sale {\n"
	"  common.Money price = 1;\n"
	"  google.protobuf.Timestamp at = 2;\n"
	"  google.protobuf.Duration took = 3;\n"
	"  google.protobuf.StringValue note = 4;\n"
	"  google.protobuf.Struct extra = 5;\n"
	"  google.protobuf.Any any = 6;\n"
	"  google.protobuf.FieldMask mask = 7;\n"
	"  google.protobuf.Int64Value big = 8;\n"
	"  google.protobuf.Value value = 9;\n"
	"}\n";
	rg_reference refs[] = {{"common/money.proto", common, sizeof(common) - 1}};
	rg_schema  *s = parse_refs(main_proto, refs, 1);

	if (s == NULL)
	{
		RG_CHECK(false, "schema with imports parses");
		return;
	}
	RG_CHECK_STR(round_trip(s, NULL,
							"{\"price\": {\"currency\": \"EUR\", \"units\": 5}, "
							"\"at\": \"2024-02-29T12:00:00.5Z\", \"took\": \"1.5s\", \"note\": \"n\", "
							"\"extra\": {\"a\": [1, \"x\", null, {\"b\": true}]}, "
							"\"any\": {\"@type\": \"type.googleapis.com/common.Money\", \"units\": \"7\"}, "
							"\"mask\": \"price.units,at\", \"big\": \"12\", \"value\": 3}"),
				 "{\"price\":{\"currency\":\"EUR\",\"units\":\"5\"},\"extra\":{\"a\":[1,\"x\",null,{\"b\":true}]},"
				 "\"any\":{\"@type\":\"type.googleapis.com/common.Money\",\"currency\":\"\",\"units\":\"7\"},"
				 "\"at\":\"2024-02-29T12:00:00.500Z\",\"took\":\"1.500s\",\"note\":\"n\","
				 "\"mask\":\"price.units,at\",\"big\":\"12\",\"value\":3}",
				 "a referenced message and the well-known types in their JSON forms");
	RG_CHECK_STR(enc(s, NULL, "{\"at\": \"2024-02-29T12:00:00Z\"}"), "00120608c0e381af06",
				 "Timestamp as its seconds");
	RG_CHECK_STR(enc(s, NULL, "{\"at\": \"yesterday\"}"),
				 "ERR 2: $.at: invalid value Field 'at', Invalid time format: yesterday for type google.protobuf.Timestamp",
				 "a malformed Timestamp");
	RG_CHECK_STR(enc(s, NULL, "{\"any\": {\"@type\": \"type.googleapis.com/nope.X\"}}"),
				 "ERR 2: $.any: invalid value Invalid type URL, unknown type: nope.X for type Any",
				 "an Any of a type the schema does not know");
	RG_CHECK_STR(dec(s, NULL, "003204" "0a023333", NULL),
				 "ERR 2: $.any: the type URL \"33\" of the Any is not type.googleapis.com/<a message the schema knows>",
				 "an Any whose type URL names nothing");
	RG_CHECK_STR(dec(s, NULL, "0032280a20747970652e676f6f676c65617069732e636f6d2f636f6d6d6f6e2e4d6f6e657912040a02ff00", NULL),
				 "ERR 3: $.any.currency: string is not UTF-8",
				 "the value of an Any is walked as its type");
	RG_CHECK_STR(enc(s, "common.Money", "{}"),
				 "ERR 2: $: the schema's file declares no message common.Money",
				 "a message of an imported file has no indexes");
	rg_schema_free(s);
}

static const char proto2_proto[] =
"syntax = \"proto2\";\n"
"package p2;\n"
"message User {\n"
"  required string name = 1;\n"
"  optional int32 age = 2 [default = 18];\n"
"  optional string lang = 3 [default = \"en\"];\n"
"  optional Kind kind = 4 [default = ADMIN];\n"
"  repeated User friends = 5;\n"
"  optional group Extra = 6 { optional int32 x = 7; }\n"
"  extensions 100 to 199;\n"
"}\n"
"enum Kind { GUEST = 0; ADMIN = 1; }\n"
"extend User { optional int32 level = 100; }\n";

/* proto2: declared defaults, required fields, groups, extensions. */
static void
test_proto2(void)
{
	rg_schema  *s = parse(proto2_proto);

	if (s == NULL)
	{
		RG_CHECK(false, "proto2 schema parses");
		return;
	}
	RG_CHECK_STR(dec(s, NULL, "000a0141", NULL),
				 "{\"name\":\"A\",\"age\":18,\"lang\":\"en\",\"kind\":\"ADMIN\",\"friends\":[],\"extra\":null}",
				 "unset optional fields print their declared defaults");
	RG_CHECK_STR(enc(s, NULL, "{\"name\": \"A\", \"age\": 0}"), "000a01411000",
				 "a proto2 optional set to zero is written");
	RG_CHECK_STR(enc(s, NULL, "{\"age\": 3}"), "ERR 2: $.name: required field missing",
				 "encode: a required field missing");
	RG_CHECK_STR(enc(s, NULL, "{\"name\": \"A\", \"friends\": [{\"name\": \"B\"}, {}]}"),
				 "ERR 2: $.friends[1].name: required field missing",
				 "encode: a required field missing in a repeated message");
	RG_CHECK_STR(dec(s, NULL, "001001", NULL), "ERR 3: $.name: required field missing",
				 "decode: a required field missing");
	RG_CHECK_STR(dec(s, NULL, "000a02ff00", NULL),
				 "ERR 2: $.name: string is not UTF-8, which JSON cannot hold",
				 "a proto2 string that is not UTF-8");
	RG_CHECK_STR(dec(s, NULL, "000a01413338013c", NULL), "ERR 2: $.extra: a group has no JSON form",
				 "a group is refused, not dropped");
	RG_CHECK_STR(enc(s, NULL, "{\"name\": \"A\", \"extra\": {\"x\": 1}}"),
				 "ERR 2: $.extra: a group has no JSON form", "encode of a group is refused");
	RG_CHECK_STR(dec(s, NULL, "000a0141a00605", NULL),
				 "{\"name\":\"A\",\"age\":18,\"lang\":\"en\",\"kind\":\"ADMIN\",\"friends\":[],\"extra\":null}",
				 "an extension is dropped");
	RG_CHECK_STR(dec(s, NULL, "000a01412005", NULL),
				 "{\"name\":\"A\",\"age\":18,\"lang\":\"en\",\"kind\":\"ADMIN\",\"friends\":[],\"extra\":null}",
				 "an unknown value of a closed enum is dropped");
	rg_schema_free(s);
}

/* A reader's view: dropped, missing and retyped fields, with notes. */
static void
test_reader(void)
{
	static const char writer_proto[] =
	"syntax = \"proto3\";\npackage r;\n"
	"message Person { string name = 1; int32 age = 2; Address home = 3; repeated Address past = 4; string nick = 6; }\n"
	"message Address { string city = 1; string zip = 2; }\n";
	static const char reader_proto[] =
	"syntax = \"proto3\";\npackage r;\n"
	"message Person { string name = 1; string email = 5; Address home = 3; repeated Address past = 4; bytes nick = 6; int64 age = 7; }\n"
	"message Address { string city = 1; string country = 3; }\n";
	static const char other_proto[] =
	"syntax = \"proto3\";\npackage other;\nmessage Person { string name = 1; }\n";
	static const char int_proto[] =
	"syntax = \"proto3\";\npackage r;\nmessage Person { int32 name = 1; }\n";
	rg_schema  *w = parse(writer_proto);
	rg_schema  *r = parse(reader_proto);
	rg_schema  *o = parse(other_proto);
	rg_schema  *n = parse(int_proto);
	rg_arena   *arena = rg_arena_create();
	rg_strlist	notes;
	char	   *hex;

	if (w == NULL || r == NULL || o == NULL || n == NULL || arena == NULL)
	{
		RG_CHECK(false, "reader schemas parse");
		return;
	}
	hex = enc(w, NULL, "{\"name\": \"Ann\", \"age\": 40, \"home\": {\"city\": \"Oslo\", \"zip\": \"0150\"}, "
			  "\"past\": [{\"zip\": \"1\"}, {\"zip\": \"2\"}], \"nick\": \"a\"}");
	rg_strlist_init(&notes, arena);
	RG_CHECK_STR(dec(w, r, hex, &notes),
				 "{\"name\":\"Ann\",\"email\":\"\",\"home\":{\"city\":\"Oslo\",\"country\":\"\"},"
				 "\"past\":[{\"city\":\"\",\"country\":\"\"},{\"city\":\"\",\"country\":\"\"}],"
				 "\"nick\":\"YQ==\",\"age\":\"0\"}",
				 "the reader reads its own fields, writer-only fields dropped");
	RG_CHECK_STR(joined(&notes),
				 "$.age: not in the reader, dropped | "
				 "$.home.zip: not in the reader, dropped | "
				 "$.home.country: missing from the data, the reader's default used | "
				 "$.past[*].zip: not in the reader, dropped | "
				 "$.past[*].country: missing from the data, the reader's default used | "
				 "$.email: missing from the data, the reader's default used | "
				 "$.age: missing from the data, the reader's default used",
				 "notes name each path once");
	RG_CHECK_STR(dec(w, NULL, hex, NULL),
				 "{\"name\":\"Ann\",\"age\":40,\"home\":{\"city\":\"Oslo\",\"zip\":\"0150\"},"
				 "\"past\":[{\"city\":\"\",\"zip\":\"1\"},{\"city\":\"\",\"zip\":\"2\"}],\"nick\":\"a\"}",
				 "without a reader the writer's view");

	rg_strlist_init(&notes, arena);
	RG_CHECK_STR(dec(w, n, hex, &notes), "{\"name\":0}", "a field of another wire type: reader default");
	RG_CHECK(strstr(joined(&notes), "$.name: of another type in the reader, dropped") != NULL,
			 "noted as of another type: %s", joined(&notes));

	RG_CHECK_STR(dec(w, o, hex, NULL), "ERR 2: $: the reader's schema has no message r.Person",
				 "a reader without the message");
	{
		/*
		 * the reader cannot read bytes the writer wrote: bytes read as a
		 * proto3 string
		 */
		static const char bytes_proto[] =
		"syntax = \"proto3\";\npackage r;\nmessage Person { bytes name = 1; }\n";
		rg_schema  *b = parse(bytes_proto);

		RG_CHECK_STR(dec(b, w, "000a02ff00", NULL), "ERR 2: $.name: string is not UTF-8",
					 "bytes the reader cannot read are an invalid value");
		rg_schema_free(b);
	}

	rg_strlist_init(&notes, arena);
	RG_CHECK_STR(dec(w, NULL, "000a01413805", &notes),
				 "{\"name\":\"A\",\"age\":0,\"past\":[],\"nick\":\"\"}", "an unknown field is dropped");
	RG_CHECK_STR(joined(&notes), "$: field 7 is not read by the writer's schema, dropped",
				 "and noted");
	rg_arena_destroy(arena);
	rg_schema_free(w);
	rg_schema_free(r);
	rg_schema_free(o);
	rg_schema_free(n);
}

/* Limits: nesting, values a few bytes make, output size. */
static void
test_limits(void)
{
	static const char deep_proto[] =
	"syntax = \"proto3\";\npackage d;\n"
	"message Node { Node next = 1; repeated Wide wide = 2; }\n"
	"message Wide { int32 a1 = 1; int32 a2 = 2; int32 a3 = 3; int32 a4 = 4; int32 a5 = 5;"
	" int32 a6 = 6; int32 a7 = 7; int32 a8 = 8; int32 a9 = 9; int32 a10 = 10; }\n";
	rg_schema  *s = parse(deep_proto);
	uint8_t    *buf;
	size_t		len;
	size_t		i;
	char	   *json;
	char	   *r;

	if (s == NULL)
	{
		RG_CHECK(false, "deep schema parses");
		return;
	}
	/* 61 levels of next: 0a LEN (0a LEN (...)) built from the inside */
	buf = malloc(1024);
	len = 0;
	for (i = 0; i < 61; i++)
	{
		memmove(buf + 2, buf, len);
		buf[0] = 0x0a;
		buf[1] = (uint8_t) len;
		len += 2;
		if (len > 127)
			break;
	}
	/* lengths past 127 need two bytes: build with a varint instead */
	{
		uint8_t    *b2 = malloc(4096);
		size_t		n = 0;

		for (i = 0; i < 70; i++)
		{
			uint8_t		hdr[3];
			size_t		h = 0;
			size_t		v = n;

			hdr[h++] = 0x0a;
			do
			{
				hdr[h++] = (uint8_t) ((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
				v >>= 7;
			} while (v);
			memmove(b2 + h, b2, n);
			memcpy(b2, hdr, h);
			n += h;
		}
		memmove(b2 + 1, b2, n);
		b2[0] = 0;
		r = dec_bytes(s, NULL, b2, n + 1, NULL);
		RG_CHECK(strncmp(r, "ERR 3: $.next.next.next", 23) == 0 &&
				 strstr(r, "messages nest deeper than 60 levels") != NULL,
				 "payload nesting is bounded: %.80s", r);
		free(b2);
	}
	free(buf);

	/* deep JSON is stopped before the converter */
	json = malloc(20000);
	json[0] = '\0';
	for (i = 0; i < 300; i++)
		strcat(json, "{\"next\":");
	strcat(json, "{}");
	for (i = 0; i < 300; i++)
		strcat(json, "}");
	r = enc(s, NULL, json);
	RG_CHECK(strncmp(r, "ERR 2: $: the value nests deeper than 200 levels", 48) == 0,
			 "JSON nesting is bounded: %.80s", r);
	json[0] = '\0';
	for (i = 0; i < 100; i++)
		strcat(json, "{\"next\":");
	strcat(json, "{}");
	for (i = 0; i < 100; i++)
		strcat(json, "}");
	r = enc(s, NULL, json);
	RG_CHECK(strncmp(r, "ERR 2: $", 8) == 0, "JSON messages deeper than the payload limit: %.80s", r);
	free(json);

	/* a few bytes a wide message: 200000 empty Wide elements of 2 bytes */
	len = 1 + 2 * 200000;
	buf = malloc(len);
	buf[0] = 0;
	for (i = 1; i < len; i += 2)
	{
		buf[i] = 0x12;
		buf[i + 1] = 0;
	}
	r = dec_bytes(s, NULL, buf, len, NULL);
	RG_CHECK(strstr(r, "ERR 3: $.wide[") == r &&
			 strstr(r, "the payload holds more than 1048576 fields and elements") != NULL,
			 "values a payload makes are bounded: %.100s", r);
	free(buf);
	rg_schema_free(s);
}

/* The same schema used many times and many schemas: cached pools stay right. */
static void
test_cache(void)
{
	char		text[256];
	int			i;
	bool		ok = true;

	for (i = 0; i < 40 && ok; i++)
	{
		rg_schema  *s;
		char		json[64];
		char		want[64];

		snprintf(text, sizeof(text),
				 "syntax = \"proto3\";\npackage c%d;\nmessage M { int32 v%d = %d; }\n", i % 20, i % 20, 1 + i % 20);
		s = parse(text);
		if (s == NULL)
			return;
		snprintf(json, sizeof(json), "{\"v%d\": %d}", i % 20, i);
		snprintf(want, sizeof(want), "{\"v%d\":%d}", i % 20, i);
		ok = strcmp(round_trip(s, NULL, json), want) == 0;
		rg_schema_free(s);
	}
	RG_CHECK(ok, "forty schemas of twenty texts, more than the cache holds");
}

int
main(void)
{
	test_scalars();
	test_shapes();
	test_imports();
	test_proto2();
	test_reader();
	test_limits();
	test_cache();
	return rg_test_done();
}
