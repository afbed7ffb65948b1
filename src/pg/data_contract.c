/*-------------------------------------------------------------------------
 *
 * data_contract.c
 *	  Confluent's data contracts: a schema's metadata and rule set.
 *
 * Confluent reads both into entities (Metadata, RuleSet, Rule) that sort
 * their maps and sets, default a rule's kind and mode, and drop what they
 * do not know; what it stores, hashes and answers is those entities
 * written back.  So every metadata and rule set here is first brought to
 * that canonical form, which then is its identity and its answer.  The
 * merges are Confluent's: a newer metadata's properties and tags replace
 * an older's key by key and the sensitive names are united; a newer rule
 * replaces the older one of its name.  Rule sets are validated as
 * Confluent validates them (42210, Confluent's words).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <jansson.h>

#include "utils/fmgroids.h"

#include "data_contract.h"
#include "registry.h"
#include "rg_alloc.h"
#include "rg_json_text.h"

/* Confluent's longest rule name (Rule.NAME_MAX_LENGTH) */
#define DC_RULE_NAME_MAX 64

/* The rule lists of a rule set, in the order Confluent writes them. */
static const char *const rule_lists[] = {"migrationRules", "domainRules", "encodingRules"};

#define N_RULE_LISTS 3

static const char *const rule_kinds[] = {"TRANSFORM", "CONDITION", NULL};
static const char *const migration_modes[] = {"UPGRADE", "DOWNGRADE", "UPDOWN", NULL};
static const char *const domain_modes[] = {"WRITE", "READ", "WRITEREAD", NULL};

static void invalid_metadata(const char *why) pg_attribute_noreturn();
static void invalid_rule_set(const char *why) pg_attribute_noreturn();
static void invalid_config(const char *why) pg_attribute_noreturn();

/* A metadata that is not Confluent's Metadata entity: 42201. */
static void
invalid_metadata(const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
			 errmsg("invalid metadata: %s", why),
			 errdetail("Invalid metadata: %s", why)));
}

/* A rule set Confluent refuses: 42210 with its words. */
static void
invalid_rule_set(const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_INVALID_RULE_SET),
			 errmsg("invalid rule set: %s", why),
			 errdetail("%s", why)));
}

/* A configuration whose fields have the wrong types: 42203. */
static void
invalid_config(const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_INVALID_COMPATIBILITY),
			 errmsg("invalid configuration: %s", why),
			 errdetail("Invalid configuration: %s.", why)));
}

/*
 * Parse JSON text that PostgreSQL has already read as jsonb; what jansson
 * cannot hold (an integer past 64 bits, a real past a double, nesting past
 * its depth limit) is refused by refuse, never a 500.
 */
static json_t *
load(const char *json, void (*refuse) (const char *why))
{
	json_error_t jerr;
	json_t	   *doc = json_loads(json, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);

	if (doc == NULL)
		refuse(psprintf("unreadable JSON (%s)", jerr.text));
	return doc;
}

