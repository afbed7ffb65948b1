# Authentication and authorisation of the REST API through PostgreSQL
# roles: HTTP Basic against the roles' SCRAM and md5 verifiers, requests
# run as the role so GRANTs decide, anonymous access only from loopback
# peers, and workers that connect as an unprivileged role.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use File::Temp qw(tempdir);
use MIME::Base64;
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $tmp = tempdir(CLEANUP => 1);
my $schema = '{"schema":"{\"type\":\"string\"}"}';
my $schema2 = '{"schema":"{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}"}';

# a request with credentials (user undef: none); returns (status, body,
# response headers)
sub call
{
	my ($node, $method, $path, $body, $user, $password, @extra) = @_;
	my $headers = "$tmp/headers";
	unlink $headers;
	push @extra, '-u', "$user:$password" if defined $user;
	my ($status, $out) = rest($node, $method, $path, $body, '-D', $headers, @extra);
	my $h = -f $headers ? slurp_file($headers) : '';
	return ($status, $out, $h);
}

# poll until the workers answer anything at all (or 60 s)
sub wait_for_answer
{
	my ($node) = @_;
	for (my $i = 0; $i < 600; $i++)
	{
		my ($status) = rest($node, 'GET', '/');
		return 1 if $status != 0;
		select(undef, undef, undef, 0.1);
	}
	return 0;
}

# ---------------------------------------------------------------------------
# registry.http_auth = basic
# ---------------------------------------------------------------------------
my $node = registry_node('basic', conf => "registry.http_auth = basic\n");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');
$node->safe_psql('postgres', q{
	CREATE ROLE reader LOGIN PASSWORD 'reader-pw' IN ROLE registry_reader;
	SET password_encryption = 'md5';
	CREATE ROLE writer LOGIN PASSWORD 'writer-pw' IN ROLE registry_writer;
	RESET password_encryption;
	CREATE ROLE admin LOGIN PASSWORD 'admin-pw' IN ROLE registry_admin;
	CREATE ROLE nologin NOLOGIN PASSWORD 'nologin-pw' IN ROLE registry_reader;
	CREATE ROLE expired LOGIN PASSWORD 'expired-pw' VALID UNTIL '2001-01-01' IN ROLE registry_reader;
	CREATE ROLE nopassword LOGIN IN ROLE registry_reader;
	CREATE ROLE nobody LOGIN PASSWORD 'nobody-pw';
	CREATE ROLE boss LOGIN SUPERUSER PASSWORD 'boss-pw';
});
ok(wait_for_answer($node), 'the REST API answers after start');
like($node->safe_psql('postgres', "SELECT rolpassword FROM pg_authid WHERE rolname = 'reader'"),
	qr/^SCRAM-SHA-256\$/, 'reader has a SCRAM verifier');
like($node->safe_psql('postgres', "SELECT rolpassword FROM pg_authid WHERE rolname = 'writer'"),
	qr/^md5/, 'writer has an md5 verifier');

my ($status, $body, $headers) = call($node, 'GET', '/subjects');
is($status, 401, 'no credentials: 401');
like($headers, qr/^WWW-Authenticate: Basic realm="registry"/mi, '  ... with a Basic challenge');
is($body, '{"error_code":401,"message":"Unauthorized"}', '  ... and Confluent\'s body');

my $log_offset = -s $node->logfile;
($status, $body) = call($node, 'GET', '/subjects', undef, 'reader', 'not-the-password-xyzzy');
is($status, 401, 'wrong password: 401');
($status, $body) = call($node, 'GET', '/subjects', undef, 'ghost', 'ghost-pw-xyzzy');
is($status, 401, 'unknown user: 401');
($status, $body) = call($node, 'GET', '/subjects', undef, 'nologin', 'nologin-pw');
is($status, 401, 'a role without LOGIN: 401');
($status, $body) = call($node, 'GET', '/subjects', undef, 'expired', 'expired-pw');
is($status, 401, 'a role past VALID UNTIL: 401');
($status, $body) = call($node, 'GET', '/subjects', undef, 'nopassword', '');
is($status, 401, 'a role without a password: 401');
($status, $body) = call($node, 'GET', '/subjects', undef, 'boss', 'boss-pw');
is($status, 401, 'a superuser with its password: 401 as a wrong password, requests never run as one');
($status, $body) = call($node, 'GET', '/subjects', undef, undef, undef,
	'-H', 'Authorization: Basic ' . ('A' x 3000));
