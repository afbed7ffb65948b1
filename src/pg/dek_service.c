/*-------------------------------------------------------------------------
 *
 * dek_service.c
 *	  Confluent's DEK registry: KEKs (key encryption keys, kept in a KMS the
 *	  registry only names) and, under each, DEKs (data encryption keys) per
 *	  subject, algorithm and version, stored wrapped by their KEK.  One
 *	  function per Confluent operation; the REST routes and the SQL
 *	  functions call them.  The rules a write must keep are the tables'
 *	  triggers' (dek_triggers.c), so raw DML keeps them too; what is
 *	  checked here is what Confluent checks before it writes, in its order.
 *
 * A shared KEK's DEKs are made by the server: it generates the key
 * material and wraps it through the KEK's KMS (local_kms.c); reading one
 * unwraps it again and answers it as keyMaterial, to roles that may
 * execute registry.dek_key_material().
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "common/base64.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/regproc.h"

#include "catalog_keys.h"
#include "confluent_messages.h"
#include "dek_service.h"
#include "kms.h"
#include "privileges.h"
#include "registry.h"

#define KEK_NAME_MAX_LENGTH 64
#define DEK_DEFAULT_ALGORITHM "AES256_GCM"
#define DEK_MIN_VERSION 1

/* --- errors ------------------------------------------------------------------- */

/* 40470: no such key (a KEK's name or a DEK's subject) */
static void
key_not_found(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_KEY_NOT_FOUND),
			 errmsg("key \"%s\" not found", what),
			 errdetail("%s", confluent_text(CW_KEY_NOT_FOUND, what))));
}

/* 40971: the key (a KEK's name or a DEK's subject) exists already */
static void
key_exists(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_KEY_EXISTS),
			 errmsg("key \"%s\" already exists", what),
			 errdetail("%s", confluent_text(CW_KEY_EXISTS, what))));
}

/* 42271: a field of the key is missing or invalid */
static void
key_invalid(const char *field)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_KEY_INVALID),
			 errmsg("invalid or missing key field \"%s\"", field),
			 errdetail("%s", confluent_text(CW_KEY_INVALID, field))));
}

/* 50070: the KMS could not wrap (or unwrap) a DEK */
static void
dek_generation_failed(ConfluentWording w, const char *subject, const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_DEK_GENERATION),
			 errmsg("could not use the KMS of the KEK for subject \"%s\"", subject),
			 errdetail("%s", confluent_text(w, subject, why))));
}

/* --- checks --------------------------------------------------------------------- */

/*
 * See dek_service.h: a KEK name is a letter or "_", then letters, digits,
 * "_" and "-", 64 characters at most (a non-ASCII byte counts as a letter)
 */
void
registry_check_kek_name(const char *name)
{
	size_t		len;

	if (name == NULL || name[0] == '\0')
		key_invalid("name");
	len = strlen(name);
	if (pg_mbstrlen(name) > KEK_NAME_MAX_LENGTH)
		key_invalid("name");
	if (!(isalpha((unsigned char) name[0]) || name[0] == '_' || IS_HIGHBIT_SET(name[0])))
		key_invalid("name");
	for (size_t i = 1; i < len; i++)
	{
		unsigned char ch = (unsigned char) name[i];

		if (!(isalnum(ch) || ch == '_' || ch == '-' || IS_HIGHBIT_SET(ch)))
			key_invalid("name");
	}
}

/*
 * See dek_service.h: a subject is not empty and has no control characters
 * (Java's ISO controls: U+0000 to U+001F and U+007F to U+009F, the latter
 * from 0x80 on two bytes in UTF-8, C2 80 to C2 9F)
 */
void
registry_check_dek_subject(const char *subject)
{
	if (subject == NULL || subject[0] == '\0')
		key_invalid("subject");
	for (const unsigned char *p = (const unsigned char *) subject; *p; p++)
		if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			key_invalid("subject");
}

/* See dek_service.h: one of Confluent's DekFormats */
void
registry_check_dek_algorithm(const char *algorithm)
{
	if (algorithm == NULL || kms_dek_key_size(algorithm) == 0)
		key_invalid("algorithm");
}

