/*-------------------------------------------------------------------------
 *
 * json_load.c
 *	  A JSON Schema document -> rg_js nodes, as everit-json-schema's
 *	  SchemaLoader builds its schema classes for Confluent.
 *
 * A schema object runs everit's extractors in their order, each seeing
 * only the keywords the ones before it left: $ref alone (its siblings are
 * left unprocessed), else enum, allOf / oneOf / anyOf (in that order: a
 * HashSet of the three names), not, const (not in draft 4), type (a
 * "type" array is an anyOf of one schema per type; "integer" is a number
 * that requires an integer), then the sniffer, which builds a schema for
 * each kind whose keywords are left (array, object, number, string, and
 * if/then/else from draft 7 on) without requiring the type.  No schema is
 * the empty schema, one is itself, several are a synthetic allOf in that
 * order.  id, title, description, examples, readOnly and writeOnly (draft
 * 7) and default belong to the schema returned; what no one consumed is
 * kept as its unprocessed properties.
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"

#include <stdio.h>
#include <string.h>

/* the keywords of one schema object and which of them are consumed */
typedef struct kwset
{
	js_ctx	   *ctx;
	jx		   *obj;
	const char *pointer;
	const char *scope;
	bool	   *used;
	int			depth;
} kwset;

/* most schemas one object's extractors can produce */
#define MAX_PARTS 16

static const char *const number_keywords[] = {
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", NULL
};
static const char *const string_keywords[] = {
	"minLength", "maxLength", "pattern", "format", NULL
};
static const char *const conditional_keywords[] = {"if", "then", "else", NULL};
static const char *const object_keywords_4[] = {
	"properties", "required", "minProperties", "maxProperties", "dependencies",
	"patternProperties", "additionalProperties", NULL
};
static const char *const object_keywords_6[] = {
	"properties", "required", "minProperties", "maxProperties", "dependencies",
	"patternProperties", "additionalProperties", "propertyNames", NULL
};
static const char *const object_keywords_2019[] = {
	"properties", "required", "minProperties", "maxProperties", "dependencies",
	"patternProperties", "additionalProperties", "propertyNames",
	"dependentRequired", "dependentSchemas", "unevaluatedProperties", NULL
};
static const char *const array_keywords_4[] = {
	"items", "additionalItems", "minItems", "maxItems", "uniqueItems", NULL
};
static const char *const array_keywords_6[] = {
	"items", "additionalItems", "minItems", "maxItems", "uniqueItems",
	"contains", NULL
};
static const char *const array_keywords_2019[] = {
	"items", "additionalItems", "minItems", "maxItems", "uniqueItems",
	"contains", "prefixItems", "unevaluatedItems", "minContains",
	"maxContains", NULL
};

/* See json_internal.h */
const char *
js_pointer_child(js_ctx *ctx, const char *base, const char *token, size_t len)
{
	size_t		blen = strlen(base);
	size_t		extra = 0;
	size_t		i;
	char	   *out;
	char	   *o;

	for (i = 0; i < len; i++)
		if (token[i] == '~' || token[i] == '/')
			extra++;
	out = rg_arena_alloc(ctx->arena, blen + len + extra + 2);
	if (out == NULL)
	{
		js_oom(ctx);
		return "#";
	}
	memcpy(out, base, blen);
	o = out + blen;
	*o++ = '/';
	for (i = 0; i < len; i++)
	{
		if (token[i] == '~' || token[i] == '/')
		{
			*o++ = '~';
			*o++ = token[i] == '~' ? '0' : '1';
		}
		else
			*o++ = token[i] ? token[i] : ' ';
	}
	*o = '\0';
	return out;
}

/* See json_internal.h */
const char *
js_pointer_index(js_ctx *ctx, const char *base, int i)
{
	char		num[16];

	snprintf(num, sizeof(num), "%d", i);
	return js_pointer_child(ctx, base, num, strlen(num));
}

/* The index of an object's member, -1 if absent. */
static int
member_index(const jx *obj, const char *key)
{
	size_t		n = strlen(key);
	int			i;

	for (i = 0; i < obj->n; i++)
		if (obj->members[i].key_len == n && memcmp(obj->members[i].key, key, n) == 0)
			return i;
	return -1;
}

/* A keyword no extractor has consumed yet (everit's projected object). */
static bool
kw_left(const kwset *k, const char *key)
{
	int			i = member_index(k->obj, key);

	return i >= 0 && !k->used[i];
}

