/*-------------------------------------------------------------------------
 *
 * registry_check.c
 *	  registry-check: the registry's compatibility verdict without a server,
 *	  for CI pipelines.
 *
 * Given a new schema file and a subject's earlier versions as files
 * (oldest first), it parses them with the core's formats and checks them
 * with the core's level driver and lints, the code the server runs, so the
 * verdict and the messages are the server's.  Exit status: 0 compatible, 1 not,
 * 2 for bad usage, an unreadable file or an invalid schema.
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rg_compat.h"
#include "rg_format.h"

/* the largest schema file read: the server's default request body limit */
#define MAX_SCHEMA_FILE (16 * 1024 * 1024)
#define MAX_REFERENCES 1000

#define EXIT_COMPATIBLE 0
#define EXIT_INCOMPATIBLE 1
#define EXIT_TROUBLE 2

/* what the command line asks for */
typedef struct CheckOptions
{
	const rg_format *format;
	rg_compat_level level;
	rg_compat_policy policy;
	rg_lint_policy lint;
	bool		normalize;
	bool		json;
	/* the new schema's references, and the earlier versions' (-R) */
	rg_reference refs[MAX_REFERENCES];
	int			n_refs;
	rg_reference old_refs[MAX_REFERENCES];
	int			n_old_refs;
	bool		has_old_refs;
	const char *new_file;
	char	  **previous_files;
	int			n_previous;
} CheckOptions;

/* print usage to f */
static void
usage(FILE *f)
{
	fprintf(f,
			"Usage: registry-check [OPTION]... NEW_SCHEMA [EARLIER_VERSION]...\n"
			"Check NEW_SCHEMA against a subject's earlier versions (files, oldest first)\n"
			"as the registry does, without a server.\n\n"
			"  -t, --type=TYPE         AVRO (default), PROTOBUF or JSON\n"
			"  -l, --level=LEVEL       NONE, BACKWARD (default), BACKWARD_TRANSITIVE, FORWARD,\n"
			"                          FORWARD_TRANSITIVE, FULL, FULL_TRANSITIVE\n"
			"  -r, --reference=NAME=FILE\n"
			"                          a referenced schema under the name the schemas use for it\n"
			"                          (Avro full name, .proto import, JSON $ref); repeat, each\n"
			"                          one's own references first; for every schema unless -R\n"
			"  -R, --old-reference=NAME=FILE\n"
			"                          a reference of the earlier versions only (then -r is the\n"
			"                          new schema's only)\n"
			"  -n, --normalize         normalize as the server's normalize=true\n"
			"      --lenient           JSON Schema's LENIENT compatibility policy\n"
			"      --lint[=MODE]       the registry's semantic lints, as its config \"lint\":\n"
			"                          WARN (the default: reported, the verdict stands) or FAIL\n"
			"      --lint-rules=LIST   which lints, as its config \"lintRules\": lint names and\n"
			"                          DATA_LOSS (the default), PRACTICES or ALL, comma-separated\n"
			"      --json              answer as the REST API's verbose compatibility check\n"
			"  -h, --help              this help\n\n"
			"Exit status: 0 compatible, 1 incompatible, 2 trouble (usage, a file, an invalid schema).\n");
}

