/*-------------------------------------------------------------------------
 *
 * avro_lint.c
 *	  The Avro lints: a rename that silently loses data, and the evolution
 *	  practices (rg_lint.h).
 *
 * Avro's resolution matches a reader's fields to a writer's by name and
 * by the reader field's aliases.  A field renamed without an alias naming
 * its old name is, to Avro, one field removed and one added; with a
 * default on the new one, BACKWARD accepts it, and every old record is
 * then read with the default in place of its value.  The lint reports, in
 * each record of the new schema that the latest earlier version also has
 * (by full name or by the new record's aliases), every removed field that
 * an added field of the same type with a default could be the rename of.
 *
 * The practices, in the same records against the latest earlier version:
 * a field removed that was not deprecated there (a "deprecated" property,
 * or a doc starting "Deprecated"); a field added (any field of a first
 * version) without a default, or whose union is not led by "null"; a
 * field whose type changed, named a widening when it is one of Avro's
 * promotions, a narrowing when it is one reversed.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_avro.h"
#include "rg_compat.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* the widest record the lints look at (they compare its fields pairwise) */
#define LINT_MAX_FIELDS 1000

/* the records of one schema, each once, in the order first reached */
typedef struct record_list
{
	const rg_avro_schema **items;
	int			n;
	int			cap;
	bool		failed;			/* out of memory, or too deep */
} record_list;

/* add a record unless it is there; false when it was there */
static bool
remember_record(record_list *list, const rg_avro_schema *r)
{
	int			i;

	for (i = 0; i < list->n; i++)
		if (list->items[i] == r)
			return false;
	if (list->n == list->cap)
	{
		int			cap = list->cap ? list->cap * 2 : 16;
		const rg_avro_schema **items = rg_realloc(list->items, sizeof(*items) * cap);

		if (items == NULL)
		{
			list->failed = true;
			return false;
		}
		list->items = items;
		list->cap = cap;
	}
	list->items[list->n++] = r;
	return true;
}

/* every record reachable from s */
static void
collect_records(const rg_avro_schema *s, record_list *list, int depth)
{
	int			i;

	if (s == NULL || list->failed)
		return;
	if (rg_too_deep(depth))
	{
		list->failed = true;
		return;
	}
	switch (s->type)
	{
		case RG_AVRO_RECORD:
			if (!remember_record(list, s))
				return;
			for (i = 0; i < s->n_fields; i++)
				collect_records(s->fields[i].type, list, depth + 1);
			break;
		case RG_AVRO_ARRAY:
		case RG_AVRO_MAP:
			collect_records(s->items, list, depth + 1);
			break;
		case RG_AVRO_UNION:
			for (i = 0; i < s->n_branches; i++)
				collect_records(s->branches[i], list, depth + 1);
			break;
		default:
			break;
	}
}

/* Are a and b the same type, as a renamed field keeps its type? */
static bool
same_type(const rg_avro_schema *a, const rg_avro_schema *b, int depth)
{
	const char *la;
	const char *lb;
	int			i;

	if (a->type != b->type || rg_too_deep(depth))
		return false;
	switch (a->type)
	{
		case RG_AVRO_RECORD:
		case RG_AVRO_ENUM:
		case RG_AVRO_FIXED:
			return strcmp(a->fullname, b->fullname) == 0;
		case RG_AVRO_ARRAY:
		case RG_AVRO_MAP:
			return same_type(a->items, b->items, depth + 1);
		case RG_AVRO_UNION:
			if (a->n_branches != b->n_branches)
				return false;
			for (i = 0; i < a->n_branches; i++)
				if (!same_type(a->branches[i], b->branches[i], depth + 1))
					return false;
			return true;
		default:
			la = rg_avro_string_prop(a, "logicalType");
			lb = rg_avro_string_prop(b, "logicalType");
			return (la == NULL && lb == NULL) ||
				(la != NULL && lb != NULL && strcmp(la, lb) == 0);
	}
}

/* Is name the name of field f, or one of its aliases (a reader's match)? */
static bool
field_matches(const rg_avro_field *f, const char *name)
{
	int			i;

	if (strcmp(f->name, name) == 0)
		return true;
	for (i = 0; i < f->extra->n_aliases; i++)
		if (strcmp(f->extra->aliases[i], name) == 0)
			return true;
	return false;
}

/* The field of record r that reads the field named name, or NULL. */
static const rg_avro_field *
reading_field(const rg_avro_schema *r, const char *name)
{
	int			i;

	for (i = 0; i < r->n_fields; i++)
		if (field_matches(&r->fields[i], name))
			return &r->fields[i];
	return NULL;
}

