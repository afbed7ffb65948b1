/*-------------------------------------------------------------------------
 *
 * test_alloc.c
 *	  The core's memory handlers and interrupt hook (rg_alloc.h).
 *
 * A tracking allocator plays the part of a PostgreSQL memory context:
 * every block carries a header and sits in a list of live blocks, so a
 * test can see that the core, jansson and protobuf-c allocate only
 * through the handlers, and can free everything at once after leaving
 * the core by a longjmp, as an ERROR does.  Under LeakSanitizer, memory
 * the core took from libc behind the handlers' back would show as a leak.
 * Scratch is real: what a parse allocates in it is freed at its end, so a
 * schema that kept a pointer into it would fail under AddressSanitizer.
 *
 *-------------------------------------------------------------------------
 */
#include <jansson.h>
#include <setjmp.h>
#include <stdint.h>

#include "rg_test.h"
#include "rg_alloc.h"
#include "rg_avro.h"
#include "rg_compat.h"
#include "rg_format.h"
#include "rg_protobuf.h"
#include "protoc_shim.h"

#define BLOCK_MAGIC 0x5247414cu

typedef struct block
{
	struct block *prev;
	struct block *next;
	size_t		size;
	uint32_t	magic;
	int32_t		region;			/* 0, or the scratch depth it was made at */
	/* keep the payload 16-byte aligned */
	uint32_t	pad[2];
} block;

static block live = {&live, &live, 0, 0, 0, {0}};
static long n_live;
static long n_allocs;
static long bad_frees;

/* >= 0: the allocation after this many more leaves by a longjmp */
static long fail_after = -1;
static long noerror_calls;
static jmp_buf escape;

/* scratch brackets seen, and whether they nest properly */
static int	scratch_depth;
static long scratch_begins;

/* a block in the live list, in region */
static void *
new_block(size_t size, int region)
{
	block	   *b = malloc(sizeof(block) + size);

	if (b == NULL)
		return NULL;
	b->size = size;
	b->region = region;
	b->magic = BLOCK_MAGIC;
	b->next = live.next;
	b->prev = &live;
	live.next->prev = b;
	live.next = b;
	n_live++;
	n_allocs++;
	return b + 1;
}

/*
 * alloc as palloc does it: out of memory (simulated) leaves by longjmp,
 * or gives NULL with noerror.  One lifetime for every block: near only has
 * to be live.
 */
static void *
track_alloc(const void *near, size_t size, bool noerror)
{
	if (near != NULL && ((const block *) near - 1)->magic != BLOCK_MAGIC)
		bad_frees++;
	if (noerror)
		noerror_calls++;
	if (fail_after == 0)
	{
		if (noerror)
			return NULL;
		fail_after = -1;
		longjmp(escape, 1);
	}
	if (fail_after > 0)
		fail_after--;
	return new_block(size, near != NULL ? ((const block *) near - 1)->region : scratch_depth);
}

/* unlink a live block; false when p is not one */
static bool
unlink_block(void *p)
{
	block	   *b = (block *) p - 1;

	if (b->magic != BLOCK_MAGIC)
	{
		bad_frees++;
		return false;
	}
	b->magic = 0;
	b->prev->next = b->next;
	b->next->prev = b->prev;
	n_live--;
	return true;
}

/* the tracking allocator's free */
static void
track_free(void *p)
{
	if (unlink_block(p))
		free((block *) p - 1);
}

/* the tracking allocator's realloc: a new block, the old one freed */
static void *
track_realloc(void *p, size_t size)
{
	void	   *n;
	size_t		old;

	old = ((block *) p - 1)->size;
	n = track_alloc(p, size, false);
	if (n == NULL)
		return NULL;
	memcpy(n, p, old < size ? old : size);
	track_free(p);
	return n;
}

/* free every live block: what resetting a memory context does */
static void
free_all(void)
{
	while (live.next != &live)
		track_free(live.next + 1);
	scratch_depth = 0;
}

