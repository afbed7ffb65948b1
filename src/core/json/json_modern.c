/*-------------------------------------------------------------------------
 *
 * json_modern.c
 *	  A 2019-09 or 2020-12 schema object -> rg_js nodes, as Confluent loads
 *	  it: json-sKema reads one schema per keyword, in document order, and
 *	  Confluent's SchemaTranslator turns each into a partial everit schema
 *	  and joins them one by one (properties, patternProperties,
 *	  unevaluatedItems and unevaluatedProperties last, in that order, as
 *	  json-sKema's visitor reaches them):
 *	  - two partials of the same kind (array, number, object, string)
 *	    merge into one, requiring the type if either does;
 *	  - a partial joins the generated anyOf of a "type" array when one of
 *	    its branches has the partial's class, merging into the first;
 *	  - otherwise the two become (or extend) a generated allOf, whose
 *	    members of the same kind merge;
 *	  - a generated allOf of none is the empty schema, of one that one.
 *	  format, readOnly and writeOnly join as an empty generated allOf (the
 *	  translator ignores them, not quite without trace); the branches of
 *	  allOf, anyOf and oneOf are spliced in when they are generated
 *	  allOfs; "contains" carries minContains (1 when absent, as json-sKema
 *	  has it) and maxContains.  The root's $id is not kept (json-sKema makes
 *	  it the base URI), a nested one is.  Keywords json-sKema does not know
 *	  stay unprocessed, and so do $defs, whose schemas are loaded all the
 *	  same (an error in them is an error).
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"

#include <string.h>

/* one schema object being loaded */
typedef struct modern
{
	js_ctx	   *ctx;
	jx		   *obj;
	const char *pointer;
	const char *scope;
	int			depth;
	bool	   *used;
	rg_js	   *acc;			/* the partials joined so far */
} modern;

/* keywords json-sKema reads that add no partial of their own */
static const char *const quiet_keywords[] = {
	"$schema", "$anchor", "$dynamicAnchor", "$vocabulary",
	"then", "else", "minContains", "maxContains", NULL
};

/* Is a keyword in a NULL-terminated list? */
static bool
in_list(const char *const *list, const char *key)
{
	for (; *list; list++)
		if (strcmp(*list, key) == 0)
			return true;
	return false;
}

/* Do two nodes have the same everit class (every combined schema is one)? */
static bool
same_class(const rg_js *a, const rg_js *b)
{
	return a->kind == b->kind;
}

/* Do partials of this kind merge (ArraySchema, NumberSchema, ObjectSchema, StringSchema)? */
static bool
mergeable(rg_js_kind kind)
{
	return kind == RG_JS_ARRAY || kind == RG_JS_NUMBER || kind == RG_JS_OBJECT ||
		kind == RG_JS_STRING;
}

/* Is n a generated combined schema of the criterion? */
static bool
generated(const rg_js *n, rg_js_criterion criterion)
{
	return n->kind == RG_JS_COMBINED && n->u.combined.synthetic &&
		n->u.combined.criterion == criterion;
}

/* Two arrays of elem_size elements concatenated in the arena. */
static void *
concat(js_ctx *ctx, const void *a, int na, const void *b, int nb, size_t elem_size)
{
	char	   *out = rg_arena_alloc(ctx->arena, elem_size * (na + nb ? na + nb : 1));

	if (out == NULL)
	{
		js_oom(ctx);
		return NULL;
	}
	if (na)
		memcpy(out, a, elem_size * na);
	if (nb)
		memcpy(out + elem_size * na, b, elem_size * nb);
	return out;
}

/* Take b's number limit if it has one. */
static void
merge_number_field(rg_js_number *into, const rg_js_number *b)
{
	if (b->present)
		*into = *b;
}

/* Take b's count if it has one. */
static void
merge_count(rg_js_count *into, const rg_js_count *b)
{
	if (b->present)
		*into = *b;
}

/* The object part of SchemaUtils.merge: b's keywords added to a copy of a. */
static bool
merge_object(js_ctx *ctx, rg_js *m, const rg_js *b)
{
	if (b->u.object.requires_object)
		m->u.object.requires_object = true;
	m->u.object.properties = concat(ctx, m->u.object.properties, m->u.object.n_properties,
									b->u.object.properties, b->u.object.n_properties,
									sizeof(rg_js_member));
	m->u.object.n_properties += b->u.object.n_properties;
	m->u.object.pattern_properties = concat(ctx, m->u.object.pattern_properties,
											m->u.object.n_pattern_properties,
											b->u.object.pattern_properties,
											b->u.object.n_pattern_properties,
											sizeof(rg_js_member));
	m->u.object.n_pattern_properties += b->u.object.n_pattern_properties;
	m->u.object.required = concat(ctx, m->u.object.required, m->u.object.n_required,
								  b->u.object.required, b->u.object.n_required,
								  sizeof(char *));
	m->u.object.n_required += b->u.object.n_required;
	m->u.object.property_dependencies =
		concat(ctx, m->u.object.property_dependencies, m->u.object.n_property_dependencies,
			   b->u.object.property_dependencies, b->u.object.n_property_dependencies,
			   sizeof(rg_js_prop_dependency));
	m->u.object.n_property_dependencies += b->u.object.n_property_dependencies;
	m->u.object.schema_dependencies =
		concat(ctx, m->u.object.schema_dependencies, m->u.object.n_schema_dependencies,
			   b->u.object.schema_dependencies, b->u.object.n_schema_dependencies,
			   sizeof(rg_js_member));
	m->u.object.n_schema_dependencies += b->u.object.n_schema_dependencies;
	if (!b->u.object.permits_additional)
		m->u.object.permits_additional = false;
	if (b->u.object.additional_schema)
		m->u.object.additional_schema = b->u.object.additional_schema;
	/* unevaluatedProperties lives in the unprocessed map, which b's replaces */
	m->u.object.unevaluated = b->u.object.unevaluated;
	if (b->u.object.assert_unevaluated)
		m->u.object.assert_unevaluated = b->u.object.assert_unevaluated;
	if (b->u.object.property_names)
		m->u.object.property_names = b->u.object.property_names;
	merge_count(&m->u.object.min_properties, &b->u.object.min_properties);
	merge_count(&m->u.object.max_properties, &b->u.object.max_properties);
	return !ctx->failed;
}

