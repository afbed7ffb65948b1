/*-------------------------------------------------------------------------
 *
 * association_triggers.c
 *	  The rules of registry.associations, as its BEFORE INSERT OR UPDATE OR
 *	  DELETE trigger applies them to every write path: the association
 *	  operations (association_service.c) and a DBA's own DML.
 *
 * An association names a topic ("topic" is the one resource type), a key
 * or value association type and a STRONG or WEAK lifecycle; a WEAK one is
 * never frozen.  Its subject must have a live version.  A subject with a
 * STRONG association has no other, and a STRONG one is refused to a
 * subject that has any.  A resource's id names one resource (name and
 * namespace), and a resource name in a namespace has one association of
 * each type.  A frozen association is never changed, and an update never
 * moves an association to another subject or resource.  The subject's row
 * is locked first, as every writer of the subject does, so two writers of
 * associations of one subject take turns.  Times are the transaction's,
 * but for a row a restore brings back, which is kept as it was.
 *
 * Every write, a delete too, needs the subject's scope writable (the mode
 * in force; a logical replication subscriber is read-only).  Refusing a
 * frozen association's delete without cascadeLifecycle is the delete
 * operation's rule (a raw DELETE is an administrator's, as a raw mode
 * write counts as forced).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "commands/trigger.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#include "association.h"
#include "catalog.h"
#include "confluent_messages.h"
#include "registry.h"
#include "trigger_row.h"

PG_FUNCTION_INFO_V1(registry_associations_before_write);

/* An association row's columns, as the trigger reads them. */
static void
row_association(HeapTuple tup, TupleDesc desc, CatalogAssociation *a)
{
	bool		isnull;

	memset(a, 0, sizeof(CatalogAssociation));
	a->resource_type = trigger_row_text(tup, desc, "resource_type");
	a->resource_id = trigger_row_text(tup, desc, "resource_id");
	a->association_type = trigger_row_text(tup, desc, "association_type");
	a->resource_name = trigger_row_text(tup, desc, "resource_name");
	a->resource_namespace = trigger_row_text(tup, desc, "resource_namespace");
	a->context = trigger_row_text(tup, desc, "context");
	a->subject = trigger_row_text(tup, desc, "subject");
	a->lifecycle = trigger_row_text(tup, desc, "lifecycle");
	a->frozen = DatumGetBool(trigger_row_value(tup, desc, "frozen", &isnull)) && !isnull;
}

/* Is the row's key (type, id, association type) that of a? */
static bool
same_key(const CatalogAssociation *a, const CatalogAssociation *b)
{
	return strcmp(a->resource_type, b->resource_type) == 0 &&
		strcmp(a->resource_id, b->resource_id) == 0 &&
		strcmp(a->association_type, b->association_type) == 0;
}

/* The values every association must have, whoever writes it. */
static void
check_values(const CatalogAssociation *a)
{
	if (a->resource_type == NULL || strcmp(a->resource_type, "topic") != 0)
		association_invalid("resourceType", "must be 'topic'");
	if (a->association_type == NULL ||
		(strcmp(a->association_type, "key") != 0 && strcmp(a->association_type, "value") != 0))
		association_invalid("associationType", "must be either 'key' or 'value'");
	if (a->lifecycle == NULL ||
		(strcmp(a->lifecycle, "STRONG") != 0 && strcmp(a->lifecycle, "WEAK") != 0))
		association_invalid("lifecycle", "must be either 'STRONG' or 'WEAK'");
	association_check_name(a->resource_id, "resourceId");
	association_check_name(a->resource_name, "resourceName");
	association_check_name(a->resource_namespace, "resourceNamespace");
	if (a->context == NULL || a->subject == NULL || a->subject[0] == '\0')
		association_invalid("subject", "cannot be null or empty");
	if (a->frozen && strcmp(a->lifecycle, "WEAK") == 0)
		association_invalid("frozen", "association with lifecycle of WEAK cannot be frozen");
}

/*
 * The subject's other associations: none when this one is STRONG, none
 * STRONG otherwise.
 */
static void
check_subject_exclusive(const CatalogAssociation *a, const char *qualified)
{
	int			n;
	CatalogAssociation *others = catalog_associations_by_subject(a->context, a->subject, &n);

	for (int i = 0; i < n; i++)
	{
		if (same_key(&others[i], a))
			continue;
		if (strcmp(a->lifecycle, "STRONG") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_REGISTRY_ASSOCIATION_FOR_SUBJECT),
					 errmsg("subject \"%s\" has an association already", qualified),
					 errdetail("%s", confluent_text(CW_ASSOCIATION_FOR_SUBJECT, qualified))));
		if (strcmp(others[i].lifecycle, "STRONG") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_REGISTRY_STRONG_ASSOCIATION),
					 errmsg("subject \"%s\" has a strong association already", qualified),
					 errdetail("%s", confluent_text(CW_STRONG_ASSOCIATION, qualified))));
	}
}

/*
 * One resource per id, and one association of each type per resource name
 * in a namespace.
 */
