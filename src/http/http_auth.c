/*-------------------------------------------------------------------------
 *
 * http_auth.c
 *	  Who a REST request runs as: HTTP Basic verified against PostgreSQL's
 *	  own roles and password verifiers (registry.http_auth = basic), or the
 *	  anonymous role (registry.http_auth = none); and running the request's
 *	  transaction as that role, so that GRANTs decide what it may do.
 *
 * A login is let in where a PostgreSQL login of the role from the same
 * peer to registry.database would be: the pg_hba.conf line that applies
 * (http_hba.c) must be trust or a password method, and the role must not
 * be a superuser (refused before the password is looked at, with the 401
 * and the cost of a wrong password: the answer depends neither on the
 * password nor on the role being a superuser), then have LOGIN and CONNECT on the
 * database.  The password is checked as PostgreSQL checks a plaintext one
 * (get_role_password() and plain_crypt_verify(): SCRAM iterations or
 * md5), in a short transaction of its own, at the cost of one SCRAM
 * verification whatever the role: an unknown role, one without a
 * password, past VALID UNTIL or with an md5 verifier spends a SCRAM
 * verification too, so the time does not tell which roles exist.  Every
 * such refusal answers the same 401.  A success is remembered for a short
 * while per worker, keyed by the role's name, a salted hash of the
 * password and the role's current verifier, so a changed password, a
 * dropped role or a past VALID UNTIL takes effect at once; a failure pays
 * the whole cost, is logged (never the password) and counts against the
 * peer's allowance (http_throttle.c), past which a login not remembered
 * is answered 429 without a check.  Requests never run as a superuser.
 * Anonymous requests are served only from loopback peers unless
 * registry.http_anonymous_remote is on, and only where pg_hba.conf would
 * let the anonymous role in.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <arpa/inet.h>

#include <microhttpd.h>

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_authid.h"
#include "common/base64.h"
#include "common/cryptohash.h"
#include "common/sha2.h"
#include "libpq/crypt.h"
#include "libpq/hba.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "confluent_messages.h"
#include "http.h"
#include "http_internal.h"
#include "http_tls.h"
#include "rest.h"

/* the longest base64 credentials read: a role name and a 1000-byte password */
#define MAX_CREDENTIALS_B64 1500

/* how long a verified password is remembered */
#define VERIFIED_TTL_MS 60000
#define VERIFIED_SLOTS 32

/* one remembered success */
typedef struct VerifiedLogin
{
	bool		used;
	char		role[NAMEDATALEN];
	uint8		password_hash[PG_SHA256_DIGEST_LENGTH];
	uint8		verifier_hash[PG_SHA256_DIGEST_LENGTH];
	TimestampTz verified_at;
} VerifiedLogin;

static VerifiedLogin verified[VERIFIED_SLOTS];
static int	verified_next = 0;
static uint8 hash_salt[16];
static bool hash_salt_ready = false;

/*
 * A SCRAM verifier (PostgreSQL's default 4096 iterations) of a random
 * password nobody knows, checked for failures that have no verifier of
 * their own, so that they cost what a wrong password does.
 */
static const char *const dummy_verifier =
"SCRAM-SHA-256$4096:QH7XhljdIl/RCcd8PGlUZA==$G859qSe9qKcTtsH/proFLqorbuOCpMXJiuwZ59NEA7I=:"
"rwerF5nTYOkiJ+kX2p5owipMsnR1+DWCcWNlH2UzmEs=";

/* the credentials of an Authorization: Basic header */
typedef struct BasicCredentials
{
	char		user[NAMEDATALEN];
	char	   *password;		/* palloc'd */
} BasicCredentials;

/* Set a refusal: 401 (challenge: with WWW-Authenticate), 403 or 429. */
static void
refuse(HttpRefusal *refusal, int status, const char *message, bool challenge)
{
	refusal->status = status;
	refusal->error_code = status == 403 ? 40301 : status;
	refusal->message = message;
	refusal->challenge = challenge;
}