is($status, 401, 'over-long credentials: 401');
($status, $body) = call($node, 'GET', '/subjects', undef, undef, undef,
	'-H', 'Authorization: Bearer abc');
is($status, 401, 'another scheme: 401');
($status, $body) = call($node, 'GET', '/subjects', undef, undef, undef,
	'-H', 'Authorization: Basic ' . encode_base64('reader:reader-pw', ''),
	'-H', 'Authorization: Basic ' . encode_base64('boss:wrong', ''));
is($status, 401, 'two Authorization headers, the first valid: 401');
($status, $body) = call($node, 'GET', '/subjects', undef, undef, undef,
	'-H', 'Authorization: basic  ' . encode_base64('reader:reader-pw', '') . ' ');
is($status, 200, 'a lower-case scheme and extra spaces are accepted');
my $log = slurp_file($node->logfile, $log_offset);
like($log, qr/password authentication failed for user "reader"/, 'the wrong password is logged');
like($log, qr/password authentication failed for user "ghost".*\n.*Role "ghost" does not exist/,
	'  ... the unknown user too, with why');
like($log, qr/Role "nologin" is not permitted to log in/, '  ... the role without LOGIN');
like($log, qr/User "expired" has an expired password/, '  ... the expired one');
like($log, qr/superuser "boss" refused/, '  ... the superuser');
unlike($log, qr/xyzzy/, '  ... and never a password');

# GRANTs decide
($status, $body) = call($node, 'GET', '/subjects', undef, 'reader', 'reader-pw');
is($status, 200, 'reader reads');
($status, $body) = call($node, 'POST', '/subjects/s-value/versions', $schema, 'reader', 'reader-pw');
is($status, 403, 'reader registering: 403');
is($body, '{"error_code":40301,"message":"User is denied operation Write on Subject: s-value"}',
	'  ... with Confluent\'s body');
($status, $body) = call($node, 'POST', '/subjects/s-value/versions', $schema, 'writer', 'writer-pw');
is($status, 200, 'writer (md5 verifier) registers');
my ($id) = $body =~ /"id":(\d+)/;
($status, $body) = call($node, 'POST', '/subjects/s-value', $schema, 'reader', 'reader-pw');
is($status, 200, 'reader looks up');
($status, $body) = call($node, 'POST', '/compatibility/subjects/s-value/versions/latest',
	$schema2, 'reader', 'reader-pw');
