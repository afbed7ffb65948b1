# The library is preloaded and the workers run, but the extension is not
# in registry.database (it was created in another database, or dropped):
# GET / (a load balancer's health check) answers 503 with error_code 50301
# saying so, and so do the routes that need the extension, instead of 200
# for GET / and 500 for the rest.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('no_ext');
$node->start;
# the role the workers connect as comes with the extension, made elsewhere
$node->safe_psql('postgres', 'CREATE DATABASE elsewhere');
$node->safe_psql('elsewhere', 'CREATE EXTENSION registry');

my ($status, $body);
for (1 .. 300)
{
	($status, $body) = rest_json($node, 'GET', '/');
	last if $status == 503 || $status == 200;
	select(undef, undef, undef, 0.1);
}
is($status, 503, 'GET / answers 503 while the extension is missing');
is(ref $body eq 'HASH' && $body->{error_code}, 50301, 'with error_code 50301');
like(ref $body eq 'HASH' ? $body->{message} : '',
	qr/registry extension is not installed in database "postgres"/,
	'and a message naming the database');
($status, $body) = rest_json($node, 'GET', '/subjects');
is($status, 503, 'GET /subjects answers 503 too');
is(ref $body eq 'HASH' && $body->{error_code}, 50301, 'with error_code 50301');
($status) = rest($node, 'POST', '/subjects/s/versions', record_body('R', 'a'));
is($status, 503, 'a registration answers 503 too');

$node->safe_psql('postgres', 'CREATE EXTENSION registry');
($status, $body) = rest($node, 'GET', '/');
is($status, 200, 'GET / answers 200 once the extension exists');
is($body, '{}', 'with {}');
ok(wait_for_rest($node), 'the other routes answer');

$node->stop;
done_testing();