/* Does any keyword of the list remain? */
static bool
kw_any_left(const kwset *k, const char *const *keys)
{
	for (; *keys; keys++)
		if (kw_left(k, *keys))
			return true;
	return false;
}

/* Mark a list of keywords consumed (present or not). */
static void
kw_use(kwset *k, const char *const *keys)
{
	for (; *keys; keys++)
	{
		int			i = member_index(k->obj, *keys);

		if (i >= 0)
			k->used[i] = true;
	}
}

/* Consume a keyword: its value (NULL if absent) and its location. */
static jx  *
kw_take(kwset *k, const char *key, const char **pointer)
{
	int			i = member_index(k->obj, key);

	if (i < 0)
		return NULL;
	k->used[i] = true;
	*pointer = js_pointer_child(k->ctx, k->pointer, key, strlen(key));
	return k->obj->members[i].value;
}

/* Add an object node to ctx->objects; false on out of memory. */
static bool
remember_object(js_ctx *ctx, rg_js *n)
{
	struct js_node_link *l = rg_arena_alloc(ctx->arena, sizeof(*l));

	if (l == NULL)
		return false;
	l->node = n;
	l->next = ctx->objects;
	ctx->objects = l;
	return true;
}

/* See json_internal.h */
rg_js *
js_new_node(js_ctx *ctx, rg_js_kind kind, const char *location)
{
	rg_js	   *n;

	if (++ctx->n_nodes > JS_MAX_NODES)
	{
		js_fail(ctx, "%s: the schema has more than %d nodes (with its $refs followed)",
				location, JS_MAX_NODES);
		return NULL;
	}
	n = rg_arena_alloc(ctx->arena, sizeof(rg_js));
	if (n == NULL || (kind == RG_JS_OBJECT && !remember_object(ctx, n)))
	{
		js_oom(ctx);
		return NULL;
	}
	n->kind = kind;
	n->location = location;
	return n;
}

/* A sub-schema (an object or a boolean) of this object's keyword. */
static rg_js *
child(kwset *k, jx *v, const char *pointer)
{
	if (!js_require_schema(k->ctx, v, pointer))
		return NULL;
	return js_load_schema(k->ctx, v, pointer, k->scope, k->depth + 1);
}

/* An optional sub-schema keyword; true unless it failed. */
static bool
opt_child(kwset *k, const char *key, rg_js **out)
{
	const char *ptr;
	jx		   *v = kw_take(k, key, &ptr);

	if (v == NULL)
		return true;
	*out = child(k, v, ptr);
	return *out != NULL;
}

/* An optional count keyword (requireInteger). */
static bool
opt_count(kwset *k, const char *key, rg_js_count *out)
{
	const char *ptr;
	jx		   *v = kw_take(k, key, &ptr);

	if (v == NULL)
		return true;
	if (!js_require_integer(k->ctx, v, ptr, &out->value))
		return false;
	out->present = true;
	return true;
}

/* An optional number keyword (requireNumber), its lexeme kept. */
static bool
opt_number(kwset *k, const char *key, rg_js_number *out)
{
	const char *ptr;
	jx		   *v = kw_take(k, key, &ptr);

	if (v == NULL)
		return true;
	if (!js_require_number(k->ctx, v, ptr))
		return false;
	out->present = true;
	out->value = jx_number_value(v);
	out->lexeme = v->text;
	return true;
}

/* An optional boolean keyword (requireBoolean). */
static bool
opt_bool(kwset *k, const char *key, bool *out)
{
	const char *ptr;
	jx		   *v = kw_take(k, key, &ptr);

	if (v == NULL)
		return true;
	if (!js_require(k->ctx, v, JX_TRUE, ptr))
		return false;
	*out = v->type == JX_TRUE;
	return true;
}

/* An optional string keyword (requireString). */
static bool
opt_string(kwset *k, const char *key, const char **out)
{
	const char *ptr;
	jx		   *v = kw_take(k, key, &ptr);

	if (v == NULL)
		return true;
	*out = js_require_string(k->ctx, v, ptr);
	return *out != NULL;
}


