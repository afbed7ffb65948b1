/*-------------------------------------------------------------------------
 *
 * json_syntax.c
 *	  A JSON Schema document's text -> a tree of jx values, read as
 *	  Confluent's Jackson mapper reads it (io.confluent...json.jackson
 *	  Jackson.newObjectMapper(): JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS,
 *	  USE_BIG_DECIMAL_FOR_FLOATS, exact BigDecimals, everything else as
 *	  Jackson's defaults have it):
 *	  - no comments, no single quotes, no unquoted names, no trailing
 *	    commas, no leading '+' or leading zeros, no control characters in
 *	    strings, only JSON's escapes;
 *	  - NaN, Infinity, +Infinity, -Infinity, +INF and -INF are numbers;
 *	  - a repeated object key keeps its first place and its last value
 *	    (ObjectNode.replace on a LinkedHashMap);
 *	  - what follows the first value is ignored (readTree does not look);
 *	  - numbers keep their lexeme: Jackson prints integers as Java does and
 *	    decimals as BigDecimal.toString() of the text as written.
 *	  jansson cannot do this (it loses lexemes, refuses big numbers and
 *	  NaN), so the document is read here; jansson holds only the values a
 *	  schema keeps (json_value.c).
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"
#include "rg_json_text.h"
#include "rg_utf8.h"

#include <stdio.h>
#include <string.h>

/* the reader's position in the text */
typedef struct jx_reader
{
	rg_arena   *arena;
	rg_error   *err;
	const unsigned char *p;
	const unsigned char *end;
	const unsigned char *start;
	int			line;
	const unsigned char *bol;	/* beginning of the current line */
	bool		failed;
	bool		strict;			/* a payload: JSON's numbers only */
	unsigned	values;			/* read so far, for interrupt checks */
} jx_reader;

static jx  *read_value(jx_reader *r, int depth);

/* The column of the current position, in characters, 1-based. */
static int
current_column(const jx_reader *r, const unsigned char *at)
{
	const unsigned char *q;
	int			col = 1;

	for (q = r->bol; q < at; q++)
		if ((*q & 0xC0) != 0x80)
			col++;
	return col;
}

/* Fail with a message and the current position (first error wins). */
static void
syntax_error(jx_reader *r, const char *what)
{
	if (r->failed)
		return;
	r->failed = true;
	rg_error_set(r->err, RG_ERR_INVALID_SCHEMA,
				 "Invalid JSON: %s at line %d, column %d", what, r->line,
				 current_column(r, r->p));
}

/* Out of memory while reading. */
static void
reader_oom(jx_reader *r)
{
	if (r->failed)
		return;
	r->failed = true;
	rg_error_set(r->err, RG_ERR_NOMEM, "out of memory");
}

/* Describe the character at the current position as Jackson does. */
static void
unexpected_char(jx_reader *r, const char *expecting)
{
	char		msg[256];

	if (r->p >= r->end)
		snprintf(msg, sizeof(msg), "unexpected end-of-input: %s", expecting);
	else if (*r->p < 0x20)
		snprintf(msg, sizeof(msg),
				 "illegal character ((CTRL-CHAR, code %d)): only regular white space (\\r, \\n, \\t) is allowed between tokens",
				 *r->p);
	else if (*r->p == '/')
		snprintf(msg, sizeof(msg),
				 "unexpected character ('/' (code 47)): maybe a (non-standard) comment? (not recognized as one since Feature 'ALLOW_COMMENTS' not enabled for parser)");
	else if (*r->p < 0x80)
		snprintf(msg, sizeof(msg), "unexpected character ('%c' (code %d)): %s",
				 *r->p, *r->p, expecting);
	else
		snprintf(msg, sizeof(msg), "unexpected character (code 0x%02x): %s",
				 *r->p, expecting);
	syntax_error(r, msg);
}

/* Skip JSON white space (space, tab, CR, LF), counting lines. */
static void
skip_ws(jx_reader *r)
{
	while (r->p < r->end)
	{
		unsigned char c = *r->p;

		if (c == '\n')
		{
			r->line++;
			r->bol = r->p + 1;
		}
		else if (c != ' ' && c != '\t' && c != '\r')
			break;
		r->p++;
	}
}