is($status, 200, 'reader tests compatibility');
($status, $body) = call($node, 'PUT', '/config', '{"compatibility":"NONE"}', 'writer', 'writer-pw');
is($status, 403, 'writer changing config: 403');
like($body, qr/^\{"error_code":40301,"message":"User is denied operation AlterCompatibility/,
	'  ... with Confluent\'s body');
($status, $body) = call($node, 'PUT', '/mode/s-value', '{"mode":"READONLY"}', 'writer', 'writer-pw');
is($status, 403, 'writer changing a mode: 403');
($status, $body) = call($node, 'DELETE', '/subjects/s-value/versions/1', undef, 'reader', 'reader-pw');
is($status, 403, 'reader deleting: 403');
($status, $body) = call($node, 'PUT', '/config', '{"compatibility":"NONE"}', 'admin', 'admin-pw');
is($status, 200, 'admin changes config');
is($node->safe_psql('postgres', "SELECT registry.get_compatibility()"), 'NONE', '  ... it is stored');
($status, $body) = call($node, 'GET', '/subjects', undef, 'nobody', 'nobody-pw');
is($status, 403, 'a role without registry grants: 403');

# the GET-by-id cache still asks for the role's right to read
($status, $body) = call($node, 'GET', "/schemas/ids/$id", undef, 'reader', 'reader-pw');
is($status, 200, 'reader reads a schema by id');
($status, $body) = call($node, 'GET', "/schemas/ids/$id", undef, 'reader', 'reader-pw');
is($status, 200, '  ... again, from the cache');
($status, $body) = call($node, 'GET', "/schemas/ids/$id", undef, 'nobody', 'nobody-pw');
is($status, 403, 'a cached schema is not served to a role that may not read it');
($status, $body) = call($node, 'GET', "/schemas/ids/$id", undef, 'nobody', 'bad-pw');
is($status, 401, '  ... nor without the right password');
$node->safe_psql('postgres', 'REVOKE registry_reader FROM reader');
($status, $body) = call($node, 'GET', "/schemas/ids/$id", undef, 'reader', 'reader-pw');
is($status, 403, 'a revoked grant applies at once, cache or not');
$node->safe_psql('postgres', 'GRANT registry_reader TO reader');

# a remembered success does not outlive a password change
($status) = call($node, 'GET', '/subjects', undef, 'reader', 'reader-pw');
is($status, 200, 'reader with its password');
$node->safe_psql('postgres', "ALTER ROLE reader PASSWORD 'reader-pw2'");
($status) = call($node, 'GET', '/subjects', undef, 'reader', 'reader-pw');
is($status, 401, 'the old password fails at once after ALTER ROLE ... PASSWORD');
($status) = call($node, 'GET', '/subjects', undef, 'reader', 'reader-pw2');
is($status, 200, '  ... the new one works');
$node->safe_psql('postgres', "ALTER ROLE reader VALID UNTIL '2001-01-01'");
($status) = call($node, 'GET', '/subjects', undef, 'reader', 'reader-pw2');
is($status, 401, 'a remembered success does not outlive VALID UNTIL');
$node->safe_psql('postgres', "ALTER ROLE reader VALID UNTIL 'infinity'");

# the SQL entry point applies the same route check to its caller
is($node->safe_psql('postgres', q{SET ROLE writer;
	SELECT status || ' ' || response FROM registry.rest('PUT', '/config', NULL, '{"compatibility":"FULL"}')}),
	'403 {"error_code":40301,"message":"User is denied operation AlterCompatibility on Schema Registry"}',
	'registry.rest() as a writer: the route check answers 403');

# a worker's first look at a route's gate, by a role that may not use the
# registry's schema, still answers the route's 403 (not the lookup's
# error); a NOINHERIT member of registry_admin has no admin rights, as
# PostgreSQL's has_privs_of_role decides
$node->safe_psql('postgres',
	"CREATE ROLE noinherit LOGIN NOINHERIT PASSWORD 'noinherit-pw' IN ROLE registry_admin");
$node->restart;
ok(wait_for_answer($node), 'the REST API answers after a restart');
($status, $body) = call($node, 'GET', "/schemas/ids/$id", undef, 'nobody', 'nobody-pw');
is("$status $body",
	'403 {"error_code":40301,"message":"User is denied operation Read on Schema Registry"}',
	'a fresh worker answers a role without grants the route\'s 403');
($status, $body) = call($node, 'PUT', '/config', '{"compatibility":"NONE"}', 'noinherit', 'noinherit-pw');
is("$status $body",
	'403 {"error_code":40301,"message":"User is denied operation AlterCompatibility on Schema Registry"}',
	'a NOINHERIT member of registry_admin: the route\'s 403');
my $cached_ok = 1;
for (1 .. 10)
{
	($status) = call($node, 'GET', "/schemas/ids/$id", undef, 'reader', 'reader-pw2');
	$cached_ok = 0 if $status != 200;
}
ok($cached_ok, 'reader reads a schema by id, from the workers\' caches');
$log_offset = -s $node->logfile;
# a function created anywhere makes the workers look their gates up again
$node->safe_psql('postgres', 'CREATE FUNCTION public.touch_pg_proc() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$');
$cached_ok = 1;
for (1 .. 10)
{
	($status) = call($node, 'GET', "/schemas/ids/$id", undef, 'reader', 'reader-pw2');
	$cached_ok = 0 if $status != 200;
}
ok($cached_ok, 'cached reads after pg_proc changed: 200');
unlike(slurp_file($node->logfile, $log_offset), qr/permission denied for schema registry/,
	'  ... and the workers\' own gate checks raise no error');

# the workers run as registry_http, not as a superuser
is($node->safe_psql('postgres',
		"SELECT string_agg(DISTINCT usename, ',') FROM pg_stat_activity WHERE backend_type = 'registry http'"),
	'registry_http', 'the workers connect as registry_http');
is($node->safe_psql('postgres',
		"SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolbypassrls FROM pg_roles WHERE rolname = 'registry_http'"),
	'f', '  ... a role with no attribute beyond LOGIN');
$node->stop;

# ---------------------------------------------------------------------------
# registry.http_auth = none: anonymous, from loopback peers only
# ---------------------------------------------------------------------------
my $anon = registry_node('anon', safe_defaults => 1,
	conf => "registry.http_listen_addresses = '*'\n");
$anon->start;
# before CREATE EXTENSION the workers' role does not exist: they wait
# quietly, and serve once it does
$anon->wait_for_log(qr/registry REST API waits before connecting as role "registry_http"/);
pass('without the extension the workers say they wait for their role');
my $waits_offset = -s $anon->logfile;
sleep 3;
unlike(slurp_file($anon->logfile, $waits_offset), qr/role "registry_http" does not exist/,
	'  ... and do not retry in a loop');
$anon->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($anon), 'after CREATE EXTENSION the REST API answers');
like(slurp_file($anon->logfile), qr/serves anonymous requests as role "registry_reader" from loopback addresses only/,
	'the worker logs its mode: by default anonymous requests run as registry_reader');
