/*-------------------------------------------------------------------------
 *
 * protoc_shim.h
 *	  The one C++ file of the core, seen from C: .proto text in, linked
 *	  descriptors out, through libprotoc (the reference parser); and
 *	  payloads of those descriptors, through libprotobuf's dynamic
 *	  messages and its JSON mapping.
 *
 * Nothing here throws, longjmps or prints: a failure is a message (from
 * rg_malloc_noerror) with line and column where the parser gives them.
 * The caller frees what a result holds with rg_protoc_result_free.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_PROTOC_SHIM_H
#define RG_PROTOC_SHIM_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C"
{
#endif

/* A file the main text may import: its import path and its text */
typedef struct rg_protoc_file
{
	const char *name;
	const char *text;			/* .proto text or base64 FileDescriptorProto */
	size_t		len;
} rg_protoc_file;

typedef struct rg_protoc_result
{
	/*
	 * A serialized FileDescriptorSet: every file the main one imports,
	 * transitively, each before the files importing it, then the main file
	 * last; linked (type names fully qualified with a leading '.', options
	 * interpreted).
	 */
	unsigned char *set;
	size_t		set_len;

	/*
	 * The main file as the parser saw it, serialized: type names as written,
	 * every option still uninterpreted, map-entry messages generated.  Its
	 * messages, fields, enums and so on are in the same order as the linked
	 * main file's.
	 */
	unsigned char *raw;
	size_t		raw_len;

	/* on failure: what went wrong, with line:column */
	char	   *error;
} rg_protoc_result;

/* The import path the main file has inside the pool */
#define RG_PROTOC_MAIN_NAME "default.proto"

/*
 * Parse and link text (.proto source or a base64-encoded
 * FileDescriptorProto) against refs, the well-known types and Confluent's
 * confluent/meta.proto and confluent/type/decimal.proto.  true with set
 * and raw filled; false with error filled (or NULL on out of memory).
 */
extern bool rg_protoc_build(const char *text, size_t len,
							const rg_protoc_file *refs, int n_refs,
							rg_protoc_result *result);

extern void rg_protoc_result_free(rg_protoc_result *result);

/*
 * Payloads: a message of a linked FileDescriptorSet (rg_protoc_result.set,
 * or the same files packed again) as Protobuf bytes and as the proto3 JSON
 * mapping (rg_protobuf.h, "Payloads").  The descriptors of a set are built
 * once and kept, for the few sets used last (a cache of the process,
 * keyed by the set's bytes).
 */

/* Deepest message nesting a payload may have (the JSON printer's limit is 64) */
#define RG_PROTOC_PAYLOAD_MAX_NESTING 60

/* Most fields and repeated elements a payload may hold, set or printed */
#define RG_PROTOC_PAYLOAD_MAX_VALUES (1 << 20)

/* Largest JSON text or Protobuf bytes a payload call produces */
#define RG_PROTOC_PAYLOAD_MAX_OUTPUT (256 * 1024 * 1024)

typedef struct rg_protoc_payload
{
	/* the output: Protobuf bytes (encode) or JSON text (decode) */
	unsigned char *data;
	size_t		len;

	/* decode with notes: one line per note, each ending in '\n' */
	char	   *notes;
	size_t		notes_len;

	/*
	 * on failure: an rg_errcode (RG_ERR_INVALID_VALUE, _INVALID_PAYLOAD,
	 * _NOMEM, _INTERNAL) and its message, "$.path: what", NULL on out of
	 * memory
	 */
	int			code;
	char	   *error;
} rg_protoc_payload;

/*
 * The message full_name (no leading '.') of set from JSON text: the
 * value checked against the message and written as its Protobuf bytes
 * (map entries sorted by key).  false with code and error set.
 */
extern bool rg_protoc_encode(const unsigned char *set, size_t set_len,
							 const char *full_name,
							 const char *json, size_t json_len,
							 rg_protoc_payload *out);

/*
 * The Protobuf bytes of the message full_name of writer_set as JSON text;
 * with reader_set not NULL, read as the message of the same full name of
 * reader_set reads them.  With want_notes, what the reader does not read
 * as written (and what neither schema declares) goes to notes.  false with
 * code and error set.
 */
extern bool rg_protoc_decode(const unsigned char *writer_set, size_t writer_len,
							 const unsigned char *reader_set, size_t reader_len,
							 const char *full_name,
							 const unsigned char *data, size_t len,
							 bool want_notes, rg_protoc_payload *out);

/* Free what a payload result holds and clear it (NULL allowed). */
extern void rg_protoc_payload_free(rg_protoc_payload *out);

#ifdef __cplusplus
}

#include <string>

/* Shared by the two C++ files, protoc_shim.cpp and proto_dynamic.cpp */
namespace	rg_shim
{
/* libprotobuf's logging silenced (it would print to stderr), once */
	void		quiet_logging();

/* A copy of s for C (rg_malloc_noerror), NULL on out of memory. */
	unsigned char *copy_bytes(const std::string & s, size_t *len);
}
#endif

#endif							/* RG_PROTOC_SHIM_H */
