/*-------------------------------------------------------------------------
 *
 * proto_parse.c
 *	  rg_format_protobuf's parse: libprotoc (through the shim) parses and
 *	  links, protobuf-c unpacks, proto_render.c writes the stored form.
 *
 * Ownership: the rg_schema and the proto_model live in the schema's
 * arena; the unpacked descriptors and the serialized main file are on
 * malloc (protobuf-c's default allocator) and are freed by the release
 * hook, which every error path below runs too.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_internal.h"

#include <stdlib.h>
#include <string.h>

#include "protoc_shim.h"

/* See rg_protobuf.h */
void
rg_protobuf_model_release(void *model)
{
	proto_model *m = model;

	if (m == NULL)
		return;
	if (m->pub.set)
		google__protobuf__file_descriptor_set__free_unpacked(m->pub.set, NULL);
	if (m->raw)
		google__protobuf__file_descriptor_proto__free_unpacked(m->raw, NULL);
	free(m->pub.serialized);
	m->pub.set = NULL;
	m->raw = NULL;
	m->pub.file = NULL;
	m->pub.serialized = NULL;
	m->pub.serialized_len = 0;
}

/* See rg_protobuf.h */
const rg_proto_parsed *
rg_protobuf_model(const rg_schema *s)
{
	if (s == NULL || s->model == NULL || s->format == NULL ||
		s->format->release != rg_protobuf_model_release)
		return NULL;
	return &((const proto_model *) s->model)->pub;
}

/* See rg_protobuf.h */
const unsigned char *
rg_protobuf_serialized(const rg_schema *s, size_t *len)
{
	const rg_proto_parsed *p = rg_protobuf_model(s);

	if (p == NULL)
	{
		*len = 0;
		return NULL;
	}
	*len = p->serialized_len;
	return p->serialized;
}

/*
 * Parse text with its references.  The main file is the last file of the
 * linked set; the parse of it (for rendering) comes separately from the
 * shim.
 */
/*
 * Put a message's declared nested messages first and its synthetic map
 * entries after them (each group in its own order), in every message.  The
 * parser lists a map entry where its field stands, so the same schema read
 * from its original text or from its stored form (fields before nested
 * declarations) would otherwise serialize differently; clients that count
 * nested messages in the serialized descriptor see Confluent's order.
 */
static bool
order_nested_types(Google__Protobuf__DescriptorProto *m, int depth)
{
	size_t		n = m->n_nested_type;
	size_t		i;
	size_t		k = 0;
	Google__Protobuf__DescriptorProto **tmp;

	if (rg_too_deep(depth))
		return false;
	for (i = 0; i < n; i++)
		if (!order_nested_types(m->nested_type[i], depth + 1))
			return false;
	if (n < 2)
		return true;
	tmp = malloc(sizeof(*tmp) * n);
	if (tmp == NULL)
		return true;			/* leave the order as parsed */
	for (i = 0; i < n; i++)
		if (!(m->nested_type[i]->options && m->nested_type[i]->options->has_map_entry &&
			  m->nested_type[i]->options->map_entry))
			tmp[k++] = m->nested_type[i];
	for (i = 0; i < n; i++)
		if (m->nested_type[i]->options && m->nested_type[i]->options->has_map_entry &&
			m->nested_type[i]->options->map_entry)
			tmp[k++] = m->nested_type[i];
	memcpy(m->nested_type, tmp, sizeof(*tmp) * n);
	free(tmp);
	return true;
}

/*
 * The main file as format=serialized gives it: packed from a copy whose
 * nested types are in a canonical order (the model itself is left as the
 * renderer and the index functions expect it).  false with err set on
 * failure.
 */