/* A map of sub-schemas (properties, patternProperties, ...); false on failure. */
static bool
schema_map(kwset *k, jx *v, const char *ptr, rg_js_member **out, int *n,
		   bool skip_id)
{
	rg_js_member *members;
	int			i;
	int			count = 0;

	if (!js_require(k->ctx, v, JX_OBJECT, ptr))
		return false;
	members = rg_arena_alloc(k->ctx->arena, sizeof(rg_js_member) * (v->n ? v->n : 1));
	if (members == NULL)
	{
		js_oom(k->ctx);
		return false;
	}
	for (i = 0; i < v->n; i++)
	{
		jx_member  *m = &v->members[i];

		/*
		 * everit skips a property named like the id keyword unless it is an
		 * object
		 */
		if (skip_id && strcmp(m->key, js_id_keyword(k->ctx->draft)) == 0 &&
			m->value->type != JX_OBJECT)
			continue;
		/* pattern properties are compiled as Java regular expressions */
		if (!skip_id && !js_check_regex(k->ctx, m->key,
										js_pointer_child(k->ctx, ptr, m->key, m->key_len)))
			return false;
		members[count].name = m->key;
		members[count].schema = child(k, m->value,
									  js_pointer_child(k->ctx, ptr, m->key, m->key_len));
		if (members[count].schema == NULL)
			return false;
		count++;
	}
	*out = members;
	*n = count;
	return true;
}

/* StringSchema: the string keywords. */
static rg_js *
build_string(kwset *k, bool requires)
{
	rg_js	   *n = js_new_node(k->ctx, RG_JS_STRING, k->pointer);

	kw_use(k, string_keywords);
	if (n == NULL ||
		!opt_count(k, "minLength", &n->u.string.min_length) ||
		!opt_count(k, "maxLength", &n->u.string.max_length) ||
		!opt_string(k, "pattern", &n->u.string.pattern) ||
		!opt_string(k, "format", &n->u.string.format))
		return NULL;
	if (n->u.string.pattern &&
		!js_check_regex(k->ctx, n->u.string.pattern,
						js_pointer_child(k->ctx, k->pointer, "pattern", 7)))
		return NULL;
	n->u.string.requires_string = requires;
	return n;
}

/* exclusiveMinimum / exclusiveMaximum: a boolean in draft 4, a number after */
static bool
exclusive_limit(kwset *k, const char *key, bool *flag, rg_js_number *limit)
{
	if (k->ctx->draft == RG_JS_DRAFT_4)
		return opt_bool(k, key, flag);
	return opt_number(k, key, limit);
}

/* NumberSchema: the number keywords; multipleOf must not be 0. */
static rg_js *
build_number(kwset *k, bool requires, bool integer)
{
	rg_js	   *n = js_new_node(k->ctx, RG_JS_NUMBER, k->pointer);

	kw_use(k, number_keywords);
	if (n == NULL ||
		!opt_number(k, "minimum", &n->u.number.minimum) ||
		!opt_number(k, "maximum", &n->u.number.maximum) ||
		!opt_number(k, "multipleOf", &n->u.number.multiple_of) ||
		!exclusive_limit(k, "exclusiveMinimum", &n->u.number.exclusive_minimum_flag,
						 &n->u.number.exclusive_minimum) ||
		!exclusive_limit(k, "exclusiveMaximum", &n->u.number.exclusive_maximum_flag,
						 &n->u.number.exclusive_maximum))
		return NULL;
	if (n->u.number.multiple_of.present && n->u.number.multiple_of.value == 0)
	{
		js_fail(k->ctx, "%s: multipleOf should not be 0", k->pointer);
		return NULL;
	}
	n->u.number.requires_number = requires || integer;
	n->u.number.requires_integer = integer;
	return n;
}

/* the object keywords of the document's draft */
static const char *const *
object_keywords(rg_js_draft draft)
{
	if (draft == RG_JS_DRAFT_4)
		return object_keywords_4;
	return draft >= RG_JS_DRAFT_2019_09 ? object_keywords_2019 : object_keywords_6;
}

/* the array keywords of the document's draft */
static const char *const *
array_keywords(rg_js_draft draft)
{
	if (draft == RG_JS_DRAFT_4)
		return array_keywords_4;
	return draft >= RG_JS_DRAFT_2019_09 ? array_keywords_2019 : array_keywords_6;
}

/* additionalProperties / additionalItems: a boolean or a schema */
static bool
additional(kwset *k, const char *key, bool *permits, rg_js **schema)
{
	const char *ptr;
	jx		   *v = kw_take(k, key, &ptr);

	*permits = true;
	if (v == NULL)
		return true;
	if (v->type == JX_TRUE || v->type == JX_FALSE)
	{
		*permits = v->type == JX_TRUE;
		return true;
	}
	if (v->type != JX_OBJECT)
	{
		js_fail(k->ctx, "%s: expected type is one of Boolean or JsonObject, found: %s",
				ptr, js_type_name(v));
		return false;
	}
	*schema = child(k, v, ptr);
	return *schema != NULL;
}

