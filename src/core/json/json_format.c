/*-------------------------------------------------------------------------
 *
 * json_format.c
 *	  The JSON format's parse: the document read as Confluent's Jackson
 *	  mapper reads it, its draft chosen from "$schema" as JsonSchema.
 *	  rawSchema() chooses it, the referenced schemas registered, the
 *	  rg_js tree loaded (json_load.c) with its $refs resolved
 *	  (json_refs.c), and the stored form written (json_render.c).
 *
 * Errors are the "details" of Confluent's 42201 message, which the
 * PostgreSQL glue prefixes with "Invalid schema <text> with refs <refs>
 * of type JSON, details: " as for the other formats: "Invalid JSON: ..."
 * for text Jackson cannot read (Confluent: "Invalid JSON <text>"), and
 * "Invalid JSON Schema: <location>: <reason>" for a document everit
 * refuses (Confluent: "Invalid JSON Schema", the reason only in its log).
 *
 *-------------------------------------------------------------------------
 */
#include "json_internal.h"
#include "json_diff_internal.h"

#include <string.h>

/*
 * The model behind rg_schema.model: the public part, then the JSON values
 * the schema keeps, held by one array so that release needs no walk over
 * a graph that may have cycles.
 */
typedef struct js_model
{
	rg_js_parsed pub;
	json_t	   *owned;
	const jx   *document;		/* the main document as read (in the arena) */
} js_model;

/* a meta-schema URL everit's SpecificationVersion knows, as a prefix */
typedef struct draft_url
{
	const char *url;
	rg_js_draft draft;
} draft_url;

/*
 * Confluent's own table (SpecificationVersion.getFromUrl, an exact match)
 * sends 2019-09 and 2020-12 to json-sKema; any other $schema goes to
 * everit, which matches its URLs as prefixes ("...draft-04/schema#" is
 * draft 4, ".../2019-09/schema#" everit's own 2019-09) and falls back to
 * the draft 7 Confluent asks for.
 */
static const draft_url exact_urls[] = {
	{"http://json-schema.org/draft/2019-09/schema", RG_JS_DRAFT_2019_09},
	{"https://json-schema.org/draft/2019-09/schema", RG_JS_DRAFT_2019_09},
	{"http://json-schema.org/draft/2020-12/schema", RG_JS_DRAFT_2020_12},
	{"https://json-schema.org/draft/2020-12/schema", RG_JS_DRAFT_2020_12},
};
static const draft_url prefix_urls[] = {
	{"http://json-schema.org/draft-04/schema", RG_JS_DRAFT_4},
	{"https://json-schema.org/draft-04/schema", RG_JS_DRAFT_4},
	{"http://json-schema.org/schema", RG_JS_DRAFT_4},
	{"https://json-schema.org/schema", RG_JS_DRAFT_4},
	{"http://json-schema.org/draft-06/schema", RG_JS_DRAFT_6},
	{"https://json-schema.org/draft-06/schema", RG_JS_DRAFT_6},
	{"http://json-schema.org/draft-07/schema", RG_JS_DRAFT_7},
	{"https://json-schema.org/draft-07/schema", RG_JS_DRAFT_7},
	{"http://json-schema.org/draft/2019-09/schema", RG_JS_DRAFT_2019_09},
	{"https://json-schema.org/draft/2019-09/schema", RG_JS_DRAFT_2019_09},
};

/* The draft "$schema" selects; draft 7 when absent or unknown. */
static bool
choose_draft(js_ctx *ctx, const jx *root, rg_js_draft *draft)
{
	const jx   *s = jx_get(root, "$schema");
	size_t		i;

	*draft = RG_JS_DRAFT_7;
	if (s == NULL || s->type == JX_NULL)
		return true;
	if (s->type != JX_STRING)
	{
		js_fail(ctx, "#/$schema: expected type: String, found: %s", js_type_name(s));
		return false;
	}
	for (i = 0; i < sizeof(exact_urls) / sizeof(exact_urls[0]); i++)
		if (strcmp(s->text, exact_urls[i].url) == 0)
		{
			*draft = exact_urls[i].draft;
			ctx->skema = true;
			return true;
		}
	for (i = 0; i < sizeof(prefix_urls) / sizeof(prefix_urls[0]); i++)
		if (strncmp(s->text, prefix_urls[i].url, strlen(prefix_urls[i].url)) == 0)
		{
			*draft = prefix_urls[i].draft;
			return true;
		}
	return true;
}

