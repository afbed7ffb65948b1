/*
 * Unit tests of the JSON Schema loader: the document as Confluent's
 * Jackson mapper reads it, the draft $schema selects, everit's schema
 * classes for tricky documents, $ref resolution, the keyword checks with
 * their locations, and the stored form (numbers, escapes, normalize).
 */
#include "rg_jsonschema.h"
#include "rg_test.h"

/* Parse a document (no references); NULL with err filled on failure. */
static rg_schema *
parse(const char *text, rg_error *err)
{
	return rg_json_parse(text, strlen(text), NULL, 0, false, err);
}

/* The root node of a parsed schema. */
static const rg_js *
root_of(const rg_schema *s)
{
	return rg_json_model(s)->root;
}

/* The stored form of a document, or "ERROR: <message>" (static buffer). */
static const char *
stored(const char *text, bool normalize)
{
	static char out[4096];
	rg_error	err;
	rg_schema  *s = rg_json_parse(text, strlen(text), NULL, 0, normalize, &err);

	if (s == NULL)
		snprintf(out, sizeof(out), "ERROR: %s", err.message);
	else
	{
		snprintf(out, sizeof(out), "%s", s->canonical);
		rg_schema_free(s);
	}
	return out;
}

/* Does parsing fail with a message containing want? */
static bool
fails_with(const char *text, const char *want)
{
	rg_error	err;
	rg_schema  *s = parse(text, &err);

	if (s != NULL)
	{
		rg_schema_free(s);
		printf("#   accepted: %s\n", text);
		return false;
	}
	if (err.code != RG_ERR_INVALID_SCHEMA || strstr(err.message, want) == NULL)
	{
		printf("#   message: %s\n#   wanted:  %s\n", err.message, want);
		return false;
	}
	return true;
}

/* The i-th member named name of an object node's properties, NULL if none. */
static const rg_js *
property(const rg_js *obj, const char *name)
{
	int			i;

	if (obj == NULL || obj->kind != RG_JS_OBJECT)
		return NULL;
	for (i = 0; i < obj->u.object.n_properties; i++)
		if (strcmp(obj->u.object.properties[i].name, name) == 0)
			return obj->u.object.properties[i].schema;
	return NULL;
}

/* Follow REF nodes to what they name. */
static const rg_js *
deref(const rg_js *n)
{
	int			guard = 0;

	while (n && n->kind == RG_JS_REF && guard++ < 100)
		n = n->u.ref.target;
	return n;
}

/* The common cases: type, properties, required, additionalProperties, items. */
static void
test_common_cases(void)
{
	rg_error	err;
	rg_schema  *s = parse("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"maxLength\":5},"
						  "\"b\":{\"type\":\"integer\",\"minimum\":0}},\"required\":[\"a\"],"
						  "\"additionalProperties\":false}", &err);
	const rg_js *r;

	RG_CHECK(s != NULL, "an object schema parses");
	if (s == NULL)
		return;
	r = root_of(s);
	RG_CHECK(r->kind == RG_JS_OBJECT && r->u.object.requires_object, "root is an ObjectSchema that requires an object");
	RG_CHECK(r->u.object.n_properties == 2 && strcmp(r->u.object.properties[0].name, "a") == 0,
			 "properties in document order");
	RG_CHECK(property(r, "a")->kind == RG_JS_STRING && property(r, "a")->u.string.max_length.value == 5,
			 "a is a string of at most 5");
	RG_CHECK(property(r, "b")->kind == RG_JS_NUMBER && property(r, "b")->u.number.requires_integer &&
			 property(r, "b")->u.number.minimum.present, "integer is a NumberSchema requiring an integer");
	RG_CHECK(r->u.object.n_required == 1 && strcmp(r->u.object.required[0], "a") == 0, "required");
	RG_CHECK(!r->u.object.permits_additional && r->u.object.additional_schema == NULL,
			 "additionalProperties false closes the content model");
	RG_CHECK_STR(property(r, "a")->location, "#/properties/a", "location of a property");
	RG_CHECK(rg_json_model(s)->draft == RG_JS_DRAFT_7, "draft 7 without $schema");
	rg_schema_free(s);

	s = parse("{\"type\":\"array\",\"items\":{\"type\":\"boolean\"},\"minItems\":1}", &err);
	RG_CHECK(s && root_of(s)->kind == RG_JS_ARRAY &&
			 root_of(s)->u.array.all_items->kind == RG_JS_BOOLEAN &&
			 root_of(s)->u.array.min_items.value == 1, "an array of booleans");
	rg_schema_free(s);
}

/* Boolean schemas, the empty schema, enum, const, not, combined. */
static void
test_kinds(void)
{
	rg_error	err;
	rg_schema  *s;

	s = parse("true", &err);
	RG_CHECK(s && root_of(s)->kind == RG_JS_TRUE, "true is TrueSchema");
	rg_schema_free(s);
	s = parse("false", &err);
	RG_CHECK(s && root_of(s)->kind == RG_JS_FALSE, "false is FalseSchema");
	rg_schema_free(s);
	s = parse("{}", &err);
	RG_CHECK(s && root_of(s)->kind == RG_JS_EMPTY, "{} is EmptySchema");
	rg_schema_free(s);
	s = parse("{\"title\":\"t\",\"description\":\"d\"}", &err);
	RG_CHECK(s && root_of(s)->kind == RG_JS_EMPTY && strcmp(root_of(s)->title, "t") == 0 &&
			 strcmp(root_of(s)->description, "d") == 0, "annotations only: EmptySchema with title");
	rg_schema_free(s);
	s = parse("{\"enum\":[1,\"a\",null,{\"x\":[1.50]}]}", &err);
	RG_CHECK(s && root_of(s)->kind == RG_JS_ENUM && root_of(s)->u.enumeration.n_values == 4,
			 "enum keeps its values");
	if (s)
		RG_CHECK_STR(root_of(s)->u.enumeration.values[3]->text, "{\"x\":[1.50]}", "enum value text as stored");
	rg_schema_free(s);
	s = parse("{\"const\":\"x\"}", &err);
	RG_CHECK(s && root_of(s)->kind == RG_JS_CONST, "const is ConstSchema in draft 7");
	rg_schema_free(s);
	s = parse("{\"$schema\":\"http://json-schema.org/draft-04/schema#\",\"const\":\"x\"}", &err);
	RG_CHECK(s && root_of(s)->kind == RG_JS_EMPTY && root_of(s)->n_unprocessed == 2,
			 "draft 4 has no const: EmptySchema with const unprocessed");
	rg_schema_free(s);
	s = parse("{\"not\":{\"type\":\"null\"}}", &err);
	RG_CHECK(s && root_of(s)->kind == RG_JS_NOT && root_of(s)->u.not.schema->kind == RG_JS_NULL,
			 "not");
	rg_schema_free(s);
	s = parse("{\"oneOf\":[{\"type\":\"string\"},true]}", &err);
	RG_CHECK(s && root_of(s)->kind == RG_JS_COMBINED &&
			 root_of(s)->u.combined.criterion == RG_JS_ONE_OF &&
			 !root_of(s)->u.combined.synthetic &&
			 root_of(s)->u.combined.n_subschemas == 2 &&
			 root_of(s)->u.combined.subschemas[1]->kind == RG_JS_TRUE, "oneOf with a boolean branch");
	rg_schema_free(s);
}