/* dependencies: each a schema or an array of property names */
static bool
dependencies(kwset *k, rg_js *n, const char *key, bool arrays, bool schemas)
{
	const char *ptr;
	jx		   *v = kw_take(k, key, &ptr);
	int			i;

	if (v == NULL)
		return true;
	if (!js_require(k->ctx, v, JX_OBJECT, ptr))
		return false;
	for (i = 0; i < v->n; i++)
	{
		jx_member  *m = &v->members[i];
		const char *mptr = js_pointer_child(k->ctx, ptr, m->key, m->key_len);
		bool		is_schema = m->value->type == JX_OBJECT ||
		m->value->type == JX_TRUE || m->value->type == JX_FALSE;

		if (arrays && m->value->type == JX_ARRAY)
		{
			rg_js_prop_dependency *d;

			d = &n->u.object.property_dependencies[n->u.object.n_property_dependencies++];
			d->name = m->key;
			d->requires = js_require_strings(k->ctx, m->value, mptr, &d->n_requires);
			if (d->requires == NULL)
				return false;
		}
		else if (schemas && is_schema)
		{
			rg_js_member *d;

			d = &n->u.object.schema_dependencies[n->u.object.n_schema_dependencies++];
			d->name = m->key;
			d->schema = child(k, m->value, mptr);
			if (d->schema == NULL)
				return false;
		}
		else
		{
			js_fail(k->ctx, "%s: expected type is one of %s, found: %s", mptr,
					arrays && schemas ? "Boolean or JsonObject or JsonArray" :
					arrays ? "JsonArray" : "Boolean or JsonObject",
					js_type_name(m->value));
			return false;
		}
	}
	return true;
}

/* room for the dependencies of an object schema, counted first */
static bool
dependency_room(kwset *k, rg_js *n)
{
	static const char *const keys[] = {"dependencies", "dependentRequired", "dependentSchemas", NULL};
	const char *const *key;
	int			total = 0;

	for (key = keys; *key; key++)
	{
		jx		   *v = jx_get(k->obj, *key);

		if (v && v->type == JX_OBJECT)
			total += v->n;
	}
	n->u.object.property_dependencies =
		rg_arena_alloc(k->ctx->arena, sizeof(rg_js_prop_dependency) * (total ? total : 1));
	n->u.object.schema_dependencies =
		rg_arena_alloc(k->ctx->arena, sizeof(rg_js_member) * (total ? total : 1));
	if (n->u.object.property_dependencies == NULL || n->u.object.schema_dependencies == NULL)
	{
		js_oom(k->ctx);
		return false;
	}
	return true;
}

/* ObjectSchema: the object keywords of the draft. */
static rg_js *
build_object(kwset *k, bool requires)
{
	js_ctx	   *ctx = k->ctx;
	rg_js	   *n = js_new_node(ctx, RG_JS_OBJECT, k->pointer);
	const char *ptr;
	jx		   *v;

	kw_use(k, object_keywords(ctx->draft));
	if (n == NULL || !dependency_room(k, n) ||
		!opt_count(k, "minProperties", &n->u.object.min_properties) ||
		!opt_count(k, "maxProperties", &n->u.object.max_properties))
		return NULL;
	if ((v = kw_take(k, "properties", &ptr)) &&
		!schema_map(k, v, ptr, &n->u.object.properties, &n->u.object.n_properties, true))
		return NULL;
	if (!additional(k, "additionalProperties", &n->u.object.permits_additional,
					&n->u.object.additional_schema))
		return NULL;
	if ((v = kw_take(k, "required", &ptr)) &&
		(n->u.object.required = js_require_strings(k->ctx, v, ptr, &n->u.object.n_required)) == NULL)
		return NULL;
	if ((v = kw_take(k, "patternProperties", &ptr)) &&
		!schema_map(k, v, ptr, &n->u.object.pattern_properties,
					&n->u.object.n_pattern_properties, false))
		return NULL;
	if (!dependencies(k, n, "dependencies", true, true))
		return NULL;
	if (ctx->draft >= RG_JS_DRAFT_6 && !opt_child(k, "propertyNames", &n->u.object.property_names))
		return NULL;
	if (ctx->draft >= RG_JS_DRAFT_2019_09 &&
		(!dependencies(k, n, "dependentRequired", true, false) ||
		 !dependencies(k, n, "dependentSchemas", false, true) ||
		 !opt_child(k, "unevaluatedProperties", &n->u.object.unevaluated)))
		return NULL;
	n->u.object.assert_unevaluated = n->u.object.unevaluated;
	n->u.object.requires_object = requires;
	return n;
}