/* A new value of a type, at the current position. */
static jx  *
new_value(jx_reader *r, jx_type type)
{
	jx		   *v = rg_arena_alloc(r->arena, sizeof(jx));

	if (v == NULL)
	{
		reader_oom(r);
		return NULL;
	}
	v->type = type;
	v->offset = (size_t) (r->p - r->start);
	return v;
}

/* Is c a character Java counts as part of an identifier (ASCII part)? */
static bool
ident_part(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}

/* Match a literal token (true, NaN, ...), which no identifier character may follow. */
static bool
match_token(jx_reader *r, const char *token)
{
	size_t		n = strlen(token);

	if ((size_t) (r->end - r->p) < n || memcmp(r->p, token, n) != 0 ||
		(r->p + n < r->end && ident_part(r->p[n])))
	{
		const unsigned char *q = r->p;
		char		msg[200];

		while (q < r->end && q - r->p < 60 && ident_part(*q))
			q++;
		snprintf(msg, sizeof(msg),
				 "unrecognized token '%.*s': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')",
				 (int) (q - r->p), (const char *) r->p);
		syntax_error(r, msg);
		return false;
	}
	r->p += n;
	return true;
}

/* A literal: null, true, false or one of the non-numeric numbers. */
static jx  *
read_literal(jx_reader *r, const char *token, jx_type type, const char *special)
{
	jx		   *v = new_value(r, type);

	if (v == NULL || !match_token(r, token))
		return NULL;
	if (special)
	{
		v->text = special;
		v->len = strlen(special);
	}
	return v;
}

/* Count digits at the current position. */
static int
skip_digits(jx_reader *r)
{
	int			n = 0;

	while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
	{
		r->p++;
		n++;
	}
	return n;
}

/*
 * Jackson's limits on a number (StreamReadConstraints: at most 1000
 * characters) and BigDecimal's (an exponent and a scale that fit an int).
 */
static bool
number_within_limits(jx_reader *r, const jx *v)
{
	const char *p = v->text[0] == '-' ? v->text + 1 : v->text;
	const char *e = strpbrk(p, "eE");
	const char *dot = strchr(p, '.');
	size_t		length = v->type == JX_INT ? strlen(p) : v->len;
	char		msg[160];

	if (length > 1000)
	{
		snprintf(msg, sizeof(msg),
				 "number value length (%zu) exceeds the maximum allowed (1000, from `StreamReadConstraints.getMaxNumberLength()`)",
				 length);
		syntax_error(r, msg);
		return false;
	}
	if (e)
	{
		long long	frac = dot ? (long long) (e - dot - 1) : 0;
		const char *d = e + 1 + (e[1] == '+' || e[1] == '-');
		long long	exp = 0;

		for (; *d; d++)
			if ((exp = exp * 10 + (*d - '0')) > (long long) INT32_MAX + 1)
				break;
		if (e[1] == '-')
			exp = -exp;
		if (exp > INT32_MAX || exp < INT32_MIN || frac - exp > INT32_MAX ||
			frac - exp < INT32_MIN)
		{
			syntax_error(r, "malformed numeric value: the exponent is out of range");
			return false;
		}
	}
	return true;
}

