/*-------------------------------------------------------------------------
 *
 * proto_internal.h
 *	  What the files of src/core/protobuf share and nobody else needs.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_PROTO_INTERNAL_H
#define RG_PROTO_INTERNAL_H

#include "rg_protobuf.h"

/*
 * rg_schema.model of a PROTOBUF schema: the public part first, so a
 * pointer to one is a pointer to the other; then the main file as parsed
 * (names as written, options uninterpreted), which the stored form is
 * rendered from.  protobuf-c allocates all of it through the core's
 * handlers (rg_alloc.h); rg_protobuf_model_release frees it.
 */
typedef struct proto_model
{
	rg_proto_parsed pub;
	Google__Protobuf__FileDescriptorProto *raw;

	/*
	 * pub.set in wire form, what payloads hand the shim: packed at the first
	 * payload call (near the schema's arena) and kept, NULL until then.  The
	 * only part of a model written after parse; invisible to its users.
	 */
	unsigned char *set_bytes;
	size_t		set_bytes_len;
} proto_model;

/*
 * The error of a walk over a parsed schema stopped by rg_too_deep (which
 * the text pre-scan makes unreachable but for the stack-depth hook).
 */
#define RG_PROTO_TOO_DEEP "Schema nesting is too deep to process."

/*
 * Render the stored .proto text of a file from its parse (raw) and its
 * linked form (linked: same declarations in the same order, names fully
 * qualified).  normalize applies Confluent's normalize=true.  Returns a
 * NUL-terminated string from rg_malloc (length in *len); NULL with err
 * set on out of memory or nesting too deep to render.
 */
extern char *rg_proto_render(const Google__Protobuf__FileDescriptorProto *raw,
							 const Google__Protobuf__FileDescriptorProto *linked,
							 bool normalize, size_t *len, rg_error *err);

/*
 * Does a message count for message indexes?  Map entries and proto2
 * group bodies do not (they are not message declarations in the text).
 */
extern bool rg_proto_is_declared_message(const Google__Protobuf__DescriptorProto *parent_or_null,
										 const Google__Protobuf__FileDescriptorProto *file,
										 const Google__Protobuf__DescriptorProto *msg);

/* The .proto keyword of a scalar field type; NULL for a message, enum or group. */
extern const char *rg_proto_scalar_name(Google__Protobuf__FieldDescriptorProto__Type t);

/* a field's type as the .proto text writes it ("repeated int32", "pkg.Msg"), in buf (proto_fields.c) */
extern const char *rg_proto_field_type_text(const Google__Protobuf__FieldDescriptorProto *f,
											char *buf, size_t size);

#endif							/* RG_PROTO_INTERNAL_H */
