/*-------------------------------------------------------------------------
 *
 * tags.c
 *	  Schema tags (see tags.h): the core's rewrite and tagged entities
 *	  (rg_tags.h) with their errors reported, and the SQL functions over
 *	  one schema text, outside any subject.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "registry.h"
#include "rg_tags.h"
#include "schemas.h"
#include "tags.h"

PG_FUNCTION_INFO_V1(registry_schema_with_tags);
PG_FUNCTION_INFO_V1(registry_schema_tags);

/* 42201 unless the format has tags the core can rewrite */
static void
require_tag_format(const rg_format *format)
{
	if (format->apply_tags == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("schema tags are not supported for %s schemas", format->name),
				 errdetail("Schema tags are not supported for %s schemas.", format->name)));
}

/* A SchemaTags list from jsonb text (NULL: empty); 42201 when malformed. */
static void
read_tag_list(rg_arena *arena, const char *json, rg_schema_tags **list, int *n)
{
	rg_error	err;

	*list = NULL;
	*n = 0;
	if (json == NULL)
		return;
	rg_error_clear(&err);
	if (!rg_schema_tags_parse(arena, json, strlen(json), list, n, &err))
		ereport(ERROR,
				(errcode(err.code == RG_ERR_NOMEM ? ERRCODE_OUT_OF_MEMORY : ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("invalid schema tags"),
				 errdetail("%s", err.message)));
}

/* Report a failed rewrite or listing of tags. */
static void
			report_tag_error(const rg_error *err) pg_attribute_noreturn();

static void
report_tag_error(const rg_error *err)
{
	if (err->code == RG_ERR_NOMEM)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	ereport(ERROR,
			(errcode(err->code == RG_ERR_INVALID_SCHEMA ? ERRCODE_REGISTRY_INVALID_SCHEMA
					 : ERRCODE_INTERNAL_ERROR),
			 errmsg("schema tags do not fit the schema"),
			 errdetail("%s", err->message)));
	pg_unreachable();
}

/* The rewrite of two lists already read; palloc'd text. */
static char *
rewrite(const rg_schema *schema, const rg_schema_tags *add, int n_add,
		const rg_schema_tags *remove, int n_remove)
{
	rg_buf		out;
	rg_error	err;
	char	   *text;

	require_tag_format(schema->format);
	rg_buf_init(&out);
	rg_error_clear(&err);
	if (!rg_schema_rewrite_tags(schema, add, n_add, remove, n_remove, &out, &err))
		report_tag_error(&err);
	text = pnstrdup(out.data ? out.data : "", out.len);
	rg_buf_free(&out);
	return text;
}

/* See tags.h */
char *
registry_rewrite_tags(const rg_schema *schema, const char *add_json,
					  const char *remove_json)
{
	rg_arena   *arena = rg_arena_create();
	rg_schema_tags *add,
			   *remove;
	int			n_add,
				n_remove;
	char	   *text;

	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	read_tag_list(arena, add_json, &add, &n_add);
	read_tag_list(arena, remove_json, &remove, &n_remove);
	text = rewrite(schema, add, n_add, remove, n_remove);
	rg_arena_destroy(arena);
	return text;
}

/* See tags.h */
char *
registry_propagate_tags(const rg_schema *previous, const rg_schema *next)
{
	rg_arena   *arena;
	rg_schema_tags *tags;
	int			n;
	rg_error	err;
	char	   *text;

	if (next->format->apply_tags == NULL)
		return NULL;
	arena = rg_arena_create();
	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	rg_error_clear(&err);
	if (!rg_schema_tagged_entities(previous, arena, NULL, 0, &tags, &n, &err))
		report_tag_error(&err);
	text = n > 0 ? rewrite(next, tags, n, NULL, 0) : NULL;
	rg_arena_destroy(arena);
	return text;
}

/* See tags.h */
char *
registry_find_tags(const rg_schema *schema, const char *const *find, int n_find)
{
	rg_arena   *arena;
	rg_schema_tags *tags;
	int			n;
	rg_error	err;
	rg_buf		out;
	char	   *json;

	arena = rg_arena_create();
	if (arena == NULL)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	rg_error_clear(&err);
	if (!rg_schema_tagged_entities(schema, arena, find, n_find, &tags, &n, &err))
		report_tag_error(&err);
	rg_buf_init(&out);
	rg_schema_tags_write(&out, tags, n);
	if (out.oom)
		ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
	json = pnstrdup(out.data, out.len);
	rg_buf_free(&out);
	rg_arena_destroy(arena);
	return json;
}

/* A schema text of a type parsed alone (no references); 42201 when invalid. */
static rg_schema *
parse_alone(const rg_format *format, const char *text)
{
	rg_error	err;
	rg_schema  *schema;

	rg_error_clear(&err);
	schema = format->parse(text, strlen(text), NULL, 0, false, &err);
	if (schema == NULL)
		registry_report_invalid_schema(format->name, err.message);
	return schema;
}

/* jsonb argument n as text */
static char *
jsonb_text_arg(FunctionCallInfo fcinfo, int n)
{
	Jsonb	   *j = PG_GETARG_JSONB_P(n);

	return JsonbToCString(NULL, &j->root, VARSIZE(j));
}

/*
 * registry.schema_with_tags(schema, schema_type, tags_to_add,
 * tags_to_remove) -> the stored form of the schema with those tags
 */
Datum
registry_schema_with_tags(PG_FUNCTION_ARGS)
{
	const rg_format *format = registry_format(text_to_cstring(PG_GETARG_TEXT_PP(1)));
	rg_schema  *schema;
	rg_schema  *again;
	char	   *rewritten;
	text	   *result;

	require_tag_format(format);
	schema = parse_alone(format, text_to_cstring(PG_GETARG_TEXT_PP(0)));
	rewritten = registry_rewrite_tags(schema, jsonb_text_arg(fcinfo, 2),
									  jsonb_text_arg(fcinfo, 3));
	again = parse_alone(format, rewritten);
	result = cstring_to_text_with_len(again->canonical, again->canonical_len);
	rg_schema_free(again);
	rg_schema_free(schema);
	PG_RETURN_TEXT_P(result);
}

/*
 * registry.schema_tags(schema, schema_type, find_tags) -> the SchemaTags
 * list of the entities with one of find_tags ('*': every tagged entity)
 */
Datum
registry_schema_tags(PG_FUNCTION_ARGS)
{
	const rg_format *format = registry_format(text_to_cstring(PG_GETARG_TEXT_PP(1)));
	ArrayType  *find_arr = PG_GETARG_ARRAYTYPE_P(2);
	Datum	   *elems;
	bool	   *nulls;
	int			n_find;
	const char **find;
	int			i;
	int			n = 0;
	rg_schema  *schema;
	char	   *json;

	deconstruct_array(find_arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n_find);
	find = palloc((n_find + 1) * sizeof(char *));
	for (i = 0; i < n_find; i++)
		if (!nulls[i])
			find[n++] = TextDatumGetCString(elems[i]);
	schema = parse_alone(format, text_to_cstring(PG_GETARG_TEXT_PP(0)));
	json = n > 0 ? registry_find_tags(schema, find, n) : pstrdup("[]");
	rg_schema_free(schema);
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(json)));
}
