/*-------------------------------------------------------------------------
 *
 * avro_value_json.c
 *	  JSON values with exact numbers, for registry.encode: a small parser
 *	  into an arena, and the same shape from a jansson value (a schema's
 *	  default).
 *
 * jansson reads every real as a double, which would round a decimal like
 * 12345678901234567.89; this parser keeps a number's text, so encode
 * reads it exactly.  Nesting is bounded by RG_JSON_MAX_NESTING.
 *
 *-------------------------------------------------------------------------
 */
#include "avro_payload.h"

#include <stdio.h>
#include <string.h>

typedef struct avj_parser
{
	rg_arena   *arena;
	const char *s;
	size_t		pos;
	size_t		len;
	rg_error   *err;
} avj_parser;

static avj_value *parse_value(avj_parser *p, int depth);

/* See avro_payload.h */
const char *
avj_kind_name(avj_kind kind)
{
	switch (kind)
	{
		case AVJ_NULL:
			return "null";
		case AVJ_BOOL:
			return "boolean";
		case AVJ_NUMBER:
			return "number";
		case AVJ_STRING:
			return "string";
		case AVJ_ARRAY:
			return "array";
		case AVJ_OBJECT:
			return "object";
	}
	return "value";
}

/* Record a syntax error at the current position; always NULL. */
static avj_value *
syntax_error(avj_parser *p, const char *what)
{
	if (p->err && p->err->code == RG_OK)
		rg_error_set(p->err, RG_ERR_INVALID_VALUE,
					 "invalid JSON at character %zu: %s", p->pos + 1, what);
	return NULL;
}

/* Out of memory; always NULL. */
static avj_value *
no_memory(avj_parser *p)
{
	rg_error_set(p->err, RG_ERR_NOMEM, "out of memory");
	return NULL;
}

