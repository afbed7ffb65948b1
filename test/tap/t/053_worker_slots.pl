# registry.http_workers and registry.http_pool_workers needing more
# background worker slots than max_worker_processes leaves is said at
# server start, with the setting to raise; the workers that found a slot
# serve.
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $node = registry_node('slots',
	conf => "registry.http_workers = 4\nmax_worker_processes = 3\n");
$node->start;
ok( $node->log_contains(
		'registry.http_workers = 4 and registry.http_pool_workers = 2 need more background worker slots than max_worker_processes = 3 leaves'),
	'a WARNING at start names both settings');
ok($node->log_contains('Set max_worker_processes to at least'), 'and says what to set');
$node->stop;

my $fits = registry_node('slots_fit',
	conf => "registry.http_workers = 2\nmax_worker_processes = 16\n");
$fits->start;
ok(!$fits->log_contains('background worker slots'), 'no line when the slots suffice');
$fits->stop;
done_testing();
