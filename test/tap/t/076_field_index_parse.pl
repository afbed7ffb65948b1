# A new schema is parsed once: the field index's trigger (schemas_index_fields)
# takes it from the parse that stored it, not from a parse of the stored row.
# A registration (SQL or REST) hands its own parse over; a raw INSERT's row
# is parsed by its insert trigger, which offers that parse to the row's AFTER
# triggers.  Both are seen in the DEBUG1 lines "registry parses a submitted
# schema" (one per parse of a submitted text) and "registry parses stored
# schema <id>" (a stored row parsed), and every new schema's fields are in
# registry.schema_fields, also when a bulk insert pushes the offered parses
# out of a small schema cache before the AFTER triggers run.
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

# psql in a new session with DEBUG1 messages sent to the client: (stdout, stderr)
sub debug_psql
{
	my ($sql) = @_;
	my ($out, $err) = ('', '');
	$node->psql('postgres', "SET client_min_messages = debug1;\n$sql",
		stdout => \$out, stderr => \$err, on_error_die => 1);
	return ($out, $err);
}

# how many parses of submitted texts a log shows
sub submitted_parses
{
	my ($log) = @_;
	return scalar(() = $log =~ /registry parses a submitted schema/g);
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

sub record
{
	my ($name, $field, $more) = @_;
	return qq({"type":"record","name":"$name","fields":[{"name":"$field","type":"long"},)
	  . qq({"name":"note","type":["null","string"],"default":null})
	  . ($more // '') . ']}';
}

# 1. the SQL API, in a new session (nothing cached)
my ($id, $err) =
  debug_psql("SELECT registry.register_schema('sql-subject', '" . record('A', 'a') . "')");
like($id, qr/^\d+$/, 'a registration through the SQL API');
is(submitted_parses($err), 1, 'it parses the schema once') or diag($err);
unlike($err, qr/registry parses stored schema $id of context/,
	'its stored row is not parsed again');
is(indexed_names($id), 'a,note', 'its fields are indexed');

# a second version, checked against the first under BACKWARD
my $out;
($out, $err) = debug_psql("SELECT registry.register_schema('sql-subject', '"
	  . record('A', 'a', ',{"name":"b","type":["null","long"],"default":null}') . "')");
like($out, qr/^\d+$/, 'a second version');
is(submitted_parses($err), 1, 'it parses the new schema once') or diag($err);
unlike($err, qr/registry parses stored schema $out of context/,
	'its stored row is not parsed again');
is(indexed_names($out), 'a,b,note', "the second version's fields are indexed");

# 2. a raw INSERT: its insert trigger's parse serves the field index
($out, $err) = debug_psql(
	"INSERT INTO registry.schemas (schema) VALUES ('" . record('R', 'r') . "') RETURNING id");
my $raw = (split /\n/, $out)[0];
like($raw, qr/^\d+$/, 'a raw INSERT into registry.schemas');
is(submitted_parses($err), 1, 'its insert trigger parses the row once') or diag($err);
unlike($err, qr/registry parses stored schema $raw of context/,
	'the field index does not parse the stored row again');
is(indexed_names($raw), 'note,r', 'its fields are indexed');

# three rows in one statement: every AFTER trigger runs after all the parses
($out, $err) = debug_psql(
	"INSERT INTO registry.schemas (schema) SELECT format('" . record('B%s', 'b%s')
	  . "', k, k) FROM generate_series(1, 3) k RETURNING id");
my @ids = grep { /^\d+$/ } split /\n/, $out;
is(scalar(@ids), 3, 'three rows in one raw INSERT');
is(submitted_parses($err), 3, 'each parsed once') or diag($err);
unlike($err, qr/registry parses stored schema/, 'no stored row parsed again');
is(join(' ', map { indexed_names($_) } @ids), 'b1,note b2,note b3,note', 'all three indexed');

# 3. the REST API: the worker's log at DEBUG1 during one registration
$node->safe_psql('postgres', "ALTER SYSTEM SET log_min_messages = 'debug1'");
$node->reload;
sleep 1;
my $offset = -s $node->logfile;
my $body = '{"schema":"' . (record('H', 'h') =~ s/"/\\"/gr) . '"}';
my ($status, $answer) = rest($node, 'POST', '/subjects/http-subject/versions', $body);
is($status, 200, 'a registration over HTTP') or diag($answer);
my ($http_id) = $answer =~ /"id":(\d+)/;
$node->safe_psql('postgres', "ALTER SYSTEM RESET log_min_messages");
$node->reload;
my $log = slurp_file($node->logfile, $offset);
unlike($log, qr/registry parses stored schema $http_id of context/,
	'the REST API registration does not parse its stored row again');
is(indexed_names($http_id), 'h,note', 'its fields are indexed');

# 4. a registration and a raw INSERT in one transaction
($out, $err) = debug_psql(
	"BEGIN; SELECT registry.register_schema('mixed', '" . record('M', 'm') . "'); "
	  . "INSERT INTO registry.schemas (schema) VALUES ('" . record('N', 'n')
	  . "') RETURNING id; COMMIT");
my ($mid, $nid) = grep { /^\d+$/ } split /\n/, $out;
is(submitted_parses($err), 2, 'a registration and a raw INSERT: one parse each') or diag($err);
unlike($err, qr/registry parses stored schema ($mid|$nid) of context/,
	'neither stored row is parsed again');
is(indexed_names($mid) . ' ' . indexed_names($nid), 'm,note n,note', 'both indexed');

# 5. a bulk INSERT with the smallest schema cache: the offered parses of the
# first rows are pushed out before the AFTER triggers run, which parse those
# rows again; every row is indexed
($out, $err) = debug_psql(
	"SET registry.schema_cache_size = 64; INSERT INTO registry.schemas (schema) SELECT format('"
	  . record('C%s', 'c%s') . "', k, k) FROM generate_series(1, 300) k RETURNING id");
@ids = grep { /^\d+$/ } split /\n/, $out;
is(scalar(@ids), 300, '300 rows in one raw INSERT with a 64 kB schema cache');
ok(scalar(() = $err =~ /registry parses stored schema/g) > 0,
	'the parses pushed out are parsed again from the rows');
is( $node->safe_psql(
		'postgres', qq{
	SELECT count(*) FROM registry.schema_fields sf
	 WHERE sf.context = '.' AND sf.id BETWEEN $ids[0] AND $ids[-1]
	   AND sf.fields \@> '[{"name":"note"}]'}),
	'300',
	'every one of them is indexed');

$node->stop;
done_testing();