/* qsort/bsearch comparator of C strings by bytes (code point order of UTF-8). */
int
registry_cmp_cstrings(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* The keys of an object, sorted. */
static const char **
sorted_keys(json_t *object, size_t *n)
{
	const char **keys = palloc(sizeof(char *) * (json_object_size(object) + 1));
	const char *key;
	json_t	   *value;

	*n = 0;
	json_object_foreach(object, key, value)
		keys[(*n)++] = key;
	qsort(keys, *n, sizeof(char *), registry_cmp_cstrings);
	return keys;
}

/* The shortest decimal text that reads back as d (as a number's own digits mostly are). */
static char *
shortest_real(double d)
{
	int			precision;

	for (precision = 1; precision < 17; precision++)
	{
		char	   *text = psprintf("%.*g", precision, d);

		if (strtod(text, NULL) == d)
			return text;
	}
	return psprintf("%.17g", d);
}

/* A scalar as Jackson binds it to a Java String; NULL for anything else. */
static char *
scalar_text(json_t *v)
{
	if (json_is_string(v))
		return pnstrdup(json_string_value(v), json_string_length(v));
	if (json_is_integer(v))
		return psprintf("%lld", (long long) json_integer_value(v));
	if (json_is_real(v))
		return shortest_real(json_real_value(v));
	if (json_is_boolean(v))
		return pstrdup(json_is_true(v) ? "true" : "false");
	return NULL;
}

/* The text written into out, palloc'd; out is freed. */
static char *
finish(rg_buf *out)
{
	char	   *result = pstrdup(out->data);

	rg_buf_free(out);
	return result;
}

/* Write a JSON string the way Jackson writes one. */
static void
put_string(rg_buf *out, const char *s)
{
	rg_json_write_string_n(out, s, strlen(s));
}

/* Write ",", or nothing before an object's first member. */
static void
put_member(rg_buf *out, bool *first, const char *name)
{
	if (!*first)
		rg_buf_puts(out, ",");
	*first = false;
	put_string(out, name);
	rg_buf_puts(out, ":");
}

/*
 * A JSON array of strings as a sorted set of them (repeats dropped);
 * NULL when v is not such an array.
 */
static const char **
string_set(json_t *v, size_t *n, const char *what)
{
	const char **items;
	size_t		i,
				kept = 0;

	*n = 0;
	if (v == NULL || json_is_null(v))
		return NULL;
	if (!json_is_array(v))
		invalid_metadata(psprintf("%s must be an array of strings", what));
	items = palloc(sizeof(char *) * (json_array_size(v) + 1));
	for (i = 0; i < json_array_size(v); i++)
	{
		char	   *s = scalar_text(json_array_get(v, i));

		if (s == NULL)
			invalid_metadata(psprintf("%s must be an array of strings", what));
		items[kept++] = s;
	}
	qsort(items, kept, sizeof(char *), registry_cmp_cstrings);
	for (i = 0; i < kept; i++)
		if (*n == 0 || strcmp(items[*n - 1], items[i]) != 0)
			items[(*n)++] = items[i];
	return items;
}

/* Write a sorted set of strings as a JSON array. */
static void
put_set(rg_buf *out, const char **items, size_t n)
{
	size_t		i;

	rg_buf_puts(out, "[");
	for (i = 0; i < n; i++)
	{
		if (i > 0)
			rg_buf_puts(out, ",");
		put_string(out, items[i]);
	}
	rg_buf_puts(out, "]");
}

/* Write an object of string values with its keys sorted (a Java SortedMap<String, String>). */
static void
put_string_map(rg_buf *out, json_t *map, const char *what)
{
	size_t		n,
				i;
	const char **keys = sorted_keys(map, &n);

	rg_buf_puts(out, "{");
	for (i = 0; i < n; i++)
	{
		char	   *value = scalar_text(json_object_get(map, keys[i]));

		if (value == NULL)
			invalid_metadata(psprintf("the values of %s must be strings", what));
		if (i > 0)
			rg_buf_puts(out, ",");
		put_string(out, keys[i]);
		rg_buf_puts(out, ":");
		put_string(out, value);
	}
	rg_buf_puts(out, "}");
}

/* Is v absent, null, or an empty object or array (what NON_EMPTY leaves out)? */
static bool
is_empty(json_t *v)
{
	return v == NULL || json_is_null(v) ||
		(json_is_object(v) && json_object_size(v) == 0) ||
		(json_is_array(v) && json_array_size(v) == 0);
}

/* Write metadata's tags: each path with its sorted set of tags. */
static void
put_tags(rg_buf *out, json_t *tags)
{
	size_t		n,
				i;
	const char **keys = sorted_keys(tags, &n);

	rg_buf_puts(out, "{");
	for (i = 0; i < n; i++)
	{
		size_t		m;
		const char **set = string_set(json_object_get(tags, keys[i]), &m, "a path's tags");

		if (i > 0)
			rg_buf_puts(out, ",");
		put_string(out, keys[i]);
		rg_buf_puts(out, ":");
		put_set(out, set, m);
	}
	rg_buf_puts(out, "}");
}

/* Confluent's Metadata entity written back from a parsed document. */
static char *
metadata_text(json_t *doc)
{
	rg_buf		out;
	bool		first = true;
	json_t	   *tags = json_object_get(doc, "tags");
	json_t	   *properties = json_object_get(doc, "properties");
	json_t	   *sensitive = json_object_get(doc, "sensitive");
	size_t		n;
	const char **set;

	if ((!is_empty(tags) && !json_is_object(tags)) ||
		(!is_empty(properties) && !json_is_object(properties)))
		invalid_metadata("tags and properties must be objects");
	set = string_set(sensitive, &n, "sensitive");
	rg_buf_init(&out);
	rg_buf_puts(&out, "{");
	if (!is_empty(tags))
	{
		put_member(&out, &first, "tags");
		put_tags(&out, tags);
	}
	if (!is_empty(properties))
	{
		put_member(&out, &first, "properties");
		put_string_map(&out, properties, "properties");
	}
	if (n > 0)
	{
		put_member(&out, &first, "sensitive");
		put_set(&out, set, n);
	}
	rg_buf_puts(&out, "}");
	return finish(&out);
}

/*
 * The canonical form of a document that must be an object (JSON null is
 * none), written by write; refused by refuse otherwise.
 */
static char *
canonical_object(const char *json, char *(*write) (json_t *doc),
				 void (*refuse) (const char *why), const char *why)
{
	json_t	   *doc;
	char	   *result = NULL;

	if (json == NULL)
		return NULL;
	doc = load(json, refuse);
	if (!json_is_null(doc) && !json_is_object(doc))
		refuse(why);
	if (json_is_object(doc))
		result = write(doc);
	json_decref(doc);
	return result;
}

/* The canonical form of a metadata (see data_contract.h). */
char *
dc_metadata_canonical(const char *json)
{
	return canonical_object(json, metadata_text, invalid_metadata, "it must be an object");
}

/* Is word one of a NULL-terminated list? */
static bool
one_of(const char *word, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(word, *list) == 0)
			return true;
	return false;
}

