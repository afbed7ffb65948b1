/*-------------------------------------------------------------------------
 *
 * schema_service.c
 *	  Confluent's /schemas operations: one C function each, which the REST
 *	  routes call directly and the SQL functions wrap (schema_sql.c).  A
 *	  schema by id or by guid, the subject versions that use an id, the
 *	  highest id, and the listing of every version's schema.
 *
 * They read the catalog through its per-table files in the statement's
 * snapshot.  A subject named here is served as its alias
 * (registry_served_subject) where the SQL functions they replaced served
 * it so.  Subjects are ordered as the tables' indexes order them (the
 * database's collation), as the SQL functions' ORDER BY did.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_collation.h"
#include "commands/dbcommands.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/varlena.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/uuid.h"

#include "association.h"
#include "catalog.h"
#include "catalog_internal.h"
#include "registration.h"
#include "registry.h"
#include "schema_service.h"

/* Compare two texts as the database's collation orders them. */
static int
collate_cmp(const char *a, const char *b)
{
	return varstr_cmp(a, strlen(a), b, strlen(b), DEFAULT_COLLATION_OID);
}

/* 40403: no schema with the id (or guid) given. */
static void
schema_not_found(const char *id)
{
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
			 errmsg("schema %s not found", id)));
}

/* --- by id ------------------------------------------------------------------ */

/*
 * Of the versions of a context that use an id, the one Confluent's
 * GET /schemas/ids/{id}?subject= picks: subject's highest (subject NULL:
 * the first subject's highest); NULL when none.
 */
static CatalogVersionEntry *
pick_version(CatalogVersionEntry *uses, int n, const char *subject)
{
	CatalogVersionEntry *best = NULL;

	for (int i = 0; i < n; i++)
	{
		CatalogVersionEntry *e = &uses[i];
		int			cmp;

		if (subject != NULL && strcmp(e->subject, subject) != 0)
			continue;
		cmp = best == NULL ? -1 : collate_cmp(e->subject, best->subject);
		if (cmp < 0 || (cmp == 0 && e->version > best->version))
			best = e;
	}
	return best;
}

/*
 * An unqualified subject's highest version with the id in any context
 * (the first context by name that has one); NULL when none.
 */
static CatalogVersionEntry *
pick_version_any_context(int32 id, const char *subject)
{
	ListCell   *lc;

	foreach(lc, catalog_context_names(NULL))
	{
		int			n;
		CatalogVersionEntry *uses = catalog_versions_of_id(lfirst(lc), id, &n);
		CatalogVersionEntry *v = pick_version(uses, n, subject);

		if (v != NULL)
			return v;
	}
	return NULL;
}

/*
 * GET /schemas/ids/{id} and registry.schema_by_id(): the schema with the
 * id, in the default context else the first context that has it (subject
 * NULL); with a subject, in the subject's context (its alias followed)
 * with the version that uses it as Confluent picks it: the subject's
 * highest; for an unqualified subject, the subject's highest in any
 * context; for a context or an unqualified subject without one, the
 * context's first subject's highest.  40403 when there is none.
 */
void
registry_schema_by_id(int32 id, const char *subject, SchemaInfo *out)
{
	char	   *context;
	char	   *name;
	CatalogVersionEntry *v = NULL;
	const char *schema_context;

	memset(out, 0, sizeof(SchemaInfo));
	if (subject == NULL)
	{
		if (!catalog_schema_any_context(id, &out->schema))
			schema_not_found(psprintf("%d", id));
		out->registered_at = out->schema.created_at;
		return;
	}
	registry_split_subject_cstr(registry_served_subject(subject), &context, &name);
	if (name[0] != '\0')
	{
		int			n;
		CatalogVersionEntry *uses = catalog_versions_of_id(context, id, &n);

		v = pick_version(uses, n, name);
		if (v == NULL && strcmp(context, REGISTRY_DEFAULT_CONTEXT) == 0)
			v = pick_version_any_context(id, name);
	}
	if (v == NULL && (name[0] == '\0' || strcmp(context, REGISTRY_DEFAULT_CONTEXT) == 0))
	{
		int			n;
		CatalogVersionEntry *uses = catalog_versions_of_id(context, id, &n);

		v = pick_version(uses, n, NULL);
	}
	else if (v == NULL)
		schema_not_found(psprintf("%d", id));
	schema_context = v != NULL ? v->context : context;
	if (!catalog_get_schema(schema_context, id, &out->schema))
		schema_not_found(psprintf("%d", id));
	out->registered_at = out->schema.created_at;
	if (v != NULL)
	{
		out->subject = registry_qualify_subject(v->context, v->subject);
		out->version = v->version;
		out->deleted = v->deleted;
		out->registered_at = v->created_at;
	}
}

