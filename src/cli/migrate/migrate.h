/*-------------------------------------------------------------------------
 *
 * migrate.h
 *	  registry-migrate: copy a Confluent-compatible schema registry into
 *	  this one with its ids, or to and from a dump of Confluent's _schemas
 *	  topic.
 *
 * A run reads what the source holds into an inventory (read_rest.c or
 * dump_read.c), reads the target's the same way, plans the writes that
 * make the target hold the source's (plan.c) and makes them (apply.c).
 * The target's own answers are the only state: a second run plans what
 * the first did not finish, and a run over a finished copy plans nothing.
 *
 *-------------------------------------------------------------------------
 */
#ifndef MIGRATE_H
#define MIGRATE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* the largest answer read from a registry, and the longest dump line */
#define MIG_MAX_ANSWER (64 * 1024 * 1024)
#define MIG_MAX_LINE (64 * 1024 * 1024)
/* the most versions, configs, modes, KEKs and DEKs an inventory holds */
#define MIG_MAX_ITEMS 10000000

/* exit statuses */
#define MIG_EXIT_OK 0
#define MIG_EXIT_FAILED 1		/* refused input, a conflict, differences */
#define MIG_EXIT_TROUBLE 2		/* usage, unreachable, unreadable */
#define MIG_EXIT_STOPPED 3		/* --max-writes reached: run again */

/* one registry spoken to over its REST API */
typedef struct MigEndpoint
{
	const char *url;			/* base URL, no trailing slash */
	const char *userpwd;		/* basic auth "user:password", or NULL */
	const char *cafile;			/* CA bundle for TLS, or NULL */
	long		timeout;		/* seconds per request */
	void	   *curl;			/* the CURL handle, kept for keep-alive */
	long		requests;		/* requests made */
} MigEndpoint;

/*
 * What a registry holds, each item in the normalized form that is
 * compared: versions keyed "subject\x1fversion", configs and modes keyed
 * by scope ("" global, ":.ctx:" a context, else a subject), KEKs by name
 * and DEKs by "kek\x1fsubject\x1falgorithm\x1fversion".
 */
typedef struct MigInventory
{
	json_t	   *versions;		/* object: key -> version object */
	json_t	   *contexts;		/* object: context name -> true */
	json_t	   *config;			/* object: scope -> config (GET form) */
	json_t	   *mode;			/* object: scope -> mode string */
	json_t	   *keks;			/* object: name -> KEK */
	json_t	   *deks;			/* object: key -> DEK */
	bool		has_dek_registry;	/* the source answered /dek-registry */
	bool		global_config_read; /* "" in config is an answer, not a record */
} MigInventory;

/* options a run was given */
typedef struct MigOptions
{
	MigEndpoint from;
	MigEndpoint to;
	const char *from_dump;
	const char *to_dump;
	bool		dry_run;
	bool		verify;
	bool		json;
	bool		progress;
	long		max_writes;		/* 0: no limit */
} MigOptions;

/* progress and the summary of a run */
typedef struct MigReport
{
	bool		json;
	bool		tty;
	const char *phase;
	long		done;
	long		total;
	json_t	   *planned;		/* object: action kind -> count */
	json_t	   *written;		/* object: action kind -> count */
	json_t	   *errors;			/* array of {subject, version, message} */
	json_t	   *notes;			/* array of strings */
	json_t	   *plan;			/* array of the planned actions */
	long		compared;
	long		differences;
} MigReport;

/* http.c */
extern bool mig_http_init(MigEndpoint *ep, char *err, size_t errlen);
extern void mig_http_close(MigEndpoint *ep);
extern bool mig_http(MigEndpoint *ep, const char *method, const char *path,
					 json_t *body, long *status, json_t **answer,
					 char *err, size_t errlen);
extern char *mig_escape(const char *segment);
extern char *mig_printf(const char *fmt,...) __attribute__((format(printf, 1, 2)));
extern bool mig_is_not_found(long status, json_t *answer);

/* inventory.c */
extern MigInventory *mig_inventory_new(void);
extern void mig_inventory_free(MigInventory *inv);
extern char *mig_version_key(const char *subject, long version);
extern const char *mig_subject_context(const char *subject, char *buf, size_t buflen);
extern json_t *mig_version_normalize(json_t *answer, const char *subject,
									 long version, bool deleted,
									 char *err, size_t errlen);
extern json_t *mig_config_normalize(json_t *answer);
extern json_t *mig_config_body(json_t *config);
extern json_t *mig_sorted_keys(json_t *object);
extern bool mig_inventory_full(MigInventory *inv);

/* equivalent.c */
extern bool mig_schema_equivalent(MigInventory *inv, json_t *v, const char *text);
extern bool mig_same_version(MigInventory *inv, json_t *a, json_t *b);

/* read_rest.c */
extern json_t *mig_get(MigEndpoint *ep, const char *path, bool *missing,
					   char *err, size_t errlen);
extern bool mig_read_rest(MigEndpoint *ep, MigInventory *inv, MigReport *rep,
						  const char *role, char *err, size_t errlen);
extern bool mig_read_more_scopes(MigEndpoint *ep, MigInventory *inv, MigInventory *src,
								 char *err, size_t errlen);

/* dek_rest.c */
extern bool mig_read_deks(MigEndpoint *ep, MigInventory *inv, char *err, size_t errlen);
extern bool mig_dek_post_kek(MigEndpoint *ep, json_t *kek, char *err, size_t errlen);
extern bool mig_dek_post_dek(MigEndpoint *ep, json_t *dek, char *err, size_t errlen);
extern bool mig_dek_delete(MigEndpoint *ep, json_t *item, bool dek, char *err, size_t errlen);

/* dump_read.c, dump_write.c */
extern bool mig_read_dump(const char *path, MigInventory *inv, char *err, size_t errlen);
extern bool mig_write_dump(const char *path, MigInventory *inv, char *err, size_t errlen);

/* plan.c */
extern json_t *mig_plan(MigInventory *src, MigInventory *dst, MigReport *rep);

/* apply.c */
extern int	mig_apply(MigOptions *opt, json_t *plan, MigReport *rep);

/* verify.c */
extern void mig_verify(MigInventory *src, MigInventory *dst, MigReport *rep);

/* report.c */
extern MigReport *mig_report_new(bool json, bool progress);
extern void mig_progress(MigReport *rep, const char *phase, long done, long total);
extern void mig_progress_end(MigReport *rep);
extern void mig_count(json_t *counts, const char *kind);
extern void mig_error(MigReport *rep, const char *subject, long version, const char *fmt,...) __attribute__((format(printf, 4, 5)));
extern void mig_note(MigReport *rep, const char *fmt,...) __attribute__((format(printf, 2, 3)));
extern void mig_report_print(MigReport *rep, MigOptions *opt, int status);

#endif							/* MIGRATE_H */
