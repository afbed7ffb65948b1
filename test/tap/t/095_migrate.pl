# registry-migrate: a copy between two registries keeps every id, soft
# deletes, references, contexts, configs and modes (--verify compares every
# answer); an interrupted copy resumes to the same result; a run over a
# finished copy writes nothing; a _schemas dump in Confluent's record format
# (soft and hard deletes, tombstones, config and mode records, references)
# is imported; a dump written and imported again gives the same answers;
# bad input is named by subject and version and leaves the target usable;
# HTTPS with a CA given, HTTP Basic; KEKs and DEKs (against a stand-in)
use strict;
use warnings;

use FindBin;
use lib "$FindBin::Bin/..";
use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Utils;
use RegistryTest;
use Test::More;

my $json = JSON::PP->new->canonical;

# "copy" serves HTTPS and takes HTTP Basic only: registry-migrate checks
# its certificate with --ca and signs in with --to-user
my $certdir = PostgreSQL::Test::Utils::tempdir;
my ($cert, $key) = ("$certdir/server.pem", "$certdir/server.key");
IPC::Run::run([ 'openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256',
		'-nodes', '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
		'-keyout', $key, '-out', $cert ], '>', \my $ignore, '2>', \my $ignore2) or die "openssl failed";
chmod(0600, $key);
my %nodes;
for my $name (qw(src dst dump copy))
{
	$nodes{$name} = $name eq 'copy'
	  ? registry_node($name, safe_defaults => 1, conf => "registry.http_auth = basic\n"
		  . "registry.http_tls_cert_file = '$cert'\nregistry.http_tls_key_file = '$key'\n")
	  : registry_node($name);
	$nodes{$name}->start;
	$nodes{$name}->safe_psql('postgres', 'CREATE EXTENSION registry');
}
$nodes{copy}->safe_psql('postgres', "CREATE ROLE mover LOGIN PASSWORD 'mover-pw' IN ROLE registry_admin");
for my $name (qw(src dst dump))
{
	ok(wait_for_rest($nodes{$name}), "$name: the REST API answers");
}
my ($src, $dst, $dumpnode, $copy) = @nodes{qw(src dst dump copy)};
sub url { return ($_[0] == $copy ? 'https' : 'http') . '://127.0.0.1:' . http_port($_[0]) }

# copy_get(PATH): a signed-in GET from "copy" over HTTPS; (status, decoded body)
sub copy_get
{
	my ($st, $out) = curl_rest('-u', 'mover:mover-pw', '--cacert', $cert, url($copy) . $_[0]);
	my $decoded = eval { decode_json($out) };
	return ($st, defined $decoded ? $decoded : $out);
}
my $up = 0;
for (my $i = 0; $i < 300 && !$up; $i++)
{
	my ($st) = copy_get('/subjects');
	$up = $st == 200;
	select(undef, undef, undef, 0.1) unless $up;
}
ok($up, 'copy: the REST API answers a signed-in request over HTTPS');

# migrate(ARGS...): run registry-migrate; (exit status, stdout, stderr)
sub migrate
{
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'registry-migrate', '--no-progress', @_ ], '>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

# post(NODE, PATH, BODY): a write that must succeed
sub post
{
	my ($node, $method, $path, $body) = @_;
	my ($status, $out) = rest($node, $method, $path, defined $body ? $json->encode($body) : undef);
	die "$method $path: $status $out" unless $status == 200;
	return $out;
}

sub avro_record
{
	my ($name, @fields) = @_;
	return $json->encode({ type => 'record', name => $name,
		fields => [ map { { name => $_, type => 'int', default => 0 } } @fields ] });
}

# --- the source: a bit of everything
post($src, 'PUT', '/config', { compatibility => 'NONE' });
post($src, 'POST', '/subjects/addr/versions', { schema => $json->encode({ type => 'record',
			name => 'Addr', namespace => 'com.acme', fields => [ { name => 'street', type => 'string' } ] }) });
post($src, 'POST', '/subjects/addr/versions', { schema => $json->encode({ type => 'record',
			name => 'Addr', namespace => 'com.acme',
			fields => [ { name => 'street', type => 'string' }, { name => 'zip', type => 'string', default => '' } ] }) });