/* "type" arrays, sniffing and the synthetic allOf's order. */
static void
test_class_model(void)
{
	rg_error	err;
	rg_schema  *s;
	const rg_js *r;

	s = parse("{\"type\":[\"string\",\"null\"],\"maxLength\":3}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_COMBINED && r->u.combined.criterion == RG_JS_ANY_OF &&
			 r->u.combined.n_subschemas == 2 &&
			 r->u.combined.subschemas[0]->kind == RG_JS_STRING &&
			 r->u.combined.subschemas[0]->u.string.max_length.present &&
			 r->u.combined.subschemas[1]->kind == RG_JS_NULL, "a type array is an anyOf, keywords in its branches");
	rg_schema_free(s);

	s = parse("{\"minimum\":1}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_NUMBER && !r->u.number.requires_number,
			 "number keywords without type: a NumberSchema that does not require a number");
	rg_schema_free(s);

	s = parse("{\"properties\":{\"a\":{}},\"maxLength\":2,\"items\":{}}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_COMBINED && r->u.combined.synthetic &&
			 r->u.combined.criterion == RG_JS_ALL_OF && r->u.combined.n_subschemas == 3 &&
			 r->u.combined.subschemas[0]->kind == RG_JS_ARRAY &&
			 r->u.combined.subschemas[1]->kind == RG_JS_OBJECT &&
			 r->u.combined.subschemas[2]->kind == RG_JS_STRING &&
			 !r->u.combined.subschemas[1]->u.object.requires_object,
			 "several sniffed kinds: synthetic allOf array, object, string");
	rg_schema_free(s);

	s = parse("{\"type\":\"integer\",\"format\":\"int64\",\"enum\":[1],\"anyOf\":[{}],\"allOf\":[{}],\"not\":{}}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_COMBINED && r->u.combined.synthetic && r->u.combined.n_subschemas == 6,
			 "enum, allOf, anyOf, not, type, sniffed string: six parts");
	if (r && r->u.combined.n_subschemas == 6)
	{
		rg_js	  **p = r->u.combined.subschemas;

		RG_CHECK(p[0]->kind == RG_JS_ENUM &&
				 p[1]->kind == RG_JS_COMBINED && p[1]->u.combined.criterion == RG_JS_ALL_OF &&
				 p[2]->kind == RG_JS_COMBINED && p[2]->u.combined.criterion == RG_JS_ANY_OF &&
				 p[3]->kind == RG_JS_NOT &&
				 p[4]->kind == RG_JS_NUMBER && p[4]->u.number.requires_integer &&
				 p[5]->kind == RG_JS_STRING && !p[5]->u.string.requires_string &&
				 strcmp(p[5]->u.string.format, "int64") == 0,
				 "the order of everit's extractors");
	}
	rg_schema_free(s);

	s = parse("{\"type\":\"string\",\"title\":\"T\",\"connect.type\":\"bytes\",\"x\":1}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_STRING && r->n_unprocessed == 2 &&
			 strcmp(r->unprocessed_names[0], "connect.type") == 0 &&
			 strcmp(r->unprocessed_values[0]->text, "\"bytes\"") == 0 &&
			 strcmp(r->title, "T") == 0, "unprocessed keywords kept in order");
	rg_schema_free(s);
}