/* the whole of a file, NUL-terminated, or NULL with a message on stderr */
static char *
read_file(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	char	   *buf;
	size_t		cap = 8192;
	size_t		n = 0;

	if (f == NULL)
	{
		fprintf(stderr, "registry-check: could not open \"%s\": %s\n", path, strerror(errno));
		return NULL;
	}
	buf = malloc(cap + 1);
	while (buf != NULL)
	{
		size_t		got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (got == 0 || n > MAX_SCHEMA_FILE)
			break;
		if (n == cap)
		{
			char	   *bigger = realloc(buf, cap * 2 + 1);

			if (bigger == NULL)
			{
				free(buf);
				buf = NULL;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
	}
	if (buf != NULL && (ferror(f) || n > MAX_SCHEMA_FILE))
	{
		fprintf(stderr, "registry-check: could not read \"%s\": %s\n", path,
				n > MAX_SCHEMA_FILE ? "larger than 16 MB" : strerror(errno));
		free(buf);
		buf = NULL;
	}
	else if (buf == NULL)
		fprintf(stderr, "registry-check: out of memory reading \"%s\"\n", path);
	fclose(f);
	if (buf == NULL)
		return NULL;
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* --reference NAME=FILE: read the file into the next of refs */
static bool
add_reference(rg_reference *refs, int *n_refs, const char *arg)
{
	const char *eq = strchr(arg, '=');
	rg_reference *r;
	char	   *text;
	size_t		len;

	if (eq == NULL || eq == arg || eq[1] == '\0')
	{
		fprintf(stderr, "registry-check: a reference is NAME=FILE, not \"%s\"\n", arg);
		return false;
	}
	if (*n_refs == MAX_REFERENCES)
	{
		fprintf(stderr, "registry-check: more than %d references\n", MAX_REFERENCES);
		return false;
	}
	text = read_file(eq + 1, &len);
	if (text == NULL)
		return false;
	r = &refs[(*n_refs)++];
	r->name = strndup(arg, eq - arg);
	r->schema = text;
	r->schema_len = len;
	return r->name != NULL;
}

/* the options and operands, or false after a message on stderr */
static bool
parse_options(int argc, char **argv, CheckOptions *o)
{
	static const struct option longopts[] = {
		{"type", required_argument, NULL, 't'},
		{"level", required_argument, NULL, 'l'},
		{"reference", required_argument, NULL, 'r'},
		{"old-reference", required_argument, NULL, 'R'},
		{"normalize", no_argument, NULL, 'n'},
		{"lenient", no_argument, NULL, 'L'},
		{"json", no_argument, NULL, 'j'},
		{"lint", optional_argument, NULL, 'i'},
		{"lint-rules", required_argument, NULL, 'I'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0}
	};
	int			c;

	memset(o, 0, sizeof(*o));
	/* Confluent's default schemaType */
	o->format = rg_format_lookup("AVRO");
	o->level = RG_COMPAT_BACKWARD;
	o->lint.rules = RG_LINT_DATA_LOSS;
	while ((c = getopt_long(argc, argv, "t:l:r:R:nh", longopts, NULL)) != -1)
	{
		switch (c)
		{
			case 't':
				o->format = rg_format_lookup(optarg);
				if (o->format == NULL)
				{
					fprintf(stderr, "registry-check: unknown schema type \"%s\" (AVRO, PROTOBUF or JSON)\n", optarg);
					return false;
				}
				break;
			case 'l':
				if (!rg_compat_level_parse(optarg, &o->level))
				{
					fprintf(stderr, "registry-check: unknown compatibility level \"%s\"\n", optarg);
					return false;
				}
				break;
			case 'r':
				if (!add_reference(o->refs, &o->n_refs, optarg))
					return false;
				break;
			case 'R':
				if (!add_reference(o->old_refs, &o->n_old_refs, optarg))
					return false;
				o->has_old_refs = true;
				break;
			case 'n':
				o->normalize = true;
				break;
			case 'L':
				o->policy = RG_POLICY_LENIENT;
				break;
			case 'j':
				o->json = true;
				break;
			case 'i':
				if (optarg == NULL)
					o->lint.mode = RG_LINT_WARN;
				else if (!rg_lint_mode_parse(optarg, &o->lint.mode))
				{
					fprintf(stderr, "registry-check: unknown lint mode \"%s\" (NONE, WARN or FAIL)\n", optarg);
					return false;
				}
				break;
			case 'I':
				if (!rg_lint_rules_parse(optarg, &o->lint.rules))
				{
					fprintf(stderr, "registry-check: unknown lint rules \"%s\" (lint names, DATA_LOSS, PRACTICES or ALL, separated by commas)\n", optarg);
					return false;
				}
				break;
			case 'h':
				usage(stdout);
				exit(EXIT_COMPATIBLE);
			default:
				usage(stderr);
				return false;
		}
	}
	if (optind >= argc)
	{
		usage(stderr);
		return false;
	}
	o->new_file = argv[optind];
	o->previous_files = argv + optind + 1;
	o->n_previous = argc - optind - 1;
	return true;
}

/* a schema file parsed as the options say, or NULL after a message */
static rg_schema *
parse_schema_file(const CheckOptions *o, const char *path,
				  const rg_reference *refs, int n_refs)
{
	rg_error	err;
	size_t		len;
	char	   *text = read_file(path, &len);
	rg_schema  *schema;

	if (text == NULL)
		return NULL;
	rg_error_clear(&err);
	schema = o->format->parse(text, len, refs, n_refs, o->normalize, &err);
	free(text);
	if (schema == NULL)
		fprintf(stderr, "registry-check: invalid schema \"%s\": %s\n", path, err.message);
	return schema;
}

/* print the verdict: the REST API's verbose answer, or text lines */
static void
print_verdict(const CheckOptions *o, bool compatible, const rg_strlist *messages)
{
	int			i;

	if (o->json)
	{
		json_t	   *answer = json_object();
		json_t	   *list = json_array();

		json_object_set_new(answer, "is_compatible", json_boolean(compatible));
		for (i = 0; i < messages->n; i++)
			json_array_append_new(list, json_string(messages->items[i]));
		json_object_set_new(answer, "messages", list);
		json_dumpf(answer, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
		fputc('\n', stdout);
		json_decref(answer);
		return;
	}
	printf("%s\n", compatible ? "compatible" : "incompatible");
	for (i = 0; i < messages->n; i++)
		printf("  %s\n", messages->items[i]);
}

/* parse every file, check the new schema, print the verdict */
int
main(int argc, char **argv)
{
	CheckOptions o;
	rg_schema  *new_schema;
	rg_prior_version *prior;
	rg_strlist	messages;
	rg_arena   *arena;
	bool		compatible;
	int			i;

	if (!parse_options(argc, argv, &o))
		return EXIT_TROUBLE;
	new_schema = parse_schema_file(&o, o.new_file, o.refs, o.n_refs);
	if (new_schema == NULL)
		return EXIT_TROUBLE;
	prior = calloc(o.n_previous + 1, sizeof(rg_prior_version));
	for (i = 0; i < o.n_previous; i++)
	{
		prior[i].schema = o.has_old_refs ?
			parse_schema_file(&o, o.previous_files[i], o.old_refs, o.n_old_refs) :
			parse_schema_file(&o, o.previous_files[i], o.refs, o.n_refs);
		prior[i].version = i + 1;
		if (prior[i].schema == NULL)
			return EXIT_TROUBLE;
	}
	arena = rg_arena_create();
	rg_strlist_init(&messages, arena);
	compatible = rg_compat_verdict(o.level, o.policy, o.lint, false, new_schema, prior,
								   o.n_previous, false, &messages);
	print_verdict(&o, compatible, &messages);
	return compatible ? EXIT_COMPATIBLE : EXIT_INCOMPATIBLE;
}