# person references addr 1 then addr 2, and was registered before the
# filler subjects below: its id is lower than theirs, its references' not
post($src, 'POST', '/subjects/person/versions', {
		schema => $json->encode({ type => 'record', name => 'Person',
				fields => [ { name => 'a', type => 'com.acme.Addr' } ] }),
		references => [ { name => 'com.acme.Addr', subject => 'addr', version => 1 } ],
		metadata => { properties => { owner => 'team-a' } },
		ruleSet => { domainRules => [ { name => 'r1', kind => 'CONDITION', mode => 'WRITE', type => 'CEL', expr => 'true' } ] } });
post($src, 'POST', '/subjects/person/versions', {
		schema => $json->encode({ type => 'record', name => 'Person',
				fields => [ { name => 'a', type => 'com.acme.Addr' }, { name => 'n', type => 'int', default => 0 } ] }),
		references => [ { name => 'com.acme.Addr', subject => 'addr', version => 2 } ] });
# gaps: version 1 hard-deleted, version 2 soft-deleted
post($src, 'POST', '/subjects/gone/versions', { schema => avro_record('G', 'a') });
post($src, 'POST', '/subjects/gone/versions', { schema => avro_record('G', 'a', 'b') });
post($src, 'POST', '/subjects/gone/versions', { schema => avro_record('G', 'a', 'b', 'c') });
post($src, 'DELETE', '/subjects/gone/versions/1');
post($src, 'DELETE', '/subjects/gone/versions/1?permanent=true');
post($src, 'DELETE', '/subjects/gone/versions/2');
# a subject soft-deleted whole; a schema soft-deleted then registered again
post($src, 'POST', '/subjects/dead/versions', { schema => '"bytes"' });
post($src, 'DELETE', '/subjects/dead');
post($src, 'POST', '/subjects/again/versions', { schema => '"float"' });
post($src, 'DELETE', '/subjects/again/versions/1');
post($src, 'POST', '/subjects/again/versions', { schema => '"float"' });
# PROTOBUF with an import, JSON Schema
post($src, 'POST', '/subjects/p.proto/versions', { schemaType => 'PROTOBUF',
		schema => "syntax = \"proto3\";\npackage p;\nmessage Dep { int32 n = 1; }\n" });
post($src, 'POST', '/subjects/m-value/versions', { schemaType => 'PROTOBUF',
		schema => "syntax = \"proto3\";\nimport \"p.proto\";\nmessage M { p.Dep d = 1; }\n",
		references => [ { name => 'p.proto', subject => 'p.proto', version => 1 } ] });
post($src, 'POST', '/subjects/j-value/versions', { schemaType => 'JSON',
		schema => '{"type":"object","properties":{"x":{"type":"string"}}}' });
# a context: ids of its own, a reference inside it
post($src, 'POST', '/subjects/:.team:orders/versions', { schema => avro_record('O', 'id') });
post($src, 'POST', '/subjects/:.team:items/versions', {
		schema => $json->encode({ type => 'record', name => 'I', fields => [ { name => 'o', type => 'O' } ] }),
		references => [ { name => 'O', subject => 'orders', version => 1 } ] });
# configs and modes of every scope
post($src, 'PUT', '/config/:.team:', { compatibility => 'FULL' });
post($src, 'PUT', '/config/:.__GLOBAL:', { compatibility => 'FORWARD' });
post($src, 'PUT', '/config/person', { compatibility => 'BACKWARD_TRANSITIVE',
		defaultMetadata => { properties => { x => '1' } } });
post($src, 'PUT', '/mode/addr', { mode => 'READONLY' });
post($src, 'PUT', '/mode/:.team:', { mode => 'READWRITE' });

# --- the command line
my ($rc, $out, $err) = migrate('--to', url($dst));
is($rc, 2, 'no source is a usage error (exit 2)');
like($err, qr/give one source/, 'saying what is missing');
($rc, $out) = migrate('--help');
like($out, qr/^Usage: registry-migrate/, '--help prints the usage');

# --- a dry run plans and writes nothing
($rc, $out) = migrate('--from', url($src), '--to', url($dst), '--dry-run', '--json');
my $dry = decode_json($out);
ok(@{ $dry->{plan} } > 20 && (grep { $_->{op} eq 'register' && $_->{subject} eq 'person' } @{ $dry->{plan} }) == 2,
	'--dry-run --json lists the plan, each registration with its subject, version and id');