/* The array part of SchemaUtils.merge. */
static bool
merge_array(js_ctx *ctx, rg_js *m, const rg_js *b)
{
	if (b->u.array.requires_array)
		m->u.array.requires_array = true;
	merge_count(&m->u.array.min_items, &b->u.array.min_items);
	merge_count(&m->u.array.max_items, &b->u.array.max_items);

	/*
	 * minContains, maxContains, unevaluatedItems: in the unprocessed map,
	 * which b's replaces
	 */
	m->u.array.min_contains = b->u.array.min_contains;
	m->u.array.max_contains = b->u.array.max_contains;
	m->u.array.unevaluated = b->u.array.unevaluated;
	/* validation's own copies: b's when it has them */
	merge_count(&m->u.array.assert_min_contains, &b->u.array.assert_min_contains);
	merge_count(&m->u.array.assert_max_contains, &b->u.array.assert_max_contains);
	if (b->u.array.additional_applies)
		m->u.array.additional_applies = true;
	if (b->u.array.assert_unevaluated)
		m->u.array.assert_unevaluated = b->u.array.assert_unevaluated;
	if (b->u.array.unique_items)
		m->u.array.unique_items = true;
	if (b->u.array.all_items)
		m->u.array.all_items = b->u.array.all_items;
	m->u.array.item_schemas = concat(ctx, m->u.array.item_schemas, m->u.array.n_item_schemas,
									 b->u.array.item_schemas, b->u.array.n_item_schemas,
									 sizeof(rg_js *));
	m->u.array.n_item_schemas += b->u.array.n_item_schemas;
	if (!b->u.array.permits_additional)
		m->u.array.permits_additional = false;
	if (b->u.array.additional_items)
		m->u.array.additional_items = b->u.array.additional_items;
	if (b->u.array.contains)
		m->u.array.contains = b->u.array.contains;
	return !ctx->failed;
}

/* SchemaUtils.merge of two partials of one kind: a copy of a with b's keywords. */
static rg_js *
merge(js_ctx *ctx, const rg_js *a, const rg_js *b)
{
	rg_js	   *m = js_new_node(ctx, a->kind, a->location);

	if (m == NULL)
		return NULL;
	*m = *a;
	switch (a->kind)
	{
		case RG_JS_STRING:
			merge_count(&m->u.string.min_length, &b->u.string.min_length);
			merge_count(&m->u.string.max_length, &b->u.string.max_length);
			if (b->u.string.pattern)
				m->u.string.pattern = b->u.string.pattern;
			if (b->u.string.format)
				m->u.string.format = b->u.string.format;
			if (b->u.string.requires_string)
				m->u.string.requires_string = true;
			return m;
		case RG_JS_NUMBER:
			merge_number_field(&m->u.number.minimum, &b->u.number.minimum);
			merge_number_field(&m->u.number.maximum, &b->u.number.maximum);
			merge_number_field(&m->u.number.exclusive_minimum, &b->u.number.exclusive_minimum);
			merge_number_field(&m->u.number.exclusive_maximum, &b->u.number.exclusive_maximum);
			merge_number_field(&m->u.number.multiple_of, &b->u.number.multiple_of);
			if (b->u.number.requires_number)
				m->u.number.requires_number = true;
			if (b->u.number.requires_integer)
				m->u.number.requires_integer = true;
			return m;
		case RG_JS_OBJECT:
			return merge_object(ctx, m, b) ? m : NULL;
		case RG_JS_ARRAY:
			return merge_array(ctx, m, b) ? m : NULL;
		default:
			return m;
	}
}

/* a growable list of nodes in the arena */
typedef struct nodes
{
	rg_js	  **items;
	int			n;
	int			cap;
} nodes;

/* Append to a node list. */
static bool
nodes_push(js_ctx *ctx, nodes *l, rg_js *n)
{
	if (l->n == l->cap)
	{
		int			cap = l->cap ? l->cap * 2 : 4;
		rg_js	  **items = rg_arena_alloc(ctx->arena, sizeof(rg_js *) * cap);

		if (items == NULL)
		{
			js_oom(ctx);
			return false;
		}
		if (l->n)
			memcpy(items, l->items, sizeof(rg_js *) * l->n);
		l->items = items;
		l->cap = cap;
	}
	l->items[l->n++] = n;
	return true;
}