/* A number: JSON's grammar, its lexeme kept; "-Infinity"/"-INF" too. */
static jx  *
read_number(jx_reader *r)
{
	const unsigned char *s = r->p;
	jx		   *v = new_value(r, JX_INT);

	if (v == NULL)
		return NULL;
	if (*r->p == '-')
	{
		r->p++;
		if (r->p < r->end && *r->p == 'I')
		{
			r->p = s;
			if (r->end - s >= 4 && memcmp(s, "-INF", 4) == 0 &&
				!(s + 4 < r->end && ident_part(s[4])))
				return read_literal(r, "-INF", JX_SPECIAL, "-Infinity");
			return read_literal(r, "-Infinity", JX_SPECIAL, "-Infinity");
		}
	}
	if (r->p >= r->end || *r->p < '0' || *r->p > '9')
	{
		syntax_error(r, "unexpected character: expected digit (0-9) to follow minus sign, for valid numeric value");
		return NULL;
	}
	if (*r->p == '0' && r->p + 1 < r->end && r->p[1] >= '0' && r->p[1] <= '9')
	{
		syntax_error(r, "invalid numeric value: Leading zeroes not allowed");
		return NULL;
	}
	skip_digits(r);
	if (r->p < r->end && *r->p == '.')
	{
		r->p++;
		v->type = JX_DECIMAL;
		if (skip_digits(r) == 0)
		{
			syntax_error(r, "unexpected character: Decimal point not followed by a digit");
			return NULL;
		}
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E'))
	{
		r->p++;
		v->type = JX_DECIMAL;
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			r->p++;
		if (skip_digits(r) == 0)
		{
			syntax_error(r, "unexpected character: Exponent indicator not followed by a digit");
			return NULL;
		}
	}
	v->text = rg_arena_strndup(r->arena, (const char *) s, r->p - s);
	v->len = r->p - s;
	if (v->text == NULL)
	{
		reader_oom(r);
		return NULL;
	}
	return number_within_limits(r, v) ? v : NULL;
}

/* Append one code point as UTF-8 (a lone surrogate too, as 3 bytes). */
static size_t
put_utf8(unsigned char *out, unsigned cp)
{
	if (cp < 0x80)
	{
		out[0] = cp;
		return 1;
	}
	if (cp < 0x800)
	{
		out[0] = 0xC0 | (cp >> 6);
		out[1] = 0x80 | (cp & 0x3F);
		return 2;
	}
	if (cp < 0x10000)
	{
		out[0] = 0xE0 | (cp >> 12);
		out[1] = 0x80 | ((cp >> 6) & 0x3F);
		out[2] = 0x80 | (cp & 0x3F);
		return 3;
	}
	out[0] = 0xF0 | (cp >> 18);
	out[1] = 0x80 | ((cp >> 12) & 0x3F);
	out[2] = 0x80 | ((cp >> 6) & 0x3F);
	out[3] = 0x80 | (cp & 0x3F);
	return 4;
}

/* Four hex digits of a \u escape; -1 if malformed. */
static int
read_hex4(jx_reader *r)
{
	int			v = 0;
	int			i;

	for (i = 0; i < 4; i++)
	{
		unsigned char c;

		if (r->p >= r->end)
			return -1;
		c = *r->p;
		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (c - 'A' + 10);
		else
			return -1;
		r->p++;
	}
	return v;
}

/* One escape sequence after the backslash, decoded into out. */
static size_t
read_escape(jx_reader *r, unsigned char *out)
{
	unsigned char c;
	int			cp;

	if (r->p >= r->end)
	{
		syntax_error(r, "unexpected end-of-input in character escape sequence");
		return 0;
	}
	c = *r->p++;
	switch (c)
	{
		case '"':
		case '\\':
		case '/':
			out[0] = c;
			return 1;
		case 'b':
			out[0] = '\b';
			return 1;
		case 'f':
			out[0] = '\f';
			return 1;
		case 'n':
			out[0] = '\n';
			return 1;
		case 'r':
			out[0] = '\r';
			return 1;
		case 't':
			out[0] = '\t';
			return 1;
		case 'u':
			cp = read_hex4(r);
			if (cp < 0)
			{
				syntax_error(r, "unexpected character: expected a hex-digit for character escape sequence");
				return 0;
			}
			/* a high surrogate followed by a low one is one character */
			if (cp >= 0xD800 && cp <= 0xDBFF && r->end - r->p >= 6 &&
				r->p[0] == '\\' && r->p[1] == 'u')
			{
				const unsigned char *save = r->p;
				int			lo;

				r->p += 2;
				lo = read_hex4(r);
				if (lo >= 0xDC00 && lo <= 0xDFFF)
					return put_utf8(out, 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00));
				r->p = save;
			}
			return put_utf8(out, cp);
		default:
			{
				char		msg[100];

				r->p--;
				snprintf(msg, sizeof(msg),
						 "unrecognized character escape '%c' (code %d)",
						 c >= 0x20 && c < 0x7F ? c : '?', c);
				syntax_error(r, msg);
				return 0;
			}
	}
}

