/*-------------------------------------------------------------------------
 *
 * proto_fields.c
 *	  The fields of a .proto file: those at its top level, for Confluent's
 *	  confluent:reserved check (ProtobufSchema.hasTopLevelField), and every
 *	  field its messages declare, for the field index (rg_fields.h).
 *
 * Confluent looks at every type the file declares at its top level, not
 * only the first message: each top-level message's own fields count, map
 * fields and proto3 optional fields included.  Members of a oneof, proto2
 * groups, extensions and anything nested deeper do not (Confluent's parsed
 * .proto keeps them apart from a message's fields), and an enum has none.
 *
 * Every field: from each top-level message (its simple name starts the
 * path: "Order.customer.email"), through fields whose type is a message of
 * the same file, each message once on the way down.  Oneof members count;
 * map entries are not walked into; types of imported files are named, not
 * walked.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_internal.h"
#include "rg_fields.h"
#include "rg_json_text.h"

#include <stdio.h>

#include <string.h>

typedef Google__Protobuf__FileDescriptorProto FileProto;
typedef Google__Protobuf__DescriptorProto MsgProto;
typedef Google__Protobuf__FieldDescriptorProto FieldProto;

/* Is a field one of the message's own, as the .proto text declares it? */
static bool
is_plain_field(const FieldProto *f)
{
	if (f->has_type &&
		f->type == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_GROUP)
		return false;
	return !f->has_oneof_index || (f->has_proto3_optional && f->proto3_optional);
}

/* Does a message declare a field of this name outside its oneofs? */
static bool
message_has_field(const MsgProto *msg, const char *name)
{
	size_t		i;

	for (i = 0; i < msg->n_field; i++)
		if (msg->field[i]->name != NULL && strcmp(msg->field[i]->name, name) == 0 &&
			is_plain_field(msg->field[i]))
			return true;
	return false;
}

/* See rg_protobuf.h */
bool
rg_protobuf_has_top_level_field(const rg_schema *schema, const char *name)
{
	const rg_proto_parsed *parsed = rg_protobuf_model(schema);
	const FileProto *file = parsed != NULL ? parsed->file : NULL;
	size_t		i;

	if (file == NULL)
		return false;
	for (i = 0; i < file->n_message_type; i++)
		if (rg_proto_is_declared_message(NULL, file, file->message_type[i]) &&
			message_has_field(file->message_type[i], name))
			return true;
	return false;
}

/* See proto_internal.h */
const char *
rg_proto_field_type_text(const FieldProto *f, char *buf, size_t size)
{
	const char *t = rg_proto_scalar_name(f->type);
	bool		repeated = f->label == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__LABEL__LABEL_REPEATED;

	if (t == NULL)
		t = f->type_name ? (f->type_name[0] == '.' ? f->type_name + 1 : f->type_name) : "?";
	snprintf(buf, size, "%s%s", repeated ? "repeated " : "", t);
	return buf;
}

/* the messages of a walk's file by full name, and the ones the walk is inside */
typedef struct proto_walk
{
	rg_field_list *out;
	const char **names;			/* ".pkg.Msg" */
	const MsgProto **msgs;
	int			n;
	int			cap;
	const MsgProto *stack[64];
	int			depth;
} proto_walk;

/* index a message and its nested ones under their full names (".pkg.Outer.Inner") */
static void
index_message(proto_walk *w, const char *prefix, const MsgProto *m, int depth)
{
	size_t		i;
	size_t		len;
	char	   *name;

	if (m->name == NULL || rg_too_deep(depth) || w->out->failed)
		return;
	if (w->n == w->cap)
	{
		int			cap = w->cap ? w->cap * 2 : 16;
		const char **names = rg_arena_alloc(w->out->arena, sizeof(char *) * cap);
		const MsgProto **msgs = rg_arena_alloc(w->out->arena, sizeof(MsgProto *) * cap);

		if (names == NULL || msgs == NULL)
		{
			w->out->failed = true;
			return;
		}
		if (w->n > 0)
		{
			memcpy(names, w->names, sizeof(char *) * w->n);
			memcpy(msgs, w->msgs, sizeof(MsgProto *) * w->n);
		}
		w->names = names;
		w->msgs = msgs;
		w->cap = cap;
	}
	len = strlen(prefix) + strlen(m->name) + 2;
	name = rg_arena_alloc(w->out->arena, len);
	if (name == NULL)
	{
		w->out->failed = true;
		return;
	}
	snprintf(name, len, "%s.%s", prefix, m->name);
	w->names[w->n] = name;
	w->msgs[w->n] = m;
	w->n++;
	for (i = 0; i < m->n_nested_type; i++)
		index_message(w, name, m->nested_type[i], depth + 1);
}

