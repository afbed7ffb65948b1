/*-------------------------------------------------------------------------
 *
 * avro_logical.c
 *	  The JSON form of Avro's logical types and of bytes: dates, times and
 *	  timestamps as ISO 8601 text, decimals as exact JSON numbers, uuids
 *	  as text (doc/payloads.md); bytes and fixed are base64
 *	  (common/rg_base64.c).
 *
 * Dates are proleptic Gregorian days since 1970-01-01, as Java's
 * LocalDate; a year outside 0000..9999 is written with its sign and at
 * least five digits ("+10000-01-01"), as ISO 8601's expanded years.
 *
 *-------------------------------------------------------------------------
 */
#include "avro_payload.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A schema property's value, or NULL. */
static const json_t *
prop(const rg_avro_schema *s, const char *key)
{
	int			i;

	for (i = 0; i < s->n_props; i++)
		if (strcmp(s->props[i].key, key) == 0)
			return s->props[i].value;
	return NULL;
}

/* See avro_payload.h; the rules of Avro 1.11's fromSchemaIgnoreInvalid. */
rg_avro_logical
rg_avro_logical_of(const rg_avro_schema *s)
{
	rg_avro_logical lt = {RG_AVRO_LT_NONE, 0, 0};
	const json_t *v;
	const char *name;

	if (s->n_props == 0 || !json_is_string(v = prop(s, "logicalType")))
		return lt;
	name = json_string_value(v);
	if (strcmp(name, "decimal") == 0)
	{
		const json_t *p = prop(s, "precision");
		const json_t *sc = prop(s, "scale");
		json_int_t	precision;
		json_int_t	scale = 0;

		if (s->type != RG_AVRO_BYTES && s->type != RG_AVRO_FIXED)
			return lt;
		if (!json_is_integer(p) || (precision = json_integer_value(p)) <= 0 ||
			precision > 1000000)
			return lt;
		if (sc != NULL)
		{
			if (!json_is_integer(sc))
				return lt;
			scale = json_integer_value(sc);
		}
		if (scale < 0 || scale > precision)
			return lt;
		if (s->type == RG_AVRO_FIXED &&
			precision > (json_int_t) floor((8.0 * s->size - 1) * log10(2.0)))
			return lt;
		lt.type = RG_AVRO_LT_DECIMAL;
		lt.precision = (int) precision;
		lt.scale = (int) scale;
	}
	else if (strcmp(name, "uuid") == 0 && s->type == RG_AVRO_STRING)
		lt.type = RG_AVRO_LT_UUID;
	else if (s->type == RG_AVRO_INT && strcmp(name, "date") == 0)
		lt.type = RG_AVRO_LT_DATE;
	else if (s->type == RG_AVRO_INT && strcmp(name, "time-millis") == 0)
		lt.type = RG_AVRO_LT_TIME_MILLIS;
	else if (s->type == RG_AVRO_LONG && strcmp(name, "time-micros") == 0)
		lt.type = RG_AVRO_LT_TIME_MICROS;
	else if (s->type == RG_AVRO_LONG && strcmp(name, "timestamp-millis") == 0)
		lt.type = RG_AVRO_LT_TIMESTAMP_MILLIS;
	else if (s->type == RG_AVRO_LONG && strcmp(name, "timestamp-micros") == 0)
		lt.type = RG_AVRO_LT_TIMESTAMP_MICROS;
	else if (s->type == RG_AVRO_LONG && strcmp(name, "local-timestamp-millis") == 0)
		lt.type = RG_AVRO_LT_LOCAL_TIMESTAMP_MILLIS;
	else if (s->type == RG_AVRO_LONG && strcmp(name, "local-timestamp-micros") == 0)
		lt.type = RG_AVRO_LT_LOCAL_TIMESTAMP_MICROS;
	return lt;
}