/* --- by guid ---------------------------------------------------------------- */

/*
 * GET /schemas/guids/{guid} and registry.schema_by_guid(): the schema with
 * the guid in the default context, else in the first context that has it;
 * 40403 when none.
 */
void
registry_schema_by_guid(const uint8 *guid, SchemaInfo *out)
{
	int			n;
	CatalogSchema *found = catalog_schemas_by_fingerprint(guid, &n);
	int			pick = 0;

	memset(out, 0, sizeof(SchemaInfo));
	if (n == 0)
	{
		pg_uuid_t	uuid;

		memcpy(uuid.data, guid, UUID_LEN);
		schema_not_found(DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(&uuid))));
	}
	for (int i = 0; i < n; i++)
		if (strcmp(found[i].context, REGISTRY_DEFAULT_CONTEXT) == 0)
			pick = i;
	out->schema = found[pick];
	out->registered_at = out->schema.created_at;
}

/*
 * GET /schemas/guids/{guid}/ids and registry.schema_ids_by_guid(): the
 * schema with the guid in each context that has it, in context order.
 */
CatalogSchema *
registry_schema_ids_by_guid(const uint8 *guid, int *n)
{
	return catalog_schemas_by_fingerprint(guid, n);
}

/* --- who uses an id --------------------------------------------------------- */

/* The page of the versions of an id, through catalog_scan_versions_of_id(). */
typedef struct IdUsers
{
	const char *context;
	bool		deleted;
	bool		subjects_only;
	int			offset;
	int			limit;
	int			index;			/* users listed so far, before paging */
	char	   *last;			/* subjects_only: the subject just listed */
	List	   *out;
	MemoryContext keep;
} IdUsers;

/* One version of the id: counted and, in the page, kept; false once it is full. */
static bool
visit_id_user(const CatalogVersionEntry *e, void *arg)
{
	IdUsers    *u = arg;
	MemoryContext old;
	CatalogSubjectVersion *sv;

	if (u->limit > 0 && u->index >= (int64) u->offset + u->limit)
		return false;
	if (e->deleted && !u->deleted)
		return true;
	if (u->subjects_only && u->last != NULL && strcmp(u->last, e->subject) == 0)
		return true;
	old = MemoryContextSwitchTo(u->keep);
	if (u->subjects_only)
	{
		if (u->last != NULL)
			pfree(u->last);
		u->last = pstrdup(e->subject);
	}
	if (u->index++ >= u->offset)
	{
		sv = palloc(sizeof(CatalogSubjectVersion));
		sv->subject = registry_qualify_subject(u->context, e->subject);
		sv->version = e->version;
		u->out = lappend(u->out, sv);
	}
	MemoryContextSwitchTo(old);
	return true;
}

/*
 * GET /schemas/ids/{id}/versions (and .../subjects) and
 * registry.schema_versions(): the subject versions of the subject's
 * context (its alias followed; the default context without one) that use
 * the id, live ones only unless deleted, in (subject, version) order, as
 * CatalogSubjectVersion -- with subjects_only, each subject once (its
 * first version) -- the page from offset, of at most limit (limit <= 0:
 * all); 40403 when the context has no such schema.  One scan of
 * subject_versions_schema_idx, in that order, that stops once the page is
 * full.
 */
List *
registry_schema_versions(int32 id, const char *subject, bool deleted, bool subjects_only,
						 int offset, int limit)
{
	char	   *context = REGISTRY_DEFAULT_CONTEXT;
	char	   *name;
	IdUsers		u;

	if (subject != NULL)
		registry_split_subject_cstr(registry_served_subject(subject), &context, &name);
	if (!catalog_get_schema(context, id, NULL))
		schema_not_found(psprintf("%d", id));
	memset(&u, 0, sizeof(u));
	u.context = context;
	u.deleted = deleted;
	u.subjects_only = subjects_only;
	u.offset = offset;
	u.limit = limit;
	u.keep = CurrentMemoryContext;
	catalog_scan_versions_of_id(context, id, visit_id_user, &u);
	return u.out;
}

/*
 * fetchMaxId of GET /schemas/ids/{id}: the highest schema id of the
 * subject's context (not its alias's; the default context for NULL);
 * false when the context has none.
 */
