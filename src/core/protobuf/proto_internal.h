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

/*
 * A string literal that the tokenizer reads back as the same bytes:
 * quotes, backslashes and control bytes escaped, other bytes (UTF-8
 * included) kept (proto_render.c).
 */
extern void rg_proto_put_quoted(rg_buf *b, const unsigned char *s, size_t n);

/* An uninterpreted option's value as the stored form writes it (proto_render.c) */
extern void rg_proto_put_option_value(rg_buf *b,
									  const Google__Protobuf__UninterpretedOption *o);

/*
 * rg_format_protobuf's apply_tags (proto_tags.c): the schema's parse with
 * the tags of the changes merged into its (confluent.message_meta) and
 * (confluent.field_meta) options, rendered as its stored form
 */
struct rg_tag_change;
extern bool rg_protobuf_apply_tags(const rg_schema *schema, rg_arena *arena,
								   const char *text, size_t len,
								   const struct rg_tag_change *changes,
								   int n_changes, rg_buf *out, rg_error *err);

/* The .proto keyword of a scalar field type; NULL for a message, enum or group. */
extern const char *rg_proto_scalar_name(Google__Protobuf__FieldDescriptorProto__Type t);

/* a field's type as the .proto text writes it ("repeated int32", "pkg.Msg"), in buf (proto_fields.c) */
extern const char *rg_proto_field_type_text(const Google__Protobuf__FieldDescriptorProto *f,
											char *buf, size_t size);

#endif							/* RG_PROTO_INTERNAL_H */
