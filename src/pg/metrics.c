/*-------------------------------------------------------------------------
 *
 * metrics.c
 *	  The counters behind GET /metrics and their Prometheus rendering.
 *
 * Every HTTP worker adds to one table in shared memory: per route, the
 * answered requests by status class and a latency histogram.  Confluent's
 * own metric names (kafka.schema.registry MBeans as a JMX exporter names
 * them: kafka_schema_registry_api_success_count, ..._registered_count,
 * ...) come first, so dashboards built for Confluent keep working; the
 * schema counts are read from the registry's tables at scrape time, so
 * they agree on every worker and survive restarts.  Without preloading
 * there is no shared memory: the request counters read zero.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "miscadmin.h"
#include "port/atomics.h"
#include "storage/ipc.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"

#include "catalog.h"
#include "metrics.h"
#include "shared_memory.h"
#include "rest_internal.h"

/* upper bounds of the latency buckets, in microseconds (the last is +Inf) */
static const int64 bucket_bounds_us[] = {
	1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000,
	1000000, 2500000, 5000000, 10000000
};

#define N_BUCKETS (lengthof(bucket_bounds_us) + 1)
#define N_STATUS_CLASSES 5		/* 1xx .. 5xx */

/* one route's counters */
typedef struct RouteCounters
{
	pg_atomic_uint64 by_class[N_STATUS_CLASSES];
	pg_atomic_uint64 buckets[N_BUCKETS];
	pg_atomic_uint64 sum_us;
} RouteCounters;

/* the shared table: one entry per route, and a last one for unrouted requests */
typedef struct MetricsShared
{
	int			n_routes;
	RouteCounters routes[FLEXIBLE_ARRAY_MEMBER];
} MetricsShared;

static MetricsShared *metrics = NULL;

/* the size of the shared table, for rest_route_count() routes */
static Size
metrics_size(void)
{
	return add_size(offsetof(MetricsShared, routes),
					mul_size(rest_route_count() + 1, sizeof(RouteCounters)));
}

/* Make the table, every counter at zero. */
static void
metrics_init(void *mem)
{
	MetricsShared *m = mem;

	m->n_routes = rest_route_count();
	for (int r = 0; r <= m->n_routes; r++)
	{
		RouteCounters *rc = &m->routes[r];

		for (int i = 0; i < N_STATUS_CLASSES; i++)
			pg_atomic_init_u64(&rc->by_class[i], 0);
		for (int i = 0; i < (int) N_BUCKETS; i++)
			pg_atomic_init_u64(&rc->buckets[i], 0);
		pg_atomic_init_u64(&rc->sum_us, 0);
	}
}

/* The metrics subsystem's start: its shared memory, when preloaded. */
void
registry_init_metrics(void)
{
	RegistryShmem piece = {"registry metrics", metrics_size, metrics_init, NULL, NULL, 0,
	(void **) &metrics};

	registry_shmem_add(&piece);
}

/* See metrics.h */
void
registry_metrics_record(int route, int status, int64 elapsed_us)
{
	RouteCounters *rc;
	int			cls = status / 100 - 1;
	int			b = 0;

	if (metrics == NULL)
		return;
	if (route < 0 || route >= metrics->n_routes)
		route = metrics->n_routes;
	rc = &metrics->routes[route];
	if (cls < 0 || cls >= N_STATUS_CLASSES)
		cls = N_STATUS_CLASSES - 1;
	if (elapsed_us < 0)
		elapsed_us = 0;
	while (b < (int) lengthof(bucket_bounds_us) && elapsed_us > bucket_bounds_us[b])
		b++;
	pg_atomic_fetch_add_u64(&rc->by_class[cls], 1);
	pg_atomic_fetch_add_u64(&rc->buckets[b], 1);
	pg_atomic_fetch_add_u64(&rc->sum_us, (uint64) elapsed_us);
}

/* a counter's value, 0 without shared memory */
static uint64
read_counter(pg_atomic_uint64 *c)
{
	return metrics ? pg_atomic_read_u64(c) : 0;
}

/* "# HELP" and "# TYPE" of a metric, then its one unlabelled sample */
static void
append_single(StringInfo out, const char *name, const char *type,
			  const char *help, uint64 value)
{
	appendStringInfo(out, "# HELP %s %s\n# TYPE %s %s\n%s " UINT64_FORMAT "\n",
					 name, help, name, type, name, value);
}

/* Requests answered below 400 (success) or not, over every route. */
static void
count_outcomes(uint64 *success, uint64 *failure)
{
	int			r;
	int			i;

	*success = *failure = 0;
	if (metrics == NULL)
		return;
	for (r = 0; r <= metrics->n_routes; r++)
		for (i = 0; i < N_STATUS_CLASSES; i++)
		{
			uint64		n = read_counter(&metrics->routes[r].by_class[i]);

			if (i < 3)
				*success += n;
			else
				*failure += n;
		}
}

