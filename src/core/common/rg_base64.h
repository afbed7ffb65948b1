/*-------------------------------------------------------------------------
 *
 * rg_base64.h
 *	  Base64 (rg_base64.c): the one encoder and decoder of the core, for
 *	  Avro's bytes in JSON and PROTOBUF schemas given as a base64
 *	  FileDescriptorProto.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_BASE64_H
#define RG_BASE64_H

#include "rg_common.h"

#ifdef __cplusplus
extern "C"
{
#endif

/* Standard base64 of n bytes, with padding, appended to buf. */
extern void rg_base64_encode(rg_buf *buf, const uint8_t *b, size_t n);

/*
 * Decode len bytes of base64 of either alphabet (standard "+/" or URL-safe
 * "-_"), padding optional, appending the bytes to out.  False when s is
 * not base64: a character of neither alphabet, or a lone sextet at the
 * end.  strict also refuses what is not the one encoding of its bytes:
 * padding that does not complete the last group of four, and leftover
 * bits that are not zeros.
 */
extern bool rg_base64_decode(const char *s, size_t len, bool strict,
							 rg_buf *out);

#ifdef __cplusplus
}
#endif

#endif							/* RG_BASE64_H */