/* The id of a document's root, resolved on its own; NULL if none. */
static const char *
root_id(js_ctx *ctx, const jx *root)
{
	const jx   *id = jx_get(root, js_id_keyword(ctx->draft));

	if (id == NULL || id->type != JX_STRING)
		return NULL;
	return js_uri_resolve(ctx->arena, NULL, id->text);
}

/* Read the main text: JSON, then an object or a boolean. */
static bool
read_main(js_ctx *ctx, const char *text, size_t len)
{
	js_doc	   *doc = &ctx->docs[0];

	doc->root = jx_parse(ctx->arena, text, len, ctx->err);
	if (doc->root == NULL)
	{
		ctx->failed = true;
		return false;
	}
	if (doc->root->type != JX_OBJECT && doc->root->type != JX_TRUE &&
		doc->root->type != JX_FALSE)
	{
		js_fail(ctx, "#: expected type is one of Boolean or JsonObject, found: %s",
				js_type_name(doc->root));
		return false;
	}
	if (ctx->sorted && !jx_sort(doc->root))
	{
		js_fail(ctx, "#: schema nesting is too deep for the stack");
		return false;
	}
	if (doc->root->type == JX_OBJECT && !choose_draft(ctx, doc->root, &ctx->draft))
		return false;
	if (!ctx->skema && !js_check_finite(ctx, doc->root, "#"))
		return false;
	doc->key = doc->root->type == JX_OBJECT ? root_id(ctx, doc->root) : NULL;
	return true;
}

/*
 * Read the referenced schemas, each registered under its name resolved
 * against the main document's id (JsonSchema.loadPreviousDraft).
 */
static bool
read_references(js_ctx *ctx, const rg_reference *refs, int n_refs)
{
	int			i;

	for (i = 0; i < n_refs; i++)
	{
		js_doc	   *doc = &ctx->docs[1 + i];
		const char *name = refs[i].name ? refs[i].name : "";

		doc->name = name;
		doc->root = jx_parse(ctx->arena, refs[i].schema ? refs[i].schema : "",
							 refs[i].schema ? refs[i].schema_len : 0, ctx->err);
		if (doc->root == NULL)
		{
			char		msg[RG_ERROR_MAX];

			memcpy(msg, ctx->err->message, sizeof(msg));
			rg_error_set(ctx->err, RG_ERR_INVALID_SCHEMA, "Reference %s: %s", name, msg);
			ctx->failed = true;
			return false;
		}
		/* everit registers a JSONObject; json-sKema takes a boolean too */
		if (doc->root->type != JX_OBJECT &&
			(!ctx->skema || (doc->root->type != JX_TRUE && doc->root->type != JX_FALSE)))
		{
			rg_error_set(ctx->err, RG_ERR_INVALID_SCHEMA,
						 "Reference %s: Invalid JSON Schema: #: expected type is one of Boolean or JsonObject, found: %s",
						 name, js_type_name(doc->root));
			ctx->failed = true;
			return false;
		}
		doc->key = js_uri_resolve(ctx->arena, ctx->docs[0].key, name);
		if (doc->key == NULL)
		{
			js_oom(ctx);
			return false;
		}
		ctx->n_docs++;
	}
	return true;
}

/* The stored form: the main document as Jackson writes it. */
static bool
write_canonical(js_ctx *ctx, rg_schema *schema, bool normalize)
{
	rg_buf		buf;
	bool		too_deep;

	rg_buf_init(&buf);
	if (!jx_render(&buf, ctx->docs[0].root, normalize))
		buf.oom = true;
	too_deep = buf.too_deep;
	if (rg_schema_keep_text(schema, ctx->arena, &buf))
		return true;
	if (too_deep)
		js_fail(ctx, "#: schema nesting is too deep for the stack");
	else
		js_oom(ctx);
	return false;
}

/* Build the diff's index of every object node's properties. */
static bool
index_objects(js_ctx *ctx)
{
	struct js_node_link *l;

	for (l = ctx->objects; l != NULL; l = l->next)
		if (l->node->kind == RG_JS_OBJECT && !rg_jd_index_object(ctx->arena, l->node))
			return false;
	return true;
}

/*
 * Identify, load, resolve and index: the rg_js tree of the main document,
 * its nodes with their content ids.
 */
