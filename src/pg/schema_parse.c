/*-------------------------------------------------------------------------
 *
 * schema_parse.c
 *	  From schema text to a parsed schema: the format by name, references
 *	  resolved to the texts they name, parsing, Confluent's identity
 *	  (fingerprint), and the parses of the transaction remembered by their
 *	  result, so the schemas trigger does not parse a row again.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/md5.h"
#include "lib/stringinfo.h"
#include "storage/proc.h"
#include "utils/memutils.h"

#include "confluent_messages.h"
#include "data_contract.h"
#include "registry.h"
#include "schemas.h"

#define REFERENCE_DEPTH_LIMIT 64

/* the first block of a parsed schema's memory context */
#define PARSED_SCHEMA_FIRST_BLOCK 1408

/*
 * The parses of this transaction, remembered by their result (parse_memo):
 * at most PARSES_KEPT, copied into ParseMemoContext, which a new
 * transaction empties.
 */
#define PARSES_KEPT 4

typedef struct KeptParse
{
	MemoryContext memory;		/* the slot's own, emptied when it is reused */
	char	   *context;
	const char *schema_type;
	char	   *canonical;
	char	   *refs_json;
	char	   *metadata;
	char	   *rule_set;
	uint8		fingerprint[REGISTRY_FINGERPRINT_LEN];
	OwnForm		own;			/* what the parse showed of its stored form */
}			KeptParse;

static MemoryContext ParseMemoContext = NULL;
static LocalTransactionId parses_lxid = InvalidLocalTransactionId;
static KeptParse parses[PARSES_KEPT];
static int	n_parses = 0;
static int	next_parse = 0;

static void keep_parse(const char *context, const SubmittedSchema *s);

/* references resolved to texts, in dependency order, one per name */
typedef struct ResolvedRefs
{
	rg_reference *refs;
	int			n;
	int			cap;
} ResolvedRefs;

/* The format of a schema_type (NULL is AVRO); 42201 naming the known ones otherwise. */
const rg_format *
registry_format(const char *schema_type)
{
	const rg_format *format = rg_format_lookup(schema_type ? schema_type : "AVRO");

	if (format == NULL)
	{
		StringInfoData known;
		int			i;

		initStringInfo(&known);
		for (i = 0; rg_format_at(i) != NULL; i++)
			appendStringInfo(&known, "%s%s", i > 0 ? ", " : "", rg_format_at(i)->name);
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("invalid schema type \"%s\"", schema_type),
				 errdetail("%s", confluent_text(CW_INVALID_SCHEMA_TYPE, schema_type, known.data))));
	}
	return format;
}

/* A reference subject is relative to the referring schema's context. */
static void
reference_target(const char *context, const char *ref_subject,
				 char **ref_context, char **ref_name)
{
	if (ref_subject[0] == ':')
		registry_split_subject_cstr(ref_subject, ref_context, ref_name);
	else
	{
		*ref_context = pstrdup(context);
		*ref_name = pstrdup(ref_subject);
	}
}

/* Add one resolved reference: the name it goes by and its text. */
static void
add_resolved(ResolvedRefs *out, const char *name, const char *text)
{
	if (out->n == out->cap)
	{
		out->cap = out->cap ? out->cap * 2 : 8;
		out->refs = out->refs ? repalloc(out->refs, sizeof(rg_reference) * out->cap)
			: palloc(sizeof(rg_reference) * out->cap);
	}
	out->refs[out->n].name = pstrdup(name);
	out->refs[out->n].schema = text;
	out->refs[out->n].schema_len = strlen(text);
	out->n++;
}

/* Has a reference of this name been added already? */
static bool
already_resolved(ResolvedRefs *out, const char *name)
{
	int			i;

	for (i = 0; i < out->n; i++)
		if (strcmp(out->refs[i].name, name) == 0)
			return true;
	return false;
}

/*
 * Resolve a references array: each referenced subject-version's own
 * references first (depth first), then the reference itself.  refs is
 * rewritten with concrete version numbers (-1 means the latest live one).
 * As Confluent's resolution, a name stands for one text: the first
 * reference by a name wins, and the same schema under two names (a JSON
 * document named by its $id and by a relative name) is given under both.
 */