/* A rule's optional string member; 42210 when it is there but not a string. */
static const char *
rule_string(json_t *rule, const char *name)
{
	json_t	   *v = json_object_get(rule, name);

	if (v == NULL || json_is_null(v))
		return NULL;
	if (!json_is_string(v))
		invalid_rule_set(psprintf("Rule %s must be a string", name));
	return json_string_value(v);
}

/*
 * Confluent's Rule.validateName: a letter or '_', then letters, digits,
 * '_' or '-', at most 64 characters (bytes past ASCII count as letters,
 * as Java's Character.isLetter has most of them).
 */
static void
validate_rule_name(const char *name)
{
	const unsigned char *p;
	int			length = 0;

	if (name == NULL)
		invalid_rule_set("Missing rule name");
	if (name[0] == '\0')
		invalid_rule_set("Empty rule name");
	for (p = (const unsigned char *) name; *p; p++)
		if ((*p & 0xC0) != 0x80)
			length++;
	if (length > DC_RULE_NAME_MAX)
		invalid_rule_set("Rule name too long");
	p = (const unsigned char *) name;
	if (!(isalpha(*p) || *p == '_' || *p >= 0x80))
		invalid_rule_set(psprintf("Illegal initial character in rule name: %s", name));
	for (p++; *p; p++)
		if (!(isalnum(*p) || *p == '_' || *p == '-' || *p >= 0x80))
			invalid_rule_set(psprintf("Illegal character in rule name: %s", name));
}

/* Confluent's Rule.validateAction: two actions only for WRITEREAD and UPDOWN. */
static void
validate_action(const char *mode, const char *action)
{
	if (action != NULL && strchr(action, ',') != NULL &&
		strcmp(mode, "WRITEREAD") != 0 && strcmp(mode, "UPDOWN") != 0)
		invalid_rule_set("Multiple actions only valid with WRITEREAD and UPDOWN");
}

