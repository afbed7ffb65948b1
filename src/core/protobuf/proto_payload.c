/*-------------------------------------------------------------------------
 *
 * proto_payload.c
 *	  rg_format_protobuf's encode and decode: the message indexes of
 *	  Confluent's wire format here (proto_index.c has the rule), the
 *	  message itself and its JSON form in the shim (libprotobuf's dynamic
 *	  messages and JSON mapping).
 *
 * A payload is the message-index path of its message in the writer's
 * schema, then the serialized message.  The shim gets the schema's linked
 * descriptors in wire form (packed once, kept in the model) and the full
 * name of the message.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_internal.h"

#include <string.h>

#include "protoc_shim.h"
#include "rg_json_text.h"

/* Longest message-index path read or written (as registry.wire_parse) */
#define MAX_INDEX_DEPTH 128

/*
 * Deepest JSON value encode hands to the shim: a message nests one level a
 * field, google.protobuf.Struct two to three, both stopped well inside.
 */
#define PAYLOAD_JSON_MAX_NESTING 200

/*
 * The linked set of a schema in wire form, packed at the first call and
 * kept in the model (near the schema's arena, so it goes with the schema);
 * NULL on out of memory.
 */
static const unsigned char *
packed_set(const rg_schema *schema, size_t *len)
{
	proto_model *m = (proto_model *) schema->model;

	if (m->set_bytes == NULL)
	{
		size_t		n = protobuf_c_message_get_packed_size((const ProtobufCMessage *) m->pub.set);
		unsigned char *buf = rg_malloc_near(schema->arena, n > 0 ? n : 1);

		if (buf == NULL)
			return NULL;
		protobuf_c_message_pack((const ProtobufCMessage *) m->pub.set, buf);
		m->set_bytes = buf;
		m->set_bytes_len = n;
	}
	*len = m->set_bytes_len;
	return m->set_bytes;
}

/*
 * The full name of the message encode writes: message without a leading
 * '.', or the first message of the file; from rg_malloc, NULL (err set)
 * when there is none.
 */
static char *
message_to_write(const rg_schema *schema, const char *message, rg_error *err)
{
	char	   *name;

	if (message == NULL)
	{
		name = rg_protobuf_message_name(schema, NULL, 0);
		if (name == NULL)
			rg_error_set(err, RG_ERR_INVALID_VALUE, "$: the schema declares no message");
		return name;
	}
	if (message[0] == '.')
		message++;
	name = rg_malloc(strlen(message) + 1);
	if (name == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return NULL;
	}
	strcpy(name, message);
	return name;
}

/* "[0, 2]": an index path for messages */
static void
format_indexes(rg_buf *b, const int *idx, int n)
{
	int			i;

	rg_buf_putc(b, '[');
	for (i = 0; i < n; i++)
		rg_buf_printf(b, i ? ", %d" : "%d", idx[i]);
	if (n == 0)
		rg_buf_putc(b, '0');
	rg_buf_putc(b, ']');
}

/* Take a failed shim call's error into err. */
static void
shim_error(const rg_protoc_payload *res, rg_error *err)
{
	if (res->error == NULL)
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
	else
		rg_error_set(err, (rg_errcode) res->code, "%s", res->error);
}