static void
resolve_refs(const char *context, CatalogRef *refs, int n, ResolvedRefs *out, int depth)
{
	int			i;

	if (depth > REFERENCE_DEPTH_LIMIT)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("schema references nest deeper than %d levels", REFERENCE_DEPTH_LIMIT)));
	for (i = 0; i < n; i++)
	{
		char	   *ref_context;
		char	   *ref_name;
		CatalogVersion v;
		CatalogSchema s;
		bool		found;

		reference_target(context, refs[i].subject, &ref_context, &ref_name);
		if (refs[i].version == -1)
			found = catalog_latest_version(ref_context, ref_name, &v);
		else
			found = catalog_get_version(ref_context, ref_name, refs[i].version, true, &v);
		if (!found)
			ereport(ERROR,
					(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
					 errmsg("schema reference \"%s\" not found", refs[i].name),
					 errdetail("No version %d of subject \"%s\" exists.",
							   refs[i].version, refs[i].subject)));
		refs[i].version = v.version;
		if (already_resolved(out, refs[i].name))
			continue;
		if (!catalog_get_schema(ref_context, v.schema_id, &s))
			elog(ERROR, "schema %d of subject \"%s\" is missing", v.schema_id, ref_name);
		{
			int			nsub;
			CatalogRef *sub = catalog_parse_refs(s.refs, &nsub);

			resolve_refs(ref_context, sub, nsub, out, depth + 1);
		}
		if (!already_resolved(out, refs[i].name))
			add_resolved(out, refs[i].name, s.schema);
	}
}

/*
 * Confluent's identity of a schema, its guid: the MD5 of what its
 * Schema.updateHash digests (MD5.ofSchema), over the stored text, each
 * reference (its name, its subject, its version as 4 big-endian bytes),
 * then a present metadata and rule set (data_contract.c).  The bytes have
 * no separators, as Confluent's have none.
 */
static void
text_fingerprint(const char *stored, size_t len, const CatalogRef *refs, int n,
				 const char *metadata, const char *rule_set, uint8 *out)
{
	StringInfoData buf;
	const char *errstr = NULL;
	int			i;

	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, stored, len);
	for (i = 0; i < n; i++)
	{
		uint32		v = (uint32) refs[i].version;
		char		be[4] = {(char) (v >> 24), (char) (v >> 16), (char) (v >> 8), (char) v};

		appendStringInfoString(&buf, refs[i].name);
		appendStringInfoString(&buf, refs[i].subject);
		appendBinaryStringInfo(&buf, be, 4);
	}
	dc_metadata_identity(metadata, &buf);
	dc_rule_set_identity(rule_set, &buf);
	if (!pg_md5_binary(buf.data, buf.len, out, &errstr))
		elog(ERROR, "could not compute MD5: %s", errstr ? errstr : "out of memory");
	pfree(buf.data);
}

/*
 * The identity 0.6 stored for a schema: MD5 over the stored text, each
 * reference (name, subject, version) after a NUL, and the metadata and
 * rule set after the bytes 1 and 2.  It is Confluent's guid only for a
 * schema with none of those; a restored 0.6 row is given the guid instead
 * (registry_check_restored_schema).
 */
static void
legacy_fingerprint(const char *stored, const CatalogRef *refs, int n,
				   const char *metadata, const char *rule_set, uint8 *out)
{
	StringInfoData buf;
	const char *errstr = NULL;

	initStringInfo(&buf);
	appendStringInfoString(&buf, stored);
	for (int i = 0; i < n; i++)
		appendStringInfo(&buf, "%c%s%c%s%c%d", '\0', refs[i].name, '\0', refs[i].subject,
						 '\0', refs[i].version);
	if (metadata)
		appendStringInfo(&buf, "%c%s", '\1', metadata);
	if (rule_set)
		appendStringInfo(&buf, "%c%s", '\2', rule_set);
	if (!pg_md5_binary(buf.data, buf.len, out, &errstr))
		elog(ERROR, "could not compute MD5: %s", errstr ? errstr : "out of memory");
	pfree(buf.data);
}

/*
 * Confluent's guid of a schema text as given, with its references (jsonb
 * text) and data contract (brought to their canonical form first); the
 * one computation of it, which registry.schema_guid() gives SQL.
 */
