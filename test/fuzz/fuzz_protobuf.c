/*-------------------------------------------------------------------------
 *
 * fuzz_protobuf.c
 *	  libFuzzer target for the PROTOBUF parser (libprotoc through the
 *	  shim), the stored-form renderer and message indexes.
 *
 * The first byte of the input chooses the options (bit 0: normalize;
 * bit 1: the rest is also offered as an import "dep.proto" to a fixed
 * main file); the rest is a schema text.  Whatever parses is put through:
 *
 *	- the idempotence of the stored form: schema->canonical must parse
 *	  again (same options), to the very same text (abort() otherwise, so
 *	  libFuzzer records the input);
 *	- message indexes: for every declared message path, the name found
 *	  at the path maps back to the same path, and the path survives the
 *	  wire encoding;
 *	- the descriptor form: the serialized main file, given as base64,
 *	  parses (same options), its stored form parses again, and every
 *	  field, extension and method there names the types it names in the
 *	  text's stored form (the descriptor's type names are written short);
 *
 * and the raw input is also decoded as a message-index array.  Everything
 * is freed, so LeakSanitizer sees any leak in the core or the shim.
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rg_protobuf.h"

#define FUZZ_TARGET "fuzz_protobuf"
#include "fuzz_common.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static rg_schema *
parse_one(const char *text, size_t len, const rg_reference *refs, int n_refs,
		  bool normalize)
{
	rg_error	err;
	rg_schema  *s = rg_protobuf_parse(text, len, refs, n_refs, normalize, &err);

	if (s == NULL)
	{
		if (err.code == RG_ERR_INTERNAL)
			invariant_failed("rg_protobuf_parse internal error", err.message, NULL);
		return NULL;
	}
	if (s->canonical == NULL || strlen(s->canonical) != s->canonical_len)
		invariant_failed("stored form length", s->canonical, NULL);
	return s;
}

/* Standard base64 of n bytes, malloc'd */
static char *
base64(const unsigned char *p, size_t n)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char	   *out = malloc(4 * ((n + 2) / 3) + 1);
	size_t		i,
				o = 0;

	if (out == NULL)
		abort();
	for (i = 0; i < n; i += 3)
	{
		unsigned	v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);

		out[o++] = tab[(v >> 18) & 63];
		out[o++] = tab[(v >> 12) & 63];
		out[o++] = i + 1 < n ? tab[(v >> 6) & 63] : '=';
		out[o++] = i + 2 < n ? tab[v & 63] : '=';
	}
	out[o] = '\0';
	return out;
}

typedef Google__Protobuf__DescriptorProto fz_msg;
typedef Google__Protobuf__FieldDescriptorProto fz_field;

