# Forwarding from a standby whose connection string leads to another
# standby: a cascading standby (primary_conninfo at an upstream standby)
# and registry.primary_conninfo naming the standby itself.  The forward
# only ever runs on a server that accepts writes (libpq
# target_session_attrs=read-write unless the string says otherwise): a
# standby target is refused at once with Confluent's forwarding error, and
# a string listing several hosts reaches the one that is the primary.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use JSON::PP;
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;
use Time::HiRes qw(time);

my $forward_error =
  '500 {"error_code":50003,"message":"Error while forwarding register schema request to the leader"}';

my $primary = registry_node('primary', allows_streaming => 1);
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($primary), 'the primary serves the REST API');

# upstream standby A, and B streaming from A
my $upstream = registry_standby($primary, 'upstream',
	conf => "registry.forward_timeout = 5000\n");
$upstream->start;
ok(wait_for_rest($upstream), 'the upstream standby serves');
$upstream->backup('cascade_base');
my $cascade = PostgreSQL::Test::Cluster->new('cascade');
$cascade->init_from_backup($upstream, 'cascade_base', has_streaming => 1);
my $cport = PostgreSQL::Test::Cluster::get_free_port();
$cascade->append_conf('postgresql.conf',
	"registry.http_port = $cport\nregistry.forward_timeout = 5000\n");
$cascade->{_registry_http_port} = $cport;
$cascade->start;
ok(wait_for_rest($cascade), 'the cascading standby serves');
like($cascade->safe_psql('postgres', 'SHOW primary_conninfo'),
	qr/port=${\ $upstream->port}\b/, 'its primary_conninfo is the upstream standby');

# B's own primary_conninfo leads to A, which cannot write: the forwarding
# error, at once rather than after registry.forward_timeout
my $start = time;
my ($status, $body) = rest($cascade, 'POST', '/subjects/c-value/versions',
	record_body('C', 'x'));
my $elapsed = time - $start;
is("$status $body", $forward_error, 'a write forwarded to a standby: the forwarding error');
ok($elapsed < 4, "  ... without waiting for registry.forward_timeout ($elapsed s)");
ok($cascade->log_contains('registry could not forward a write to the primary: could not connect'),
	'  ... its reason in the log');
is($primary->safe_psql('postgres',
		"SELECT count(*) FROM registry.subject_versions WHERE subject = 'c-value'"),
	'0', '  ... and nothing is stored');

# a string listing the upstream standby first, then the primary: the write
# reaches the primary, and B reads it afterwards
my $host = $primary->host;
$cascade->append_conf('postgresql.conf',
	"registry.primary_conninfo = 'host=$host,$host port="
	  . $upstream->port . ',' . $primary->port . " dbname=postgres'\n");
$cascade->reload;
sleep 1;
($status, $body) = rest($cascade, 'POST', '/subjects/c-value/versions', record_body('C', 'x'));
is($status, 200, 'with both hosts listed the write reaches the primary');
is($primary->safe_psql('postgres',
		"SELECT count(*) FROM registry.subject_versions WHERE subject = 'c-value'"),
	'1', '  ... where it is stored');
($status, $body) = rest($cascade, 'GET', '/subjects/c-value/versions');
is("$status $body", '200 [1]', '  ... and the cascading standby reads it');

# registry.primary_conninfo naming the standby itself: the forwarding error
$upstream->append_conf('postgresql.conf',
	"registry.primary_conninfo = 'host=$host port=" . $upstream->port . " dbname=postgres'\n");
$upstream->reload;
sleep 1;
$start = time;
($status, $body) = rest($upstream, 'POST', '/subjects/d-value/versions', record_body('D', 'x'));
$elapsed = time - $start;
is("$status $body", $forward_error, 'a standby forwarding to itself: the forwarding error');
ok($elapsed < 4, "  ... at once ($elapsed s)");
($status) = rest($upstream, 'GET', '/subjects');
is($status, 200, '  ... and it goes on serving reads');

# an explicit target_session_attrs is the operator's choice
$upstream->append_conf('postgresql.conf',
	"registry.primary_conninfo = 'host=$host port="
	  . $primary->port . " dbname=postgres target_session_attrs=any'\n");
$upstream->reload;
sleep 1;
($status) = rest($upstream, 'POST', '/subjects/d-value/versions', record_body('D', 'x'));
is($status, 200, 'an explicit target_session_attrs is kept');

# with registry.http_auth = basic the forward runs as the authenticated
# role: a forwarding user that may become only that role suffices
$primary->safe_psql('postgres', q{
	CREATE ROLE writer LOGIN PASSWORD 'writer-pw' IN ROLE registry_writer;
	CREATE ROLE reader LOGIN PASSWORD 'reader-pw' IN ROLE registry_reader;
	CREATE ROLE forwarder LOGIN IN ROLE writer;
});
$primary->wait_for_catchup($upstream);
$upstream->append_conf('postgresql.conf',
	"registry.http_auth = basic\nregistry.primary_conninfo = 'host=$host port="
	  . $primary->port . " dbname=postgres user=forwarder'\n");
$upstream->restart;
for (1 .. 300)
{
	($status) = rest($upstream, 'GET', '/');
	last if $status;
	select(undef, undef, undef, 0.1);
}
my $log_offset = -s $primary->logfile;
($status, $body) = rest($upstream, 'POST', '/subjects/e-value/versions', record_body('E', 'x'),
	'-u', 'writer:writer-pw');
is($status, 200, 'a writer\'s registration through a standby with Basic authentication');
like(slurp_file($primary->logfile, $log_offset), qr/SET LOCAL ROLE writer;/,
	'  ... runs on the primary as the writer');
($status, $body) = rest($upstream, 'POST', '/subjects/e-value/versions', record_body('E', 'y'),
	'-u', 'reader:reader-pw');
is($status, 403, 'a reader\'s registration is refused on the standby');
($status, $body) = rest($upstream, 'PUT', '/config', '{"compatibility":"NONE"}',
	'-u', 'writer:writer-pw');
is($status, 403, '  ... as is a writer\'s config change');
($status, $body) = rest($upstream, 'POST', '/subjects/e-value/versions', record_body('E', 'x'));
is($status, 401, '  ... and an anonymous registration');

$cascade->stop;
$upstream->stop;
$primary->stop;
done_testing();