/* See avro_payload.h */
avj_kind
rg_avro_json_kind(const rg_avro_schema *s)
{
	switch (s->type)
	{
		case RG_AVRO_NULL:
			return AVJ_NULL;
		case RG_AVRO_BOOLEAN:
			return AVJ_BOOL;
		case RG_AVRO_INT:
		case RG_AVRO_LONG:
			return rg_avro_logical_of(s).type == RG_AVRO_LT_NONE ? AVJ_NUMBER : AVJ_STRING;
		case RG_AVRO_FLOAT:
		case RG_AVRO_DOUBLE:
			return AVJ_NUMBER;
		case RG_AVRO_BYTES:
		case RG_AVRO_FIXED:
			return rg_avro_logical_of(s).type == RG_AVRO_LT_DECIMAL ? AVJ_NUMBER : AVJ_STRING;
		case RG_AVRO_STRING:
		case RG_AVRO_ENUM:
			return AVJ_STRING;
		case RG_AVRO_ARRAY:
			return AVJ_ARRAY;
		case RG_AVRO_MAP:
		case RG_AVRO_RECORD:
			return AVJ_OBJECT;
		case RG_AVRO_UNION:
			break;
	}
	return AVJ_NULL;
}

/* ---------- dates and times ---------- */

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm). */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t		era;
	int64_t		yoe;
	int64_t		doy;
	int64_t		doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* The date of a day number (the inverse of days_from_civil). */