/* A node list holding a combined node's branches, or the node itself. */
static bool
nodes_flatten(js_ctx *ctx, nodes *l, rg_js *n)
{
	int			i;

	if (!generated(n, RG_JS_ALL_OF))
		return nodes_push(ctx, l, n);
	for (i = 0; i < n->u.combined.n_subschemas; i++)
		if (!nodes_push(ctx, l, n->u.combined.subschemas[i]))
			return false;
	return true;
}

/* The translator's accumulate: merge into the first of the same mergeable class, else append. */
static bool
nodes_accumulate(js_ctx *ctx, nodes *l, rg_js *cur)
{
	int			i;

	for (i = 0; i < l->n; i++)
		if (same_class(l->items[i], cur) && mergeable(cur->kind))
			return (l->items[i] = merge(ctx, l->items[i], cur)) != NULL;
	return nodes_push(ctx, l, cur);
}

/* A generated combined node over a list. */
static rg_js *
generated_node(js_ctx *ctx, rg_js_criterion criterion, nodes *l, const char *location)
{
	rg_js	   *c = js_combined(ctx, criterion, l->items, l->n, location);

	if (c)
		c->u.combined.synthetic = true;
	return c;
}

/* Does a combined node have a branch of n's class? */
static bool
has_class(const rg_js *combined, const rg_js *n)
{
	int			i;

	for (i = 0; i < combined->u.combined.n_subschemas; i++)
		if (same_class(combined->u.combined.subschemas[i], n))
			return true;
	return false;
}

/* A generated anyOf's branches with one more partial accumulated into them. */
static rg_js *
join_any(js_ctx *ctx, const rg_js *any, rg_js *cur, const char *location)
{
	nodes		l = {0};
	int			i;

	for (i = 0; i < any->u.combined.n_subschemas; i++)
		if (!nodes_push(ctx, &l, any->u.combined.subschemas[i]))
			return NULL;
	if (!nodes_accumulate(ctx, &l, cur))
		return NULL;
	return generated_node(ctx, RG_JS_ANY_OF, &l, location);
}

/* SchemaContext.join of the partials so far and the next one. */
static rg_js *
join(js_ctx *ctx, rg_js *prev, rg_js *cur, const char *location)
{
	nodes		l = {0};
	nodes		all = {0};
	int			i;

	if (same_class(prev, cur) && mergeable(cur->kind))
		return merge(ctx, prev, cur);
	if (generated(prev, RG_JS_ANY_OF) && has_class(prev, cur))
		return join_any(ctx, prev, cur, location);
	if (generated(cur, RG_JS_ANY_OF) && has_class(cur, prev))
		return join_any(ctx, cur, prev, location);
	if (!nodes_flatten(ctx, &l, prev) || !nodes_flatten(ctx, &l, cur))
		return NULL;
	for (i = 0; i < l.n; i++)
		if (!nodes_accumulate(ctx, &all, l.items[i]))
			return NULL;
	return generated_node(ctx, RG_JS_ALL_OF, &all, location);
}

/* Join one keyword's partial into the object's. */
static bool
add_partial(modern *m, rg_js *part)
{
	if (part == NULL)
		return false;
	m->acc = m->acc ? join(m->ctx, m->acc, part, m->pointer) : part;
	return m->acc != NULL;
}

/* A partial of a kind that does not require its type. */
static rg_js *
partial(modern *m, rg_js_kind kind)
{
	rg_js	   *n = js_new_node(m->ctx, kind, m->pointer);

	if (n && kind == RG_JS_OBJECT)
		n->u.object.permits_additional = true;
	if (n && kind == RG_JS_ARRAY)
		n->u.array.permits_additional = true;
	return n;
}

/* A sub-schema of a keyword. */
static rg_js *
sub(modern *m, jx *v, const char *ptr)
{
	if (!js_require_schema(m->ctx, v, ptr))
		return NULL;
	return js_load_schema(m->ctx, v, ptr, m->scope, m->depth + 1);
}

/* The typeToSchema of one type name. */
static rg_js *
type_schema(modern *m, const jx *name, const char *ptr)
{
	const char *type = js_require_string(m->ctx, name, ptr);
	rg_js	   *n;

	if (type == NULL)
		return NULL;
	if (strcmp(type, "string") == 0)
	{
		if ((n = partial(m, RG_JS_STRING)))
			n->u.string.requires_string = true;
	}
	else if (strcmp(type, "integer") == 0 || strcmp(type, "number") == 0)
	{
		if ((n = partial(m, RG_JS_NUMBER)))
		{
			n->u.number.requires_number = true;
			n->u.number.requires_integer = type[0] == 'i';
		}
	}
	else if (strcmp(type, "boolean") == 0)
		n = partial(m, RG_JS_BOOLEAN);
	else if (strcmp(type, "null") == 0)
		n = partial(m, RG_JS_NULL);
	else if (strcmp(type, "array") == 0)
	{
		if ((n = partial(m, RG_JS_ARRAY)))
			n->u.array.requires_array = true;
	}
	else if (strcmp(type, "object") == 0)
	{
		if ((n = partial(m, RG_JS_OBJECT)))
			n->u.object.requires_object = true;
	}
	else
	{
		js_fail(m->ctx, "%s: unknown type: [%s]", m->pointer, type);
		return NULL;
	}
	return n;
}

