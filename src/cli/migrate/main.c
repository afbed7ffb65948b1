/*-------------------------------------------------------------------------
 *
 * main.c
 *	  registry-migrate's command line: read the source (a registry's REST
 *	  API or a _schemas dump), then copy it into the target registry,
 *	  print the plan (--dry-run), compare the two (--verify) or write the
 *	  source as a _schemas dump (--to-dump).
 *
 *-------------------------------------------------------------------------
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate.h"

/* print usage to f */
static void
usage(FILE *f)
{
	fprintf(f,
			"Usage: registry-migrate [OPTION]... --from=URL|--from-dump=FILE --to=URL|--to-dump=FILE\n"
			"Copy a Confluent-compatible schema registry into this one with its ids, or\n"
			"to and from a dump of Confluent's _schemas topic.\n\n"
			"  -f, --from=URL            the source registry's REST API\n"
			"  -F, --from-dump=FILE      the source: a _schemas dump (kafka-console-consumer\n"
			"                            --property print.key=true: key, tab, value; - stdin)\n"
			"  -t, --to=URL              the target registry's REST API\n"
			"  -T, --to-dump=FILE        write the source as a _schemas dump (- stdout)\n"
			"      --from-user=USER:PASSWORD, --to-user=USER:PASSWORD\n"
			"                            basic auth (or REGISTRY_MIGRATE_FROM_USER and\n"
			"                            REGISTRY_MIGRATE_TO_USER in the environment)\n"
			"      --from-ca=FILE, --to-ca=FILE, --ca=FILE\n"
			"                            CA certificates to check the registry's TLS with\n"
			"      --timeout=SECONDS     per request (default 60)\n"
			"  -n, --dry-run             print the plan, write nothing\n"
			"      --verify              compare source and target answer by answer, write\n"
			"                            nothing (exit 1 when they differ)\n"
			"      --max-writes=N        stop after N writes, as an interrupted run would\n"
			"      --json                a machine-readable summary on standard output\n"
			"      --no-progress         no progress bar (it is drawn on a terminal only)\n"
			"  -h, --help                this help\n\n"
			"A run continues what an interrupted one left; over a finished copy it writes\n"
			"nothing.  Exit status: 0 done, 1 refused or different, 2 trouble (usage, a\n"
			"registry or a file out of reach), 3 stopped by --max-writes.\n");
}

enum
{
	OPT_FROM_USER = 256, OPT_TO_USER, OPT_FROM_CA, OPT_TO_CA, OPT_CA, OPT_TIMEOUT,
	OPT_VERIFY, OPT_MAX_WRITES, OPT_JSON, OPT_NO_PROGRESS
};

/* parse the command line into opt; exits on bad usage */
static void
mig_parse(int argc, char **argv, MigOptions *opt)
{
	static const struct option longopts[] = {
		{"from", required_argument, NULL, 'f'},
		{"from-dump", required_argument, NULL, 'F'},
		{"to", required_argument, NULL, 't'},
		{"to-dump", required_argument, NULL, 'T'},
		{"from-user", required_argument, NULL, OPT_FROM_USER},
		{"to-user", required_argument, NULL, OPT_TO_USER},
		{"from-ca", required_argument, NULL, OPT_FROM_CA},
		{"to-ca", required_argument, NULL, OPT_TO_CA},
		{"ca", required_argument, NULL, OPT_CA},
		{"timeout", required_argument, NULL, OPT_TIMEOUT},
		{"dry-run", no_argument, NULL, 'n'},
		{"verify", no_argument, NULL, OPT_VERIFY},
		{"max-writes", required_argument, NULL, OPT_MAX_WRITES},
		{"json", no_argument, NULL, OPT_JSON},
		{"no-progress", no_argument, NULL, OPT_NO_PROGRESS},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0}
	};
	int			c;
	char	   *end;
	long		timeout = 60;

	opt->progress = true;
	while ((c = getopt_long(argc, argv, "f:F:t:T:nh", longopts, NULL)) != -1)
	{
		switch (c)
		{
			case 'f':
				opt->from.url = optarg;
				break;
			case 'F':
				opt->from_dump = optarg;
				break;
			case 't':
				opt->to.url = optarg;
				break;
			case 'T':
				opt->to_dump = optarg;
				break;
			case OPT_FROM_USER:
				opt->from.userpwd = optarg;
				break;
			case OPT_TO_USER:
				opt->to.userpwd = optarg;
				break;
			case OPT_FROM_CA:
				opt->from.cafile = optarg;
				break;
			case OPT_TO_CA:
				opt->to.cafile = optarg;
				break;
			case OPT_CA:
				opt->from.cafile = opt->to.cafile = optarg;
				break;
			case OPT_TIMEOUT:
				timeout = strtol(optarg, &end, 10);
				if (*end || timeout < 1 || timeout > 86400)
				{
					fprintf(stderr, "registry-migrate: --timeout must be 1 to 86400 seconds\n");
					exit(MIG_EXIT_TROUBLE);
				}
				break;
			case 'n':
				opt->dry_run = true;
				break;
			case OPT_VERIFY:
				opt->verify = true;
				break;
			case OPT_MAX_WRITES:
				opt->max_writes = strtol(optarg, &end, 10);
				if (*end || opt->max_writes < 1)
				{
					fprintf(stderr, "registry-migrate: --max-writes must be a positive number\n");
					exit(MIG_EXIT_TROUBLE);
				}
				break;
			case OPT_JSON:
				opt->json = true;
				break;
			case OPT_NO_PROGRESS:
				opt->progress = false;
				break;
			case 'h':
				usage(stdout);
				exit(MIG_EXIT_OK);
			default:
				usage(stderr);
				exit(MIG_EXIT_TROUBLE);
		}
	}
	opt->from.timeout = opt->to.timeout = timeout;
	if (opt->from.userpwd == NULL)
		opt->from.userpwd = getenv("REGISTRY_MIGRATE_FROM_USER");
	if (opt->to.userpwd == NULL)
		opt->to.userpwd = getenv("REGISTRY_MIGRATE_TO_USER");
	if (optind < argc || (opt->from.url == NULL) == (opt->from_dump == NULL) ||
		(opt->to.url == NULL) == (opt->to_dump == NULL) ||
		(opt->to_dump && (opt->verify || opt->max_writes)) ||
		(opt->verify && opt->dry_run))
	{
		fprintf(stderr, "registry-migrate: give one source (--from or --from-dump) and one target "
				"(--to or --to-dump); --verify and --max-writes need --to; --verify and --dry-run exclude each other\n");
		usage(stderr);
		exit(MIG_EXIT_TROUBLE);
	}
}

