/*-------------------------------------------------------------------------
 *
 * read_service.c
 *	  Confluent's read operations: one C function each, which the REST
 *	  routes call directly and the SQL functions wrap (read_sql.c).
 *
 * A read names a subject as the client spells it; it is served as its
 * alias (registry_served_subject) and read through the catalog module's
 * scans in the statement's snapshot.  Errors name the subject as named.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <string.h>

#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"

#include "catalog.h"
#include "catalog_internal.h"
#include "read_service.h"
#include "registration.h"
#include "registry.h"

/*
 * GET /subjects/{s}/versions: the subject's version numbers in ascending
 * order, the live ones (deleted: also the soft-deleted ones; deleted_only:
 * only those); as_negative gives the soft-deleted ones as negative numbers
 * (Confluent 8.2's deletedAsNegative); the page from offset, of at most
 * limit numbers (limit <= 0: all).  A subject with none is 40401 unless
 * deleted_only or missing_ok; one whose numbers all come before the
 * offset answers an empty page.
 */
List *
registry_versions(const char *named, bool deleted, bool deleted_only, bool missing_ok,
				  bool as_negative, int offset, int limit)
{
	char	   *context;
	char	   *subject;
	List	   *versions;
	bool		any;

	registry_split_subject_cstr(registry_served_subject(named), &context, &subject);
	versions = catalog_version_numbers(context, subject, deleted, deleted_only,
									   as_negative, offset, limit, &any);
	if (!any && !deleted_only && !missing_ok)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_SUBJECT_NOT_FOUND),
				 errmsg("subject \"%s\" not found", named)));
	return versions;
}

/* Is a subject with these versions listed, as GET /subjects' filters ask? */
static bool
subject_listed(int live, int soft_deleted, bool deleted, bool deleted_only)
{
	if (deleted_only)
		return soft_deleted > 0 && live == 0;
	if (deleted)
		return live > 0 || soft_deleted > 0;
	return live > 0;
}

/* The state of GET /subjects read by a scan of the versions. */
typedef struct SubjectsScan
{
	const char *prefix;
	bool		deleted;
	bool		deleted_only;
	int			offset;
	int			limit;
	int			index;			/* subjects listed so far, before paging */
	RegistryNameEmitter emit;
	void	   *emit_arg;
	MemoryContext keep;
	char	   *context;		/* the subject being read, in keep */
	char	   *subject;
	int			live;
	int			soft_deleted;
} SubjectsScan;

/* Give emit a subject's qualified name, which goes after. */
static void
emit_subject(const char *context, const char *subject, RegistryNameEmitter emit, void *arg)
{
	char	   *qualified = registry_qualify_subject(context, subject);

	emit(qualified, arg);
	pfree(qualified);
}

/*
 * The subject just read: counted and, in the page, emitted; false once
 * the page is full.
 */
static bool
subjects_scan_flush(SubjectsScan *ss)
{
	if (ss->limit > 0 && ss->index >= (int64) ss->offset + ss->limit)
		return false;
	if (ss->subject == NULL ||
		!subject_listed(ss->live, ss->soft_deleted, ss->deleted, ss->deleted_only) ||
		!registry_subject_has_prefix(ss->context, ss->subject, ss->prefix))
		return true;
	if (ss->index++ >= ss->offset)
		emit_subject(ss->context, ss->subject, ss->emit, ss->emit_arg);
	return ss->limit <= 0 || ss->index < (int64) ss->offset + ss->limit;
}

/* One version of the scan: its subject's counts, or the next subject. */
static bool
subjects_scan_visit(const CatalogVersionEntry *e, void *arg)
{
	SubjectsScan *ss = arg;

	if (ss->subject == NULL || strcmp(ss->subject, e->subject) != 0 ||
		strcmp(ss->context, e->context) != 0)
	{
		if (!subjects_scan_flush(ss))
			return false;
		if (ss->subject != NULL)
		{
			pfree(ss->context);
			pfree(ss->subject);
		}
		ss->context = MemoryContextStrdup(ss->keep, e->context);
		ss->subject = MemoryContextStrdup(ss->keep, e->subject);
		ss->live = 0;
		ss->soft_deleted = 0;
	}
	if (e->deleted)
		ss->soft_deleted++;
	else
		ss->live++;
	return true;
}

/*
 * GET /subjects: the subjects (context-qualified) that have live versions
 * (deleted: any version; deleted_only: soft-deleted ones and no live one),
 * in (context, subject) order; with a prefix (NULL or ":*:" for all),
 * only those that start with it; the page from offset, of at most limit
 * subjects (limit <= 0: all), each given to emit as it is found (its
 * memory goes after).
 *
 * The subject directory (catalog_directory.c) answers in memory when it
 * may; a deep page or a whole listing has it built.  Else one ordered scan
 * of the versions counts each subject's kinds and stops once the page is
 * full.
 */