/* A list of sub-schemas (a tuple's items, prefixItems, allOf, ...). */
static rg_js **
schema_list(kwset *k, jx *v, const char *ptr, int *n)
{
	rg_js	  **list;
	int			i;

	if (!js_require(k->ctx, v, JX_ARRAY, ptr))
		return NULL;
	list = rg_arena_alloc(k->ctx->arena, sizeof(rg_js *) * (v->n ? v->n : 1));
	if (list == NULL)
	{
		js_oom(k->ctx);
		return NULL;
	}
	for (i = 0; i < v->n; i++)
		if ((list[i] = child(k, v->items[i], js_pointer_index(k->ctx, ptr, i))) == NULL)
			return NULL;
	*n = v->n;
	return list;
}

/* "items": one schema for all items, or (before 2020-12) a tuple */
static bool
array_items(kwset *k, rg_js *n)
{
	const char *ptr;
	jx		   *v = kw_take(k, "items", &ptr);

	if (v == NULL)
		return true;
	if (v->type == JX_ARRAY && k->ctx->draft < RG_JS_DRAFT_2020_12)
	{
		n->u.array.item_schemas = schema_list(k, v, ptr, &n->u.array.n_item_schemas);
		return n->u.array.item_schemas != NULL;
	}
	n->u.array.all_items = child(k, v, ptr);
	return n->u.array.all_items != NULL;
}

/* ArraySchema: the array keywords of the draft. */
static rg_js *
build_array(kwset *k, bool requires)
{
	js_ctx	   *ctx = k->ctx;
	rg_js	   *n = js_new_node(ctx, RG_JS_ARRAY, k->pointer);
	const char *ptr;
	jx		   *v;

	kw_use(k, array_keywords(ctx->draft));
	if (n == NULL ||
		!opt_count(k, "minItems", &n->u.array.min_items) ||
		!opt_count(k, "maxItems", &n->u.array.max_items) ||
		!opt_bool(k, "uniqueItems", &n->u.array.unique_items) ||
		!additional(k, "additionalItems", &n->u.array.permits_additional,
					&n->u.array.additional_items) ||
		!array_items(k, n))
		return NULL;
	if (ctx->draft >= RG_JS_DRAFT_6 && !opt_child(k, "contains", &n->u.array.contains))
		return NULL;
	if (ctx->draft >= RG_JS_DRAFT_2019_09)
	{
		if ((v = kw_take(k, "prefixItems", &ptr)) &&
			(n->u.array.item_schemas = schema_list(k, v, ptr, &n->u.array.n_item_schemas)) == NULL)
			return NULL;
		if (!opt_child(k, "unevaluatedItems", &n->u.array.unevaluated) ||
			!opt_count(k, "minContains", &n->u.array.min_contains) ||
			!opt_count(k, "maxContains", &n->u.array.max_contains))
			return NULL;
	}
	n->u.array.assert_unevaluated = n->u.array.unevaluated;
	n->u.array.requires_array = requires;
	return n;
}

/* ConditionalSchema: if / then / else (draft 7 on). */
static rg_js *
build_conditional(kwset *k)
{
	rg_js	   *n = js_new_node(k->ctx, RG_JS_CONDITIONAL, k->pointer);

	if (n == NULL ||
		!opt_child(k, "if", &n->u.conditional.if_schema) ||
		!opt_child(k, "then", &n->u.conditional.then_schema) ||
		!opt_child(k, "else", &n->u.conditional.else_schema))
		return NULL;
	return n;
}

/* The schema of one "type" name; unknown names are refused. */
static rg_js *
explicit_type(kwset *k, const char *type)
{
	if (strcmp(type, "string") == 0)
		return build_string(k, true);
	if (strcmp(type, "integer") == 0)
		return build_number(k, true, true);
	if (strcmp(type, "number") == 0)
		return build_number(k, true, false);
	if (strcmp(type, "boolean") == 0)
		return js_new_node(k->ctx, RG_JS_BOOLEAN, k->pointer);
	if (strcmp(type, "null") == 0)
		return js_new_node(k->ctx, RG_JS_NULL, k->pointer);
	if (strcmp(type, "array") == 0)
		return build_array(k, true);
	if (strcmp(type, "object") == 0)
		return build_object(k, true);
	js_fail(k->ctx, "%s: unknown type: [%s]", k->pointer, type);
	return NULL;
}

