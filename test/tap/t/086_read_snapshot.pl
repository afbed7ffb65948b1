# The registry's reading SQL functions are STABLE and read as STABLE
# promises: a statement sees one state of the tables however long it runs,
# even when another session registers a version or changes a setting in
# the middle of it (READ COMMITTED).  The next statement sees the change,
# so the settings kept across transactions (scope_cache.c) are not left
# behind by a read in an older snapshot.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('read_snapshot');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');

sub schema
{
	my ($field) = @_;
	return qq({"type":"record","name":"R","fields":[{"name":"$field","type":["null","int"],"default":null}]});
}

$node->safe_psql('postgres', "SELECT registry.set_compatibility('NONE', 'snap')");
$node->safe_psql('postgres', "SELECT registry.register_schema('snap', '" . schema('a') . "')");

# the writer holds an advisory lock the reader's statement waits for between
# its two reads; the writer commits its change, then lets the reader go on
my $writer = $node->background_psql('postgres', on_error_stop => 0);
my $reader = $node->background_psql('postgres', on_error_stop => 0);
my $reader_pid = $reader->query_safe('SELECT pg_backend_pid()');

# run query in the reader, stopped on advisory lock 1 while the writer runs change
sub straddle
{
	my ($query, $change) = @_;
	$writer->query_safe('SELECT pg_advisory_lock(1)');
	$reader->query_until(qr/sent/, "\\echo sent\n$query;\n");
	$node->poll_query_until('postgres',
		"SELECT wait_event = 'advisory' FROM pg_stat_activity WHERE pid = $reader_pid")
	  or die 'the reader did not wait';
	$node->safe_psql('postgres', $change);
	$writer->query_safe('SELECT pg_advisory_unlock(1)');
	return $reader->query_safe('SELECT 1');
}

# warm the settings each process keeps, so the second read could come from them
$reader->query_safe("SELECT registry.effective_compatibility('.', 'snap'), registry.served_subject('snap')");

my $out = straddle(
	"SELECT 'v=' || (registry.get_version('snap')).version || ',' || "
	  . "(pg_advisory_lock(1) IS NOT NULL) || ',' || (registry.get_version('snap')).version "
	  . "|| ',' || (SELECT version_number FROM registry.resolve_version('snap', 'latest')) || ',' || "
	  . "pg_advisory_unlock(1)",
	"SELECT registry.register_schema('snap', '" . schema('b') . "')");
like($out, qr/v=1,true,1,1,true/,
	'get_version and resolve_version see one state of the subject in one statement');
like($reader->query_safe("SELECT 'v=' || (registry.get_version('snap')).version"),
	qr/v=2/, 'the next statement sees the new version');

$out = straddle(
	"SELECT 'c=' || registry.effective_compatibility('.', 'snap') || ',' || "
	  . "(pg_advisory_lock(1) IS NOT NULL) || ',' || registry.effective_compatibility('.', 'snap') "
	  . "|| ',' || pg_advisory_unlock(1)",
	"SELECT registry.set_compatibility('FULL', 'snap')");
like($out, qr/c=NONE,true,NONE,true/,
	'effective_compatibility sees one state of the settings in one statement');
like($reader->query_safe("SELECT 'c=' || registry.effective_compatibility('.', 'snap')"),
	qr/c=FULL/, 'the next statement sees the new setting');
like($reader->query_safe("SELECT 'c=' || registry.effective_compatibility('.', 'snap')"),
	qr/c=FULL/, 'and so does the one after it (the kept settings are the new ones)');

$out = straddle(
	"SELECT 'c=' || registry.effective_compatibility('.', 'snap') || ',' || "
	  . "(pg_advisory_lock(1) IS NOT NULL) || ',' || registry.effective_compatibility('.', 'snap') "
	  . "|| ',' || pg_advisory_unlock(1)",
	"SELECT registry.delete_compatibility('snap')");
like($out, qr/c=FULL,true,FULL,true/, 'a config deleted meanwhile too');
like($reader->query_safe("SELECT 'c=' || registry.effective_compatibility('.', 'snap')"),
	qr/c=BACKWARD/, 'the next statement sees the default again');

# the subject directory (catalog_directory.c), built for a page that ends
# past 1,000 subjects, answers registry.subjects() only in a snapshot that
# sees its rows
my $count = "(SELECT count(*) FROM registry.subjects(NULL, false, false, 0, 5000))";
my $before = $reader->query_safe("SELECT $count");
$out = straddle(
	"SELECT 'n=' || $count || ',' || (pg_advisory_lock(1) IS NOT NULL) || ',' || $count "
	  . "|| ',' || pg_advisory_unlock(1)",
	"SELECT registry.register_schema('snap-new', '" . schema('a') . "')");
like($out, qr/n=$before,true,$before,true/,
	'registry.subjects() sees one state of the subjects in one statement');
is($reader->query_safe("SELECT $count"), $before + 1, 'the next statement sees the new subject');
is($reader->query_safe("SELECT $count"), $before + 1, 'and so does the one after it');
$node->safe_psql('postgres', "SELECT registry.delete_subject('snap-new')");
is($reader->query_safe("SELECT $count"), $before,
	'a subject soft-deleted elsewhere leaves the listing at the next statement');
is($reader->query_safe("SELECT string_agg(s, ',') FROM registry.subjects(NULL, false, true, 0, 5000) s"),
	'snap-new', 'and is the one deleted_only lists');

$writer->quit;
$reader->quit;
done_testing();