/* The rule's mode must belong to its list (RuleSet.validate's words). */
static void
validate_mode_for_list(int list, const char *mode)
{
	if (list == 0 && !one_of(mode, migration_modes))
		invalid_rule_set("Migration rules can only be UPGRADE, DOWNGRADE, UPDOWN");
	if (list == 1 && !one_of(mode, domain_modes))
		invalid_rule_set("Domain rules can only be WRITE, READ, WRITEREAD");
	if (list == 2 && !one_of(mode, domain_modes))
		invalid_rule_set("Encoding rules can only be WRITE, READ, WRITEREAD");
}

/* A rule's enum member, defaulted as Confluent's Rule constructor does. */
static const char *
rule_enum(json_t *rule, const char *name, const char *dflt, const char *const *allowed)
{
	const char *v = rule_string(rule, name);

	if (v == NULL)
		return dflt;
	if (!one_of(v, allowed))
		invalid_rule_set(psprintf("Invalid rule %s %s", name, v));
	return v;
}

/* Write one optional string member of a rule. */
static void
put_optional(rg_buf *out, bool *first, const char *name, const char *value)
{
	if (value == NULL)
		return;
	put_member(out, first, name);
	put_string(out, value);
}

static const char *const all_modes[] = {"UPGRADE", "DOWNGRADE", "UPDOWN", "WRITE", "READ",
"WRITEREAD", NULL};

/* Validate one rule of list `list` and write it as Confluent's Rule entity. */
static void
put_rule(rg_buf *out, int list, json_t *rule)
{
	bool		first = true;
	const char *name;
	const char *kind;
	const char *mode;
	const char *type;
	json_t	   *tags;
	json_t	   *params;
	json_t	   *disabled;
	size_t		ntags;
	const char **tagset;

	if (!json_is_object(rule))
		invalid_rule_set("A rule must be an object");
	name = rule_string(rule, "name");
	kind = rule_enum(rule, "kind", "TRANSFORM", rule_kinds);
	mode = rule_enum(rule, "mode", "WRITEREAD", all_modes);
	type = rule_string(rule, "type");
	validate_rule_name(name);
	if (type == NULL)
		invalid_rule_set("Missing rule type");
	validate_action(mode, rule_string(rule, "onSuccess"));
	validate_action(mode, rule_string(rule, "onFailure"));
	validate_mode_for_list(list, mode);
	tags = json_object_get(rule, "tags");
	params = json_object_get(rule, "params");
	disabled = json_object_get(rule, "disabled");
	if (!is_empty(params) && !json_is_object(params))
		invalid_rule_set("Rule params must be an object of strings");
	if (disabled != NULL && !json_is_null(disabled) && !json_is_boolean(disabled))
		invalid_rule_set("Rule disabled must be a boolean");

	rg_buf_puts(out, "{");
	put_optional(out, &first, "name", name);
	put_optional(out, &first, "doc", rule_string(rule, "doc"));
	put_optional(out, &first, "kind", kind);
	put_optional(out, &first, "mode", mode);
	put_optional(out, &first, "type", type);
	tagset = string_set(tags, &ntags, "a rule's tags");
	if (ntags > 0)
	{
		put_member(out, &first, "tags");
		put_set(out, tagset, ntags);
	}
	if (!is_empty(params))
	{
		put_member(out, &first, "params");
		put_string_map(out, params, "params");
	}
	put_optional(out, &first, "expr", rule_string(rule, "expr"));
	put_optional(out, &first, "onSuccess", rule_string(rule, "onSuccess"));
	put_optional(out, &first, "onFailure", rule_string(rule, "onFailure"));
	put_member(out, &first, "disabled");
	rg_buf_puts(out, json_is_true(disabled) ? "true" : "false");
	rg_buf_puts(out, "}");
}

