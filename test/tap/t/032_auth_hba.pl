# An HTTP login follows PostgreSQL's rules for a login of the same role
# from the same peer to registry.database: the pg_hba.conf line that
# applies (reject, no line, hostssl/hostnossl, host names, methods the
# REST API cannot perform, scram-sha-256 and md5 verifiers, hostssl over
# HTTPS), CONNECT on
# the database, LOGIN and VALID UNTIL; a superuser is refused before its
# password is looked at; a wrong password and an unknown role answer
# alike; a peer flooding wrong passwords is answered 429 without a check
# while other peers are served; anonymous requests follow pg_hba.conf too.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use File::Temp qw(tempdir);
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $tmp = tempdir(CLEANUP => 1);

# one worker, so that what a worker remembers and counts is seen by every
# request
my $node = registry_node('hba',
	conf => "registry.http_auth = basic\nregistry.http_workers = 1\n"
	  . "listen_addresses = '127.0.0.1'\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');
$node->safe_psql('postgres', q{
	CREATE ROLE reader LOGIN PASSWORD 'reader-pw' IN ROLE registry_reader;
	SET password_encryption = 'md5';
	CREATE ROLE writer LOGIN PASSWORD 'writer-pw' IN ROLE registry_writer;
	RESET password_encryption;
	CREATE ROLE mdr LOGIN PASSWORD 'mdr-pw' IN ROLE registry_reader;
	CREATE ROLE nologin NOLOGIN PASSWORD 'nologin-pw' IN ROLE registry_reader;
	CREATE ROLE expired LOGIN PASSWORD 'expired-pw' VALID UNTIL '2001-01-01' IN ROLE registry_reader;
	CREATE ROLE fresh LOGIN PASSWORD 'fresh-pw' IN ROLE registry_reader;
	CREATE ROLE boss LOGIN SUPERUSER PASSWORD 'boss-pw';
});

# a request with credentials from a source address (undef: the default);
# returns (status, body, response headers)
sub call
{
	my ($user, $password, $from, $path) = @_;
	my $headers = "$tmp/headers";
	unlink $headers;
	my @args = ('-D', $headers);
	push @args, '-u', "$user:$password" if defined $user;
	push @args, '--interface', $from if defined $from;
	my ($status, $out) = rest($node, 'GET', $path // '/subjects', undef, @args);
	my $h = -f $headers ? slurp_file($headers) : '';
	return ($status, $out, $h);
}

# the status of one request
sub status_of
{
	my ($status) = call(@_);
	return $status;
}

# poll until check() is true (or 10 s): the worker reads pg_hba.conf again
# after the reload has reached it
sub eventually
{
	my ($check) = @_;
	for (my $i = 0; $i < 100; $i++)
	{
		return 1 if $check->();
		select(undef, undef, undef, 0.1);
	}
	return 0;
}

# pg_hba.conf: a local trust line (for the test's own psql) and these
# lines, then a reload, until the worker has read them
sub set_hba
{
	my @lines = @_;
	my $file = $node->data_dir . '/pg_hba.conf';
	my $offset = -s $node->logfile;
	open(my $fh, '>', $file) or die "could not write $file: $!";
	print $fh join("\n", 'local all all trust', @lines), "\n";
	close($fh);
	$node->reload;
	$node->wait_for_log(qr/registry REST API worker reloaded its configuration/, $offset);
}

ok(eventually(sub { status_of('reader', 'reader-pw') == 200 }), 'reader is served');
is(status_of('mdr', 'mdr-pw'), 200, 'mdr is served under the default pg_hba.conf');

# reject for one role
set_hba('host all mdr 127.0.0.1/32 reject', 'host all all 127.0.0.0/8 trust');
ok(eventually(sub { status_of('mdr', 'mdr-pw') == 401 }),
	'a reject line for the role and peer: its right password answers 401');
is(status_of('reader', 'reader-pw'), 200, '  ... other roles are still served');
like(slurp_file($node->logfile), qr/login refused for user "mdr".*\n.*pg_hba.conf line 2 rejects the connection/,
	'  ... the log says which line refused');

# no line for the peer
set_hba('host all all 10.0.0.0/8 trust');
ok(eventually(sub { status_of('reader', 'reader-pw') == 401 }),
	'no pg_hba.conf line for the peer: 401');
like(slurp_file($node->logfile), qr/No pg_hba.conf line matches the peer/, '  ... said in the log');

# a line for another database only
set_hba('host otherdb all 127.0.0.1/32 trust');
ok(eventually(sub { status_of('reader', 'reader-pw') == 401 }),
	'a line for another database does not let the request in');

# hostssl and hostnossl follow whether the HTTP connection is TLS
set_hba('hostssl all all 127.0.0.1/32 trust');
ok(eventually(sub { status_of('reader', 'reader-pw') == 401 }),
	'a hostssl line does not take a plain HTTP request');
set_hba('hostnossl all all 127.0.0.1/32 trust');
ok(eventually(sub { status_of('reader', 'reader-pw') == 200 }),
	'a hostnossl line does');

# +group, samehost
set_hba('host all +registry_writer 127.0.0.1/32 reject', 'host all all samehost trust');
ok(eventually(sub { status_of('writer', 'writer-pw') == 401 }),
	'a reject line for a group refuses its member');
is(status_of('reader', 'reader-pw'), 200, '  ... a samehost line takes the loopback peer');

# the method decides
set_hba('host all all 127.0.0.1/32 md5');
ok(eventually(sub { status_of('writer', 'writer-pw') == 200 }), 'md5: the md5 verifier is accepted');
is(status_of('reader', 'reader-pw'), 200, '  ... and a SCRAM one');
set_hba('host all all 127.0.0.1/32 scram-sha-256');
ok(eventually(sub { status_of('writer', 'writer-pw') == 401 }),
	'scram-sha-256: a role with an md5 verifier is refused, as PostgreSQL refuses it, though its password was just verified');
is(status_of('reader', 'reader-pw'), 200, '  ... a SCRAM verifier is accepted');
set_hba('host all all 127.0.0.1/32 ident');
ok(eventually(sub { status_of('reader', 'reader-pw') == 401 }),
	'ident, which the REST API cannot perform: 401');
like(slurp_file($node->logfile), qr/asks for "ident" authentication, which the REST API cannot perform/,
	'  ... said in the log');
set_hba('host all all 127.0.0.1/32 scram-sha-256 clientcert=verify-full');
ok(eventually(sub { status_of('reader', 'reader-pw') == 401 }),
	'a line asking for a client certificate: 401');
set_hba('host all all localhost trust');
ok(eventually(sub { status_of('reader', 'reader-pw') == 401 }),
	'a line naming a host is not resolved: 401');
like(slurp_file($node->logfile), qr/names a host, which the REST API does not resolve/,
	'  ... said in the log');

# an unparsable file keeps the rules read before
set_hba('host all all 127.0.0.0/8 trust');
ok(eventually(sub { status_of('reader', 'reader-pw') == 200 }), 'back to a trust line for loopback');
my $offset = -s $node->logfile;
set_hba('host all all 127.0.0.0/8 no-such-method');
ok(eventually(sub { slurp_file($node->logfile, $offset) =~ /keeps the pg_hba.conf rules it read before/ }),
	'a file that does not load: the worker says it keeps its rules');
is(status_of('reader', 'reader-pw'), 200, '  ... and keeps serving by them');
set_hba('host all all 127.0.0.0/8 trust');

# the same decisions as PostgreSQL's own: a psql login over TCP from the
# same address with the same password, under each of these files; HTTP
# never lets in a role that psql cannot log in as, and with a password
# method they agree (trust lets psql in without a password; HTTP Basic
# checks it anyway, and the passwords here are right)
use IPC::Run;

# can the role log in with psql over TCP from 127.0.0.1?
sub psql_login
{
	my ($user, $password) = @_;
	my ($out, $err) = ('', '');
	my $connstr = 'host=127.0.0.1 port=' . $node->port
	  . " dbname=postgres user=$user password=$password sslmode=disable";
	IPC::Run::run([ 'psql', '-XAtq', '-d', $connstr, '-c', 'SELECT 1' ],
		'>', \$out, '2>', \$err);
	return ($? == 0 && $out =~ /^1$/m) ? 1 : 0;
}

my @files = (
	[ 'host all all 127.0.0.1/32 scram-sha-256' ],
	[ 'host all all 127.0.0.1/32 md5' ],
	[ 'host all all 127.0.0.1/32 password' ],
	[ 'host all all 127.0.0.1/32 reject' ],
	[ 'host all mdr 127.0.0.1/32 reject', 'host all all 127.0.0.1/32 scram-sha-256' ],
	[ 'host all +registry_writer 127.0.0.1/32 reject', 'host all all samenet md5' ],
	[ 'host postgres reader,writer 127.0.0.0/8 password' ],
	[ 'host otherdb all 127.0.0.1/32 trust', 'host all all 10.0.0.0/8 trust' ],
	[ 'hostnossl all all 127.0.0.1/32 md5' ],
	[ 'hostssl all all 127.0.0.1/32 md5' ],
	[ 'host sameuser all 127.0.0.1/32 md5' ],
	[ 'host all all 127.0.0.1/32 trust' ],);
my %passwords = (reader => 'reader-pw', writer => 'writer-pw', mdr => 'mdr-pw',
	nologin => 'nologin-pw');
my ($agree, $more_lenient) = (0, '');
foreach my $file (@files)
{
	set_hba(@$file);
	my $trust = grep { /trust$/ } @$file;
	foreach my $user (sort keys %passwords)
	{
		my $psql = psql_login($user, $passwords{$user});
		my $http = status_of($user, $passwords{$user}) == 200 ? 1 : 0;
		$more_lenient .= "[@$file] $user: HTTP 200, psql refused\n" if $http && !$psql;
		$agree++ if $http == $psql || $trust;
	}
}
is($more_lenient, '', 'HTTP never lets in a login that psql is refused');
is($agree, scalar(@files) * scalar(keys %passwords),
	'  ... and under password methods they decide alike');
set_hba('host all all 127.0.0.0/8 trust');

# CONNECT, LOGIN, VALID UNTIL
$node->safe_psql('postgres', q{
	REVOKE CONNECT ON DATABASE postgres FROM PUBLIC;
	GRANT CONNECT ON DATABASE postgres TO registry_http, reader;
});
is(status_of('writer', 'writer-pw'), 401, 'a role without CONNECT on the database: 401');
is(psql_login('writer', 'writer-pw'), 0, '  ... as psql is refused');
is(status_of('reader', 'reader-pw'), 200, '  ... a role with it is served');
like(slurp_file($node->logfile), qr/Role "writer" has no CONNECT privilege on database "postgres"/,
	'  ... said in the log');
$node->safe_psql('postgres', 'GRANT CONNECT ON DATABASE postgres TO PUBLIC');
is(status_of('writer', 'writer-pw'), 200, '  ... and served again once granted');
is(status_of('nologin', 'nologin-pw'), 401, 'NOLOGIN with its password: 401');
is(status_of('expired', 'expired-pw'), 401, 'past VALID UNTIL with its password: 401');

# a superuser is refused before the password is looked at
my ($s1, $b1) = call('boss', 'boss-pw');
my ($s2, $b2) = call('boss', 'not-boss-pw');
my ($s3, $b3) = call('ghost', 'ghost-pw');
is("$s1 $b1", '401 {"error_code":401,"message":"Unauthorized"}',
	'a superuser with its password: 401');
is("$s2 $b2", "$s1 $b1", '  ... and with a wrong one: the same answer');
is("$s3 $b3", "$s1 $b1", '  ... as an unknown role gets: the answer does not tell superusers apart');

# a wrong password and an unknown role answer alike
my ($ws, $wb, $wh) = call('reader', 'wrong-pw');
my ($us, $ub, $uh) = call('ghost', 'ghost-pw');
is($ws, 401, 'a wrong password: 401');
is("$us $ub", "$ws $wb", '  ... an unknown role: the same status and body');
my ($wa) = $wh =~ /^(WWW-Authenticate:.*?)\r?$/mi;
my ($ua) = $uh =~ /^(WWW-Authenticate:.*?)\r?$/mi;
ok(defined $wa && defined $ua && $wa eq $ua, '  ... and the same challenge');
my ($ms, $mb) = call('writer', 'wrong-pw');
is("$ms $mb", "$ws $wb", '  ... a wrong password for an md5 role too');

# a peer flooding wrong passwords is answered 429 without a check, and the
# others are served
ok(eventually(sub { status_of('reader', 'reader-pw', '127.0.0.1') == 200 }),
	'reader from 127.0.0.1 before the flood');
my %seen;
for (1 .. 30)
{
	$seen{ status_of('reader', "flood-$_", '127.0.0.7') }++;
}
ok($seen{401} && $seen{429}, 'wrong passwords from 127.0.0.7: 401 first, then 429')
  or diag(explain \%seen);
my ($fs, $fb, $fh) = call('fresh', 'fresh-pw', '127.0.0.7');
is("$fs $fb", '429 {"error_code":429,"message":"Too Many Requests"}',
	'  ... then a right password not checked before is answered 429 too');
like($fh, qr/^Retry-After: \d+/mi, '  ... with Retry-After');
# (127.0.0.8: 127.0.0.1 spent part of its own allowance on the wrong
# passwords above, and how much it has regained depends on the clock)
is(status_of('fresh', 'fresh-pw', '127.0.0.8'), 200, 'the same login from another peer is served');
is(status_of('reader', 'reader-pw', '127.0.0.7'), 200,
	'a login verified a moment ago is served to the throttled peer');
like(slurp_file($node->logfile), qr/too many failed logins from 127\.0\.0\.7/,
	'the throttled peer is logged');

# over HTTPS, hostssl lines apply and hostnossl lines do not
my $pgdata = $node->data_dir;
system('openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256',
	'-nodes', '-days', '2', '-subj', '/CN=localhost', '-keyout', "$pgdata/registry.key",
	'-out', "$pgdata/registry.crt") == 0
  or die 'openssl could not make a certificate';
chmod(0600, "$pgdata/registry.key");
$offset = -s $node->logfile;
$node->append_conf('postgresql.conf',
	"registry.http_tls_cert_file = 'registry.crt'\nregistry.http_tls_key_file = 'registry.key'\n");
set_hba('hostssl all all 127.0.0.1/32 scram-sha-256');
$node->wait_for_log(qr/registry REST API listening on .* over HTTPS/, $offset);

# the status of one request over HTTPS (the certificate not verified)
sub https_status
{
	my ($user, $password) = @_;
	my ($status) = curl_rest('-k', '-u', "$user:$password",
		'https://127.0.0.1:' . http_port($node) . '/subjects');
	return $status;
}
ok(eventually(sub { https_status('reader', 'reader-pw') == 200 }),
	'over HTTPS a hostssl line lets the request in');
is(https_status('reader', 'wrong-pw'), 401, '  ... and checks the password');
set_hba('hostnossl all all 127.0.0.1/32 trust');
is(https_status('reader', 'reader-pw'), 401, 'over HTTPS a hostnossl line does not');
$offset = -s $node->logfile;
$node->append_conf('postgresql.conf',
	"registry.http_tls_cert_file = ''\nregistry.http_tls_key_file = ''\n");
set_hba('host all all 127.0.0.0/8 trust');
$node->wait_for_log(qr/registry REST API listening on [^\n]*:\d+\n/, $offset);
ok(eventually(sub { status_of('reader', 'reader-pw') == 200 }), 'plain HTTP again');

# anonymous requests: pg_hba.conf for the anonymous role, and CONNECT
$node->append_conf('postgresql.conf', "registry.http_auth = none\n");
set_hba('host all all 127.0.0.0/8 scram-sha-256');
ok(eventually(sub { status_of() == 200 }),
	'anonymous from loopback under a password line: served (the request stands for the password)');
set_hba('host all registry_admin 127.0.0.1/32 reject', 'host all all 127.0.0.0/8 trust');
ok(eventually(sub { status_of() == 401 }),
	'anonymous where pg_hba.conf rejects the anonymous role: 401');
like(slurp_file($node->logfile), qr/anonymous request from 127\.0\.0\.1 refused.*\n.*rejects the connection/,
	'  ... said in the log');
set_hba('host all all 127.0.0.0/8 trust');
ok(eventually(sub { status_of() == 200 }), 'anonymous served again');
$node->safe_psql('postgres', q{
	REVOKE CONNECT ON DATABASE postgres FROM PUBLIC;
	GRANT CONNECT ON DATABASE postgres TO registry_http;
});
is(status_of(), 403, 'anonymous role without CONNECT: 403');
$node->safe_psql('postgres', 'GRANT CONNECT ON DATABASE postgres TO PUBLIC');
$node->stop;

done_testing();