/* Local $refs, recursion, ids and anchors. */
static void
test_refs(void)
{
	rg_error	err;
	rg_schema  *s;
	const rg_js *r;

	s = parse("{\"definitions\":{\"a~b/c\":{\"type\":\"string\"}},\"properties\":{\"x\":{\"$ref\":\"#/definitions/a~0b~1c\"},"
			  "\"y\":{\"$ref\":\"#/definitions/a%7E0b~1c\"}}}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && property(r, "x")->kind == RG_JS_REF &&
			 deref(property(r, "x"))->kind == RG_JS_STRING &&
			 deref(property(r, "x")) == deref(property(r, "y")),
			 "~0 ~1 and percent-decoding; one target shared");
	RG_CHECK(fails_with("{\"definitions\":{\"a/b\":{}},\"$ref\":\"#/definitions/a%2Fb\"}", "cannot be resolved"),
			 "a percent-encoded slash separates tokens (the fragment is decoded first)");
	RG_CHECK(fails_with("{\"definitions\":{\"a b\":{}},\"properties\":{\"p\":{\"$ref\":\"#/definitions/a+b\"}},\"required\":1}",
						"#/required: expected type: JsonArray"),
			 "'+' in a fragment is a space (URLDecoder)");
	if (r)
		RG_CHECK_STR(deref(property(r, "x"))->location, "#/definitions/a~0b~1c", "target location");
	rg_schema_free(s);

	s = parse("{\"type\":\"object\",\"properties\":{\"next\":{\"$ref\":\"#\"}}}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && deref(property(r, "next"))->kind == RG_JS_OBJECT &&
			 property(deref(property(r, "next")), "next")->kind == RG_JS_REF,
			 "a recursive schema: the ref's target is the root again");
	rg_schema_free(s);

	RG_CHECK(fails_with("{\"$ref\":\"#\"}", "refers to itself"), "a $ref to itself is refused");
	RG_CHECK(fails_with("{\"definitions\":{\"a\":{\"$ref\":\"#/definitions/b\"},\"b\":{\"$ref\":\"#/definitions/a\"}},\"$ref\":\"#/definitions/a\"}",
						"refers to itself"), "a cycle of $refs is refused");
	RG_CHECK(fails_with("{\"properties\":{\"a\":{\"$ref\":\"#/definitions/none\"}}}",
						"#/properties/a: $ref \"#/definitions/none\" cannot be resolved"),
			 "an unresolvable $ref names its place");
	RG_CHECK(fails_with("{\"$ref\":5}", "#/$ref: expected type: String, found: Integer"),
			 "a non-string $ref");

	s = parse("{\"$id\":\"http://example.com/root.json\",\"definitions\":{\"A\":{\"$id\":\"#foo\",\"type\":\"integer\"},"
			  "\"B\":{\"$id\":\"other.json\",\"definitions\":{\"X\":{\"type\":\"boolean\"}}}},"
			  "\"properties\":{\"a\":{\"$ref\":\"#foo\"},\"b\":{\"$ref\":\"other.json\"},"
			  "\"c\":{\"$ref\":\"http://example.com/other.json\"}}}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && deref(property(r, "a"))->kind == RG_JS_NUMBER &&
			 deref(property(r, "b"))->kind == RG_JS_EMPTY &&
			 deref(property(r, "b")) == deref(property(r, "c")),
			 "$id fragments and relative $ids name sub-schemas");
	if (s == NULL)
		printf("#   %s\n", err.message);
	rg_schema_free(s);
	RG_CHECK(fails_with("{\"$id\":\"http://example.com/root.json\",\"definitions\":{\"B\":{\"$id\":\"other.json\",\"definitions\":{\"X\":{}}}},"
						"\"properties\":{\"b\":{\"$ref\":\"other.json#/definitions/X\"}}}", "cannot be resolved"),
			 "a pointer into an identified sub-schema is not looked up (everit would fetch the URL)");
	s = parse("{\"definitions\":{\"X\":{\"type\":\"null\"}},\"properties\":{\"p\":{\"$id\":\"http://other/x.json\","
			  "\"definitions\":{\"X\":{\"type\":\"string\"}},\"properties\":{\"q\":{\"$ref\":\"#/definitions/X\"}}}}}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && deref(property(property(r, "p"), "q"))->kind == RG_JS_NULL,
			 "a \"#/...\" $ref is a pointer from the document's root, whatever the $id scope");
	rg_schema_free(s);

	s = parse("{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$defs\":{\"n\":{\"$anchor\":\"num\",\"type\":\"number\"}},"
			  "\"properties\":{\"a\":{\"$ref\":\"#num\"},\"b\":{\"$ref\":\"#/$defs/n\"}}}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && deref(property(r, "a"))->kind == RG_JS_NUMBER &&
			 deref(property(r, "b"))->kind == RG_JS_NUMBER, "$anchor and $defs in 2020-12");
	rg_schema_free(s);
}

/* References to other subjects' schemas. */
static void
test_cross_document(void)
{
	rg_error	err;
	const char *addr = "{\"type\":\"object\",\"properties\":{\"street\":{\"type\":\"string\"}},"
	"\"definitions\":{\"zip\":{\"type\":\"integer\"}}}";
	rg_reference refs[1] = {{"address.json", addr, 0}};
	const char *main = "{\"properties\":{\"home\":{\"$ref\":\"address.json\"},\"zip\":{\"$ref\":\"address.json#/definitions/zip\"}}}";
	rg_schema  *s;
	const rg_js *r;

	refs[0].schema_len = strlen(addr);
	s = rg_json_parse(main, strlen(main), refs, 1, false, &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && deref(property(r, "home"))->kind == RG_JS_OBJECT &&
			 property(deref(property(r, "home")), "street")->kind == RG_JS_STRING &&
			 deref(property(r, "zip"))->kind == RG_JS_NUMBER,
			 "a $ref to a reference by name, with and without a fragment");
	if (s == NULL)
		printf("#   %s\n", err.message);
	rg_schema_free(s);

	s = rg_json_parse(main, strlen(main), NULL, 0, false, &err);
	RG_CHECK(s == NULL && strstr(err.message, "cannot be resolved"), "without the reference: 42201");
	rg_schema_free(s);

	/*
	 * references of references, in dependency order, under the main
	 * document's $id
	 */
	{
		const char *c = "{\"type\":\"string\",\"maxLength\":2}";
		const char *b = "{\"type\":\"object\",\"properties\":{\"c\":{\"$ref\":\"c.json\"}}}";
		const char *m = "{\"$id\":\"http://example.com/schemas/main.json\",\"properties\":{\"b\":{\"$ref\":\"b.json\"},"
		"\"abs\":{\"$ref\":\"http://example.com/schemas/c.json\"}}}";
		rg_reference chain[2] = {{"c.json", c, 0}, {"b.json", b, 0}};

		chain[0].schema_len = strlen(c);
		chain[1].schema_len = strlen(b);
		s = rg_json_parse(m, strlen(m), chain, 2, false, &err);
		r = s ? root_of(s) : NULL;
		RG_CHECK(r && deref(property(deref(property(r, "b")), "c"))->kind == RG_JS_STRING &&
				 deref(property(r, "abs")) == deref(property(deref(property(r, "b")), "c")),
				 "a reference's own $ref, resolved against the registered URI");
		if (s)
		{
			RG_CHECK_STR(s->canonical, m, "the stored form is the main document alone");
			RG_CHECK_STR(deref(property(r, "abs"))->location, "c.json#", "a referenced node's location names its document");
		}
		else
			printf("#   %s\n", err.message);
		rg_schema_free(s);
	}
	/* a reference named by the absolute URL that is its $id */
	{
		const char *addr2 = "{\"$id\":\"https://example.com/address.schema.json\",\"type\":\"object\"}";
		const char *m = "{\"properties\":{\"a\":{\"$ref\":\"https://example.com/address.schema.json\"}}}";
		rg_reference abs_ref[1] = {{"https://example.com/address.schema.json", addr2, 0}};

		abs_ref[0].schema_len = strlen(addr2);
		s = rg_json_parse(m, strlen(m), abs_ref, 1, false, &err);
		r = s ? root_of(s) : NULL;
		RG_CHECK(r && deref(property(r, "a"))->kind == RG_JS_OBJECT, "a reference named by its absolute $id");
		rg_schema_free(s);
	}
	/* a reference that is a boolean: not for everit's drafts */
	{
		rg_reference boolean_ref[1] = {{"t.json", "true", 4}};
		const char *m = "{\"$ref\":\"t.json\"}";
		const char *m2020 = "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$ref\":\"t.json\"}";

		s = rg_json_parse(m, strlen(m), boolean_ref, 1, false, &err);
		RG_CHECK(s == NULL && strstr(err.message, "Reference t.json: "), "draft 7: a boolean reference is refused");
		rg_schema_free(s);
		s = rg_json_parse(m2020, strlen(m2020), boolean_ref, 1, false, &err);
		RG_CHECK(s && deref(root_of(s))->kind == RG_JS_TRUE, "2020-12: a boolean reference is a schema");
		rg_schema_free(s);
	}
	/* a reference that is no JSON */
	{
		rg_reference bad[1] = {{"bad.json", "{nope", 5}};

		s = rg_json_parse(main, strlen(main), bad, 1, false, &err);
		RG_CHECK(s == NULL && strncmp(err.message, "Reference bad.json: Invalid JSON: ", 34) == 0,
				 "a reference that does not parse names itself");
		rg_schema_free(s);
	}
}