/* "type": a name, or an array of names (a generated anyOf). */
static rg_js *
kw_type(modern *m, jx *v, const char *ptr)
{
	nodes		l = {0};
	int			i;

	if (v->type == JX_STRING)
		return type_schema(m, v, ptr);
	if (v->type != JX_ARRAY)
	{
		js_fail(m->ctx, "%s: expected type is one of JsonArray or String, found: %s",
				ptr, js_type_name(v));
		return NULL;
	}
	for (i = 0; i < v->n; i++)
	{
		rg_js	   *t = type_schema(m, v->items[i], js_pointer_index(m->ctx, ptr, i));

		if (t == NULL || !nodes_push(m->ctx, &l, t))
			return NULL;
	}
	return generated_node(m->ctx, RG_JS_ANY_OF, &l, m->pointer);
}

/* A count keyword's partial field. */
static bool
count_of(modern *m, jx *v, const char *ptr, rg_js_count *out)
{
	if (!js_require_integer(m->ctx, v, ptr, &out->value))
		return false;
	out->present = true;
	return true;
}

/* A number keyword's partial field. */
static bool
number_of(modern *m, jx *v, const char *ptr, rg_js_number *out)
{
	if (!js_require_number(m->ctx, v, ptr))
		return false;
	out->present = true;
	out->value = jx_number_value(v);
	out->lexeme = v->text;
	return true;
}

/* The numeric keywords: a NumberSchema partial. */
static rg_js *
kw_number(modern *m, const char *key, jx *v, const char *ptr)
{
	rg_js	   *n = partial(m, RG_JS_NUMBER);
	rg_js_number *field;

	if (n == NULL)
		return NULL;
	if (strcmp(key, "minimum") == 0)
		field = &n->u.number.minimum;
	else if (strcmp(key, "maximum") == 0)
		field = &n->u.number.maximum;
	else if (strcmp(key, "exclusiveMinimum") == 0)
		field = &n->u.number.exclusive_minimum;
	else if (strcmp(key, "exclusiveMaximum") == 0)
		field = &n->u.number.exclusive_maximum;
	else
		field = &n->u.number.multiple_of;
	return number_of(m, v, ptr, field) ? n : NULL;
}

/* The string keywords: a StringSchema partial. */
static rg_js *
kw_string(modern *m, const char *key, jx *v, const char *ptr)
{
	rg_js	   *n = partial(m, RG_JS_STRING);

	if (n == NULL)
		return NULL;
	if (strcmp(key, "pattern") == 0)
		return (n->u.string.pattern = js_require_string(m->ctx, v, ptr)) &&
			js_check_regex(m->ctx, n->u.string.pattern, ptr) ? n : NULL;
	return count_of(m, v, ptr, strcmp(key, "minLength") == 0 ?
					&n->u.string.min_length : &n->u.string.max_length) ? n : NULL;
}

/* A list of schemas (allOf, prefixItems, ...), generated allOfs spliced in when splice. */
static bool
schema_list(modern *m, jx *v, const char *ptr, nodes *l, bool splice)
{
	int			i;

	if (!js_require(m->ctx, v, JX_ARRAY, ptr))
		return false;
	for (i = 0; i < v->n; i++)
	{
		rg_js	   *s = sub(m, v->items[i], js_pointer_index(m->ctx, ptr, i));

		if (s == NULL || !(splice ? nodes_flatten(m->ctx, l, s) : nodes_push(m->ctx, l, s)))
			return false;
	}
	return true;
}

/* allOf / anyOf / oneOf: a combined schema. */
static rg_js *
kw_combined(modern *m, rg_js_criterion criterion, jx *v, const char *ptr)
{
	nodes		l = {0};

	if (!schema_list(m, v, ptr, &l, true))
		return NULL;
	return js_combined(m->ctx, criterion, l.items, l.n, m->pointer);
}

/* A map of schemas (properties, patternProperties, dependentSchemas). */
static bool
schema_map(modern *m, jx *v, const char *ptr, rg_js_member **out, int *n)
{
	int			i;

	if (!js_require(m->ctx, v, JX_OBJECT, ptr))
		return false;
	*out = rg_arena_alloc(m->ctx->arena, sizeof(rg_js_member) * (v->n ? v->n : 1));
	if (*out == NULL)
	{
		js_oom(m->ctx);
		return false;
	}
	for (i = 0; i < v->n; i++)
	{
		(*out)[i].name = v->members[i].key;
		(*out)[i].schema = sub(m, v->members[i].value,
							   js_pointer_child(m->ctx, ptr, v->members[i].key,
												v->members[i].key_len));
		if ((*out)[i].schema == NULL)
			return false;
	}
	*n = v->n;
	return true;
}