static bool
serialize_main_file(const Google__Protobuf__FileDescriptorProto *file,
					unsigned char **out, size_t *out_len, rg_error *err)
{
	size_t		len = protobuf_c_message_get_packed_size((const ProtobufCMessage *) file);
	unsigned char *buf = malloc(len ? len : 1);
	Google__Protobuf__FileDescriptorProto *copy;
	size_t		i;
	bool		ordered = true;

	if (buf == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	protobuf_c_message_pack((const ProtobufCMessage *) file, buf);
	copy = google__protobuf__file_descriptor_proto__unpack(NULL, len, buf);
	if (copy == NULL)
	{
		free(buf);
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	for (i = 0; i < copy->n_message_type && ordered; i++)
		ordered = order_nested_types(copy->message_type[i], 0);
	if (ordered)
		protobuf_c_message_pack((const ProtobufCMessage *) copy, buf);
	google__protobuf__file_descriptor_proto__free_unpacked(copy, NULL);
	if (!ordered)
	{
		free(buf);
		rg_error_set(err, RG_ERR_INVALID_SCHEMA, RG_PROTO_TOO_DEEP);
		return false;
	}
	*out = buf;
	*out_len = len;
	return true;
}

rg_schema *
rg_protobuf_parse(const char *text, size_t len, const rg_reference *refs,
				  int n_refs, bool normalize, rg_error *err)
{
	rg_arena   *arena;
	rg_schema  *schema;
	proto_model *model;
	rg_protoc_file *files = NULL;
	rg_protoc_result res;
	const Google__Protobuf__FileDescriptorProto *main_file;
	size_t		canon_len = 0;
	char	   *canon;
	int			i;

	rg_error_clear(err);
	memset(&res, 0, sizeof(res));
	if (text == NULL)
	{
		text = "";
		len = 0;
	}
	arena = rg_arena_create();
	if (arena == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return NULL;
	}
	schema = rg_arena_alloc(arena, sizeof(rg_schema));
	model = rg_arena_alloc(arena, sizeof(proto_model));
	if (n_refs > 0)
		files = rg_arena_alloc(arena, sizeof(rg_protoc_file) * (size_t) n_refs);
	if (schema == NULL || model == NULL || (n_refs > 0 && files == NULL))
		goto oom;
	schema->format = &rg_format_protobuf;
	schema->arena = arena;
	schema->model = model;

	for (i = 0; i < n_refs; i++)
	{
		files[i].name = refs[i].name;
		files[i].text = refs[i].schema;
		files[i].len = refs[i].schema ? refs[i].schema_len : 0;
	}

	if (!rg_protoc_build(text, len, files, n_refs < 0 ? 0 : n_refs, &res))
	{
		if (res.error == NULL)
			goto oom;
		rg_error_set(err, RG_ERR_INVALID_SCHEMA, "%s", res.error);
		rg_protoc_result_free(&res);
		rg_arena_destroy(arena);
		return NULL;
	}

	model->pub.set = google__protobuf__file_descriptor_set__unpack(NULL, res.set_len,
																   res.set);
	model->raw = google__protobuf__file_descriptor_proto__unpack(NULL, res.raw_len,
																 res.raw);
	rg_protoc_result_free(&res);
	if (model->pub.set == NULL || model->raw == NULL ||
		model->pub.set->n_file == 0)
	{
		rg_error_set(err, RG_ERR_INTERNAL, "cannot unpack the linked descriptors");
		goto fail;
	}
	main_file = model->pub.set->file[model->pub.set->n_file - 1];
	model->pub.file = main_file;

	if (!serialize_main_file(main_file, &model->pub.serialized,
							 &model->pub.serialized_len, err))
		goto fail;

	canon = rg_proto_render(model->raw, main_file, normalize, &canon_len, err);
	if (canon == NULL)
		goto fail;
	schema->canonical = rg_arena_strndup(arena, canon, canon_len);
	free(canon);
	if (schema->canonical == NULL)
		goto oom;
	schema->canonical_len = canon_len;
	return schema;

oom:
	rg_error_set(err, RG_ERR_NOMEM, "out of memory");
fail:
	rg_protoc_result_free(&res);
	if (model)
		rg_protobuf_model_release(model);
	rg_arena_destroy(arena);
	return NULL;
}