/* Keyword checks and their locations. */
static void
test_validation(void)
{
	RG_CHECK(fails_with("{\"type\":5}", "#/type: expected type is one of JsonArray or String, found: Integer"),
			 "type 5");
	RG_CHECK(fails_with("{\"type\":\"foo\"}", "#: unknown type: [foo]"), "unknown type");
	RG_CHECK(fails_with("{\"properties\":{\"a\":{\"type\":\"foo\"}}}", "#/properties/a: unknown type: [foo]"),
			 "unknown type in a property");
	RG_CHECK(fails_with("{\"type\":[\"string\",1]}", "#/type/1: expected type: String, found: Integer"),
			 "a type array of non-strings");
	RG_CHECK(fails_with("{\"required\":\"x\"}", "#/required: expected type: JsonArray, found: String"),
			 "required as a string");
	RG_CHECK(fails_with("{\"properties\":[]}", "#/properties: expected type: JsonObject, found: JsonArray"),
			 "properties as an array");
	RG_CHECK(fails_with("{\"properties\":{\"a\":1}}", "#/properties/a: expected type is one of Boolean or JsonObject, found: Integer"),
			 "a property that is not a schema");
	RG_CHECK(fails_with("{\"maxLength\":1.5}", "#/maxLength: expected type: Integer, found: BigDecimal"),
			 "a decimal count");
	RG_CHECK(fails_with("{\"minimum\":\"1\"}", "#/minimum: expected type: Number, found: String"),
			 "a string minimum");
	RG_CHECK(fails_with("{\"multipleOf\":0}", "multipleOf should not be 0"), "multipleOf 0");
	RG_CHECK(fails_with("{\"$schema\":\"http://json-schema.org/draft-04/schema#\",\"exclusiveMaximum\":3}",
						"#/exclusiveMaximum: expected type: Boolean, found: Integer"),
			 "draft 4's exclusiveMaximum is a boolean");
	RG_CHECK(fails_with("{\"exclusiveMaximum\":true}", "#/exclusiveMaximum: expected type: Number, found: Boolean"),
			 "draft 7's exclusiveMaximum is a number");
	RG_CHECK(fails_with("{\"allOf\":{}}", "#/allOf: expected type: JsonArray, found: JsonObject"), "allOf not an array");
	RG_CHECK(fails_with("{\"items\":[{},3]}", "#/items/1: expected type is one of Boolean or JsonObject"),
			 "a tuple item that is not a schema");
	RG_CHECK(fails_with("{\"pattern\":\"*a\"}", "#/pattern: invalid regular expression \"*a\": Dangling meta character '*'"),
			 "a pattern Java refuses");
	RG_CHECK(fails_with("{\"patternProperties\":{\"(a\":{}}}", "#/patternProperties/(a: invalid regular expression"),
			 "a pattern property Java refuses");
	RG_CHECK(fails_with("{\"pattern\":\"a{x}\"}", "Illegal repetition"), "an illegal repetition");
	RG_CHECK(fails_with("{\"pattern\":\"[a-z\"}", "Unclosed character class"), "an unclosed class");
	RG_CHECK(fails_with("{\"pattern\":\"a{6666666666{\"}", "Unclosed counted closure"),
			 "a long repetition count ends (a fuzz finding: it looped)");
	RG_CHECK(fails_with("{\"pattern\":\"\\\\y\"}", "Illegal/unsupported escape"), "an unknown escape");
	{
		static const char *const ok[] = {
			"^[a-zA-Z0-9._%+-]+@[a-z]+\\\\.[a-z]{2,}$", "^\\\\d{3}-\\\\d{4}$", "(?i)^abc$",
			"^(?:[01]\\\\d|2[0-3]):[0-5]\\\\d$", "[]a]", "a{2}?b+?c*+", "^*", "\\\\Q*+?\\\\E", "\\\\p{L}+",
			"(?<name>x)\\\\k<name>", "[a[b]]", "x|y|(z)", NULL
		};
		int			i;

		for (i = 0; ok[i]; i++)
		{
			char		doc[256];
			rg_error	err;
			rg_schema  *s;

			snprintf(doc, sizeof(doc), "{\"pattern\":\"%s\"}", ok[i]);
			s = parse(doc, &err);
			RG_CHECK(s != NULL, "Java accepts the pattern %s", ok[i]);
			if (s == NULL)
				printf("#   %s\n", err.message);
			rg_schema_free(s);
		}
	}
	RG_CHECK(fails_with("[]", "expected type is one of Boolean or JsonObject, found: JsonArray"), "an array document");
	RG_CHECK(fails_with("\"x\"", "found: String"), "a string document");
}

/*
 * Annotation keywords hold what the meta-schemas let them hold, in every
 * draft and at any depth: examples an array of any values (Confluent 8
 * accepts [25, 30, 45]), default, const and enum's items any value;
 * title and description stay strings.
 */