static void
check_resource(const CatalogAssociation *a)
{
	int			n;
	CatalogAssociation *same_id = catalog_associations_by_id(a->resource_type, a->resource_id, &n);
	CatalogAssociation *same_name;

	for (int i = 0; i < n; i++)
	{
		if (same_key(&same_id[i], a))
			association_exists(a->association_type, a->resource_id);
		if (strcmp(same_id[i].resource_name, a->resource_name) != 0 ||
			strcmp(same_id[i].resource_namespace, a->resource_namespace) != 0)
			association_invalid("resourceId",
								psprintf("resource '%s' is %s in namespace %s",
										 a->resource_id, same_id[i].resource_name,
										 same_id[i].resource_namespace));
	}
	same_name = catalog_associations_by_name(a->resource_name, a->resource_namespace, &n);
	for (int i = 0; i < n; i++)
		if (strcmp(same_name[i].resource_type, a->resource_type) == 0 &&
			strcmp(same_name[i].association_type, a->association_type) == 0 &&
			!same_key(&same_name[i], a))
			association_exists(a->association_type, a->resource_name);
}

/* An update changes only the lifecycle, and nothing of a frozen association. */
static void
check_update(const CatalogAssociation *old, const CatalogAssociation *a, const char *qualified)
{
	if (old->frozen)
		association_frozen(old->association_type, qualified);
	if (!same_key(old, a))
		association_invalid("resourceId", "an association's resource and type cannot be changed");
	if (strcmp(old->context, a->context) != 0 || strcmp(old->subject, a->subject) != 0)
		association_invalid("subject", "an association's subject cannot be changed");
	if (strcmp(old->resource_name, a->resource_name) != 0 ||
		strcmp(old->resource_namespace, a->resource_namespace) != 0)
		association_invalid("resourceName", "an association's resource cannot be changed");
	if (a->frozen)
		association_invalid("frozen", "an association cannot be frozen after it was created");
}

/* The new row with its times: created when first written, updated now. */
static HeapTuple
row_with_times(TriggerData *td, HeapTuple tup, TimestampTz created_at)
{
	TupleDesc	desc = td->tg_relation->rd_att;
	int			attnos[2];
	Datum		values[2];
	bool		nulls[2] = {false, false};

	attnos[0] = trigger_row_column(desc, "created_at");
	values[0] = TimestampTzGetDatum(created_at);
	attnos[1] = trigger_row_column(desc, "updated_at");
	values[1] = TimestampTzGetDatum(GetCurrentTransactionStartTimestamp());
	return heap_modify_tuple_by_cols(tup, desc, 2, attnos, values, nulls);
}

/*
 * BEFORE INSERT OR UPDATE OR DELETE ... FOR EACH ROW on
 * registry.associations: the rules above; the row gets its times.  Every
 * write, a delete too, needs the mode in force for the subject writable
 * (42205; a logical replication subscriber is read-only).
 */
Datum
registry_associations_before_write(PG_FUNCTION_ARGS)
{
	TriggerData *td = trigger_row_data(fcinfo, "associations_before_write");
	TupleDesc	desc = td->tg_relation->rd_att;
	bool		is_insert = TRIGGER_FIRED_BY_INSERT(td->tg_event);
	HeapTuple	tup = is_insert ? td->tg_trigtuple : td->tg_newtuple;
	CatalogAssociation a;
	CatalogAssociation old;
	char	   *qualified;
	bool		live;
	bool		deleted;
	TimestampTz created_at = GetCurrentTransactionStartTimestamp();

	if (!TRIGGER_FIRED_BEFORE(td->tg_event) || !TRIGGER_FIRED_FOR_ROW(td->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("associations_before_write: must be fired BEFORE ... FOR EACH ROW")));
	if (TRIGGER_FIRED_BY_DELETE(td->tg_event))
	{
		/* a delete needs the subject's scope writable, as any write of it */
		row_association(td->tg_trigtuple, desc, &old);
		registry_check_scope_writable(old.context, old.subject);
		return PointerGetDatum(td->tg_trigtuple);
	}
	if (is_insert && registry_trigger_row_restored(tup, desc, "created_at"))
		return PointerGetDatum(tup);

	row_association(tup, desc, &a);
	if (!is_insert)
	{
		bool		isnull;

		/* a frozen association refuses any change first */
		row_association(td->tg_trigtuple, desc, &old);
		check_update(&old, &a, registry_qualify_subject(old.context, old.subject));
		created_at = DatumGetTimestampTz(trigger_row_value(td->tg_trigtuple, desc,
														   "created_at", &isnull));
	}
	check_values(&a);
	qualified = registry_qualify_subject(a.context, a.subject);

	/*
	 * the subject's writers take turns; a subject without a row has no
	 * version
	 */
	live = false;
	if (catalog_lock_existing_subject(a.context, a.subject))
		catalog_subject_version_kinds(a.context, a.subject, &live, &deleted);
	registry_check_scope_writable(a.context, a.subject);
	if (!live)
		ereport(ERROR,
				(errcode(ERRCODE_REGISTRY_NO_ACTIVE_VERSION),
				 errmsg("subject \"%s\" has no live version", qualified),
				 errdetail("%s", confluent_text(CW_NO_ACTIVE_VERSION, qualified))));
	check_subject_exclusive(&a, qualified);
	if (is_insert)
		check_resource(&a);
	return PointerGetDatum(row_with_times(td, tup, created_at));
}
