/*-------------------------------------------------------------------------
 *
 * fuzz_common.h
 *	  What every fuzz target checks the same way, whatever the format:
 *	  how a broken invariant is reported, and the verdicts of a pair of
 *	  parsed schemas (can_read and the level driver).
 *
 * Included by one fuzz target each (each is its own program), so the
 * functions are static.
 *
 *-------------------------------------------------------------------------
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>

#include "rg_compat.h"

/* not every target uses every check */
#define pg_attribute_unused_fuzz __attribute__((unused))

/* each target defines FUZZ_TARGET, its name in reports, before including this */
#ifndef FUZZ_TARGET
#error "define FUZZ_TARGET before including fuzz_common.h"
#endif

/* Report a broken invariant with the two texts involved, then crash. */
static void pg_attribute_unused_fuzz
invariant_failed(const char *what, const char *first, const char *second)
{
	fprintf(stderr, "%s: invariant broken: %s\n", FUZZ_TARGET, what);
	fprintf(stderr, "  first:  %s\n", first ? first : "(null)");
	fprintf(stderr, "  second: %s\n", second ? second : "(null)");
	abort();
}

/*
 * The format's can_read(a, b), then the level driver at FULL_TRANSITIVE
 * with b as the one earlier version (callers check both orders).  A
 * verdict must come with messages exactly when it is negative.
 */
static void pg_attribute_unused_fuzz
check_pair(const rg_schema *a, const rg_schema *b)
{
	rg_arena   *arena = rg_arena_create();
	rg_strlist	out;
	rg_prior_version prior;
	bool		ok;

	if (arena == NULL)
		return;
	rg_strlist_init(&out, arena);
	ok = a->format->can_read(a, b, &out);
	if (ok != (out.n == 0))
		invariant_failed("can_read(a, b) verdict vs messages", a->canonical, b->canonical);
	rg_strlist_init(&out, arena);
	prior.schema = b;
	prior.version = 1;
	ok = rg_compat_check(RG_COMPAT_FULL_TRANSITIVE, a, &prior, 1, &out);
	if (ok != (out.n == 0))
		invariant_failed("rg_compat_check verdict vs messages", a->canonical, b->canonical);
	rg_arena_destroy(arena);
}

#endif							/* FUZZ_COMMON_H */
