/*-------------------------------------------------------------------------
 *
 * rg_utf8.h
 *	  Well-formed UTF-8 (rg_utf8.c): the one check of the schema parsers and
 *	  the three formats' payload codecs.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_UTF8_H
#define RG_UTF8_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C"
{
#endif

/*
 * The length (1 to 4) of the well-formed UTF-8 sequence at p, which ends
 * before end; 0 for a malformed one (an overlong form, a surrogate, past
 * U+10FFFF, a sequence cut short).
 */
extern size_t rg_utf8_length(const unsigned char *p, const unsigned char *end);

/* Are the len bytes at s well-formed UTF-8? */
extern bool rg_utf8_valid(const unsigned char *s, size_t len);

#ifdef __cplusplus
}
#endif

#endif							/* RG_UTF8_H */
