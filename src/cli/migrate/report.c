/*-------------------------------------------------------------------------
 *
 * report.c
 *	  What a run shows: a progress bar on a terminal (standard error), the
 *	  errors and notes as they come, and at the end a summary, in words or
 *	  (--json) as one JSON object on standard output.
 *
 *-------------------------------------------------------------------------
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "migrate.h"
#include "rg_json_text.h"

/* a new report; the bar only when asked for and standard error is a terminal */
MigReport *
mig_report_new(bool json, bool progress)
{
	MigReport  *rep = calloc(1, sizeof(MigReport));

	rep->json = json;
	rep->tty = progress && isatty(STDERR_FILENO);
	rep->planned = rg_json_new_object();
	rep->written = rg_json_new_object();
	rep->errors = json_array();
	rep->notes = json_array();
	return rep;
}

/* draw the progress bar of phase at done of total (at most every 1/100th) */
void
mig_progress(MigReport *rep, const char *phase, long done, long total)
{
	int			width = 30;
	int			filled;

	if (!rep->tty || total <= 0)
		return;
	if (rep->phase == phase && done != total && total > 100 &&
		(done * 100 / total) == (rep->done * 100 / total))
		return;
	rep->phase = phase;
	rep->done = done;
	rep->total = total;
	filled = (int) (done * width / total);
	fprintf(stderr, "\r%-20s [%.*s%*s] %ld/%ld", phase, filled,
			"##############################", width - filled, "", done, total);
	fflush(stderr);
}

/* end the bar's line */
void
mig_progress_end(MigReport *rep)
{
	if (rep->tty && rep->phase)
		fprintf(stderr, "\n");
	rep->phase = NULL;
}

/* add one to counts[kind] */
void
mig_count(json_t *counts, const char *kind)
{
	json_t	   *n = json_object_get(counts, kind);

	json_object_set_new(counts, kind, json_integer(n ? json_integer_value(n) + 1 : 1));
}

/* record (and print) an error about a subject and version (0: none) */
void
mig_error(MigReport *rep, const char *subject, long version, const char *fmt,...)
{
	va_list		ap;
	char		msg[4096];
	json_t	   *e = rg_json_new_object();

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	mig_progress_end(rep);
	if (subject)
		json_object_set_new(e, "subject", json_string(subject));
	if (version > 0)
		json_object_set_new(e, "version", json_integer(version));
	json_object_set_new(e, "message", json_string(msg));
	json_array_append_new(rep->errors, e);
	if (version > 0)
		fprintf(stderr, "registry-migrate: subject \"%s\" version %ld: %s\n", subject, version, msg);
	else if (subject)
		fprintf(stderr, "registry-migrate: \"%s\": %s\n", subject, msg);
	else
		fprintf(stderr, "registry-migrate: %s\n", msg);
}

/* record (and print) a note */
void
mig_note(MigReport *rep, const char *fmt,...)
{
	va_list		ap;
	char		msg[4096];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	mig_progress_end(rep);
	json_array_append_new(rep->notes, json_string(msg));
	fprintf(stderr, "registry-migrate: %s\n", msg);
}