/* Refuse a rule whose name an earlier rule of the set has (RuleSet.validate). */
static void
check_unique_name(json_t *seen, json_t *rule)
{
	const char *name = json_is_object(rule) ? rule_string(rule, "name") : NULL;

	if (name == NULL)
		return;
	if (json_object_get(seen, name) != NULL)
		invalid_rule_set(psprintf("Found rule with duplicate name '%s'", name));
	json_object_set_new(seen, name, json_true());
}

/* Confluent's RuleSet entity written back from a parsed document, validated. */
static char *
rule_set_text(json_t *doc)
{
	rg_buf		out;
	bool		first = true;
	json_t	   *seen = rg_json_new_object();
	int			list;

	rg_buf_init(&out);
	rg_buf_puts(&out, "{");
	for (list = 0; list < N_RULE_LISTS; list++)
	{
		json_t	   *rules = json_object_get(doc, rule_lists[list]);
		size_t		i;

		if (is_empty(rules))
			continue;
		if (!json_is_array(rules))
			invalid_rule_set(psprintf("%s must be an array of rules", rule_lists[list]));
		put_member(&out, &first, rule_lists[list]);
		rg_buf_puts(&out, "[");
		for (i = 0; i < json_array_size(rules); i++)
		{
			json_t	   *rule = json_array_get(rules, i);

			check_unique_name(seen, rule);
			if (i > 0)
				rg_buf_puts(&out, ",");
			put_rule(&out, list, rule);
		}
		rg_buf_puts(&out, "]");
	}
	rg_buf_puts(&out, "}");
	json_decref(seen);
	return finish(&out);
}

/* The canonical form of a rule set, validated (see data_contract.h). */
char *
dc_rule_set_canonical(const char *json)
{
	return canonical_object(json, rule_set_text, invalid_rule_set, "A rule set must be an object");
}

/* --- identity: the bytes Confluent's updateHash feeds MD5 ------------------ */

/* A string's UTF-8 bytes (nothing for anything else). */
static void
hash_string(StringInfo buf, json_t *v)
{
	if (json_is_string(v))
		appendBinaryStringInfo(buf, json_string_value(v), json_string_length(v));
}

/* Each string of an array, in order (a sorted set in the canonical form). */
static void
hash_strings(StringInfo buf, json_t *array)
{
	size_t		i;

	for (i = 0; json_is_array(array) && i < json_array_size(array); i++)
		hash_string(buf, json_array_get(array, i));
}

/* A map by sorted key: each key, then its value (a string, or a set of them). */
static void
hash_map(StringInfo buf, json_t *map)
{
	size_t		n,
				i;
	const char **keys;

	if (!json_is_object(map))
		return;
	keys = sorted_keys(map, &n);
	for (i = 0; i < n; i++)
	{
		json_t	   *value = json_object_get(map, keys[i]);

		appendBinaryStringInfo(buf, keys[i], strlen(keys[i]));
		hash_string(buf, value);
		hash_strings(buf, value);
	}
}

/*
 * Append what Confluent's Metadata.updateHash digests, after the byte 1
 * that Schema.updateHash puts before a present metadata: the tags (each
 * path, then its tags), the properties (each key, then its value) and the
 * sensitive names, all sorted.  canonical is dc_metadata_canonical's form
 * (NULL: absent, nothing appended).
 */
void
dc_metadata_identity(const char *canonical, StringInfo buf)
{
	json_t	   *doc;

	if (canonical == NULL)
		return;
	doc = load(canonical, invalid_metadata);
	appendStringInfoChar(buf, '\1');
	hash_map(buf, json_object_get(doc, "tags"));
	hash_map(buf, json_object_get(doc, "properties"));
	hash_strings(buf, json_object_get(doc, "sensitive"));
	json_decref(doc);
}

