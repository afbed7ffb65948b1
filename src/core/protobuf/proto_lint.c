/*-------------------------------------------------------------------------
 *
 * proto_lint.c
 *	  The Protobuf lints: field numbers and names that come back with
 *	  another meaning.
 *
 * A Protobuf payload names its fields by number, its JSON form by name.
 * Confluent's rules check a new version against the latest one (or each
 * earlier one, transitively) field by field, so a field deleted in one
 * version and its number given to another field later passes: data
 * written with the old field is then read as the new one.  The lints:
 *	- DELETED_FIELD_NOT_RESERVED: a field of the latest earlier version
 *	  gone from the same message without `reserved` for its number and its
 *	  name, which is what keeps them from being used again;
 *	- FIELD_NUMBER_REUSED: a field number that an earlier version gave a
 *	  field of another type, or (deleted since) a field of another name;
 *	- FIELD_NAME_REUSED: a field name that an earlier version gave another
 *	  field number.
 * and the practices (rg_lint.h), against the latest earlier version:
 *	- FIELD_REMOVED_WITHOUT_DEPRECATION: a field gone that was not
 *	  [deprecated = true] there;
 *	- FIELD_WITHOUT_DEFAULT: a proto2 `required` field added (any of a
 *	  first version);
 *	- FIELD_TYPE_CHANGED: a field of the same number and name whose type
 *	  changed, named a widening (int32 to int64: old data reads exactly),
 *	  a narrowing (the reverse: old values are truncated), a change of sign
 *	  or of wire type.
 * Messages are matched by full name across versions (nested ones
 * included, map entries left out); each finding is reported once, against
 * the oldest version it shows in.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_internal.h"
#include "rg_compat.h"

#include <stdio.h>
#include <string.h>

typedef Google__Protobuf__FileDescriptorProto FileProto;
typedef Google__Protobuf__DescriptorProto MsgProto;
typedef Google__Protobuf__FieldDescriptorProto FieldProto;

/* the widest message whose fields the lints look at (they search them linearly) */
#define LINT_MAX_FIELDS 1000

/* one message of a version, by its full name (package, no leading '.') */
typedef struct msg_entry
{
	const char *name;
	const MsgProto *msg;
} msg_entry;

/* the messages of one version */
typedef struct msg_list
{
	msg_entry  *items;
	int			n;
	int			cap;
	bool		failed;
} msg_list;

/* add a message under its full name (in arena) */
static void
add_message(msg_list *list, rg_arena *arena, const char *prefix, const MsgProto *m)
{
	char	   *name;
	size_t		len;

	if (list->n == list->cap)
	{
		int			cap = list->cap ? list->cap * 2 : 16;
		msg_entry  *items = rg_realloc(list->items, sizeof(*items) * cap);

		if (items == NULL)
		{
			list->failed = true;
			return;
		}
		list->items = items;
		list->cap = cap;
	}
	len = strlen(prefix) + strlen(m->name) + 2;
	name = rg_arena_alloc(arena, len);
	if (name == NULL)
	{
		list->failed = true;
		return;
	}
	if (prefix[0])
		snprintf(name, len, "%s.%s", prefix, m->name);
	else
		snprintf(name, len, "%s", m->name);
	list->items[list->n].name = name;
	list->items[list->n].msg = m;
	list->n++;
}

/* a message and its nested messages, map entries left out */
static void
collect_message(msg_list *list, rg_arena *arena, const char *prefix,
				const MsgProto *m, int depth)
{
	size_t		i;

	if (m->name == NULL || (m->options != NULL && m->options->has_map_entry &&
							m->options->map_entry))
		return;
	if (rg_too_deep(depth))
	{
		list->failed = true;
		return;
	}
	add_message(list, arena, prefix, m);
	if (list->failed)
		return;
	prefix = list->items[list->n - 1].name;
	for (i = 0; i < m->n_nested_type; i++)
		collect_message(list, arena, prefix, m->nested_type[i], depth + 1);
}