($rc, $out, $err) = migrate('--from', url($src), '--to', url($dst), '--dry-run');
is($rc, 0, 'a dry run succeeds');
like($out, qr/^register person version 2 id \d+$/m, 'it prints each registration with its id');
like($out, qr/^soft-delete gone version 2$/m, 'and each soft delete');
like($out, qr/^set mode addr READONLY$/m, 'and each mode');
my ($planned) = $out =~ /^plan: (\d+) writes$/m;
ok($planned > 20, "a plan of $planned writes");
my ($status, $body) = rest($dst, 'GET', '/subjects?deleted=true');
is($body, '[]', 'the dry run wrote nothing');

# --- an interrupted copy (stopped, as a kill would, amid the registrations), then resumed
my $stop = 3 + scalar(() = $out =~ /^set mode \S+ IMPORT$/mg);
($rc, $out, $err) = migrate('--from', url($src), '--to', url($dst), '--max-writes', $stop);
is($rc, 3, "a copy stopped after $stop writes exits 3");
like($err, qr/stopped after $stop writes/, 'and says so');
($status, $body) = rest_json($dst, 'GET', '/subjects?deleted=true');
ok(@$body > 0 && @$body < 10, 'leaving some subjects copied');
($rc, $out) = migrate('--from', url($src), '--to', url($dst), '--verify');
is($rc, 1, 'verify finds the half-done copy different');
($rc, $out, $err) = migrate('--from', url($src), '--to', url($dst), '--json');
is($rc, 0, 'the second run finishes the copy') or diag($err);
my $summary = decode_json($out);
is($summary->{status}, 'ok', '--json summarises it');
my $written = 0;
$written += $_ for values %{ $summary->{written} };
is($written, $planned - $stop, 'writing what the first run did not') or diag("stop $stop planned $planned: $out");

($rc, $out, $err) = migrate('--from', url($src), '--to', url($dst), '--verify');
is($rc, 0, 'verify: source and target agree') or diag($out . $err);
my ($compared, $differ) = $out =~ /^verify: (\d+) answers compared, (\d+) differ$/m;
ok($compared >= 20, "every answer compared ($compared)");

# the answers themselves, not only the verifier's word
for my $path ('/subjects?deleted=true', '/subjects', '/subjects/gone/versions?deleted=true',
	'/subjects/gone/versions', '/subjects/dead/versions?deleted=true', '/subjects/again/versions',
	'/subjects/person/versions/1', '/subjects/person/versions/2/referencedby',
	'/subjects/addr/versions/1/referencedby', '/subjects/:.team:items/versions/1',
	'/contexts', '/config/person', '/config/:.team:', '/config/:.__GLOBAL:', '/config',
	'/mode/addr', '/mode/:.team:', '/mode/person', '/mode',
	'/subjects/m-value/versions/1/schema', '/subjects/gone/versions/2?deleted=true')
{
	my ($s1, $a) = rest_json($src, 'GET', $path);
	my ($s2, $b) = rest_json($dst, 'GET', $path);
	if (ref $a eq 'HASH') { delete $a->{ts}; delete $b->{ts} if ref $b eq 'HASH'; }
	is_deeply([ $s2, $b ], [ $s1, $a ], "GET $path answers the same");
}
my ($s, $ids) = rest_json($src, 'GET', '/schemas?deleted=true');
for my $schema (@$ids)
{
	my $q = $schema->{subject} =~ /^:\.team:/ ? '?subject=:.team:' : '';
	my ($s1, $a) = rest_json($src, 'GET', "/schemas/ids/$schema->{id}$q");
	my ($s2, $b) = rest_json($dst, 'GET', "/schemas/ids/$schema->{id}$q");
	is_deeply($b->{schema}, $a->{schema}, "id $schema->{id} ($schema->{subject}) is the same schema");
}
($s, $body) = rest_json($dst, 'GET', '/mode/gone');
is($s, 404, 'a subject the copy put in IMPORT has no mode of its own after');

# --- a run over a finished copy writes nothing
($rc, $out) = migrate('--from', url($src), '--to', url($dst), '--json');
$summary = decode_json($out);
is_deeply([ $rc, $summary->{planned}, $summary->{written} ], [ 0, {}, {} ],
	'a run over the finished copy plans and writes nothing');