/*
 * Append what Confluent's RuleSet.updateHash digests, after the byte 1 of
 * a present rule set: the migration, domain and encoding rules in order,
 * each as Rule.updateHash has it (name, doc, kind, mode, type, its tags,
 * its params by key, expr, onSuccess, onFailure, and a byte 1 when
 * disabled).  canonical is dc_rule_set_canonical's form (NULL: absent).
 */
void
dc_rule_set_identity(const char *canonical, StringInfo buf)
{
	static const char *const before_tags[] = {"name", "doc", "kind", "mode", "type"};
	static const char *const after_params[] = {"expr", "onSuccess", "onFailure"};
	json_t	   *doc;
	int			list;

	if (canonical == NULL)
		return;
	doc = load(canonical, invalid_rule_set);
	appendStringInfoChar(buf, '\1');
	for (list = 0; list < N_RULE_LISTS; list++)
	{
		json_t	   *rules = json_object_get(doc, rule_lists[list]);
		size_t		i;

		for (i = 0; json_is_array(rules) && i < json_array_size(rules); i++)
		{
			json_t	   *rule = json_array_get(rules, i);

			for (int m = 0; m < lengthof(before_tags); m++)
				hash_string(buf, json_object_get(rule, before_tags[m]));
			hash_strings(buf, json_object_get(rule, "tags"));
			hash_map(buf, json_object_get(rule, "params"));
			for (int m = 0; m < lengthof(after_params); m++)
				hash_string(buf, json_object_get(rule, after_params[m]));
			if (json_is_true(json_object_get(rule, "disabled")))
				appendStringInfoChar(buf, '\1');
		}
	}
	json_decref(doc);
}

/*
 * Confluent's merge of two maps of a metadata: the newer's keys replace
 * the older's (an empty side gives the other).
 */
static void
merge_map(json_t *into, json_t *older, json_t *newer, const char *member)
{
	json_t	   *a = json_object_get(older, member);
	json_t	   *b = json_object_get(newer, member);
	json_t	   *merged;

	if (is_empty(a) && is_empty(b))
		return;
	merged = rg_json_new_object();
	if (!is_empty(a))
		json_object_update(merged, a);
	if (!is_empty(b))
		json_object_update(merged, b);
	json_object_set_new(into, member, merged);
}

/* The union of two metadata's sensitive sets. */
static void
merge_set(json_t *into, json_t *older, json_t *newer, const char *member)
{
	json_t	   *a = json_object_get(older, member);
	json_t	   *b = json_object_get(newer, member);
	json_t	   *merged = json_array();

	if (!is_empty(a))
		json_array_extend(merged, a);
	if (!is_empty(b))
		json_array_extend(merged, b);
	json_object_set_new(into, member, merged);
}

/* Confluent's Metadata.mergeMetadata(older, newer), canonical. */
char *
dc_metadata_merge(const char *older, const char *newer)
{
	json_t	   *a;
	json_t	   *b;
	json_t	   *merged;
	char	   *result;

	if (older == NULL)
		return dc_metadata_canonical(newer);
	if (newer == NULL)
		return dc_metadata_canonical(older);
	a = load(older, invalid_metadata);
	b = load(newer, invalid_metadata);
	merged = rg_json_new_object();
	merge_map(merged, a, b, "tags");
	merge_map(merged, a, b, "properties");
	merge_set(merged, a, b, "sensitive");
	result = metadata_text(merged);
	json_decref(merged);
	json_decref(a);
	json_decref(b);
	return result;
}

/*
 * Confluent's RuleSet merge of one list: the older rules without a newer
 * rule of their name, then the newer rules.
 */