like(slurp_file($anon->logfile), qr/HINT:  Every local user of the host can use the API as that role/,
	'  ... and who may use it');

# safe by default: any local user may read, none may write
$anon->safe_psql('postgres',
	q{SELECT registry.register_schema('d-value', '{"type":"record","name":"D","fields":[]}')});
($status, $body) = rest($anon, 'GET', '/subjects/d-value/versions');
is("$status $body", '200 [1]', 'by default anonymous requests read');
($status, $body) = rest($anon, 'PUT', '/mode', '{"mode":"READONLY"}');
is("$status $body",
	'403 {"error_code":40301,"message":"User is denied operation AlterCompatibility on Schema Registry"}',
	'  ... but may not set the mode');
$anon->safe_psql('postgres', q{SELECT registry.delete_subject('d-value')});
($status, $body) = rest($anon, 'DELETE', '/subjects/d-value?permanent=true');
is("$status $body",
	'403 {"error_code":40301,"message":"User is denied operation Delete on Subject: d-value"}',
	'  ... nor hard-delete a soft-deleted subject');
($status, $body) = rest($anon, 'GET', '/subjects/d-value/versions?deleted=true');
is("$status $body", '200 [1]', '  ... which is still there');
($status, $body) = rest($anon, 'POST', '/subjects/a-value/versions', $schema);
is($status, 403, '  ... nor register');
($status, $body) = rest($anon, 'GET', '/mode');
is("$status $body", '200 {"mode":"READWRITE"}', '  ... and nothing changed');

# the DBA opts in to anonymous writes with one setting
my $optin_offset = -s $anon->logfile;
$anon->append_conf('postgresql.conf', "registry.http_anonymous_role = 'registry_admin'\n");
$anon->reload;
my $optin_logged = 0;
for (my $i = 0; $i < 100 && $optin_logged < 2; $i++)
{
	my @lines = slurp_file($anon->logfile, $optin_offset)
	  =~ /serves anonymous requests as role "registry_admin" from loopback addresses only/g;
	$optin_logged = scalar @lines;
	select(undef, undef, undef, 0.2) if $optin_logged < 2;
}
is($optin_logged, 2, 'opting in: both workers log their new mode after the reload');

($status, $body) = rest($anon, 'POST', '/subjects/a-value/versions', $schema);
is($status, 200, 'anonymous from loopback registers (the quick start)');
($status, $body) = rest($anon, 'PUT', '/config', '{"compatibility":"FULL"}');
is($status, 200, '  ... and configures');

