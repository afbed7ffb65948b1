/*-------------------------------------------------------------------------
 *
 * registry.c
 *	  Module entry: PG_MODULE_MAGIC and _PG_init, which hands each
 *	  subsystem its own start (its GUCs, hooks and workers are defined in
 *	  its own file).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/guc.h"

#include "audit.h"
#include "catalog.h"
#include "http.h"
#include "invalidation.h"
#include "kms.h"
#include "metrics.h"
#include "payload.h"
#include "registry.h"
#include "schemas.h"
#include "usage.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/* Load the module: every subsystem's settings, then the "registry" prefix is closed. */
void
_PG_init(void)
{
	/*
	 * The core's recursive routines stop cleanly where PostgreSQL's own
	 * parsers would raise "stack depth limit exceeded" (max_stack_depth).
	 */
	rg_stack_check_hook = stack_is_too_deep;
	registry_core_init();
	if (IsBinaryUpgrade)
		return;
	registry_init_settings();
	registry_init_id_fence();
	registry_init_schema_cache();
	registry_init_scope_cache();
	registry_init_invalidation();
	registry_init_metrics();
	registry_init_audit();
	registry_init_usage();
	registry_init_cloudevents();
	registry_init_kms();
	registry_http_init();
	MarkGUCPrefixReserved("registry");
}
