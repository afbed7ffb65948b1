# A node made by RegistryTest serves the REST API: the harness itself works
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('main');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($node), 'the REST API answers after start');

my ($status, $body) = rest($node, 'POST', '/subjects/t-value/versions',
	'{"schema":"{\"type\":\"string\"}"}');
is($status, 200, 'a registration over REST succeeds');
like($body, qr/^\{"id":\d+/, 'and answers an id');
is($node->safe_psql('postgres',
		"SELECT count(*) FROM registry.subject_versions"),
	'1', 'one version is stored');

$node->stop;
done_testing();