static void
civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t		era;
	int64_t		doe;
	int64_t		yoe;
	int64_t		doy;
	int64_t		mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int) (doy - (153 * mp + 2) / 5 + 1);
	*m = (int) (mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/* Floor division and its non-negative remainder. */
static void
floor_divmod(int64_t a, int64_t b, int64_t *q, int64_t *r)
{
	*q = a / b;
	*r = a % b;
	if (*r < 0)
	{
		*r += b;
		(*q)--;
	}
}

/* The units per second of a time logical type, and per day. */
static int64_t
units_per_second(rg_avro_lt lt)
{
	switch (lt)
	{
		case RG_AVRO_LT_TIME_MILLIS:
		case RG_AVRO_LT_TIMESTAMP_MILLIS:
		case RG_AVRO_LT_LOCAL_TIMESTAMP_MILLIS:
			return 1000;
		case RG_AVRO_LT_TIME_MICROS:
		case RG_AVRO_LT_TIMESTAMP_MICROS:
		case RG_AVRO_LT_LOCAL_TIMESTAMP_MICROS:
			return 1000000;
		default:
			return 1;
	}
}

/* "YYYY-MM-DD" of a day number into buf (unquoted). */
static void
write_date(rg_buf *buf, int64_t days)
{
	int64_t		y;
	int			m;
	int			d;

	civil_from_days(days, &y, &m, &d);
	if (y >= 0 && y <= 9999)
		rg_buf_printf(buf, "%04lld-%02d-%02d", (long long) y, m, d);
	else
		rg_buf_printf(buf, "%+06lld-%02d-%02d", (long long) y, m, d);
}

/* "HH:MM:SS.fff" of a time of day in units (unquoted). */
static void
write_time(rg_buf *buf, int64_t units, int64_t per_second)
{
	int64_t		secs = units / per_second;
	int64_t		frac = units % per_second;

	rg_buf_printf(buf, "%02d:%02d:%02d", (int) (secs / 3600), (int) (secs / 60 % 60),
				  (int) (secs % 60));
	if (per_second == 1000)
		rg_buf_printf(buf, ".%03d", (int) frac);
	else
		rg_buf_printf(buf, ".%06d", (int) frac);
}

/* See avro_payload.h */
bool
rg_avro_time_write(rg_buf *buf, rg_avro_lt lt, int64_t v)
{
	int64_t		per_second = units_per_second(lt);
	int64_t		days;
	int64_t		rest;

	switch (lt)
	{
		case RG_AVRO_LT_DATE:
			rg_buf_putc(buf, '"');
			write_date(buf, v);
			rg_buf_putc(buf, '"');
			return true;
		case RG_AVRO_LT_TIME_MILLIS:
		case RG_AVRO_LT_TIME_MICROS:
			if (v < 0 || v >= 86400 * per_second)
				return false;
			rg_buf_putc(buf, '"');
			write_time(buf, v, per_second);
			rg_buf_putc(buf, '"');
			return true;
		case RG_AVRO_LT_TIMESTAMP_MILLIS:
		case RG_AVRO_LT_TIMESTAMP_MICROS:
		case RG_AVRO_LT_LOCAL_TIMESTAMP_MILLIS:
		case RG_AVRO_LT_LOCAL_TIMESTAMP_MICROS:
			floor_divmod(v, 86400 * per_second, &days, &rest);
			rg_buf_putc(buf, '"');
			write_date(buf, days);
			rg_buf_putc(buf, 'T');
			write_time(buf, rest, per_second);
			if (lt == RG_AVRO_LT_TIMESTAMP_MILLIS || lt == RG_AVRO_LT_TIMESTAMP_MICROS)
				rg_buf_putc(buf, 'Z');
			rg_buf_putc(buf, '"');
			return true;
		default:
			return false;
	}
}

/* Exactly n digits at s[*pos] as a number; false if they are not digits. */
static bool
digits(const char *s, size_t len, size_t *pos, int n, int64_t *out)
{
	int64_t		v = 0;
	int			i;

	if (*pos + n > len)
		return false;
	for (i = 0; i < n; i++)
	{
		char		c = s[*pos + i];

		if (c < '0' || c > '9')
			return false;
		v = v * 10 + (c - '0');
	}
	*pos += n;
	*out = v;
	return true;
}

/* [+-]YYYY-MM-DD at s[*pos] as a day number. */
static bool
parse_date(const char *s, size_t len, size_t *pos, int64_t *days, const char **why)
{
	static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int			sign = 1;
	int64_t		y = 0;
	int64_t		m;
	int64_t		d;
	int			ny = 0;

	*why = "expected a date as YYYY-MM-DD";
	if (*pos < len && (s[*pos] == '+' || s[*pos] == '-'))
		sign = s[(*pos)++] == '-' ? -1 : 1;
	while (*pos < len && s[*pos] >= '0' && s[*pos] <= '9' && ny < 10)
	{
		y = y * 10 + (s[(*pos)++] - '0');
		ny++;
	}
	if (ny < 4 || *pos >= len || s[*pos] != '-')
		return false;
	(*pos)++;
	if (!digits(s, len, pos, 2, &m) || *pos >= len || s[*pos] != '-')
		return false;
	(*pos)++;
	if (!digits(s, len, pos, 2, &d))
		return false;
	y *= sign;
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1] ||
		(m == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)))
	{
		*why = "not a valid date";
		return false;
	}
	*days = days_from_civil(y, (int) m, (int) d);
	return true;
}

/*
 * HH:MM[:SS[.fraction]] at s[*pos] in units; a fraction finer than the
 * unit must be zeros.
 */
static bool
parse_time(const char *s, size_t len, size_t *pos, int64_t per_second,
		   int64_t *out, const char **why)
{
	int64_t		h;
	int64_t		mi;
	int64_t		sec = 0;
	int64_t		frac = 0;
	int64_t		scale = per_second;

	*why = "expected a time as HH:MM:SS.fff";
	if (!digits(s, len, pos, 2, &h) || *pos >= len || s[*pos] != ':')
		return false;
	(*pos)++;
	if (!digits(s, len, pos, 2, &mi))
		return false;
	if (*pos < len && s[*pos] == ':')
	{
		(*pos)++;
		if (!digits(s, len, pos, 2, &sec))
			return false;
		if (*pos < len && s[*pos] == '.')
		{
			int			nd = 0;

			(*pos)++;
			while (*pos < len && s[*pos] >= '0' && s[*pos] <= '9')
			{
				if (scale > 1)
				{
					scale /= 10;
					frac += (s[*pos] - '0') * scale;
				}
				else if (s[*pos] != '0')
				{
					*why = "more digits of a second than the type keeps";
					return false;
				}
				(*pos)++;
				nd++;
			}
			if (nd == 0)
				return false;
		}
	}
	if (h > 23 || mi > 59 || sec > 59)
	{
		*why = "not a valid time";
		return false;
	}
	*out = ((h * 60 + mi) * 60 + sec) * per_second + frac;
	return true;
}