# new versions in the source since: a later run copies only them
post($src, 'PUT', '/mode/addr', { mode => 'READWRITE' });
post($src, 'POST', '/subjects/addr/versions', { schema => $json->encode({ type => 'record',
			name => 'Addr', namespace => 'com.acme',
			fields => [ { name => 'street', type => 'string' }, { name => 'zip', type => 'string', default => '' },
				{ name => 'city', type => 'string', default => '' } ] }) });
post($src, 'PUT', '/mode/addr', { mode => 'READONLY' });
($rc, $out) = migrate('--from', url($src), '--to', url($dst), '--json');
$summary = decode_json($out);
is_deeply($summary->{written}, { import => 1, register => 1, mode => 1 },
	'a later run copies the new version into a READONLY subject and gives the mode back');
($rc) = migrate('--from', url($src), '--to', url($dst), '--verify');
is($rc, 0, 'and the two agree again');

# --- a copy killed mid-way (SIGKILL amid the registrations), then resumed
for my $i (1 .. 300)
{
	post($src, 'POST', "/subjects/:.bulk:s$i/versions", { schema => avro_record("B$i", 'x') });
}
sub bulk_count
{
	my (undef, $list) = rest_json($dst, 'GET', '/subjects?deleted=true');
	return scalar grep { /^:\.bulk:/ } @$list;
}
my ($kout, $kerr) = ('', '');
my $h = IPC::Run::start([ 'registry-migrate', '--no-progress', '--from', url($src), '--to', url($dst) ],
	'>', \$kout, '2>', \$kerr);
my $seen = 0;
for (my $i = 0; $i < 600 && $seen < 20; $i++)
{
	$seen = bulk_count();
	select(undef, undef, undef, 0.05) if $seen < 20;
}
$h->signal('KILL');
$h->finish;
select(undef, undef, undef, 0.5);	# a registration in flight at the kill settles
my $killed_at = bulk_count();
ok($killed_at >= 20 && $killed_at < 300, "killed with $killed_at of 300 subjects copied");
my ($st, $v);
($st, $body) = rest_json($dst, 'GET', '/mode/:.bulk:s300');
is_deeply($body, { mode => 'IMPORT' }, 'a subject not yet copied was left in IMPORT');
($rc, $out, $err) = migrate('--from', url($src), '--to', url($dst), '--json');
is($rc, 0, 'the run after the kill finishes the copy') or diag($err);
is(decode_json($out)->{written}{register}, 300 - $killed_at, 'registering only what the killed run did not');
($rc, $out, $err) = migrate('--from', url($src), '--to', url($dst), '--verify');
is($rc, 0, 'and the two agree') or diag($out . $err);
($st) = rest($dst, 'GET', '/mode/:.bulk:s300');
is($st, 404, 'no subject left in IMPORT');

# --- a _schemas dump as Confluent writes it
my @records;
sub rec { push @records, $json->encode($_[0]) . "\t" . (defined $_[1] ? $json->encode($_[1]) : 'null') }
sub skey { return { keytype => 'SCHEMA', subject => $_[0], version => $_[1], magic => 1 } }
sub sval
{
	my ($subject, $version, $id, $schema, %more) = @_;
	return { subject => $subject, version => $version, id => $id, schema => $schema, deleted => JSON::PP::false, %more };
}
rec({ keytype => 'NOOP', magic => 0 }, undef);
rec({ keytype => 'CONFIG', magic => 0 }, { compatibilityLevel => 'FULL' });
rec({ keytype => 'MODE', magic => 0 }, { mode => 'READWRITE' });
rec(skey('a', 1), sval('a', 1, 100, avro_record('A', 'x')));
rec(skey('a', 2), sval('a', 2, 101, avro_record('A', 'x', 'y')));
rec(skey('a', 3), sval('a', 3, 102, avro_record('A', 'x', 'y', 'z')));
# a soft delete is the record again with deleted true; a hard delete a tombstone
rec(skey('a', 2), sval('a', 2, 101, avro_record('A', 'x', 'y'), deleted => JSON::PP::true));
rec(skey('b', 1), sval('b', 1, 103, avro_record('B', 'x')));
rec(skey('b', 1), sval('b', 1, 103, avro_record('B', 'x'), deleted => JSON::PP::true));
rec(skey('b', 1), undef);
# DELETE_SUBJECT soft-deletes up to its version
rec(skey('c', 1), sval('c', 1, 104, avro_record('C', 'x')));
rec(skey('c', 2), sval('c', 2, 105, avro_record('C', 'x', 'y')));
rec({ keytype => 'DELETE_SUBJECT', subject => 'c', magic => 0 }, { subject => 'c', version => 2 });
# references, in a protobuf import and in Avro
rec(skey('d', 1), sval('d', 1, 106, $json->encode({ type => 'record', name => 'D',
				fields => [ { name => 'a', type => 'A' } ] }),
		references => [ { name => 'A', subject => 'a', version => 1 } ]));
