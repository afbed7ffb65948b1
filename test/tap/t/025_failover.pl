# Failover: a standby promoted with pg_ctl promote takes writes at once,
# with the same workers; the ids it hands out are above every id the old
# primary acknowledged, versions continue, and ids clients cached before
# still name the same schemas.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use JSON::PP;
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $primary = registry_node('old_primary', allows_streaming => 1);
$primary->start;
$primary->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($primary), 'the primary serves the REST API');
my $standby = registry_standby($primary, 'new_primary');
$standby->start;
ok(wait_for_rest($standby), 'the standby serves the REST API');

# writes on the old primary, some through the standby; the last id is the
# highest the old primary acknowledged
my ($status, $body);
my $max_id = 0;
my %ids;
for my $n (1 .. 5)
{
	my $via = $n % 2 ? $primary : $standby;
	($status, $body) = rest($via, 'POST', '/subjects/f-value/versions',
		record_body('F', map { "f$_" } 1 .. $n));
	is($status, 200, "version $n of f-value registered");
	my ($id) = $body =~ /"id":(\d+)/;
	$ids{$n} = $id;
	$max_id = $id if $id > $max_id;
}
($status, $body) = rest($primary, 'POST', '/subjects/g-value/versions', record_body('G', 'x'));
my ($g_id) = $body =~ /"id":(\d+)/;
$max_id = $g_id if $g_id > $max_id;
$primary->wait_for_catchup($standby);

# what a client cached: the schema behind an id, read on the standby
my ($cached_status, $cached_body) = rest($standby, 'GET', "/schemas/ids/$ids{1}");
is($cached_status, 200, 'a client reads an id on the standby');
my $workers_before = $standby->safe_psql('postgres',
	"SELECT string_agg(pid::text, ',' ORDER BY pid) FROM pg_stat_activity WHERE backend_type = 'registry http'");

# the old primary goes away, the standby is promoted
$primary->stop('immediate');
$standby->promote;
is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery()'), 'f', 'the standby is promoted');

# writes on the promoted node, without a restart
($status, $body) = rest($standby, 'POST', '/subjects/f-value/versions',
	record_body('F', map { "f$_" } 1 .. 6));
is($status, 200, 'the promoted node takes a registration');
my ($new_id) = $body =~ /"id":(\d+)/;
ok($new_id > $max_id, "its id $new_id is above every id the old primary gave ($max_id)");
like($body, qr/"version":6\b/, 'the subject\'s versions continue');
($status, $body) = rest($standby, 'POST', '/subjects/h-value/versions', record_body('H', 'x'));
my ($h_id) = $body =~ /"id":(\d+)/;
ok($status == 200 && $h_id > $new_id, 'a new subject gets a new, higher id');
($status, $body) = rest($standby, 'PUT', '/config/f-value', '{"compatibility":"FULL"}');
like("$status $body", qr/^200 \{"compatibility": ?"FULL"\}$/, 'config changes on the promoted node');
($status, $body) = rest($standby, 'PUT', '/mode/g-value', '{"mode":"READONLY"}');
is("$status $body", '200 {"mode":"READONLY"}', 'mode changes on the promoted node');
($status, $body) = rest($standby, 'DELETE', '/subjects/g-value/versions/1');
is($status, 422, 'and the mode holds there');

# ids cached before the failover still resolve, to the same schema
($status, $body) = rest($standby, 'GET', "/schemas/ids/$ids{1}");
is("$status $body", "$cached_status $cached_body", 'a cached id names the same schema');
for my $n (2 .. 5)
{
	($status, $body) = rest($standby, 'GET', "/subjects/f-value/versions/$n");
	my $id = $ids{$n};
	like($body, qr/"id":$id\b/, "version $n keeps its id");
}
($status, $body) = rest($standby, 'POST', '/subjects/f-value/versions',
	record_body('F', map { "f$_" } 1 .. 3));
my $id3 = $ids{3};
like($body, qr/^\{"id":$id3,"version":3,/, 'a re-registration answers the id from before');

is($standby->safe_psql('postgres',
		"SELECT string_agg(pid::text, ',' ORDER BY pid) FROM pg_stat_activity WHERE backend_type = 'registry http'"),
	$workers_before, 'the same workers serve before and after the promotion');

$standby->stop;
done_testing();