bool
registry_max_schema_id(const char *subject, int32 *max_id)
{
	char	   *context = REGISTRY_DEFAULT_CONTEXT;
	char	   *name;

	if (subject != NULL)
		registry_split_subject_cstr(subject, &context, &name);
	return catalog_max_schema_id(context, max_id);
}

/* --- the listing ------------------------------------------------------------ */

/* A subject that a config aliased and the listing shows. */
typedef struct AliasTarget
{
	char	   *target;			/* the subject served, qualified */
	StringInfoData names;		/* JSON array of the aliases, as jsonb writes
								 * it */
	bool		outside_prefix; /* listed although the prefix leaves it out */
} AliasTarget;

/* The state of one listing, through catalog_scan_versions(). */
typedef struct Listing
{
	const SchemaListing *q;
	List	   *targets;		/* of AliasTarget */
	bool		has_outside;	/* some target is outside the prefix */
	int			index;			/* rows listed so far, before paging */
	List	   *rows;			/* of CatalogSchemaRow, the page */
	MemoryContext keep;			/* where the page lives */
	MemoryContext pending_cxt;
	bool		has_pending;	/* latest_only: the subject's last row yet */
	CatalogVersionEntry pending;
	MemoryContext assoc_cxt;	/* by_association: the last subject asked */
	char	   *assoc_context;	/* about (NULL: none yet), whether it */
	char	   *assoc_subject;	/* passed, and its associations */
	bool		assoc_passes;
	char	   *assoc_json;
} Listing;

/* Does the qualified subject start with the listing's prefix? */
static bool
under_prefix(const SchemaListing *q, const char *qualified)
{
	return q->prefix == NULL || strcmp(q->prefix, ":*:") == 0 ||
		strncmp(qualified, q->prefix, strlen(q->prefix)) == 0;
}

/* The alias target that is this qualified subject, or NULL. */
static AliasTarget *
target_of(Listing *l, const char *qualified)
{
	ListCell   *lc;

	foreach(lc, l->targets)
	{
		AliasTarget *t = lfirst(lc);

		if (strcmp(t->target, qualified) == 0)
			return t;
	}
	return NULL;
}

/*
 * The subjects under the prefix whose config names an alias, grouped by
 * the subject they are served as, each group in (context, subject) order.
 */
static void
collect_alias_targets(Listing *l)
{
	int			n;
	CatalogAlias *aliases = catalog_subject_aliases(&n);

	for (int i = 0; i < n; i++)
	{
		char	   *qualified = registry_qualify_subject(aliases[i].context, aliases[i].subject);
		char	   *served;
		AliasTarget *t;

		if (!under_prefix(l->q, qualified))
			continue;
		served = registry_served_subject(qualified);
		t = target_of(l, served);
		if (t == NULL)
		{
			t = palloc0(sizeof(AliasTarget));
			t->target = served;
			initStringInfo(&t->names);
			appendStringInfoChar(&t->names, '[');
			t->outside_prefix = !under_prefix(l->q, served);
			l->has_outside |= t->outside_prefix;
			l->targets = lappend(l->targets, t);
		}
		else
			appendStringInfoString(&t->names, ", ");
		escape_json(&t->names, qualified);
	}
	for (ListCell *lc = list_head(l->targets); lc != NULL; lc = lnext(l->targets, lc))
		appendStringInfoChar(&((AliasTarget *) lfirst(lc))->names, ']');
}

/* Does a rule set (jsonb text) have a domain, migration or encoding rule of this type? */
static bool
has_rule_of_type(const char *rule_set, const char *type)
{
	static const char *const kinds[] = {"domainRules", "migrationRules", "encodingRules"};
	Jsonb	   *jb;

	if (rule_set == NULL)
		return false;
	jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(rule_set)));
	for (int k = 0; k < lengthof(kinds); k++)
	{
		JsonbValue	rules;
		JsonbValue *rule;

		if (getKeyJsonValueFromContainer(&jb->root, kinds[k], strlen(kinds[k]), &rules) == NULL ||
			rules.type != jbvBinary || !JsonContainerIsArray(rules.val.binary.data))
			continue;
		for (uint32 i = 0; (rule = getIthJsonbValueFromContainer(rules.val.binary.data, i)) != NULL; i++)
		{
			JsonbValue	t;

			if (rule->type == jbvBinary && JsonContainerIsObject(rule->val.binary.data) &&
				getKeyJsonValueFromContainer(rule->val.binary.data, "type", 4, &t) != NULL &&
				t.type == jbvString && t.val.string.len == strlen(type) &&
				memcmp(t.val.string.val, type, t.val.string.len) == 0)
				return true;
		}
	}
	return false;
}