void
registry_subjects_each(const char *prefix, bool deleted, bool deleted_only, int offset,
					   int limit, RegistryNameEmitter emit, void *arg)
{
	int			n;
	const CatalogSubjectCount *dir;
	SubjectsScan ss;

	dir = catalog_subject_directory(limit <= 0 ? CATALOG_DIRECTORY_WHOLE :
									(int64) offset + limit > CATALOG_DIRECTORY_WALK_MAX ?
									CATALOG_DIRECTORY_DEEP : CATALOG_DIRECTORY_IF_KEPT, &n);
	if (dir != NULL)
	{
		int			index = 0;

		/* (emit must not read the catalog: the directory lasts until then) */
		for (int i = 0; i < n && (limit <= 0 || index < (int64) offset + limit); i++)
		{
			if (!subject_listed(dir[i].live, dir[i].deleted, deleted, deleted_only) ||
				!registry_subject_has_prefix(dir[i].context, dir[i].subject, prefix))
				continue;
			if (index++ >= offset)
				emit_subject(dir[i].context, dir[i].subject, emit, arg);
		}
		return;
	}
	memset(&ss, 0, sizeof(ss));
	ss.prefix = prefix;
	ss.deleted = deleted;
	ss.deleted_only = deleted_only;
	ss.offset = offset;
	ss.limit = limit;
	ss.emit = emit;
	ss.emit_arg = arg;
	ss.keep = CurrentMemoryContext;
	catalog_scan_versions(NULL, subjects_scan_visit, &ss);
	(void) subjects_scan_flush(&ss);
}

/* names kept in a List, in the memory of the caller that asked for them */
typedef struct KeptNames
{
	List	   *names;
	MemoryContext cxt;
} KeptNames;

/* A subject name kept (registry_subjects). */
static void
keep_name(const char *name, void *arg)
{
	KeptNames  *kept = arg;
	MemoryContext old = MemoryContextSwitchTo(kept->cxt);

	kept->names = lappend(kept->names, pstrdup(name));
	MemoryContextSwitchTo(old);
}

/* GET /subjects as a List of names (registry_subjects_each()). */
List *
registry_subjects(const char *prefix, bool deleted, bool deleted_only, int offset, int limit)
{
	KeptNames	kept = {NIL, CurrentMemoryContext};

	registry_subjects_each(prefix, deleted, deleted_only, offset, limit, keep_name, &kept);
	return kept.names;
}

/*
 * GET /contexts: the contexts, the default context first, then in order;
 * never ".__GLOBAL" (it holds config and mode only).  With a prefix
 * (contextPrefix, Confluent 8.2; NULL for all), only the contexts whose
 * name starts with it, with or without the name's leading dot.
 */
List *
registry_contexts(const char *prefix)
{
	List	   *names = catalog_context_names(NULL);
	List	   *out = NIL;
	bool		has_default = false;
	ListCell   *lc;

	foreach(lc, names)
	{
		char	   *name = lfirst(lc);

		if (prefix != NULL && prefix[0] != '\0' &&
			strncmp(name, prefix, strlen(prefix)) != 0 &&
			strncmp(name + 1, prefix, strlen(prefix)) != 0)
			continue;
		if (strcmp(name, REGISTRY_DEFAULT_CONTEXT) == 0)
			has_default = true;
		else if (strcmp(name, REGISTRY_GLOBAL_CONTEXT) != 0)
			out = lappend(out, name);
	}
	if (has_default)
		out = lcons(pstrdup(REGISTRY_DEFAULT_CONTEXT), out);
	return out;
}

/*
 * GET /subjects/{s}/versions/{v}/referencedby: the ids of the schemas that
 * reference the version named ("latest" or N, soft-deleted ones too), in
 * ascending order.
 */
List *
registry_referenced_by(const char *named, const char *version_arg)
{
	char	   *context;
	char	   *subject;
	CatalogVersion v;

	registry_split_subject_cstr(registry_served_subject(named), &context, &subject);
	registry_requested_version(context, subject, named, version_arg, true, &v, NULL);
	return catalog_referencing_ids(context, subject, v.version);
}

/* Does a schema's metadata (jsonb text) have every property of properties? */
static bool
has_properties(const char *metadata, Jsonb *properties)
{
	Jsonb	   *have = NULL;

	if (metadata != NULL)
	{
		Jsonb	   *jb = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(metadata)));
		JsonbValue	v;

		if (JsonContainerIsObject(&jb->root) &&
			getKeyJsonValueFromContainer(&jb->root, "properties", 10, &v) != NULL)
			have = JsonbValueToJsonb(&v);
	}
	if (have == NULL)
		have = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum("{}")));
	return DatumGetBool(DirectFunctionCall2(jsonb_contains, JsonbPGetDatum(have),
											JsonbPGetDatum(properties)));
}

/*
 * GET /subjects/{s}/metadata: the subject's latest version (soft-deleted
 * ones too when deleted) whose metadata properties hold every key and
 * value of properties (jsonb containment), with its guid and registration
 * time; 40401 for a subject without versions, 40403 when none has them.
 */
void
registry_latest_with_metadata(const char *named, Jsonb *properties, bool deleted,
							  CatalogSchemaRow *out)
{
	char	   *context;
	char	   *subject;
	CatalogVersion latest;
	int			n;
	CatalogVersion *versions;

	registry_split_subject_cstr(registry_served_subject(named), &context, &subject);
	/* the subject must exist (40401), as for every version lookup */
	registry_requested_version(context, subject, named, "latest", deleted, &latest, NULL);
	versions = catalog_versions(context, subject, deleted, &n);
	for (int i = n - 1; i >= 0; i--)
	{
		CatalogSchema s;
		CatalogVersion v;
		TimestampTz created_at;

		/* NULL properties are held by no version, as SQL's @> NULL */
		if (properties == NULL ||
			!catalog_get_schema(context, versions[i].schema_id, &s) ||
			!has_properties(s.metadata, properties) ||
			!catalog_read_version(context, subject, versions[i].version, true, &v, &created_at))
			continue;
		registry_schema_row(out, registry_qualify_subject(context, subject),
							versions[i].version, versions[i].deleted, &s, created_at);
		return;
	}
	ereport(ERROR,
			(errcode(ERRCODE_REGISTRY_SCHEMA_NOT_FOUND),
			 errmsg("no version of subject \"%s\" has that metadata", named)));
}
