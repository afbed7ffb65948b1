/*-------------------------------------------------------------------------
 *
 * wire.c
 *	  SQL functions over the Confluent wire format and Protobuf message
 *	  indexes: the header a producer writes before its payload (magic 0x00,
 *	  the 4-byte big-endian schema id, for PROTOBUF the message-index
 *	  array), the index path of a message in a registered schema and back,
 *	  and a PROTOBUF schema as Confluent's format=serialized (base64 of its
 *	  FileDescriptorProto).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "common/base64.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "registry.h"
#include "rg_protobuf.h"
#include "schemas.h"

#define MAX_INDEX_DEPTH 128

PG_FUNCTION_INFO_V1(registry_protobuf_message_indexes);
PG_FUNCTION_INFO_V1(registry_protobuf_message_name);
PG_FUNCTION_INFO_V1(registry_wire_header);
PG_FUNCTION_INFO_V1(registry_wire_parse);
PG_FUNCTION_INFO_V1(registry_schema_serialized);

/* The optional subject argument n: NULL when absent or SQL NULL. */
static const char *
subject_arg(FunctionCallInfo fcinfo, int n)
{
	return PG_NARGS() > n && !PG_ARGISNULL(n) ? text_to_cstring(PG_GETARG_TEXT_PP(n)) : NULL;
}

/*
 * The parsed PROTOBUF schema behind an id, in the context of the subject
 * (the default context for NULL).
 */
static const rg_schema *
protobuf_schema(int32 id, const char *subject)
{
	char	   *context = REGISTRY_DEFAULT_CONTEXT;
	const rg_schema *s;
	CatalogSchema row;

	if (subject != NULL)
	{
		char	   *name;

		registry_split_subject_cstr(subject, &context, &name);
	}
	/* the fingerprint as stored now: an id reused by IMPORT is parsed again */
	if (!catalog_get_schema(context, id, &row))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
				 errmsg("schema %d not found", id)));
	s = registry_stored_schema(context, id, row.fingerprint);
	/* the formats whose payloads start with message indexes: PROTOBUF */
	if (s->format->message_indexes == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("schema %d is not a PROTOBUF schema", id)));
	return s;
}

/* An int[] of n values. */
static ArrayType *
int_array(const int *v, int n)
{
	Datum	   *d = palloc(sizeof(Datum) * (n + 1));
	int			i;

	for (i = 0; i < n; i++)
		d[i] = Int32GetDatum(v[i]);
	return construct_array(d, n, INT4OID, 4, true, TYPALIGN_INT);
}

/* The values of a one-dimensional int[] of message indexes (non-negative). */
static int *
array_ints(ArrayType *arr, int *n)
{
	Datum	   *elems;
	bool	   *nulls;
	int		   *out;
	int			i;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("message indexes must be a one-dimensional array")));
	deconstruct_array(arr, INT4OID, 4, true, TYPALIGN_INT, &elems, &nulls, n);
	if (*n > MAX_INDEX_DEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("at most %d message indexes are supported", MAX_INDEX_DEPTH)));
	out = palloc(sizeof(int) * (*n + 1));
	for (i = 0; i < *n; i++)
	{
		if (nulls[i] || DatumGetInt32(elems[i]) < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("message indexes must be non-negative integers")));
		out[i] = DatumGetInt32(elems[i]);
	}
	return out;
}

/* protobuf_message_indexes(id, message full name, subject) -> int[] */
Datum
registry_protobuf_message_indexes(PG_FUNCTION_ARGS)
{
	int32		id = PG_GETARG_INT32(0);
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(1));
	const rg_schema *s = protobuf_schema(id, subject_arg(fcinfo, 2));
	int			idx[MAX_INDEX_DEPTH];
	int			n;

	n = s->format->message_indexes(s, name, idx, MAX_INDEX_DEPTH);
	if (n < 0)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("schema %d has no message \"%s\"", id, name)));
	PG_RETURN_ARRAYTYPE_P(int_array(idx, n));
}

/* protobuf_message_name(id, indexes, subject) -> full name; '{}' means [0] */
Datum
registry_protobuf_message_name(PG_FUNCTION_ARGS)
{
	int32		id = PG_GETARG_INT32(0);
	int			n;
	int		   *idx = array_ints(PG_GETARG_ARRAYTYPE_P(1), &n);
	const rg_schema *s = protobuf_schema(id, subject_arg(fcinfo, 2));
	char	   *name;
	text	   *result;

	name = s->format->message_name(s, idx, n);
	if (name == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("schema %d has no message at these indexes", id)));
	result = cstring_to_text(name);
	rg_free(name);
	PG_RETURN_TEXT_P(result);
}

/* The five header bytes of a message of schema id. */
static void
write_header(unsigned char *buf, int32 id)
{
	buf[0] = 0;
	buf[1] = (unsigned char) ((uint32) id >> 24);
	buf[2] = (unsigned char) ((uint32) id >> 16);
	buf[3] = (unsigned char) ((uint32) id >> 8);
	buf[4] = (unsigned char) id;
}