/* Does the old record have a field the new field f reads? */
static bool
reads_an_old_field(const rg_avro_field *f, const rg_avro_schema *old)
{
	int			i;

	for (i = 0; i < old->n_fields; i++)
		if (field_matches(f, old->fields[i].name))
			return true;
	return false;
}

/* The record of old the new record reads: the same full name, or an alias. */
static const rg_avro_schema *
old_record_for(const rg_avro_schema *r, const record_list *old)
{
	int			i;
	int			j;

	for (i = 0; i < old->n; i++)
		if (strcmp(old->items[i]->fullname, r->fullname) == 0)
			return old->items[i];
	for (i = 0; i < old->n; i++)
		for (j = 0; j < r->n_aliases; j++)
			if (strcmp(old->items[i]->fullname, r->aliases[j]) == 0)
				return old->items[i];
	return NULL;
}

/* The renames without an alias between one record's two versions. */
static bool
lint_record(const rg_avro_schema *old, const rg_avro_schema *r, rg_strlist *out)
{
	int			i;
	int			j;

	for (i = 0; i < old->n_fields; i++)
	{
		const rg_avro_field *gone = &old->fields[i];

		if (reading_field(r, gone->name) != NULL)
			continue;
		for (j = 0; j < r->n_fields; j++)
		{
			const rg_avro_field *added = &r->fields[j];

			if (added->default_value == NULL || reads_an_old_field(added, old) ||
				!same_type(gone->type, added->type, 0))
				continue;
			if (!rg_strlist_pushf(out,
								  "{lintType:'FIELD_RENAMED_WITHOUT_ALIAS', description:'The field '%s' "
								  "of record '%s' was removed and the field '%s' of the same type was added "
								  "with a default and no alias '%s': if it is a rename, every record written "
								  "before is read with the default instead of its value; add \"aliases\": "
								  "[\"%s\"] to the field '%s'', additionalInfo:'%s -> %s'}",
								  gone->name, r->fullname, added->name, gone->name,
								  gone->name, added->name, gone->name, added->name))
				return false;
		}
	}
	return true;
}

/* Was the field marked deprecated: a "deprecated" property, or a doc starting "Deprecated"? */
static bool
deprecated(const rg_avro_field *f)
{
	const char *doc = f->extra->doc;
	int			i;

	for (i = 0; i < f->extra->n_props; i++)
		if (strcmp(f->extra->props[i].key, "deprecated") == 0)
			return !json_is_false(f->extra->props[i].value) &&
				!json_is_null(f->extra->props[i].value);
	return doc != NULL && strncasecmp(doc, "deprecated", 10) == 0;
}

/* FIELD_REMOVED_WITHOUT_DEPRECATION between one record's two versions */
static bool
lint_removed(const rg_avro_schema *old, const rg_avro_schema *r, rg_strlist *out)
{
	int			i;

	for (i = 0; i < old->n_fields; i++)
	{
		const rg_avro_field *gone = &old->fields[i];

		if (reading_field(r, gone->name) != NULL || deprecated(gone))
			continue;
		if (!rg_strlist_pushf(out,
							  "{lintType:'FIELD_REMOVED_WITHOUT_DEPRECATION', description:'The field "
							  "'%s' of record '%s' was removed without being deprecated first: mark "
							  "it deprecated (\"deprecated\": true, or a doc starting \"Deprecated\") "
							  "in one version, stop writing it, and remove it in a later one', "
							  "additionalInfo:'%s.%s'}",
							  gone->name, r->fullname, r->fullname, gone->name))
			return false;
	}
	return true;
}

/* FIELD_WITHOUT_DEFAULT for the fields of r that old (NULL: none) does not have */
static bool
lint_defaults(const rg_avro_schema *old, const rg_avro_schema *r, rg_strlist *out)
{
	int			i;

	for (i = 0; i < r->n_fields; i++)
	{
		const rg_avro_field *f = &r->fields[i];
		bool		union_not_null = f->type->type == RG_AVRO_UNION &&
		f->type->n_branches > 0 && f->type->branches[0]->type != RG_AVRO_NULL;

		if ((old != NULL && reads_an_old_field(f, old)) ||
			(f->default_value != NULL && !union_not_null))
			continue;
		if (!rg_strlist_pushf(out,
							  "{lintType:'FIELD_WITHOUT_DEFAULT', description:'The field '%s' of "
							  "record '%s' %s: a field that readers need a value for can never be "
							  "removed without breaking them; make it optional from its first "
							  "version (a union led by \"null\" with \"default\": null, or a "
							  "default of its type)', additionalInfo:'%s.%s'}",
							  f->name, r->fullname,
							  f->default_value == NULL ? "has no default" :
							  "is a union not led by \"null\", so it cannot default to null",
							  r->fullname, f->name))
			return false;
	}
	return true;
}

