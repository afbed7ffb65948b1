/*-------------------------------------------------------------------------
 *
 * json_render.c
 *	  The stored form of a JSON Schema (canonicalString()): Jackson's
 *	  writeValueAsString of the tree the document was read into.
 *	  - compact, object keys in document order (a repeated key where it
 *	    first appeared), or with normalize in Java's String.compareTo
 *	    order, recursively (Confluent's SortingNodeFactory: a TreeMap);
 *	  - strings escaped as Jackson's default CharacterEscapes: '"', '\\'
 *	    and the control characters only (\b \t \n \f \r, else \u00XX in
 *	    upper case); '/' and every non-ASCII character as they are;
 *	  - integers as Java prints int/long/BigInteger (so -0 is 0);
 *	  - decimals as BigDecimal.toString() of the lexeme (exact BigDecimals:
 *	    1.0 stays 1.0, 1e3 is 1E+3, 0.0000001 is 1E-7, -0.0 is 0.0);
 *	  - NaN and the infinities as the strings "NaN", "Infinity" and
 *	    "-Infinity" (QUOTE_NON_NUMERIC_NUMBERS).
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"

#include <stdlib.h>
#include <string.h>

/* See json_internal.h */
void
jx_render_string(rg_buf *buf, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *p = (const unsigned char *) s;
	const unsigned char *end = p + len;
	const unsigned char *run = p;

	rg_buf_putc(buf, '"');
	for (; p < end; p++)
	{
		char		esc[8];
		int			n = 0;
		unsigned	unit;

		/* a lone surrogate (kept as three bytes) cannot be raw UTF-8 */
		if (*p == 0xED && p + 2 < end && p[1] >= 0xA0)
		{
			rg_buf_append(buf, (const char *) run, p - run);
			unit = 0xD000 | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F);
			rg_buf_printf(buf, "\\u%c%c%c%c", hex[unit >> 12], hex[(unit >> 8) & 15],
						  hex[(unit >> 4) & 15], hex[unit & 15]);
			p += 2;
			run = p + 1;
			continue;
		}
		if (*p >= 0x20 && *p != '"' && *p != '\\')
			continue;
		rg_buf_append(buf, (const char *) run, p - run);
		esc[n++] = '\\';
		switch (*p)
		{
			case '"':
				esc[n++] = '"';
				break;
			case '\\':
				esc[n++] = '\\';
				break;
			case '\b':
				esc[n++] = 'b';
				break;
			case '\t':
				esc[n++] = 't';
				break;
			case '\n':
				esc[n++] = 'n';
				break;
			case '\f':
				esc[n++] = 'f';
				break;
			case '\r':
				esc[n++] = 'r';
				break;
			default:
				esc[n++] = 'u';
				esc[n++] = '0';
				esc[n++] = '0';
				esc[n++] = hex[*p >> 4];
				esc[n++] = hex[*p & 15];
				break;
		}
		rg_buf_append(buf, esc, n);
		run = p + 1;
	}
	rg_buf_append(buf, (const char *) run, p - run);
	rg_buf_putc(buf, '"');
}

/* An integer lexeme as Java prints the number: no sign on zero. */
static void
render_integer(rg_buf *buf, const char *lexeme)
{
	const char *digits = lexeme[0] == '-' ? lexeme + 1 : lexeme;

	if (strspn(digits, "0") == strlen(digits))
		rg_buf_putc(buf, '0');
	else
		rg_buf_puts(buf, lexeme);
}

/*
 * BigDecimal.toString() of a decimal lexeme: the unscaled digits and the
 * scale as new BigDecimal(String) takes them, then scientific notation
 * when the scale is negative or the adjusted exponent below -6.
 */
static void
render_decimal(rg_buf *buf, const char *lexeme)
{
	const char *p = lexeme;
	bool		negative = false;
	char	   *coeff;
	size_t		nc = 0;
	long long	scale = 0;
	long long	exp = 0;
	long long	adjusted;
	size_t		lead;

	coeff = rg_malloc(strlen(lexeme) + 1);
	if (coeff == NULL)
	{
		buf->oom = true;
		return;
	}
	if (*p == '-')
	{
		negative = true;
		p++;
	}
	for (; *p >= '0' && *p <= '9'; p++)
		coeff[nc++] = *p;
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, scale++)
			coeff[nc++] = *p;
	if (*p == 'e' || *p == 'E')
		exp = strtoll(p + 1, NULL, 10);
	scale -= exp;
	coeff[nc] = '\0';
	lead = strspn(coeff, "0");
	if (lead == nc)
		lead = nc - 1;			/* zero: one digit, no sign */
	else if (negative)
		rg_buf_putc(buf, '-');
	nc -= lead;
	adjusted = -scale + (long long) (nc - 1);
	if (scale == 0)
		rg_buf_puts(buf, coeff + lead);
	else if (scale > 0 && adjusted >= -6)
	{
		if ((long long) nc <= scale)
		{
			long long	i;

			rg_buf_puts(buf, "0.");
			for (i = 0; i < scale - (long long) nc; i++)
				rg_buf_putc(buf, '0');
			rg_buf_puts(buf, coeff + lead);
		}
		else
		{
			rg_buf_append(buf, coeff + lead, nc - scale);
			rg_buf_putc(buf, '.');
			rg_buf_puts(buf, coeff + lead + nc - scale);
		}
	}
	else
	{
		rg_buf_putc(buf, coeff[lead]);
		if (nc > 1)
		{
			rg_buf_putc(buf, '.');
			rg_buf_puts(buf, coeff + lead + 1);
		}
		if (adjusted != 0)
			rg_buf_printf(buf, "E%s%lld", adjusted > 0 ? "+" : "", adjusted);
	}
	rg_free(coeff);
}