/* Skip JSON whitespace. */
static void
skip_space(avj_parser *p)
{
	while (p->pos < p->len &&
		   (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
			p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

/* A new value of kind in the arena. */
static avj_value *
new_value(avj_parser *p, avj_kind kind)
{
	avj_value  *v = rg_arena_alloc(p->arena, sizeof(avj_value));

	if (v == NULL)
		return no_memory(p);
	v->kind = kind;
	return v;
}

/* Four hex digits at s; -1 if they are not. */
static long
hex4(const char *s)
{
	long		v = 0;
	int			i;

	for (i = 0; i < 4; i++)
	{
		char		c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* Append code point cp as UTF-8. */
static void
put_utf8(rg_buf *b, unsigned long cp)
{
	char		u[4];

	if (cp < 0x80)
	{
		u[0] = (char) cp;
		rg_buf_append(b, u, 1);
	}
	else if (cp < 0x800)
	{
		u[0] = (char) (0xC0 | (cp >> 6));
		u[1] = (char) (0x80 | (cp & 0x3F));
		rg_buf_append(b, u, 2);
	}
	else if (cp < 0x10000)
	{
		u[0] = (char) (0xE0 | (cp >> 12));
		u[1] = (char) (0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char) (0x80 | (cp & 0x3F));
		rg_buf_append(b, u, 3);
	}
	else
	{
		u[0] = (char) (0xF0 | (cp >> 18));
		u[1] = (char) (0x80 | ((cp >> 12) & 0x3F));
		u[2] = (char) (0x80 | ((cp >> 6) & 0x3F));
		u[3] = (char) (0x80 | (cp & 0x3F));
		rg_buf_append(b, u, 4);
	}
}

/* One \u escape (after the backslash and u) with a following low surrogate. */
static bool
unicode_escape(avj_parser *p, rg_buf *b)
{
	long		cp;

	if (p->pos + 4 > p->len || (cp = hex4(p->s + p->pos)) < 0)
		return false;
	p->pos += 4;
	if (cp >= 0xD800 && cp <= 0xDBFF)
	{
		long		lo;

		if (p->pos + 6 > p->len || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u' ||
			(lo = hex4(p->s + p->pos + 2)) < 0xDC00 || lo > 0xDFFF)
			return false;
		p->pos += 6;
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
	}
	else if (cp >= 0xDC00 && cp <= 0xDFFF)
		return false;
	put_utf8(b, (unsigned long) cp);
	return true;
}

/* A string token (at its opening quote) into *out, *out_len. */
static bool
parse_string(avj_parser *p, const char **out, size_t *out_len)
{
	rg_buf		b;
	size_t		start;

	p->pos++;
	start = p->pos;
	/* the common case: no escapes, copied as it is */
	while (p->pos < p->len && p->s[p->pos] != '"' && p->s[p->pos] != '\\' &&
		   (unsigned char) p->s[p->pos] >= 0x20)
		p->pos++;
	if (p->pos < p->len && p->s[p->pos] == '"')
	{
		*out = rg_arena_strndup(p->arena, p->s + start, p->pos - start);
		*out_len = p->pos - start;
		p->pos++;
		if (*out == NULL)
			no_memory(p);
		return *out != NULL;
	}
	rg_buf_init(&b);
	rg_buf_append(&b, p->s + start, p->pos - start);
	while (p->pos < p->len && p->s[p->pos] != '"')
	{
		char		c = p->s[p->pos];

		if ((unsigned char) c < 0x20)
		{
			syntax_error(p, "control character in a string");
			rg_buf_free(&b);
			return false;
		}
		if (c != '\\')
		{
			rg_buf_putc(&b, c);
			p->pos++;
			continue;
		}
		if (++p->pos >= p->len)
			break;
		c = p->s[p->pos++];
		switch (c)
		{
			case '"':
			case '\\':
			case '/':
				rg_buf_putc(&b, c);
				break;
			case 'b':
				rg_buf_putc(&b, '\b');
				break;
			case 'f':
				rg_buf_putc(&b, '\f');
				break;
			case 'n':
				rg_buf_putc(&b, '\n');
				break;
			case 'r':
				rg_buf_putc(&b, '\r');
				break;
			case 't':
				rg_buf_putc(&b, '\t');
				break;
			case 'u':
				if (unicode_escape(p, &b))
					break;
				/* FALLTHROUGH */
			default:
				syntax_error(p, "invalid escape in a string");
				rg_buf_free(&b);
				return false;
		}
	}
	if (p->pos >= p->len)
	{
		rg_buf_free(&b);
		syntax_error(p, "unterminated string");
		return false;
	}
	p->pos++;
	if (b.oom)
	{
		rg_buf_free(&b);
		no_memory(p);
		return false;
	}
	*out = rg_arena_strndup(p->arena, b.data ? b.data : "", b.len);
	*out_len = b.len;
	rg_buf_free(&b);
	if (*out == NULL)
		no_memory(p);
	return *out != NULL;
}

/* A number token: its text, checked against JSON's grammar. */
static avj_value *
parse_number(avj_parser *p)
{
	size_t		start = p->pos;
	avj_value  *v;

	if (p->pos < p->len && p->s[p->pos] == '-')
		p->pos++;
	if (p->pos < p->len && p->s[p->pos] == '0')
		p->pos++;
	else if (p->pos < p->len && p->s[p->pos] >= '1' && p->s[p->pos] <= '9')
		while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9')
			p->pos++;
	else
		return syntax_error(p, "invalid number");
	if (p->pos < p->len && p->s[p->pos] == '.')
	{
		p->pos++;
		if (p->pos >= p->len || p->s[p->pos] < '0' || p->s[p->pos] > '9')
			return syntax_error(p, "invalid number");
		while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9')
			p->pos++;
	}
	if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E'))
	{
		p->pos++;
		if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-'))
			p->pos++;
		if (p->pos >= p->len || p->s[p->pos] < '0' || p->s[p->pos] > '9')
			return syntax_error(p, "invalid number");
		while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9')
			p->pos++;
	}
	v = new_value(p, AVJ_NUMBER);
	if (v == NULL)
		return NULL;
	v->len = p->pos - start;
	v->text = rg_arena_strndup(p->arena, p->s + start, v->len);
	return v->text ? v : no_memory(p);
}

/* Items (and keys) gathered while reading a container, then copied to the arena. */
typedef struct avj_list
{
	avj_value **items;
	const char **keys;
	size_t	   *key_lens;
	int			n;
	int			cap;
} avj_list;

/* Append an item (and key) to a list; false on out of memory. */
static bool
list_push(avj_list *l, avj_value *v, const char *key, size_t key_len)
{
	if (l->n == l->cap)
	{
		int			cap = l->cap ? l->cap * 2 : 8;
		avj_value **items = rg_realloc(l->items, sizeof(avj_value *) * cap);

		if (items == NULL)
			return false;
		l->items = items;
		if (key != NULL)
		{
			const char **keys = rg_realloc(l->keys, sizeof(char *) * cap);
			size_t	   *lens;

			if (keys == NULL)
				return false;
			l->keys = keys;
			lens = rg_realloc(l->key_lens, sizeof(size_t) * cap);
			if (lens == NULL)
				return false;
			l->key_lens = lens;
		}
		l->cap = cap;
	}
	l->items[l->n] = v;
	if (key != NULL)
	{
		l->keys[l->n] = key;
		l->key_lens[l->n] = key_len;
	}
	l->n++;
	return true;
}

/* Free a list's own storage. */
static void
list_free(avj_list *l)
{
	rg_free(l->items);
	rg_free(l->keys);
	rg_free(l->key_lens);
}

/* Move a list's items into v (in the arena). */
static bool
list_move(avj_parser *p, avj_list *l, avj_value *v, bool with_keys)
{
	v->n = l->n;
	if (l->n == 0)
		return true;
	v->items = rg_arena_alloc(p->arena, sizeof(avj_value *) * l->n);
	if (v->items == NULL)
		return false;
	memcpy(v->items, l->items, sizeof(avj_value *) * l->n);
	if (!with_keys)
		return true;
	v->keys = rg_arena_alloc(p->arena, sizeof(char *) * l->n);
	v->key_lens = rg_arena_alloc(p->arena, sizeof(size_t) * l->n);
	if (v->keys == NULL || v->key_lens == NULL)
		return false;
	memcpy(v->keys, l->keys, sizeof(char *) * l->n);
	memcpy(v->key_lens, l->key_lens, sizeof(size_t) * l->n);
	return true;
}

/* An array or object (at its opening bracket). */
static avj_value *
parse_container(avj_parser *p, int depth, bool object)
{
	avj_list	l = {0};
	avj_value  *v = new_value(p, object ? AVJ_OBJECT : AVJ_ARRAY);
	char		close = object ? '}' : ']';

	if (v == NULL)
		return NULL;
	p->pos++;
	skip_space(p);
	if (p->pos < p->len && p->s[p->pos] == close)
	{
		p->pos++;
		return v;
	}
	for (;;)
	{
		const char *key = NULL;
		size_t		key_len = 0;
		avj_value  *item;

		skip_space(p);
		if (object)
		{
			if (p->pos >= p->len || p->s[p->pos] != '"')
			{
				list_free(&l);
				return syntax_error(p, "expected a member name");
			}
			if (!parse_string(p, &key, &key_len))
			{
				list_free(&l);
				return NULL;
			}
			skip_space(p);
			if (p->pos >= p->len || p->s[p->pos] != ':')
			{
				list_free(&l);
				return syntax_error(p, "expected ':'");
			}
			p->pos++;
		}
		item = parse_value(p, depth + 1);
		if (item == NULL)
		{
			list_free(&l);
			return NULL;
		}
		if (!list_push(&l, item, key, key_len))
		{
			list_free(&l);
			return no_memory(p);
		}
		skip_space(p);
		if (p->pos < p->len && p->s[p->pos] == ',')
		{
			p->pos++;
			continue;
		}
		if (p->pos < p->len && p->s[p->pos] == close)
		{
			p->pos++;
			break;
		}
		list_free(&l);
		return syntax_error(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
	if (!list_move(p, &l, v, object))
		v = no_memory(p);
	list_free(&l);
	return v;
}

/* A literal (true, false, null). */
static avj_value *
parse_literal(avj_parser *p, const char *word, avj_kind kind, bool b)
{
	size_t		n = strlen(word);
	avj_value  *v;

	if (p->pos + n > p->len || memcmp(p->s + p->pos, word, n) != 0)
		return syntax_error(p, "unexpected character");
	p->pos += n;
	v = new_value(p, kind);
	if (v != NULL)
		v->boolean = b;
	return v;
}

/* Any value at the current position. */
static avj_value *
parse_value(avj_parser *p, int depth)
{
	if (depth > RG_JSON_MAX_NESTING || rg_too_deep(depth))
	{
		if (p->err && p->err->code == RG_OK)
			rg_error_set(p->err, RG_ERR_INVALID_VALUE,
						 "the value nests deeper than %d levels", RG_JSON_MAX_NESTING);
		return NULL;
	}
	skip_space(p);
	if (p->pos >= p->len)
		return syntax_error(p, "unexpected end of input");
	switch (p->s[p->pos])
	{
		case '{':
			return parse_container(p, depth, true);
		case '[':
			return parse_container(p, depth, false);
		case '"':
			{
				avj_value  *v = new_value(p, AVJ_STRING);

				if (v == NULL || !parse_string(p, &v->text, &v->len))
					return NULL;
				return v;
			}
		case 't':
			return parse_literal(p, "true", AVJ_BOOL, true);
		case 'f':
			return parse_literal(p, "false", AVJ_BOOL, false);
		case 'n':
			return parse_literal(p, "null", AVJ_NULL, false);
		default:
			return parse_number(p);
	}
}

/* See avro_payload.h */
avj_value *
avj_parse(rg_arena *arena, const char *text, size_t len, rg_error *err)
{
	avj_parser	p = {arena, text, 0, len, err};
	avj_value  *v = parse_value(&p, 0);

	if (v == NULL)
		return NULL;
	skip_space(&p);
	if (p.pos != p.len)
		return syntax_error(&p, "text after the value");
	return v;
}

/* See avro_payload.h */
avj_value *
avj_from_jansson(rg_arena *arena, const json_t *j, int depth)
{
	avj_value  *v;
	char		num[64];
	size_t		i;

	if (rg_too_deep(depth) || depth > RG_JSON_MAX_NESTING)
		return NULL;
	v = rg_arena_alloc(arena, sizeof(avj_value));
	if (v == NULL)
		return NULL;
	switch (json_typeof(j))
	{
		case JSON_NULL:
			v->kind = AVJ_NULL;
			return v;
		case JSON_TRUE:
		case JSON_FALSE:
			v->kind = AVJ_BOOL;
			v->boolean = json_is_true(j);
			return v;
		case JSON_INTEGER:
		case JSON_REAL:
			v->kind = AVJ_NUMBER;
			if (json_is_integer(j))
				snprintf(num, sizeof(num), "%lld", (long long) json_integer_value(j));
			else
				snprintf(num, sizeof(num), "%.17g", json_real_value(j));
			v->len = strlen(num);
			v->text = rg_arena_strdup(arena, num);
			return v->text ? v : NULL;
		case JSON_STRING:
			v->kind = AVJ_STRING;
			v->len = json_string_length(j);
			v->text = rg_arena_strndup(arena, json_string_value(j), v->len);
			return v->text ? v : NULL;
		case JSON_ARRAY:
			v->kind = AVJ_ARRAY;
			v->n = (int) json_array_size(j);
			v->items = rg_arena_alloc(arena, sizeof(avj_value *) * (v->n + 1));
			if (v->items == NULL)
				return NULL;
			for (i = 0; i < (size_t) v->n; i++)
				if ((v->items[i] = avj_from_jansson(arena, json_array_get(j, i), depth + 1)) == NULL)
					return NULL;
			return v;
		case JSON_OBJECT:
			{
				const char *key;
				json_t	   *e;

				v->kind = AVJ_OBJECT;
				v->items = rg_arena_alloc(arena, sizeof(avj_value *) * (json_object_size(j) + 1));
				v->keys = rg_arena_alloc(arena, sizeof(char *) * (json_object_size(j) + 1));
				v->key_lens = rg_arena_alloc(arena, sizeof(size_t) * (json_object_size(j) + 1));
				if (v->items == NULL || v->keys == NULL || v->key_lens == NULL)
					return NULL;
				json_object_foreach((json_t *) j, key, e)
				{
					v->keys[v->n] = key;
					v->key_lens[v->n] = strlen(key);
					if ((v->items[v->n] = avj_from_jansson(arena, e, depth + 1)) == NULL)
						return NULL;
					v->n++;
				}
				return v;
			}
	}
	return NULL;
}