static void
test_annotations(void)
{
	static const char *const drafts[] = {
		"", "\"$schema\":\"http://json-schema.org/draft-04/schema#\",",
		"\"$schema\":\"http://json-schema.org/draft-06/schema#\",",
		"\"$schema\":\"http://json-schema.org/draft-07/schema#\",",
		"\"$schema\":\"https://json-schema.org/draft/2019-09/schema\",",
		"\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",",
	};
	static const char *const bodies[] = {
		"\"type\":\"integer\",\"examples\":[25,30,45]",
		"\"properties\":{\"a\":{\"type\":\"integer\",\"examples\":[25,{\"x\":[1]},null,[1,\"s\"],true,1.5]}}",
		"\"items\":{\"examples\":[1]},\"definitions\":{\"d\":{\"examples\":[false]}},"
		"\"not\":{\"examples\":[{}]},\"anyOf\":[{\"examples\":[2]}],"
		"\"patternProperties\":{\"^x\":{\"examples\":[null]}},\"additionalProperties\":{\"examples\":[[]]}",
		"\"examples\":[]",
		"\"default\":{\"a\":[1,null]},\"enum\":[1,{\"a\":2},null,[3]],\"$comment\":\"c\","
		"\"properties\":{\"b\":{\"default\":7,\"examples\":[7],\"const\":7}}",
	};
	size_t		d,
				b;

	for (d = 0; d < sizeof(drafts) / sizeof(drafts[0]); d++)
		for (b = 0; b < sizeof(bodies) / sizeof(bodies[0]); b++)
		{
			char		doc[1024];
			char		want[1024];

			snprintf(doc, sizeof(doc), "{%s%s}", drafts[d], bodies[b]);
			snprintf(want, sizeof(want), "%s", doc);
			RG_CHECK_STR(stored(doc, false), want, "draft %zu, annotations %zu accepted as written", d, b);
		}
	RG_CHECK(fails_with("{\"examples\":5}", "#/examples: expected type: JsonArray, found: Integer"),
			 "examples not an array");
	RG_CHECK(fails_with("{\"properties\":{\"a\":{\"title\":5}}}", "#/properties/a/title: expected type: String, found: Integer"),
			 "a title that is not a string");
	RG_CHECK(fails_with("{\"$schema\":\"http://json-schema.org/draft-04/schema#\",\"description\":[1]}",
						"#/description: expected type: String, found: JsonArray"),
			 "a description that is not a string");
}

/* JSON syntax as Jackson reads it. */
static void
test_syntax(void)
{
	RG_CHECK(fails_with("{\"type\":\"string\",}", "Invalid JSON: "), "a trailing comma");
	RG_CHECK(fails_with("{\n  \"type\": \"string\" // c\n}", "line 2"), "comments are not JSON for Confluent, position given");
	RG_CHECK(fails_with("{'type':'string'}", "Invalid JSON"), "single quotes");
	RG_CHECK(fails_with("{\"a\":01}", "Leading zeroes"), "leading zeros");
	RG_CHECK(fails_with("", "Invalid JSON"), "empty text");
	RG_CHECK_STR(stored("{\"type\":\"string\"} trailing garbage", false), "{\"type\":\"string\"}",
				 "text after the first value is ignored");
	RG_CHECK_STR(stored("{\"title\":\"a\",\"type\":\"string\",\"title\":\"b\"}", false),
				 "{\"title\":\"b\",\"type\":\"string\"}", "a repeated key: first place, last value");
}

/* The stored form: numbers, strings, whitespace, normalize. */
static void
test_stored_form(void)
{
	RG_CHECK_STR(stored(" {\n\t\"type\" : \"number\" ,\"default\": 1.0 } ", false),
				 "{\"type\":\"number\",\"default\":1.0}", "compact; 1.0 stays 1.0");
	RG_CHECK_STR(stored("{\"default\":[1e3,1E3,1.5e2,0.0000001,0.000001,-0.0,-0,100e-2,0e5,12.340e-10,1e-7]}", false),
				 "{\"default\":[1E+3,1E+3,1.5E+2,1E-7,0.000001,0.0,0,1.00,0E+5,1.2340E-9,1E-7]}",
				 "decimals as BigDecimal.toString()");
	RG_CHECK_STR(stored("{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"default\":[NaN,Infinity,-Infinity,+INF,12345678901234567890123]}", false),
				 "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"default\":[\"NaN\",\"Infinity\",\"-Infinity\",\"Infinity\",12345678901234567890123]}",
				 "non-numeric numbers as strings, big integers exact");
	RG_CHECK(fails_with("{\"default\":{\"x\":[1,-Infinity]}}", "#/default/x/1: JSON does not allow non-finite numbers."),
			 "draft 7: org.json refuses NaN and the infinities");
	RG_CHECK(fails_with("{\"default\":1e2147483648}", "exponent is out of range"), "an exponent BigDecimal refuses");
	{
		char		big[1100];

		memset(big, '9', sizeof(big));
		memcpy(big, "{\"default\":", 11);
		strcpy(big + 1050, "}");
		RG_CHECK(fails_with(big, "exceeds the maximum allowed (1000"), "a number longer than Jackson allows");
	}
	RG_CHECK_STR(stored("{\"description\":\"\\u00e9\\/\\u001f\\t\\ud83d\\ude00\\u007f\\\"\"}", false),
				 "{\"description\":\"\xc3\xa9/\\u001F\\t\xf0\x9f\x98\x80\x7f\\\"\"}",
				 "escapes: raw UTF-8, '/' plain, control characters upper-case");
	RG_CHECK_STR(stored("{\"b\":1,\"a\":{\"d\":1,\"c\":[{\"z\":1,\"y\":2}]}}", true),
				 "{\"a\":{\"c\":[{\"y\":2,\"z\":1}],\"d\":1},\"b\":1}", "normalize sorts keys recursively");
	RG_CHECK_STR(stored("{\"\xef\xbd\x81\":1,\"\xf0\x9f\x98\x80\":2,\"B\":3,\"a\":4}", true),
				 "{\"B\":3,\"a\":4,\"\xf0\x9f\x98\x80\":2,\"\xef\xbd\x81\":1}",
				 "normalize orders by UTF-16 code units (a surrogate pair before U+FF41)");
}

