/*-------------------------------------------------------------------------
 *
 * test_fields.c
 *	  Unit tests of the field index's extraction (rg_fields.h): every field
 *	  of an Avro, Protobuf and JSON schema with its path, record, type,
 *	  doc, default, logical type and tags; recursion stops; a schema with
 *	  too many fields is truncated.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_test.h"
#include "rg_fields.h"
#include "rg_format.h"

/* each field of the last extraction, one line "path|name|record|type|doc|default|logical|tags" */
static char listing[65536];

/* Extract the fields of text in a format into listing; "PARSE ERROR" or "FAILED". */
static const char *
fields_of(const char *format, const char *text, bool *truncated)
{
	const rg_format *f = rg_format_lookup(format);
	rg_arena   *arena = rg_arena_create();
	rg_field_list list;
	rg_error	err;
	rg_schema  *s = f->parse(text, strlen(text), NULL, 0, false, &err);
	int			i;
	int			j;

	listing[0] = '\0';
	if (s == NULL)
	{
		printf("# parse failed: %s\n", err.message);
		strcpy(listing, "PARSE ERROR");
		rg_arena_destroy(arena);
		return listing;
	}
	rg_field_list_init(&list, arena);
	if (!f->fields(s, &list))
		strcpy(listing, "FAILED");
	else
		for (i = 0; i < list.n; i++)
		{
			const rg_field_info *x = &list.items[i];
			size_t		used = strlen(listing);

			snprintf(listing + used, sizeof(listing) - used, "%s|%s|%s|%s|%s|%s|%s|",
					 x->path, x->name, x->record ? x->record : "-", x->type,
					 x->doc ? x->doc : "-", x->default_json ? x->default_json : "-",
					 x->logical_type ? x->logical_type : "-");
			for (j = 0; j < x->n_tags; j++)
			{
				used = strlen(listing);
				snprintf(listing + used, sizeof(listing) - used, "%s%s", j ? "," : "", x->tags[j]);
			}
			used = strlen(listing);
			snprintf(listing + used, sizeof(listing) - used, "\n");
		}
	if (truncated)
		*truncated = list.truncated;
	rg_field_list_free(&list);
	rg_schema_free(s);
	rg_arena_destroy(arena);
	return listing;
}

#define FIELDS(format, text, want, what) \
	RG_CHECK_STR(fields_of(format, text, NULL), want, "%s %s", format, what)

static void
test_avro(void)
{
	FIELDS("AVRO",
		   "{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"shop\",\"fields\":["
		   "{\"name\":\"id\",\"type\":\"long\",\"doc\":\"the key\"},"
		   "{\"name\":\"email\",\"type\":[\"null\",\"string\"],\"default\":null,\"confluent:tags\":[\"PII\",\"EMAIL\"]},"
		   "{\"name\":\"at\",\"type\":{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"},\"default\":0},"
		   "{\"name\":\"address\",\"type\":{\"type\":\"record\",\"name\":\"Address\",\"fields\":[{\"name\":\"zip\",\"type\":\"string\"}]}},"
		   "{\"name\":\"lines\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"Line\",\"fields\":[{\"name\":\"sku\",\"type\":\"string\"}]}}},"
		   "{\"name\":\"extra\",\"type\":{\"type\":\"map\",\"values\":\"shop.Address\"}}]}",
		   "id|id|shop.Order|long|the key|-|-|\n"
		   "email|email|shop.Order|[null, string]|-|null|-|PII,EMAIL\n"
		   "at|at|shop.Order|long (timestamp-millis)|-|0|timestamp-millis|\n"
		   "address|address|shop.Order|shop.Address|-|-|-|\n"
		   "address.zip|zip|shop.Address|string|-|-|-|\n"
		   "lines|lines|shop.Order|array<shop.Line>|-|-|-|\n"
		   "lines[].sku|sku|shop.Line|string|-|-|-|\n"
		   "extra|extra|shop.Order|map<shop.Address>|-|-|-|\n"
		   "extra[].zip|zip|shop.Address|string|-|-|-|\n",
		   "nested records, arrays, maps, unions, docs, defaults, tags");
	FIELDS("AVRO",
		   "{\"type\":\"record\",\"name\":\"Node\",\"fields\":[{\"name\":\"v\",\"type\":\"int\"},"
		   "{\"name\":\"next\",\"type\":[\"null\",\"Node\"],\"default\":null}]}",
		   "v|v|Node|int|-|-|-|\nnext|next|Node|[null, Node]|-|null|-|\n",
		   "a recursive record is walked once");
	FIELDS("AVRO", "\"string\"", "", "a primitive has no fields");
}

static void
test_protobuf(void)
{
	FIELDS("PROTOBUF",
		   "syntax = \"proto2\";\npackage shop;\n"
		   "message Order {\n  optional int64 id = 1;\n  optional string note = 2 [default = \"none\"];\n"
		   "  optional int32 qty = 3 [default = 1];\n  optional Address address = 4;\n"
		   "  message Address { optional string zip = 1; optional Order back = 2; }\n"
		   "  repeated string tags = 5;\n}\n",
		   "Order.id|id|shop.Order|int64|-|-|-|\n"
		   "Order.note|note|shop.Order|string|-|\"none\"|-|\n"
		   "Order.qty|qty|shop.Order|int32|-|1|-|\n"
		   "Order.address|address|shop.Order|shop.Order.Address|-|-|-|\n"
		   "Order.address.zip|zip|shop.Order.Address|string|-|-|-|\n"
		   "Order.address.back|back|shop.Order.Address|shop.Order|-|-|-|\n"
		   "Order.tags|tags|shop.Order|repeated string|-|-|-|\n",
		   "nested messages, defaults, repeated, a cycle stops");
}

static void
test_json(void)
{
	FIELDS("JSON",
		   "{\"type\":\"object\",\"properties\":{"
		   "\"email\":{\"type\":\"string\",\"format\":\"email\",\"description\":\"contact\",\"confluent:tags\":[\"PII\"]},"
		   "\"n\":{\"type\":[\"integer\",\"null\"],\"default\":3},"
		   "\"addr\":{\"type\":\"object\",\"properties\":{\"zip\":{\"type\":\"string\"}}},"
		   "\"items\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"sku\":{\"$ref\":\"#/definitions/s\"}}}}},"
		   "\"definitions\":{\"s\":{\"type\":\"string\"}}}",
		   "email|email|-|string|contact|-|email|PII\n"
		   "n|n|-|[integer, null]|-|3|-|\n"
		   "addr|addr|-|object|-|-|-|\n"
		   "addr.zip|zip|-|string|-|-|-|\n"
		   "items|items|-|array|-|-|-|\n"
		   "items[].sku|sku|-|$ref|-|-|-|\n",
		   "properties at every depth, items, formats, descriptions, tags");
}

static void
test_truncated(void)
{
	static char text[RG_MAX_FIELDS * 40 + 100];
	bool		truncated = false;
	size_t		used;
	int			i;

	strcpy(text, "{\"type\":\"record\",\"name\":\"Wide\",\"fields\":[");
	for (i = 0; i <= RG_MAX_FIELDS; i++)
	{
		used = strlen(text);
		snprintf(text + used, sizeof(text) - used, "%s{\"name\":\"f%d\",\"type\":\"int\"}",
				 i ? "," : "", i);
	}
	strcat(text, "]}");
	(void) fields_of("AVRO", text, &truncated);
	RG_CHECK(truncated, "a record of %d fields is listed truncated", RG_MAX_FIELDS + 1);
}

int
main(void)
{
	test_avro();
	test_protobuf();
	test_json();
	test_truncated();
	return rg_test_done();
}