/* Does Avro promote a writer's from to a reader's to (int to long, string to bytes, ...)? */
static bool
promotes(rg_avro_type from, rg_avro_type to)
{
	switch (from)
	{
		case RG_AVRO_INT:
			return to == RG_AVRO_LONG || to == RG_AVRO_FLOAT || to == RG_AVRO_DOUBLE;
		case RG_AVRO_LONG:
			return to == RG_AVRO_FLOAT || to == RG_AVRO_DOUBLE;
		case RG_AVRO_FLOAT:
			return to == RG_AVRO_DOUBLE;
		case RG_AVRO_STRING:
			return to == RG_AVRO_BYTES;
		case RG_AVRO_BYTES:
			return to == RG_AVRO_STRING;
		default:
			return false;
	}
}

/* What a change of a field's type from a to b does to its readers, in words. */
static const char *
change_direction(const rg_avro_schema *a, const rg_avro_schema *b, const char **word)
{
	bool		plain = rg_avro_string_prop(a, "logicalType") == NULL &&
	rg_avro_string_prop(b, "logicalType") == NULL;

	if (plain && promotes(a->type, b->type) && !promotes(b->type, a->type))
	{
		*word = "widened";
		return "a promotion: readers of the new schema read old data, but readers of the "
			"old schema cannot read new data";
	}
	if (plain && promotes(b->type, a->type) && !promotes(a->type, b->type))
	{
		*word = "narrowed";
		return "a narrowing: readers of the new schema cannot read data written with "
			"the old type";
	}
	*word = "changed";
	return "readers of one schema may not read data written with the other";
}

/* FIELD_TYPE_CHANGED between one record's two versions */
static bool
lint_types(const rg_avro_schema *old, const rg_avro_schema *r, rg_strlist *out)
{
	int			i;
	char		ta[512];
	char		tb[512];

	for (i = 0; i < old->n_fields; i++)
	{
		const rg_avro_field *was = &old->fields[i];
		const rg_avro_field *now = reading_field(r, was->name);
		const char *word;
		const char *what;

		if (now == NULL || same_type(was->type, now->type, 0))
			continue;
		rg_avro_type_text(was->type, ta, sizeof(ta));
		rg_avro_type_text(now->type, tb, sizeof(tb));
		what = change_direction(was->type, now->type, &word);
		if (!rg_strlist_pushf(out,
							  "{lintType:'FIELD_TYPE_CHANGED', description:'The field '%s' of record "
							  "'%s' changed type from %s to %s (%s): %s', "
							  "additionalInfo:'%s.%s: %s -> %s (%s)'}",
							  now->name, r->fullname, ta, tb, word, what,
							  r->fullname, now->name, ta, tb, word))
			return false;
	}
	return true;
}

/* The lints in rules of one record of the new schema against its old version (or NULL). */
static bool
lint_one_record(const rg_avro_schema *old, const rg_avro_schema *r, rg_lint_rules rules,
				rg_strlist *out)
{
	/*
	 * the lints compare fields pairwise: a record wider than this is not
	 * linted
	 */
	if (r->n_fields > LINT_MAX_FIELDS || (old != NULL && old->n_fields > LINT_MAX_FIELDS))
		return true;
	if (old != NULL && (rules & RG_LINT_RENAMED_WITHOUT_ALIAS) && !lint_record(old, r, out))
		return false;
	if (old != NULL && (rules & RG_LINT_REMOVED_WITHOUT_DEPRECATION) && !lint_removed(old, r, out))
		return false;
	if ((rules & RG_LINT_WITHOUT_DEFAULT) && !lint_defaults(old, r, out))
		return false;
	if (old != NULL && (rules & RG_LINT_TYPE_CHANGED) && !lint_types(old, r, out))
		return false;
	return true;
}

/* See rg_avro_api.h */
bool
rg_avro_lint(const rg_schema *new_schema, const struct rg_prior_version *earlier,
			 int n_earlier, rg_lint_rules rules, rg_strlist *out)
{
	const rg_avro_parsed *now = new_schema->model;
	record_list old_records = {0};
	record_list new_records = {0};
	bool		ok = true;
	int			i;

	if (n_earlier > 0 && earlier[n_earlier - 1].schema->format != new_schema->format)
		return true;
	if (n_earlier > 0)
	{
		const rg_avro_parsed *before = earlier[n_earlier - 1].schema->model;

		collect_records(before->root, &old_records, 0);
	}
	collect_records(now->root, &new_records, 0);
	for (i = 0; ok && i < new_records.n; i++)
		ok = lint_one_record(old_record_for(new_records.items[i], &old_records),
							 new_records.items[i], rules, out);
	rg_free(old_records.items);
	rg_free(new_records.items);
	return ok && !old_records.failed && !new_records.failed;
}