/* A string literal, decoded, into the arena; *len_out its length. */
static char *
read_string_text(jx_reader *r, size_t *len_out)
{
	const unsigned char *s;
	unsigned char *out;
	size_t		n = 0;

	r->p++;						/* the opening quote */
	s = r->p;
	/* a first pass finds the end, so the copy is sized once */
	while (r->p < r->end && *r->p != '"')
	{
		if (*r->p == '\\' && r->p + 1 < r->end)
			r->p++;
		r->p++;
	}
	out = rg_arena_alloc(r->arena, (r->p - s) + 1);
	if (out == NULL)
	{
		reader_oom(r);
		return NULL;
	}
	r->p = s;
	while (r->p < r->end && *r->p != '"')
	{
		unsigned char c = *r->p;

		if (c == '\\')
		{
			size_t		k;

			r->p++;
			k = read_escape(r, out + n);
			if (k == 0)
				return NULL;
			n += k;
		}
		else if (c < 0x20)
		{
			char		msg[160];

			snprintf(msg, sizeof(msg),
					 "illegal unquoted character ((CTRL-CHAR, code %d)): has to be escaped using backslash to be included in string value",
					 c);
			syntax_error(r, msg);
			return NULL;
		}
		else
		{
			size_t		k = rg_utf8_length(r->p, r->end);

			if (k == 0)
			{
				syntax_error(r, "invalid UTF-8 in a string");
				return NULL;
			}
			memcpy(out + n, r->p, k);
			n += k;
			r->p += k;
		}
	}
	if (r->p >= r->end)
	{
		syntax_error(r, "unexpected end-of-input: was expecting closing quote for a string value");
		return NULL;
	}
	r->p++;						/* the closing quote */
	out[n] = '\0';
	*len_out = n;
	if (n > 20000000)
	{
		syntax_error(r, "string value length exceeds the maximum allowed (20000000, from `StreamReadConstraints.getMaxStringLength()`)");
		return NULL;
	}
	return (char *) out;
}

/* A string value. */
static jx  *
read_string(jx_reader *r)
{
	jx		   *v = new_value(r, JX_STRING);

	if (v == NULL)
		return NULL;
	v->text = read_string_text(r, &v->len);
	return v->text ? v : NULL;
}

/* A growable list of pointers on rg_malloc while a container is read. */
typedef struct plist
{
	void	  **items;
	int			n;
	int			cap;
} plist;

/* Append to a plist; false on out of memory. */
static bool
plist_push(plist *l, void *item)
{
	if (l->n == l->cap)
	{
		int			cap = l->cap ? l->cap * 2 : 8;
		void	  **items = rg_realloc(l->items, sizeof(void *) * cap);

		if (items == NULL)
			return false;
		l->items = items;
		l->cap = cap;
	}
	l->items[l->n++] = item;
	return true;
}

/*
 * After an entry of an array or object: 1 at a comma (another entry
 * follows), 0 at the closing bracket, -1 (an error set) otherwise.
 */
static int
after_entry(jx_reader *r, char close, const char *expecting)
{
	skip_ws(r);
	if (r->p < r->end && (*r->p == ',' || *r->p == close))
		return *r->p++ == ',' ? 1 : 0;
	unexpected_char(r, expecting);
	return -1;
}

/* An array: values separated by commas. */
static jx  *
read_array(jx_reader *r, int depth)
{
	jx		   *v = new_value(r, JX_ARRAY);
	plist		l = {0};
	int			sep;

	if (v == NULL)
		return NULL;
	r->p++;
	skip_ws(r);
	if (r->p < r->end && *r->p == ']')
		r->p++;
	else
		for (;;)
		{
			jx		   *item = read_value(r, depth + 1);

			if (item == NULL)
				goto fail;
			if (!plist_push(&l, item))
			{
				reader_oom(r);
				goto fail;
			}
			sep = after_entry(r, ']', "was expecting comma to separate Array entries");
			if (sep < 0)
				goto fail;
			if (sep == 0)
				break;
		}
	v->n = l.n;
	v->items = rg_arena_alloc(r->arena, sizeof(jx *) * (l.n ? l.n : 1));
	if (v->items == NULL)
	{
		reader_oom(r);
		goto fail;
	}
	if (l.n)
		memcpy(v->items, l.items, sizeof(jx *) * l.n);
	rg_free(l.items);
	return v;

fail:
	rg_free(l.items);
	return NULL;
}

