/*-------------------------------------------------------------------------
 *
 * proto_index.c
 *	  Message indexes: which message of a schema a Protobuf payload holds.
 *
 * Confluent's wire format puts, after the magic byte and the schema id,
 * the path of the payload's message in the schema: its index among the
 * file's top-level messages, then among that message's nested messages,
 * and so on.  The path is written as a zigzag varint count followed by
 * zigzag varint indexes, except that the most common path, [0], is the
 * single byte 0 (a count of zero).
 *
 * Indexes count message declarations only: enums, map entries and group
 * bodies are skipped (rg_proto_is_declared_message), as Confluent's Java
 * does over its parsed .proto elements.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_internal.h"

#include <stdlib.h>
#include <string.h>

typedef Google__Protobuf__FileDescriptorProto FileProto;
typedef Google__Protobuf__DescriptorProto MsgProto;

#define VARINT32_MAX_BYTES 5

/*
 * The idx-th declared message among msgs (NULL if out of range).
 */
static const MsgProto *
declared_at(const FileProto *file, const MsgProto *parent,
			MsgProto *const *msgs, size_t n, int idx)
{
	size_t		i;
	int			k = 0;

	if (idx < 0)
		return NULL;
	for (i = 0; i < n; i++)
	{
		if (!rg_proto_is_declared_message(parent, file, msgs[i]))
			continue;
		if (k == idx)
			return msgs[i];
		k++;
	}
	return NULL;
}

/*
 * The declared-message index of the message called name (length len)
 * among msgs, -1 if none.
 */
static int
declared_index(const FileProto *file, const MsgProto *parent,
			   MsgProto *const *msgs, size_t n, const char *name, size_t len,
			   const MsgProto **found)
{
	size_t		i;
	int			k = 0;

	for (i = 0; i < n; i++)
	{
		if (!rg_proto_is_declared_message(parent, file, msgs[i]))
			continue;
		if (msgs[i]->name && strlen(msgs[i]->name) == len &&
			memcmp(msgs[i]->name, name, len) == 0)
		{
			*found = msgs[i];
			return k;
		}
		k++;
	}
	return -1;
}

/* See rg_protobuf.h */
int
rg_protobuf_message_indexes(const rg_schema *s, const char *full_name,
							int *out, int max)
{
	const rg_proto_parsed *p = rg_protobuf_model(s);
	const FileProto *file;
	const char *name;
	const MsgProto *parent = NULL;
	int			n = 0;

	if (p == NULL || p->file == NULL || full_name == NULL)
		return -1;
	file = p->file;
	name = full_name[0] == '.' ? full_name + 1 : full_name;

	/* the package, when the name carries it */
	if (file->package && file->package[0])
	{
		size_t		pl = strlen(file->package);

		if (strncmp(name, file->package, pl) == 0 && name[pl] == '.')
			name += pl + 1;
	}
	if (*name == '\0')
		return -1;

	while (*name)
	{
		const char *dot = strchr(name, '.');
		size_t		len = dot ? (size_t) (dot - name) : strlen(name);
		const MsgProto *found = NULL;
		int			idx;

		if (parent == NULL)
			idx = declared_index(file, NULL, file->message_type,
								 file->n_message_type, name, len, &found);
		else
			idx = declared_index(file, parent, parent->nested_type,
								 parent->n_nested_type, name, len, &found);
		if (idx < 0 || n >= max)
			return -1;
		out[n++] = idx;
		parent = found;
		if (dot == NULL)
			break;
		name = dot + 1;
		if (*name == '\0')
			return -1;
	}
	return n;
}