/* The algorithm a request names, AES256_GCM when it names none. */
static const char *
algorithm_or_default(const char *algorithm)
{
	if (algorithm == NULL || algorithm[0] == '\0')
		return DEK_DEFAULT_ALGORITHM;
	registry_check_dek_algorithm(algorithm);
	return algorithm;
}

/*
 * A DEK version as Confluent's VersionId reads it: "latest" or -1 for the
 * latest, else 1 to 2^31-1; 42202 otherwise.  NULL: if_null.
 */
static int32
dek_version(const char *s, int32 if_null)
{
	char	   *end;
	long		v;

	if (s == NULL)
		return if_null;
	if (pg_strcasecmp(s, "latest") == 0)
		return CATALOG_DEK_LATEST;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v > PG_INT32_MAX ||
		(v < 1 && v != CATALOG_DEK_LATEST))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_INVALID_VERSION),
				 errmsg("invalid DEK version \"%s\"", s),
				 errdetail("%s", confluent_text(CW_INVALID_VERSION, s))));
	return (int32) v;
}

/* --- request members -------------------------------------------------------- */

/* A member of a request object, NULL when absent or null. */
static JsonbValue *
member(Jsonb *request, const char *key)
{
	JsonbValue *v;

	if (request == NULL || !JB_ROOT_IS_OBJECT(request))
		return NULL;
	v = getKeyJsonValueFromContainer(&request->root, key, strlen(key), NULL);
	return (v == NULL || v->type == jbvNull) ? NULL : v;
}

/* A string member (NULL when absent); any other type is 42271 for it. */
static char *
member_string(Jsonb *request, const char *key)
{
	JsonbValue *v = member(request, key);

	if (v == NULL)
		return NULL;
	if (v->type != jbvString)
		key_invalid(key);
	return pnstrdup(v->val.string.val, v->val.string.len);
}

/* A boolean member, def when absent; any other type is 42271 for it. */
static bool
member_bool(Jsonb *request, const char *key, bool def)
{
	JsonbValue *v = member(request, key);

	if (v == NULL)
		return def;
	if (v->type != jbvBool)
		key_invalid(key);
	return v->val.boolean;
}

/* A request that must be a JSON object. */
static void
check_request(Jsonb *request)
{
	if (request == NULL || !JB_ROOT_IS_OBJECT(request))
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_KEY_INVALID),
				 errmsg("the request must be a JSON object"),
				 errdetail("%s", confluent_text(CW_KEY_INVALID, "name"))));
}

/* a kmsProps entry while it is sorted */
typedef struct KmsProp
{
	char	   *key;
	char	   *value;
} KmsProp;

/* qsort: kmsProps by key, as Java's String order (UTF-16 units; bytes for BMP text) */
static int
kms_prop_cmp(const void *a, const void *b)
{
	return strcmp(((const KmsProp *) a)->key, ((const KmsProp *) b)->key);
}

/*
 * The kmsProps of a request as a JSON object of strings sorted by key, as
 * Confluent keeps them; "{}" when absent.  A number or boolean is taken as
 * its text, as Jackson does for a Map<String, String>.
 */
static char *
kms_props_text(JsonbValue *v)
{
	JsonbIterator *it;
	JsonbValue	val;
	JsonbIteratorToken tok;
	KmsProp    *props;
	int			n = 0;
	StringInfoData out;
	Jsonb	   *obj;

	if (v == NULL)
		return pstrdup("{}");
	if (v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data))
		key_invalid("kmsProps");
	obj = JsonbValueToJsonb(v);
	props = palloc(sizeof(KmsProp) * (JsonContainerSize(&obj->root) + 1));
	it = JsonbIteratorInit(&obj->root);
	while ((tok = JsonbIteratorNext(&it, &val, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
			props[n].key = pnstrdup(val.val.string.val, val.val.string.len);
		else if (tok == WJB_VALUE)
		{
			if (val.type == jbvString)
				props[n].value = pnstrdup(val.val.string.val, val.val.string.len);
			else if (val.type == jbvNumeric)
				props[n].value = DatumGetCString(DirectFunctionCall1(numeric_out,
																	 NumericGetDatum(val.val.numeric)));
			else if (val.type == jbvBool)
				props[n].value = pstrdup(val.val.boolean ? "true" : "false");
			else
				key_invalid("kmsProps");
			n++;
		}
	}
	qsort(props, n, sizeof(KmsProp), kms_prop_cmp);
	initStringInfo(&out);
	appendStringInfoChar(&out, '{');
	for (int i = 0; i < n; i++)
	{
		if (i > 0)
			appendStringInfoChar(&out, ',');
		escape_json(&out, props[i].key);
		appendStringInfoChar(&out, ':');
		escape_json(&out, props[i].value);
	}
	appendStringInfoChar(&out, '}');
	return out.data;
}

/* The kmsProps of a request, sorted (kms_props_text). */
static char *
kms_props_json(Jsonb *request)
{
	return kms_props_text(member(request, "kmsProps"));
}

/* kmsProps as stored (jsonb text) in Confluent's order: sorted by key. */
static char *
kms_props_sorted(const char *stored)
{
	Jsonb	   *jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(stored)));
	JsonbValue	v;

	v.type = jbvBinary;
	v.val.binary.data = &jb->root;
	v.val.binary.len = VARSIZE(jb);
	return kms_props_text(&v);
}

