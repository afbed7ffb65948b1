/*-------------------------------------------------------------------------
 *
 * version_handoff.c
 *	  A registration's decision about the version row it is inserting,
 *	  handed to that row's BEFORE INSERT trigger so that the trigger does
 *	  not repeat the reads the registration has just made.
 *
 * A registration decides its version under the subject's lock: the
 * number, the mode's rules and the compatibility check (registration.c).
 * The row's trigger (triggers.c) still decides the row: it reads the
 * settings in force again and checks the mode, and only when the mode's
 * class (importing or not) and the compatibility rule are the ones the
 * registration decided under does it take the decision instead of locking
 * the subject again, reading its highest and latest versions and the
 * schema, and checking compatibility again.  The subject's lock is the
 * registration's, held by this transaction since it read the versions.
 *
 * The decision is one-shot and bound to one row: it exists only while the
 * registration's own INSERT runs (registry_insert_decided_version arms it
 * and disarms it on every way out), in the subtransaction and command that
 * INSERT runs in, for exactly its context, subject, schema id and number,
 * and the first firing of the trigger in that time takes it away, matched
 * or not.  Nothing in SQL can arm it: a raw INSERT, a later statement, a
 * rolled-back subtransaction or another row finds nothing and gets every
 * check.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"

#include "catalog.h"
#include "compatibility.h"

/* the decision while the registration's INSERT runs */
typedef struct VersionHandoff
{
	bool		armed;
	const char *context;
	const char *subject;
	int32		schema_id;
	int32		version;
	bool		importing;
	CompatRule	rule;
	SubTransactionId subxid;
	CommandId	cid;			/* the INSERT's command */
} VersionHandoff;

static VersionHandoff handoff;

/*
 * Insert a version row a registration has decided (number, mode, and,
 * unless importing, compatibility under rule), handing that decision to
 * the row's trigger for the time of the INSERT only.
 */
void
registry_insert_decided_version(const char *context, const char *subject, int32 version,
								int32 schema_id, bool importing, const CompatRule *rule)
{
	handoff.context = context;
	handoff.subject = subject;
	handoff.schema_id = schema_id;
	handoff.version = version;
	handoff.importing = importing;
	handoff.rule = *rule;
	handoff.subxid = GetCurrentSubTransactionId();

	/*
	 * The command counter is marked used, so the INSERT's statement runs in
	 * the next command (SPI advances it before a write) and any statement a
	 * trigger of the row runs in a later one.
	 */
	handoff.cid = GetCurrentCommandId(true) + 1;
	handoff.armed = true;
	PG_TRY();
	{
		catalog_insert_version(context, subject, version, schema_id);
	}
	PG_FINALLY();
	{
		handoff.armed = false;
	}
	PG_END_TRY();
}

/*
 * The trigger's side: was this very row decided by the registration now
 * inserting it?  *importing and *rule: what it was decided under.  The
 * decision is gone after the first call, whatever it answers.
 */
bool
registry_version_decided(const char *context, const char *subject, int32 schema_id,
						 int32 version, bool *importing, CompatRule *rule)
{
	bool		armed = handoff.armed;

	handoff.armed = false;
	if (!armed || handoff.subxid != GetCurrentSubTransactionId() ||
		handoff.cid != GetCurrentCommandId(false) ||
		handoff.schema_id != schema_id || handoff.version != version ||
		strcmp(handoff.context, context) != 0 || strcmp(handoff.subject, subject) != 0)
		return false;
	*importing = handoff.importing;
	*rule = handoff.rule;
	return true;
}