static rg_js *
load_tree(js_ctx *ctx)
{
	rg_js	   *root;
	int			i;

	for (i = 0; i < ctx->n_docs; i++)
		if (!js_collect_idents(ctx, &ctx->docs[i]))
			return NULL;
	ctx->doc = &ctx->docs[0];
	root = js_load_schema(ctx, ctx->docs[0].root, ctx->docs[0].pointer,
						  ctx->docs[0].key, 0);
	if (root == NULL || !js_finish_refs(ctx) || !index_objects(ctx) ||
		!rg_jd_content_ids(ctx->arena, root, ctx->objects))
		return NULL;
	return root;
}

/*
 * The parse into a new arena (destroyed on failure): the texts, the tree,
 * the stored form.  normalize is Confluent's only change to a JSON schema:
 * the document's keys sorted (Java's String order, recursively), and the
 * schema built from the sorted document, as JsonSchema.normalize() does.
 */
static rg_schema *
parse_into(rg_arena *arena, const char *text, size_t len, const rg_reference *refs,
		   int n_refs, bool normalize, rg_error *err)
{
	js_ctx	   *ctx;
	rg_schema  *schema;
	js_model   *model;
	rg_error	local;

	if (err == NULL)
		err = &local;
	ctx = rg_calloc(1, sizeof(js_ctx));
	schema = rg_arena_alloc(arena, sizeof(rg_schema));
	model = rg_arena_alloc(arena, sizeof(js_model));
	if (ctx == NULL || schema == NULL || model == NULL ||
		(ctx->docs = rg_arena_alloc(arena, sizeof(js_doc) * (n_refs + 1))) == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		rg_free(ctx);
		rg_arena_destroy(arena);
		return NULL;
	}
	ctx->arena = arena;
	ctx->err = err;
	ctx->n_docs = 1;
	ctx->sorted = normalize;
	ctx->queue_tail = &ctx->queue_head;
	schema->format = &rg_format_json;
	schema->arena = arena;
	schema->model = model;
	if (text == NULL)
		text = "";
	if (!read_main(ctx, text, len) ||
		!read_references(ctx, refs, n_refs) ||
		(model->pub.root = load_tree(ctx)) == NULL ||
		!write_canonical(ctx, schema, normalize))
		goto fail;
	model->pub.draft = ctx->draft;
	model->owned = ctx->owned;
	model->document = ctx->docs[0].root;
	rg_free(ctx);
	return schema;

fail:
	if (!ctx->failed)
		js_oom(ctx);
	json_decref(ctx->owned);
	rg_free(ctx);
	rg_arena_destroy(arena);
	return NULL;
}

/*
 * rg_format_json's parse: the schema's arena in the current place, the
 * work in scratch.
 */
rg_schema *
rg_json_parse(const char *text, size_t len, const rg_reference *refs,
			  int n_refs, bool normalize, rg_error *err)
{
	return rg_parse_in_scratch(parse_into, text, len, refs, n_refs, normalize, err);
}

/* See rg_jsonschema.h */
void
rg_json_model_release(void *model)
{
	js_model   *m = model;

	if (m && m->owned)
	{
		json_decref(m->owned);
		m->owned = NULL;
	}
}

/* See rg_jsonschema.h */
const rg_js_parsed *
rg_json_model(const rg_schema *s)
{
	if (s == NULL || s->format != &rg_format_json)
		return NULL;
	return &((js_model *) s->model)->pub;
}

/*
 * See rg_jsonschema.h.  Confluent looks at the document itself, not at the
 * schema it loads: a member of the root's "properties" when that is an
 * object.  A $ref, allOf or anything else at the root adds nothing, and a
 * boolean document has no fields.
 */
bool
rg_json_has_top_level_field(const rg_schema *schema, const char *name)
{
	const js_model *model = schema->model;
	const jx   *properties;

	if (model == NULL || model->document == NULL)
		return false;
	properties = jx_get(model->document, "properties");
	return properties != NULL && properties->type == JX_OBJECT &&
		jx_get(properties, name) != NULL;
}

/* The document a JSON schema was read from (json_internal.h). */
const jx   *
rg_json_document(const rg_schema *schema)
{
	const js_model *model = schema->model;

	return model != NULL ? model->document : NULL;
}

/* The JSON format: the one thing the JSON folder exports to the rest of the core. */
const rg_format rg_format_json = {
	.name = "JSON",
	.parse = rg_json_parse,
	.can_read = rg_json_can_read,
	.can_read_lenient = rg_json_can_read_lenient,
	.has_top_level_field = rg_json_has_top_level_field,
	.release = rg_json_model_release,
	.encode = rg_json_encode,
	.decode = rg_json_decode,
	.apply_tags = rg_json_apply_tags,
	.lint = rg_json_lint,
	.fields = rg_json_fields,
};
