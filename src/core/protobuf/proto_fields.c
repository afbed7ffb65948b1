/*-------------------------------------------------------------------------
 *
 * proto_fields.c
 *	  The fields at a .proto file's top level, for Confluent's
 *	  confluent:reserved check (ProtobufSchema.hasTopLevelField).
 *
 * Confluent looks at every type the file declares at its top level, not
 * only the first message: each top-level message's own fields count, map
 * fields and proto3 optional fields included.  Members of a oneof, proto2
 * groups, extensions and anything nested deeper do not (Confluent's parsed
 * .proto keeps them apart from a message's fields), and an enum has none.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_internal.h"

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