/* Confluent's kmsType spelling: aws*, azure*, gcp* become aws-kms, azure-kms, gcp-kms. */
static char *
normalize_kms_type(const char *kms_type)
{
	if (pg_strncasecmp(kms_type, "aws", 3) == 0)
		return pstrdup("aws-kms");
	if (pg_strncasecmp(kms_type, "azure", 5) == 0)
		return pstrdup("azure-kms");
	if (pg_strncasecmp(kms_type, "gcp", 3) == 0)
		return pstrdup("gcp-kms");
	return pstrdup(kms_type);
}

/* --- answers ----------------------------------------------------------------- */

/* The key of the next member of an object being written. */
static void
key(StringInfo out, bool *first, const char *name)
{
	if (!*first)
		appendStringInfoChar(out, ',');
	*first = false;
	escape_json(out, name);
	appendStringInfoChar(out, ':');
}

/* Confluent's Kek entity. */
static char *
kek_json(const CatalogKek *k)
{
	StringInfoData out;
	bool		first = true;

	initStringInfo(&out);
	appendStringInfoChar(&out, '{');
	key(&out, &first, "name");
	escape_json(&out, k->name);
	key(&out, &first, "kmsType");
	escape_json(&out, k->kms_type);
	key(&out, &first, "kmsKeyId");
	escape_json(&out, k->kms_key_id);
	key(&out, &first, "kmsProps");
	appendStringInfoString(&out, kms_props_sorted(k->kms_props));
	if (k->doc)
	{
		key(&out, &first, "doc");
		escape_json(&out, k->doc);
	}
	key(&out, &first, "shared");
	appendStringInfoString(&out, k->shared ? "true" : "false");
	key(&out, &first, "ts");
	appendStringInfo(&out, INT64_FORMAT, k->ts);
	key(&out, &first, "deleted");
	appendStringInfoString(&out, k->deleted ? "true" : "false");
	appendStringInfoChar(&out, '}');
	return out.data;
}

/* Confluent's Dek entity; key_material (base64) when it is shown. */
static char *
dek_json(const CatalogDek *d, const char *key_material)
{
	StringInfoData out;
	bool		first = true;

	initStringInfo(&out);
	appendStringInfoChar(&out, '{');
	key(&out, &first, "kekName");
	escape_json(&out, d->kek_name);
	key(&out, &first, "subject");
	escape_json(&out, d->subject);
	key(&out, &first, "version");
	appendStringInfo(&out, "%d", d->version);
	key(&out, &first, "algorithm");
	escape_json(&out, d->algorithm);
	key(&out, &first, "encryptedKeyMaterial");
	escape_json(&out, d->encrypted_key_material);
	if (key_material)
	{
		key(&out, &first, "keyMaterial");
		escape_json(&out, key_material);
	}
	key(&out, &first, "ts");
	appendStringInfo(&out, INT64_FORMAT, d->ts);
	key(&out, &first, "deleted");
	appendStringInfoString(&out, d->deleted ? "true" : "false");
	appendStringInfoChar(&out, '}');
	return out.data;
}

