/*-------------------------------------------------------------------------
 *
 * rg_pair_memo.c
 *	  A bounded set of pairs found compatible (rg_pair_memo.h): open
 *	  addressing over two arrays of keys, emptied when three quarters
 *	  full.
 *
 *-------------------------------------------------------------------------
 */
#include "rg_pair_memo.h"

#include <string.h>

/* The home slot of a pair. */
static inline uint32_t
pair_slot(uint64_t first, uint64_t second)
{
	uint64_t	h = first * 0x9E3779B97F4A7C15ULL ^ second * 0xC2B2AE3D27D4EB4FULL;

	h ^= h >> 32;
	return (uint32_t) h & (RG_PAIR_MEMO_SLOTS - 1);
}

/* See rg_pair_memo.h */
bool
rg_pair_memo_known(const rg_pair_memo *memo, uint64_t first, uint64_t second)
{
	uint32_t	i;

	for (i = pair_slot(first, second); memo->first[i] != 0;
		 i = (i + 1) & (RG_PAIR_MEMO_SLOTS - 1))
		if (memo->first[i] == first && memo->second[i] == second)
			return true;
	return false;
}

/* See rg_pair_memo.h */
void
rg_pair_memo_keep(rg_pair_memo *memo, uint64_t first, uint64_t second)
{
	uint32_t	i;

	if (first == 0)
		return;
	if (memo->used >= RG_PAIR_MEMO_SLOTS / 4 * 3)
	{
		memset(memo->first, 0, sizeof(memo->first));
		memo->used = 0;
		memo->resets++;
	}
	for (i = pair_slot(first, second); memo->first[i] != 0;
		 i = (i + 1) & (RG_PAIR_MEMO_SLOTS - 1))
		if (memo->first[i] == first && memo->second[i] == second)
			return;
	memo->first[i] = first;
	memo->second[i] = second;
	memo->used++;
}
