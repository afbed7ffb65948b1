/*-------------------------------------------------------------------------
 *
 * proto_tags.c
 *	  Schema tags of a PROTOBUF schema, as Confluent's ProtobufSchema
 *	  rewrites them (copy(tagsToAdd, tagsToRemove)): a message's tags live
 *	  in its (confluent.message_meta) option, a field's in its
 *	  (confluent.field_meta) option, under "tags".
 *
 * An sr_record path names a message by its names from the top of the file,
 * without the package ("Order", "Order.Line"); an sr_field path adds the
 * field's name ("Order.Line.sku"), and a field of a oneof may be named
 * through the oneof too ("Order.payment.card").  The entity's meta options
 * (a whole (confluent.field_meta) = { ... } as well as the
 * (confluent.field_meta).tags = "x" form) are merged into one, as
 * Confluent's mergeOptions merges them: the keys in first-seen order, a
 * key given twice becoming the list of its values.  The tags are then
 * the current ones plus those added minus those removed; the option is
 * written back where the first of them stood (appended when new) as
 * (confluent.field_meta) = { doc: "...", tags: [ "PII" ] }, and dropped
 * when nothing is left in it.  The entity's other options are kept as
 * they are.  A file that gains a meta option without importing
 * confluent/meta.proto imports it (the parser here, unlike Confluent's,
 * will not read an option it cannot resolve).
 *
 * The rewrite works on a copy of the schema's parse and renders it with
 * proto_render.c, so the result is in the stored form's look.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_internal.h"

#include <string.h>

#include "rg_tags.h"

typedef Google__Protobuf__FileDescriptorProto FileProto;
typedef Google__Protobuf__DescriptorProto MsgProto;
typedef Google__Protobuf__FieldDescriptorProto FieldProto;
typedef Google__Protobuf__UninterpretedOption UOption;

#define META_IMPORT "confluent/meta.proto"
#define FIELD_META "confluent.field_meta"
#define MESSAGE_META "confluent.message_meta"

/* One key of a merged meta option: its values as token text */
typedef struct meta_entry
{
	const char *key;
	const char **values;
	int			n;
	int			cap;
	bool		is_list;		/* written [ a , b ] */
} meta_entry;

/* A merged meta option: its keys in first-seen order */
typedef struct meta_map
{
	meta_entry *entries;
	int			n;
	int			cap;
} meta_map;

/* protobuf-c allocating in an arena: the copy lives and dies with it */
static void *
arena_pb_alloc(void *data, size_t size)
{
	return rg_arena_alloc((rg_arena *) data, size);
}

/* protobuf-c's release in an arena: nothing (the arena goes as a whole) */
static void
arena_pb_free(void *data, void *ptr)
{
}

/* A copy of the schema's parse in arena, NULL on out of memory. */
static FileProto *
copy_parse(rg_arena *arena, const FileProto *raw)
{
	ProtobufCAllocator alloc = {.alloc = arena_pb_alloc,.free = arena_pb_free,.allocator_data = arena};
	size_t		len = protobuf_c_message_get_packed_size((const ProtobufCMessage *) raw);
	uint8_t    *buf = rg_arena_alloc(arena, len + 1);

	if (buf == NULL)
		return NULL;
	protobuf_c_message_pack((const ProtobufCMessage *) raw, buf);
	return google__protobuf__file_descriptor_proto__unpack(&alloc, len, buf);
}

/* The declared message (not a map entry or group body) named name among list. */
static MsgProto *
find_message(const MsgProto *parent, const FileProto *file, MsgProto **list,
			 size_t n, const char *name)
{
	size_t		i;

	for (i = 0; i < n; i++)
		if (list[i]->name && strcmp(list[i]->name, name) == 0 &&
			rg_proto_is_declared_message(parent, file, list[i]))
			return list[i];
	return NULL;
}

/* Is a field a proto2 group (no field of Wire's, which keeps groups apart)? */
static bool
is_group(const FieldProto *f)
{
	return f->has_type && f->type == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_GROUP;
}

/* Is a field in a real oneof (not proto3 optional's synthetic one)? */
static bool
in_oneof(const FieldProto *f)
{
	return f->has_oneof_index && !f->proto3_optional;
}