/* The peer's address as text, for the log. */
const char *
http_peer_text(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info;
	static char buf[INET6_ADDRSTRLEN + 1];

	info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (info == NULL || info->client_addr == NULL)
		return "unknown";
	if (info->client_addr->sa_family == AF_INET &&
		inet_ntop(AF_INET, &((struct sockaddr_in *) info->client_addr)->sin_addr, buf, sizeof(buf)))
		return buf;
	if (info->client_addr->sa_family == AF_INET6 &&
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *) info->client_addr)->sin6_addr, buf, sizeof(buf)))
		return buf;
	return "unknown";
}

/* Is the peer on a loopback address (127.0.0.0/8, ::1, or v4-mapped 127.x)? */
static bool
peer_is_loopback(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info;

	info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (info == NULL || info->client_addr == NULL)
		return false;
	if (info->client_addr->sa_family == AF_INET)
	{
		struct sockaddr_in *sin = (struct sockaddr_in *) info->client_addr;

		return (ntohl(sin->sin_addr.s_addr) >> 24) == 127;
	}
	if (info->client_addr->sa_family == AF_INET6)
	{
		struct in6_addr *a = &((struct sockaddr_in6 *) info->client_addr)->sin6_addr;

		if (IN6_IS_ADDR_LOOPBACK(a))
			return true;
		return IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127;
	}
	return false;
}

/* header iterator: count the Authorization headers */
static enum MHD_Result
count_authorization(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	if (key != NULL && pg_strcasecmp(key, MHD_HTTP_HEADER_AUTHORIZATION) == 0)
		(*(int *) cls)++;
	return MHD_YES;
}

/*
 * Read "Authorization: Basic <base64 user:password>".  False for anything
 * else: no header or more than one (a proxy in front may have read
 * another than this worker would), another scheme, over-long or
 * undecodable credentials, no colon, a NUL byte, or a role name that
 * cannot be one.
 */
static bool
read_basic_credentials(struct MHD_Connection *conn, BasicCredentials *cred)
{
	const char *header = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
													 MHD_HTTP_HEADER_AUTHORIZATION);
	const char *token;
	size_t		token_len;
	char	   *decoded;
	int			len;
	char	   *colon;
	int			headers = 0;

	if (header == NULL || pg_strncasecmp(header, "Basic ", 6) != 0)
		return false;
	MHD_get_connection_values(conn, MHD_HEADER_KIND, count_authorization, &headers);
	if (headers != 1)
		return false;
	token = header + 6;
	while (*token == ' ')
		token++;
	token_len = strlen(token);
	while (token_len > 0 && token[token_len - 1] == ' ')
		token_len--;
	if (token_len == 0 || token_len > MAX_CREDENTIALS_B64)
		return false;
	decoded = palloc(pg_b64_dec_len((int) token_len) + 1);
	len = pg_b64_decode(token, (int) token_len, decoded, pg_b64_dec_len((int) token_len));
	if (len < 0)
		return false;
	decoded[len] = '\0';
	if (memchr(decoded, '\0', len) != NULL)
		return false;
	colon = strchr(decoded, ':');
	if (colon == NULL || colon == decoded || colon - decoded >= NAMEDATALEN)
		return false;
	*colon = '\0';
	if (!pg_verifymbstr(decoded, (int) strlen(decoded), true))
		return false;
	strlcpy(cred->user, decoded, NAMEDATALEN);
	cred->password = colon + 1;
	return true;
}

/* A salted SHA-256 of text, for the remembered successes. */
static void
salted_hash(const char *text, uint8 *out)
{
	pg_cryptohash_ctx *ctx;

	if (!hash_salt_ready)
	{
		if (!pg_strong_random(hash_salt, sizeof(hash_salt)))
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate a random salt")));
		hash_salt_ready = true;
	}
	ctx = pg_cryptohash_create(PG_SHA256);
	if (ctx == NULL ||
		pg_cryptohash_init(ctx) < 0 ||
		pg_cryptohash_update(ctx, hash_salt, sizeof(hash_salt)) < 0 ||
		pg_cryptohash_update(ctx, (const uint8 *) text, strlen(text)) < 0 ||
		pg_cryptohash_final(ctx, out, PG_SHA256_DIGEST_LENGTH) < 0)
	{
		pg_cryptohash_free(ctx);
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compute a SHA-256 hash")));
	}
	pg_cryptohash_free(ctx);
}