/* Confluent's global metrics: API outcomes, role, nodes, schema counts. */
static void
append_confluent_metrics(StringInfo out)
{
	uint64		success;
	uint64		failure;
	CatalogTypeCount *counts;
	int			n;
	int			i;
	uint64		registered = 0;
	uint64		deleted = 0;

	count_outcomes(&success, &failure);
	append_single(out, "kafka_schema_registry_api_success_count", "counter",
				  "Number of successful API calls", success);
	append_single(out, "kafka_schema_registry_api_failure_count", "counter",
				  "Number of failed API calls", failure);
	append_single(out, "kafka_schema_registry_master_slave_role", "gauge",
				  "1.0 indicates the node is the primary, where registrations and config updates are served",
				  RecoveryInProgress() ? 0 : 1);
	append_single(out, "kafka_schema_registry_node_count", "gauge",
				  "Number of Schema Registry nodes in the cluster", 1);
	append_single(out, "kafka_schema_registry_custom_schema_provider_count", "gauge",
				  "Number of custom schema providers", 0);

	counts = catalog_schema_type_counts(&n);
	for (i = 0; i < n; i++)
	{
		registered += counts[i].versions;
		deleted += counts[i].deleted;
	}
	append_single(out, "kafka_schema_registry_registered_count", "gauge",
				  "Number of registered schemas", registered);
	append_single(out, "kafka_schema_registry_deleted_count", "gauge",
				  "Number of deleted schemas", deleted);
	for (i = 0; i < 3; i++)
	{
		static const char *const types[] = {"AVRO", "JSON", "PROTOBUF"};
		static const char *const names[] = {"avro", "json", "protobuf"};
		static const char *const pretty[] = {"Avro", "JSON", "Protobuf"};
		uint64		created = 0;
		uint64		gone = 0;
		int			j;
		char	   *name;
		char	   *help;

		for (j = 0; j < n; j++)
			if (strcmp(counts[j].schema_type, types[i]) == 0)
			{
				created = counts[j].versions;
				gone = counts[j].deleted;
			}
		name = psprintf("kafka_schema_registry_%s_schemas_created", names[i]);
		help = psprintf("Number of registered %s schemas", pretty[i]);
		append_single(out, name, "gauge", help, created);
		name = psprintf("kafka_schema_registry_%s_schemas_deleted", names[i]);
		help = psprintf("Number of deleted %s schemas", pretty[i]);
		append_single(out, name, "gauge", help, gone);
	}
}

/* the labels of route r: method and path pattern */
static void
append_route_labels(StringInfo out, int r)
{
	const char *method;
	const char *pattern;

	if (r < rest_route_count())
	{
		rest_route_at(r, &method, &pattern);
		appendStringInfo(out, "method=\"%s\",route=\"/%s\"", method, pattern);
	}
	else
		appendStringInfoString(out, "method=\"\",route=\"\"");
}

/* Per-route request counts by status class. */
static void
append_request_counts(StringInfo out)
{
	int			r;
	int			i;

	appendStringInfoString(out,
						   "# HELP registry_http_requests_total HTTP requests answered, by route and status class\n"
						   "# TYPE registry_http_requests_total counter\n");
	if (metrics == NULL)
		return;
	for (r = 0; r <= metrics->n_routes; r++)
		for (i = 0; i < N_STATUS_CLASSES; i++)
		{
			uint64		n = read_counter(&metrics->routes[r].by_class[i]);

			if (n == 0)
				continue;
			appendStringInfoString(out, "registry_http_requests_total{");
			append_route_labels(out, r);
			appendStringInfo(out, ",code=\"%dxx\"} " UINT64_FORMAT "\n", i + 1, n);
		}
}

/* Per-route latency histograms, for the routes that were called. */
static void
append_latency_histograms(StringInfo out)
{
	const char *name = "registry_http_request_duration_seconds";
	int			r;

	appendStringInfo(out,
					 "# HELP %s Time to answer an HTTP request, by route\n"
					 "# TYPE %s histogram\n", name, name);
	if (metrics == NULL)
		return;
	for (r = 0; r <= metrics->n_routes; r++)
	{
		RouteCounters *rc = &metrics->routes[r];
		uint64		cumulative = 0;
		int			b;

		for (b = 0; b < (int) N_BUCKETS; b++)
			cumulative += read_counter(&rc->buckets[b]);
		if (cumulative == 0)
			continue;
		cumulative = 0;
		for (b = 0; b < (int) N_BUCKETS; b++)
		{
			cumulative += read_counter(&rc->buckets[b]);
			appendStringInfo(out, "%s_bucket{", name);
			append_route_labels(out, r);
			if (b < (int) lengthof(bucket_bounds_us))
				appendStringInfo(out, ",le=\"%g\"} " UINT64_FORMAT "\n",
								 bucket_bounds_us[b] / 1e6, cumulative);
			else
				appendStringInfo(out, ",le=\"+Inf\"} " UINT64_FORMAT "\n", cumulative);
		}
		appendStringInfo(out, "%s_sum{", name);
		append_route_labels(out, r);
		appendStringInfo(out, "} %.6f\n", read_counter(&rc->sum_us) / 1e6);
		appendStringInfo(out, "%s_count{", name);
		append_route_labels(out, r);
		appendStringInfo(out, "} " UINT64_FORMAT "\n", cumulative);
	}
}

/* See metrics.h */
void
registry_metrics_render(StringInfo out)
{
	append_confluent_metrics(out);
	append_request_counts(out);
	append_latency_histograms(out);
}