/* dependentRequired: property dependencies. */
static rg_js *
kw_dependent_required(modern *m, jx *v, const char *ptr)
{
	rg_js	   *n = partial(m, RG_JS_OBJECT);
	int			i;

	if (n == NULL || !js_require(m->ctx, v, JX_OBJECT, ptr))
		return NULL;
	n->u.object.property_dependencies =
		rg_arena_alloc(m->ctx->arena, sizeof(rg_js_prop_dependency) * (v->n ? v->n : 1));
	if (n->u.object.property_dependencies == NULL)
	{
		js_oom(m->ctx);
		return NULL;
	}
	for (i = 0; i < v->n; i++)
	{
		rg_js_prop_dependency *d = &n->u.object.property_dependencies[i];

		d->name = v->members[i].key;
		d->requires = js_require_strings(m->ctx, v->members[i].value,
										 js_pointer_child(m->ctx, ptr, v->members[i].key,
														  v->members[i].key_len),
										 &d->n_requires);
		if (d->requires == NULL)
			return NULL;
	}
	n->u.object.n_property_dependencies = v->n;
	return n;
}

/* additionalProperties / propertyNames: an ObjectSchema partial. */
static rg_js *
kw_object_schema(modern *m, const char *key, jx *v, const char *ptr)
{
	rg_js	   *n = partial(m, RG_JS_OBJECT);
	rg_js	   *s = n ? sub(m, v, ptr) : NULL;

	if (s == NULL)
		return NULL;
	if (strcmp(key, "additionalProperties") == 0)
	{
		if (s->kind == RG_JS_FALSE)
			n->u.object.permits_additional = false;
		else if (s->kind != RG_JS_TRUE)
			n->u.object.additional_schema = s;
	}
	else
		n->u.object.property_names = s;
	return n;
}

/* The object keywords: an ObjectSchema partial. */
static rg_js *
kw_object(modern *m, const char *key, jx *v, const char *ptr)
{
	rg_js	   *n = partial(m, RG_JS_OBJECT);
	bool		ok = false;

	if (n == NULL)
		return NULL;
	if (strcmp(key, "dependentSchemas") == 0)
		ok = schema_map(m, v, ptr, &n->u.object.schema_dependencies,
						&n->u.object.n_schema_dependencies);
	else if (strcmp(key, "required") == 0)
		ok = (n->u.object.required = js_require_strings(m->ctx, v, ptr, &n->u.object.n_required)) != NULL;
	else if (strcmp(key, "minProperties") == 0)
		ok = count_of(m, v, ptr, &n->u.object.min_properties);
	else if (strcmp(key, "maxProperties") == 0)
		ok = count_of(m, v, ptr, &n->u.object.max_properties);
	return ok ? n : NULL;
}

/*
 * "items": all items, or the items after prefixItems; json-sKema knows
 * 2020-12's items only (an array is no schema, in 2019-09 too).
 */
static rg_js *
kw_items(modern *m, jx *v, const char *ptr)
{
	rg_js	   *n = partial(m, RG_JS_ARRAY);
	rg_js	   *s;

	if (n == NULL)
		return NULL;
	if ((s = sub(m, v, ptr)) == NULL)
		return NULL;
	n->u.array.additional_applies = true;
	if (s->kind == RG_JS_FALSE)
		n->u.array.permits_additional = false;
	else if (s->kind != RG_JS_TRUE)
	{
		jx		   *prefix = jx_get(m->obj, "prefixItems");

		if (prefix && prefix->type == JX_ARRAY && prefix->n > 0)
			n->u.array.additional_items = s;
		else
			n->u.array.all_items = s;
	}
	return n;
}

/* "contains", with minContains (1 when absent) and maxContains. */
static rg_js *
kw_contains(modern *m, jx *v, const char *ptr)
{
	rg_js	   *n = partial(m, RG_JS_ARRAY);
	jx		   *min = jx_get(m->obj, "minContains");
	jx		   *max = jx_get(m->obj, "maxContains");

	if (n == NULL || (n->u.array.contains = sub(m, v, ptr)) == NULL)
		return NULL;
	n->u.array.min_contains.present = true;
	n->u.array.min_contains.value = 1;
	if (min && !count_of(m, min, js_pointer_child(m->ctx, m->pointer, "minContains", 11),
						 &n->u.array.min_contains))
		return NULL;
	if (max && !count_of(m, max, js_pointer_child(m->ctx, m->pointer, "maxContains", 11),
						 &n->u.array.max_contains))
		return NULL;
	n->u.array.assert_min_contains = n->u.array.min_contains;
	n->u.array.assert_max_contains = n->u.array.max_contains;
	return n;
}

/* The array keywords: an ArraySchema partial. */
static rg_js *
kw_array(modern *m, const char *key, jx *v, const char *ptr)
{
	rg_js	   *n = partial(m, RG_JS_ARRAY);
	nodes		l = {0};

	if (n == NULL)
		return NULL;
	if (strcmp(key, "minItems") == 0)
		return count_of(m, v, ptr, &n->u.array.min_items) ? n : NULL;
	if (strcmp(key, "maxItems") == 0)
		return count_of(m, v, ptr, &n->u.array.max_items) ? n : NULL;
	if (strcmp(key, "uniqueItems") == 0)
	{
		if (!js_require(m->ctx, v, JX_TRUE, ptr))
			return NULL;
		n->u.array.unique_items = v->type == JX_TRUE;
		return n;
	}
	if (strcmp(key, "prefixItems") == 0)
	{
		if (!schema_list(m, v, ptr, &l, false))
			return NULL;
		n->u.array.item_schemas = l.items;
		n->u.array.n_item_schemas = l.n;
		return n;
	}
	return NULL;
}