/*
 * The field name of m in the oneof of index o, or in any oneof (o < 0),
 * in declaration order; NULL when there is none.
 */
static FieldProto *
oneof_field(const MsgProto *m, int o, const char *name)
{
	size_t		k;
	size_t		i;

	for (k = 0; k < m->n_oneof_decl; k++)
	{
		if (o >= 0 && (size_t) o != k)
			continue;
		for (i = 0; i < m->n_field; i++)
		{
			FieldProto *f = m->field[i];

			if (in_oneof(f) && f->oneof_index == (int32_t) k && !is_group(f) &&
				f->name && strcmp(f->name, name) == 0)
				return f;
		}
	}
	return NULL;
}

/*
 * findMatchingElement: the message (sr_record) or field (sr_field) an
 * entity's path names in file, into *msg or *field; false with err set
 * (Confluent's messages) when there is none.
 */
static bool
find_entity(rg_arena *arena, FileProto *file, const rg_tag_change *change,
			MsgProto **msg, FieldProto **field, rg_error *err)
{
	bool		is_field = change->type == RG_TAG_FIELD;
	int			n = 0;
	const char **ids = rg_tag_path_split(arena, change->path[0] == '.' ? change->path + 1 : change->path, &n);
	int			end;
	int			i;
	MsgProto   *m = NULL;
	const char *fname;
	size_t		k;

	*msg = NULL;
	*field = NULL;
	if (ids == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	if (n == 0)
	{
		rg_error_set(err, RG_ERR_INVALID_SCHEMA,
					 "No matching %s with name '' found in the schema", is_field ? "Field" : "Message");
		return false;
	}
	end = is_field ? n - 1 : n;
	for (i = 0; i < end; i++)
	{
		MsgProto   *found = i == 0
		? find_message(NULL, file, file->message_type, file->n_message_type, ids[i])
		: find_message(m, file, m->nested_type, m->n_nested_type, ids[i]);

		rg_check_interrupts();
		if (found != NULL)
			m = found;
		else if (i == end - 1 && is_field)
			break;				/* perhaps a oneof's name */
		else
		{
			rg_error_set(err, RG_ERR_INVALID_SCHEMA,
						 "No matching Message with name '%s' found in the schema", ids[i]);
			return false;
		}
	}
	if (!is_field)
	{
		*msg = m;
		return m != NULL;		/* n > 0: m found, or an error set above */
	}
	fname = ids[n - 1];
	if (m != NULL && i == end)
	{
		for (k = 0; k < m->n_field && *field == NULL; k++)
			if (!in_oneof(m->field[k]) && !is_group(m->field[k]) &&
				m->field[k]->name && strcmp(m->field[k]->name, fname) == 0)
				*field = m->field[k];
		if (*field == NULL)
			*field = oneof_field(m, -1, fname);
	}
	else if (m != NULL)
	{
		int			o = -1;

		/* the last oneof of that name, as Confluent's loop finds it */
		for (k = 0; k < m->n_oneof_decl; k++)
			if (m->oneof_decl[k]->name && strcmp(m->oneof_decl[k]->name, ids[i]) == 0)
				o = (int) k;
		if (o >= 0)
			*field = oneof_field(m, o, fname);
	}
	if (*field == NULL)
	{
		rg_error_set(err, RG_ERR_INVALID_SCHEMA,
					 "No matching Field with name '%s' found in the schema", fname);
		return false;
	}
	return true;
}

/* Is o an option (meta) = ... or (meta).key = ...? */
static bool
is_meta_option(const UOption *o, const char *meta)
{
	const char *part;

	if (o->n_name == 0 || !o->name[0]->is_extension || o->name[0]->name_part == NULL)
		return false;
	part = o->name[0]->name_part;
	if (part[0] == '.')
		part++;
	return strcmp(part, meta) == 0;
}

/*
 * The tokens of an aggregate value (Confluent reads it with Wire's
 * parser; protoc keeps it as its tokens joined by spaces, and the stored
 * form drops some of those spaces): string literals whole, names and
 * numbers whole, every other character a token of its own.
 */
static const char **
tokenize(rg_arena *arena, const char *s, int *n)
{
	size_t		len = strlen(s);
	const char **toks = rg_arena_alloc(arena, (len + 1) * sizeof(char *));
	size_t		i = 0;
	int			k = 0;

	if (toks == NULL)
		return NULL;
	while (i < len)
	{
		size_t		start = i;
		char		c = s[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
		{
			i++;
			continue;
		}
		if (c == '"' || c == '\'')
		{
			for (i++; i < len && s[i] != c; i++)
				if (s[i] == '\\' && i + 1 < len)
					i++;
			if (i < len)
				i++;
		}
		else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
				 (c >= '0' && c <= '9') || c == '.')
		{
			bool		number = (c >= '0' && c <= '9') || c == '.';

			while (i < len && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
							   s[i] == '_' || (s[i] >= '0' && s[i] <= '9') || s[i] == '.'))
			{
				i++;
				if (number && (s[i - 1] == 'e' || s[i - 1] == 'E') && i < len &&
					(s[i] == '+' || s[i] == '-'))
					i++;
			}
		}
		else
			i++;
		if ((toks[k++] = rg_arena_strndup(arena, s + start, i - start)) == NULL)
			return NULL;
	}
	*n = k;
	return toks;
}

