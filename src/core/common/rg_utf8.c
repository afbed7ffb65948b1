/*-------------------------------------------------------------------------
 *
 * rg_utf8.c
 *	  Well-formed UTF-8, as RFC 3629 defines it: the shortest form of each
 *	  code point, no surrogates, nothing past U+10FFFF.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_utf8.h"

#include <stdint.h>

/* See rg_utf8.h */
size_t
rg_utf8_length(const unsigned char *p, const unsigned char *end)
{
	size_t		n;
	uint32_t	cp;
	size_t		i;

	if (*p < 0x80)
		return 1;
	if (*p >= 0xC2 && *p <= 0xDF)
		n = 2;
	else if (*p >= 0xE0 && *p <= 0xEF)
		n = 3;
	else if (*p >= 0xF0 && *p <= 0xF4)
		n = 4;
	else
		return 0;
	if ((size_t) (end - p) < n)
		return 0;
	cp = *p & (0x3F >> (n - 1));
	for (i = 1; i < n; i++)
	{
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
		(n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return n;
}

/* See rg_utf8.h */
bool
rg_utf8_valid(const unsigned char *s, size_t len)
{
	const unsigned char *end = s + len;

	while (s < end)
	{
		size_t		n = rg_utf8_length(s, end);

		if (n == 0)
			return false;
		s += n;
	}
	return true;
}