/*
 * by_association: does the version's subject pass the association filter?
 * Asked once per subject (the scan gives a subject's versions together).
 */
static bool
subject_passes(Listing *l, const CatalogVersionEntry *e)
{
	const SchemaListing *q = l->q;
	AssociationFilter f;
	MemoryContext old;

	if (l->assoc_subject != NULL && strcmp(l->assoc_context, e->context) == 0 &&
		strcmp(l->assoc_subject, e->subject) == 0)
		return l->assoc_passes;
	MemoryContextReset(l->assoc_cxt);
	old = MemoryContextSwitchTo(l->assoc_cxt);
	memset(&f, 0, sizeof(f));
	f.resource_type = q->resource_type;
	f.association_types = q->association_types;
	l->assoc_context = pstrdup(e->context);
	l->assoc_subject = pstrdup(e->subject);
	l->assoc_passes = registry_subject_passes_associations(e->context, e->subject, &f,
														   q->lifecycles, &l->assoc_json);
	MemoryContextSwitchTo(old);
	return l->assoc_passes;
}

/*
 * List one version: counted, and kept when it falls in the page (its
 * schema read only then, or to test its rules); false once the page is
 * full.
 */
static bool
list_version(Listing *l, const CatalogVersionEntry *e, const char *qualified)
{
	const SchemaListing *q = l->q;
	CatalogSchema s;
	CatalogSchemaRow *row;
	AliasTarget *t;
	MemoryContext old;

	if (q->limit > 0 && l->index >= (int64) q->offset + q->limit)
		return false;
	/* (in the scan's memory of one row) */
	if (q->rule_type != NULL &&
		(!catalog_get_schema(e->context, e->schema_id, &s) ||
		 !has_rule_of_type(s.rule_set, q->rule_type)))
		return true;
	if (q->by_association && !subject_passes(l, e))
		return true;
	if (l->index++ < q->offset)
		return true;
	/* a row emitted lives in the scan's memory of one row */
	old = MemoryContextSwitchTo(q->emit ? CurrentMemoryContext : l->keep);
	if (!catalog_get_schema(e->context, e->schema_id, &s))
		elog(ERROR, "schema %d of context \"%s\" is missing", e->schema_id, e->context);
	row = palloc(sizeof(CatalogSchemaRow));
	registry_schema_row(row, qualified, e->version, e->deleted, &s, e->created_at);
	if (q->aliases && (t = target_of(l, qualified)) != NULL)
		row->aliases = t->names.data;
	if (q->by_association && strcmp(l->assoc_json, "[]") != 0)
		row->associations = pstrdup(l->assoc_json);
	if (q->emit)
		q->emit(row, q->emit_arg);
	else
		l->rows = lappend(l->rows, row);
	MemoryContextSwitchTo(old);
	return true;
}

/* latest_only: list the subject's last row held back, if any. */
static bool
flush_pending(Listing *l)
{
	char	   *qualified;

	if (!l->has_pending)
		return true;
	l->has_pending = false;
	qualified = registry_qualify_subject(l->pending.context, l->pending.subject);
	return list_version(l, &l->pending, qualified);
}

/* One subject version of the scan: listed, held back or passed over. */
static bool
visit_version(const CatalogVersionEntry *e, void *arg)
{
	Listing    *l = arg;
	const SchemaListing *q = l->q;
	char	   *qualified;
	MemoryContext old;

	if (e->deleted && !q->deleted)
		return true;
	qualified = registry_qualify_subject(e->context, e->subject);
	if (!under_prefix(q, qualified))
	{
		AliasTarget *t = l->has_outside ? target_of(l, qualified) : NULL;

		if (t == NULL || !t->outside_prefix)
			return true;
	}
	if (!q->latest_only)
		return list_version(l, e, qualified);
	if (l->has_pending && (strcmp(l->pending.context, e->context) != 0 ||
						   strcmp(l->pending.subject, e->subject) != 0) &&
		!flush_pending(l))
		return false;
	MemoryContextReset(l->pending_cxt);
	old = MemoryContextSwitchTo(l->pending_cxt);
	l->pending = *e;
	l->pending.context = pstrdup(e->context);
	l->pending.subject = pstrdup(e->subject);
	MemoryContextSwitchTo(old);
	l->has_pending = true;
	return true;
}

/*
 * How many rows of the listing a subject of the directory gives: its
 * versions of the kinds listed, or with latest_only one when it has one;
 * none outside the prefix.
 */