/* See avro_payload.h */
bool
rg_avro_time_parse(rg_avro_lt lt, const char *s, size_t len, int64_t *out,
				   const char **why)
{
	int64_t		per_second = units_per_second(lt);
	size_t		pos = 0;
	int64_t		days;
	int64_t		tod;
	int64_t		offset = 0;
	bool		local;

	local = lt == RG_AVRO_LT_LOCAL_TIMESTAMP_MILLIS || lt == RG_AVRO_LT_LOCAL_TIMESTAMP_MICROS;
	switch (lt)
	{
		case RG_AVRO_LT_DATE:
			if (!parse_date(s, len, &pos, &days, why))
				return false;
			if (pos != len || days < INT32_MIN || days > INT32_MAX)
			{
				*why = pos != len ? "expected a date as YYYY-MM-DD" : "out of range for a date";
				return false;
			}
			*out = days;
			return true;
		case RG_AVRO_LT_TIME_MILLIS:
		case RG_AVRO_LT_TIME_MICROS:
			if (!parse_time(s, len, &pos, per_second, out, why))
				return false;
			if (pos != len)
			{
				*why = "expected a time as HH:MM:SS.fff";
				return false;
			}
			return true;
		default:
			break;
	}
	if (!parse_date(s, len, &pos, &days, why))
	{
		*why = "expected a timestamp as YYYY-MM-DDTHH:MM:SS.fff";
		return false;
	}
	if (pos >= len || (s[pos] != 'T' && s[pos] != 't' && s[pos] != ' '))
	{
		*why = "expected a timestamp as YYYY-MM-DDTHH:MM:SS.fff";
		return false;
	}
	pos++;
	if (!parse_time(s, len, &pos, per_second, &tod, why))
		return false;
	if (pos < len && (s[pos] == 'Z' || s[pos] == 'z') && !local)
		pos++;
	else if (pos < len && (s[pos] == '+' || s[pos] == '-') && !local)
	{
		int			sign = s[pos++] == '-' ? -1 : 1;
		int64_t		oh;
		int64_t		om = 0;

		if (!digits(s, len, &pos, 2, &oh))
			return false;
		if (pos < len && s[pos] == ':')
			pos++;
		if (pos < len && !digits(s, len, &pos, 2, &om))
			return false;
		if (oh > 18 || om > 59)
		{
			*why = "not a valid offset";
			return false;
		}
		offset = sign * (oh * 3600 + om * 60) * per_second;
	}
	if (pos != len)
	{
		*why = local ? "expected a local timestamp, without an offset" :
			"expected a timestamp as YYYY-MM-DDTHH:MM:SS.fffZ";
		return false;
	}
	if (__builtin_mul_overflow(days, 86400 * per_second, out) ||
		__builtin_add_overflow(*out, tod, out) ||
		__builtin_sub_overflow(*out, offset, out))
	{
		*why = "out of range for a long";
		return false;
	}
	return true;
}

/* ---------- decimals ---------- */