/* A list of strings, or of numbers (an IntList), as a JSON array. */
static char *
list_json(List *items)
{
	StringInfoData out;
	ListCell   *lc;

	initStringInfo(&out);
	appendStringInfoChar(&out, '[');
	foreach(lc, items)
	{
		if (foreach_current_index(lc) > 0)
			appendStringInfoChar(&out, ',');
		if (IsA(items, IntList))
			appendStringInfo(&out, "%d", lfirst_int(lc));
		else
			escape_json(&out, (char *) lfirst(lc));
	}
	appendStringInfoChar(&out, ']');
	return out.data;
}

/* --- base64 and the KMS -------------------------------------------------------- */

/* bytes as base64 text */
static char *
to_base64(const char *bytes, int len)
{
	int			enclen = pg_b64_enc_len(len);
	char	   *out = palloc(enclen + 1);
	int			n = pg_b64_encode(bytes, len, out, enclen);

	if (n < 0)
		elog(ERROR, "could not encode base64");
	out[n] = '\0';
	return out;
}

/* base64 text as bytes; NULL when it is not base64 */
static char *
from_base64(const char *text, int *len)
{
	int			textlen = strlen(text);
	int			declen = pg_b64_dec_len(textlen);
	char	   *out = palloc(declen + 1);
	int			n = pg_b64_decode(text, textlen, out, declen);

	if (n < 0)
		return NULL;
	*len = n;
	return out;
}

/* May the current role see the key material of a shared KEK's DEKs? */
static bool
key_material_permitted(void)
{
	Oid			fn = registry_function_oid(DEK_KEY_MATERIAL_GATE);

	return OidIsValid(fn) && pg_proc_aclcheck(fn, GetUserId(), ACL_EXECUTE) == ACLCHECK_OK;
}

/*
 * The raw key material of a DEK, unwrapped through its KEK's KMS; when it
 * cannot be, 50070 (must), else NULL.
 */
static char *
unwrap_dek(const CatalogKek *kek, const CatalogDek *d, bool must, int *len)
{
	int			wlen;
	char	   *wrapped = from_base64(d->encrypted_key_material, &wlen);
	char	   *error = "invalid base64 key material";
	char	   *raw = NULL;

	if (wrapped != NULL)
		raw = kms_unwrap(kek->kms_type, kek->kms_key_id, wrapped, wlen, len, &error);
	if (raw == NULL && must)
		dek_generation_failed(CW_DEK_UNWRAP, d->subject, error);
	return raw;
}

/*
 * A DEK as Confluent answers it: with its key material for a shared KEK's,
 * if permitted; must: 50070 when it cannot be unwrapped, else the DEK
 * without it.
 */
static char *
dek_answer(const CatalogKek *kek, const CatalogDek *d, bool must)
{
	char	   *material = NULL;

	if (kek->shared && key_material_permitted())
	{
		int			len;
		char	   *raw = unwrap_dek(kek, d, must, &len);

		if (raw != NULL)
			material = to_base64(raw, len);
	}
	return dek_json(d, material);
}

/* --- KEKs ------------------------------------------------------------------- */

/* The KEK called name (soft-deleted ones too if deleted), else 40470. */
static void
get_kek(const char *name, bool deleted, CatalogKek *out)
{
	registry_check_kek_name(name);
	if (!catalog_kek_get(name, deleted, out))
		key_not_found(name);
}

/*
 * GET /dek-registry/v1/keks: the KEKs' names; with subject prefixes (any
 * of them), the names of the KEKs with a DEK of such a subject instead
 * (the DEK soft-deleted too if deleted)
 */
char *
registry_kek_list(bool deleted, List *subject_prefixes)
{
	if (subject_prefixes != NIL)
		return list_json(catalog_kek_names_of_dek_subjects(subject_prefixes, deleted));
	return list_json(catalog_kek_names(deleted));
}

/* GET /dek-registry/v1/keks/{name} */
char *
registry_kek_get(const char *name, bool deleted)
{
	CatalogKek	k;

	get_kek(name, deleted, &k);
	return kek_json(&k);
}