/* Was this password verified against this verifier of the role lately? */
static bool
recently_verified(const char *role, const uint8 *password_hash, const uint8 *verifier_hash)
{
	TimestampTz now = GetCurrentTimestamp();
	int			i;

	for (i = 0; i < VERIFIED_SLOTS; i++)
	{
		VerifiedLogin *v = &verified[i];

		if (!v->used || strcmp(v->role, role) != 0)
			continue;
		if (TimestampDifferenceExceeds(v->verified_at, now, VERIFIED_TTL_MS))
			continue;
		if (memcmp(v->password_hash, password_hash, PG_SHA256_DIGEST_LENGTH) == 0 &&
			memcmp(v->verifier_hash, verifier_hash, PG_SHA256_DIGEST_LENGTH) == 0)
			return true;
	}
	return false;
}

/* Remember a success, over the oldest remembered one. */
static void
remember_verified(const char *role, const uint8 *password_hash, const uint8 *verifier_hash)
{
	VerifiedLogin *v = &verified[verified_next];

	verified_next = (verified_next + 1) % VERIFIED_SLOTS;
	v->used = true;
	strlcpy(v->role, role, NAMEDATALEN);
	memcpy(v->password_hash, password_hash, PG_SHA256_DIGEST_LENGTH);
	memcpy(v->verifier_hash, verifier_hash, PG_SHA256_DIGEST_LENGTH);
	v->verified_at = GetCurrentTimestamp();
}

/* Spend what a SCRAM verification costs, for a role that has nothing to verify. */
static void
spend_verification(const char *password)
{
	const char *detail = NULL;

	(void) plain_crypt_verify("", dummy_verifier, password, &detail);
}

/* Log a failed login as PostgreSQL does, with why (never the password). */
static void
log_failure(struct MHD_Connection *conn, const char *user, const char *detail)
{
	ereport(LOG,
			(errcode(ERRCODE_INVALID_PASSWORD),
			 errmsg("registry REST API: password authentication failed for user \"%s\"", user),
			 detail ? errdetail_log("%s Connection from %s.", detail, http_peer_text(conn))
			 : errdetail_log("Connection from %s.", http_peer_text(conn))));
}

/* The peer's address as libmicrohttpd gives it; NULL if unknown. */
static const struct sockaddr *
peer_address(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info;

	info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	return info ? info->client_addr : NULL;
}

/* Log a login refused before its password was looked at, with why. */
static void
log_refusal(struct MHD_Connection *conn, const char *user, const char *why)
{
	ereport(LOG,
			(errcode(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION),
			 errmsg("registry REST API: login refused for user \"%s\"", user),
			 errdetail_log("%s Connection from %s.", why, http_peer_text(conn))));
}

/*
 * The role's verifier that the pg_hba.conf line's method can use: NULL
 * (with *detail) when the role does not exist, has no password, is past
 * VALID UNTIL, or has an md5 verifier under a scram-sha-256 line (which
 * PostgreSQL's SCRAM exchange cannot use either).
 */
static char *
usable_verifier(const char *user, int method, const char **detail)
{
	char	   *shadow = get_role_password(user, detail);

	if (shadow != NULL && method == uaSCRAM &&
		get_password_type(shadow) != PASSWORD_TYPE_SCRAM_SHA_256)
	{
		*detail = psprintf("User \"%s\" does not have a valid SCRAM secret.", user);
		return NULL;
	}
	return shadow;
}

/*
 * Check the password against the role's verifier (shadow: NULL when it has
 * none usable), at the cost of one SCRAM verification whatever the
 * verifier, so the time does not tell which roles exist nor how their
 * passwords are kept.
 */
