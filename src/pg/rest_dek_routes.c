/*-------------------------------------------------------------------------
 *
 * rest_dek_routes.c
 *	  The routes of Confluent's DEK registry, /dek-registry/v1/keks/...:
 *	  each reads the path and query and calls dek_service.c, which answers
 *	  Confluent's JSON or raises its errors (rest.c turns them into error
 *	  bodies).  The route table is rest_routes.c's.
 *
 *	  Path segments: dek-registry / v1 / keks / {name} / deks / {subject} /
 *	  versions / {version}.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "dek_service.h"
#include "rest_internal.h"

#define SEG_NAME 3
#define SEG_SUBJECT 5
#define SEG_VERSION 7

/* A delete or undelete: Confluent's 204 without a body. */
static void
no_content(RestCall *c)
{
	c->status = 204;
	resetStringInfo(&c->out);
}

/* GET /dek-registry/v1/keks (subjectPrefix repeated) */
void
rest_keks_list(RestCall *c)
{
	appendStringInfoString(&c->out, registry_kek_list(rest_param_bool(c, "deleted"),
													  rest_param_list(c, "subjectPrefix")));
}

/* POST /dek-registry/v1/keks */
void
rest_kek_create(RestCall *c)
{
	Jsonb	   *jb = rest_body_object(c);

	if (jb != NULL)
		appendStringInfoString(&c->out, registry_kek_create(jb));
}

/* GET /dek-registry/v1/keks/{name} */
void
rest_kek_get(RestCall *c)
{
	appendStringInfoString(&c->out, registry_kek_get(c->seg[SEG_NAME],
													 rest_param_bool(c, "deleted")));
}

/* PUT /dek-registry/v1/keks/{name} */
void
rest_kek_update(RestCall *c)
{
	Jsonb	   *jb = rest_body_object(c);

	if (jb != NULL)
		appendStringInfoString(&c->out, registry_kek_update(c->seg[SEG_NAME], jb));
}

/* DELETE /dek-registry/v1/keks/{name} */
void
rest_kek_delete(RestCall *c)
{
	registry_kek_delete(c->seg[SEG_NAME], rest_param_bool(c, "permanent"));
	no_content(c);
}

/* POST /dek-registry/v1/keks/{name}/undelete */
void
rest_kek_undelete(RestCall *c)
{
	registry_kek_undelete(c->seg[SEG_NAME]);
	no_content(c);
}

/* POST /dek-registry/v1/keks/{name}/test */
void
rest_kek_test(RestCall *c)
{
	appendStringInfoString(&c->out, registry_kek_test(c->seg[SEG_NAME]));
}

/* GET /dek-registry/v1/keks/{name}/deks */
void
rest_deks_list(RestCall *c)
{
	appendStringInfoString(&c->out, registry_dek_subjects(c->seg[SEG_NAME],
														  rest_param_bool(c, "deleted")));
}

/* POST /dek-registry/v1/keks/{name}/deks[/{subject}] */
void
rest_dek_create(RestCall *c)
{
	Jsonb	   *jb = rest_body_object(c);

	if (jb != NULL)
		appendStringInfoString(&c->out,
							   registry_dek_create(c->seg[SEG_NAME],
												   c->nseg > SEG_SUBJECT ? c->seg[SEG_SUBJECT] : NULL,
												   jb));
}

/* GET /dek-registry/v1/keks/{name}/deks/{subject}[/versions/{version}] */
void
rest_dek_get(RestCall *c)
{
	appendStringInfoString(&c->out,
						   registry_dek_get(c->seg[SEG_NAME], c->seg[SEG_SUBJECT],
											c->nseg > SEG_VERSION ? c->seg[SEG_VERSION] : NULL,
											rest_param(c, "algorithm"),
											rest_param_bool(c, "deleted")));
}

/* GET /dek-registry/v1/keks/{name}/deks/{subject}/versions */
void
rest_dek_versions(RestCall *c)
{
	appendStringInfoString(&c->out,
						   registry_dek_versions(c->seg[SEG_NAME], c->seg[SEG_SUBJECT],
												 rest_param(c, "algorithm"),
												 rest_param_bool(c, "deleted")));
}

/* DELETE /dek-registry/v1/keks/{name}/deks/{subject}[/versions/{version}] */
void
rest_dek_delete(RestCall *c)
{
	registry_dek_delete(c->seg[SEG_NAME], c->seg[SEG_SUBJECT],
						c->nseg > SEG_VERSION ? c->seg[SEG_VERSION] : NULL,
						rest_param(c, "algorithm"), rest_param_bool(c, "permanent"));
	no_content(c);
}

/* POST /dek-registry/v1/keks/{name}/deks/{subject}[/versions/{version}]/undelete */
void
rest_dek_undelete(RestCall *c)
{
	registry_dek_undelete(c->seg[SEG_NAME], c->seg[SEG_SUBJECT],
						  c->nseg > SEG_VERSION + 1 ? c->seg[SEG_VERSION] : NULL,
						  rest_param(c, "algorithm"));
	no_content(c);
}
