# The settings each process keeps across transactions (scope_cache.c): a
# config or mode written in another session, by the SQL API, by a raw
# UPDATE or by a TRUNCATE, is in force for the HTTP workers' next request;
# with an invalidating trigger disabled nothing is kept; a transaction's
# own uncommitted config is in force for it; what a statement older than a
# change no trigger announced reads is not kept for the later ones.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('settings_cache', conf => 'max_prepared_transactions = 2');
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($node), 'the REST API answers');

# record(N): a record whose fields after the first are optional, so that
# record(N + 1) is backward compatible with record(N)
sub record
{
	my ($n, $first) = @_;
	$first //= 'int';
	my @fields = (qq({\\"name\\":\\"a\\",\\"type\\":\\"$first\\"}));
	push @fields, qq({\\"name\\":\\"f$_\\",\\"type\\":\\"int\\",\\"default\\":0}) for 1 .. $n;
	return '{\"type\":\"record\",\"name\":\"R\",\"fields\":[' . join(',', @fields) . ']}';
}
# the schema text itself, not a JSON string's contents
sub plain { return $_[0] =~ s/\\"/"/gr; }
my $incompatible = qq({"schema":") . record(0, 'string') . '"}';

my ($status, $out) = rest($node, 'POST', '/subjects/s/versions', qq({"schema":") . record(0) . '"}');
is($status, 200, 'a first version of s');

# ANSWERS(METHOD, PATH, BODY): 6 requests on fresh connections, so that
# each of the 2 workers answers (and keeps settings) several times
sub answers
{
	my ($method, $path, $body) = @_;
	my @got;
	push @got, join(' ', rest($node, $method, $path, $body)) for 1 .. 6;
	return @got;
}
sub all_match
{
	my ($re, $name, @got) = @_;
	is(scalar(grep { $_ =~ $re } @got), 6, $name) or diag(join("\n", @got));
}

my @check = ('POST', '/compatibility/subjects/s/versions/latest', $incompatible);
all_match(qr/"is_compatible":false/, 'under BACKWARD a type change is incompatible', answers(@check));
$node->safe_psql('postgres', q{SELECT registry.set_compatibility('NONE', 's')});
all_match(qr/"is_compatible":true/,
	'NONE set through the SQL API is in force for the workers at once', answers(@check));
$node->safe_psql('postgres', q{UPDATE registry.config SET compatibility = 'BACKWARD' WHERE subject = 's'});
all_match(qr/"is_compatible":false/, 'a raw UPDATE of registry.config is in force at once',
	answers(@check));

# modes: each registration a new schema, so that none is answered as registered already
my $n = 1;
sub registrations
{
	my @got;
	for (1 .. 6)
	{
		$n++;
		push @got, join(' ', rest($node, 'POST', '/subjects/s/versions',
			qq({"schema":") . record($n) . '"}'));
	}
	return @got;
}
all_match(qr/^200 /, 'registrations under READWRITE', registrations());
$node->safe_psql('postgres', q{SELECT registry.set_mode('READONLY', 's')});
all_match(qr/^422 .*42205/, 'READONLY set through the SQL API refuses the next registrations',
	registrations());
$node->safe_psql('postgres', 'TRUNCATE registry.modes');
all_match(qr/^200 /, 'after a TRUNCATE of registry.modes the subject is writable again',
	registrations());

# without the mode trigger no settings are kept: a write it does not hear of is still seen
$node->safe_psql('postgres', 'ALTER TABLE registry.modes DISABLE TRIGGER modes_after_write');
all_match(qr/^200 /, 'registrations with the trigger disabled', registrations());
$node->safe_psql('postgres', q{INSERT INTO registry.modes (context, subject, mode) VALUES ('.', 's', 'READONLY')});
all_match(qr/^422 .*42205/, 'a mode written while the trigger is disabled is in force at once',
	registrations());
$node->safe_psql('postgres', q{
ALTER TABLE registry.modes ENABLE ALWAYS TRIGGER modes_after_write;
DELETE FROM registry.modes});
all_match(qr/^200 /, 'writable again once the mode is deleted', registrations());

# a mode written while its trigger is off, the trigger back on in the same
# transaction: no row trigger announced it, the relcache invalidation does
$node->safe_psql('postgres', q{
BEGIN;
ALTER TABLE registry.modes DISABLE TRIGGER modes_after_write;
INSERT INTO registry.modes (context, subject, mode) VALUES ('.', 's', 'READONLY');
ALTER TABLE registry.modes ENABLE ALWAYS TRIGGER modes_after_write;
COMMIT});
all_match(qr/^422 .*42205/, 'a mode written with the trigger off and on again is in force at once',
	registrations());
$node->safe_psql('postgres', 'DELETE FROM registry.modes');
all_match(qr/^200 /, 'and writable again once it is deleted', registrations());

# a prepared transaction commits where no cache hears of it: refused
my ($ret, $stdout, $stderr) = $node->psql('postgres', q{
BEGIN;
SELECT registry.set_mode('READONLY', 's');
PREPARE TRANSACTION 'mode'});
like($stderr, qr/cannot PREPARE a transaction that wrote the registry's tables/,
	'a transaction that wrote a mode is not prepared');
is($node->safe_psql('postgres', 'SELECT count(*) FROM pg_prepared_xacts'), '0', 'nothing is left prepared');
all_match(qr/^200 /, 'and the mode it set is not in force', registrations());

# the settings are kept: in a transaction that has written nothing the
# second and later reads probe no config or modes index; one that has
# written probes them each time
my $probes = q{(pg_stat_get_xact_numscans('registry.config_pkey'::regclass)
	+ pg_stat_get_xact_numscans('registry.modes_pkey'::regclass))};
# probes(PRELUDE): the probe counts after one read and after three more, in one transaction
sub probes
{
	my ($prelude) = @_;
	my $read = q{SELECT count(*) FROM registry.config_in_force('.', 'kept');};
	my @out = split /\n/, $node->safe_psql('postgres', qq{
BEGIN;
$prelude
$read
SELECT 'probes ' || $probes;
$read $read $read
SELECT 'probes ' || $probes;
COMMIT});
	return map { /^probes (\d+)/ ? $1 : () } @out;
}
my ($after_one, $after_four) = probes('');
cmp_ok($after_one, '>', 0, 'the first read probes the config and modes indexes');
is($after_four, $after_one, 'three more reads probe nothing: the settings were kept');
($after_one, $after_four) = probes(q{INSERT INTO registry.subjects (context, subject) VALUES ('.', 'w');});
cmp_ok($after_four, '>', $after_one, 'after a write each read probes again');

# a transaction's own uncommitted config, after this backend kept the committed one
like($node->safe_psql('postgres', q{
SELECT 'kept: ' || registry.set_compatibility('BACKWARD', 's');
SELECT count(*) FROM registry.check_compatibility('s', '} . plain(record(0, 'string')) . q{');
BEGIN;
SELECT registry.set_compatibility('NONE', 's');
SELECT 'registered: ' || (registry.register_schema('s', '} . plain(record(0, 'string')) . q{') > 0);
ROLLBACK;}), qr/registered: true/, 'a transaction registers under the level it set itself');
($status, $out) = rest($node, 'GET', '/config/s?defaultToGlobal=true');
like($out, qr/"compatibilityLevel": ?"BACKWARD"/, 'and after its rollback s is BACKWARD again');

# a config written with its trigger off and on again, while a statement
# that began before it runs: that statement reads (twice) in its own,
# older snapshot after the relcache invalidation has emptied this
# backend's cache, and what it reads must not be kept for the statements
# after it (the cache's horizon is taken again at the invalidation, so the
# old snapshot scans instead of filling the cache)
$node->safe_psql('postgres', q{SELECT registry.set_compatibility('NONE', 'hz')});
my $bg = $node->background_psql('postgres');
my $dba = $node->background_psql('postgres');
is($bg->query_safe(q{SELECT registry.get_compatibility('hz')}), 'NONE',
	'a session keeps the config of hz (NONE)');
# the statement takes its snapshot, then waits for the advisory lock the
# DBA's session holds until its change has committed
$dba->query_safe(q{SELECT pg_advisory_lock(77)});
$bg->query_until(qr/started/, q{\echo started
SELECT 'during ' || (SELECT 'waited' FROM pg_advisory_xact_lock_shared(77))
  || ' ' || registry.get_compatibility('hz') || ' ' || registry.get_compatibility('hz');
});
ok($node->poll_query_until('postgres',
	q{SELECT count(*) = 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted}),
	'the statement waits, its snapshot taken');
$dba->query_safe(q{
BEGIN;
ALTER TABLE registry.config DISABLE TRIGGER config_after_write;
UPDATE registry.config SET compatibility = 'FULL' WHERE subject = 'hz';
ALTER TABLE registry.config ENABLE ALWAYS TRIGGER config_after_write;
COMMIT;
SELECT pg_advisory_unlock(77)});
my $during = $bg->query_safe(q{SELECT 'after ' || registry.get_compatibility('hz')});
like($during, qr/during waited NONE NONE/, 'the statement that began before the change reads NONE, as its snapshot sees');
like($during, qr/after FULL/, 'the next statement of that session reads FULL')
  or diag($during);
$dba->quit;
$bg->quit;

$node->stop;
done_testing();