/* Join tokens [from, to) with single spaces (protoc's form), in arena. */
static const char *
join_tokens(rg_arena *arena, const char **toks, int from, int to)
{
	rg_buf		b;
	const char *s;
	int			i;

	rg_buf_init(&b);
	for (i = from; i < to; i++)
	{
		if (i > from)
			rg_buf_putc(&b, ' ');
		rg_buf_puts(&b, toks[i]);
	}
	rg_buf_putc(&b, '\0');
	s = b.oom ? NULL : rg_arena_strdup(arena, b.data);
	rg_buf_free(&b);
	return s;
}

/* The end of the value starting at token i: past its closing bracket, or i + 1. */
static int
value_end(const char **toks, int n, int i)
{
	int			depth = 0;

	if (i < n && strcmp(toks[i], "-") == 0)
		i++;					/* a negative number */
	do
	{
		if (i >= n)
			return -1;
		if (strcmp(toks[i], "{") == 0 || strcmp(toks[i], "[") == 0 || strcmp(toks[i], "<") == 0)
			depth++;
		else if (strcmp(toks[i], "}") == 0 || strcmp(toks[i], "]") == 0 || strcmp(toks[i], ">") == 0)
			depth--;
		i++;
	} while (depth > 0);
	return depth == 0 ? i : -1;
}

/* The entry of key in map, added (empty) when new; NULL on out of memory. */
static meta_entry *
map_entry(rg_arena *arena, meta_map *map, const char *key)
{
	int			i;

	for (i = 0; i < map->n; i++)
		if (strcmp(map->entries[i].key, key) == 0)
			return &map->entries[i];
	if (map->n == map->cap)
	{
		int			cap = map->cap ? map->cap * 2 : 4;
		meta_entry *bigger = rg_arena_alloc(arena, cap * sizeof(meta_entry));

		if (bigger == NULL)
			return NULL;
		if (map->n)
			memcpy(bigger, map->entries, map->n * sizeof(meta_entry));
		map->entries = bigger;
		map->cap = cap;
	}
	memset(&map->entries[map->n], 0, sizeof(meta_entry));
	map->entries[map->n].key = key;
	return &map->entries[map->n++];
}

/*
 * Add a value to an entry: the first stays a single value, a second one
 * makes the entry the list of its values, each once (Confluent's merge).
 */
static bool
entry_add(rg_arena *arena, meta_entry *e, const char *value, bool is_list)
{
	int			i;

	if (is_list || e->n > 0)
		e->is_list = true;
	for (i = 0; i < e->n; i++)
		if (strcmp(e->values[i], value) == 0)
			return true;
	if (e->n == e->cap)
	{
		int			cap = e->cap ? e->cap * 2 : 4;
		const char **bigger = rg_arena_alloc(arena, cap * sizeof(char *));

		if (bigger == NULL)
			return false;
		if (e->n)
			memcpy(bigger, e->values, e->n * sizeof(char *));
		e->values = bigger;
		e->cap = cap;
	}
	e->values[e->n++] = value;
	return true;
}

/*
 * Merge the value of one key into map: a list's elements one by one,
 * anything else whole.
 */
