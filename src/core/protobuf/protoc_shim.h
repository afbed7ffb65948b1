/*-------------------------------------------------------------------------
 *
 * protoc_shim.h
 *	  The one C++ file of the core, seen from C: .proto text in, linked
 *	  descriptors out, through libprotoc (the reference parser).
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

#ifdef __cplusplus
}
#endif

#endif							/* RG_PROTOC_SHIM_H */