/* 2019-09 and 2020-12: json-sKema's keywords joined as Confluent's translator joins them. */
static void
test_modern(void)
{
	rg_error	err;
	rg_schema  *s;
	const rg_js *r;

#define D2020 "\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
	s = parse("{" D2020 "\"type\":\"integer\",\"format\":\"int64\"}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_NUMBER && r->u.number.requires_integer,
			 "2020-12: format is ignored (draft 7 would sniff a string)");
	RG_CHECK(s && rg_json_model(s)->draft == RG_JS_DRAFT_2020_12, "the draft is 2020-12");
	rg_schema_free(s);

	s = parse("{" D2020 "\"type\":\"string\",\"enum\":[\"a\"]}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_COMBINED && r->u.combined.synthetic && r->u.combined.n_subschemas == 2 &&
			 r->u.combined.subschemas[0]->kind == RG_JS_STRING &&
			 r->u.combined.subschemas[1]->kind == RG_JS_ENUM,
			 "2020-12: kinds joined in keyword order (string, then enum)");
	rg_schema_free(s);

	s = parse("{" D2020 "\"maxLength\":3,\"type\":[\"string\",\"null\"]}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_COMBINED && r->u.combined.criterion == RG_JS_ANY_OF &&
			 r->u.combined.n_subschemas == 2 &&
			 r->u.combined.subschemas[0]->kind == RG_JS_STRING &&
			 r->u.combined.subschemas[0]->u.string.requires_string &&
			 r->u.combined.subschemas[0]->u.string.max_length.value == 3,
			 "2020-12: a string keyword merges into the type array's string branch");
	rg_schema_free(s);

	s = parse("{" D2020 "\"type\":[\"string\",\"null\"],\"format\":\"email\",\"maxLength\":3}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_COMBINED && r->u.combined.criterion == RG_JS_ALL_OF &&
			 r->u.combined.n_subschemas == 2 &&
			 r->u.combined.subschemas[0]->kind == RG_JS_COMBINED &&
			 r->u.combined.subschemas[1]->kind == RG_JS_STRING &&
			 !r->u.combined.subschemas[1]->u.string.requires_string,
			 "2020-12: a format between them keeps maxLength out of the anyOf");
	rg_schema_free(s);

	s = parse("{" D2020 "\"$id\":\"http://x/root\",\"type\":\"object\",\"properties\":{\"a\":{\"$id\":\"http://x/a\",\"type\":\"string\"}},"
			  "\"required\":[\"a\"],\"dependencies\":{\"a\":[\"b\"]},\"dependentRequired\":{\"a\":[\"c\"]}}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_OBJECT && r->u.object.requires_object && r->u.object.n_required == 1 &&
			 r->id == NULL && property(r, "a") && strcmp(property(r, "a")->id, "http://x/a") == 0,
			 "2020-12: one object schema; the root's $id is not kept, a nested one is");
	RG_CHECK(r && r->u.object.n_property_dependencies == 1 &&
			 strcmp(r->u.object.property_dependencies[0].requires[0], "c") == 0 &&
			 r->n_unprocessed == 1 && strcmp(r->unprocessed_names[0], "dependencies") == 0,
			 "2020-12: dependentRequired is read, dependencies is not");
	rg_schema_free(s);

	s = parse("{" D2020 "\"prefixItems\":[{\"type\":\"string\"}],\"items\":{\"type\":\"number\"},\"contains\":{}}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_ARRAY && r->u.array.n_item_schemas == 1 &&
			 r->u.array.all_items == NULL && r->u.array.additional_items &&
			 r->u.array.additional_items->kind == RG_JS_NUMBER &&
			 r->u.array.min_contains.present && r->u.array.min_contains.value == 1,
			 "2020-12: prefixItems is the tuple, items what follows; minContains defaults to 1");
	rg_schema_free(s);

	s = parse("{" D2020 "\"$defs\":{\"s\":{\"type\":\"string\"}},\"$ref\":\"#/$defs/s\",\"maxLength\":2}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_COMBINED && r->u.combined.n_subschemas == 2 &&
			 r->u.combined.subschemas[0]->kind == RG_JS_REF &&
			 deref(r->u.combined.subschemas[0])->kind == RG_JS_STRING,
			 "2020-12: a $ref's siblings apply too");
	rg_schema_free(s);

	s = parse("{" D2020 "\"anyOf\":[{\"type\":\"string\",\"enum\":[\"a\"]},{\"type\":\"null\"}]}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_COMBINED && r->u.combined.criterion == RG_JS_ANY_OF &&
			 !r->u.combined.synthetic && r->u.combined.n_subschemas == 3,
			 "2020-12: a branch that is a generated allOf is spliced into anyOf");
	rg_schema_free(s);

	s = parse("{" D2020 "\"properties\":{\"a\":{}},\"enum\":[1],\"type\":\"object\",\"required\":[\"a\"]}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_COMBINED && r->u.combined.n_subschemas == 2 &&
			 r->u.combined.subschemas[0]->kind == RG_JS_ENUM &&
			 r->u.combined.subschemas[1]->kind == RG_JS_OBJECT &&
			 r->u.combined.subschemas[1]->u.object.n_properties == 1 &&
			 r->u.combined.subschemas[1]->u.object.n_required == 1,
			 "2020-12: properties join after the keywords, into the object schema");
	rg_schema_free(s);
	s = parse("{" D2020 "\"$comment\":\"c\",\"definitions\":{\"d\":{\"$id\":\"http://x/d\"}},\"$defs\":{\"e\":{\"$anchor\":\"e\"}},"
			  "\"properties\":{\"p\":{\"$ref\":\"#e\"}}}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->n_unprocessed == 3 && deref(property(r, "p"))->kind == RG_JS_EMPTY,
			 "2020-12: $comment, definitions and $defs unprocessed; anchors in $defs found");
	rg_schema_free(s);
	RG_CHECK(fails_with("{" D2020 "\"definitions\":{\"d\":{\"$id\":\"http://x/d\"}},\"$ref\":\"http://x/d\"}", "cannot be resolved"),
			 "2020-12: ids under an unknown keyword are not looked for");
	s = parse("{" D2020 "\"type\":\"array\",\"maxItems\":3,\"contains\":{},\"minContains\":2}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_ARRAY && r->u.array.min_contains.present &&
			 r->u.array.min_contains.value == 2 && r->u.array.max_items.value == 3,
			 "2020-12: minContains carried by contains");
	rg_schema_free(s);
	s = parse("{" D2020 "\"type\":\"array\",\"contains\":{},\"minContains\":2,\"maxItems\":3}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_ARRAY && !r->u.array.min_contains.present && r->u.array.contains,
			 "2020-12: a later array keyword's merge replaces the map minContains was in");
	rg_schema_free(s);
	s = parse("{" D2020 "\"type\":\"object\",\"unevaluatedProperties\":false}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_OBJECT && r->u.object.unevaluated &&
			 r->u.object.unevaluated->kind == RG_JS_FALSE, "2020-12: unevaluatedProperties");
	rg_schema_free(s);
	s = parse("{" D2020 "\"type\":\"object\",\"unevaluatedProperties\":false,\"x-note\":1}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_OBJECT && r->u.object.unevaluated == NULL && r->n_unprocessed == 1,
			 "2020-12: an unknown keyword's map replaces the one unevaluatedProperties was in");
	rg_schema_free(s);
	s = parse("{\"type\":\"array\",\"contains\":{},\"minContains\":2,\"unevaluatedItems\":false}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && r->kind == RG_JS_ARRAY && r->u.array.min_contains.value == 2 &&
			 r->u.array.unevaluated == NULL && r->n_unprocessed == 2,
			 "draft 7: minContains read from the unprocessed properties, unevaluatedItems ignored");
	rg_schema_free(s);
	RG_CHECK(fails_with("{" D2020 "\"$defs\":{\"bad\":{\"type\":\"nope\"}}}", "#/$defs/bad: unknown type: [nope]"),
			 "2020-12: an error in $defs counts");
	{
		const char *doc = "{" D2020 "\"type\":[\"string\",\"null\"],\"format\":\"email\",\"maxLength\":3}";

		s = rg_json_parse(doc, strlen(doc), NULL, 0, true, &err);
		r = s ? root_of(s) : NULL;
		RG_CHECK(r && r->kind == RG_JS_COMBINED && r->u.combined.criterion == RG_JS_ALL_OF &&
				 r->u.combined.n_subschemas == 2 &&
				 r->u.combined.subschemas[0]->kind == RG_JS_STRING &&
				 r->u.combined.subschemas[0]->u.string.max_length.present &&
				 r->u.combined.subschemas[1]->kind == RG_JS_COMBINED &&
				 r->u.combined.subschemas[1]->u.combined.criterion == RG_JS_ANY_OF,
				 "2020-12 with normalize: built from the sorted document (format, maxLength, then type)");
		rg_schema_free(s);
	}
	RG_CHECK(fails_with("{" D2020 "\"required\":\"x\"}", "#/required: expected type: JsonArray"),
			 "2020-12: required as a string");
	s = parse("{\"$schema\":\"https://json-schema.org/draft/2020-12/schema#\",\"type\":\"integer\",\"format\":\"x\"}", &err);
	RG_CHECK(s && rg_json_model(s)->draft == RG_JS_DRAFT_7 && root_of(s)->kind == RG_JS_COMBINED,
			 "a 2020-12 URL with a '#' is not Confluent's exact match: draft 7");
	rg_schema_free(s);
	s = parse("{\"$schema\":\"https://json-schema.org/draft/2019-09/schema#\",\"type\":\"integer\",\"format\":\"x\",\"dependentRequired\":{\"a\":[\"b\"]}}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && rg_json_model(s)->draft == RG_JS_DRAFT_2019_09 && r->kind == RG_JS_COMBINED &&
			 r->u.combined.synthetic && r->u.combined.n_subschemas == 3,
			 "a 2019-09 URL with a '#' goes to everit's own 2019-09: extractors and sniffing");
	rg_schema_free(s);
	RG_CHECK(fails_with("{" D2020 "\"items\":[{}]}", "#/items: expected type is one of Boolean or JsonObject, found: JsonArray"),
			 "2020-12: an items array is no schema");
	RG_CHECK(fails_with("{\"$schema\":\"https://json-schema.org/draft/2019-09/schema\",\"items\":[{}]}", "#/items"),
			 "2019-09 through json-sKema: an items array is no schema either");
	s = parse("{" D2020 "\"properties\":{\"a\":{\"$id\":5,\"type\":\"null\"}}}", &err);
	RG_CHECK(s && property(root_of(s), "a")->id == NULL, "2020-12: an $id that is no string is ignored");
	rg_schema_free(s);
	RG_CHECK(fails_with("{\"properties\":{\"a\":{\"$id\":5}}}", "#/properties/a/$id: expected type: String, found: Integer"),
			 "draft 7: an $id must be a string");
	s = parse("{\"$schema\":\"http://example.com/unknown\"}", &err);
	RG_CHECK(s && rg_json_model(s)->draft == RG_JS_DRAFT_7, "an unknown $schema is draft 7");
	rg_schema_free(s);
	RG_CHECK(fails_with("{\"$schema\":5}", "#/$schema: expected type: String"), "a non-string $schema");
	s = parse("{\"$schema\":\"http://json-schema.org/draft-06/schema#\",\"id\":\"x\",\"$id\":\"y\"}", &err);
	RG_CHECK(s && rg_json_model(s)->draft == RG_JS_DRAFT_6 && strcmp(root_of(s)->id, "y") == 0,
			 "draft 6 reads $id");
	rg_schema_free(s);
	s = parse("{\"$schema\":\"http://json-schema.org/draft-04/schema#\",\"id\":\"x\",\"$id\":\"y\",\"exclusiveMaximum\":true,\"maximum\":3}", &err);
	r = s ? root_of(s) : NULL;
	RG_CHECK(r && strcmp(r->id, "x") == 0 && r->u.number.exclusive_maximum_flag &&
			 !r->u.number.exclusive_maximum.present, "draft 4 reads id and a boolean exclusiveMaximum");
	rg_schema_free(s);
}