/* every message the main file of a schema declares */
static void
collect_messages(const rg_schema *s, msg_list *list, rg_arena *arena)
{
	const FileProto *file = rg_protobuf_model(s)->file;
	size_t		i;

	for (i = 0; i < file->n_message_type; i++)
		collect_message(list, arena, file->package ? file->package : "",
						file->message_type[i], 0);
}

/* the message of a list by full name, or NULL */
static const MsgProto *
find_message(const msg_list *list, const char *name)
{
	int			i;

	for (i = 0; i < list->n; i++)
		if (strcmp(list->items[i].name, name) == 0)
			return list->items[i].msg;
	return NULL;
}

/* a message's field by number, or NULL */
static const FieldProto *
field_by_number(const MsgProto *m, int number)
{
	size_t		i;

	for (i = 0; m != NULL && i < m->n_field; i++)
		if (m->field[i]->number == number)
			return m->field[i];
	return NULL;
}

/* a message's field by name, or NULL */
static const FieldProto *
field_by_name(const MsgProto *m, const char *name)
{
	size_t		i;

	for (i = 0; m != NULL && i < m->n_field; i++)
		if (m->field[i]->name != NULL && strcmp(m->field[i]->name, name) == 0)
			return m->field[i];
	return NULL;
}

/* Do two fields carry the same type (scalar or named, singular or repeated)? */
static bool
same_field_type(const FieldProto *a, const FieldProto *b)
{
	bool		ra = a->label == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__LABEL__LABEL_REPEATED;
	bool		rb = b->label == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__LABEL__LABEL_REPEATED;

	if (a->type != b->type || ra != rb)
		return false;
	if (a->type_name == NULL || b->type_name == NULL)
		return a->type_name == b->type_name;
	return strcmp(a->type_name, b->type_name) == 0;
}

/* "version 3", or "an earlier version" when the number is not known */
static const char *
version_text(int version, char *buf, size_t size)
{
	if (version > 0)
		snprintf(buf, size, "version %d", version);
	else
		snprintf(buf, size, "an earlier version");
	return buf;
}

/* Is a number inside one of a message's reserved ranges (end exclusive)? */
static bool
number_reserved(const MsgProto *m, int number)
{
	size_t		i;

	for (i = 0; i < m->n_reserved_range; i++)
		if (number >= m->reserved_range[i]->start && number < m->reserved_range[i]->end)
			return true;
	return false;
}

/* Is a name one of a message's reserved names? */
static bool
name_reserved(const MsgProto *m, const char *name)
{
	size_t		i;

	for (i = 0; i < m->n_reserved_name; i++)
		if (strcmp(m->reserved_name[i], name) == 0)
			return true;
	return false;
}

/* a lint of one field of the latest earlier version that the new one removed */
typedef bool (*removed_field_lint) (const char *message, const FieldProto *f,
									const MsgProto *now, rg_strlist *out);

/*
 * Run a lint on each field of the latest earlier version whose message the
 * new schema keeps without a field of that number.
 */
static bool
each_removed_field(const msg_list *latest, const msg_list *now, removed_field_lint lint,
				   rg_strlist *out)
{
	int			i;
	size_t		j;

	for (i = 0; i < latest->n; i++)
	{
		const MsgProto *old = latest->items[i].msg;
		const MsgProto *m = find_message(now, latest->items[i].name);

		for (j = 0; m != NULL && j < old->n_field; j++)
		{
			const FieldProto *f = old->field[j];

			if (field_by_number(m, f->number) != NULL || f->name == NULL)
				continue;
			if (!lint(latest->items[i].name, f, m, out))
				return false;
		}
	}
	return true;
}