static void
merge_rules(json_t *into, json_t *older, json_t *newer, const char *member)
{
	json_t	   *a = json_object_get(older, member);
	json_t	   *b = json_object_get(newer, member);
	json_t	   *merged;
	json_t	   *names;
	size_t		i;

	if (is_empty(a) || is_empty(b))
	{
		if (!is_empty(a) || !is_empty(b))
			json_object_set(into, member, is_empty(b) ? a : b);
		return;
	}
	names = rg_json_new_object();
	for (i = 0; i < json_array_size(b); i++)
	{
		const char *name = json_string_value(json_object_get(json_array_get(b, i), "name"));

		if (name)
			json_object_set_new(names, name, json_true());
	}
	merged = json_array();
	for (i = 0; i < json_array_size(a); i++)
	{
		json_t	   *rule = json_array_get(a, i);
		const char *name = json_string_value(json_object_get(rule, "name"));

		if (name == NULL || json_object_get(names, name) == NULL)
			json_array_append(merged, rule);
	}
	json_array_extend(merged, b);
	json_object_set_new(into, member, merged);
	json_decref(names);
}

/* Confluent's RuleSet.mergeRuleSets(older, newer), canonical. */
char *
dc_rule_set_merge(const char *older, const char *newer)
{
	json_t	   *a;
	json_t	   *b;
	json_t	   *merged;
	char	   *result;
	int			list;

	if (older == NULL)
		return dc_rule_set_canonical(newer);
	if (newer == NULL)
		return dc_rule_set_canonical(older);
	a = load(older, invalid_rule_set);
	b = load(newer, invalid_rule_set);
	merged = rg_json_new_object();
	for (list = 0; list < N_RULE_LISTS; list++)
		merge_rules(merged, a, b, rule_lists[list]);
	result = rule_set_text(merged);
	json_decref(merged);
	json_decref(a);
	json_decref(b);
	return result;
}

/* A JSON array of rule names as an object with those keys (42210 for anything else). */
static json_t *
name_set(const char *names)
{
	json_t	   *list = load(names, invalid_rule_set);
	json_t	   *set = rg_json_new_object();
	size_t		i;

	if (!json_is_array(list))
		invalid_rule_set("rulesToRemove must be a list of rule names");
	for (i = 0; i < json_array_size(list); i++)
	{
		json_t	   *name = json_array_get(list, i);

		if (!json_is_string(name))
			invalid_rule_set("rulesToRemove must be a list of rule names");
		json_object_set_new(set, json_string_value(name), json_true());
	}
	json_decref(list);
	return set;
}

/*
 * A rule set without the rules named in names (a JSON array of strings),
 * as Confluent's rulesToRemove takes them out of every list.
 */
char *
dc_rule_set_without(const char *rule_set, const char *names)
{
	json_t	   *doc;
	json_t	   *drop;
	char	   *result;
	int			list;

	if (rule_set == NULL)
		return NULL;
	doc = load(rule_set, invalid_rule_set);
	drop = name_set(names);
	for (list = 0; list < N_RULE_LISTS; list++)
	{
		json_t	   *rules = json_object_get(doc, rule_lists[list]);
		size_t		i = 0;

		while (json_is_array(rules) && i < json_array_size(rules))
		{
			json_t	   *name = json_object_get(json_array_get(rules, i), "name");

			if (json_is_string(name) && json_object_get(drop, json_string_value(name)) != NULL)
				json_array_remove(rules, i);
			else
				i++;
		}
	}
	result = rule_set_text(doc);
	json_decref(doc);
	json_decref(drop);
	return result;
}

/* Metadata.setConfluentVersion: the confluent:version property set to version. */
char *
dc_metadata_with_version(const char *metadata, int version)
{
	char	   *props = psprintf("{\"properties\":{\"%s\":\"%d\"}}", DC_CONFLUENT_VERSION, version);

	return dc_metadata_merge(metadata, props);
}

/* The metadata without its confluent:version property (canonical). */
char *
dc_metadata_without_version(const char *metadata)
{
	json_t	   *doc;
	char	   *result;

	if (metadata == NULL)
		return NULL;
	doc = load(metadata, invalid_metadata);
	if (!json_is_object(doc))
		invalid_metadata("it must be an object");
	json_object_del(json_object_get(doc, "properties"), DC_CONFLUENT_VERSION);
	result = metadata_text(doc);
	json_decref(doc);
	return result;
}