/* the tracking allocator's scratch_begin: counts the brackets */
static void *
track_scratch_begin(void)
{
	scratch_begins++;
	return (void *) (intptr_t) ++scratch_depth;
}

/* the tracking allocator's scratch_end: the mark must match; frees the region */
static void
track_scratch_end(void *mark)
{
	block	   *b = live.next;

	if ((intptr_t) mark != scratch_depth)
		bad_frees++;
	while (b != &live)
	{
		block	   *next = b->next;

		if (b->region == scratch_depth)
			track_free(b + 1);
		b = next;
	}
	scratch_depth--;
}

static const rg_allocator tracking = {
	.alloc = track_alloc,
	.realloc = track_realloc,
	.free = track_free,
	.scratch_begin = track_scratch_begin,
	.scratch_end = track_scratch_end,
};

/* the interrupt hook: after interrupt_after calls, leave by longjmp */
static long interrupt_after = -1;
static long interrupt_calls;

/* counts calls; longjmps as CHECK_FOR_INTERRUPTS does on a cancel */
static void
interrupt_hook(void)
{
	interrupt_calls++;
	if (interrupt_after == 0)
	{
		interrupt_after = -1;
		longjmp(escape, 1);
	}
	if (interrupt_after > 0)
		interrupt_after--;
}

static const char *avro_old =
"{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"t\",\"x-props\":{\"k\":[1,\"v\"]},\"fields\":["
"{\"name\":\"raw\",\"type\":\"bytes\",\"default\":\"\\u00ff\\u0100\",\"x-f\":3.5},"
"{\"name\":\"f\",\"type\":\"float\",\"default\":\"1.5\"},"
"{\"name\":\"a\",\"type\":\"int\"},"
"{\"name\":\"b\",\"type\":[\"null\",\"string\"],\"default\":null},"
"{\"name\":\"c\",\"type\":{\"type\":\"array\",\"items\":\"float\"},\"default\":[1,2.5]},"
"{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"X\",\"Y\"]}},"
"{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"R\"},\"default\":{}}]}";

static const char *avro_new =
"{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"t\",\"x-props\":{\"k\":[1,\"v\"]},\"fields\":["
"{\"name\":\"raw\",\"type\":\"bytes\",\"default\":\"\\u00ff\\u0100\",\"x-f\":3.5},"
"{\"name\":\"f\",\"type\":\"float\",\"default\":\"1.5\"},"
"{\"name\":\"a\",\"type\":\"long\"},"
"{\"name\":\"c\",\"type\":{\"type\":\"array\",\"items\":\"double\"},\"default\":[]},"
"{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"X\"]}},"
"{\"name\":\"z\",\"type\":\"string\"}]}";

static const char *proto_old =
"syntax = \"proto3\";\npackage t;\n"
"import \"google/protobuf/timestamp.proto\";\n"
"message A { int32 x = 1; string y = 2; reserved 5 to 9, 12; reserved \"q\";\n"
"  message B { repeated int64 z = 1; map<string, B> m = 2; }\n"
"  oneof o { string s = 3; bytes b = 4; } google.protobuf.Timestamp ts = 10; }\n"
"enum E { E0 = 0; E1 = 1; reserved 3 to 4; }\n";

static const char *proto_new =
"syntax = \"proto3\";\npackage t;\n"
"message A { int64 x = 1; reserved 5 to 9; message B { repeated int32 z = 1; } "
"oneof o { string s = 3; } }\n"
"enum E { E0 = 0; }\n";

/* rewrites of the stored form from the model that differ from it */
static long stale_models;

/*
 * Write an AVRO schema's stored form again from its model, after its
 * parse's scratch is gone: every JSON value the model keeps must still be
 * there (AddressSanitizer would see one freed with the scratch).
 */
static void
rewrite_avro(const rg_schema *s)
{
	rg_buf		buf;

	if (s == NULL || s->format != &rg_format_avro)
		return;
	rg_buf_init(&buf);
	rg_avro_write(&buf, ((const rg_avro_parsed *) s->model)->root, true);
	if (!buf.oom && strcmp(buf.data, s->canonical) != 0)
		stale_models++;
	rg_buf_free(&buf);
}