/* DELETED_FIELD_NOT_RESERVED for one removed field */
static bool
lint_deleted_field(const char *message, const FieldProto *f, const MsgProto *m,
				   rg_strlist *out)
{
	bool		num_ok = number_reserved(m, f->number);
	bool		name_ok = name_reserved(m, f->name);
	char		hint[1024];

	if (num_ok && name_ok)
		return true;
	if (!num_ok && !name_ok)
		snprintf(hint, sizeof(hint), "its number and its name: a later version can use "
				 "them again for other data, which old data is then read as; add "
				 "\"reserved %d;\" and \"reserved \"%s\";\"", f->number, f->name);
	else if (!num_ok)
		snprintf(hint, sizeof(hint), "its number: a later version can use it again for "
				 "other data, which old data is then read as; add \"reserved %d;\"",
				 f->number);
	else
		snprintf(hint, sizeof(hint), "its name: a later version can use it again for "
				 "another field, which JSON data is then read as; add "
				 "\"reserved \"%s\";\"", f->name);
	return rg_strlist_pushf(out,
							"{lintType:'DELETED_FIELD_NOT_RESERVED', description:'The field '%s' "
							"(number %d) of message '%s' was deleted without reserving %s', "
							"additionalInfo:'%s.%s'}",
							f->name, f->number, message, hint, message, f->name);
}

/* FIELD_NUMBER_REUSED for one field of the new schema, once */
static bool
lint_number(const char *message, const FieldProto *g, const msg_list *versions,
			const struct rg_prior_version *earlier, int n, rg_strlist *out)
{
	const MsgProto *latest = find_message(&versions[n - 1], message);
	bool		readded = field_by_number(latest, g->number) == NULL;
	char		ta[256];
	char		tb[256];
	char		vb[64];
	int			k;

	for (k = 0; k < n; k++)
	{
		const FieldProto *f = field_by_number(find_message(&versions[k], message), g->number);
		bool		other_type;

		if (f == NULL || f->name == NULL)
			continue;
		other_type = !same_field_type(f, g);
		if (!other_type && (!readded || strcmp(f->name, g->name) == 0))
			continue;
		return rg_strlist_pushf(out,
								"{lintType:'FIELD_NUMBER_REUSED', description:'The field number %d of "
								"message '%s' was the field '%s' of type %s in %s and is the field '%s' "
								"of type %s in the new schema: data written with '%s' is read as '%s'', "
								"additionalInfo:'%s.%d'}",
								g->number, message, f->name, rg_proto_field_type_text(f, ta, sizeof(ta)),
								version_text(earlier[k].version, vb, sizeof(vb)), g->name,
								rg_proto_field_type_text(g, tb, sizeof(tb)), f->name, g->name,
								message, g->number);
	}
	return true;
}

/* FIELD_NAME_REUSED for one field of the new schema, once */
static bool
lint_name	(const char *message, const FieldProto *g, const msg_list *versions,
			 const struct rg_prior_version *earlier, int n, rg_strlist *out)
{
	char		vb[64];
	int			k;

	for (k = 0; k < n; k++)
	{
		const FieldProto *f = field_by_name(find_message(&versions[k], message), g->name);

		if (f == NULL || f->number == g->number)
			continue;
		return rg_strlist_pushf(out,
								"{lintType:'FIELD_NAME_REUSED', description:'The field name '%s' of "
								"message '%s' had the number %d in %s and has the number %d in the new "
								"schema: its binary and JSON forms now name different fields', "
								"additionalInfo:'%s.%s'}",
								g->name, message, f->number,
								version_text(earlier[k].version, vb, sizeof(vb)), g->number,
								message, g->name);
	}
	return true;
}

/* Was the field marked [deprecated = true]? */
static bool
field_deprecated(const FieldProto *f)
{
	return f->options != NULL && f->options->has_deprecated && f->options->deprecated;
}

/* FIELD_REMOVED_WITHOUT_DEPRECATION for one removed field */
static bool
lint_removed_field(const char *message, const FieldProto *f, const MsgProto *m,
				   rg_strlist *out)
{
	if (field_deprecated(f))
		return true;
	return rg_strlist_pushf(out,
							"{lintType:'FIELD_REMOVED_WITHOUT_DEPRECATION', description:'The "
							"field '%s' (number %d) of message '%s' was removed without being "
							"deprecated first: mark it [deprecated = true] in one version, stop "
							"writing it, and remove it in a later one', additionalInfo:'%s.%s'}",
							f->name, f->number, message, message, f->name);
}

/* Is a field proto2 `required`? */
static bool
field_required(const FieldProto *f)
{
	return f != NULL && f->label == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__LABEL__LABEL_REQUIRED;
}