/* one plan action as a line of words */
static void
mig_print_action(FILE *f, json_t *a)
{
	const char *op = json_string_value(json_object_get(a, "op"));
	json_t	   *item = json_object_get(a, "item");
	const char *scope = json_string_value(json_object_get(a, "scope"));

	if (strcmp(op, "register") == 0)
		fprintf(f, "register %s version %lld id %lld%s\n",
				json_string_value(json_object_get(a, "subject")),
				(long long) json_integer_value(json_object_get(a, "version")),
				(long long) json_integer_value(json_object_get(a, "id")),
				json_is_true(json_object_get(item, "deleted")) ? " (soft-deleted after)" : "");
	else if (strcmp(op, "soft-delete") == 0)
		fprintf(f, "soft-delete %s version %lld\n",
				json_string_value(json_object_get(a, "subject")),
				(long long) json_integer_value(json_object_get(a, "version")));
	else if (strcmp(op, "import") == 0)
		fprintf(f, "set mode %s IMPORT\n", scope);
	else if (strcmp(op, "mode") == 0)
		fprintf(f, "%s mode %s%s%s\n", json_is_null(json_object_get(a, "mode")) ? "remove" : "set",
				scope[0] ? scope : "(global)",
				json_is_string(json_object_get(a, "mode")) ? " " : "",
				json_string_value(json_object_get(a, "mode")) ? : "");
	else if (strcmp(op, "config") == 0)
	{
		char	   *c = json_dumps(json_object_get(a, "config"), JSON_COMPACT | JSON_SORT_KEYS);

		fprintf(f, "set config %s %s\n", scope[0] ? scope : "(global)", c);
		free(c);
	}
	else if (strcmp(op, "kek-delete") == 0)
		fprintf(f, "soft-delete KEK %s\n", json_string_value(json_object_get(item, "name")));
	else if (strcmp(op, "kek") == 0)
		fprintf(f, "create KEK %s\n", json_string_value(json_object_get(item, "name")));
	else if (strcmp(op, "dek") == 0 || strcmp(op, "dek-delete") == 0)
		fprintf(f, "%s DEK %s %s %s version %lld\n", op[3] ? "soft-delete" : "create",
				json_string_value(json_object_get(item, "kekName")),
				json_string_value(json_object_get(item, "subject")),
				json_string_value(json_object_get(item, "algorithm")),
				(long long) json_integer_value(json_object_get(item, "version")));
}

/* print the summary of a run that ends with status */
void
mig_report_print(MigReport *rep, MigOptions *opt, int status)
{
	mig_progress_end(rep);
	if (rep->json)
	{
		json_t	   *s = rg_json_new_object();
		char	   *text;
		json_t	   *plan = json_array();
		size_t		i;
		json_t	   *a;

		json_array_foreach(rep->plan, i, a)
		{
			json_t	   *c = json_deep_copy(a);

			json_object_del(c, "item");
			json_array_append_new(plan, c);
		}
		json_object_set_new(s, "status", json_string(status == MIG_EXIT_OK ? "ok" :
													 status == MIG_EXIT_STOPPED ? "stopped" : "failed"));
		json_object_set_new(s, "dry_run", json_boolean(opt->dry_run));
		json_object_set_new(s, "verify", json_boolean(opt->verify));
		json_object_set(s, "planned", rep->planned);
		json_object_set(s, "written", rep->written);
		if (opt->dry_run)
			json_object_set(s, "plan", plan);
		if (opt->verify)
		{
			json_object_set_new(s, "compared", json_integer(rep->compared));
			json_object_set_new(s, "differences", json_integer(rep->differences));
		}
		json_object_set(s, "errors", rep->errors);
		json_object_set(s, "notes", rep->notes);
		text = json_dumps(s, JSON_COMPACT | JSON_PRESERVE_ORDER);
		printf("%s\n", text);
		free(text);
		json_decref(s);
		json_decref(plan);
		return;
	}
	if (opt->dry_run)
	{
		size_t		i;
		json_t	   *a;

		json_array_foreach(rep->plan, i, a)
			mig_print_action(stdout, a);
		printf("plan: %zu writes\n", json_array_size(rep->plan));
	}
	else if (opt->verify)
		printf("verify: %ld answers compared, %ld differ\n", rep->compared, rep->differences);
	else if (!opt->to_dump && rep->plan != NULL)
	{
		const char *k;
		json_t	   *v;
		long		total = 0;
		bool		first = true;

		json_object_foreach(rep->written, k, v)
			total += (long) json_integer_value(v);
		printf("copy: %ld writes of %zu planned", total, json_array_size(rep->plan));
		json_object_foreach(rep->written, k, v)
		{
			printf("%s%s %lld", first ? " (" : ", ", k, (long long) json_integer_value(v));
			first = false;
		}
		printf("%s%s\n", first ? "" : ")",
			   status == MIG_EXIT_OK ? "" : status == MIG_EXIT_STOPPED ? ", stopped" : ", failed");
	}
}