static bool
merge_value(rg_arena *arena, meta_map *map, const char *key,
			const char **toks, int from, int to)
{
	meta_entry *e = map_entry(arena, map, key);
	int			i;

	if (e == NULL)
		return false;
	if (to - from >= 2 && strcmp(toks[from], "[") == 0 && strcmp(toks[to - 1], "]") == 0)
	{
		e->is_list = true;
		for (i = from + 1; i < to - 1;)
		{
			int			end = value_end(toks, to - 1, i);
			const char *v;

			if (end < 0 || (v = join_tokens(arena, toks, i, end)) == NULL ||
				!entry_add(arena, e, v, true))
				return false;
			i = end;
			if (i < to - 1 && strcmp(toks[i], ",") == 0)
				i++;
		}
		return true;
	}
	{
		const char *v = join_tokens(arena, toks, from, to);

		return v != NULL && entry_add(arena, e, v, false);
	}
}

/* Merge the members of an aggregate value (its text) into map; false when unreadable. */
static bool
merge_aggregate(rg_arena *arena, meta_map *map, const char *text)
{
	int			n;
	const char **toks = tokenize(arena, text, &n);
	int			i = 0;

	if (toks == NULL)
		return false;
	while (i < n)
	{
		int			key_end = i + 1;
		const char *key;
		int			end;

		if (strcmp(toks[i], "[") == 0)
		{
			while (key_end < n && strcmp(toks[key_end - 1], "]") != 0)
				key_end++;
		}
		key = join_tokens(arena, toks, i, key_end);
		i = key_end;
		if (key == NULL || i >= n)
			return false;
		if (strcmp(toks[i], ":") == 0)
			i++;
		end = value_end(toks, n, i);
		if (end < 0 || !merge_value(arena, map, key, toks, i, end))
			return false;
		i = end;
		if (i < n && (strcmp(toks[i], ",") == 0 || strcmp(toks[i], ";") == 0))
			i++;
	}
	return true;
}

/*
 * The value of o from name part `from` on as aggregate text: the option's
 * value at the last part, { part : ... } around it for each part before.
 */
static bool
put_suboption(rg_buf *b, const UOption *o, size_t from)
{
	if (from >= o->n_name)
	{
		if (o->aggregate_value)
			rg_buf_printf(b, "{ %s }", o->aggregate_value);
		else
			rg_proto_put_option_value(b, o);
		return true;
	}
	rg_buf_puts(b, "{ ");
	rg_buf_printf(b, o->name[from]->is_extension ? "[%s]" : "%s",
				  o->name[from]->name_part ? o->name[from]->name_part : "");
	rg_buf_puts(b, " : ");
	put_suboption(b, o, from + 1);
	rg_buf_puts(b, " }");
	return true;
}

/* Merge one meta option into map (Confluent's transform and merge); false when unreadable. */
static bool
merge_option(rg_arena *arena, meta_map *map, const UOption *o)
{
	rg_buf		b;
	bool		ok;

	if (o->n_name == 1)
		return o->aggregate_value == NULL || merge_aggregate(arena, map, o->aggregate_value);
	/* (meta).key = value, (meta).key.sub = value: { key : value } */
	rg_buf_init(&b);
	put_suboption(&b, o, 1);
	rg_buf_putc(&b, '\0');
	if (b.oom)
	{
		rg_buf_free(&b);
		return false;
	}
	/* strip the outer braces put_suboption wrote */
	b.data[b.len - 3] = '\0';
	ok = merge_aggregate(arena, map, b.data + 2);
	rg_buf_free(&b);
	return ok;
}

/* A tag as the text of a string literal token reads (escapes resolved). */
static const char *
token_text(rg_arena *arena, const char *tok)
{
	size_t		len = strlen(tok);
	char	   *s;
	size_t		i;
	size_t		k = 0;

	if (len < 2 || (tok[0] != '"' && tok[0] != '\''))
		return tok;
	s = rg_arena_alloc(arena, len);
	if (s == NULL)
		return NULL;
	for (i = 1; i + 1 < len; i++)
	{
		char		c = tok[i];

		if (c == '\\' && i + 2 < len)
		{
			c = tok[++i];
			switch (c)
			{
				case 'n':
					c = '\n';
					break;
				case 't':
					c = '\t';
					break;
				case 'r':
					c = '\r';
					break;
				case 'a':
					c = '\a';
					break;
				case 'b':
					c = '\b';
					break;
				case 'f':
					c = '\f';
					break;
				case 'v':
					c = '\v';
					break;
				default:
					if (c >= '0' && c <= '7')
					{
						int			v = c - '0';
						int			d;

						for (d = 0; d < 2 && i + 2 < len && tok[i + 1] >= '0' && tok[i + 1] <= '7'; d++)
							v = v * 8 + (tok[++i] - '0');
						c = (char) v;
					}
					break;
			}
		}
		s[k++] = c;
	}
	s[k] = '\0';
	return s;
}

