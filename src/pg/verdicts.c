/*-------------------------------------------------------------------------
 *
 * verdicts.c
 *	  The compatible verdicts of this transaction, remembered by what they
 *	  were decided on, so that the same check is not made twice.
 *
 * A registration checks its schema before an id is drawn (a refused schema
 * leaves no gap), then writes the version row, whose BEFORE INSERT trigger
 * decides again under the same subject lock.  The trigger finds the
 * verdict here when everything it rests on is the same: the context and
 * subject, the candidate's identity (its fingerprint: text, references and
 * data contract), the rule, and every version compared, by number, schema
 * id and fingerprint.  Nothing says who checked: a raw INSERT of the same
 * row in the same state gets the same verdict, which is the one it would
 * have got.  Only compatible verdicts are kept (a refusal ends the
 * statement), at most VERDICTS_KEPT, each slot's memory freed when it is
 * reused, for the current transaction only.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "storage/proc.h"
#include "utils/memutils.h"

#include "compatibility.h"

#define VERDICTS_KEPT 4

typedef struct Verdict
{
	MemoryContext memory;		/* the slot's own, emptied when it is reused */
	char	   *context;
	char	   *subject;
	uint8		identity[REGISTRY_FINGERPRINT_LEN];
	CompatRule	rule;			/* its group copied */
	CatalogVersion *versions;
	int			n;
} Verdict;

static MemoryContext VerdictContext = NULL;
static LocalTransactionId verdicts_lxid = InvalidLocalTransactionId;
static Verdict verdicts[VERDICTS_KEPT];
static int	n_verdicts = 0;
static int	next_verdict = 0;

/* Forget the verdicts of an earlier transaction. */
static void
verdicts_of_this_transaction(void)
{
	if (verdicts_lxid == MyProc->lxid)
		return;
	if (VerdictContext == NULL)
		VerdictContext = AllocSetContextCreate(TopMemoryContext, "registry verdicts",
											   ALLOCSET_SMALL_SIZES);
	MemoryContextReset(VerdictContext);
	memset(verdicts, 0, sizeof(verdicts));
	n_verdicts = 0;
	next_verdict = 0;
	verdicts_lxid = MyProc->lxid;
}

/* Was the verdict decided on exactly these? */
static bool
verdict_matches(const Verdict *v, const char *context, const char *subject,
				const uint8 *identity, CompatRule rule,
				const CatalogVersion *versions, int n)
{
	if (v->n != n || strcmp(v->context, context) != 0 || strcmp(v->subject, subject) != 0 ||
		memcmp(v->identity, identity, REGISTRY_FINGERPRINT_LEN) != 0 ||
		!registry_same_rule(v->rule, rule))
		return false;
	for (int i = 0; i < n; i++)
		if (v->versions[i].version != versions[i].version ||
			v->versions[i].schema_id != versions[i].schema_id ||
			memcmp(v->versions[i].fingerprint, versions[i].fingerprint,
				   REGISTRY_FINGERPRINT_LEN) != 0)
			return false;
	return true;
}

/* Was a schema of this identity found compatible, in this transaction, on exactly these? */
bool
registry_verdict_known(const char *context, const char *subject, const uint8 *identity,
					   CompatRule rule, const CatalogVersion *versions, int n)
{
	verdicts_of_this_transaction();
	for (int i = 0; i < n_verdicts; i++)
		if (verdict_matches(&verdicts[i], context, subject, identity, rule, versions, n))
			return true;
	return false;
}

/* Remember that a schema of this identity was found compatible on these. */
void
registry_verdict_keep(const char *context, const char *subject, const uint8 *identity,
					  CompatRule rule, const CatalogVersion *versions, int n)
{
	MemoryContext old;
	Verdict    *v;

	verdicts_of_this_transaction();
	v = &verdicts[next_verdict];
	next_verdict = (next_verdict + 1) % VERDICTS_KEPT;
	if (n_verdicts < VERDICTS_KEPT)
		n_verdicts++;
	if (v->memory == NULL)
		v->memory = AllocSetContextCreate(VerdictContext, "registry verdict",
										  ALLOCSET_SMALL_SIZES);
	MemoryContextReset(v->memory);
	old = MemoryContextSwitchTo(v->memory);
	v->context = pstrdup(context);
	v->subject = pstrdup(subject);
	memcpy(v->identity, identity, REGISTRY_FINGERPRINT_LEN);
	v->rule = rule;
	v->rule.group = rule.group ? pstrdup(rule.group) : NULL;
	v->versions = palloc(sizeof(CatalogVersion) * Max(n, 1));
	memcpy(v->versions, versions, sizeof(CatalogVersion) * n);
	v->n = n;
	MemoryContextSwitchTo(old);
}