rec(skey('dep.proto', 1), sval('dep.proto', 1, 107, "syntax = \"proto3\";\nmessage Dep {\n  int32 n = 1;\n}\n",
		schemaType => 'PROTOBUF'));
rec(skey('e-value', 1), sval('e-value', 1, 108,
		"syntax = \"proto3\";\nimport \"dep.proto\";\n\nmessage E {\n  Dep d = 1;\n}\n",
		schemaType => 'PROTOBUF', references => [ { name => 'dep.proto', subject => 'dep.proto', version => 1 } ],
		metadata => { properties => { owner => 'x' } }));
# config and mode records of subjects, one taken back by a tombstone
rec({ keytype => 'CONFIG', subject => 'a', magic => 0 }, { compatibilityLevel => 'NONE' });
rec({ keytype => 'CONFIG', subject => 'c', magic => 0 }, { compatibilityLevel => 'FORWARD' });
rec({ keytype => 'CONFIG', subject => 'c', magic => 0 }, undef);
rec({ keytype => 'MODE', subject => 'a', magic => 0 }, { mode => 'READONLY' });
rec({ keytype => 'MODE', subject => 'd', magic => 0 }, { mode => 'READONLY' });
rec({ keytype => 'MODE', subject => 'd', magic => 0 }, undef);
# a context, and CLEAR_SUBJECT dropping a soft-deleted version
rec(skey(':.ctx:f', 1), sval(':.ctx:f', 1, 1, avro_record('F', 'x')));
rec({ keytype => 'CONFIG', subject => ':.ctx:', magic => 0 }, { compatibilityLevel => 'NONE' });
rec(skey('g', 1), sval('g', 1, 109, avro_record('G2', 'x'), deleted => JSON::PP::true));
rec({ keytype => 'CLEAR_SUBJECT', subject => 'g', magic => 0 }, { subject => 'g' });
my $dumpfile = "$PostgreSQL::Test::Utils::tmp_check/confluent.dump";
open(my $fh, '>', $dumpfile) or die;
print $fh "$_\n" for @records;
close($fh);

($rc, $out, $err) = migrate('--from-dump', $dumpfile, '--to', url($dumpnode));
is($rc, 0, 'a _schemas dump imports') or diag($err);
my %want = (
	'/subjects' => [qw(:.ctx:f a d dep.proto e-value)],
	'/subjects?deleted=true' => [qw(:.ctx:f a c d dep.proto e-value)],
	'/subjects/a/versions' => [ 1, 3 ],
	'/subjects/a/versions?deleted=true' => [ 1, 2, 3 ],
	'/subjects/c/versions?deleted=true' => [ 1, 2 ],
	'/config' => { compatibilityLevel => 'FULL' },
	'/config/a' => { compatibilityLevel => 'NONE' },
	'/config/:.ctx:' => { compatibilityLevel => 'NONE' },
	'/mode/a' => { mode => 'READONLY' },
	'/contexts' => [ '.', '.ctx' ],
);
for my $path (sort keys %want)
{
	my ($st, $got) = rest_json($dumpnode, 'GET', $path);
	$got = [ sort @$got ] if ref $got eq 'ARRAY' && $path =~ /^\/subjects\?|^\/subjects$/;
	is_deeply($got, $want{$path}, "dump import: GET $path");
}
for my $gone ('/subjects/b/versions', '/config/c', '/mode/d', '/subjects/g/versions?deleted=true')
{
	my ($st) = rest($dumpnode, 'GET', $gone);
	is($st, 404, "dump import: a tombstone or CLEAR_SUBJECT leaves nothing at $gone");
}
($st, $v) = rest_json($dumpnode, 'GET', '/subjects/e-value/versions/1');
is_deeply([ $v->{id}, $v->{references}, $v->{metadata} ],
	[ 108, [ { name => 'dep.proto', subject => 'dep.proto', version => 1 } ], { properties => { owner => 'x' } } ],
	'dump import: id, references and metadata kept');