/* parse two schemas of a format, check both ways, free: one workload */
static void
workload(const rg_format *format, const char *old_text, const char *new_text)
{
	rg_error	err;
	rg_schema  *o;
	rg_schema  *n;
	rg_prior_version prev[3];
	rg_strlist	msgs;
	rg_arena   *arena;

	o = format->parse(old_text, strlen(old_text), NULL, 0, false, &err);
	n = format->parse(new_text, strlen(new_text), NULL, 0, true, &err);
	rewrite_avro(o);
	rewrite_avro(n);
	arena = rg_arena_create();
	if (o != NULL && n != NULL && arena != NULL)
	{
		prev[0].schema = o;
		prev[0].version = 1;
		prev[1].schema = n;
		prev[1].version = 2;
		prev[2].schema = o;
		prev[2].version = 3;
		rg_strlist_init(&msgs, arena);
		(void) rg_compat_check(RG_COMPAT_FULL_TRANSITIVE, n, prev, 3, &msgs);
		(void) rg_compat_check(RG_COMPAT_FULL_TRANSITIVE, o, prev, 3, &msgs);
	}
	rg_arena_destroy(arena);
	rg_schema_free(o);
	rg_schema_free(n);
}

/* one run of a workload under the tracking allocator; true when it finished */
static bool
tracked_run(const rg_format *format, const char *old_text, const char *new_text)
{
	volatile bool finished = false;

	if (setjmp(escape) == 0)
	{
		workload(format, old_text, new_text);
		finished = true;
	}
	free_all();
	return finished;
}

/* Everything goes through the handlers and comes back to them. */
static void
test_handlers_see_everything(void)
{
	json_t	   *j;
	long		before;

	rg_set_allocator(&tracking);
	before = n_allocs;
	j = json_pack("{s:[i,s]}", "k", 1, "v");
	RG_CHECK(j != NULL && n_allocs > before, "jansson allocates through the handlers");
	json_decref(j);
	RG_CHECK(n_live == 0 && bad_frees == 0, "and frees through them");

	before = n_allocs;
	workload(&rg_format_avro, avro_old, avro_new);
	RG_CHECK(n_allocs > before && n_live == 0 && bad_frees == 0,
			 "AVRO parse, normalize and checks: %ld allocations, all freed through the handlers",
			 n_allocs - before);

	RG_CHECK(scratch_begins == 2 && scratch_depth == 0, "each AVRO parse brackets its work in scratch");
	RG_CHECK(stale_models == 0, "the stored form written again from each model is the same");

	before = n_allocs;
	noerror_calls = 0;
	workload(&rg_format_protobuf, proto_old, proto_new);
	RG_CHECK(n_allocs > before && n_live == 0 && bad_frees == 0,
			 "PROTOBUF parse, render and diff: %ld allocations, all freed through the handlers",
			 n_allocs - before);
	RG_CHECK(noerror_calls >= 2, "the shim's results come from alloc_noerror (%ld calls)",
			 noerror_calls);
	rg_set_allocator(NULL);
}

/*
 * Run the workload once to count the points *count counts, then once
 * stopping at each of them in turn (*stop_after = k); returns how many
 * runs left by longjmp, with the number of points in *points.
 */
static long
stop_at_each(const rg_format *format, const char *old_text, const char *new_text,
			 long *count, long *stop_after, long *points)
{
	long		before = *count;
	long		escaped = 0;
	long		k;

	tracked_run(format, old_text, new_text);
	*points = *count - before;
	for (k = 0; k < *points; k++)
	{
		*stop_after = k;
		if (!tracked_run(format, old_text, new_text))
			escaped++;
	}
	*stop_after = -1;
	return escaped;
}

/*
 * Out of memory at every allocation in turn, leaving by longjmp as palloc
 * does, then everything freed at once: no crash, no leak behind the
 * handlers, and the run with no failure still finishes.
 */