/* Do two KEKs have the same name, KMS key, kmsProps, doc and shared? (Confluent's isEquivalent) */
static bool
kek_equivalent(const CatalogKek *a, const CatalogKek *b)
{
	return strcmp(a->name, b->name) == 0 && strcmp(a->kms_type, b->kms_type) == 0 &&
		strcmp(a->kms_key_id, b->kms_key_id) == 0 &&
		strcmp(kms_props_sorted(a->kms_props), kms_props_sorted(b->kms_props)) == 0 &&
		((a->doc == NULL && b->doc == NULL) ||
		 (a->doc != NULL && b->doc != NULL && strcmp(a->doc, b->doc) == 0)) &&
		a->shared == b->shared;
}

/*
 * POST /dek-registry/v1/keks: a new KEK (soft-deleted when the request
 * says so).  An existing one is 40971, unless the request is the same KEK
 * with the other deleted flag: then it takes the request's flag, so that
 * creating a soft-deleted KEK again undeletes it, as Confluent's create
 * does.
 */
char *
registry_kek_create(Jsonb *request)
{
	CatalogKek	k;
	CatalogKek	old;
	char	   *kms_type;

	check_request(request);
	memset(&k, 0, sizeof(k));
	k.name = member_string(request, "name");
	registry_check_kek_name(k.name);
	k.kms_key_id = member_string(request, "kmsKeyId");
	if (k.kms_key_id == NULL || k.kms_key_id[0] == '\0')
		key_invalid("kmsKeyId");
	kms_type = member_string(request, "kmsType");
	if (kms_type == NULL)
		key_invalid("kmsType");
	k.kms_type = normalize_kms_type(kms_type);
	k.kms_props = kms_props_json(request);
	k.doc = member_string(request, "doc");
	k.shared = member_bool(request, "shared", false);
	k.deleted = member_bool(request, "deleted", false);
	if (catalog_kek_get(k.name, true, &old))
	{
		if (old.deleted == k.deleted || !kek_equivalent(&old, &k))
			key_exists(k.name);
		(void) catalog_kek_set_deleted(k.name, k.deleted);
	}
	else if (!catalog_kek_insert(&k))
		key_exists(k.name);		/* made meanwhile by another transaction */
	get_kek(k.name, true, &k);
	return kek_json(&k);
}

/* PUT /dek-registry/v1/keks/{name}: its kmsProps, doc and shared */
char *
registry_kek_update(const char *name, Jsonb *request)
{
	CatalogKek	k;
	CatalogKek	n;

	check_request(request);
	get_kek(name, false, &k);
	n = k;
	if (member(request, "kmsProps"))
		n.kms_props = kms_props_json(request);
	if (member(request, "doc"))
		n.doc = member_string(request, "doc");
	n.shared = member_bool(request, "shared", k.shared);
	if (strcmp(kms_props_sorted(n.kms_props), kms_props_sorted(k.kms_props)) == 0 &&
		((n.doc == NULL && k.doc == NULL) ||
		 (n.doc && k.doc && strcmp(n.doc, k.doc) == 0)) &&
		n.shared == k.shared)
		return kek_json(&k);
	catalog_kek_update(&n);
	get_kek(name, false, &k);
	return kek_json(&k);
}

/*
 * DELETE /dek-registry/v1/keks/{name}[?permanent=true]: soft, then hard;
 * the triggers refuse a KEK that DEKs still use (42272), and a hard delete
 * of one not soft-deleted first (40471)
 */
void
registry_kek_delete(const char *name, bool permanent)
{
	CatalogKek	k;

	get_kek(name, true, &k);
	if (permanent)
		(void) catalog_kek_delete(name);
	else
		(void) catalog_kek_set_deleted(name, true);
}

/* POST /dek-registry/v1/keks/{name}/undelete */
void
registry_kek_undelete(const char *name)
{
	CatalogKek	k;

	get_kek(name, true, &k);
	(void) catalog_kek_set_deleted(name, false);
}

/*
 * POST /dek-registry/v1/keks/{name}/test: a key wrapped and unwrapped
 * through the KEK's KMS; the KEK when that works, else 50070
 */
char *
registry_kek_test(const char *name)
{
	CatalogKek	k;
	int			len;
	int			wlen;
	int			ulen;
	char	   *raw;
	char	   *wrapped;
	char	   *error = NULL;

	get_kek(name, false, &k);
	raw = kms_new_dek(DEK_DEFAULT_ALGORITHM, &len);
	wrapped = kms_wrap(k.kms_type, k.kms_key_id, raw, len, &wlen, &error);
	if (wrapped == NULL ||
		kms_unwrap(k.kms_type, k.kms_key_id, wrapped, wlen, &ulen, &error) == NULL)
		dek_generation_failed(CW_DEK_GENERATION, name, error);
	return kek_json(&k);
}