/* NULL-safe string equality */
static bool
same_str(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Do two field lists name the same types, number by number? */
static bool
same_field_types(fz_field *const *a, size_t na, fz_field *const *b, size_t nb)
{
	size_t		i,
				j;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
	{
		for (j = 0; j < nb && b[j]->number != a[i]->number; j++)
			;
		if (j == nb || !same_str(a[i]->type_name, b[j]->type_name) ||
			!same_str(a[i]->extendee, b[j]->extendee))
			return false;
	}
	return true;
}

/* The same for two messages, their extensions and nested messages by name. */
static bool
same_message_types(const fz_msg *a, const fz_msg *b, int depth)
{
	size_t		i,
				j;

	if (depth > 200 || a->n_nested_type != b->n_nested_type ||
		!same_field_types(a->field, a->n_field, b->field, b->n_field) ||
		!same_field_types(a->extension, a->n_extension, b->extension, b->n_extension))
		return false;
	for (i = 0; i < a->n_nested_type; i++)
	{
		for (j = 0; j < b->n_nested_type &&
			 !same_str(a->nested_type[i]->name, b->nested_type[j]->name); j++)
			;
		if (j == b->n_nested_type ||
			!same_message_types(a->nested_type[i], b->nested_type[j], depth + 1))
			return false;
	}
	return true;
}

/* Do two linked main files name the same types everywhere? */
static bool
same_types(const rg_schema *x, const rg_schema *y)
{
	const Google__Protobuf__FileDescriptorProto *a = rg_protobuf_model(x)->file;
	const Google__Protobuf__FileDescriptorProto *b = rg_protobuf_model(y)->file;
	size_t		i,
				j;

	if (a->n_message_type != b->n_message_type || a->n_service != b->n_service ||
		!same_field_types(a->extension, a->n_extension, b->extension, b->n_extension))
		return false;
	for (i = 0; i < a->n_message_type; i++)
		if (!same_str(a->message_type[i]->name, b->message_type[i]->name) ||
			!same_message_types(a->message_type[i], b->message_type[i], 0))
			return false;
	for (i = 0; i < a->n_service; i++)
	{
		if (a->service[i]->n_method != b->service[i]->n_method)
			return false;
		for (j = 0; j < a->service[i]->n_method; j++)
			if (!same_str(a->service[i]->method[j]->input_type, b->service[i]->method[j]->input_type) ||
				!same_str(a->service[i]->method[j]->output_type, b->service[i]->method[j]->output_type))
				return false;
	}
	return true;
}

/*
 * The schema given as its serialized main file parses, the stored form of
 * that parses again, and it names the types the text's stored form
 * (stored, parsed again) names: type names written shorter still name the
 * same types.  (Options may come back in another spelling.)
 */
static void
check_descriptor_form(const rg_schema *s, const rg_schema *stored, bool normalize)
{
	size_t		len;
	const unsigned char *bytes = rg_protobuf_serialized(s, &len);
	char	   *b64 = base64(bytes, len);
	rg_error	err;
	rg_schema  *d = rg_protobuf_parse(b64, strlen(b64), NULL, 0, normalize, &err);
	rg_schema  *again;

	if (d == NULL)
		invariant_failed("descriptor form does not parse", s->canonical, err.message);
	again = rg_protobuf_parse(d->canonical, d->canonical_len, NULL, 0, normalize, &err);
	if (again == NULL)
		invariant_failed("descriptor's stored form does not parse", d->canonical, err.message);
	if (!same_types(again, stored))
		invariant_failed("descriptor's stored form names other types", s->canonical,
						 d->canonical);
	rg_schema_free(again);
	rg_schema_free(d);
	free(b64);
}

/* Walk the declared messages depth-first, checking each path */
static void
check_paths(const rg_schema *s, int *path, int depth)
{
	int			i;

	if (depth >= 8)
		return;
	for (i = 0; i < 64; i++)
	{
		char	   *name;
		int			back[8];
		int			n;
		unsigned char wire[64];
		size_t		wlen;
		size_t		consumed;
		int			decoded[8];
		int			m;

		path[depth] = i;
		name = rg_protobuf_message_name(s, path, depth + 1);
		if (name == NULL)
			return;
		n = rg_protobuf_message_indexes(s, name, back, 8);
		if (n != depth + 1 || memcmp(back, path, sizeof(int) * n) != 0)
			invariant_failed("message name -> indexes", name, s->canonical);
		wlen = rg_protobuf_encode_indexes(path, depth + 1, wire, sizeof(wire));
		m = rg_protobuf_decode_indexes(wire, wlen, decoded, 8, &consumed);
		if (consumed != wlen ||
			(m == 0 ? !(depth == 0 && path[0] == 0) :
			 (m != depth + 1 || memcmp(decoded, path, sizeof(int) * m) != 0)))
			invariant_failed("indexes wire round trip", name, NULL);
		free(name);
		check_paths(s, path, depth + 1);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char main_text[] =
	"syntax = \"proto3\";\nimport \"dep.proto\";\nmessage Main { int32 x = 1; }\n";
	bool		normalize;
	bool		as_dep;
	const char *text;
	size_t		len;
	rg_schema  *s;
	int			path[8];
	int			idx[16];
	size_t		consumed;

	if (size == 0)
		return 0;
	normalize = data[0] & 1;
	as_dep = (data[0] & 2) != 0;
	text = (const char *) data + 1;
	len = size - 1;

	(void) rg_protobuf_decode_indexes(data, size, idx, 16, &consumed);

	if (as_dep)
	{
		rg_reference ref = {"dep.proto", text, len};

		s = parse_one(main_text, strlen(main_text), &ref, 1, normalize);
		rg_schema_free(s);
	}

	s = parse_one(text, len, NULL, 0, normalize);
	if (s != NULL)
	{
		rg_schema  *again = parse_one(s->canonical, s->canonical_len, NULL, 0,
									  normalize);

		if (again == NULL)
		{
			rg_error	err;

			rg_protobuf_parse(s->canonical, s->canonical_len, NULL, 0,
							  normalize, &err);
			invariant_failed("stored form does not parse", s->canonical, err.message);
		}
		if (strcmp(again->canonical, s->canonical) != 0)
			invariant_failed("stored form not idempotent", s->canonical,
							 again->canonical);
		check_descriptor_form(s, again, normalize);
		rg_schema_free(again);
		check_paths(s, path, 0);
		rg_schema_free(s);
	}
	return 0;
}