/* FIELD_WITHOUT_DEFAULT for one field of the new schema (latest: its message there, or NULL) */
static bool
lint_required(const char *message, const FieldProto *g, const MsgProto *latest,
			  rg_strlist *out)
{
	if (!field_required(g) || field_required(field_by_number(latest, g->number)))
		return true;
	return rg_strlist_pushf(out,
							"{lintType:'FIELD_WITHOUT_DEFAULT', description:'The field '%s' (number "
							"%d) of message '%s' is required: a required field can never be removed "
							"without breaking readers of new data; make it optional', "
							"additionalInfo:'%s.%s'}",
							g->name, g->number, message, message, g->name);
}

/* a scalar type's wire family (varint, zigzag, 32- or 64-bit fixed, length-delimited), width and sign */
typedef struct scalar_kind
{
	Google__Protobuf__FieldDescriptorProto__Type type;
	char		family;			/* 'v', 'z', 'f', 'F', 'l', or 0 for none */
	int			bits;
	bool		is_signed;
} scalar_kind;

#define PB_TYPE(t) GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__TYPE__TYPE_##t

static const scalar_kind scalar_kinds[] = {
	{PB_TYPE(BOOL), 'v', 1, false},
	{PB_TYPE(INT32), 'v', 32, true},
	{PB_TYPE(ENUM), 'v', 32, true},
	{PB_TYPE(UINT32), 'v', 32, false},
	{PB_TYPE(INT64), 'v', 64, true},
	{PB_TYPE(UINT64), 'v', 64, false},
	{PB_TYPE(SINT32), 'z', 32, true},
	{PB_TYPE(SINT64), 'z', 64, true},
	{PB_TYPE(FIXED32), 'f', 32, false},
	{PB_TYPE(SFIXED32), 'f', 32, true},
	{PB_TYPE(FLOAT), 'f', 32, true},
	{PB_TYPE(FIXED64), 'F', 64, false},
	{PB_TYPE(SFIXED64), 'F', 64, true},
	{PB_TYPE(DOUBLE), 'F', 64, true},
	{PB_TYPE(STRING), 'l', 0, false},
	{PB_TYPE(BYTES), 'l', 0, false}
};

/* The wire family, width and sign of a field's type (a message type has family 0). */
static scalar_kind
kind_of(const FieldProto *f)
{
	scalar_kind none = {f->type, 0, 0, false};
	size_t		i;

	for (i = 0; i < sizeof(scalar_kinds) / sizeof(scalar_kinds[0]); i++)
		if (scalar_kinds[i].type == f->type)
			return scalar_kinds[i];
	return none;
}

/* What a change of a field's type from a to b does, in a word and in words. */
static const char *
change_direction(const FieldProto *a, const FieldProto *b, const char **word)
{
	scalar_kind ka = kind_of(a);
	scalar_kind kb = kind_of(b);
	bool		repeated_a = a->label == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__LABEL__LABEL_REPEATED;
	bool		repeated_b = b->label == GOOGLE__PROTOBUF__FIELD_DESCRIPTOR_PROTO__LABEL__LABEL_REPEATED;

	*word = "changed";
	if (repeated_a != repeated_b || ka.family == 0 || ka.family != kb.family)
		return "the two types are not compatible on the wire: data written with one is "
			"misread or dropped as an unknown field by readers of the other";
	if (ka.family == 'l')
		return "string and bytes share the wire form: readers of a string fail on bytes "
			"that are not valid UTF-8";
	if (kb.bits > ka.bits && (ka.bits == 1 || ka.is_signed == kb.is_signed))
	{
		*word = "widened";
		return "old data reads exactly, but a reader of the old schema silently truncates "
			"new values that do not fit the old type; safe in this direction only";
	}
	if (kb.bits < ka.bits && (kb.bits == 1 || ka.is_signed == kb.is_signed))
	{
		*word = "narrowed";
		return "old values that do not fit the new type are silently truncated when read";
	}
	if (ka.family == 'f' || ka.family == 'F')
		return "the 32- or 64-bit value is reinterpreted: old data reads as other numbers";
	return "the sign changes: negative values are read as large positive ones, or the "
		"reverse";
}

