# registry.http_port = 0 and a reload disconnect the HTTP workers from
# registry.database, so that DROP DATABASE and ALTER DATABASE RENAME work
# without FORCE; setting the port again and reloading brings them back.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('port_zero', conf => "registry.database = 'regdb'\n");
$node->start;
$node->safe_psql('postgres', 'CREATE DATABASE regdb');
$node->safe_psql('regdb', 'CREATE EXTENSION registry');
ok(wait_for_rest($node), 'the workers serve regdb');
my $port = http_port($node);

my $connected = "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'registry http' AND datname = 'regdb'";
ok($node->poll_query_until('postgres', "SELECT ($connected) = 2"),
	'both workers are connected to regdb');

$node->safe_psql('postgres', 'ALTER SYSTEM SET registry.http_port = 0');
$node->reload;
ok($node->poll_query_until('postgres', "SELECT ($connected) = 0"),
	'after registry.http_port = 0 and a reload no worker is connected to regdb');
my ($rc, $out, $err) = $node->psql('postgres', 'ALTER DATABASE regdb RENAME TO regdb_old');
is($rc, 0, 'ALTER DATABASE RENAME works') or diag($err);
($rc, $out, $err) = $node->psql('postgres', 'DROP DATABASE regdb_old');
is($rc, 0, 'DROP DATABASE works') or diag($err);
# the workers restarted meanwhile wait without a connection
sleep 6;
is($node->safe_psql('postgres', $connected), '0', 'the restarted workers stay unconnected');
my ($status) = rest($node, 'GET', '/subjects');
is($status, 0, 'the port refuses');

$node->safe_psql('postgres', 'CREATE DATABASE regdb');
$node->safe_psql('regdb', 'CREATE EXTENSION registry');
$node->safe_psql('postgres', "ALTER SYSTEM SET registry.http_port = $port");
$node->reload;
ok(wait_for_rest($node), 'the port set again: the workers serve the new regdb');

$node->stop;
done_testing();