/* --- DEKs ------------------------------------------------------------------- */

/* GET /dek-registry/v1/keks/{name}/deks */
char *
registry_dek_subjects(const char *kek_name, bool deleted)
{
	CatalogKek	k;

	get_kek(kek_name, deleted, &k);
	return list_json(catalog_dek_subjects(kek_name, deleted));
}

/* GET /dek-registry/v1/keks/{name}/deks/{subject}/versions */
char *
registry_dek_versions(const char *kek_name, const char *subject, const char *algorithm,
					  bool deleted)
{
	CatalogKek	k;

	registry_check_kek_name(kek_name);
	registry_check_dek_subject(subject);
	algorithm = algorithm_or_default(algorithm);
	get_kek(kek_name, deleted, &k);
	return list_json(catalog_dek_versions(kek_name, subject, algorithm, deleted));
}

/* The DEK of a KEK, subject, algorithm and version (or latest), else 40470 for the subject. */
static void
get_dek(const char *kek_name, const char *subject, const char *algorithm, int32 version,
		bool deleted, CatalogDek *out)
{
	if (!catalog_dek_get(kek_name, subject, algorithm, version, deleted, out))
		key_not_found(subject);
}

/*
 * The KEK and the DEK version a request names (version NULL: if_null),
 * soft-deleted ones too if deleted; the algorithm defaulted; 40470 when
 * either is missing.
 */
static void
resolve_dek(const char *kek_name, const char *subject, const char *version, int32 if_null,
			const char **algorithm, bool deleted, CatalogKek *k, CatalogDek *d)
{
	int32		v;

	registry_check_kek_name(kek_name);
	registry_check_dek_subject(subject);
	v = dek_version(version, if_null);
	*algorithm = algorithm_or_default(*algorithm);
	get_kek(kek_name, deleted, k);
	get_dek(kek_name, subject, *algorithm, v, deleted, d);
}

/*
 * GET /dek-registry/v1/keks/{name}/deks/{subject}[/versions/{version}]:
 * version NULL is the first
 */
char *
registry_dek_get(const char *kek_name, const char *subject, const char *version,
				 const char *algorithm, bool deleted)
{
	CatalogKek	k;
	CatalogDek	d;

	resolve_dek(kek_name, subject, version, DEK_MIN_VERSION, &algorithm, deleted, &k, &d);
	return dek_answer(&k, &d, true);
}

/*
 * POST /dek-registry/v1/keks/{name}/deks[/{subject}]: one version of a
 * DEK (the first unless the request names another; soft-deleted when the
 * request says so).  Under a shared KEK the server makes the key material
 * when the request has none.  An existing version is 40971, unless the
 * request gives the same key material (under a KEK that is not shared)
 * with the other deleted flag: then it takes the request's flag, as
 * Confluent's create does.  Of concurrent creators of the same version,
 * one creates it and the others get 40971.
 */