static bool
check_password(const char *user, const char *shadow, const char *password,
			   const char **detail)
{
	bool		ok;

	if (shadow == NULL)
	{
		spend_verification(password);
		return false;
	}
	ok = (plain_crypt_verify(user, shadow, password, detail) == STATUS_OK);
	if (get_password_type(shadow) != PASSWORD_TYPE_SCRAM_SHA_256)
		spend_verification(password);
	return ok;
}

/*
 * The user name of the request's Basic credentials, verified or not, for
 * the audit trail; NULL unless registry.http_auth is basic and the
 * request has readable credentials.
 */
char *
http_auth_basic_user(struct MHD_Connection *conn)
{
	BasicCredentials cred;

	if (registry_http_auth != HTTP_AUTH_BASIC || !read_basic_credentials(conn, &cred))
		return NULL;
	return pstrdup(cred.user);
}

/*
 * Verify Basic credentials as a PostgreSQL login of the role from the
 * peer to registry.database would be, inside a transaction: the
 * pg_hba.conf line that applies (http_hba.c), then a superuser refused
 * before its password is looked at (as a wrong password is), then the password (unless
 * remembered as verified; a peer past its allowance of failures gets 429
 * without a check, http_throttle.c), then LOGIN and CONNECT on the
 * database.  The role's OID on success; else InvalidOid with the refusal
 * set: 401 whatever the reason, with the same body, so the answer does
 * not tell a wrong password from an unknown role.
 */
static Oid
verify_basic(struct MHD_Connection *conn, const BasicCredentials *cred, HttpRefusal *refusal)
{
	const struct sockaddr *peer = peer_address(conn);
	HeapTuple	tuple;
	Oid			role = InvalidOid;
	bool		canlogin = false;
	bool		super = false;
	HttpHbaMatch match;
	const char *why;
	char	   *shadow;
	const char *detail = NULL;
	uint8		password_hash[PG_SHA256_DIGEST_LENGTH];
	uint8		verifier_hash[PG_SHA256_DIGEST_LENGTH];

	refuse(refusal, 401, "Unauthorized", true);
	tuple = SearchSysCache1(AUTHNAME, PointerGetDatum(cred->user));
	if (HeapTupleIsValid(tuple))
	{
		Form_pg_authid form = (Form_pg_authid) GETSTRUCT(tuple);

		role = form->oid;
		canlogin = form->rolcanlogin;
		super = form->rolsuper;
		ReleaseSysCache(tuple);
	}

	http_hba_match(peer, http_tls_serving(), cred->user, role, &match);
	why = http_hba_refusal(&match);
	if (why)
	{
		log_refusal(conn, cred->user, why);
		return InvalidOid;
	}
	if (super)
	{
		/*
		 * Refused as a wrong password is, at its cost and against the peer's
		 * allowance, so the answer tells neither the password nor that the
		 * role is a superuser.
		 */
		if (!http_throttle_allows(peer, http_peer_text(conn)))
		{
			refuse(refusal, 429, "Too Many Requests", false);
			return InvalidOid;
		}
		spend_verification(cred->password);
		http_throttle_failed(peer);
		ereport(LOG,
				(errmsg("registry REST API: superuser \"%s\" refused", cred->user),
				 errdetail_log("REST requests never run as a superuser; the password was not checked. Connection from %s.",
							   http_peer_text(conn))));
		return InvalidOid;
	}

	/* before what is remembered: the line's method may refuse the verifier */
	shadow = usable_verifier(cred->user, match.method, &detail);
	if (shadow != NULL)
	{
		salted_hash(cred->password, password_hash);
		salted_hash(shadow, verifier_hash);
	}
	if (shadow == NULL || !recently_verified(cred->user, password_hash, verifier_hash))
	{
		if (!http_throttle_allows(peer, http_peer_text(conn)))
		{
			refuse(refusal, 429, "Too Many Requests", false);
			return InvalidOid;
		}
		if (!check_password(cred->user, shadow, cred->password, &detail))
		{
			http_throttle_failed(peer);
			log_failure(conn, cred->user, detail);
			return InvalidOid;
		}
		remember_verified(cred->user, password_hash, verifier_hash);
	}
	if (!canlogin)
	{
		log_failure(conn, cred->user,
					psprintf("Role \"%s\" is not permitted to log in.", cred->user));
		return InvalidOid;
	}
	if (pg_database_aclcheck(MyDatabaseId, role, ACL_CONNECT) != ACLCHECK_OK)
	{
		log_failure(conn, cred->user,
					psprintf("Role \"%s\" has no CONNECT privilege on database \"%s\".",
							 cred->user, registry_database));
		return InvalidOid;
	}
	return role;
}