/* Set the "tags" of map to the change applied to the tags it has. */
static bool
change_tags(rg_arena *arena, meta_map *map, const rg_tag_change *change)
{
	meta_entry *e = NULL;
	const char **have = NULL;
	const char **tags;
	int			n_have = 0;
	int			n;
	int			i;

	for (i = 0; i < map->n; i++)
		if (strcmp(map->entries[i].key, "tags") == 0)
			e = &map->entries[i];
	if (e != NULL)
	{
		have = rg_arena_alloc(arena, (e->n + 1) * sizeof(char *));
		if (have == NULL)
			return false;
		for (i = 0; i < e->n; i++)
			if ((have[n_have++] = token_text(arena, e->values[i])) == NULL)
				return false;
	}
	tags = rg_tag_apply(arena, have, n_have, change, &n);
	if (tags == NULL)
		return false;
	if (n == 0)
	{
		if (e != NULL)
		{
			int			at = (int) (e - map->entries);

			memmove(e, e + 1, (map->n - at - 1) * sizeof(meta_entry));
			map->n--;
		}
		return true;
	}
	if (e == NULL && (e = map_entry(arena, map, "tags")) == NULL)
		return false;
	e->n = 0;
	e->is_list = true;
	for (i = 0; i < n; i++)
	{
		rg_buf		b;
		const char *v;

		rg_buf_init(&b);
		rg_proto_put_quoted(&b, (const unsigned char *) tags[i], strlen(tags[i]));
		rg_buf_putc(&b, '\0');
		v = b.oom ? NULL : rg_arena_strdup(arena, b.data);
		rg_buf_free(&b);
		if (v == NULL || !entry_add(arena, e, v, true))
			return false;
	}
	return true;
}

/* The merged option as an uninterpreted aggregate option, in arena. */
static UOption *
map_option(rg_arena *arena, const meta_map *map, const char *meta)
{
	UOption    *o = rg_arena_alloc(arena, sizeof(UOption));
	Google__Protobuf__UninterpretedOption__NamePart *part =
	rg_arena_alloc(arena, sizeof(*part));
	rg_buf		b;
	int			i,
				j;

	if (o == NULL || part == NULL)
		return NULL;
	google__protobuf__uninterpreted_option__init(o);
	google__protobuf__uninterpreted_option__name_part__init(part);
	part->name_part = (char *) meta;
	part->is_extension = true;
	o->n_name = 1;
	o->name = rg_arena_alloc(arena, sizeof(part));
	if (o->name == NULL)
		return NULL;
	o->name[0] = part;
	rg_buf_init(&b);
	for (i = 0; i < map->n; i++)
	{
		const meta_entry *e = &map->entries[i];

		if (i > 0)
			rg_buf_puts(&b, " , ");
		rg_buf_printf(&b, "%s : ", e->key);
		if (e->is_list)
			rg_buf_puts(&b, "[ ");
		for (j = 0; j < e->n; j++)
		{
			if (j > 0)
				rg_buf_puts(&b, " , ");
			rg_buf_puts(&b, e->values[j]);
		}
		if (e->is_list)
			rg_buf_puts(&b, " ]");
	}
	rg_buf_putc(&b, '\0');
	o->aggregate_value = b.oom ? NULL : rg_arena_strdup(arena, b.data);
	rg_buf_free(&b);
	return o->aggregate_value ? o : NULL;
}

/*
 * Apply a change to a list of options (a field's or a message's): the
 * meta options merged into one with the new tags, where the first stood.
 * *added set when the list gains a meta option it did not have.
 */