/* See avro_payload.h */
bool
rg_avro_decimal_write(rg_buf *buf, const uint8_t *b, size_t n, int scale)
{
	uint8_t    *mag;
	char	   *dig;
	size_t		nd = 0;
	size_t		lead = 0;
	bool		neg;
	size_t		i;
	int			passes = 0;

	if (n == 0 || n > RG_AVRO_MAX_DECIMAL_BYTES)
		return false;
	mag = rg_malloc(n);
	dig = rg_malloc(n * 3 + 12);
	if (mag == NULL || dig == NULL)
	{
		rg_free(mag);
		rg_free(dig);
		buf->oom = true;
		return true;
	}
	neg = (b[0] & 0x80) != 0;
	memcpy(mag, b, n);
	if (neg)
	{
		/* the magnitude of a negative number: invert and add one */
		int			carry = 1;

		for (i = n; i-- > 0;)
		{
			int			v = (uint8_t) ~mag[i] + carry;

			mag[i] = (uint8_t) v;
			carry = v >> 8;
		}
	}
	/* digits, least significant first, nine at a time */
	for (;;)
	{
		uint64_t	rem = 0;
		bool		zero = true;
		int			k;

		/* (a long decimal takes a while: a cancel's chance) */
		if (++passes % 256 == 0)
			rg_check_interrupts();

		for (i = lead; i < n; i++)
		{
			uint64_t	cur = (rem << 8) | mag[i];

			mag[i] = (uint8_t) (cur / 1000000000u);
			rem = cur % 1000000000u;
			if (mag[i] != 0)
				zero = false;
			else if (zero)
				lead = i + 1;
		}
		for (k = 0; k < 9; k++)
		{
			dig[nd++] = (char) ('0' + rem % 10);
			rem /= 10;
			if (zero && rem == 0)
				break;
		}
		if (zero)
			break;
	}
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	while (nd < (size_t) scale + 1)
		dig[nd++] = '0';
	if (neg && !(nd == 1 && dig[0] == '0'))
		rg_buf_putc(buf, '-');
	for (i = nd; i-- > 0;)
	{
		rg_buf_putc(buf, dig[i]);
		if (i == (size_t) scale && scale > 0)
			rg_buf_putc(buf, '.');
	}
	rg_free(mag);
	rg_free(dig);
	return true;
}

/*
 * Number text as a decimal reads it: an optional sign, digits with an
 * optional point among them (at least one digit), an optional exponent.
 * The digits go to digits (when not NULL), with how many followed the
 * point and the exponent; false if s is not that.
 */
static bool
decimal_lex(const char *s, size_t len, rg_buf *digits, bool *neg, long *frac,
			long *exp10)
{
	size_t		pos = 0;
	size_t		nd = 0;

	*neg = false;
	*frac = 0;
	*exp10 = 0;
	if (pos < len && (s[pos] == '-' || s[pos] == '+'))
		*neg = s[pos++] == '-';
	for (; pos < len && s[pos] >= '0' && s[pos] <= '9'; pos++, nd++)
		if (digits != NULL)
			rg_buf_putc(digits, s[pos]);
	if (pos < len && s[pos] == '.')
		for (pos++; pos < len && s[pos] >= '0' && s[pos] <= '9'; pos++, nd++, (*frac)++)
			if (digits != NULL)
				rg_buf_putc(digits, s[pos]);
	if (nd == 0)
		return false;
	if (pos < len && (s[pos] == 'e' || s[pos] == 'E'))
	{
		int			esign = 1;
		int			ne = 0;

		pos++;
		if (pos < len && (s[pos] == '+' || s[pos] == '-'))
			esign = s[pos++] == '-' ? -1 : 1;
		while (pos < len && s[pos] >= '0' && s[pos] <= '9')
		{
			if (*exp10 < 100000000)
				*exp10 = *exp10 * 10 + (s[pos] - '0');
			pos++;
			ne++;
		}
		if (ne == 0)
			return false;
		*exp10 *= esign;
	}
	return pos == len;
}

/* See avro_payload.h */
bool
rg_avro_decimal_syntax(const char *s, size_t len)
{
	bool		neg;
	long		frac;
	long		exp10;

	return decimal_lex(s, len, NULL, &neg, &frac, &exp10);
}

