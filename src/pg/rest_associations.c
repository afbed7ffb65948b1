/*-------------------------------------------------------------------------
 *
 * rest_associations.c
 *	  The REST routes of associations (Confluent 8.2+): each reads the
 *	  request's path, query and body and calls its operation in
 *	  association_service.c, as the SQL functions do.
 *
 * GET /associations/subjects/{subject}, GET
 * /associations/resources/{namespace}/{name} and GET, PUT and DELETE
 * /associations/resources/{id}, POST /associations, POST
 * /associations:batchGet and POST /associations:batchMutate.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/jsonb.h"

#include "association.h"
#include "confluent_messages.h"
#include "rest_internal.h"

/*
 * The filter of a read from the query: resourceType, associationType,
 * lifecycle, offset, limit.  A lifecycle that is neither STRONG nor WEAK
 * is Jersey's 404, as for any query parameter its enum cannot convert.
 */
static bool
read_filter(RestCall *c, AssociationFilter *f)
{
	memset(f, 0, sizeof(AssociationFilter));
	f->resource_type = rest_param(c, "resourceType");
	f->association_types = rest_param_list(c, "associationType");
	f->lifecycle = rest_param(c, "lifecycle");
	if (f->lifecycle != NULL && f->lifecycle[0] == '\0')
		f->lifecycle = NULL;
	if (f->lifecycle != NULL && strcmp(f->lifecycle, "STRONG") != 0 &&
		strcmp(f->lifecycle, "WEAK") != 0)
	{
		rest_error(c, 404, 404, confluent_text(CW_HTTP_NOT_FOUND));
		return false;
	}
	f->offset = rest_param_int(c, "offset", 0);
	if (f->offset < 0)
		f->offset = 0;
	f->limit = rest_param_int(c, "limit", -1);
	return true;
}

/* GET /associations/subjects/{subject} */
void
h_associations_by_subject(RestCall *c)
{
	AssociationFilter f;

	c->subject = c->seg[2];
	if (read_filter(c, &f))
		appendStringInfoString(&c->out, registry_associations_by_subject(c->seg[2], &f));
}

/* GET /associations/resources/{namespace}/{name} */
void
h_associations_by_resource_name(RestCall *c)
{
	AssociationFilter f;

	if (read_filter(c, &f))
		appendStringInfoString(&c->out,
							   registry_associations_by_resource_name(c->seg[3], c->seg[2], &f));
}

/* GET /associations/resources/{id} */
void
h_associations_by_resource_id(RestCall *c)
{
	AssociationFilter f;

	if (read_filter(c, &f))
		appendStringInfoString(&c->out, registry_associations_by_resource_id(c->seg[2], &f));
}

/* POST /associations: the AssociationCreateOrUpdateRequest's associations created */
void
h_associations_create(RestCall *c)
{
	Jsonb	   *jb = rest_body_object(c);

	if (jb == NULL)
		return;
	appendStringInfoString(&c->out,
						   registry_create_association(jb, NULL, rest_param(c, "context"),
													   rest_param_bool(c, "dryRun"), false));
}

/* PUT /associations/resources/{id}: created or updated */
void
h_associations_upsert(RestCall *c)
{
	Jsonb	   *jb = rest_body_object(c);

	if (jb == NULL)
		return;
	appendStringInfoString(&c->out,
						   registry_create_association(jb, c->seg[2], rest_param(c, "context"),
													   rest_param_bool(c, "dryRun"), true));
}

/* DELETE /associations/resources/{id}: 204, no body */
void
h_associations_delete(RestCall *c)
{
	registry_delete_associations(c->seg[2], rest_param(c, "resourceType"),
								 rest_param_list(c, "associationType"),
								 rest_param_bool(c, "cascadeLifecycle"),
								 rest_param_bool(c, "dryRun"));
	c->status = 204;
}

/* POST /associations:batchGet */
void
h_associations_batch_get(RestCall *c)
{
	Jsonb	   *jb = rest_body_object(c);

	if (jb == NULL)
		return;
	appendStringInfoString(&c->out,
						   registry_batch_get_associations(jb, rest_param_bool(c, "includeSchemas")));
}

/* POST /associations:batchMutate */
void
h_associations_batch_mutate(RestCall *c)
{
	Jsonb	   *jb = rest_body_object(c);

	if (jb == NULL)
		return;
	appendStringInfoString(&c->out,
						   registry_mutate_associations(jb, rest_param(c, "context"),
														rest_param_bool(c, "dryRun")));
}