/* See json_internal.h */
rg_js *
js_combined(js_ctx *ctx, rg_js_criterion criterion, rg_js **subs, int n,
			const char *location)
{
	rg_js	   *c = js_new_node(ctx, RG_JS_COMBINED, location);

	if (c == NULL)
		return NULL;
	c->u.combined.criterion = criterion;
	c->u.combined.subschemas = subs;
	c->u.combined.n_subschemas = n;
	return c;
}

/* TypeBasedSchemaExtractor: "type", a name or an array of names. */
static bool
extract_type(kwset *k, rg_js **parts, int *n)
{
	const char *ptr;
	jx		   *v;
	rg_js	  **subs;
	int			i;

	if (!kw_left(k, "type"))
		return true;
	v = kw_take(k, "type", &ptr);
	if (v->type == JX_STRING)
		return (parts[(*n)++] = explicit_type(k, v->text)) != NULL;
	if (v->type != JX_ARRAY)
	{
		js_fail(k->ctx, "%s: expected type is one of JsonArray or String, found: %s",
				ptr, js_type_name(v));
		return false;
	}
	subs = rg_arena_alloc(k->ctx->arena, sizeof(rg_js *) * (v->n ? v->n : 1));
	if (subs == NULL)
	{
		js_oom(k->ctx);
		return false;
	}
	for (i = 0; i < v->n; i++)
	{
		const char *name = js_require_string(k->ctx, v->items[i],
											 js_pointer_index(k->ctx, ptr, i));

		if (name == NULL || (subs[i] = explicit_type(k, name)) == NULL)
			return false;
	}
	return (parts[(*n)++] = js_combined(k->ctx, RG_JS_ANY_OF, subs, v->n, k->pointer)) != NULL;
}

/* PropertySnifferSchemaExtractor: a schema per kind whose keywords are left. */
static bool
sniff(kwset *k, rg_js **parts, int *n)
{
	js_ctx	   *ctx = k->ctx;

	if (kw_any_left(k, array_keywords(ctx->draft)) &&
		(parts[(*n)++] = build_array(k, false)) == NULL)
		return false;
	if (kw_any_left(k, object_keywords(ctx->draft)) &&
		(parts[(*n)++] = build_object(k, false)) == NULL)
		return false;
	if (kw_any_left(k, number_keywords) &&
		(parts[(*n)++] = build_number(k, false, false)) == NULL)
		return false;
	if (kw_any_left(k, string_keywords) &&
		(parts[(*n)++] = build_string(k, false)) == NULL)
		return false;
	if (ctx->draft >= RG_JS_DRAFT_7 && kw_any_left(k, conditional_keywords) &&
		(parts[(*n)++] = build_conditional(k)) == NULL)
		return false;
	return true;
}

/* EnumSchemaExtractor: "enum", an array of values. */
static bool
extract_enum(kwset *k, rg_js **parts, int *n)
{
	const char *ptr;
	jx		   *v;
	rg_js	   *e;
	int			i;

	if (!kw_left(k, "enum"))
		return true;
	v = kw_take(k, "enum", &ptr);
	if (!js_require(k->ctx, v, JX_ARRAY, ptr) ||
		(e = js_new_node(k->ctx, RG_JS_ENUM, k->pointer)) == NULL)
		return false;
	e->u.enumeration.values = rg_arena_alloc(k->ctx->arena,
											 sizeof(rg_js_value *) * (v->n ? v->n : 1));
	if (e->u.enumeration.values == NULL)
	{
		js_oom(k->ctx);
		return false;
	}
	for (i = 0; i < v->n; i++)
		if ((e->u.enumeration.values[i] = js_keep_value(k->ctx, v->items[i])) == NULL)
			return false;
	e->u.enumeration.n_values = v->n;
	parts[(*n)++] = e;
	return true;
}

