# The field index's trigger (schemas_index_fields) takes a registration's
# new schema from the registration's own parse: neither the SQL API nor the
# REST API parses the stored row again for it (the DEBUG1 line
# "registry parses stored schema <id>" is not logged), and its fields are
# indexed.  A raw INSERT into registry.schemas has no registration's parse:
# the trigger parses the stored row, and its fields are indexed too.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('fieldparse');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($node), 'the REST API answers');

# psql with DEBUG1 messages sent to the client: (stdout, stderr)
sub debug_psql
{
	my ($sql) = @_;
	my ($out, $err) = ('', '');
	$node->psql('postgres', "SET client_min_messages = debug1;\n$sql",
		stdout => \$out, stderr => \$err, on_error_die => 1);
	return ($out, $err);
}

# the field names the index holds for schema id of the default context
sub indexed_names
{
	my ($id) = @_;
	return $node->safe_psql('postgres', qq{
		SELECT string_agg(f->>'name', ',' ORDER BY f->>'path')
		  FROM registry.schema_fields sf, jsonb_array_elements(sf.fields) f
		 WHERE sf.context = '.' AND sf.id = $id});
}

my $record = sub {
	my ($name, $field) = @_;
	return qq({"type":"record","name":"$name","fields":[{"name":"$field","type":"long"},)
	  . qq({"name":"note","type":["null","string"],"default":null}]});
};

# 1. the SQL API, in a new session (nothing cached), twice under BACKWARD
my ($out, $err) = debug_psql(
	"SELECT registry.register_schema('sql-subject', '" . $record->('A', 'a') . "')");
my $id = $out;
like($id, qr/^\d+$/, 'a registration through the SQL API');
unlike($err, qr/registry parses stored schema $id of context/,
	'its new schema is not parsed again from the stored row');
is(indexed_names($id), 'a,note', 'its fields are indexed');

($out, $err) = debug_psql(
	"SELECT registry.register_schema('sql-subject', '" . $record->('A', 'a') . "'); "
	  . "SELECT registry.register_schema('sql-subject', '"
	  . $record->('A', 'a') =~ s/\]\}$/,{"name":"b","type":["null","long"],"default":null}]}/r
	  . "')");
my ($again, $second) = split /\n/, $out;
is($again, $id, 'the same schema again answers its id');
unlike($err, qr/registry parses stored schema $second of context/,
	'a second version (checked against the first) is not parsed again either');
is(indexed_names($second), 'a,b,note', "the second version's fields are indexed");

# 2. a raw INSERT: the trigger parses the stored row and indexes it
($out, $err) = debug_psql(
	"INSERT INTO registry.schemas (schema) VALUES ('" . $record->('R', 'r') . "') RETURNING id");
my $raw = (split /\n/, $out)[0];
like($raw, qr/^\d+$/, 'a raw INSERT into registry.schemas');
like($err, qr/registry parses stored schema $raw of context "\."/,
	'its schema is parsed from the stored row');
is(indexed_names($raw), 'note,r', 'its fields are indexed');

# 3. the REST API: the worker's log at DEBUG1 during one registration
$node->safe_psql('postgres', "ALTER SYSTEM SET log_min_messages = 'debug1'");
$node->reload;
sleep 1;
my $offset = -s $node->logfile;
my $body = '{"schema":"' . ($record->('H', 'h') =~ s/"/\\"/gr) . '"}';
my ($status, $answer) = rest($node, 'POST', '/subjects/http-subject/versions', $body);
is($status, 200, 'a registration over HTTP') or diag($answer);
my ($http_id) = $answer =~ /"id":(\d+)/;
$node->safe_psql('postgres', "ALTER SYSTEM RESET log_min_messages");
$node->reload;
my $log = slurp_file($node->logfile, $offset);
unlike($log, qr/registry parses stored schema $http_id of context/,
	'the REST API registration does not parse its new schema again');
is(indexed_names($http_id), 'h,note', 'its fields are indexed');

# 4. a raw INSERT in the worker's absence of a parse: one in a transaction
# that registered another schema first is still parsed from its row
($out, $err) = debug_psql(
	"BEGIN; SELECT registry.register_schema('mixed', '" . $record->('M', 'm') . "'); "
	  . "INSERT INTO registry.schemas (schema) VALUES ('" . $record->('N', 'n')
	  . "') RETURNING id; COMMIT");
my ($mid, $nid) = grep { /^\d+$/ } split /\n/, $out;
unlike($err, qr/registry parses stored schema $mid of context/, 'the registration is not parsed again');
like($err, qr/registry parses stored schema $nid of context/,
	'the raw INSERT after it in the same transaction is parsed from its row');
is(indexed_names($nid), 'n,note', "the raw INSERT's fields are indexed");

$node->stop;
done_testing();