/* FNV-1a of a key, for finding repeated keys. */
static uint32_t
key_hash(const char *s, size_t n)
{
	uint32_t	h = 2166136261u;
	size_t		i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char) s[i]) * 16777619u;
	return h;
}

/*
 * Fold repeated keys: the first place, the last value.  An open-addressing
 * table over the members keeps this linear.
 */
static bool
fold_repeated_keys(jx_member *m, int *n)
{
	size_t		cap = 16;
	int		   *slots;
	int			i;
	int			out = 0;

	while (cap < (size_t) *n * 2)
		cap *= 2;
	slots = rg_malloc(sizeof(int) * cap);
	if (slots == NULL)
		return false;
	memset(slots, -1, sizeof(int) * cap);
	for (i = 0; i < *n; i++)
	{
		size_t		h = key_hash(m[i].key, m[i].key_len) & (cap - 1);

		while (slots[h] >= 0 &&
			   !(m[slots[h]].key_len == m[i].key_len &&
				 memcmp(m[slots[h]].key, m[i].key, m[i].key_len) == 0))
			h = (h + 1) & (cap - 1);
		if (slots[h] >= 0)
			m[slots[h]].value = m[i].value;
		else
		{
			m[out] = m[i];
			slots[h] = out++;
		}
	}
	rg_free(slots);
	*n = out;
	return true;
}

/* An object: "key": value members separated by commas. */
static jx  *
read_object(jx_reader *r, int depth)
{
	jx		   *v = new_value(r, JX_OBJECT);
	plist		keys = {0};
	plist		vals = {0};
	int			i;
	int			sep;

	if (v == NULL)
		return NULL;
	r->p++;
	skip_ws(r);
	if (r->p < r->end && *r->p == '}')
		r->p++;
	else
		for (;;)
		{
			jx		   *key;
			jx		   *val;

			skip_ws(r);
			if (r->p >= r->end || *r->p != '"')
			{
				unexpected_char(r, "was expecting double-quote to start field name");
				goto fail;
			}
			key = read_string(r);
			if (key == NULL)
				goto fail;
			if (key->len > 50000)
			{
				syntax_error(r, "name length exceeds the maximum allowed (50000, from `StreamReadConstraints.getMaxNameLength()`)");
				goto fail;
			}
			skip_ws(r);
			if (r->p >= r->end || *r->p != ':')
			{
				unexpected_char(r, "was expecting a colon to separate field name and value");
				goto fail;
			}
			r->p++;
			val = read_value(r, depth + 1);
			if (val == NULL)
				goto fail;
			if (!plist_push(&keys, key) || !plist_push(&vals, val))
			{
				reader_oom(r);
				goto fail;
			}
			sep = after_entry(r, '}', "was expecting comma to separate Object entries");
			if (sep < 0)
				goto fail;
			if (sep == 0)
				break;
		}
	v->members = rg_arena_alloc(r->arena, sizeof(jx_member) * (keys.n ? keys.n : 1));
	if (v->members == NULL)
	{
		reader_oom(r);
		goto fail;
	}
	for (i = 0; i < keys.n; i++)
	{
		jx		   *k = keys.items[i];

		v->members[i].key = k->text;
		v->members[i].key_len = k->len;
		v->members[i].value = vals.items[i];
	}
	v->n = keys.n;
	if (v->n > 1 && !fold_repeated_keys(v->members, &v->n))
	{
		reader_oom(r);
		goto fail;
	}
	rg_free(keys.items);
	rg_free(vals.items);
	return v;

fail:
	rg_free(keys.items);
	rg_free(vals.items);
	return NULL;
}