/* See json_internal.h */
void
jx_render_number(rg_buf *buf, const jx *v)
{
	if (v->type == JX_INT)
		render_integer(buf, v->text);
	else if (v->type == JX_DECIMAL)
		render_decimal(buf, v->text);
	else
		jx_render_string(buf, v->text, v->len);
}

/* The next UTF-16 code unit of a UTF-8 string (*pending holds a low surrogate). */
static unsigned
next_unit(const unsigned char **p, const unsigned char *end, unsigned *pending)
{
	unsigned	cp;
	const unsigned char *s = *p;

	if (*pending)
	{
		cp = *pending;
		*pending = 0;
		return cp;
	}
	if (*s < 0x80)
	{
		*p = s + 1;
		return *s;
	}
	if (*s < 0xE0 && s + 1 < end)
	{
		*p = s + 2;
		return ((s[0] & 0x1F) << 6) | (s[1] & 0x3F);
	}
	if (*s < 0xF0 && s + 2 < end)
	{
		*p = s + 3;
		return ((s[0] & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F);
	}
	if (s + 3 < end)
	{
		cp = ((s[0] & 0x07) << 18) | ((s[1] & 0x3F) << 12) |
			((s[2] & 0x3F) << 6) | (s[3] & 0x3F);
		*p = s + 4;
		cp -= 0x10000;
		*pending = 0xDC00 | (cp & 0x3FF);
		return 0xD800 | (cp >> 10);
	}
	*p = end;
	return *s;
}

/* See json_internal.h */
int
jx_java_compare(const char *a, size_t alen, const char *b, size_t blen)
{
	const unsigned char *pa = (const unsigned char *) a;
	const unsigned char *ea = pa + alen;
	const unsigned char *pb = (const unsigned char *) b;
	const unsigned char *eb = pb + blen;
	unsigned	qa = 0;
	unsigned	qb = 0;

	while ((pa < ea || qa) && (pb < eb || qb))
	{
		unsigned	ua = next_unit(&pa, ea, &qa);
		unsigned	ub = next_unit(&pb, eb, &qb);

		if (ua != ub)
			return ua < ub ? -1 : 1;
	}
	if (pa < ea || qa)
		return 1;
	if (pb < eb || qb)
		return -1;
	return 0;
}

/* qsort comparator of object members in Java's String order */
static int
member_order(const void *x, const void *y)
{
	const jx_member *a = *(const jx_member *const *) x;
	const jx_member *b = *(const jx_member *const *) y;

	return jx_java_compare(a->key, a->key_len, b->key, b->key_len);
}

/* qsort comparator of object members themselves in Java's String order */
static int
member_order_direct(const void *x, const void *y)
{
	const jx_member *a = x;
	const jx_member *b = y;

	return jx_java_compare(a->key, a->key_len, b->key, b->key_len);
}

static void render_value(rg_buf *buf, const jx *v, bool sorted, int depth);

/* An object, its members in document order or sorted. */
static void
render_object(rg_buf *buf, const jx *v, bool sorted, int depth)
{
	const jx_member **order;
	int			i;

	order = rg_malloc(sizeof(jx_member *) * (v->n ? v->n : 1));
	if (order == NULL)
	{
		buf->oom = true;
		return;
	}
	for (i = 0; i < v->n; i++)
		order[i] = &v->members[i];
	if (sorted && v->n > 1)
		qsort(order, v->n, sizeof(jx_member *), member_order);
	rg_buf_putc(buf, '{');
	for (i = 0; i < v->n && !buf->oom; i++)
	{
		if (i > 0)
			rg_buf_putc(buf, ',');
		jx_render_string(buf, order[i]->key, order[i]->key_len);
		rg_buf_putc(buf, ':');
		render_value(buf, order[i]->value, sorted, depth + 1);
	}
	rg_buf_putc(buf, '}');
	rg_free(order);
}

/* Any value at a depth. */
static void
render_value(rg_buf *buf, const jx *v, bool sorted, int depth)
{
	int			i;

	if (rg_too_deep(depth))
	{
		rg_buf_set_too_deep(buf);
		return;
	}
	switch (v->type)
	{
		case JX_NULL:
			rg_buf_puts(buf, "null");
			break;
		case JX_TRUE:
			rg_buf_puts(buf, "true");
			break;
		case JX_FALSE:
			rg_buf_puts(buf, "false");
			break;
		case JX_INT:
		case JX_DECIMAL:
		case JX_SPECIAL:
			jx_render_number(buf, v);
			break;
		case JX_STRING:
			jx_render_string(buf, v->text, v->len);
			break;
		case JX_ARRAY:
			rg_buf_putc(buf, '[');
			for (i = 0; i < v->n && !buf->oom; i++)
			{
				if (i > 0)
					rg_buf_putc(buf, ',');
				render_value(buf, v->items[i], sorted, depth + 1);
			}
			rg_buf_putc(buf, ']');
			break;
		case JX_OBJECT:
			render_object(buf, v, sorted, depth);
			break;
	}
}

/* See json_internal.h */
bool
jx_render(rg_buf *buf, const jx *v, bool sorted)
{
	render_value(buf, v, sorted, 0);
	return !buf->oom && buf->data != NULL;
}

/* jx_sort at a depth */
static bool
sort_value(jx *v, int depth)
{
	int			i;

	if (rg_too_deep(depth))
		return false;
	if (v->type == JX_OBJECT && v->n > 1)
		qsort(v->members, v->n, sizeof(jx_member), member_order_direct);
	for (i = 0; i < v->n; i++)
		if (!sort_value(v->type == JX_OBJECT ? v->members[i].value : v->items[i], depth + 1))
			return false;
	return true;
}

/* See json_internal.h */
bool
jx_sort(jx *v)
{
	return sort_value(v, 0);
}