/* See registry.h */
bytea *
registry_wire_message(int32 id, const char *payload, size_t len)
{
	bytea	   *result;

	if (len > MaxAllocSize - VARHDRSZ - REGISTRY_WIRE_HEADER)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a message of %zu bytes is too large", len)));
	result = palloc(VARHDRSZ + REGISTRY_WIRE_HEADER + len);
	SET_VARSIZE(result, VARHDRSZ + REGISTRY_WIRE_HEADER + len);
	write_header((unsigned char *) VARDATA(result), id);
	if (len > 0)
		memcpy(VARDATA(result) + REGISTRY_WIRE_HEADER, payload, len);
	return result;
}

/* See registry.h */
int32
registry_wire_read(const char *msg, size_t len)
{
	const unsigned char *p = (const unsigned char *) msg;

	if (len < REGISTRY_WIRE_HEADER || p[0] != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("not a Confluent wire-format message"),
				 errdetail("It must start with the magic byte 0 and a 4-byte schema id.")));
	return (int32) (((uint32) p[1] << 24) | ((uint32) p[2] << 16) |
					((uint32) p[3] << 8) | (uint32) p[4]);
}

/*
 * wire_header(id, message_indexes) -> bytea: what precedes a payload in a
 * Kafka record.  With indexes (PROTOBUF), their encoding follows the id.
 */
Datum
registry_wire_header(PG_FUNCTION_ARGS)
{
	int32		id = PG_GETARG_INT32(0);
	unsigned char buf[5 + 10 * (MAX_INDEX_DEPTH + 1)];
	size_t		len = REGISTRY_WIRE_HEADER;
	bytea	   *result;

	write_header(buf, id);
	if (PG_NARGS() > 1 && !PG_ARGISNULL(1))
	{
		int			n;
		int		   *idx = array_ints(PG_GETARG_ARRAYTYPE_P(1), &n);

		len += rg_protobuf_encode_indexes(idx, n, buf + 5, sizeof(buf) - 5);
	}
	result = palloc(VARHDRSZ + len);
	SET_VARSIZE(result, VARHDRSZ + len);
	memcpy(VARDATA(result), buf, len);
	PG_RETURN_BYTEA_P(result);
}

/*
 * wire_parse(message, protobuf) -> (schema_id, message_indexes,
 * payload_offset): read the header of a Kafka record value.
 */
Datum
registry_wire_parse(PG_FUNCTION_ARGS)
{
	bytea	   *msg = PG_GETARG_BYTEA_PP(0);
	bool		protobuf = PG_NARGS() > 1 && !PG_ARGISNULL(1) && PG_GETARG_BOOL(1);
	const unsigned char *p = (const unsigned char *) VARDATA_ANY(msg);
	size_t		len = VARSIZE_ANY_EXHDR(msg);
	TupleDesc	desc;
	Datum		values[3];
	bool		nulls[3] = {false, true, false};
	size_t		offset = REGISTRY_WIRE_HEADER;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = Int32GetDatum(registry_wire_read((const char *) p, len));
	if (protobuf)
	{
		int			idx[MAX_INDEX_DEPTH];
		size_t		used;
		int			n = rg_protobuf_decode_indexes(p + 5, len - 5, idx, MAX_INDEX_DEPTH, &used);

		if (n < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					 errmsg("malformed Protobuf message indexes")));
		if (n == 0)
		{
			idx[0] = 0;
			n = 1;
		}
		values[1] = PointerGetDatum(int_array(idx, n));
		nulls[1] = false;
		offset += used;
	}
	values[2] = Int32GetDatum((int32) offset);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

/*
 * format=serialized of GET /schemas/ids/{id} and /subjects/{s}/versions/{v},
 * and registry.schema_serialized(): a PROTOBUF schema of the subject's
 * context (the default context for NULL) as its FileDescriptorProto in
 * base64.
 */
char *
registry_schema_serialized_text(int32 id, const char *subject)
{
	const rg_schema *s = protobuf_schema(id, subject);
	const unsigned char *bytes;
	size_t		len;
	char	   *b64;
	int			b64len;

	bytes = s->format->serialized(s, &len);
	b64 = palloc(pg_b64_enc_len((int) len) + 1);
	b64len = pg_b64_encode((const char *) bytes, (int) len, b64, pg_b64_enc_len((int) len));
	if (b64len < 0)
		elog(ERROR, "could not encode a descriptor in base64");
	b64[b64len] = '\0';
	return b64;
}

/* schema_serialized(id, subject) -> base64 FileDescriptorProto (PROTOBUF) */
Datum
registry_schema_serialized(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(registry_schema_serialized_text(PG_GETARG_INT32(0),
																	 subject_arg(fcinfo, 1))));
}
