# The scope cache's bound (scope_cache.c), at registry.scope_cache_size =
# 64kB for every process of the node: with no subject-level rows it keeps
# the answer for every subject, far past the 4,096 scopes it once emptied
# itself at; past its memory bound it evicts the least recently used
# scopes one by one and stays near that memory; and what it answers after
# evicting (rows of a table it had read whole among them) is what a scan
# answers, in a backend and in the HTTP workers.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('scope_cache_bound', conf => "registry.scope_cache_size = '64kB'");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION registry');
ok(wait_for_rest($node), 'the REST API answers');

my $probes = q{(pg_stat_get_xact_numscans('registry.config_pkey'::regclass)
	+ pg_stat_get_xact_numscans('registry.modes_pkey'::regclass))};
# the memory of the cache (its context and the hash table's under it)
my $memory = q{(SELECT sum(total_bytes) FROM pg_backend_memory_contexts
	WHERE name = 'registry scope cache' OR parent = 'registry scope cache')};

# READS(PRELUDE, SQL): in one transaction, after PRELUDE, SQL twice; the
# probes of the config and modes indexes by each, SQL's two answers and the
# cache's memory at the end
sub reads
{
	my ($prelude, $sql) = @_;
	my $out = $node->safe_psql('postgres', qq{
$prelude
BEGIN;
SELECT 'first ' || ($sql);
SELECT 'probes ' || $probes;
SELECT 'second ' || ($sql);
SELECT 'probes ' || $probes;
SELECT 'memory ' || $memory;
COMMIT});
	my @p = $out =~ /^probes (\d+)$/mg;
	my ($first) = $out =~ /^first (.*)$/m;
	my ($second) = $out =~ /^second (.*)$/m;
	my ($mem) = $out =~ /^memory (\d+)$/m;
	return ($p[0], $p[1] - $p[0], $first, $second, $mem);
}

# 6,000 subjects without settings of their own (before 0.7 the cache held
# 4,096 and emptied itself): even at 64kB the second round of reads probes
# nothing, as a subject with no rows takes no entry
my $each = q{SELECT count(*) FROM generate_series(1, 6000) g
	WHERE registry.effective_compatibility('.', 'n' || g) = 'BACKWARD'};
my ($p1, $p2, $first, $second, $mem) = reads('', $each);
is($first, 6000, 'the settings of 6,000 subjects with no rows of their own');
cmp_ok($p1, '>', 0, 'the first reads probe the tables');
is($p2, 0, 'the second reads of all 6,000 probe nothing: every answer was kept');
is($second, 6000, 'and answer the same');

# 100 subjects with a config of their own, an alias among its settings (the
# config table fits the cache whole), 2,000 with a mode of their own (the
# modes table does not: reading them evicts config rows)
$node->safe_psql('postgres', q{
INSERT INTO registry.config (context, subject, compatibility, settings)
	SELECT '.', 'c' || g, 'NONE', jsonb_build_object('alias', 't' || g)
	FROM generate_series(1, 100) g;
INSERT INTO registry.modes (context, subject, mode)
	SELECT '.', 'm' || g, 'READONLY' FROM generate_series(1, 2000) g});

my $rounds = q{SELECT string_agg(n::text, ' ') FROM (
	SELECT (SELECT count(*) FROM generate_series(1, 100) g
		WHERE registry.effective_compatibility('.', 'c' || g) = 'NONE') AS n, 1 AS o
	UNION ALL
	SELECT (SELECT count(*) FROM generate_series(1, 2000) g
		WHERE registry.effective_mode('.', 'm' || g) = 'READONLY'), 2
	UNION ALL
	SELECT (SELECT count(*) FROM generate_series(1, 100) g
		WHERE registry.served_subject('c' || g) = 't' || g), 3
	UNION ALL
	SELECT (SELECT count(*) FROM generate_series(1, 100) g
		WHERE registry.effective_compatibility('.', 'c' || g) = 'NONE'
		  AND registry.effective_mode('.', 'c' || g) = 'READWRITE'), 3
	UNION ALL
	SELECT (SELECT count(*) FROM generate_series(1, 2000) g
		WHERE registry.effective_compatibility('.', 'm' || g) = 'BACKWARD'), 4
	ORDER BY o, n) r};
($p1, $p2, $first, $second, $mem) = reads('', $rounds);
is($first, '100 2000 100 100 2000', 'at 64kB, each subject has its own settings');
is($second, '100 2000 100 100 2000',
	'and again after its scopes were evicted for the 2,000 others');
cmp_ok($p2, '>', 0, 'the second round probes again: the cache did not keep all 2,100 scopes');
cmp_ok($mem, '<=', 3 * 64 * 1024, "the cache's memory stays near its 64kB ($mem bytes)");

# the HTTP workers (64kB by the node's configuration): a config read, its
# scope evicted by reads of others, then written: in force at once
sub rest_body { my @r = rest($node, @_); return "$r[0] $r[1]"; }
like(rest_body('GET', '/config/c7'), qr/"compatibilityLevel": ?"NONE"/, 'c7 is NONE over HTTP');
my $readonly = grep { rest_body('GET', "/mode/m$_?defaultToGlobal=true") =~ /READONLY/ } 1 .. 300;
is($readonly, 300, 'the workers read 300 other scopes, each READONLY');
like(rest_body('GET', '/config/c7'), qr/"compatibilityLevel": ?"NONE"/,
	'c7 is still NONE after 300 other scopes were read');
$node->safe_psql('postgres', q{SELECT registry.set_compatibility('FULL', 'c7')});
like(rest_body('GET', '/config/c7'), qr/"compatibilityLevel": ?"FULL"/,
	'a config written for c7 afterwards is in force at once');
like(rest_body('GET', '/config/c8'), qr/"compatibilityLevel": ?"NONE"/, 'c8 is still NONE');

$node->stop;
done_testing();
