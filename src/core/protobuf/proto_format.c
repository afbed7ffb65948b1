/*-------------------------------------------------------------------------
 *
 * proto_format.c
 *	  The PROTOBUF format: its rg_format, the one thing the Protobuf
 *	  folder exports to the rest of the core.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_internal.h"

const rg_format rg_format_protobuf = {
	.name = "PROTOBUF",
	.parse = rg_protobuf_parse,
	.can_read = rg_protobuf_can_read,
	.has_top_level_field = rg_protobuf_has_top_level_field,
	.release = rg_protobuf_model_release,
	.lint = rg_protobuf_lint,
	.fields = rg_protobuf_fields,
	.encode = rg_protobuf_encode,
	.decode = rg_protobuf_decode,
	.message_indexes = rg_protobuf_message_indexes,
	.message_name = rg_protobuf_message_name,
	.serialized = rg_protobuf_serialized,
	.apply_tags = rg_protobuf_apply_tags,
};