void
registry_schema_identity(const char *text, const char *refs_json, const char *metadata,
						 const char *rule_set, uint8 *out)
{
	int			nrefs;
	CatalogRef *refs = catalog_parse_refs(refs_json ? refs_json : "[]", &nrefs);

	text_fingerprint(text, strlen(text), refs, nrefs, dc_metadata_canonical(metadata),
					 dc_rule_set_canonical(rule_set), out);
}

/* The identity of a parsed schema (its stored form) with its references and contract. */
static void
compute_fingerprint(const rg_schema *parsed, const CatalogRef *refs, int n,
					const char *metadata, const char *rule_set, uint8 *out)
{
	text_fingerprint(parsed->canonical, parsed->canonical_len, refs, n, metadata, rule_set, out);
}

/*
 * Parse text with its references into a memory context of its own, a
 * child of the current one (*memory; a caller that keeps the schema moves
 * it under the cache), so the schema and everything it holds go with that
 * context; NULL with *err set and nothing left behind when it does not
 * parse.  for_model (normalize off) parses for the model only, without
 * the stored form when the format can write it again (rg_parse_for_model).
 */
static rg_schema *
parse_with_refs(const char *context, const rg_format *format, const char *text,
				CatalogRef *refs, int nrefs, bool normalize, bool for_model,
				rg_error *err, MemoryContext *memory)
{
	ResolvedRefs resolved = {0};
	MemoryContext old;
	rg_schema  *parsed;

	resolve_refs(context, refs, nrefs, &resolved, 0);

	/*
	 * The first block holds the context, the arena's first 1 KB block and the
	 * few small things a schema keeps beside it; the arena's bigger blocks
	 * get blocks of their own.
	 */
	*memory = AllocSetContextCreate(CurrentMemoryContext, "registry parsed schema",
									PARSED_SCHEMA_FIRST_BLOCK, ALLOCSET_SMALL_INITSIZE,
									ALLOCSET_SMALL_MAXSIZE);
	old = MemoryContextSwitchTo(*memory);
	rg_error_clear(err);
	if (for_model)
		parsed = rg_parse_for_model(format, text, strlen(text), resolved.refs,
									resolved.n, err);
	else
		parsed = format->parse(text, strlen(text), resolved.refs, resolved.n,
							   normalize, err);
	MemoryContextSwitchTo(old);
	if (parsed == NULL)
	{
		MemoryContextDelete(*memory);
		*memory = NULL;
	}
	return parsed;
}

/* a reference and where it stood, so a sort can keep ties in order */
typedef struct PlacedRef
{
	CatalogRef	ref;
	int			position;		/* where it stood in the list */
} PlacedRef;

/* qsort order of references: subject, version, then where they stood. */
static int
placed_ref_cmp(const void *a, const void *b)
{
	const PlacedRef *x = a;
	const PlacedRef *y = b;
	int			c = strcmp(x->ref.subject, y->ref.subject);

	if (c != 0)
		return c;
	if (x->ref.version != y->ref.version)
		return x->ref.version < y->ref.version ? -1 : 1;
	return x->position - y->position;
}

/*
 * normalize=true on the references, as every format's normalize() does in
 * Confluent: sorted by subject and version (stably: a tie keeps its
 * order), and an exact repeat of name, subject and version dropped.
 * Versions are concrete by now (resolve_refs), so "latest" sorts as the
 * version it stands for.
 */
static void
normalize_refs(CatalogRef *refs, int *n)
{
	PlacedRef  *placed;
	int			run = 0;		/* first of the references sharing subject and
								 * version */
	int			kept = 0;
	int			i;

	if (*n < 2)
		return;
	placed = palloc(sizeof(PlacedRef) * *n);
	for (i = 0; i < *n; i++)
	{
		placed[i].ref = refs[i];
		placed[i].position = i;
	}
	qsort(placed, *n, sizeof(PlacedRef), placed_ref_cmp);
	for (i = 0; i < *n; i++)
	{
		const CatalogRef *r = &placed[i].ref;
		bool		repeat = false;
		int			j;

		if (kept > 0 && (refs[kept - 1].version != r->version ||
						 strcmp(refs[kept - 1].subject, r->subject) != 0))
			run = kept;
		for (j = run; j < kept && !repeat; j++)
			repeat = strcmp(refs[j].name, r->name) == 0;
		if (!repeat)
			refs[kept++] = *r;
	}
	*n = kept;
	pfree(placed);
}