/* CombinedSchemaLoader: allOf, oneOf, anyOf (everit's HashSet order). */
static bool
extract_combined(kwset *k, rg_js **parts, int *n)
{
	static const char *const names[] = {"allOf", "oneOf", "anyOf"};
	static const rg_js_criterion criteria[] = {RG_JS_ALL_OF, RG_JS_ONE_OF, RG_JS_ANY_OF};
	int			i;

	for (i = 0; i < 3; i++)
	{
		const char *ptr;
		jx		   *v;
		rg_js	  **subs;
		int			count = 0;

		if (!kw_left(k, names[i]))
			continue;
		v = kw_take(k, names[i], &ptr);
		subs = schema_list(k, v, ptr, &count);
		if (subs == NULL ||
			(parts[(*n)++] = js_combined(k->ctx, criteria[i], subs, count, k->pointer)) == NULL)
			return false;
	}
	return true;
}

/* NotSchemaExtractor: "not", a schema. */
static bool
extract_not(kwset *k, rg_js **parts, int *n)
{
	const char *ptr;
	jx		   *v;
	rg_js	   *node;

	if (!kw_left(k, "not"))
		return true;
	v = kw_take(k, "not", &ptr);
	if ((node = js_new_node(k->ctx, RG_JS_NOT, k->pointer)) == NULL ||
		(node->u.not.schema = child(k, v, ptr)) == NULL)
		return false;
	parts[(*n)++] = node;
	return true;
}

/* ConstSchemaExtractor: "const", any value (not in draft 4). */
static bool
extract_const(kwset *k, rg_js **parts, int *n)
{
	const char *ptr;
	jx		   *v;
	rg_js	   *node;

	if (k->ctx->draft == RG_JS_DRAFT_4 || !kw_left(k, "const"))
		return true;
	v = kw_take(k, "const", &ptr);
	if ((node = js_new_node(k->ctx, RG_JS_CONST, k->pointer)) == NULL ||
		(node->u.constant.value = js_keep_value(k->ctx, v)) == NULL)
		return false;
	parts[(*n)++] = node;
	return true;
}

/* ReferenceSchemaExtractor: "$ref", a string. */
static bool
extract_ref(kwset *k, rg_js **parts, int *n)
{
	const char *ptr;
	jx		   *v = kw_take(k, "$ref", &ptr);
	const char *ref = js_require_string(k->ctx, v, ptr);

	if (ref == NULL ||
		(parts[(*n)++] = js_load_ref(k->ctx, ref, k->pointer, k->scope, k->depth)) == NULL)
		return false;
	return true;
}

/* The extractors in everit's order; false on failure. */
static bool
run_extractors(kwset *k, rg_js **parts, int *n)
{
	if (member_index(k->obj, "$ref") >= 0)
		return extract_ref(k, parts, n);
	return extract_enum(k, parts, n) &&
		extract_combined(k, parts, n) &&
		extract_not(k, parts, n) &&
		extract_const(k, parts, n) &&
		extract_type(k, parts, n) &&
		sniff(k, parts, n);
}

/* No schema is the empty one, one is itself, more a synthetic allOf. */
static rg_js *
effective_schema(kwset *k, rg_js **parts, int n)
{
	rg_js	  **subs;

	if (n == 0)
		return js_new_node(k->ctx, RG_JS_EMPTY, k->pointer);
	if (n == 1)
		return parts[0];
	subs = rg_arena_alloc(k->ctx->arena, sizeof(rg_js *) * n);
	if (subs == NULL)
	{
		js_oom(k->ctx);
		return NULL;
	}
	memcpy(subs, parts, sizeof(rg_js *) * n);
	{
		rg_js	   *all = js_combined(k->ctx, RG_JS_ALL_OF, subs, n, k->pointer);

		if (all)
			all->u.combined.synthetic = true;
		return all;
	}
}

/*
 * examples: an array of any values, as the meta-schemas from draft 6 on
 * define it and Confluent 8 accepts it (everit's loader once required
 * strings; draft 4 does not define it, and is read the same way).
 */
static bool
examples(kwset *k)
{
	const char *ptr;
	jx		   *v = kw_take(k, "examples", &ptr);

	return v == NULL || js_require(k->ctx, v, JX_ARRAY, ptr);
}

/* The properties every schema has: id, title, description, default, ... */
static bool
load_common(kwset *k, rg_js *node)
{
	js_ctx	   *ctx = k->ctx;
	bool		ignored;
	const char *ptr;
	jx		   *v;

	if (!opt_string(k, js_id_keyword(ctx->draft), &node->id) ||
		!opt_string(k, "title", &node->title) ||
		!opt_string(k, "description", &node->description) ||
		!examples(k))
		return false;
	if (ctx->draft == RG_JS_DRAFT_7 &&
		(!opt_bool(k, "readOnly", &ignored) || !opt_bool(k, "writeOnly", &ignored)))
		return false;
	if ((v = kw_take(k, "default", &ptr)) &&
		(node->default_value = js_keep_value(ctx, v)) == NULL)
		return false;
	return true;
}