/* if (with then and else): a ConditionalSchema. */
static rg_js *
kw_if(modern *m, jx *v, const char *ptr)
{
	rg_js	   *n = js_new_node(m->ctx, RG_JS_CONDITIONAL, m->pointer);
	jx		   *then_v = jx_get(m->obj, "then");
	jx		   *else_v = jx_get(m->obj, "else");

	if (n == NULL || (n->u.conditional.if_schema = sub(m, v, ptr)) == NULL)
		return NULL;
	if (then_v && (n->u.conditional.then_schema =
				   sub(m, then_v, js_pointer_child(m->ctx, m->pointer, "then", 4))) == NULL)
		return NULL;
	if (else_v && (n->u.conditional.else_schema =
				   sub(m, else_v, js_pointer_child(m->ctx, m->pointer, "else", 4))) == NULL)
		return NULL;
	return n;
}

/* enum, const, not: their everit schemas. */
static rg_js *
kw_value(modern *m, const char *key, jx *v, const char *ptr)
{
	rg_js	   *n;
	int			i;

	if (strcmp(key, "not") == 0)
	{
		if ((n = js_new_node(m->ctx, RG_JS_NOT, m->pointer)) == NULL)
			return NULL;
		return (n->u.not.schema = sub(m, v, ptr)) ? n : NULL;
	}
	if (strcmp(key, "const") == 0)
	{
		if ((n = js_new_node(m->ctx, RG_JS_CONST, m->pointer)) == NULL)
			return NULL;
		return (n->u.constant.value = js_keep_value(m->ctx, v)) ? n : NULL;
	}
	if (!js_require(m->ctx, v, JX_ARRAY, ptr) ||
		(n = js_new_node(m->ctx, RG_JS_ENUM, m->pointer)) == NULL)
		return NULL;
	n->u.enumeration.values = rg_arena_alloc(m->ctx->arena, sizeof(rg_js_value *) * (v->n ? v->n : 1));
	if (n->u.enumeration.values == NULL)
	{
		js_oom(m->ctx);
		return NULL;
	}
	for (i = 0; i < v->n; i++)
		if ((n->u.enumeration.values[i] = js_keep_value(m->ctx, v->items[i])) == NULL)
			return NULL;
	n->u.enumeration.n_values = v->n;
	return n;
}

/* A keyword ignored but not without trace: an empty generated allOf. */
static rg_js *
kw_trace(modern *m, const char *key, jx *v, const char *ptr)
{
	nodes		l = {0};

	if (strcmp(key, "format") == 0 ? !js_require(m->ctx, v, JX_STRING, ptr) :
		!js_require(m->ctx, v, JX_TRUE, ptr))
		return NULL;
	return generated_node(m->ctx, RG_JS_ALL_OF, &l, m->pointer);
}

/* $defs: loaded (so an error in them counts), kept unprocessed. */
static bool
kw_defs(modern *m, jx *v, const char *ptr)
{
	int			i;

	if (!js_require(m->ctx, v, JX_OBJECT, ptr))
		return false;
	for (i = 0; i < v->n; i++)
		if (sub(m, v->members[i].value, js_pointer_child(m->ctx, ptr, v->members[i].key,
														 v->members[i].key_len)) == NULL)
			return false;
	return true;
}

/*
 * One keyword: its partial joined in; true with *consumed false for a
 * keyword json-sKema does not know (left unprocessed).
 */