/* See schemas.h: Java's String.trim().isEmpty(), which Confluent applies. */
bool
registry_schema_is_blank(const char *text)
{
	const unsigned char *p;

	for (p = (const unsigned char *) text; *p; p++)
		if (*p > ' ')
			return false;
	return true;
}

/* Parse a schema given to the SQL API (see schemas.h). */
SubmittedSchema *
registry_parse_submitted(const char *context, const char *schema_type,
						 const char *text, const char *refs_json,
						 const char *metadata, const char *rule_set,
						 bool normalize, char **error_out)
{
	SubmittedSchema *s = palloc0(sizeof(SubmittedSchema));
	CatalogRef *refs;
	int			nrefs;
	rg_error	err;

	s->format = registry_format(schema_type);
	if (registry_schema_is_blank(text))
	{
		if (error_out)
		{
			*error_out = pstrdup(confluent_text(CW_EMPTY_SCHEMA));
			return NULL;
		}
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("schema is empty"),
				 errdetail("%s", confluent_text(CW_EMPTY_SCHEMA))));
	}
	s->metadata = dc_metadata_canonical(metadata);
	s->rule_set = dc_rule_set_canonical(rule_set);
	refs = catalog_parse_refs(refs_json ? refs_json : "[]", &nrefs);
	ereport(DEBUG1,
			(errmsg_internal("registry parses a submitted schema in context \"%s\"", context)));
	s->parsed = parse_with_refs(context, s->format, text, refs, nrefs, normalize, false, &err,
								&s->memory);
	if (s->parsed == NULL)
	{
		if (err.code == RG_ERR_NOMEM)
			ereport(ERROR,
					(errcode(ERRCODE_OUT_OF_MEMORY),
					 errmsg("out of memory while parsing a schema")));
		if (error_out)
		{
			*error_out = pstrdup(err.message);
			return NULL;
		}
		registry_report_invalid_schema(s->format->name, err.message);
	}
	s->normalized = normalize;
	s->text_is_stored_form = nrefs == 0 && strlen(text) == s->parsed->canonical_len &&
		memcmp(text, s->parsed->canonical, s->parsed->canonical_len) == 0;
	if (normalize)
		normalize_refs(refs, &nrefs);
	s->refs_json = catalog_refs_to_json(refs, nrefs);
	s->refs = refs;
	s->nrefs = nrefs;
	compute_fingerprint(s->parsed, refs, nrefs, s->metadata, s->rule_set, s->fingerprint);
	keep_parse(context, s);
	return s;
}

/* What a parse showed of its stored form being its own (see schemas.h). */
void
registry_own_form(const SubmittedSchema *s, OwnForm *own)
{
	own->plain = s->text_is_stored_form && !s->normalized;
	own->normalized = s->text_is_stored_form && s->normalized;
}

/* A submission taken as its own stored form, without a parse (see schemas.h). */
SubmittedSchema *
registry_submitted_as_stored(const char *schema_type, const char *text,
							 const char *refs_json, const char *metadata,
							 const char *rule_set)
{
	SubmittedSchema *s = palloc0(sizeof(SubmittedSchema));
	int			nrefs;

	/* what registry_parse_submitted reads before its parse, in its order */
	s->format = registry_format(schema_type);
	s->metadata = dc_metadata_canonical(metadata);
	s->rule_set = dc_rule_set_canonical(rule_set);
	s->refs = catalog_parse_refs(refs_json ? refs_json : "[]", &nrefs);
	if (nrefs > 0)
		return NULL;
	s->parsed = palloc0(sizeof(rg_schema));
	s->parsed->format = s->format;
	s->parsed->canonical = (char *) text;
	s->parsed->canonical_len = strlen(text);
	s->refs_json = "[]";
	s->text_is_stored_form = true;
	text_fingerprint(text, s->parsed->canonical_len, NULL, 0, s->metadata, s->rule_set,
					 s->fingerprint);
	return s;
}