/* A property of a metadata (NULL when it has none of that name). */
char *
dc_metadata_property(const char *metadata, const char *key)
{
	json_t	   *doc;
	char	   *value = NULL;

	if (metadata == NULL)
		return NULL;
	doc = load(metadata, invalid_metadata);
	if (json_is_object(doc))
		value = scalar_text(json_object_get(json_object_get(doc, "properties"), key));
	json_decref(doc);
	return value;
}

/* Sort strings and drop repeats (a Java Set of them, in byte order); *n is updated. */
static char **
sorted_unique(char **items, int *n)
{
	int			kept = 0;
	int			i;

	qsort(items, *n, sizeof(char *), registry_cmp_cstrings);
	for (i = 0; i < *n; i++)
		if (kept == 0 || strcmp(items[kept - 1], items[i]) != 0)
			items[kept++] = items[i];
	*n = kept;
	return items;
}

/* The names of the confluent:reserved property, split at commas and trimmed, sorted, once each. */
char	  **
dc_reserved_fields(const char *metadata, int *n)
{
	char	   *list = dc_metadata_property(metadata, DC_CONFLUENT_RESERVED);
	char	  **names;
	char	   *p;

	*n = 0;
	if (list == NULL)
		return NULL;
	names = palloc(sizeof(char *) * (strlen(list) / 2 + 2));
	for (p = list; p != NULL;)
	{
		char	   *comma = strchr(p, ',');
		char	   *end;

		if (comma)
			*comma = '\0';
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		end = p + strlen(p);
		while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
			*--end = '\0';
		if (*p)
			names[(*n)++] = p;
		p = comma ? comma + 1 : NULL;
	}
	return sorted_unique(names, n);
}

/*
 * Refuse a config whose fields Confluent would not read: a boolean or a
 * string of another type (42203), data contract defaults or overrides it
 * would refuse (42201 for a metadata, 42210 for a rule set).
 */
void
dc_check_config(const char *settings)
{
	json_t	   *doc;
	const char *key;
	json_t	   *value;

	if (settings == NULL)
		return;
	doc = load(settings, invalid_config);
	json_object_foreach(doc, key, value)
	{
		char	   *text = json_dumps(value, JSON_ENCODE_ANY);

		if ((strcmp(key, "validateFields") == 0 || strcmp(key, "normalize") == 0) &&
			!json_is_boolean(value) && !json_is_null(value))
			invalid_config(psprintf("%s must be a boolean", key));
		if ((strcmp(key, "compatibilityGroup") == 0 || strcmp(key, "alias") == 0 ||
			 strcmp(key, "compatibilityPolicy") == 0) &&
			!json_is_string(value) && !json_is_null(value))
			invalid_config(psprintf("%s must be a string", key));
		if (strcmp(key, "lint") == 0 && !json_is_null(value) &&
			(!json_is_string(value) || !rg_lint_mode_parse(json_string_value(value), NULL)))
			invalid_config("lint must be NONE, WARN or FAIL");
		if (strcmp(key, "lintRules") == 0 && !json_is_null(value) &&
			(!json_is_string(value) || !rg_lint_rules_parse(json_string_value(value), NULL)))
			invalid_config("lintRules must be lint names or DATA_LOSS, PRACTICES or ALL, "
						   "separated by commas");
		if (strcmp(key, "defaultMetadata") == 0 || strcmp(key, "overrideMetadata") == 0)
			(void) dc_metadata_canonical(text);
		else if (strcmp(key, "defaultRuleSet") == 0 || strcmp(key, "overrideRuleSet") == 0)
			(void) dc_rule_set_canonical(text);
		rg_free(text);
	}
	json_decref(doc);
}

/* A metadata or rule set as a jsonb datum, or SQL NULL. */
Datum
dc_jsonb_datum(const char *json, bool *isnull)
{
	*isnull = (json == NULL);
	return json ? OidFunctionCall1(F_JSONB_IN, CStringGetDatum(json)) : (Datum) 0;
}
