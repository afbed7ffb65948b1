/*-------------------------------------------------------------------------
 *
 * rg_protobuf.h
 *	  Our model of a Protobuf schema, and the PROTOBUF-only entry points.
 *
 * .proto text is parsed and linked by libprotoc (through a small C++ shim,
 * protobuf/protoc_shim.cpp) into a FileDescriptorSet, which C code then
 * reads through protobuf-c's generated descriptor.pb-c.h.  Everything a
 * parsed PROTOBUF schema holds outside its arena (the unpacked set and the
 * serialized main file) is freed by rg_protobuf_model_release, the
 * format's release hook.
 *
 * Plain C: no jansson, no PostgreSQL.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_PROTOBUF_H
#define RG_PROTOBUF_H

#include "google/protobuf/descriptor.pb-c.h"

#include "rg_format.h"

/*
 * rg_schema.model of a PROTOBUF schema.
 *
 * set holds the main file and every file it imports, transitively, in
 * dependency order (a file comes after everything it imports), each
 * linked: every type name in a field, extendee, method input/output is
 * fully qualified with a leading '.'.  file points at the main file inside
 * set.  serialized is the main FileDescriptorProto in wire form (what
 * GET ...?format=serialized returns, base64-encoded).
 */
typedef struct rg_proto_parsed
{
	Google__Protobuf__FileDescriptorSet *set;
	const Google__Protobuf__FileDescriptorProto *file;
	unsigned char *serialized;
	size_t		serialized_len;
} rg_proto_parsed;

extern const rg_format rg_format_protobuf;

/*
 * rg_format_protobuf's parse.  text is .proto source or a base64-encoded
 * FileDescriptorProto; refs give the imported files (name = import path,
 * schema = that file's .proto text or base64 descriptor).  The
 * well-known types (every google/protobuf/ file) and Confluent's
 * confluent/meta.proto and confluent/type/decimal.proto resolve without a
 * reference.
 */
extern rg_schema *rg_protobuf_parse(const char *text, size_t len,
									const rg_reference *refs, int n_refs,
									bool normalize, rg_error *err);

/* rg_format_protobuf's can_read (src/core/protobuf/proto_compat.c) */
extern bool rg_protobuf_can_read(const rg_schema *reader,
								 const rg_schema *writer, rg_strlist *out);

/*
 * rg_format_protobuf's has_top_level_field (src/core/protobuf/proto_fields.c):
 * a field, outside any oneof, of a message the file declares at its top level
 */
extern bool rg_protobuf_has_top_level_field(const rg_schema *schema,
											const char *name);

/*
 * rg_format_protobuf's lint (src/core/protobuf/proto_lint.c): a field
 * deleted without reserving its number and name (against the latest
 * earlier version), a field number or name used again for another field
 * (against every earlier version), and the practices of rg_lint.h
 */
struct rg_prior_version;
extern bool rg_protobuf_lint(const rg_schema *new_schema,
							 const struct rg_prior_version *earlier, int n_earlier,
							 unsigned int rules, rg_strlist *out);

struct rg_field_list;

/* rg_format_protobuf's fields: every field its messages declare (proto_fields.c) */
extern bool rg_protobuf_fields(const rg_schema *schema, struct rg_field_list *out);

/* rg_format_protobuf's release: frees the set and the serialized bytes */
extern void rg_protobuf_model_release(void *model);

/* The model of a PROTOBUF schema (NULL if s is not one) */
extern const rg_proto_parsed *rg_protobuf_model(const rg_schema *s);

/*
 * Message indexes (Confluent's wire format for Protobuf payloads).
 *
 * rg_protobuf_message_indexes: the index path of the message full_name
 * (with or without a leading '.', package included) in the main file:
 * [index among the file's top-level messages, index among that message's
 * nested messages, ...].  As in Confluent's Java (which counts the message
 * declarations of the .proto text), enums, map-entry messages and proto2
 * group bodies do not count.
 * Writes up to max entries to out and returns the path length, or -1 if
 * there is no such message (or the path is longer than max).
 */
extern int	rg_protobuf_message_indexes(const rg_schema *s,
										const char *full_name,
										int *out, int max);

/*
 * The full name (package included, no leading '.') of the message at an
 * index path; from rg_malloc (rg_free it), NULL if the path is out of range.  n == 0 means
 * the path [0] (the first top-level message).
 */
extern char *rg_protobuf_message_name(const rg_schema *s,
									  const int *indexes, int n);

/*
 * Encode an index path: zigzag varint count, then each index as a zigzag
 * varint; the path [0] (and the empty path) is the single byte 0.
 * Returns the number of bytes needed; writes them only if they fit in cap
 * (so a call with cap 0 measures).
 */
extern size_t rg_protobuf_encode_indexes(const int *idx, int n,
										 unsigned char *buf, size_t cap);

/*
 * Decode an index path from the front of buf.  Returns the count (0 for
 * the shortcut byte 0, meaning [0]) and sets *consumed to the bytes read;
 * -1 on malformed input (truncated or overlong varint, negative count or
 * index, count larger than max).
 */
extern int	rg_protobuf_decode_indexes(const unsigned char *buf, size_t len,
									   int *out, int max, size_t *consumed);

/*
 * Payloads (rg_format.h: encode and decode; src/core/protobuf/proto_payload.c).
 *
 * A payload is the message-index path of its message in the writer's
 * schema (rg_protobuf_encode_indexes), then the message serialized.  Its
 * JSON form is the proto3 JSON mapping: the .proto's field names on
 * output (lowerCamelCase accepted on input too), every field without
 * presence printed even at its default (a proto2 optional field at its
 * declared default, repeated as [], maps as {}), a field with presence
 * (message, oneof member, proto3 optional) only when set; enums by name
 * (an unknown number of an open enum as the number); 64-bit integers as
 * strings (numbers accepted on input); bytes in base64; the well-known
 * types in their own forms (Timestamp as RFC 3339 text, wrappers as their
 * value, Struct as JSON, Any with "@type").  Groups and extensions have no
 * JSON form: a group is refused, an extension dropped.
 *
 * decode with a reader parses the bytes as the reader's message of the
 * same full name; notes get "$.path: not in the reader, dropped", "$.path:
 * of another type in the reader, dropped", "$.path: missing from the
 * data, the reader's default used" and "$.path: field N is not read by the
 * writer's schema, dropped", "[*]" standing for every element of a
 * repeated field, each line once.
 */
extern bool rg_protobuf_encode(const rg_schema *schema, const char *message,
							   const char *json, size_t json_len,
							   rg_buf *out, rg_error *err);
extern bool rg_protobuf_decode(const rg_schema *writer, const rg_schema *reader,
							   const uint8_t *data, size_t len, rg_buf *out,
							   rg_strlist *notes, rg_error *err);

/* The main FileDescriptorProto in wire form; *len set to its size */
extern const unsigned char *rg_protobuf_serialized(const rg_schema *s,
												   size_t *len);

#endif							/* RG_PROTOBUF_H */