/* See avro_payload.h */
bool
rg_avro_decimal_parse(const char *s, size_t len, int precision, int scale,
					  int fixed_size, rg_buf *out, const char **why)
{
	bool		neg = false;
	rg_buf		d;				/* the significant digits, then zeros */
	long		frac = 0;
	long		exp10 = 0;
	long		shift;
	size_t		lead;
	size_t		nd;
	uint8_t    *mag;
	size_t		nb;
	size_t		i;
	bool		ok = false;

	*why = "not a decimal number";
	rg_buf_init(&d);
	if (!decimal_lex(s, len, &d, &neg, &frac, &exp10) || d.oom)
		goto done;
	/* unscaled = digits * 10^shift */
	shift = exp10 - frac + scale;
	for (lead = 0; lead + 1 < d.len && d.data[lead] == '0'; lead++)
		;
	if (shift < 0)
	{
		/* the dropped digits must be zeros */
		for (i = 0; i < (size_t) -shift; i++)
		{
			if (i >= d.len - lead)
				break;
			if (d.data[d.len - 1 - i] != '0')
			{
				*why = "has more digits after the point than the scale";
				goto done;
			}
		}
		d.len = i >= d.len - lead ? lead : d.len - i;
		if (d.len <= lead)
		{
			d.len = lead;
			rg_buf_putc(&d, '0');
		}
	}
	else if (d.len - lead != 1 || d.data[lead] != '0')
	{
		if (shift > precision || d.len - lead + (size_t) shift > (size_t) precision)
		{
			*why = "has more digits than the precision";
			goto done;
		}
		for (i = 0; i < (size_t) shift; i++)
			rg_buf_putc(&d, '0');
	}
	if (d.oom)
		goto done;
	for (lead = 0; lead + 1 < d.len && d.data[lead] == '0'; lead++)
		;
	nd = d.len - lead;
	if ((nd > (size_t) precision || nd > 2 * RG_AVRO_MAX_DECIMAL_BYTES) &&
		!(nd == 1 && d.data[lead] == '0'))
	{
		*why = "has more digits than the precision";
		goto done;
	}
	/* decimal digits to a big-endian magnitude, nine at a time */
	nb = nd / 2 + 2;
	mag = rg_calloc(nb, 1);
	if (mag == NULL)
	{
		out->oom = true;
		ok = true;
		goto done;
	}
	for (i = lead; i < d.len;)
	{
		uint64_t	chunk = 0;
		uint64_t	mul = 1;
		uint64_t	carry;
		size_t		k;

		for (k = 0; k < 9 && i < d.len; k++, i++)
		{
			chunk = chunk * 10 + (d.data[i] - '0');
			mul *= 10;
		}
		carry = chunk;
		for (k = nb; k-- > 0;)
		{
			uint64_t	cur = mag[k] * mul + carry;

			mag[k] = (uint8_t) cur;
			carry = cur >> 8;
		}
	}
	if (neg)
	{
		int			c = 1;

		for (i = nb; i-- > 0;)
		{
			int			v = (uint8_t) ~mag[i] + c;

			mag[i] = (uint8_t) v;
			c = v >> 8;
		}
	}
	/* minimal two's complement: drop sign bytes the next byte repeats */
	for (lead = 0; lead + 1 < nb; lead++)
	{
		if (!((mag[lead] == 0x00 && !(mag[lead + 1] & 0x80)) ||
			  (mag[lead] == 0xFF && (mag[lead + 1] & 0x80))))
			break;
	}
	if (fixed_size > 0)
	{
		uint8_t		pad = (mag[lead] & 0x80) ? 0xFF : 0x00;

		if (nb - lead > (size_t) fixed_size)
		{
			*why = "does not fit the fixed size";
			rg_free(mag);
			goto done;
		}
		for (i = nb - lead; i < (size_t) fixed_size; i++)
			rg_buf_append(out, (const char *) &pad, 1);
	}
	rg_buf_append(out, (const char *) mag + lead, nb - lead);
	rg_free(mag);
	ok = true;
done:
	rg_buf_free(&d);
	return ok;
}
