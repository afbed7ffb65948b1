/*-------------------------------------------------------------------------
 *
 * rg_base64.c
 *	  Base64, both ways (see rg_base64.h).
 *
 * No library the core links offers it: jansson and libavro have none,
 * PostgreSQL's pg_b64_decode is not for a core without PostgreSQL, and
 * libprotobuf's is C++ and takes one alphabet at a time.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_base64.h"

static const char b64[] =
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* See rg_base64.h */
void
rg_base64_encode(rg_buf *buf, const uint8_t *b, size_t n)
{
	char		q[4];
	size_t		i;

	for (i = 0; i + 2 < n; i += 3)
	{
		q[0] = b64[b[i] >> 2];
		q[1] = b64[((b[i] & 3) << 4) | (b[i + 1] >> 4)];
		q[2] = b64[((b[i + 1] & 15) << 2) | (b[i + 2] >> 6)];
		q[3] = b64[b[i + 2] & 63];
		rg_buf_append(buf, q, 4);
	}
	if (n - i == 1)
	{
		q[0] = b64[b[i] >> 2];
		q[1] = b64[(b[i] & 3) << 4];
		q[2] = q[3] = '=';
		rg_buf_append(buf, q, 4);
	}
	else if (n - i == 2)
	{
		q[0] = b64[b[i] >> 2];
		q[1] = b64[((b[i] & 3) << 4) | (b[i + 1] >> 4)];
		q[2] = b64[(b[i + 1] & 15) << 2];
		q[3] = '=';
		rg_buf_append(buf, q, 4);
	}
}

/* The value of a base64 character (both alphabets); -1 if it is not one. */
static int
b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

/* See rg_base64.h */
bool
rg_base64_decode(const char *s, size_t len, bool strict, rg_buf *out)
{
	uint32_t	acc = 0;
	int			bits = 0;
	size_t		i;
	size_t		pad = 0;

	while (len > 0 && s[len - 1] == '=' && pad < 2)
	{
		len--;
		pad++;
	}
	if (strict && pad > 0 && (len + pad) % 4 != 0)
		return false;
	/* a lone trailing sextet cannot end a base64 text */
	if (len % 4 == 1)
		return false;
	for (i = 0; i < len; i++)
	{
		int			v = b64_value(s[i]);
		char		c;

		if (v < 0)
			return false;
		acc = (acc << 6) | (uint32_t) v;
		bits += 6;
		if (bits >= 8)
		{
			bits -= 8;
			c = (char) (acc >> bits);
			rg_buf_append(out, &c, 1);
		}
	}
	/* strict: the bits left over must be zeros (one encoding per value) */
	return !strict || (acc & ((1u << bits) - 1)) == 0;
}