($st, $v) = rest_json($dumpnode, 'GET', '/schemas/ids/1?subject=:.ctx:f');
is($st, 200, 'dump import: id 1 in context .ctx');
($rc, $out, $err) = migrate('--from-dump', $dumpfile, '--to', url($dumpnode), '--verify');
is($rc, 0, 'verify: the dump and the target agree') or diag($out . $err);

# --- written out, imported again: the same answers
my $dump2 = "$PostgreSQL::Test::Utils::tmp_check/out.dump";
my $dump3 = "$PostgreSQL::Test::Utils::tmp_check/again.dump";
($rc) = migrate('--from', url($dumpnode), '--to-dump', $dump2);
is($rc, 0, 'a registry is written out as a _schemas dump');
my $text = slurp_file($dump2);
like($text, qr/^\{"keytype":"SCHEMA","subject":"a","version":2,"magic":1\}\t\{[^\n]*"deleted":true\}$/m,
	"in Confluent's record format, soft deletes included");
my @auth = ('--to-user', 'mover:mover-pw', '--ca', $cert);
($rc, $out, $err) = migrate('--from-dump', $dump2, '--to', url($copy), '--to-user', 'mover:mover-pw');
is($rc, 2, 'a target whose certificate is not checked by a CA given is trouble');
like($err, qr/reading the target: GET https:\S+: .*(certificate|issuer|SSL)/i, 'saying so');
($rc, $out, $err) = migrate('--from-dump', $dump2, '--to', url($copy), '--to-ca', $cert);
is($rc, 2, 'a target that wants credentials, given none, is trouble');
like($err, qr/reading the target: GET https:\S+: HTTP 401/, "saying so (HTTP 401)");
($rc, $out, $err) = migrate('--from-dump', $dump2, '--to', url($copy), @auth);
is($rc, 0, 'the written dump imports (with basic auth)') or diag($err);
($rc, $out, $err) = migrate('--from', url($dumpnode), '--to', url($copy), '--verify', @auth);
is($rc, 0, 'and the copy answers as the registry it came from') or diag($out . $err);
{
	local $ENV{REGISTRY_MIGRATE_FROM_USER} = 'mover:mover-pw';
	migrate('--from', url($copy), '--from-ca', $cert, '--to-dump', $dump3);
}
is(slurp_file($dump3), $text, 'written out again, the dump is the same');

# --- bad input: named by subject and version, the target left usable
open($fh, '>', "$dumpfile.bad") or die;
print $fh $json->encode(skey('bad', 1)) . "\t" . $json->encode(sval('bad', 1, 300, avro_record('Bad', 'x'))) . "\n";
print $fh $json->encode(skey('bad', 2)) . "\t" . $json->encode(sval('bad', 2, 301, '{"type":"recor"}')) . "\n";
close($fh);
($rc, $out, $err) = migrate('--from-dump', "$dumpfile.bad", '--to', url($copy), @auth);
is($rc, 1, 'a schema the target refuses fails the run');
like($err, qr/subject "bad" version 2: register refused: HTTP 422/, 'naming the subject and version');
($st, $v) = copy_get('/subjects/bad/versions');
is_deeply($v, [1], 'the versions before it are whole');
($st) = copy_get('/mode/bad');
is($st, 404, 'and the subject is not left in IMPORT');
open($fh, '>', "$dumpfile.broken") or die;
print $fh $json->encode(skey('x', 1)) . "\t{\"subject\":\"x\",\n";
close($fh);
($rc, $out, $err) = migrate('--from-dump', "$dumpfile.broken", '--to', url($copy), @auth);
is($rc, 2, 'an unreadable dump is trouble');
like($err, qr/broken:1: SCHEMA record of subject "x": the value is not JSON/, 'named by line and subject');
open($fh, '>', "$dumpfile.other") or die;
print $fh $json->encode(skey('fresh', 1)) . "\t" . $json->encode(sval('fresh', 1, 400, avro_record('Fresh', 'x'))) . "\n";
print $fh $json->encode(skey('a', 1)) . "\t" . $json->encode(sval('a', 1, 999, avro_record('Other', 'x'))) . "\n";
print $fh $json->encode(skey('orphan', 1)) . "\t" . $json->encode(sval('orphan', 1, 401, avro_record('Orphan', 'x'),
		references => [ { name => 'N', subject => 'nowhere', version => 1 } ])) . "\n";