/* What no extractor consumed, kept in document order. */
static bool
load_unprocessed(kwset *k, rg_js *node)
{
	js_ctx	   *ctx = k->ctx;
	int			i;
	int			n = 0;

	for (i = 0; i < k->obj->n; i++)
		if (!k->used[i])
			n++;
	if (n == 0)
		return true;
	node->unprocessed_names = rg_arena_alloc(ctx->arena, sizeof(char *) * n);
	node->unprocessed_values = rg_arena_alloc(ctx->arena, sizeof(rg_js_value *) * n);
	if (node->unprocessed_names == NULL || node->unprocessed_values == NULL)
	{
		js_oom(ctx);
		return false;
	}
	for (i = 0; i < k->obj->n; i++)
	{
		if (k->used[i])
			continue;
		node->unprocessed_names[node->n_unprocessed] = k->obj->members[i].key;
		node->unprocessed_values[node->n_unprocessed] =
			js_keep_value(ctx, k->obj->members[i].value);
		if (node->unprocessed_values[node->n_unprocessed] == NULL)
			return false;
		node->n_unprocessed++;
	}
	return true;
}

/*
 * minContains and maxContains are no everit keywords, but Confluent's diff
 * reads them among an array schema's unprocessed properties when they are
 * numbers: so they count, in drafts 4 to 7 too, on the schema returned.
 */
static void
contains_bounds(kwset *k, rg_js *node)
{
	static const char *const keys[] = {"minContains", "maxContains"};
	int			i;

	if (node->kind != RG_JS_ARRAY)
		return;
	for (i = 0; i < 2; i++)
	{
		int			at = member_index(k->obj, keys[i]);
		jx		   *v = at >= 0 && !k->used[at] ? k->obj->members[at].value : NULL;
		rg_js_count *c = i == 0 ? &node->u.array.min_contains : &node->u.array.max_contains;

		if (v && (v->type == JX_INT || v->type == JX_DECIMAL))
		{
			double		d = jx_number_value(v);

			/* as Java's (long) cast: saturated, never undefined */
			c->present = true;
			c->value = d >= 9223372036854775807.0 ? INT64_MAX :
				d <= -9223372036854775808.0 ? INT64_MIN : (int64_t) d;
		}
	}
}

/* A schema object: extractors, the effective schema, its common properties. */
static rg_js *
load_object(js_ctx *ctx, jx *v, const char *pointer, const char *scope, int depth)
{
	kwset		k;
	rg_js	   *parts[MAX_PARTS];
	int			n = 0;
	rg_js	   *node;
	jx		   *id = jx_get(v, js_id_keyword(ctx->draft));

	if (id && id->type == JX_STRING)
		scope = js_uri_resolve(ctx->arena, scope, id->text);
	k.ctx = ctx;
	k.obj = v;
	k.pointer = pointer;
	k.scope = scope;
	k.depth = depth;
	k.used = rg_arena_alloc(ctx->arena, sizeof(bool) * (v->n ? v->n : 1));
	if (k.used == NULL)
	{
		js_oom(ctx);
		return NULL;
	}
	if (!run_extractors(&k, parts, &n) ||
		(node = effective_schema(&k, parts, n)) == NULL ||
		!load_common(&k, node) ||
		!load_unprocessed(&k, node))
		return NULL;
	contains_bounds(&k, node);
	return node;
}

/* See json_internal.h */
rg_js *
js_load_schema(js_ctx *ctx, jx *v, const char *pointer, const char *scope,
			   int depth)
{
	if (ctx->failed)
		return NULL;
	if (rg_too_deep(depth))
	{
		js_fail(ctx, "%s: schema nesting is too deep", pointer);
		return NULL;
	}
	if (v->type == JX_TRUE)
		return js_new_node(ctx, RG_JS_TRUE, pointer);
	if (v->type == JX_FALSE)
		return js_new_node(ctx, RG_JS_FALSE, pointer);
	if (!js_require_schema(ctx, v, pointer))
		return NULL;
	if (ctx->skema)
		return js_load_modern(ctx, v, pointer, scope, depth);
	return load_object(ctx, v, pointer, scope, depth);
}
