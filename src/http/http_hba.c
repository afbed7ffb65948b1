/*-------------------------------------------------------------------------
 *
 * http_hba.c
 *	  pg_hba.conf for the REST API: the worker reads the file itself (the
 *	  postmaster's parsed copy is gone once a background worker starts)
 *	  with PostgreSQL's own tokenizer and line parser, again after each
 *	  reload, and finds the first line that applies to an HTTP request as
 *	  it would to a TCP login from the same peer to registry.database.
 *
 * A line applies as PostgreSQL decides: its connection type (host, and
 * hostssl or hostnossl as the HTTP connection is TLS or not; hostgssenc
 * never, local never), its address (a CIDR mask, all, samehost or
 * samenet), its database (all, sameuser, samerole, or the name) and its
 * role (all, +group membership, or the name).  A line naming a host name
 * instead of an address is not resolved (a lookup would block the
 * worker): when it is reached for the request's database and role, the
 * request is refused.  A file that does not load keeps the rules read
 * before; with none read yet, every request is refused.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include "libpq/hba.h"
#include "libpq/ifaddr.h"
#include "storage/fd.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "http.h"
#include "http_internal.h"

/* the rules in force: HbaLine's, in hba_context */
static MemoryContext hba_context = NULL;
static List *hba_lines = NIL;
static bool hba_loaded = false;

/* Read pg_hba.conf into a new context; NULL (logged) if it does not load. */
static MemoryContext
read_rules(List **lines)
{
	MemoryContext cxt;
	MemoryContext oldcxt;
	MemoryContext tokens;
	FILE	   *file;
	List	   *tok_lines = NIL;
	ListCell   *lc;
	bool		ok = true;

	*lines = NIL;
	file = AllocateFile(HbaFileName, "r");
	if (file == NULL)
	{
		ereport(LOG,
				(errcode_for_file_access(),
				 errmsg("registry REST API could not open configuration file \"%s\": %m",
						HbaFileName)));
		return NULL;
	}
	cxt = AllocSetContextCreate(TopMemoryContext, "registry REST API hba rules",
								ALLOCSET_SMALL_SIZES);
	oldcxt = MemoryContextSwitchTo(cxt);
	tokens = tokenize_auth_file(HbaFileName, file, &tok_lines, LOG);
	FreeFile(file);
	foreach(lc, tok_lines)
	{
		TokenizedAuthLine *tok = (TokenizedAuthLine *) lfirst(lc);
		HbaLine    *line = NULL;

		/* the parser's own messages are the postmaster's to log */
		if (tok->err_msg == NULL)
			line = parse_hba_line(tok, DEBUG1);
		if (line == NULL)
		{
			ereport(LOG,
					(errcode(ERRCODE_CONFIG_FILE_ERROR),
					 errmsg("registry REST API could not use line %d of configuration file \"%s\"",
							tok->line_num, HbaFileName),
					 errdetail("%s", tok->err_msg ? tok->err_msg : "The line is invalid.")));
			ok = false;
			continue;
		}
		*lines = lappend(*lines, line);
	}
	MemoryContextDelete(tokens);
	MemoryContextSwitchTo(oldcxt);
	if (ok && *lines == NIL)
	{
		ereport(LOG,
				(errcode(ERRCODE_CONFIG_FILE_ERROR),
				 errmsg("registry REST API found no entries in configuration file \"%s\"",
						HbaFileName)));
		ok = false;
	}
	if (!ok)
	{
		MemoryContextDelete(cxt);
		*lines = NIL;
		return NULL;
	}
	return cxt;
}

/*
 * Read pg_hba.conf again (at the worker's start and after a reload); a
 * file that does not load leaves the rules in force, as the postmaster
 * does.
 */
void
http_hba_reload(void)
{
	MemoryContext cxt;
	List	   *lines;

	cxt = read_rules(&lines);
	if (cxt == NULL)
	{
		ereport(LOG,
				(errmsg(hba_loaded ?
						"registry REST API keeps the pg_hba.conf rules it read before" :
						"registry REST API refuses every request until pg_hba.conf loads")));
		return;
	}
	if (hba_context)
		MemoryContextDelete(hba_context);
	hba_context = cxt;
	hba_lines = lines;
	hba_loaded = true;
}

/* Is the token this keyword, unquoted? */
static bool
is_keyword(const AuthToken *tok, const char *keyword)
{
	return !tok->quoted && strcmp(tok->string, keyword) == 0;
}

/* Is role (InvalidOid: none) a member of the role named group, directly or not? */
static bool
member_of(Oid role, const char *group)
{
	Oid			group_oid;

	if (!OidIsValid(role))
		return false;
	group_oid = get_role_oid(group, true);
	return OidIsValid(group_oid) && is_member_of_role_nosuper(role, group_oid);
}

/* Does the line's database column name this database for this role? */
static bool
database_matches(const HbaLine *line, const char *database, const char *role_name, Oid role)
{
	ListCell   *lc;

	foreach(lc, line->databases)
	{
		AuthToken  *tok = (AuthToken *) lfirst(lc);

		if (is_keyword(tok, "all"))
			return true;
		if (is_keyword(tok, "sameuser"))
		{
			if (strcmp(database, role_name) == 0)
				return true;
		}
		else if (is_keyword(tok, "samerole") || is_keyword(tok, "samegroup"))
		{
			if (member_of(role, database))
				return true;
		}
		else if (is_keyword(tok, "replication"))
			continue;
		else if (strcmp(tok->string, database) == 0)
			return true;
	}
	return false;
}

