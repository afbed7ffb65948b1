# A backend that parsed a stored schema sees another backend's hard delete
# and IMPORT of other content under the same id: the SQL functions that
# read a Protobuf schema by id follow what is stored now.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('cache');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');
$node->safe_psql('postgres', q{
SELECT registry.set_mode('IMPORT', ':.reuse:', true);
SELECT registry.register_schema(':.reuse:s', 'syntax = "proto3"; message A { } message B { }', 'PROTOBUF', id => 7);
});

# a long-lived session parses schema 7 (B is the second message)
my $session = $node->background_psql('postgres');
is($session->query_safe(q{SELECT registry.protobuf_message_indexes(7, 'B', ':.reuse:s')}),
	'{1}', 'a session reads the message indexes of schema 7');

# another session deletes it for good and imports other content as id 7
$node->safe_psql('postgres', q{
SELECT registry.delete_subject(':.reuse:s', false);
SELECT registry.delete_subject(':.reuse:s', true);
SELECT registry.register_schema(':.reuse:s', 'syntax = "proto3"; message B { } message A { }', 'PROTOBUF', id => 7);
});
is($session->query_safe(q{SELECT registry.protobuf_message_indexes(7, 'B', ':.reuse:s')}),
	'{0}', 'the first session answers for the schema stored now');
is($session->query_safe(q{SELECT registry.protobuf_message_name(7, '{0}', ':.reuse:s')}),
	'B', 'message names too');

$session->quit;
$node->stop;
done_testing();