/*
 * The anonymous role (registry.http_anonymous_role), inside a transaction,
 * as a login of that role from the peer would be let in: a pg_hba.conf
 * line that is trust or a password method (the request stands for the
 * password), and CONNECT on the database; LOGIN and VALID UNTIL do not
 * apply (the role is taken as SET ROLE takes one).  InvalidOid with a
 * 401 when pg_hba.conf refuses, a 403 when the role is missing, a
 * superuser or without CONNECT.
 */
static Oid
anonymous_role(struct MHD_Connection *conn, HttpRefusal *refusal)
{
	const char *name = registry_http_anonymous_role ? registry_http_anonymous_role : "";
	Oid			role = get_role_oid(name, true);
	HttpHbaMatch match;
	const char *why;

	if (!OidIsValid(role) || superuser_arg(role))
	{
		ereport(LOG,
				(errmsg("registry REST API: anonymous request refused"),
				 errdetail_log(!OidIsValid(role) ?
							   "registry.http_anonymous_role \"%s\" does not exist." :
							   "registry.http_anonymous_role \"%s\" is a superuser, and requests never run as one.",
							   name)));
		refuse(refusal, 403, "Anonymous access is not permitted", false);
		return InvalidOid;
	}
	http_hba_match(peer_address(conn), http_tls_serving(), name, role, &match);
	why = http_hba_refusal(&match);
	if (why)
	{
		ereport(LOG,
				(errmsg("registry REST API: anonymous request from %s refused", http_peer_text(conn)),
				 errdetail_log("%s The request would run as role \"%s\".", why, name)));
		refuse(refusal, 401, "Unauthorized", false);
		return InvalidOid;
	}
	if (pg_database_aclcheck(MyDatabaseId, role, ACL_CONNECT) != ACLCHECK_OK)
	{
		ereport(LOG,
				(errmsg("registry REST API: anonymous request refused"),
				 errdetail_log("registry.http_anonymous_role \"%s\" has no CONNECT privilege on database \"%s\".",
							   name, registry_database)));
		refuse(refusal, 403, "Anonymous access is not permitted", false);
		return InvalidOid;
	}
	return role;
}

/* The request's role, in the caller's transaction (see http_auth_identify). */
static Oid
identify(struct MHD_Connection *conn, HttpRefusal *refusal)
{
	BasicCredentials cred;

	if (registry_http_auth == HTTP_AUTH_BASIC)
	{
		if (!read_basic_credentials(conn, &cred))
		{
			refuse(refusal, 401, "Unauthorized", true);
			return InvalidOid;
		}
		return verify_basic(conn, &cred, refusal);
	}
	if (!registry_http_anonymous_remote && !peer_is_loopback(conn))
	{
		ereport(LOG,
				(errmsg("registry REST API: anonymous request from %s refused", http_peer_text(conn)),
				 errdetail_log("Anonymous requests are served from loopback addresses only unless registry.http_anonymous_remote is on.")));
		refuse(refusal, 401, "Unauthorized", false);
		return InvalidOid;
	}
	return anonymous_role(conn, refusal);
}