static bool
keyword(modern *m, const char *key, jx *v, bool *consumed)
{
	static const char *const numbers[] = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", NULL};
	static const char *const strings[] = {"minLength", "maxLength", "pattern", NULL};
	static const char *const objects[] = {"dependentSchemas", "required", "minProperties", "maxProperties", NULL};
	static const char *const arrays[] = {"minItems", "maxItems", "uniqueItems", "prefixItems", NULL};
	static const char *const later[] = {"properties", "patternProperties", "unevaluatedItems", "unevaluatedProperties", NULL};
	const char *ptr = js_pointer_child(m->ctx, m->pointer, key, strlen(key));

	*consumed = true;
	if (strcmp(key, "$ref") == 0 || strcmp(key, "$dynamicRef") == 0)
	{
		const char *ref = js_require_string(m->ctx, v, ptr);

		return ref && add_partial(m, js_load_ref(m->ctx, ref, m->pointer, m->scope, m->depth));
	}
	if (strcmp(key, "type") == 0)
		return add_partial(m, kw_type(m, v, ptr));
	if (in_list(numbers, key))
		return add_partial(m, kw_number(m, key, v, ptr));
	if (in_list(strings, key))
		return add_partial(m, kw_string(m, key, v, ptr));
	if (in_list(objects, key))
		return add_partial(m, kw_object(m, key, v, ptr));
	if (in_list(later, key))
		return true;			/* joined after the other keywords */
	if (strcmp(key, "additionalProperties") == 0 || strcmp(key, "propertyNames") == 0)
		return add_partial(m, kw_object_schema(m, key, v, ptr));
	if (strcmp(key, "dependentRequired") == 0)
		return add_partial(m, kw_dependent_required(m, v, ptr));
	if (in_list(arrays, key))
		return add_partial(m, kw_array(m, key, v, ptr));
	if (strcmp(key, "items") == 0)
		return add_partial(m, kw_items(m, v, ptr));
	if (strcmp(key, "contains") == 0)
		return add_partial(m, kw_contains(m, v, ptr));
	if (strcmp(key, "allOf") == 0)
		return add_partial(m, kw_combined(m, RG_JS_ALL_OF, v, ptr));
	if (strcmp(key, "anyOf") == 0)
		return add_partial(m, kw_combined(m, RG_JS_ANY_OF, v, ptr));
	if (strcmp(key, "oneOf") == 0)
		return add_partial(m, kw_combined(m, RG_JS_ONE_OF, v, ptr));
	if (strcmp(key, "enum") == 0 || strcmp(key, "const") == 0 || strcmp(key, "not") == 0)
		return add_partial(m, kw_value(m, key, v, ptr));
	if (strcmp(key, "if") == 0)
		return add_partial(m, kw_if(m, v, ptr));
	if (strcmp(key, "format") == 0 || strcmp(key, "readOnly") == 0 || strcmp(key, "writeOnly") == 0)
		return add_partial(m, kw_trace(m, key, v, ptr));
	if (strcmp(key, "$defs") == 0)
	{
		*consumed = false;		/* the translator keeps it unprocessed */
		return kw_defs(m, v, ptr);
	}
	if (strcmp(key, "deprecated") == 0)
		return js_require(m->ctx, v, JX_TRUE, ptr);
	if (in_list(quiet_keywords, key) || strcmp(key, "$id") == 0 ||
		strcmp(key, "title") == 0 || strcmp(key, "description") == 0 ||
		strcmp(key, "default") == 0)
		return true;
	*consumed = false;
	return true;
}

/* title, description, default and a nested $id: the schema's own. */
static bool
common(modern *m, rg_js *node)
{
	const char *const keys[] = {"title", "description"};
	const char **fields[] = {&node->title, &node->description};
	jx		   *v;
	int			i;

	/* json-sKema ignores an $id that is no string */
	if ((v = jx_get(m->obj, "$id")) && v->type == JX_STRING)
		node->id = v->text;
	for (i = 0; i < 2; i++)
	{
		if ((v = jx_get(m->obj, keys[i])) == NULL)
			continue;
		*fields[i] = js_require_string(m->ctx, v, js_pointer_child(m->ctx, m->pointer, keys[i],
																   strlen(keys[i])));
		if (*fields[i] == NULL)
			return false;
	}
	/* the root's $id is the document's base URI, not the schema's id */
	if (strcmp(m->pointer + strlen(m->pointer) - 1, "#") == 0)
		node->id = NULL;
	if ((v = jx_get(m->obj, "default")) && (node->default_value = js_keep_value(m->ctx, v)) == NULL)
		return false;
	return true;
}

/* One partial per member of a map keyword (properties, patternProperties), merged. */
static rg_js *
map_product(modern *m, const char *key, jx *v, const char *ptr)
{
	rg_js	   *product = NULL;
	int			i;

	if (!js_require(m->ctx, v, JX_OBJECT, ptr))
		return NULL;
	for (i = 0; i < v->n; i++)
	{
		rg_js	   *n = partial(m, RG_JS_OBJECT);
		rg_js_member *member = rg_arena_alloc(m->ctx->arena, sizeof(rg_js_member));

		if (n == NULL || member == NULL)
		{
			js_oom(m->ctx);
			return NULL;
		}
		member->name = v->members[i].key;
		if (key[1] == 'a' &&
			!js_check_regex(m->ctx, member->name,
							js_pointer_child(m->ctx, ptr, v->members[i].key, v->members[i].key_len)))
			return NULL;
		member->schema = sub(m, v->members[i].value,
							 js_pointer_child(m->ctx, ptr, v->members[i].key,
											  v->members[i].key_len));
		if (member->schema == NULL)
			return NULL;
		if (key[0] == 'p' && key[1] == 'r')
		{
			n->u.object.properties = member;
			n->u.object.n_properties = 1;
		}
		else
		{
			n->u.object.pattern_properties = member;
			n->u.object.n_pattern_properties = 1;
		}
		product = product ? join(m->ctx, product, n, m->pointer) : n;
		if (product == NULL)
			return NULL;
	}
	return product;
}

/*
 * SchemaVisitor.visitCompositeSchema after the keywords: the properties,
 * then the pattern properties, then unevaluatedItems and
 * unevaluatedProperties.  No keyword at all is an empty generated allOf.
 */