/* The key of a schema's exact text (see schemas.h). */
int
registry_text_key(const uint8 *fingerprint, const char *schema_type, uint8 *out)
{
	size_t		len = strlen(schema_type);

	if (len >= NAMEDATALEN)
		return 0;
	memcpy(out, fingerprint, REGISTRY_FINGERPRINT_LEN);
	memcpy(out + REGISTRY_FINGERPRINT_LEN, schema_type, len);
	return REGISTRY_FINGERPRINT_LEN + (int) len;
}

/* Does a schema row vouch for its text under a lookup's normalize (see schemas.h)? */
bool
registry_schema_vouches(const CatalogSchema *row, bool normalize)
{
	return row->refs != NULL && strcmp(row->refs, "[]") == 0 &&
		(normalize ? row->normalizes_to_itself : row->parses_to_itself);
}

/* Does a schema row vouch for the key of its text, and which (see schemas.h)? */
int
registry_schema_text_key(const CatalogSchema *row, uint8 *out)
{
	if (!registry_schema_vouches(row, false) || row->metadata != NULL || row->rule_set != NULL)
		return 0;
	return registry_text_key(row->fingerprint, row->schema_type, out);
}

/* The identity of a submitted schema's text and references (see schemas.h). */
void
registry_plain_fingerprint(const SubmittedSchema *s, uint8 *out)
{
	if (s->metadata == NULL && s->rule_set == NULL)
		memcpy(out, s->fingerprint, REGISTRY_FINGERPRINT_LEN);
	else
		compute_fingerprint(s->parsed, s->refs, s->nrefs, NULL, NULL, out);
}

/* A submitted schema's data contract replaced (see schemas.h). */
void
registry_with_contract(SubmittedSchema *s, const char *metadata, const char *rule_set)
{
	s->metadata = dc_metadata_canonical(metadata);
	s->rule_set = dc_rule_set_canonical(rule_set);
	compute_fingerprint(s->parsed, s->refs, s->nrefs, s->metadata, s->rule_set, s->fingerprint);
}

/*
 * Parse a stored schema row with its references into a memory context of
 * its own (*memory), for its model: an AVRO schema keeps no stored form
 * (rg_schema_text writes it when asked); NULL with *err set when it no
 * longer parses.
 */
rg_schema *
registry_parse_stored(const char *context, const CatalogSchema *row, rg_error *err,
					  MemoryContext *memory)
{
	int			nrefs;
	CatalogRef *refs = catalog_parse_refs(row->refs, &nrefs);

	return parse_with_refs(context, registry_format(row->schema_type), row->schema,
						   refs, nrefs, false, true, err, memory);
}

/* Forget the parses of an earlier transaction. */
static void
parses_of_this_transaction(void)
{
	if (parses_lxid == MyProc->lxid)
		return;
	if (ParseMemoContext == NULL)
		ParseMemoContext = AllocSetContextCreate(TopMemoryContext, "registry parses",
												 ALLOCSET_SMALL_SIZES);
	MemoryContextReset(ParseMemoContext);
	memset(parses, 0, sizeof(parses));
	n_parses = 0;
	next_parse = 0;
	parses_lxid = MyProc->lxid;
}