static bool
change_options(rg_arena *arena, UOption ***opts, size_t *n_opts, const char *meta,
			   const rg_tag_change *change, bool *added, rg_error *err)
{
	meta_map	map = {0};
	UOption   **kept = rg_arena_alloc(arena, (*n_opts + 1) * sizeof(UOption *));
	size_t		n_kept = 0;
	long		first = -1;
	size_t		i;

	if (kept == NULL)
		goto oom;
	for (i = 0; i < *n_opts; i++)
	{
		UOption    *o = (*opts)[i];

		if (!is_meta_option(o, meta))
		{
			kept[n_kept++] = o;
			continue;
		}
		if (first < 0)
			first = (long) n_kept;
		if (!merge_option(arena, &map, o))
		{
			rg_error_set(err, RG_ERR_INVALID_SCHEMA,
						 "the (%s) option of '%s' cannot be read", meta, change->path);
			return false;
		}
	}
	if (first < 0 && change->n_add == 0)
		return true;			/* nothing to remove from */
	if (!change_tags(arena, &map, change))
		goto oom;
	if (map.n > 0)
	{
		UOption    *o = map_option(arena, &map, meta);

		if (o == NULL)
			goto oom;
		if (first < 0)
		{
			first = (long) n_kept;
			*added = true;
		}
		memmove(&kept[first + 1], &kept[first], (n_kept - (size_t) first) * sizeof(UOption *));
		kept[first] = o;
		n_kept++;
	}
	*opts = kept;
	*n_opts = n_kept;
	return true;
oom:
	rg_error_set(err, RG_ERR_NOMEM, "out of memory");
	return false;
}

/* Apply one change to its entity in file. */
static bool
change_entity(rg_arena *arena, FileProto *file, const rg_tag_change *change,
			  bool *added, rg_error *err)
{
	MsgProto   *msg;
	FieldProto *field;

	if (!find_entity(arena, file, change, &msg, &field, err))
		return false;
	if (field != NULL)
	{
		if (field->options == NULL)
		{
			field->options = rg_arena_alloc(arena, sizeof(*field->options));
			if (field->options == NULL)
				goto oom;
			google__protobuf__field_options__init(field->options);
		}
		return change_options(arena, &field->options->uninterpreted_option,
							  &field->options->n_uninterpreted_option, FIELD_META,
							  change, added, err);
	}
	if (msg->options == NULL)
	{
		msg->options = rg_arena_alloc(arena, sizeof(*msg->options));
		if (msg->options == NULL)
			goto oom;
		google__protobuf__message_options__init(msg->options);
	}
	return change_options(arena, &msg->options->uninterpreted_option,
						  &msg->options->n_uninterpreted_option, MESSAGE_META,
						  change, added, err);
oom:
	rg_error_set(err, RG_ERR_NOMEM, "out of memory");
	return false;
}

/* Import confluent/meta.proto unless the file does. */
static bool
import_meta(rg_arena *arena, FileProto *file)
{
	char	  **deps;
	size_t		i;

	for (i = 0; i < file->n_dependency; i++)
		if (strcmp(file->dependency[i], META_IMPORT) == 0)
			return true;
	deps = rg_arena_alloc(arena, (file->n_dependency + 1) * sizeof(char *));
	if (deps == NULL)
		return false;
	if (file->n_dependency)
		memcpy(deps, file->dependency, file->n_dependency * sizeof(char *));
	deps[file->n_dependency] = (char *) META_IMPORT;
	file->dependency = deps;
	file->n_dependency++;
	return true;
}

/* See proto_internal.h */
bool
rg_protobuf_apply_tags(const rg_schema *schema, rg_arena *arena,
					   const char *text, size_t len,
					   const rg_tag_change *changes, int n_changes,
					   rg_buf *out, rg_error *err)
{
	const proto_model *model = schema->model;
	FileProto  *file = copy_parse(arena, model->raw);
	bool		added = false;
	char	   *rendered;
	size_t		rendered_len;
	int			i;

	if (file == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	for (i = 0; i < n_changes; i++)
		if (!change_entity(arena, file, &changes[i], &added, err))
			return false;
	if (added && !import_meta(arena, file))
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	rendered = rg_proto_render(file, model->pub.file, false, &rendered_len, err);
	if (rendered == NULL)
		return false;
	rg_buf_append(out, rendered, rendered_len);
	rg_free(rendered);
	return true;
}