/* See rg_protobuf.h */
bool
rg_protobuf_encode(const rg_schema *schema, const char *message,
				   const char *json, size_t json_len, rg_buf *out, rg_error *err)
{
	const rg_proto_parsed *p = rg_protobuf_model(schema);
	int			idx[MAX_INDEX_DEPTH];
	int			n;
	char	   *name;
	const unsigned char *set;
	size_t		set_len;
	size_t		at;
	size_t		head;
	rg_protoc_payload res;
	bool		ok;

	rg_error_clear(err);
	if (p == NULL || p->set == NULL)
	{
		rg_error_set(err, RG_ERR_INTERNAL, "not a PROTOBUF schema");
		return false;
	}
	name = message_to_write(schema, message, err);
	if (name == NULL)
		return false;
	n = rg_protobuf_message_indexes(schema, name, idx, MAX_INDEX_DEPTH);
	if (n < 0)
	{
		rg_error_set(err, RG_ERR_INVALID_VALUE,
					 "$: the schema's file declares no message %s", name);
		rg_free(name);
		return false;
	}
	if (json == NULL || !rg_json_nesting_ok(json, json_len, PAYLOAD_JSON_MAX_NESTING, &at))
	{
		rg_error_set(err, RG_ERR_INVALID_VALUE,
					 "$: the value nests deeper than %d levels (at offset %zu)",
					 PAYLOAD_JSON_MAX_NESTING, json ? at : 0);
		rg_free(name);
		return false;
	}
	set = packed_set(schema, &set_len);
	if (set == NULL)
	{
		rg_free(name);
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	ok = rg_protoc_encode(set, set_len, name, json, json_len, &res);
	rg_free(name);
	if (!ok)
	{
		shim_error(&res, err);
		rg_protoc_payload_free(&res);
		return false;
	}

	/* the indexes, then the message */
	{
		unsigned char ibuf[MAX_INDEX_DEPTH * 5 + 5];

		head = rg_protobuf_encode_indexes(idx, n, ibuf, sizeof(ibuf));
		rg_buf_append(out, (const char *) ibuf, head);
	}
	rg_buf_append(out, (const char *) res.data, res.len);
	rg_protoc_payload_free(&res);
	if (out->oom)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	return true;
}

/* Append the shim's note lines to notes; false on out of memory. */
static bool
take_notes(const rg_protoc_payload *res, rg_strlist *notes)
{
	const char *p = res->notes;
	const char *end;

	if (p == NULL)
		return true;
	end = p + res->notes_len;
	while (p < end)
	{
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		size_t		n = nl ? (size_t) (nl - p) : (size_t) (end - p);
		char	   *line = rg_malloc(n + 1);
		bool		pushed;

		if (line == NULL)
			return false;
		memcpy(line, p, n);
		line[n] = '\0';
		pushed = rg_strlist_push(notes, line);
		rg_free(line);
		if (!pushed)
			return false;
		p += n + 1;
	}
	return true;
}

/*
 * The message a payload holds: its indexes read from the front of data
 * (*consumed set past them) and looked up in writer.  A full name from
 * rg_malloc; NULL with err set.
 */
static char *
payload_message(const rg_schema *writer, const uint8_t *data, size_t len,
				size_t *consumed, rg_error *err)
{
	int			idx[MAX_INDEX_DEPTH];
	int			n;
	char	   *name;
	rg_buf		b;

	n = rg_protobuf_decode_indexes(data, len, idx, MAX_INDEX_DEPTH, consumed);
	if (n < 0)
	{
		rg_error_set(err, RG_ERR_INVALID_PAYLOAD,
					 len == 0 ? "$: empty payload, no message indexes" :
					 "$: malformed message indexes");
		return NULL;
	}
	name = rg_protobuf_message_name(writer, idx, n);
	if (name != NULL)
		return name;
	rg_buf_init(&b);
	format_indexes(&b, idx, n);
	rg_buf_putc(&b, '\0');
	if (b.oom)
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
	else
		rg_error_set(err, RG_ERR_INVALID_PAYLOAD,
					 "$: message indexes %s out of range of the writer's schema", b.data);
	rg_buf_free(&b);
	return NULL;
}

/* See rg_protobuf.h */
bool
rg_protobuf_decode(const rg_schema *writer, const rg_schema *reader,
				   const uint8_t *data, size_t len, rg_buf *out,
				   rg_strlist *notes, rg_error *err)
{
	const rg_proto_parsed *wp = rg_protobuf_model(writer);
	const rg_proto_parsed *rp = reader ? rg_protobuf_model(reader) : NULL;
	size_t		consumed = 0;
	char	   *name;
	const unsigned char *wset;
	const unsigned char *rset = NULL;
	size_t		wlen;
	size_t		rlen = 0;
	rg_protoc_payload res;
	bool		ok;

	rg_error_clear(err);
	if (wp == NULL || wp->set == NULL || (reader != NULL && (rp == NULL || rp->set == NULL)))
	{
		rg_error_set(err, RG_ERR_INTERNAL, "not a PROTOBUF schema");
		return false;
	}
	name = payload_message(writer, data, len, &consumed, err);
	if (name == NULL)
		return false;
	wset = packed_set(writer, &wlen);
	if (wset != NULL && rp != NULL)
		rset = packed_set(reader, &rlen);
	if (wset == NULL || (rp != NULL && rset == NULL))
	{
		rg_free(name);
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	ok = rg_protoc_decode(wset, wlen, rset, rlen, name, data + consumed, len - consumed,
						  notes != NULL, &res);
	rg_free(name);
	if (!ok)
	{
		shim_error(&res, err);
		rg_protoc_payload_free(&res);
		return false;
	}
	rg_buf_append(out, (const char *) res.data, res.len);
	ok = !out->oom && (notes == NULL || take_notes(&res, notes));
	rg_protoc_payload_free(&res);
	if (!ok)
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
	return ok;
}