close($fh);
($rc, $out, $err) = migrate('--from-dump', "$dumpfile.other", '--to', url($copy), @auth);
is($rc, 1, 'a version the target holds with other content is refused');
like($err, qr/subject "a" version 1: the target holds other content \(id 100\) than the source \(id 999\).*nothing written/s,
	'naming both ids');
like($err, qr/subject "orphan" version 1: it references subject "nowhere" version 1, which neither registry has/,
	'a reference to a version neither registry has is named');
($st) = copy_get('/subjects/fresh/versions');
is($st, 404, 'and with bad input nothing of the run is written');

# the DEK registry is skipped when a registry has none
($rc, $out, $err) = migrate('--from', url($src), '--to', url($dst), '--dry-run');
unlike($err, qr/dek-registry/i, 'a registry without /dek-registry is no error');

# --- KEKs and DEKs, over Confluent's /dek-registry routes, against a
# stand-in (dek_mock.py): one seeded, one empty, one without a DEK registry
my %mock;
for my $m ([ 'seeded', '--seed' ], [ 'empty' ], [ 'nodek', '--no-dek' ])
{
	my $port = PostgreSQL::Test::Cluster::get_free_port();
	$mock{ $m->[0] } = { port => $port,
		h => IPC::Run::start([ 'python3', "$FindBin::Bin/../dek_mock.py", $port, @$m[ 1 .. $#$m ] ]) };
	my $up = 0;
	for (my $i = 0; $i < 100 && !$up; $i++)
	{
		my ($st) = curl_rest("http://127.0.0.1:$port/subjects");
		$up = $st == 200;
		select(undef, undef, undef, 0.1) unless $up;
	}
	ok($up, "dek mock $m->[0] answers");
}
sub murl { return "http://127.0.0.1:$mock{$_[0]}{port}" }
($rc, $out) = migrate('--from', murl('seeded'), '--to', murl('empty'), '--dry-run');
like($out, qr/^create KEK k2\n.*^create DEK k1 orders-value AES256_GCM version 2\n.*^soft-delete DEK k1 orders-value AES256_GCM version 2\n^soft-delete KEK k2$/ms,
	'KEKs, then DEKs (each algorithm), then their soft deletes, DEKs first');
($rc, $out) = migrate('--from', murl('seeded'), '--to', murl('empty'), '--max-writes', 3);
is($rc, 3, 'a KEK copy interrupted');
($rc, $out, $err) = migrate('--from', murl('seeded'), '--to', murl('empty'), '--json');
is_deeply([ $rc, decode_json($out)->{written} ], [ 0, { dek => 3, 'dek-delete' => 1, 'kek-delete' => 1 } ],
	'and resumed') or diag($out . $err);
($rc, $out, $err) = migrate('--from', murl('seeded'), '--to', murl('empty'), '--verify');
like($out, qr/^verify: 9 answers compared, 0 differ$/m, 'every KEK and DEK answers the same');
(undef, $body) = curl_rest(murl('empty') . '/_state');
is_deeply(decode_json($body)->{deks},
	[ 'k1/orders-value/AES128_GCM/1', 'k1/orders-value/AES256_GCM/1', 'k1/orders-value/AES256_GCM/2/deleted',
		'k2/users-value/AES256_SIV/1' ], 'the DEKs, soft-deleted one included');
($rc, $out) = migrate('--from', murl('seeded'), '--to', murl('empty'), '--json');
is_deeply(decode_json($out)->{planned}, {}, 'a second run plans nothing');
($rc, $out, $err) = migrate('--from', murl('seeded'), '--to', murl('nodek'));
is($rc, 0, 'a target without a DEK registry is no error');
like($err, qr/the target has no DEK registry \(\/dek-registry answers 404\): 2 KEKs and 4 DEKs are not copied/,
	'the KEKs and DEKs are skipped with a note');
$_->{h}->kill_kill for values %mock;

$_->stop for values %nodes;
done_testing();