/*
 * A scratch that is really freed at its end, as a PostgreSQL memory
 * context is: a schema that kept a pointer into the parse's scratch fails
 * under AddressSanitizer when its model is walked afterwards.
 */
typedef struct tblock
{
	struct tblock *prev;
	struct tblock *next;
	size_t		size;
	int			scratch;
	int			pad;
} tblock;

static tblock scratch_list = {&scratch_list, &scratch_list, 0, 0, 0};
static int	in_scratch;

/* alloc: in scratch unless near a block (which lives on) or outside scratch */
static void *
t_alloc(const void *near, size_t size, bool noerror)
{
	tblock	   *b = malloc(sizeof(tblock) + size + 1);

	if (b == NULL)
		return NULL;
	b->size = size;
	b->scratch = near == NULL && in_scratch > 0;
	b->prev = b->next = b;
	if (b->scratch)
	{
		b->next = scratch_list.next;
		b->prev = &scratch_list;
		scratch_list.next->prev = b;
		scratch_list.next = b;
	}
	return b + 1;
}

/* free: a scratch block leaves the list */
static void
t_free(void *p)
{
	tblock	   *b = (tblock *) p - 1;

	if (b->scratch)
	{
		b->prev->next = b->next;
		b->next->prev = b->prev;
	}
	free(b);
}