static int
directory_rows(const SchemaListing *q, const CatalogSubjectCount *c)
{
	int			rows = c->live + (q->deleted ? c->deleted : 0);

	if (rows == 0 || !registry_subject_has_prefix(c->context, c->subject, q->prefix))
		return 0;
	return q->latest_only ? 1 : rows;
}

/*
 * Start the listing where its page starts, by the subject directory: the
 * subject whose rows hold the offset into *from_context and *from_subject,
 * and l->index the rows of the subjects before it.  False when the
 * directory cannot say (then the scan starts at the beginning); *past_end
 * when the offset is past the listing's end.
 */
static bool
start_by_directory(Listing *l, char **from_context, char **from_subject, bool *past_end)
{
	const SchemaListing *q = l->q;
	int			n;
	const CatalogSubjectCount *dir;
	int64		before = 0;

	*past_end = false;

	/*
	 * rules are read from the schemas, associations from their table; aliases
	 * list subjects out of order
	 */
	if (q->rule_type != NULL || q->by_association || l->targets != NIL)
		return false;
	dir = catalog_subject_directory(q->offset >= CATALOG_DIRECTORY_WALK_MAX ?
									CATALOG_DIRECTORY_DEEP : CATALOG_DIRECTORY_IF_KEPT, &n);
	if (dir == NULL)
		return false;
	for (int i = 0; i < n; i++)
	{
		int			rows = directory_rows(q, &dir[i]);

		if (before + rows > q->offset)
		{
			/* copied: the directory lasts until its next use only */
			*from_context = pstrdup(dir[i].context);
			*from_subject = pstrdup(dir[i].subject);
			l->index = (int) before;
			return true;
		}
		before += rows;
	}
	*past_end = true;
	return true;
}

/*
 * GET /schemas, registry.list_schemas() and list_schemas_with_aliases():
 * the subject versions under the prefix with their schemas, in (context,
 * subject, version) order -- live ones, soft-deleted ones too when asked;
 * the latest of each subject with latest_only; with aliases, also the
 * versions of a subject outside the prefix that a subject under it names
 * as its alias, each with those subjects -- then those with a rule of
 * rule_type, then, by_association, those whose subject passes the
 * association filter (each with the subject's associations that do), then
 * the page asked for (a List of CatalogSchemaRow; with q->emit, each row
 * given to it as it is read, and NIL).
 *
 * The versions are read in one ordered scan of registry.subject_versions
 * that stops once the page is full, and a schema is read only for a row of
 * the page (or to test its rules).  The scan starts at the subject where
 * the page starts, which the subject directory (catalog_directory.c)
 * tells by counting whole subjects in memory; without it (rules or aliases
 * asked for, a directory that may not answer) the scan starts at the
 * beginning and the work is the page's plus the index entries before it.
 * A prefix of the default context (one that is not empty and does not
 * start with a colon) scans that context only.
 */
List *
registry_list_schemas(const SchemaListing *q)
{
	Listing		l;
	const char *context = NULL;
	char	   *from_context = NULL;
	char	   *from_subject = NULL;
	bool		past_end;

	memset(&l, 0, sizeof(l));
	l.q = q;
	l.keep = CurrentMemoryContext;
	if (q->aliases)
		collect_alias_targets(&l);
	if (q->prefix != NULL && q->prefix[0] != '\0' && q->prefix[0] != ':' && !l.has_outside)
		context = REGISTRY_DEFAULT_CONTEXT;
	if (start_by_directory(&l, &from_context, &from_subject, &past_end) && past_end)
		return NIL;
	l.pending_cxt = AllocSetContextCreate(CurrentMemoryContext, "registry listing",
										  ALLOCSET_SMALL_SIZES);
	l.assoc_cxt = AllocSetContextCreate(CurrentMemoryContext, "registry listing associations",
										ALLOCSET_SMALL_SIZES);
	catalog_scan_versions_from(context, from_context, from_subject, visit_version, &l);
	(void) flush_pending(&l);
	MemoryContextDelete(l.pending_cxt);
	MemoryContextDelete(l.assoc_cxt);
	return l.rows;
}

/* --- answers ------------------------------------------------------------------ */

/* A SchemaInfo as the REST routes write it: guid and ts as Confluent's. */
void
registry_schema_info_row(const SchemaInfo *info, CatalogSchemaRow *out)
{
	registry_schema_row(out, info->subject, info->version, info->deleted, &info->schema,
						info->registered_at);
	out->context = info->schema.context;
}

/* GET /v1/metadata/id: the cluster's id, the database's name. */
char *
registry_cluster_id(void)
{
	return get_database_name(MyDatabaseId);
}
