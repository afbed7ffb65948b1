/*-------------------------------------------------------------------------
 *
 * http_throttle.c
 *	  How many failed password checks a worker pays for: a peer address
 *	  may fail THROTTLE_PEER_BURST times in a row, then once every
 *	  THROTTLE_PEER_REFILL_MS; all peers together THROTTLE_ALL_BURST times,
 *	  then THROTTLE_ALL_PER_S a second.  Past that a login that is not
 *	  already remembered as verified is answered 429 without a password
 *	  check, so a flood of wrong passwords (each check costs a SCRAM
 *	  verification, about 3 ms of the worker's single thread) cannot make
 *	  the worker's other clients wait.
 *
 * Peers are told apart by their IPv4 address, or their IPv6 /64 prefix
 * (what one host usually holds).  Each worker counts for itself, in a
 * small table of its own: a peer that is pushed out of it by many others
 * starts again with a whole allowance, which the allowance of all peers
 * together bounds.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include "common/hashfn.h"
#include "utils/timestamp.h"

#include "http_internal.h"

/* a peer's allowance: failures in a row, then one more per refill */
#define THROTTLE_PEER_BURST 10
#define THROTTLE_PEER_REFILL_MS 2000

/* all peers' allowance in one worker */
#define THROTTLE_ALL_BURST 40
#define THROTTLE_ALL_PER_S 20

/* the table of peers: slots, and how many a peer may be looked for in */
#define THROTTLE_SLOTS 256
#define THROTTLE_PROBES 8

/* a peer's address as the throttle tells peers apart */
typedef struct PeerKey
{
	uint8		len;			/* 4 (IPv4) or 8 (an IPv6 /64) */
	uint8		bytes[8];
} PeerKey;

/* one peer's allowance */
typedef struct PeerAllowance
{
	bool		used;
	PeerKey		key;
	double		credit;			/* failures it may still have now */
	TimestampTz updated;		/* when credit was last brought up to date */
	bool		throttled;		/* said in the log that it is */
} PeerAllowance;

static PeerAllowance peers[THROTTLE_SLOTS];

/* all peers' allowance */
static double all_credit = THROTTLE_ALL_BURST;
static TimestampTz all_updated = 0;
static bool all_throttled = false;

/* The key of a peer address; false for one of another family. */
static bool
peer_key(const struct sockaddr *peer, PeerKey *key)
{
	memset(key, 0, sizeof(*key));
	if (peer == NULL)
		return false;
	if (peer->sa_family == AF_INET)
	{
		key->len = 4;
		memcpy(key->bytes, &((const struct sockaddr_in *) peer)->sin_addr, 4);
		return true;
	}
	if (peer->sa_family == AF_INET6)
	{
		const struct in6_addr *a = &((const struct sockaddr_in6 *) peer)->sin6_addr;

		if (IN6_IS_ADDR_V4MAPPED(a))
		{
			key->len = 4;
			memcpy(key->bytes, &a->s6_addr[12], 4);
		}
		else
		{
			key->len = 8;
			memcpy(key->bytes, a->s6_addr, 8);
		}
		return true;
	}
	return false;
}

/* credit regained between then and now at one per period_ms, up to burst */
static double
refilled(double credit, TimestampTz then, TimestampTz now, double period_ms, double burst)
{
	double		elapsed_ms = (double) (now - then) / 1000.0;

	if (then == 0 || elapsed_ms < 0)
		return burst;
	credit += elapsed_ms / period_ms;
	return credit > burst ? burst : credit;
}

/*
 * The peer's slot, brought up to date; with create, a new one (over a
 * free slot, else the least recently updated of those it may be in).
 * NULL when it has none.
 */
static PeerAllowance *
peer_slot(const PeerKey *key, TimestampTz now, bool create)
{
	uint32		h = hash_bytes(key->bytes, key->len) ^ key->len;
	PeerAllowance *victim = NULL;
	int			i;

	for (i = 0; i < THROTTLE_PROBES; i++)
	{
		PeerAllowance *p = &peers[(h + i) % THROTTLE_SLOTS];

		if (p->used && p->key.len == key->len &&
			memcmp(p->key.bytes, key->bytes, key->len) == 0)
		{
			p->credit = refilled(p->credit, p->updated, now,
								 THROTTLE_PEER_REFILL_MS, THROTTLE_PEER_BURST);
			p->updated = now;
			return p;
		}
		if (victim == NULL || !p->used ||
			(victim->used && p->updated < victim->updated))
			victim = p;
	}
	if (!create)
		return NULL;
	victim->used = true;
	victim->key = *key;
	victim->credit = THROTTLE_PEER_BURST;
	victim->updated = now;
	victim->throttled = false;
	return victim;
}

/* all peers' credit, brought up to date */
static void
refill_all(TimestampTz now)
{
	all_credit = refilled(all_credit, all_updated, now,
						  1000.0 / THROTTLE_ALL_PER_S, THROTTLE_ALL_BURST);
	all_updated = now;
}

/*
 * May the worker pay for a password check of this peer now?  False when
 * the peer, or all peers together, have used their allowance of failures.
 */
bool
http_throttle_allows(const struct sockaddr *peer, const char *peer_name)
{
	TimestampTz now = GetCurrentTimestamp();
	PeerKey		key;
	PeerAllowance *p;

	refill_all(now);
	if (all_credit < 1.0)
	{
		if (!all_throttled)
			ereport(LOG,
					(errmsg("registry REST API: too many failed logins, new logins answered 429 for now"),
					 errdetail_log("More than %d failed password checks a second from all peers together.",
								   THROTTLE_ALL_PER_S)));
		all_throttled = true;
		return false;
	}
	if (all_throttled && all_credit >= THROTTLE_ALL_BURST / 2)
		all_throttled = false;
	if (!peer_key(peer, &key))
		return true;
	p = peer_slot(&key, now, false);
	if (p == NULL)
		return true;
	if (p->credit < 1.0)
	{
		if (!p->throttled)
			ereport(LOG,
					(errmsg("registry REST API: too many failed logins from %s, its new logins answered 429 for now",
							peer_name),
					 errdetail_log("It failed %d password checks in a row; it may try again once every %d ms.",
								   THROTTLE_PEER_BURST, THROTTLE_PEER_REFILL_MS)));
		p->throttled = true;
		return false;
	}
	if (p->credit >= THROTTLE_PEER_BURST)
		p->throttled = false;
	return true;
}

/* A password check of this peer failed: it costs the peer and all peers one. */
void
http_throttle_failed(const struct sockaddr *peer)
{
	TimestampTz now = GetCurrentTimestamp();
	PeerKey		key;
	PeerAllowance *p;

	refill_all(now);
	all_credit -= 1.0;
	if (!peer_key(peer, &key))
		return;
	p = peer_slot(&key, now, true);
	p->credit -= 1.0;
}