my ($ip) = grep { !/^127\./ } split(/\s+/, `hostname -I 2>/dev/null` // '');
SKIP:
{
	skip 'no non-loopback IPv4 address', 3 unless $ip && $ip =~ /^\d+\.\d+\.\d+\.\d+$/;
	my $url = "http://$ip:" . http_port($anon) . '/subjects';
	($status, $body) = curl_rest($url);
	is($status, 401, 'anonymous from a non-loopback address: 401');
	# pg_hba.conf must let the anonymous role in from there too
	$anon->append_conf('pg_hba.conf', "host all all $ip/32 trust\n");
	$anon->append_conf('postgresql.conf', "registry.http_anonymous_remote = on\n");
	$anon->reload;
	my $ok = 0;
	for (my $i = 0; $i < 50 && !$ok; $i++)
	{
		my ($s1) = curl_rest($url);
		my ($s2) = curl_rest($url);
		$ok = $s1 == 200 && $s2 == 200;
		select(undef, undef, undef, 0.2) unless $ok;
	}
	ok($ok, '  ... served once registry.http_anonymous_remote is on');
	$anon->append_conf('postgresql.conf', "registry.http_anonymous_remote = off\n");
	$anon->reload;
	$ok = 0;
	for (my $i = 0; $i < 50 && !$ok; $i++)
	{
		my ($s1) = curl_rest($url);
		my ($s2) = curl_rest($url);
		$ok = $s1 == 401 && $s2 == 401;
		select(undef, undef, undef, 0.2) unless $ok;
	}
	ok($ok, '  ... and refused again once it is off');
}

# the anonymous role is never a superuser
my $superuser = $anon->safe_psql('postgres', 'SELECT current_user');
$anon->append_conf('postgresql.conf', "registry.http_anonymous_role = '$superuser'\n");
$anon->reload;
my $refused = 0;
for (my $i = 0; $i < 50 && !$refused; $i++)
{
	my ($s1) = rest($anon, 'GET', '/subjects');
	my ($s2) = rest($anon, 'GET', '/subjects');
	$refused = $s1 == 403 && $s2 == 403;
	select(undef, undef, undef, 0.2) unless $refused;
}
ok($refused, 'a superuser as registry.http_anonymous_role: 403');
like(slurp_file($anon->logfile), qr/registry.http_anonymous_role "\Q$superuser\E" is a superuser/,
	'  ... said in the log');
$anon->append_conf('postgresql.conf', "registry.http_anonymous_role = 'registry_reader'\n");
$anon->reload;
my $reader_only = 0;
for (my $i = 0; $i < 50 && !$reader_only; $i++)
{
	my ($s1) = rest($anon, 'PUT', '/config', '{"compatibility":"NONE"}');
	my ($s2) = rest($anon, 'PUT', '/config', '{"compatibility":"NONE"}');
	$reader_only = $s1 == 403 && $s2 == 403;
	select(undef, undef, undef, 0.2) unless $reader_only;
}
ok($reader_only, 'anonymous as registry_reader may not configure');
like(slurp_file($anon->logfile), qr/serves anonymous requests as role "registry_reader" from loopback addresses only/,
	'  ... the worker logs the new mode after the reload');
($status) = rest($anon, 'GET', '/subjects');
is($status, 200, '  ... but reads');

# the README's hardening checklist: pg_hba.conf rejecting the workers' role
# keeps anyone from logging in as it, and the workers still serve
my $hba = $anon->data_dir . '/pg_hba.conf';
my $hba_text = slurp_file($hba);
my $before_reject = $anon->safe_psql('postgres', 'SELECT 1', extra_params => [ '-U', 'registry_http' ]);
is($before_reject, '1', 'a trust pg_hba.conf lets anyone log in as registry_http');
open(my $fh, '>', $hba) or die "could not write $hba: $!";
print $fh "local all registry_http reject\nhost all registry_http all reject\n", $hba_text;
close($fh);
$anon->restart;
my ($rc, $out, $err) = $anon->psql('postgres', 'SELECT 1', extra_params => [ '-U', 'registry_http' ]);
like($err, qr/rejects connection for host .*user "registry_http"/,
	'pg_hba.conf reject lines for registry_http refuse its logins');
ok(wait_for_rest($anon), '  ... and the workers still serve');
($status) = rest($anon, 'GET', '/subjects');
is($status, 200, '  ... anonymous reads');
$anon->stop;

done_testing();