/* Does the line's user column name this role? */
static bool
role_matches(const HbaLine *line, const char *role_name, Oid role)
{
	ListCell   *lc;

	foreach(lc, line->roles)
	{
		AuthToken  *tok = (AuthToken *) lfirst(lc);

		if (!tok->quoted && tok->string[0] == '+')
		{
			if (member_of(role, tok->string + 1))
				return true;
		}
		else if (is_keyword(tok, "all") || strcmp(tok->string, role_name) == 0)
			return true;
	}
	return false;
}

/* what samehost / samenet look for among the host's interfaces */
typedef struct OwnNetwork
{
	const struct sockaddr_storage *peer;
	bool		same_host;
	bool		found;
} OwnNetwork;

/* pg_foreach_ifaddr's callback: is the peer this interface, or on its network? */
static void
own_network_callback(struct sockaddr *addr, struct sockaddr *netmask, void *arg)
{
	OwnNetwork *own = (OwnNetwork *) arg;
	struct sockaddr_storage mask;

	if (own->found || addr->sa_family != own->peer->ss_family)
		return;
	if (own->same_host)
	{
		/* no bit count: a mask of all ones */
		if (pg_sockaddr_cidr_mask(&mask, NULL, addr->sa_family) < 0)
			return;
		own->found = pg_range_sockaddr(own->peer, (struct sockaddr_storage *) addr, &mask);
	}
	else
		own->found = pg_range_sockaddr(own->peer, (struct sockaddr_storage *) addr,
									   (struct sockaddr_storage *) netmask);
}

/* Does the line's address column take the peer (a host name aside)? */
static bool
address_matches(const HbaLine *line, const struct sockaddr_storage *peer)
{
	OwnNetwork	own = {peer, false, false};

	switch (line->ip_cmp_method)
	{
		case ipCmpAll:
			return true;
		case ipCmpMask:
			return line->addr.ss_family == peer->ss_family &&
				pg_range_sockaddr(peer, &line->addr, &line->mask);
		case ipCmpSameHost:
		case ipCmpSameNet:
			own.same_host = (line->ip_cmp_method == ipCmpSameHost);
			if (pg_foreach_ifaddr(own_network_callback, &own) < 0)
				return false;
			return own.found;
	}
	return false;
}

/* Can a TCP connection, TLS or not, be of the line's type? */
static bool
conntype_matches(const HbaLine *line, bool tls)
{
	switch (line->conntype)
	{
		case ctHost:
		case ctHostNoGSS:
			return true;
		case ctHostSSL:
			return tls;
		case ctHostNoSSL:
			return !tls;
		case ctLocal:
		case ctHostGSS:
			return false;
	}
	return false;
}

/*
 * The first pg_hba.conf line that applies to a request from peer (a v4
 * address mapped into IPv6 taken as IPv4), over TLS or not, to
 * registry.database as role_name (role: its OID, InvalidOid for an
 * unknown role).  Looks roles up: in a transaction.
 */
void
http_hba_match(const struct sockaddr *peer, bool tls, const char *role_name, Oid role,
			   HttpHbaMatch *match)
{
	struct sockaddr_storage addr;
	const char *database = registry_database ? registry_database : "";
	ListCell   *lc;

	memset(match, 0, sizeof(*match));
	match->method = uaImplicitReject;
	match->loaded = hba_loaded;
	if (!hba_loaded || peer == NULL)
		return;
	memset(&addr, 0, sizeof(addr));
	if (peer->sa_family == AF_INET)
		memcpy(&addr, peer, sizeof(struct sockaddr_in));
	else if (peer->sa_family == AF_INET6)
	{
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *) peer;

		if (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr))
		{
			struct sockaddr_in *sin = (struct sockaddr_in *) &addr;

			sin->sin_family = AF_INET;
			memcpy(&sin->sin_addr, &sin6->sin6_addr.s6_addr[12], 4);
			sin->sin_port = sin6->sin6_port;
		}
		else
			memcpy(&addr, peer, sizeof(struct sockaddr_in6));
	}
	else
		return;

	foreach(lc, hba_lines)
	{
		HbaLine    *line = (HbaLine *) lfirst(lc);

		if (!conntype_matches(line, tls))
			continue;
		if (line->hostname == NULL && !address_matches(line, &addr))
			continue;
		if (!database_matches(line, database, role_name, role) ||
			!role_matches(line, role_name, role))
			continue;
		match->line = line->linenumber;
		match->method = line->auth_method;
		match->client_cert = (line->clientcert != clientCertOff);
		match->hostname = (line->hostname != NULL);
		return;
	}
}

/*
 * Why the matched line refuses a request, for the log; NULL when it lets
 * a request in: a password method (password, md5, scram-sha-256) or
 * trust, without a client certificate and not by host name.  With Basic
 * credentials the password is checked in every case; an anonymous request
 * stands for its password.
 */
const char *
http_hba_refusal(const HttpHbaMatch *match)
{
	if (!match->loaded)
		return "pg_hba.conf could not be loaded.";
	if (match->line == 0)
		return "No pg_hba.conf line matches the peer, the database and the role.";
	if (match->hostname)
		return psprintf("pg_hba.conf line %d names a host, which the REST API does not resolve.",
						match->line);
	switch (match->method)
	{
		case uaTrust:
		case uaPassword:
		case uaMD5:
		case uaSCRAM:
			if (match->client_cert)
				return psprintf("pg_hba.conf line %d asks for a client certificate, which the REST API does not take.",
								match->line);
			return NULL;
		case uaReject:
		case uaImplicitReject:
			return psprintf("pg_hba.conf line %d rejects the connection.", match->line);
		default:
			return psprintf("pg_hba.conf line %d asks for \"%s\" authentication, which the REST API cannot perform.",
							match->line, hba_authname(match->method));
	}
}