/* the message a field's type names in the file, or NULL (a scalar, an import, a map entry) */
static const MsgProto *
field_message(const proto_walk *w, const FieldProto *f)
{
	int			i;

	if (f->type_name == NULL)
		return NULL;
	for (i = 0; i < w->n; i++)
		if (strcmp(w->names[i], f->type_name) == 0)
			return w->msgs[i]->options != NULL && w->msgs[i]->options->map_entry ?
				NULL : w->msgs[i];
	return NULL;
}

/* a proto2 default as JSON text: a bool or a number as written, anything else a JSON string */
static const char *
default_json(const FieldProto *f, rg_arena *arena)
{
	rg_buf		buf;
	const char *text;
	bool		is_bool = f->type == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_BOOL;
	bool		is_number = !is_bool && f->default_value != NULL &&
	rg_proto_scalar_name(f->type) != NULL &&
	f->type != GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_STRING &&
	f->type != GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_BYTES &&
	f->default_value[0] != '\0' &&
	strspn(f->default_value, "-0123456789.eE+") == strlen(f->default_value);

	if (f->default_value == NULL)
		return NULL;
	if (is_bool || is_number)
		return rg_arena_strdup(arena, f->default_value);
	rg_buf_init(&buf);
	rg_json_write_string(&buf, f->default_value);
	text = buf.oom || buf.data == NULL ? NULL : rg_arena_strdup(arena, buf.data);
	rg_buf_free(&buf);
	return text;
}

/* the full name (".pkg.Msg") the walk's index gives a message */
static const char *
indexed_name(const proto_walk *w, const MsgProto *m)
{
	int			i;

	for (i = 0; i < w->n; i++)
		if (w->msgs[i] == m)
			return w->names[i];
	return m->name;
}

/* the fields of message m (full name record) under path, and of the messages they hold */
static void
walk_message(proto_walk *w, const MsgProto *m, const char *record, const char *path)
{
	size_t		i;
	int			k;

	for (k = 0; k < w->depth; k++)
		if (w->stack[k] == m)
			return;
	if (w->depth == (int) (sizeof(w->stack) / sizeof(w->stack[0])))
		return;
	w->stack[w->depth++] = m;
	for (i = 0; i < m->n_field && !w->out->failed && !w->out->truncated; i++)
	{
		const FieldProto *f = m->field[i];
		const MsgProto *inner;
		rg_field_info info = {0};
		char		type[512];

		if (f->name == NULL)
			continue;
		info.path = rg_field_path(w->out, path, f->name);
		if (info.path == NULL)
			break;
		info.name = f->name;
		info.record = record[0] == '.' ? record + 1 : record;
		info.type = rg_proto_field_type_text(f, type, sizeof(type));
		info.default_json = default_json(f, w->out->arena);
		if (!rg_field_list_add(w->out, &info))
			break;
		inner = field_message(w, f);
		if (inner != NULL)
			walk_message(w, inner, f->type_name, info.path);
	}
	w->depth--;
}

/* See rg_protobuf.h */
bool
rg_protobuf_fields(const rg_schema *schema, rg_field_list *out)
{
	const rg_proto_parsed *parsed = rg_protobuf_model(schema);
	const FileProto *file = parsed != NULL ? parsed->file : NULL;
	proto_walk *w;
	char	   *prefix;
	size_t		i;

	if (file == NULL)
		return true;
	w = rg_malloc(sizeof(proto_walk));
	memset(w, 0, sizeof(*w));
	w->out = out;
	prefix = file->package ? rg_arena_alloc(out->arena, strlen(file->package) + 2) : "";
	if (prefix == NULL)
		out->failed = true;
	else if (file->package)
		snprintf(prefix, strlen(file->package) + 2, ".%s", file->package);
	for (i = 0; prefix != NULL && i < file->n_message_type; i++)
		index_message(w, prefix, file->message_type[i], 0);
	for (i = 0; !out->failed && i < file->n_message_type; i++)
	{
		const MsgProto *m = file->message_type[i];

		if (m->name != NULL && rg_proto_is_declared_message(NULL, file, m))
			walk_message(w, m, indexed_name(w, m), m->name);
	}
	rg_free(w);
	return !out->failed;
}