/* Do two optional strings say the same? */
static bool
same_optional(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Remember a parse by its result: its stored form, references, contract and identity. */
static void
keep_parse(const char *context, const SubmittedSchema *s)
{
	KeptParse  *k;
	MemoryContext old;

	/* a parse with references rests on their versions: never taken as read */
	if (s->nrefs > 0)
		return;
	parses_of_this_transaction();
	k = &parses[next_parse];
	next_parse = (next_parse + 1) % PARSES_KEPT;
	if (n_parses < PARSES_KEPT)
		n_parses++;
	if (k->memory == NULL)
		k->memory = AllocSetContextCreate(ParseMemoContext, "registry kept parse",
										  ALLOCSET_SMALL_SIZES);
	MemoryContextReset(k->memory);
	old = MemoryContextSwitchTo(k->memory);
	k->context = pstrdup(context);
	k->schema_type = s->format->name;
	k->canonical = pnstrdup(s->parsed->canonical, s->parsed->canonical_len);
	k->refs_json = pstrdup(s->refs_json);
	k->metadata = s->metadata ? pstrdup(s->metadata) : NULL;
	k->rule_set = s->rule_set ? pstrdup(s->rule_set) : NULL;
	MemoryContextSwitchTo(old);
	memcpy(k->fingerprint, s->fingerprint, REGISTRY_FINGERPRINT_LEN);
	registry_own_form(s, &k->own);
}

/*
 * Is a schema row's content exactly what a parse of this transaction gave
 * (its stored form, with the same contract and identity, and no
 * references)?  Then parsing it again would give it again: the text alone
 * decides, whatever the catalog holds now, so neither a rolled-back
 * savepoint nor a delete can make the answer stale.  A schema with
 * references is always parsed (they must still resolve).  Who parsed does
 * not matter, only what was parsed.  At most PARSES_KEPT are kept, each
 * slot's memory freed when it is reused.  *own: what any of the parses
 * that gave it showed of the text being its own stored form (each is a
 * fact about the text, whichever parse showed it).
 */
bool
registry_parsed_before(const char *context, const char *schema_type, const char *schema,
					   const char *refs, const char *metadata, const char *rule_set,
					   const uint8 *fingerprint, OwnForm *own)
{
	bool		found = false;

	own->plain = false;
	own->normalized = false;
	parses_of_this_transaction();
	for (int i = 0; i < n_parses; i++)
	{
		KeptParse  *k = &parses[i];

		if (strcmp(context, k->context) == 0 &&
			strcmp(schema_type, k->schema_type) == 0 &&
			strcmp(schema, k->canonical) == 0 &&
			strcmp(refs, k->refs_json) == 0 &&
			same_optional(metadata, k->metadata) &&
			same_optional(rule_set, k->rule_set) &&
			memcmp(fingerprint, k->fingerprint, REGISTRY_FINGERPRINT_LEN) == 0)
		{
			found = true;
			own->plain |= k->own.plain;
			own->normalized |= k->own.normalized;
		}
	}
	return found;
}

/*
 * A restored schema row must be consistent (restore.c): its fingerprint is
 * the identity of its text, references and contract (Confluent's guid, or
 * the identity 0.6 stored, whose row is then given the guid: *identity is
 * what the row must hold), and, where it names no reference (whose
 * versions may not be restored yet), its text is the stored form of
 * itself.  42201 otherwise.  *own comes in as the row claims it and goes
 * out as shown: plain where the text was checked to be its own stored
 * form, normalized only where the row claims it and a parse with
 * normalize gives the text back.
 */
void
registry_check_restored_schema(const char *context, const char *schema_type,
							   const char *text, const char *refs_json,
							   const char *metadata, const char *rule_set,
							   const uint8 *fingerprint, OwnForm *own, uint8 *identity)
{
	bool		claims_normalized = own->normalized;

	CatalogRef *refs;
	int			nrefs;
	bool		consistent;

	metadata = dc_metadata_canonical(metadata);
	rule_set = dc_rule_set_canonical(rule_set);
	refs = catalog_parse_refs(refs_json ? refs_json : "[]", &nrefs);
	text_fingerprint(text, strlen(text), refs, nrefs, metadata, rule_set, identity);
	consistent = memcmp(identity, fingerprint, REGISTRY_FINGERPRINT_LEN) == 0;
	if (!consistent)
	{
		uint8		legacy[REGISTRY_FINGERPRINT_LEN];

		legacy_fingerprint(text, refs, nrefs, metadata, rule_set, legacy);
		consistent = memcmp(legacy, fingerprint, REGISTRY_FINGERPRINT_LEN) == 0;
	}
	if (consistent && nrefs == 0)
	{
		SubmittedSchema *s = registry_parse_submitted(context, schema_type, text, "[]",
													  metadata, rule_set, false, NULL);

		consistent = s->text_is_stored_form;
	}
	own->plain = consistent && nrefs == 0;
	own->normalized = false;
	if (own->plain && claims_normalized)
	{
		SubmittedSchema *n = registry_parse_submitted(context, schema_type, text, "[]",
													  metadata, rule_set, true, NULL);

		own->normalized = n->text_is_stored_form;
	}
	if (!consistent)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_SCHEMA),
				 errmsg("a restored schema row is not consistent"),
				 errdetail("The fingerprint or the stored form of the row does not match its schema text.")));
}