char *
registry_dek_create(const char *kek_name, const char *subject, Jsonb *request)
{
	CatalogKek	k;
	CatalogDek	d;
	CatalogDek	old;
	JsonbValue *v;
	char	   *raw = NULL;
	int			rawlen = 0;

	check_request(request);
	memset(&d, 0, sizeof(d));
	registry_check_kek_name(kek_name);
	d.kek_name = pstrdup(kek_name);
	d.subject = member_string(request, "subject");
	if (subject != NULL)
		d.subject = pstrdup(subject);
	registry_check_dek_subject(d.subject);
	d.deleted = member_bool(request, "deleted", false);
	get_kek(kek_name, d.deleted, &k);
	d.algorithm = (char *) algorithm_or_default(member_string(request, "algorithm"));
	d.version = DEK_MIN_VERSION;
	v = member(request, "version");
	if (v != NULL)
	{
		if (v->type != jbvNumeric)
			key_invalid("version");
		d.version = DatumGetInt32(DirectFunctionCall1(numeric_int4,
													  NumericGetDatum(v->val.numeric)));
		if (d.version < DEK_MIN_VERSION)
			key_invalid("version");
	}
	d.encrypted_key_material = member_string(request, "encryptedKeyMaterial");
	if (catalog_dek_get(kek_name, d.subject, d.algorithm, d.version, true, &old))
	{
		if (old.deleted == d.deleted || k.shared || d.encrypted_key_material == NULL ||
			strcmp(old.encrypted_key_material, d.encrypted_key_material) != 0)
			key_exists(d.subject);
		(void) catalog_dek_set_deleted(kek_name, d.subject, d.algorithm, d.version, d.deleted);
		get_dek(kek_name, d.subject, d.algorithm, d.version, true, &d);
		return dek_answer(&k, &d, false);
	}
	if (d.encrypted_key_material == NULL)
	{
		int			wlen;
		char	   *wrapped;
		char	   *error = NULL;

		if (!k.shared)
			key_invalid("encryptedKeyMaterial");
		raw = kms_new_dek(d.algorithm, &rawlen);
		wrapped = kms_wrap(k.kms_type, k.kms_key_id, raw, rawlen, &wlen, &error);
		if (wrapped == NULL)
			dek_generation_failed(CW_DEK_GENERATION, d.subject, error);
		d.encrypted_key_material = to_base64(wrapped, wlen);
	}
	if (!catalog_dek_insert(&d))
		key_exists(d.subject);
	get_dek(kek_name, d.subject, d.algorithm, d.version, true, &d);
	if (raw != NULL && key_material_permitted())
		return dek_json(&d, to_base64(raw, rawlen));
	/* material the client wrapped itself: shown if the server can unwrap it */
	return dek_answer(&k, &d, false);
}

/*
 * DELETE /dek-registry/v1/keks/{name}/deks/{subject}[/versions/{version}]
 * [?permanent=true]: all versions of the DEK (version NULL) or one; soft,
 * then hard (the trigger refuses a hard delete of a live one, 40471)
 */
void
registry_dek_delete(const char *kek_name, const char *subject, const char *version,
					const char *algorithm, bool permanent)
{
	CatalogKek	k;
	CatalogDek	d;
	int32		v;

	resolve_dek(kek_name, subject, version, CATALOG_DEK_LATEST, &algorithm, true, &k, &d);
	v = version == NULL ? 0 : d.version;
	if (permanent)
		(void) catalog_dek_delete(kek_name, subject, algorithm, v);
	else
		(void) catalog_dek_set_deleted(kek_name, subject, algorithm, v, true);
}

/*
 * POST /dek-registry/v1/keks/{name}/deks/{subject}[/versions/{version}]/undelete:
 * all versions (version NULL) or one; refused while the KEK is soft-deleted
 * (40472, by the trigger)
 */
void
registry_dek_undelete(const char *kek_name, const char *subject, const char *version,
					  const char *algorithm)
{
	CatalogKek	k;
	CatalogDek	d;

	resolve_dek(kek_name, subject, version, CATALOG_DEK_LATEST, &algorithm, true, &k, &d);
	if (k.deleted)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_KEY_SOFT_DELETED),
				 errmsg("key \"%s\" must be undeleted first", kek_name),
				 errdetail("%s", confluent_text(CW_KEY_SOFT_DELETED, kek_name))));
	(void) catalog_dek_set_deleted(kek_name, subject, algorithm,
								   version == NULL ? 0 : d.version, false);
}

/*
 * registry.dek_key_material(): the raw key material of a shared KEK's DEK
 * (Tink's serialized key), unwrapped through its KMS
 */
bytea *
registry_dek_key_material(const char *kek_name, const char *subject, const char *version,
						  const char *algorithm)
{
	CatalogKek	k;
	CatalogDek	d;
	int			len;
	char	   *raw;
	bytea	   *out;

	resolve_dek(kek_name, subject, version, DEK_MIN_VERSION, &algorithm, false, &k, &d);
	if (!k.shared)
		dek_generation_failed(CW_DEK_UNWRAP, subject, "the KEK is not shared");
	raw = unwrap_dek(&k, &d, true, &len);
	out = palloc(VARHDRSZ + len);
	SET_VARSIZE(out, VARHDRSZ + len);
	memcpy(VARDATA(out), raw, len);
	return out;
}
