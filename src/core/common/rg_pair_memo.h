/*-------------------------------------------------------------------------
 *
 * rg_pair_memo.h
 *	  The pairs of schema parts a compatibility check found compatible,
 *	  kept for the life of the process.
 *
 * A format that can name a part of a schema by an identity that fixes
 * everything its comparison reads (Avro's shared nodes, JSON Schema's
 * content ids: json_content.c) can answer a pair found compatible before
 * from here instead of comparing it again, in any later check.  Only
 * compatible verdicts are kept: an incompatible pair is compared again
 * for the locations of its messages.  A pair is two 64-bit keys, the
 * first never 0; the format puts in them whatever else the verdict
 * depends on (a policy).
 *
 * The set holds at most RG_PAIR_MEMO_SLOTS * 3 / 4 pairs and is emptied
 * when full: a forgotten pair is only compared again.  Its storage is the
 * caller's (a static rg_pair_memo), so it takes no allocation.
 *
 *-------------------------------------------------------------------------
 */
#ifndef RG_PAIR_MEMO_H
#define RG_PAIR_MEMO_H

#include <stdbool.h>
#include <stdint.h>

/* slots of one set (a power of two): 128 KB of keys */
#define RG_PAIR_MEMO_SLOTS 8192

typedef struct rg_pair_memo
{
	uint64_t	first[RG_PAIR_MEMO_SLOTS];	/* 0: an empty slot */
	uint64_t	second[RG_PAIR_MEMO_SLOTS];
	int			used;
	uint64_t	resets;			/* times it was emptied when full */
} rg_pair_memo;

/* Was the pair (first != 0) found compatible before? */
extern bool rg_pair_memo_known(const rg_pair_memo *memo, uint64_t first,
							   uint64_t second);

/* Keep the pair (first != 0) as found compatible. */
extern void rg_pair_memo_keep(rg_pair_memo *memo, uint64_t first, uint64_t second);

#endif							/* RG_PAIR_MEMO_H */