/* FIELD_TYPE_CHANGED for one field of the new schema (latest: its message there, or NULL) */
static bool
lint_type(const char *message, const FieldProto *g, const MsgProto *latest, rg_strlist *out)
{
	const FieldProto *f = field_by_number(latest, g->number);
	const char *word;
	const char *what;
	char		ta[256];
	char		tb[256];

	if (f == NULL || f->name == NULL || strcmp(f->name, g->name) != 0 || same_field_type(f, g))
		return true;
	what = change_direction(f, g, &word);
	return rg_strlist_pushf(out,
							"{lintType:'FIELD_TYPE_CHANGED', description:'The field '%s' (number "
							"%d) of message '%s' changed type from %s to %s (%s): %s', "
							"additionalInfo:'%s.%s: %s -> %s (%s)'}",
							g->name, g->number, message, rg_proto_field_type_text(f, ta, sizeof(ta)),
							rg_proto_field_type_text(g, tb, sizeof(tb)), word, what, message, g->name,
							ta, tb, word);
}

/* The lints in rules of one field of the new schema, against the earlier versions. */
static bool
lint_field(const char *message, const FieldProto *g, const msg_list *versions,
		   const struct rg_prior_version *earlier, int n, rg_lint_rules rules,
		   rg_strlist *out)
{
	const MsgProto *latest = n > 0 ? find_message(&versions[n - 1], message) : NULL;

	if (n > 0 && (rules & RG_LINT_NUMBER_REUSED) &&
		!lint_number(message, g, versions, earlier, n, out))
		return false;
	if (n > 0 && (rules & RG_LINT_NAME_REUSED) &&
		!lint_name(message, g, versions, earlier, n, out))
		return false;
	if ((rules & RG_LINT_WITHOUT_DEFAULT) && !lint_required(message, g, latest, out))
		return false;
	if ((rules & RG_LINT_TYPE_CHANGED) && !lint_type(message, g, latest, out))
		return false;
	return true;
}

/* See rg_protobuf.h */
bool
rg_protobuf_lint(const rg_schema *new_schema, const struct rg_prior_version *earlier,
				 int n_earlier, rg_lint_rules rules, rg_strlist *out)
{
	rg_arena   *arena = rg_arena_create();
	msg_list   *versions;
	msg_list	now = {0};
	bool		ok = arena != NULL;
	int			k;
	int			i;
	size_t		j;

	versions = ok ? rg_arena_alloc(arena, sizeof(msg_list) * (n_earlier + 1)) : NULL;
	ok = versions != NULL;
	for (k = 0; ok && k < n_earlier; k++)
	{
		memset(&versions[k], 0, sizeof(msg_list));
		if (earlier[k].schema->format == new_schema->format)
			collect_messages(earlier[k].schema, &versions[k], arena);
		ok = !versions[k].failed;
	}
	if (ok)
		collect_messages(new_schema, &now, arena);
	ok = ok && !now.failed;
	if (ok && n_earlier > 0 && (rules & RG_LINT_DELETED_NOT_RESERVED))
		ok = each_removed_field(&versions[n_earlier - 1], &now, lint_deleted_field, out);
	if (ok && n_earlier > 0 && (rules & RG_LINT_REMOVED_WITHOUT_DEPRECATION))
		ok = each_removed_field(&versions[n_earlier - 1], &now, lint_removed_field, out);
	for (i = 0; ok && i < now.n; i++)
		for (j = 0; ok && now.items[i].msg->n_field <= LINT_MAX_FIELDS &&
			 j < now.items[i].msg->n_field; j++)
		{
			const FieldProto *g = now.items[i].msg->field[j];

			if (g->name == NULL)
				continue;
			ok = lint_field(now.items[i].name, g, versions, earlier, n_earlier, rules, out);
		}
	for (k = 0; versions != NULL && k < n_earlier; k++)
		rg_free(versions[k].items);
	rg_free(now.items);
	if (arena)
		rg_arena_destroy(arena);
	return ok;
}