/* See rg_protobuf.h */
char *
rg_protobuf_message_name(const rg_schema *s, const int *indexes, int n)
{
	const rg_proto_parsed *p = rg_protobuf_model(s);
	const FileProto *file;
	const MsgProto *parent = NULL;
	static const int zero = 0;
	rg_buf		b;
	int			i;
	char	   *name;

	if (p == NULL || p->file == NULL || n < 0)
		return NULL;
	file = p->file;
	if (n == 0)
	{
		indexes = &zero;
		n = 1;
	}
	rg_buf_init(&b);
	if (file->package && file->package[0])
		rg_buf_puts(&b, file->package);
	for (i = 0; i < n; i++)
	{
		const MsgProto *m;

		if (parent == NULL)
			m = declared_at(file, NULL, file->message_type, file->n_message_type,
							indexes[i]);
		else
			m = declared_at(file, parent, parent->nested_type,
							parent->n_nested_type, indexes[i]);
		if (m == NULL)
		{
			rg_buf_free(&b);
			return NULL;
		}
		if (b.len > 0)
			rg_buf_putc(&b, '.');
		rg_buf_puts(&b, m->name ? m->name : "");
		parent = m;
	}
	if (b.oom)
	{
		rg_buf_free(&b);
		return NULL;
	}
	name = rg_malloc(b.len + 1);
	if (name != NULL)
	{
		memcpy(name, b.data, b.len);
		name[b.len] = '\0';
	}
	rg_buf_free(&b);
	return name;
}

/* Protobuf's zigzag encoding of a signed varint. */
static uint32_t
zigzag(int v)
{
	return ((uint32_t) v << 1) ^ (uint32_t) (v >> 31);
}

/* The inverse of zigzag(). */
static int
unzigzag(uint32_t v)
{
	return (int) ((v >> 1) ^ (~(v & 1) + 1));
}

/* Append a varint if it fits; always count its bytes */
static size_t
put_varint(uint32_t v, unsigned char *buf, size_t cap, size_t pos)
{
	do
	{
		unsigned char byte = v & 0x7f;

		v >>= 7;
		if (v)
			byte |= 0x80;
		if (pos < cap)
			buf[pos] = byte;
		pos++;
	} while (v);
	return pos;
}

/* See rg_protobuf.h */
size_t
rg_protobuf_encode_indexes(const int *idx, int n, unsigned char *buf,
						   size_t cap)
{
	size_t		need = 0;
	unsigned char tmp[VARINT32_MAX_BYTES * 2];
	int			i;

	if (n <= 0 || (n == 1 && idx[0] == 0))
	{
		if (cap >= 1)
			buf[0] = 0;
		return 1;
	}
	/* measure first, then write only if everything fits */
	need = put_varint(zigzag(n), tmp, 0, 0);
	for (i = 0; i < n; i++)
		need = put_varint(zigzag(idx[i]), tmp, 0, need);
	if (need <= cap)
	{
		size_t		pos = put_varint(zigzag(n), buf, cap, 0);

		for (i = 0; i < n; i++)
			pos = put_varint(zigzag(idx[i]), buf, cap, pos);
	}
	return need;
}

/* One varint of at most 5 bytes; false when truncated or overlong */
static bool
get_varint(const unsigned char *buf, size_t len, size_t *pos, uint32_t *out)
{
	uint64_t	v = 0;
	int			shift = 0;
	int			i;

	for (i = 0; i < VARINT32_MAX_BYTES; i++)
	{
		unsigned char byte;

		if (*pos >= len)
			return false;
		byte = buf[(*pos)++];
		v |= (uint64_t) (byte & 0x7f) << shift;
		if ((byte & 0x80) == 0)
		{
			if (v > UINT32_MAX)
				return false;
			*out = (uint32_t) v;
			return true;
		}
		shift += 7;
	}
	return false;
}

/* See rg_protobuf.h */
int
rg_protobuf_decode_indexes(const unsigned char *buf, size_t len, int *out,
						   int max, size_t *consumed)
{
	size_t		pos = 0;
	uint32_t	raw;
	int			count;
	int			i;

	if (consumed)
		*consumed = 0;
	if (buf == NULL || !get_varint(buf, len, &pos, &raw))
		return -1;
	count = unzigzag(raw);
	if (count < 0 || count > max)
		return -1;
	for (i = 0; i < count; i++)
	{
		int			v;

		if (!get_varint(buf, len, &pos, &raw))
			return -1;
		v = unzigzag(raw);
		if (v < 0)
			return -1;
		out[i] = v;
	}
	if (consumed)
		*consumed = pos;
	return count;
}
