# Two clusters on one host configured with the same registry.http_port (a
# standby made by pg_basebackup -R inherits the primary's): the port is
# served by the cluster that took it first only.  The second logs that
# another server listens there and answers nothing on it, both at server
# start (the postmaster's shared socket) and after a reload that moves
# both to a new port (each worker's own socket).
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $first = registry_node('first');
$first->start;
$first->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($first), 'the first cluster serves its port');
my ($status) = rest($first, 'POST', '/subjects/only-first/versions',
	record_body('OnlyFirst', 'a'));
is($status, 200, 'a subject registered on the first cluster');

my $port = http_port($first);
my $second = registry_node('second');
$second->append_conf('postgresql.conf', "registry.http_port = $port\n");
$second->{_registry_http_port} = $port;
my $offset = 0;
$second->start;
$second->safe_psql('postgres', 'CREATE EXTENSION registry');

# every request on the port answered by the first cluster
sub all_from_first
{
	my ($label) = @_;
	my $answered = 0;
	for my $i (1 .. 20)
	{
		my ($s, $body) = rest($first, 'GET', '/subjects');
		$answered++ if $s == 200 && $body =~ /only-first/;
	}
	is($answered, 20, "$label: the first cluster answers all 20 requests");
}

ok( eval { $second->wait_for_log(
		qr/registry REST API port $port on localhost is in use: another server listens there/,
		$offset) },
	'the second cluster says another server listens on its port');
# its workers have started and tried the port by now
sleep 2;
all_from_first('at server start');
ok(!$second->log_contains('registry REST API listening on localhost:' . $port),
	'no worker of the second cluster listens on the port');

# both move to a new port by a reload: each worker on its own socket
my $new_port = PostgreSQL::Test::Cluster::get_free_port();
$first->append_conf('postgresql.conf', "registry.http_port = $new_port\n");
$first->reload;
$first->{_registry_http_port} = $new_port;
ok(wait_for_rest($first), 'the first cluster serves the new port');
my $first_offset = -s $first->logfile;
$offset = -s $second->logfile;
$second->append_conf('postgresql.conf', "registry.http_port = $new_port\n");
$second->reload;
$second->{_registry_http_port} = $new_port;
ok( eval { $second->wait_for_log(
		qr/registry REST API port $new_port on localhost is in use: another server listens there/,
		$offset) },
	'after a reload the second cluster says another server listens on the new port');
sleep 2;
all_from_first('after a reload');
ok( !$second->log_contains('registry REST API listening on localhost:' . $new_port),
	'no worker of the second cluster listens on the new port');

# once the first stops, the second takes the port within seconds
$first->stop;
my $served = 0;
for (1 .. 150)
{
	my ($s) = rest($second, 'GET', '/subjects');
	$served = 1, last if $s == 200;
	select(undef, undef, undef, 0.1);
}
ok($served, 'the second cluster serves the port once the first has stopped');

$second->stop;
done_testing();