static void
test_oom_longjmp_everywhere(const rg_format *format, const char *name,
							const char *old_text, const char *new_text)
{
	long		total;
	long		escaped;
	bool		finished;

	rg_set_allocator(&tracking);
	escaped = stop_at_each(format, old_text, new_text, &n_allocs, &fail_after, &total);
	finished = tracked_run(format, old_text, new_text);
	RG_CHECK(escaped > 0 && finished && n_live == 0 && bad_frees == 0,
			 "%s: out of memory at each of %ld allocations (%ld left by longjmp), nothing leaked",
			 name, total, escaped);
	rg_set_allocator(NULL);
}

/*
 * A cancel at every interrupt check in turn: the check leaves by longjmp
 * and freeing what the handlers hold leaves nothing behind.
 */
static void
test_interrupt_everywhere(const rg_format *format, const char *name,
						  const char *old_text, const char *new_text)
{
	long		total;
	long		escaped;
	bool		finished;

	rg_set_allocator(&tracking);
	rg_interrupt_hook = interrupt_hook;
	escaped = stop_at_each(format, old_text, new_text, &interrupt_calls,
						   &interrupt_after, &total);
	finished = tracked_run(format, old_text, new_text);
	RG_CHECK(total > 10 && escaped == total && finished && n_live == 0 && bad_frees == 0,
			 "%s: a cancel at each of %ld interrupt checks stops the work, nothing leaked",
			 name, total);
	rg_interrupt_hook = NULL;
	rg_set_allocator(NULL);
}

/* A long transitive check over many versions calls the hook per version. */
static void
test_interrupt_per_version(void)
{
	rg_error	err;
	rg_schema  *s = rg_format_avro.parse(avro_old, strlen(avro_old), NULL, 0, false, &err);
	rg_prior_version prev[200];
	rg_strlist	msgs;
	rg_arena   *arena = rg_arena_create();
	int			i;

	for (i = 0; i < 200; i++)
	{
		prev[i].schema = s;
		prev[i].version = i + 1;
	}
	rg_strlist_init(&msgs, arena);
	rg_interrupt_hook = interrupt_hook;
	interrupt_calls = 0;
	(void) rg_compat_check(RG_COMPAT_BACKWARD_TRANSITIVE, s, prev, 200, &msgs);
	RG_CHECK(interrupt_calls >= 200, "BACKWARD_TRANSITIVE over 200 versions: %ld interrupt checks",
			 interrupt_calls);
	rg_interrupt_hook = NULL;
	rg_arena_destroy(arena);
	rg_schema_free(s);
}

/* libprotoc's frames must never be unwound: the shim never checks. */
static void
test_shim_never_interrupted(void)
{
	rg_protoc_result res;
	char		text[64 * 1024];
	size_t		len = 0;
	int			i;
	bool		ok;

	len += snprintf(text + len, sizeof(text) - len, "syntax = \"proto3\";\n");
	for (i = 0; i < 500; i++)
		len += snprintf(text + len, sizeof(text) - len,
						"message M%d { int32 a = 1; M%d b = 2; }\n", i, i > 0 ? i - 1 : 0);
	rg_interrupt_hook = interrupt_hook;
	interrupt_calls = 0;
	ok = rg_protoc_build(text, len, NULL, 0, &res);
	RG_CHECK(ok && interrupt_calls == 0, "rg_protoc_build of 500 messages: no interrupt check");
	rg_protoc_result_free(&res);
	rg_interrupt_hook = NULL;
}

int
main(void)
{
	test_handlers_see_everything();
	test_oom_longjmp_everywhere(&rg_format_avro, "AVRO", avro_old, avro_new);
	test_oom_longjmp_everywhere(&rg_format_protobuf, "PROTOBUF", proto_old, proto_new);
	test_interrupt_everywhere(&rg_format_avro, "AVRO", avro_old, avro_new);
	test_interrupt_everywhere(&rg_format_protobuf, "PROTOBUF", proto_old, proto_new);
	test_interrupt_per_version();
	test_shim_never_interrupted();
	return rg_test_done();
}