static bool
join_attributes(modern *m)
{
	static const char *const keys[] = {"properties", "patternProperties",
	"unevaluatedItems", "unevaluatedProperties"};
	nodes		none = {0};
	int			i;

	if (m->acc == NULL && (m->acc = generated_node(m->ctx, RG_JS_ALL_OF, &none, m->pointer)) == NULL)
		return false;
	for (i = 0; i < 4; i++)
	{
		jx		   *v = jx_get(m->obj, keys[i]);
		const char *ptr;
		rg_js	   *part;

		if (v == NULL)
			continue;
		ptr = js_pointer_child(m->ctx, m->pointer, keys[i], strlen(keys[i]));
		if (i < 2)
		{
			if (v->type == JX_OBJECT && v->n == 0)
				continue;		/* an empty map adds nothing */
			part = map_product(m, keys[i], v, ptr);
		}
		else
		{
			rg_js	   *s = sub(m, v, ptr);

			part = s ? partial(m, i == 2 ? RG_JS_ARRAY : RG_JS_OBJECT) : NULL;
			if (part && i == 2)
				part->u.array.unevaluated = part->u.array.assert_unevaluated = s;
			else if (part)
				part->u.object.unevaluated = part->u.object.assert_unevaluated = s;
		}
		if (!add_partial(m, part))
			return false;
	}
	return true;
}

/* The keywords left unprocessed, in document order. */
static bool
unprocessed(modern *m, rg_js *node)
{
	int			i;
	int			n = 0;

	for (i = 0; i < m->obj->n; i++)
		n += !m->used[i];
	if (n == 0)
		return true;
	node->unprocessed_names = rg_arena_alloc(m->ctx->arena, sizeof(char *) * n);
	node->unprocessed_values = rg_arena_alloc(m->ctx->arena, sizeof(rg_js_value *) * n);
	if (node->unprocessed_names == NULL || node->unprocessed_values == NULL)
	{
		js_oom(m->ctx);
		return false;
	}
	for (i = 0; i < m->obj->n; i++)
	{
		if (m->used[i])
			continue;
		node->unprocessed_names[node->n_unprocessed] = m->obj->members[i].key;
		if ((node->unprocessed_values[node->n_unprocessed++] =
			 js_keep_value(m->ctx, m->obj->members[i].value)) == NULL)
			return false;
	}
	return true;
}

/*
 * Does the translator give this object an unprocessed map of its own
 * (keywords json-sKema does not know, or $defs with a schema)?  It then
 * replaces the map the joined schema carried minContains, maxContains and
 * unevaluated* in, so the diff no longer sees them.
 */
static bool
own_unprocessed(const modern *m)
{
	int			i;

	for (i = 0; i < m->obj->n; i++)
	{
		jx_member  *mb = &m->obj->members[i];

		if (m->used[i])
			continue;
		if (strcmp(mb->key, "$defs") != 0 ||
			(mb->value->type == JX_OBJECT && mb->value->n > 0))
			return true;
	}
	return false;
}

/* What an own unprocessed map takes away from the schema. */
static void
drop_carried(rg_js *n)
{
	if (n->kind == RG_JS_ARRAY)
	{
		memset(&n->u.array.min_contains, 0, sizeof(rg_js_count));
		memset(&n->u.array.max_contains, 0, sizeof(rg_js_count));
		n->u.array.unevaluated = NULL;
	}
	else if (n->kind == RG_JS_OBJECT)
		n->u.object.unevaluated = NULL;
}

/* The schema the joined partials make: none is {}, a generated allOf of one is that one. */
static rg_js *
finish(modern *m)
{
	rg_js	   *n = m->acc;

	if (n == NULL || (generated(n, RG_JS_ALL_OF) && n->u.combined.n_subschemas == 0))
		return js_new_node(m->ctx, RG_JS_EMPTY, m->pointer);
	if (generated(n, RG_JS_ALL_OF) && n->u.combined.n_subschemas == 1)
		n = n->u.combined.subschemas[0];
	/* the node gets this object's attributes: a copy if it is shared */
	if (n->location != m->pointer || n->title || n->description || n->default_value ||
		n->id || n->n_unprocessed)
	{
		rg_js	   *copy = js_new_node(m->ctx, n->kind, m->pointer);

		if (copy == NULL)
			return NULL;
		*copy = *n;
		copy->location = m->pointer;
		copy->title = copy->description = copy->id = NULL;
		copy->default_value = NULL;
		copy->n_unprocessed = 0;
		n = copy;
	}
	if (own_unprocessed(m))
		drop_carried(n);
	return n;
}

/* See json_internal.h */
rg_js *
js_load_modern(js_ctx *ctx, jx *v, const char *pointer, const char *scope,
			   int depth)
{
	modern		m;
	jx		   *id = jx_get(v, "$id");
	rg_js	   *node;
	int			i;

	memset(&m, 0, sizeof(m));
	if (id && id->type == JX_STRING)
		scope = js_uri_resolve(ctx->arena, scope, id->text);
	m.ctx = ctx;
	m.obj = v;
	m.pointer = pointer;
	m.scope = scope;
	m.depth = depth;
	m.used = rg_arena_alloc(ctx->arena, sizeof(bool) * (v->n ? v->n : 1));
	if (m.used == NULL)
	{
		js_oom(ctx);
		return NULL;
	}
	for (i = 0; i < v->n; i++)
		if (!keyword(&m, v->members[i].key, v->members[i].value, &m.used[i]))
			return NULL;
	if (!join_attributes(&m) || (node = finish(&m)) == NULL || !common(&m, node) || !unprocessed(&m, node))
		return NULL;
	return node;
}
