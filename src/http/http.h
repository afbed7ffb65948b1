/*-------------------------------------------------------------------------
 *
 * http.h
 *	  The REST API's HTTP workers: their GUCs and their registration
 *	  (http_init.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef REGISTRY_HTTP_H
#define REGISTRY_HTTP_H

extern int	registry_http_port;
extern char *registry_http_listen_addresses;
extern int	registry_http_workers;
extern int	registry_http_pool_workers;
extern char *registry_database;
extern int	registry_http_max_body_size;
extern int	registry_http_max_connections;
extern int	registry_http_max_body_memory;
extern int	registry_http_request_timeout;
extern int	registry_http_lock_wait;
extern int	registry_http_log_min_duration;
extern int	registry_http_statement_timeout;
extern char *registry_primary_conninfo;
extern int	registry_forward_timeout;
extern int	registry_forward_replay_wait;

/* registry.http_auth */
typedef enum HttpAuthMode
{
	HTTP_AUTH_NONE,				/* anonymous, as registry.http_anonymous_role */
	HTTP_AUTH_BASIC				/* HTTP Basic against PostgreSQL's roles */
}			HttpAuthMode;

extern int	registry_http_auth;
extern char *registry_http_anonymous_role;
extern bool registry_http_anonymous_remote;
extern char *registry_http_worker_role;

extern char *registry_http_tls_cert_file;
extern char *registry_http_tls_key_file;

/*
 * From _PG_init: define the registry.http_* GUCs and, while
 * shared_preload_libraries is processed, register the workers.
 */
extern void registry_http_init(void);

#endif							/* REGISTRY_HTTP_H */