/* http_auth_identify's question and answer, and what follows in its transaction */
typedef struct IdentifyStep
{
	struct MHD_Connection *conn;
	HttpRefusal *refusal;
	Oid			role;
	HttpAuthThen then;
	void	   *then_arg;
} IdentifyStep;

/*
 * identify(), then the caller's step, in the transaction just started;
 * committed here unless the step goes on in it.
 */
static void
identify_step(IdentifyStep *st)
{
	st->role = identify(st->conn, st->refusal);
	if (!OidIsValid(st->role) || !st->then || !st->then(st->role, st->then_arg))
		CommitTransactionCommand();
}

/*
 * Decide the role a request runs as, in a transaction started here, and
 * run then(role, then_arg) in it too when the role may go on (a cached
 * answer is looked up and its route's privilege checked there, so a
 * cached read takes one transaction).  When then() returns true the
 * transaction is left open for the caller: the route runs in it, so an
 * uncached request takes one transaction too; else it is committed.
 * False with the refusal (401 or 403, or 500 if the catalogs failed) set
 * when the request may not run, and no transaction open.
 */
bool
http_auth_identify(struct MHD_Connection *conn, Oid *role, HttpRefusal *refusal,
				   HttpAuthThen then, void *then_arg)
{
	IdentifyStep st = {conn, refusal, InvalidOid, then, then_arg};
	MemoryContext oldcxt = CurrentMemoryContext;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PG_TRY();
	{
		identify_step(&st);
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(oldcxt);
		EmitErrorReport();
		FlushErrorState();
		AbortCurrentTransaction();
		st.role = InvalidOid;
		refusal->status = 500;
		refusal->error_code = 50001;
		refusal->message = confluent_fixed_text(CW_STORE_ERROR);
		refusal->challenge = false;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(oldcxt);
	*role = st.role;
	return OidIsValid(*role);
}

/*
 * Run the rest of the current transaction as role (saving who ran it); an
 * abort restores the worker's own role, http_auth_restore() does after a
 * commit.
 */
void
http_auth_become(Oid role, HttpRoleSave *save)
{
	GetUserIdAndSecContext(&save->userid, &save->sec_context);
	SetUserIdAndSecContext(role, save->sec_context | SECURITY_LOCAL_USERID_CHANGE);
}

/* Back to the worker's own role. */
void
http_auth_restore(const HttpRoleSave *save)
{
	SetUserIdAndSecContext(save->userid, save->sec_context);
}

/*
 * At the worker's start and after each reload: read pg_hba.conf again,
 * and say in the log who requests run as when that changed.
 */
void
http_auth_log_mode(void)
{
	static int	logged_mode = -1;
	static bool logged_remote = false;
	static char logged_role[NAMEDATALEN] = "";
	const char *role = registry_http_anonymous_role ? registry_http_anonymous_role : "";

	http_hba_reload();
	if (logged_mode == registry_http_auth &&
		(registry_http_auth == HTTP_AUTH_BASIC ||
		 (logged_remote == registry_http_anonymous_remote && strcmp(logged_role, role) == 0)))
		return;
	logged_mode = registry_http_auth;
	logged_remote = registry_http_anonymous_remote;
	strlcpy(logged_role, role, NAMEDATALEN);
	if (registry_http_auth == HTTP_AUTH_BASIC)
		ereport(LOG,
				(errmsg("registry REST API requires HTTP Basic authentication against PostgreSQL roles"),
				 errdetail("Requests run as the authenticated role; superusers are refused.")));
	else if (registry_http_anonymous_remote)
		ereport(LOG,
				(errmsg("registry REST API serves anonymous requests as role \"%s\" from any address",
						role),
				 errhint("Set registry.http_auth = basic to require passwords.")));
	else
		ereport(LOG,
				(errmsg("registry REST API serves anonymous requests as role \"%s\" from loopback addresses only",
						role),
				 errdetail("Requests from other addresses get 401 unless registry.http_anonymous_remote is on."),
				 errhint("Every local user of the host can use the API as that role; set registry.http_auth = basic to require passwords.")));
}