/* Any value, after white space. */
static jx  *
read_value(jx_reader *r, int depth)
{
	if (rg_too_deep(depth))
	{
		syntax_error(r, "document nesting is too deep");
		return NULL;
	}
	if ((++r->values & 4095) == 0)
		rg_check_interrupts();
	skip_ws(r);
	if (r->p >= r->end)
	{
		syntax_error(r, "unexpected end-of-input: expected a value");
		return NULL;
	}
	if (r->strict && (*r->p == 'N' || *r->p == 'I' || *r->p == '+' ||
					  (*r->p == '-' && r->p + 1 < r->end && r->p[1] == 'I')))
	{
		unexpected_char(r, "expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
		return NULL;
	}
	switch (*r->p)
	{
		case '{':
			return read_object(r, depth);
		case '[':
			return read_array(r, depth);
		case '"':
			return read_string(r);
		case 't':
			return read_literal(r, "true", JX_TRUE, NULL);
		case 'f':
			return read_literal(r, "false", JX_FALSE, NULL);
		case 'n':
			return read_literal(r, "null", JX_NULL, NULL);
		case 'N':
			return read_literal(r, "NaN", JX_SPECIAL, "NaN");
		case 'I':
			return read_literal(r, "Infinity", JX_SPECIAL, "Infinity");
		case '+':
			if (r->end - r->p >= 4 && memcmp(r->p, "+INF", 4) == 0 &&
				!(r->p + 4 < r->end && ident_part(r->p[4])))
				return read_literal(r, "+INF", JX_SPECIAL, "Infinity");
			if (r->end - r->p >= 2 && r->p[1] == 'I')
				return read_literal(r, "+Infinity", JX_SPECIAL, "Infinity");
			syntax_error(r, "unexpected character ('+' (code 43)) in numeric value: JSON spec does not allow numbers to have plus signs: enable `JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS` to allow");
			return NULL;
		case '-':
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7':
		case '8':
		case '9':
			return read_number(r);
		default:
			if (ident_part(*r->p))
			{
				match_token(r, "\x01");
				return NULL;
			}
			unexpected_char(r, "expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");
			return NULL;
	}
}

/* Read the first value of text, the nesting checked before. */
static jx  *
parse_text(jx_reader *r, rg_arena *arena, const char *text, size_t len,
		   rg_error *err)
{
	size_t		at;

	r->arena = arena;
	r->err = err;
	r->start = r->p = r->bol = (const unsigned char *) text;
	r->end = r->p + len;
	r->line = 1;
	if (!rg_json_nesting_ok(text, len, JS_MAX_NESTING, &at))
	{
		r->p = r->start + at;
		for (r->bol = r->start; r->bol < r->p && memchr(r->bol, '\n', r->p - r->bol);)
		{
			r->bol = (const unsigned char *) memchr(r->bol, '\n', r->p - r->bol) + 1;
			r->line++;
		}
		syntax_error(r, "document nesting depth exceeds the maximum allowed (1000)");
		return NULL;
	}
	return read_value(r, 0);
}

/* See json_internal.h */
jx *
jx_parse(rg_arena *arena, const char *text, size_t len, rg_error *err)
{
	jx_reader	r;

	memset(&r, 0, sizeof(r));
	return parse_text(&r, arena, text, len, err);
}

/* See json_internal.h */
jx *
jx_parse_payload(rg_arena *arena, const char *text, size_t len, rg_error *err)
{
	jx_reader	r;
	jx		   *v;

	memset(&r, 0, sizeof(r));
	r.strict = true;
	if ((v = parse_text(&r, arena, text, len, err)) == NULL)
		return NULL;
	skip_ws(&r);
	if (r.p < r.end)
	{
		unexpected_char(&r, "expected the end of the value");
		return NULL;
	}
	return v;
}

/* See json_internal.h */
jx *
jx_get(const jx *obj, const char *key)
{
	size_t		n = strlen(key);
	int			i;

	if (obj == NULL || obj->type != JX_OBJECT)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (obj->members[i].key_len == n && memcmp(obj->members[i].key, key, n) == 0)
			return obj->members[i].value;
	return NULL;
}

/* See json_internal.h */
double
jx_number_value(const jx *v)
{
	if (v->type == JX_SPECIAL)
	{
		if (v->text[0] == 'N')
			return 0.0 / 0.0;
		return v->text[0] == '-' ? -1.0 / 0.0 : 1.0 / 0.0;
	}
	return strtod(v->text, NULL);
}