/* realloc where the block lives */
static void *
t_realloc(void *p, size_t size)
{
	tblock	   *b = (tblock *) p - 1;
	void	   *q;

	in_scratch += b->scratch ? 1 : -in_scratch;
	q = t_alloc(b->scratch ? NULL : p, size, false);
	in_scratch -= b->scratch ? 1 : 0;
	if (q == NULL)
		return NULL;
	memcpy(q, p, b->size < size ? b->size : size);
	t_free(p);
	return q;
}

/* scratch begins */
static void *
t_scratch_begin(void)
{
	in_scratch++;
	return NULL;
}

/* scratch ends: everything in it freed */
static void
t_scratch_end(void *mark)
{
	(void) mark;
	if (--in_scratch == 0)
		while (scratch_list.next != &scratch_list)
			t_free(scratch_list.next + 1);
}

/* Touch every node reachable (each once), its strings and kept values. */
static long
touch(const rg_js *n, const rg_js **seen, int *n_seen, int cap)
{
	long		sum = 0;
	int			i;

	for (i = 0; i < *n_seen; i++)
		if (seen[i] == n)
			return 0;
	if (*n_seen == cap)
		return 0;
	seen[(*n_seen)++] = n;
	sum += strlen(n->location);
	sum += n->title ? strlen(n->title) : 0;
	sum += n->id ? strlen(n->id) : 0;
	if (n->default_value)
		sum += strlen(n->default_value->text) + (n->default_value->json != NULL);
	for (i = 0; i < n->n_unprocessed; i++)
		sum += strlen(n->unprocessed_names[i]) + strlen(n->unprocessed_values[i]->text) +
			(n->unprocessed_values[i]->json != NULL);
	switch (n->kind)
	{
		case RG_JS_OBJECT:
			for (i = 0; i < n->u.object.n_properties; i++)
				sum += strlen(n->u.object.properties[i].name) +
					touch(n->u.object.properties[i].schema, seen, n_seen, cap);
			for (i = 0; i < n->u.object.n_required; i++)
				sum += strlen(n->u.object.required[i]);
			for (i = 0; i < n->u.object.n_property_dependencies; i++)
				sum += strlen(n->u.object.property_dependencies[i].requires[0]);
			if (n->u.object.additional_schema)
				sum += touch(n->u.object.additional_schema, seen, n_seen, cap);
			break;
		case RG_JS_ARRAY:
			if (n->u.array.all_items)
				sum += touch(n->u.array.all_items, seen, n_seen, cap);
			for (i = 0; i < n->u.array.n_item_schemas; i++)
				sum += touch(n->u.array.item_schemas[i], seen, n_seen, cap);
			break;
		case RG_JS_COMBINED:
			for (i = 0; i < n->u.combined.n_subschemas; i++)
				sum += touch(n->u.combined.subschemas[i], seen, n_seen, cap);
			break;
		case RG_JS_ENUM:
			for (i = 0; i < n->u.enumeration.n_values; i++)
				sum += strlen(n->u.enumeration.values[i]->text) +
					(n->u.enumeration.values[i]->json != NULL);
			break;
		case RG_JS_STRING:
			sum += n->u.string.pattern ? strlen(n->u.string.pattern) : 0;
			break;
		case RG_JS_NUMBER:
			sum += n->u.number.minimum.lexeme ? strlen(n->u.number.minimum.lexeme) : 0;
			break;
		case RG_JS_REF:
			sum += strlen(n->u.ref.ref) + touch(n->u.ref.target, seen, n_seen, cap);
			break;
		case RG_JS_NOT:
			sum += touch(n->u.not.schema, seen, n_seen, cap);
			break;
		default:
			break;
	}
	return sum;
}

/* What a schema keeps outlives the parse's scratch. */
static void
test_memory(void)
{
	static const rg_allocator tracking = {
		.alloc = t_alloc,.realloc = t_realloc,.free = t_free,
		.scratch_begin = t_scratch_begin,.scratch_end = t_scratch_end,
	};
	static const char *const docs[] = {
		"{\"$id\":\"http://x/m.json\",\"title\":\"T\",\"definitions\":{\"n\":{\"enum\":[1.50,{\"a\":[true]}],\"default\":\"d\"}},"
		"\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/definitions/n\"},\"b\":{\"$ref\":\"r.json\"},"
		"\"c\":{\"type\":[\"string\",\"null\"],\"pattern\":\"^x\",\"x-y\":[1,2]}},\"required\":[\"a\"],"
		"\"dependencies\":{\"a\":[\"c\"]},\"additionalProperties\":{\"minimum\":1.5}}",
		"{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$defs\":{\"s\":{\"$anchor\":\"s\",\"type\":\"string\"}},"
		"\"prefixItems\":[{\"$ref\":\"#s\"}],\"items\":{\"const\":{\"k\":1}},\"contains\":{},\"x\":NaN}",
	};
	const char *ref = "{\"type\":\"object\",\"properties\":{\"z\":{\"$ref\":\"#/definitions/q\"}},\"definitions\":{\"q\":{\"minLength\":1}}}";
	rg_reference refs[1] = {{"r.json", ref, 0}};
	size_t		i;

	refs[0].schema_len = strlen(ref);
	rg_set_allocator(&tracking);
	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
	{
		int			normalize;

		for (normalize = 0; normalize < 2; normalize++)
		{
			rg_error	err;
			rg_schema  *s = rg_json_parse(docs[i], strlen(docs[i]), refs, 1, normalize, &err);
			const rg_js *seen[256];
			int			n_seen = 0;
			long		touched;

			RG_CHECK(s != NULL, "memory: document %zu (normalize %d) parses", i, normalize);
			if (s == NULL)
			{
				printf("#   %s\n", err.message);
				continue;
			}
			touched = touch(root_of(s), seen, &n_seen, 256);
			RG_CHECK(touched > 0 && n_seen >= 3,
					 "memory: the model is whole after the scratch is gone (%d nodes)", n_seen);
			RG_CHECK(strlen(s->canonical) == s->canonical_len, "memory: the stored form too");
			rg_schema_free(s);
		}
	}
	rg_set_allocator(NULL);
	RG_CHECK(scratch_list.next == &scratch_list && in_scratch == 0, "memory: scratch empty at the end");
}

int
main(void)
{
	test_common_cases();
	test_kinds();
	test_class_model();
	test_refs();
	test_cross_document();
	test_validation();
	test_annotations();
	test_syntax();
	test_stored_form();
	test_modern();
	test_memory();
	return rg_test_done();
}
