/*-------------------------------------------------------------------------
 *
 * proto_scan.h
 *	  A linear pre-scan of .proto text (and of Protobuf text-format option
 *	  values) that bounds nesting before any recursive parser sees it.
 *
 * libprotoc's parser, its error recovery and the text-format parser that
 * reads aggregate option values all recurse once per nesting level, and
 * none of them stops in time: 20,000 nested messages overflow the C stack
 * (libprotoc's own limit of 32 nested messages only adds an error and
 * parses on) and take quadratic time getting there.  Plain C, included by
 * the C++ shim too.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_PROTO_SCAN_H
#define RG_PROTO_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C"
{
#endif

/*
 * Deepest nesting accepted, counting braces, brackets, parentheses and
 * angle brackets together.  protoc itself refuses more than 32 nested
 * message declarations, and a descriptor more than 100 levels deep cannot
 * be read by the Protobuf runtimes (their default recursion limit), so no
 * usable schema comes near it; libprotoc at this depth needs well under
 * 100 KB of stack.
 */
#define RG_PROTO_MAX_NESTING 100

/*
 * Does text nest at most limit levels deep?  proto_comments: skip // and
 * block comments as .proto text has them (false for text-format values,
 * whose # comments are simply scanned through).  On false, *line and
 * *column (1-based, columns counted as libprotoc counts them, a tab
 * advancing to the next multiple of 8) locate the opening bracket that
 * went past the limit.  String literals are skipped; a newline ends one,
 * as it does in libprotoc's tokenizer.
 */
extern bool rg_proto_nesting_ok(const char *text, size_t len,
								bool proto_comments, int limit,
								int *line, int *column);

#ifdef __cplusplus
}
#endif

#endif							/* RG_PROTO_SCAN_H */
