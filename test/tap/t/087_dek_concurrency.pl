# Concurrent creators of the same DEK version yield one row: the second
# waits for the first (the primary key's ON CONFLICT) and then answers
# 40971, which clients take as "read it"; if the first rolls back, the
# second creates it.  A KEK cannot be deleted under a DEK being created:
# the delete waits for it, then refuses.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('dek_concurrency');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');
$node->safe_psql('postgres',
	q{SELECT registry.create_kek('{"name":"ck","kmsType":"local-kms","kmsKeyId":"k"}')});

my $create = q{SELECT 'v=' || (registry.create_dek('ck', '{"subject":"s","encryptedKeyMaterial":"%s"}')->>'encryptedKeyMaterial');};

# --- the second creator waits for the first, then finds the DEK there
my $first = $node->background_psql('postgres', on_error_stop => 0);
$first->query_safe('BEGIN');
like($first->query_safe(sprintf($create, 'AAAA')), qr/v=AAAA/, 'the first creator inserts version 1');

my $second = $node->background_psql('postgres', on_error_stop => 0);
my $second_pid = $second->query_safe('SELECT pg_backend_pid()');
$second->query_until(qr/sent/, "\\echo sent\n" . sprintf($create, 'BBBB') . "\n");
ok( $node->poll_query_until('postgres',
		"SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $second_pid"),
	'the second creator waits for the first');
$first->query_safe('COMMIT');
$second->query('SELECT 1');
like($second->{stderr}, qr/key "s" already exists/, 'after the first commits, the second is refused (40971)');
is($node->safe_psql('postgres', q{SELECT string_agg(version || ':' || encrypted_key_material, ',')
	FROM registry.deks WHERE subject = 's'}), '1:AAAA', 'one row, the first creator\'s');

# --- if the first rolls back, the second creates it
$first->query_safe('BEGIN');
like($first->query_safe(sprintf($create =~ s/"subject":"s"/"subject":"t"/r, 'CCCC')), qr/v=CCCC/,
	'a first creator of another DEK');
$second->{stderr} = '';
$second->query_until(qr/sent/, "\\echo sent\n" . sprintf($create =~ s/"subject":"s"/"subject":"t"/r, 'DDDD') . "\n");
ok( $node->poll_query_until('postgres',
		"SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $second_pid"),
	'the second waits');
$first->query_safe('ROLLBACK');
like($second->query('SELECT 1'), qr/v=DDDD/, 'the first rolled back: the second creates it');
is($node->safe_psql('postgres', q{SELECT string_agg(version || ':' || encrypted_key_material, ',')
	FROM registry.deks WHERE subject = 't'}), '1:DDDD', 'one row, the second creator\'s');

# --- soft-deleting a KEK waits for a DEK being created under it, then
# fails (42272); so does the hard delete (the foreign key)
$node->safe_psql('postgres', q{SELECT registry.create_kek('{"name":"gone","kmsType":"local-kms","kmsKeyId":"k"}')});
$first->query_safe('BEGIN');
$first->query_safe(q{SELECT registry.create_dek('gone', '{"subject":"u","encryptedKeyMaterial":"EEEE"}')});
$second->{stderr} = '';
$second->query_until(qr/sent/, "\\echo sent\nSELECT registry.delete_kek('gone');\n");
ok( $node->poll_query_until('postgres',
		"SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $second_pid"),
	'soft-deleting the KEK waits for the DEK being created');
$first->query_safe('COMMIT');
$second->query('SELECT 1');
like($second->{stderr}, qr/still used by DEKs/, 'then fails: the KEK has a live DEK (42272)');
is($node->safe_psql('postgres', q{SELECT deleted FROM registry.keks WHERE name = 'gone'}), 'f',
	'the KEK stays live');

$node->safe_psql('postgres', q{SELECT registry.create_kek('{"name":"gone2","kmsType":"local-kms","kmsKeyId":"k"}')});
$node->safe_psql('postgres', q{SELECT registry.delete_kek('gone2')});
$first->query_safe('BEGIN');
$first->query_safe(q{UPDATE registry.keks SET deleted = false WHERE name = 'gone2'});
$first->query_safe(q{SELECT registry.create_dek('gone2', '{"subject":"u","encryptedKeyMaterial":"EEEE"}')});
$second->{stderr} = '';
$second->query_until(qr/sent/, "\\echo sent\nSELECT registry.delete_kek('gone2', true);\n");
ok( $node->poll_query_until('postgres',
		"SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $second_pid"),
	'hard-deleting the KEK waits for the transaction that undeletes it and creates a DEK');
$first->query_safe('COMMIT');
$second->query('SELECT 1');
like($second->{stderr}, qr/still used by DEKs|not soft-deleted/, 'then fails');
is($node->safe_psql('postgres', q{SELECT count(*) FROM registry.deks WHERE kek_name = 'gone2'}), '1',
	'the KEK and its DEK stay');

$first->quit;
$second->quit;
$node->stop;
done_testing();
