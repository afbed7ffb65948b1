/*-------------------------------------------------------------------------
 *
 * metrics.h
 *	  GET /metrics: request counts and latencies of the REST API, counted
 *	  across every HTTP worker in shared memory, and the registry's
 *	  schema counts, in Prometheus' text format.
 *
 *-------------------------------------------------------------------------
 */
#ifndef METRICS_H
#define METRICS_H

#include "lib/stringinfo.h"

/* from _PG_init: the counters' shared memory, while shared_preload_libraries is processed */
extern void registry_init_metrics(void);

/*
 * Count one answered HTTP request: its route (rest_route_count() routes,
 * -1 when none matched), HTTP status and time taken.  Lock-free: a few
 * atomic additions.
 */
extern void registry_metrics_record(int route, int status, int64 elapsed_us);

/* The whole scrape, appended to out. */
extern void registry_metrics_render(StringInfo out);

#define METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

#endif							/* METRICS_H */
