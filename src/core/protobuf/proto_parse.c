/*-------------------------------------------------------------------------
 *
 * proto_parse.c
 *	  rg_format_protobuf's parse: libprotoc (through the shim) parses and
 *	  links, protobuf-c unpacks, proto_render.c writes the stored form.
 *
 * Ownership: the rg_schema and the proto_model live in the schema's
 * arena; the unpacked descriptors (protobuf-c allocates through the core's
 * handlers, see rg_alloc.h) and the serialized main file are outside it
 * and are freed by the release hook, which every error path below runs
 * too.
 *
 *-------------------------------------------------------------------------
 */
#include "proto_internal.h"

#include <stdlib.h>
#include <string.h>

#include "protoc_shim.h"

/* protobuf-c's allocation callback: near data (a block), or current */
static void *
pb_alloc(void *data, size_t size)
{
	return data != NULL ? rg_malloc_near(data, size) : rg_malloc(size);
}

/* protobuf-c's release callback: the core's handlers */
static void
pb_free(void *data, void *ptr)
{
	rg_free(ptr);
}

/* protobuf-c allocating near a schema's arena: what the model keeps */
static ProtobufCAllocator
kept_allocator(rg_arena *arena)
{
	ProtobufCAllocator a = {.alloc = pb_alloc,.free = pb_free,.allocator_data = arena};

	return a;
}

/* protobuf-c allocating in the current place: temporary messages */
static ProtobufCAllocator pb_allocator = {
	.alloc = pb_alloc,
	.free = pb_free,
	.allocator_data = NULL,
};

/* See rg_protobuf.h */
void
rg_protobuf_model_release(void *model)
{
	proto_model *m = model;

	if (m == NULL)
		return;
	if (m->pub.set)
		google__protobuf__file_descriptor_set__free_unpacked(m->pub.set, &pb_allocator);
	if (m->raw)
		google__protobuf__file_descriptor_proto__free_unpacked(m->raw, &pb_allocator);
	rg_free(m->pub.serialized);
	rg_free(m->set_bytes);
	m->set_bytes = NULL;
	m->set_bytes_len = 0;
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
	tmp = rg_malloc(sizeof(*tmp) * n);
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
	rg_free(tmp);
	return true;
}

/*
 * The main file as format=serialized gives it: packed from a copy whose
 * nested types are in a canonical order (the model itself is left as the
 * renderer and the index functions expect it).  false with err set on
 * failure.
 */
static bool
serialize_main_file(rg_arena *arena, const Google__Protobuf__FileDescriptorProto *file,
					unsigned char **out, size_t *out_len, rg_error *err)
{
	size_t		len = protobuf_c_message_get_packed_size((const ProtobufCMessage *) file);
	unsigned char *buf = rg_malloc_near(arena, len);
	Google__Protobuf__FileDescriptorProto *copy;
	size_t		i;
	bool		ordered = true;

	if (buf == NULL)
	{
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	protobuf_c_message_pack((const ProtobufCMessage *) file, buf);
	copy = google__protobuf__file_descriptor_proto__unpack(&pb_allocator, len, buf);
	if (copy == NULL)
	{
		rg_free(buf);
		rg_error_set(err, RG_ERR_NOMEM, "out of memory");
		return false;
	}
	for (i = 0; i < copy->n_message_type && ordered; i++)
		ordered = order_nested_types(copy->message_type[i], 0);
	if (ordered)
		protobuf_c_message_pack((const ProtobufCMessage *) copy, buf);
	google__protobuf__file_descriptor_proto__free_unpacked(copy, &pb_allocator);
	if (!ordered)
	{
		rg_free(buf);
		rg_error_set(err, RG_ERR_INVALID_SCHEMA, RG_PROTO_TOO_DEEP);
		return false;
	}
	*out = buf;
	*out_len = len;
	return true;
}

/*
 * Parse text with its references into arena (destroyed on failure).  The
 * main file is the last file of the linked set; the parse of it (for
 * rendering) comes separately from the shim.
 */
static rg_schema *
parse_into(rg_arena *arena, const char *text, size_t len, const rg_reference *refs,
		   int n_refs, bool normalize, rg_error *err)
{
	ProtobufCAllocator kept = kept_allocator(arena);
	rg_schema  *schema;
	proto_model *model;
	rg_protoc_file *files = NULL;
	rg_protoc_result res;
	const Google__Protobuf__FileDescriptorProto *main_file;
	size_t		canon_len = 0;
	char	   *canon;
	int			i;

	memset(&res, 0, sizeof(res));
	if (text == NULL)
	{
		text = "";
		len = 0;
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

	model->pub.set = google__protobuf__file_descriptor_set__unpack(&kept, res.set_len,
																   res.set);
	model->raw = google__protobuf__file_descriptor_proto__unpack(&kept, res.raw_len,
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

	if (!serialize_main_file(arena, main_file, &model->pub.serialized,
							 &model->pub.serialized_len, err))
		goto fail;

	canon = rg_proto_render(model->raw, main_file, normalize, &canon_len, err);
	if (canon == NULL)
		goto fail;
	schema->canonical = rg_arena_strndup(arena, canon, canon_len);
	rg_free(canon);
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

/*
 * rg_format_protobuf's parse: the schema's arena (and what the model
 * keeps, near it) in the current place, the work in scratch.
 */
rg_schema *
rg_protobuf_parse(const char *text, size_t len, const rg_reference *refs,
				  int n_refs, bool normalize, rg_error *err)
{
	return rg_parse_in_scratch(parse_into, text, len, refs, n_refs, normalize, err);
}
