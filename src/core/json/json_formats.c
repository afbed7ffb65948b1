/*-------------------------------------------------------------------------
 *
 * json_formats.c
 *	  The "format" values validation checks: those of drafts 4 to 7 whose
 *	  grammar is small and fixed (everit, Confluent's validator for those
 *	  drafts, checks formats by default).  date-time, date and time are RFC
 *	  3339's, ipv4 dotted quads, ipv6 RFC 4291's text forms, hostname RFC
 *	  1123's labels, email an address with a local part and a domain,
 *	  json-pointer RFC 6901's and relative-json-pointer its draft's.  Any
 *	  other format (uri, iri, regex, idn-*, uri-template, one of a user's
 *	  own) is an annotation only, as 2019-09 and 2020-12 have every format
 *	  (the loader does not keep them there).
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"

#include <string.h>

/* a checker of one format */
typedef bool (*format_check) (const char *s, size_t len);

/* n decimal digits at s, their value in *out */
static bool
digits(const char *s, size_t n, int *out)
{
	size_t		i;

	*out = 0;
	for (i = 0; i < n; i++)
	{
		if (s[i] < '0' || s[i] > '9')
			return false;
		*out = *out * 10 + (s[i] - '0');
	}
	return true;
}

/* RFC 3339 full-date: YYYY-MM-DD, the day within its month */
static bool
check_date(const char *s, size_t len)
{
	static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int			y;
	int			m;
	int			d;

	if (len != 10 || s[4] != '-' || s[7] != '-' ||
		!digits(s, 4, &y) || !digits(s + 5, 2, &m) || !digits(s + 8, 2, &d))
		return false;
	if (m < 1 || m > 12 || d < 1 || d > days[m - 1])
		return false;
	if (m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))
		return false;
	return true;
}

/* RFC 3339 full-time: HH:MM:SS[.frac](Z|+HH:MM|-HH:MM) */
static bool
check_time(const char *s, size_t len)
{
	int			h;
	int			m;
	int			sec;
	size_t		i = 8;

	if (len < 9 || s[2] != ':' || s[5] != ':' ||
		!digits(s, 2, &h) || !digits(s + 3, 2, &m) || !digits(s + 6, 2, &sec) ||
		h > 23 || m > 59 || sec > 60)
		return false;
	if (s[i] == '.')
	{
		size_t		start = ++i;

		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == start)
			return false;
	}
	if (i + 1 == len && (s[i] == 'Z' || s[i] == 'z'))
		return true;
	if (i + 6 != len || (s[i] != '+' && s[i] != '-') || s[i + 3] != ':' ||
		!digits(s + i + 1, 2, &h) || !digits(s + i + 4, 2, &m) || h > 23 || m > 59)
		return false;
	return true;
}

/* RFC 3339 date-time: full-date "T" full-time */
static bool
check_date_time(const char *s, size_t len)
{
	return len > 11 && (s[10] == 'T' || s[10] == 't') && check_date(s, 10) &&
		check_time(s + 11, len - 11);
}

/* a dotted quad: four decimal numbers of 1 to 3 digits, at most 255 */
static bool
check_ipv4(const char *s, size_t len)
{
	size_t		i = 0;
	int			part;

	for (part = 0; part < 4; part++)
	{
		size_t		start = i;
		int			v = 0;

		if (part > 0)
		{
			if (i >= len || s[i] != '.')
				return false;
			start = ++i;
		}
		while (i < len && s[i] >= '0' && s[i] <= '9' && i - start < 3)
			v = v * 10 + (s[i++] - '0');
		if (i == start || v > 255)
			return false;
	}
	return i == len;
}

/* Is c a hexadecimal digit? */
static bool
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* RFC 4291's text forms: eight groups, one "::" for zero or more, a dotted quad last */
static bool
check_ipv6(const char *s, size_t len)
{
	int			groups = 0;
	bool		compressed = false;
	size_t		i = 0;

	if (len >= 2 && s[0] == ':' && s[1] == ':')
	{
		compressed = true;
		i = 2;
	}
	else if (len >= 1 && s[0] == ':')
		return false;
	while (i < len)
	{
		size_t		start = i;

		while (i < len && is_hex(s[i]) && i - start < 5)
			i++;
		if (i < len && s[i] == '.')
		{
			/* the last 32 bits as a dotted quad */
			if (!check_ipv4(s + start, len - start))
				return false;
			groups += 2;
			i = len;
			break;
		}
		if (i == start || i - start > 4)
			return false;
		groups++;
		if (i == len)
			break;
		if (s[i] != ':')
			return false;
		i++;
		if (i < len && s[i] == ':')
		{
			if (compressed)
				return false;
			compressed = true;
			i++;
		}
		else if (i == len)
			return false;
	}
	return compressed ? groups < 8 : groups == 8;
}

/* RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens */
static bool
check_hostname(const char *s, size_t len)
{
	size_t		i = 0;

	if (len == 0 || len > 253)
		return false;
	while (i < len)
	{
		size_t		start = i;

		while (i < len && s[i] != '.')
		{
			char		c = s[i];

			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				  (c >= '0' && c <= '9') || c == '-'))
				return false;
			i++;
		}
		if (i == start || i - start > 63 || s[start] == '-' || s[i - 1] == '-')
			return false;
		if (i < len && ++i == len)
			return false;
	}
	return true;
}

/* an address: a local part, one '@', a domain */
static bool
check_email(const char *s, size_t len)
{
	const char *at = memchr(s, '@', len);

	return at != NULL && at > s && at < s + len - 1 &&
		memchr(at + 1, '@', s + len - at - 1) == NULL;
}

/* RFC 6901: "" or "/"-prefixed tokens, '~' only as ~0 or ~1 */
static bool
check_json_pointer(const char *s, size_t len)
{
	size_t		i;

	if (len > 0 && s[0] != '/')
		return false;
	for (i = 0; i < len; i++)
		if (s[i] == '~' && (i + 1 >= len || (s[i + 1] != '0' && s[i + 1] != '1')))
			return false;
	return true;
}

/* a non-negative integer (no leading zero), then "#" or a JSON pointer */
static bool
check_relative_json_pointer(const char *s, size_t len)
{
	size_t		i = 0;

	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == 0 || (s[0] == '0' && i > 1))
		return false;
	if (i + 1 == len && s[i] == '#')
		return true;
	return check_json_pointer(s + i, len - i);
}

/* a format checked, by name */
typedef struct format_entry
{
	const char *name;
	format_check check;
} format_entry;

static const format_entry formats[] = {
	{"date-time", check_date_time},
	{"date", check_date},
	{"time", check_time},
	{"ipv4", check_ipv4},
	{"ipv6", check_ipv6},
	{"hostname", check_hostname},
	{"email", check_email},
	{"json-pointer", check_json_pointer},
	{"relative-json-pointer", check_relative_json_pointer},
};

/* See json_internal.h */
bool
js_format_ok(const char *format, const char *s, size_t len)
{
	size_t		i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(formats[i].name, format) == 0)
			return formats[i].check(s, len);
	return true;
}