/* read the source into inv: false (with err) on trouble */
static bool
mig_read_source(MigOptions *opt, MigInventory *inv, MigReport *rep, char *err, size_t errlen)
{
	if (opt->from_dump)
		return mig_read_dump(opt->from_dump, inv, err, errlen);
	return mig_http_init(&opt->from, err, errlen) &&
		mig_read_rest(&opt->from, inv, rep, "source", err, errlen);
}

/* registry-migrate */
int
main(int argc, char **argv)
{
	MigOptions	opt = {0};
	MigInventory *src = mig_inventory_new();
	MigInventory *dst = mig_inventory_new();
	MigReport  *rep;
	char		err[4096];
	int			status = MIG_EXIT_OK;

	mig_parse(argc, argv, &opt);
	rep = mig_report_new(opt.json, opt.progress);
	if (!mig_read_source(&opt, src, rep, err, sizeof(err)))
	{
		mig_error(rep, NULL, 0, "reading the source: %s", err);
		mig_report_print(rep, &opt, MIG_EXIT_TROUBLE);
		return MIG_EXIT_TROUBLE;
	}
	mig_progress_end(rep);
	if (opt.to_dump)
	{
		if (json_object_size(src->keks) > 0)
			mig_note(rep, "a _schemas dump has no KEKs or DEKs: %zu KEKs and %zu DEKs are not written",
					 json_object_size(src->keks), json_object_size(src->deks));
		if (!opt.dry_run && !mig_write_dump(opt.to_dump, src, err, sizeof(err)))
		{
			mig_error(rep, NULL, 0, "%s", err);
			status = MIG_EXIT_TROUBLE;
		}
		rep->plan = json_array();
		mig_report_print(rep, &opt, status);
		return status;
	}
	if (!mig_http_init(&opt.to, err, sizeof(err)) ||
		!mig_read_rest(&opt.to, dst, rep, "target", err, sizeof(err)) ||
		!mig_read_more_scopes(&opt.to, dst, src, err, sizeof(err)))
	{
		mig_error(rep, NULL, 0, "reading the target: %s", err);
		mig_report_print(rep, &opt, MIG_EXIT_TROUBLE);
		return MIG_EXIT_TROUBLE;
	}
	mig_progress_end(rep);
	if (opt.verify)
	{
		mig_verify(src, dst, rep);
		rep->plan = json_array();
		status = rep->differences > 0 ? MIG_EXIT_FAILED : MIG_EXIT_OK;
	}
	else
	{
		rep->plan = mig_plan(src, dst, rep);
		if (json_array_size(rep->errors) > 0)
		{
			/* bad input or a conflict: nothing is written */
			status = MIG_EXIT_FAILED;
			if (!opt.dry_run)
				mig_note(rep, "nothing written: fix what is named above and run again");
		}
		else if (!opt.dry_run)
		{
			int			s = mig_apply(&opt, rep->plan, rep);

			if (s != MIG_EXIT_OK)
				status = s;
		}
	}
	mig_report_print(rep, &opt, status);
	mig_http_close(&opt.from);
	mig_http_close(&opt.to);
	mig_inventory_free(src);
	mig_inventory_free(dst);
	return status;
}
