# Every route, round trip: metrics, registration, lookup, compatibility,
# references, config, mode, contexts, data contracts, guids, aliases, the
# workers' caches, deletes; then keep-alive.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;
use Digest::MD5 qw(md5);

my $S1 = "$RUN-s1";
my $S2 = "$RUN-ref";
my $SL = "$RUN/slash";      # a subject containing "/"
my $SLE = "$RUN%2Fslash";
my $REC = "R_$RUN";         # record name unique per run, so are the schemas and their ids
my $A1 = avro($REC);
my $A2 = avro($REC, $F_B);
my $A3 = avro($REC, "$F_B,$F_C");

req GET => '/';
expect 'GET / -> {}', 200, sub { jeq($_, '{}') };
check 'GET / Content-Type is application/vnd.schemaregistry.v1+json',
  ($HDRS->{'content-type'} // '') =~ m{^application/vnd\.schemaregistry\.v1\+json}i,
  $HDRS->{'content-type'};
req POST => '/', '{}';
expect 'POST / -> {}', 200, sub { jeq($_, '{}') };
req GET => '/', undef, Accept => 'application/json';
expect 'GET / with Accept: application/json', 200, sub { jeq($_, '{}') };
req GET => '/schemas/types';
expect 'GET /schemas/types contains AVRO', 200, sub { grep { $_ eq 'AVRO' } @$_ };

# --- GET /metrics ---------------------------------------------------------

# metric(NAME [, LABELS]): the value of one sample in the last scrape ($BODY), 0 if absent
sub metric
{
	my ($name, $labels) = @_;
	my $key = defined $labels ? "$name\{$labels}" : $name;
	my $v;
	for (split /\n/, $BODY)
	{
		my @f = split ' ';
		$v = $f[1] if @f >= 2 && $f[0] eq $key;
	}
	return defined $v && $v ne '' ? $v : 0;
}
req GET => '/metrics', undef, Accept => 'application/json';
check q{GET /metrics answers 200 in Prometheus' text format, whatever Accept says},
  $STATUS eq '200' && ($HDRS->{'content-type'} // '') =~ m{^text/plain; version=0\.0\.4}i,
  "HTTP $STATUS " . ($HDRS->{'content-type'} // '');
my @missing;
for my $m (
	qw(kafka_schema_registry_api_success_count kafka_schema_registry_api_failure_count
	kafka_schema_registry_master_slave_role kafka_schema_registry_node_count
	kafka_schema_registry_registered_count kafka_schema_registry_deleted_count
	kafka_schema_registry_avro_schemas_created kafka_schema_registry_json_schemas_created
	kafka_schema_registry_protobuf_schemas_deleted))
{
	push @missing, $m unless $BODY =~ /^# TYPE \Q$m\E /m && $BODY =~ /^\Q$m\E [0-9]/m;
}
check q{the scrape has Confluent's metric names}, !@missing, "missing: @missing";
check 'this node reports itself as the primary', metric('kafka_schema_registry_master_slave_role') eq '1',
  metric('kafka_schema_registry_master_slave_role');
my $ok0 = metric('kafka_schema_registry_api_success_count');
my $bad0 = metric('kafka_schema_registry_api_failure_count');
my $avro0 = metric('kafka_schema_registry_avro_schemas_created');
my $del0 = metric('kafka_schema_registry_deleted_count');
my $reg0 = metric('registry_http_requests_total', 'method="POST",route="/subjects/*/versions",code="2xx"');
req POST => "/subjects/$RUN-metrics/versions", '{"schema":"{\"type\":\"fixed\",\"name\":\"M\",\"size\":3}"}';
req GET => "/subjects/$RUN-metrics/versions";
req GET => "/subjects/$RUN-metrics/versions/1";
req GET => "/subjects/$RUN-metrics-none/versions";
req DELETE => "/subjects/$RUN-metrics/versions/1";
req GET => '/no/such/route';
req GET => '/metrics';
my $ok1 = metric('kafka_schema_registry_api_success_count');
my $bad1 = metric('kafka_schema_registry_api_failure_count');
check "api_success_count counts every answer below 400, over all workers ($ok0 -> $ok1: the last scrape and 4 requests)",
  $ok1 - $ok0 == 5, 'delta ' . ($ok1 - $ok0);
check "api_failure_count counts the 404s ($bad0 -> $bad1)", $bad1 - $bad0 == 2, 'delta ' . ($bad1 - $bad0);
check 'avro_schemas_created counts the registered version',
  metric('kafka_schema_registry_avro_schemas_created') - $avro0 == 1,
  "$avro0 -> " . metric('kafka_schema_registry_avro_schemas_created');
check 'deleted_count counts the soft-deleted version', metric('kafka_schema_registry_deleted_count') - $del0 == 1,
  "$del0 -> " . metric('kafka_schema_registry_deleted_count');
my $nversions = sql('SELECT count(*) FROM registry.subject_versions') // '?';
check 'registered_count is the versions in the catalog',
  metric('kafka_schema_registry_registered_count') eq $nversions,
  metric('kafka_schema_registry_registered_count') . " vs $nversions";
my $reg1 = metric('registry_http_requests_total', 'method="POST",route="/subjects/*/versions",code="2xx"');
check 'the per-route count of POST /subjects/*/versions went up by one', $reg1 - $reg0 == 1, "$reg0 -> $reg1";
my $hcount = metric('registry_http_request_duration_seconds_count', 'method="GET",route="/subjects/*/versions"');
my $hinf = metric('registry_http_request_duration_seconds_bucket', 'method="GET",route="/subjects/*/versions",le="+Inf"');
my $hclasses = metric('registry_http_requests_total', 'method="GET",route="/subjects/*/versions",code="2xx"')
  + metric('registry_http_requests_total', 'method="GET",route="/subjects/*/versions",code="4xx"');
check "the latency histogram of a route counts its requests ($hcount = +Inf bucket $hinf = by status $hclasses)",
  $hcount >= 2 && $hcount == $hinf && $hcount == $hclasses, "count $hcount, +Inf $hinf, by status $hclasses";
my $fromsql = sql(q{SELECT status FROM registry.rest('GET', '/metrics') WHERE response LIKE '%kafka_schema_registry_registered_count %'}) // '';
check q{registry.rest('GET', '/metrics') answers the same scrape from SQL}, $fromsql eq '200', $fromsql;

req POST => "/subjects/$S1/versions", sbody($A1);
expect 'register v1', 200, sub { is_num($_->{id}) && $_->{version} == 1 };
my $ID1 = ref $J eq 'HASH' ? $J->{id} : undef;
req POST => "/subjects/$S1/versions", sbody($A1);
expect 'register the same schema again: same id, same version', 200, sub { $_->{id} == ($ID1 // 0) && $_->{version} == 1 };
req POST => "/subjects/$S1/versions", sbody($A2, '"schemaType":"AVRO"');
expect 'register v2 (adds a field with a default)', 200, sub { $_->{version} == 2 && $_->{id} != ($ID1 // 0) };
my $ID2 = ref $J eq 'HASH' ? $J->{id} : undef;
$ID1 //= 0;
$ID2 //= 0;

req GET => "/schemas/ids/$ID1";
expect 'GET /schemas/ids/{id}', 200, sub { $_->{schema} eq $A1 && !exists $_->{maxId} };
req GET => "/schemas/ids/$ID1?fetchMaxId=true";
expect 'GET /schemas/ids/{id}?fetchMaxId=true has maxId >= both ids', 200, sub { $_->{schema} eq $A1 && $_->{maxId} >= $ID2 };
req GET => "/schemas/ids/$ID1/schema";
expect 'GET /schemas/ids/{id}/schema is the raw schema', 200, sub { jeq($_, $A1) };
req GET => "/schemas/ids/$ID1/subjects";
expect 'GET /schemas/ids/{id}/subjects', 200, sub { jeq($_, [$S1]) };
req GET => "/schemas/ids/$ID1/versions";
expect 'GET /schemas/ids/{id}/versions', 200, sub { jeq($_, [ { subject => $S1, version => 1 } ]) };
req GET => "/schemas?subjectPrefix=$S1";
expect 'GET /schemas?subjectPrefix=', 200, sub {
	@$_ == 2 && !grep({ $_->{subject} ne $S1 } @$_) && jeq([ map { $_->{version} } @$_ ], '[1,2]');
};
req GET => "/schemas?subjectPrefix=$S1&latestOnly=true";
expect 'GET /schemas?latestOnly=true', 200, sub { @$_ == 1 && $_->[0]{version} == 2 };
req GET => '/schemas';
expect 'GET /schemas (all)', 200, sub { ref $_ eq 'ARRAY' && grep({ $_->{subject} eq $S1 } @$_) == 2 };

req GET => '/subjects';
expect 'GET /subjects lists the subject', 200, sub { grep { $_ eq $S1 } @$_ };
req GET => "/subjects?subjectPrefix=$S1";
expect 'GET /subjects?subjectPrefix=', 200, sub { jeq($_, [$S1]) };
req GET => "/subjects/$S1/versions";
expect 'GET /subjects/{s}/versions', 200, sub { jeq($_, '[1,2]') };
req GET => "/subjects/$S1/versions/1";
expect 'GET /subjects/{s}/versions/1', 200,
  sub { $_->{subject} eq $S1 && $_->{version} == 1 && $_->{id} == $ID1 && $_->{schema} eq $A1 };
req GET => "/subjects/$S1/versions/latest";
expect 'GET /subjects/{s}/versions/latest', 200, sub { $_->{version} == 2 };
req GET => "/subjects/$S1/versions/LATEST";
expect 'GET /subjects/{s}/versions/LATEST (case-insensitive)', 200, sub { $_->{version} == 2 };
req GET => "/subjects/$S1/versions/-1";
expect 'GET /subjects/{s}/versions/-1', 200, sub { $_->{version} == 2 && $_->{id} == $ID2 };
req GET => "/subjects/$S1/versions/2/schema";
expect 'GET /subjects/{s}/versions/{v}/schema', 200, sub { jeq($_, $A2) };
req GET => "/subjects/$S1/versions/1/referencedby";
expect 'GET referencedby (none)', 200, sub { jeq($_, '[]') };

req POST => "/subjects/$S1", sbody($A1);
expect 'lookup POST /subjects/{s}', 200, sub { $_->{subject} eq $S1 && $_->{version} == 1 && $_->{id} == $ID1 };
req POST => "/subjects/$S1", sbody($A3);
expect_error 'lookup of an unregistered schema -> 40403', 404, 40403;
req POST => "/subjects/$RUN-nosuch", sbody($A1);
expect_error 'lookup in a missing subject -> 40401', 404, 40401;

# compatibility
req POST => "/compatibility/subjects/$S1/versions/latest", sbody($A3);
expect 'compatibility with version latest: compatible', 200, sub { jeq($_, '{"is_compatible":true}') };
req POST => "/compatibility/subjects/$S1/versions/1", sbody(avro($REC, '{"name":"z","type":"int"}'));
expect 'compatibility with version 1: new field without default is incompatible', 200,
  sub { jeq($_, '{"is_compatible":false}') };
my $ASTR = '{"type":"record","name":"' . $REC . '","fields":[{"name":"a","type":"string"}]}';
req POST => "/compatibility/subjects/$S1/versions?verbose=true", sbody($ASTR);
expect 'compatibility without version, verbose: messages', 200,
  sub { !$_->{is_compatible} && defined $_->{is_compatible} && ref $_->{messages} eq 'ARRAY' && @{ $_->{messages} } > 0 };
req POST => "/compatibility/subjects/$S1/versions", sbody($A3);
expect 'compatibility without version: compatible, no messages', 200, sub { jeq($_, '{"is_compatible":true}') };
req POST => "/compatibility/subjects/$S1/versions/7", sbody($A3);
expect_error 'compatibility with a missing version -> 40402', 404, 40402;

# references: S2 references S1 version 1 (record $REC)
my $REFSCHEMA = '{"type":"record","name":"O_' . $REC . '","fields":[{"name":"inner","type":"' . $REC . '"}]}';
req POST => "/subjects/$S2/versions",
  sbody($REFSCHEMA, qq{"references":[{"name":"$REC","subject":"$S1","version":1}]});
expect 'register with a reference', 200, sub { $_->{version} == 1 };
my $IDREF = ref $J eq 'HASH' ? $J->{id} // 0 : 0;
req GET => "/subjects/$S1/versions/1/referencedby";
expect 'GET referencedby lists the referrer', 200, sub { jeq($_, [ 0 + $IDREF ]) };
req GET => "/subjects/$S2/versions/1";
expect 'GET version returns the references', 200,
  sub { jeq($_->{references}, [ { name => $REC, subject => $S1, version => 1 } ]) };
req DELETE => "/subjects/$S1/versions/1";
expect_error 'delete of a referenced version -> 42206', 422, 42206;

# config
req GET => '/config';
expect 'GET /config', 200, sub { is_str($_->{compatibilityLevel}) };
my $GLOBAL_COMPAT = (ref $J eq 'HASH' && $J->{compatibilityLevel}) || 'BACKWARD';
req PUT => "/config/$S1", '{"compatibility":"FULL"}';
expect 'PUT /config/{s}', 200, sub { $_->{compatibility} eq 'FULL' };
req GET => "/config/$S1";
expect 'GET /config/{s}', 200, sub { $_->{compatibilityLevel} eq 'FULL' };
req GET => "/config/$RUN-noconfig";
expect_error 'GET /config/{s} without a subject config -> 40408', 404, 40408;
req GET => "/config/$RUN-noconfig?defaultToGlobal=true";
expect 'GET /config/{s}?defaultToGlobal=true', 200, sub { $_->{compatibilityLevel} eq $GLOBAL_COMPAT };
req DELETE => "/config/$S1";
expect 'DELETE /config/{s} returns the old config', 200, sub { $_->{compatibilityLevel} eq 'FULL' };
req DELETE => "/config/$S1";
expect_error 'DELETE /config/{s} again -> 40401', 404, 40401;
req PUT => '/config', qq{{"compatibility":"$GLOBAL_COMPAT"}};
expect 'PUT /config (same level)', 200, sub { $_->{compatibility} eq $GLOBAL_COMPAT };
req DELETE => '/config';
expect 'DELETE /config returns the old config', 200, sub { $_->{compatibilityLevel} eq $GLOBAL_COMPAT };
req GET => '/config';
expect 'GET /config after DELETE: the default', 200, sub { $_->{compatibilityLevel} eq 'BACKWARD' };
req PUT => '/config', qq{{"compatibility":"$GLOBAL_COMPAT"}} if $GLOBAL_COMPAT ne 'BACKWARD';

# mode
req GET => '/mode';
expect 'GET /mode', 200, sub { $_->{mode} eq 'READWRITE' };
req PUT => '/mode', '{"mode":"READWRITE"}';
expect 'PUT /mode', 200, sub { $_->{mode} eq 'READWRITE' };
req DELETE => '/mode';
expect 'DELETE /mode', 200, sub { $_->{mode} eq 'READWRITE' };
req PUT => "/mode/$S1", '{"mode":"READONLY"}';
expect 'PUT /mode/{s} READONLY', 200, sub { $_->{mode} eq 'READONLY' };
req GET => "/mode/$S1";
expect 'GET /mode/{s}', 200, sub { $_->{mode} eq 'READONLY' };
req POST => "/subjects/$S1/versions", sbody($A3);
expect_error 'register into a READONLY subject -> 42205', 422, 42205;
req POST => "/subjects/$S1/versions", sbody($A2);
expect 're-register an existing schema in READONLY (idempotent)', 200, sub { $_->{version} == 2 };
req DELETE => "/mode/$S1";
expect 'DELETE /mode/{s}', 200, sub { $_->{mode} eq 'READONLY' };
req GET => "/mode/$S1";
expect_error 'GET /mode/{s} after delete -> 40409', 404, 40409;
req GET => "/mode/$S1?defaultToGlobal=true";
expect 'GET /mode/{s}?defaultToGlobal=true', 200, sub { $_->{mode} eq 'READWRITE' };

# subject containing "/" (sent as %2F)
req POST => "/subjects/$SLE/versions", sbody($A1);
expect 'register a subject with %2F', 200, sub { $_->{id} == $ID1 && $_->{version} == 1 };
req GET => "/subjects/$SLE/versions/1";
expect 'the %2F subject is one subject named with a /', 200, sub { $_->{subject} eq $SL };
req GET => "/subjects?subjectPrefix=$RUN";
expect 'GET /subjects shows the / subject', 200, sub { grep { $_ eq $SL } @$_ };

# contexts
my $CTX = ".c$RUN";
my $CS = ":$CTX:name";
req POST => "/subjects/:$CTX:name/versions", sbody($A2);
expect 'register in a new context: ids start at 1 per context', 200, sub { $_->{id} == 1 && $_->{version} == 1 };
req POST => "/contexts/$CTX/subjects/name2/versions", sbody($A1);
expect 'register with the /contexts/{ctx}/subjects prefix form', 200, sub { $_->{id} == 2 && $_->{version} == 1 };
req GET => '/contexts';
expect 'GET /contexts lists . first and the new context', 200, sub { $_->[0] eq '.' && grep { $_ eq $CTX } @$_ };
req GET => "/subjects?subjectPrefix=:$CTX:";
expect 'GET /subjects lists qualified context subjects', 200, sub { jeq($_, [ $CS, ":$CTX:name2" ]) };
req GET => "/contexts/$CTX/subjects";
expect 'GET /contexts/{ctx}/subjects', 200, sub { jeq($_, [ $CS, ":$CTX:name2" ]) };
req GET => "/contexts/$CTX/subjects/name/versions/latest";
expect 'GET /contexts/{ctx}/subjects/{s}/versions/latest', 200,
  sub { $_->{subject} eq $CS && $_->{id} == 1 && $_->{schema} eq $A2 };
req GET => "/schemas/ids/2?subject=:$CTX:";
expect 'GET /schemas/ids/{id}?subject=:ctx: resolves in the context', 200, sub { $_->{schema} eq $A1 };
req GET => "/contexts/$CTX/schemas/ids/1";
expect 'GET /contexts/{ctx}/schemas/ids/{id}', 200, sub { $_->{schema} eq $A2 };
req GET => "/subjects/:$CTX:name/versions";
expect 'GET /subjects/:.ctx:name/versions', 200, sub { jeq($_, '[1]') };
req PUT => "/contexts/$CTX/config/name", '{"compatibility":"NONE"}';
expect 'PUT /contexts/{ctx}/config/{s}', 200, sub { $_->{compatibility} eq 'NONE' };
req GET => "/config/:$CTX:name";
expect 'GET /config/:.ctx:name sees it', 200, sub { $_->{compatibilityLevel} eq 'NONE' };
req DELETE => "/config/:$CTX:name";
expect 'DELETE /config/:.ctx:name', 200, sub { $_->{compatibilityLevel} eq 'NONE' };

# data contracts: rule set validation, config defaults/overrides, metadata-only updates
req POST => '/subjects/dc-http-bad/versions',
  '{"schema":"\"int\"","ruleSet":{"domainRules":[{"name":"r","type":"CEL","mode":"UPGRADE"}]}}';
expect q{a domain rule with a migration mode is 42210 with Confluent's words}, 422,
  sub { $_->{error_code} == 42210 && $_->{message} eq 'Domain rules can only be WRITE, READ, WRITEREAD' };
req GET => '/subjects/dc-http-bad/versions';
expect_error 'the refused rule set stored nothing', 404, 40401;
req PUT => '/config/dc-http',
  '{"defaultMetadata":{"properties":{"owner":"ops"}},"overrideMetadata":{"properties":{"pii":"false"}}}';
expect 'PUT /config/{s} with defaultMetadata and overrideMetadata', 200,
  sub { $_->{defaultMetadata}{properties}{owner} eq 'ops' };
req POST => '/subjects/dc-http/versions',
  '{"schema":"{\"type\":\"record\",\"name\":\"D\",\"fields\":[]}","metadata":{"properties":{"pii":"true","team":"x"}}}';
expect 'register merges default, request and override metadata', 200, sub { $_->{id} > 0 && $_->{version} == 1 };
req GET => '/subjects/dc-http/versions/1';
# the order of the members as stored: jq's tojson keeps it, so the raw body is read
expect q{the stored metadata is the merge, in Confluent's order}, 200,
  sub { $BODY =~ /"metadata":\s*\{"properties":\s*\{"owner":\s*"ops",\s*"pii":\s*"false",\s*"team":\s*"x"\}\}/ };
req POST => '/subjects/dc-http', '{"schema":"{\"type\":\"record\",\"name\":\"D\",\"fields\":[]}"}';
expect 'lookup without metadata finds the version registered with the merged metadata', 200, sub { $_->{version} == 1 };
req POST => '/subjects/dc-http/versions', '{"schema":"","metadata":{"properties":{"team":"y"}}}';
expect 'an empty schema with new metadata makes version 2 of the previous schema', 200, sub { $_->{version} == 2 };
req GET => '/subjects/dc-http/versions/2';
expect 'version 2 holds the previous schema and the new merged metadata', 200, sub {
	$_->{schema} eq '{"type":"record","name":"D","fields":[]}'
	  && jeq($_->{metadata}{properties}, '{"owner":"ops","pii":"false","team":"y"}');
};
req POST => '/subjects/dc-http-empty/versions', '{"schema":""}';
expect 'an empty schema without a previous version is 42201 Empty schema', 422,
  sub { $_->{error_code} == 42201 && $_->{message} eq 'Empty schema' };
req DELETE => '/config/dc-http';
expect 'DELETE /config/{s}', 200, sub { $_->{defaultMetadata}{properties}{owner} eq 'ops' };

# Confluent 8.x: guid, ts and deleted; /schemas/guids/{guid}[/ids];
# the subject version of GET /schemas/ids/{id}?subject=
my $GS = "$RUN-guid";
my $GUIDRE = qr/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
req POST => "/subjects/$GS/versions", sbody($A1);
expect 'register answers guid, ts and deleted (8.x RegisterSchemaResponse)', 200, sub {
	$_->{id} == $ID1 && $_->{guid} =~ $GUIDRE && abs($_->{ts} / 1000 - time()) < 600
	  && JSON::PP::is_bool($_->{deleted}) && !$_->{deleted};
};
my $GUID = ref $J eq 'HASH' ? $J->{guid} // '' : '';
my $stored = ref $J eq 'HASH' ? $J->{schema} // '' : '';
utf8::encode($stored);
my $WANT = join '-', map { unpack 'H*', $_ } unpack 'a4 a2 a2 a2 a6', md5($stored);
check "the guid is the UUID of the MD5 of the stored schema, as Confluent's ($GUID)",
  $GUID ne '' && $GUID eq $WANT, "got $GUID, want $WANT";
req GET => "/subjects/$GS/versions/1";
expect 'GET /subjects/{s}/versions/{v} has guid, ts and deleted', 200,
  sub { $_->{guid} eq $GUID && is_num($_->{ts}) && JSON::PP::is_bool($_->{deleted}) && !$_->{deleted} };
req GET => "/schemas/ids/$ID1";
expect 'GET /schemas/ids/{id}: guid and ts, no subject, version or deleted', 200, sub {
	$_->{guid} eq $GUID && is_num($_->{ts}) && !exists $_->{subject} && !exists $_->{version} && !exists $_->{deleted};
};
req GET => "/schemas/ids/$ID1?subject=$GS";
expect 'GET /schemas/ids/{id}?subject=s names the subject version (8.x)', 200, sub {
	$_->{subject} eq $GS && $_->{version} == 1 && JSON::PP::is_bool($_->{deleted}) && !$_->{deleted}
	  && $_->{guid} eq $GUID && $_->{schema} eq $A1;
};
req GET => "/schemas/ids/$ID2?subject=$GS";
expect '  ... a subject without the id: a version of its context that has it', 200,
  sub { $_->{subject} eq $S1 && $_->{version} == 2 };
req GET => "/schemas/ids/2?subject=:$CTX:name";
expect_error '  ... a qualified subject without the id -> 40403', 404, 40403;
req GET => "/schemas/ids/2?subject=:$CTX:";
expect '  ... a context: the version of it that has the id', 200,
  sub { $_->{subject} eq ":$CTX:name2" && $_->{version} == 1 };
req GET => "/schemas?subjectPrefix=$GS";
expect 'GET /schemas entries have guid, ts and deleted', 200,
  sub { $_->[0]{guid} eq $GUID && is_num($_->[0]{ts}) && JSON::PP::is_bool($_->[0]{deleted}) && !$_->[0]{deleted} };
req POST => "/subjects/$GS", sbody($A1);
expect 'lookup has guid and ts', 200, sub { $_->{guid} eq $GUID && is_num($_->{ts}) && $_->{version} == 1 };
req GET => "/schemas/guids/$GUID";
expect 'GET /schemas/guids/{guid}: the SchemaString, without subject or version', 200, sub {
	$_->{guid} eq $GUID && $_->{schema} eq $A1 && $_->{schemaType} eq 'AVRO'
	  && !exists $_->{subject} && !exists $_->{version};
};
req GET => "/schemas/guids/$GUID/ids";
expect 'GET /schemas/guids/{guid}/ids: its id in each context, default first', 200,
  sub { jeq($_, [ { context => '.', id => 0 + $ID1 }, { context => $CTX, id => 2 } ]) };
req GET => '/schemas/guids/00000000-0000-0000-0000-000000000000';
expect 'GET /schemas/guids/{unknown} -> 40403 Schema <guid> not found', 404,
  sub { $_->{error_code} == 40403 && $_->{message} eq 'Schema 00000000-0000-0000-0000-000000000000 not found' };
req GET => '/schemas/guids/nonsense/ids';
expect 'GET /schemas/guids/{not a guid}/ids -> []', 200, sub { jeq($_, '[]') };
my $n = sql("SELECT count(*) FROM registry.schema_ids_by_guid('$GUID')") // '';
check "registry.schema_ids_by_guid() from SQL ($n)", $n eq '2', $n;
# the cached answer without a subject, the uncached one with it
req DELETE => "/subjects/$GS/versions/1";
expect 'soft-delete the version', 200, sub { jeq($_, 1) };
req GET => "/schemas/ids/$ID1?subject=$GS";
expect 'GET /schemas/ids/{id}?subject=s after the soft delete: deleted', 200,
  sub { $_->{subject} eq $GS && $_->{version} == 1 && $_->{deleted} && JSON::PP::is_bool($_->{deleted}) };
req GET => "/schemas/ids/$ID1";
expect 'GET /schemas/ids/{id} still answers the same', 200, sub { $_->{guid} eq $GUID && !exists $_->{deleted} };

# registering through an alias answers the served version's guid and ts
req PUT => "/config/$GS-alias", qq{{"alias":"$GS-target"}};
req POST => "/subjects/$GS-alias/versions", sbody($A3);
my $AG = ref $J eq 'HASH' ? $J->{guid} // '' : '';
req GET => "/subjects/$GS-target/versions/1";
expect 'registering through an alias answers the guid of the version it made', 200,
  sub { $_->{guid} eq $AG && length($AG) == 36 };
req DELETE => "/config/$GS-alias";

# PUT /config answers the stored configuration (8.x), also for {}
req PUT => "/config/$GS", '{"compatibility":"FULL"}';
expect 'PUT /config/{s}', 200, sub { jeq($_, '{"compatibility":"FULL"}') };
req PUT => "/config/$GS", '{}';
expect 'PUT /config/{s} {} answers the current config', 200, sub { jeq($_, '{"compatibility":"FULL"}') };
req PUT => "/config/$GS", '{"normalize":true}';
expect 'PUT /config/{s} answers the whole stored config', 200, sub { jeq($_, '{"compatibility":"FULL","normalize":true}') };
req DELETE => "/config/$GS";
expect 'DELETE /config/{s}', 200, sub { $_->{compatibilityLevel} eq 'FULL' };
req GET => '/config';
my $GLOBAL = $J;
req PUT => '/config', '{}';
expect 'PUT /config {}', 200,
  sub { ref $_ eq 'HASH' && ($_->{compatibility} // 'BACKWARD') eq $GLOBAL->{compatibilityLevel} };
req GET => '/config';
expect '  ... and the global config is unchanged', 200, sub { jeq($_, $GLOBAL) };

# empty schemas: no schema at all, as Confluent's trim().isEmpty()
req POST => "/subjects/$S1", '{"schema":""}';
expect_error 'lookup with an empty schema -> 40403', 404, 40403;
req POST => "/subjects/$S1", q{{"schema":" \n\t "}};
expect_error 'lookup with a whitespace-only schema -> 40403', 404, 40403;
req POST => "/subjects/$S1", '{}';
expect_error 'lookup without a schema -> 40403', 404, 40403;
req POST => "/subjects/$RUN-nobody", '{"schema":""}';
expect_error 'lookup with an empty schema in a missing subject -> 40401', 404, 40401;
req POST => "/subjects/$RUN-empty/versions", q{{"schema":" \n "}};
expect 'register a whitespace-only schema without a previous version -> 42201 Empty schema', 422,
  sub { $_->{error_code} == 42201 && $_->{message} eq 'Empty schema' };

# /contexts/{ctx}/ as Confluent's ContextFilter reads it
req GET => '/contexts/.a:b/subjects';
expect 'GET /contexts/{ctx with a colon}/subjects is 400', 400,
  sub { $_->{error_code} == 400 && $_->{message} eq 'Context name cannot contain a colon' };
req GET => "/contexts/:$CTX:/subjects/name/versions";
expect 'GET /contexts/:{ctx}:/subjects/{s}/versions (colons around the context dropped)', 200, sub { jeq($_, '[1]') };
req GET => "/contexts/$CTX/subjects/:$CTX:name/versions";
expect 'GET /contexts/{ctx}/subjects/{qualified s}/versions keeps the qualified subject', 200, sub { jeq($_, '[1]') };

# the .__GLOBAL context: config and mode only
req POST => "/subjects/:.__GLOBAL:$RUN-g/versions", sbody($A1);
expect 'POST /subjects/:.__GLOBAL:s/versions is 42208', 422,
  sub { $_->{error_code} == 42208 && $_->{message} eq "The specified subject ':.__GLOBAL:$RUN-g' is not a valid." };
req POST => "/contexts/.__GLOBAL/subjects/$RUN-g/versions", sbody($A1);
expect 'POST /contexts/.__GLOBAL/subjects/s/versions is 42208', 422, sub { $_->{error_code} == 42208 };
req PUT => '/config/:.__GLOBAL:', '{"compatibility":"BACKWARD"}';
expect 'PUT /config/:.__GLOBAL: works', 200, sub { $_->{compatibility} eq 'BACKWARD' };
req GET => '/config/:.__GLOBAL:';
expect 'GET /config/:.__GLOBAL:', 200, sub { $_->{compatibilityLevel} eq 'BACKWARD' };
req DELETE => '/config/:.__GLOBAL:';
expect 'DELETE /config/:.__GLOBAL:', 200, sub { $_->{compatibilityLevel} eq 'BACKWARD' };
req PUT => '/mode/:.__GLOBAL:', '{"mode":"READWRITE"}';
expect 'PUT /mode/:.__GLOBAL: works', 200, sub { $_->{mode} eq 'READWRITE' };
req DELETE => '/mode/:.__GLOBAL:';
expect 'DELETE /mode/:.__GLOBAL:', 200, sub { $_->{mode} eq 'READWRITE' };
req GET => '/contexts';
expect 'GET /contexts does not list .__GLOBAL', 200, sub { !grep { $_ eq '.__GLOBAL' } @$_ };
req GET => '/subjects?subjectPrefix=:.__GLOBAL:';
expect 'GET /subjects lists nothing under .__GLOBAL', 200, sub { jeq($_, '[]') };
req GET => '/schemas?subjectPrefix=:.__GLOBAL:';
expect 'GET /schemas lists nothing under .__GLOBAL', 200, sub { jeq($_, '[]') };

# context names: a refused one creates nothing
for my $bad ('.bad!', '.has%20space', '.at@sign', '.hash%23char', '.pct%25enc')
{
	req POST => "/subjects/:$bad$RUN:s/versions", sbody($A1);
	expect "POST /subjects/:$bad:s/versions is 42208", 422,
	  sub { $_->{error_code} == 42208 && $_->{message} =~ /is not a valid\.$/ };
	req POST => "/contexts/$bad$RUN/subjects/s/versions", sbody($A1);
	expect "POST /contexts/$bad/subjects/s/versions is 42208", 422, sub { $_->{error_code} == 42208 };
	req PUT => "/config/:$bad$RUN:", '{"compatibility":"NONE"}';
	expect "PUT /config/:$bad: is 42208", 422, sub { $_->{error_code} == 42208 };
}
req GET => '/contexts';
expect 'GET /contexts lists none of the refused names', 200,
  sub { !grep { index($_, $RUN) >= 0 && /[^A-Za-z0-9._-]/ } @$_ };
my $nbad = sql(q{SELECT count(*) FROM registry.contexts WHERE context ~ '[^A-Za-z0-9._-]'}) // '';
check 'no row for a refused context name', $nbad eq '0',
  sql(q{SELECT string_agg(context, ' ') FROM registry.contexts});
req POST => "/subjects/:.My-Ctx_v2.0$RUN:all-chars/versions", sbody($A1);
expect q{a context name of letters, digits, '.', '_' and '-' is valid}, 200, sub { $_->{id} == 1 };

# config alias: the subject is served as its alias (not /config, /mode)
my $AT = "$RUN-al-target";
my $AN = "$RUN-al-name";
req POST => "/subjects/$AT/versions", sbody($A1);
expect 'alias: register the target', 200, sub { $_->{version} == 1 };
my $AID = ref $J eq 'HASH' ? $J->{id} // 0 : 0;
req PUT => "/config/$AN", qq{{"alias":"$AT"}};
expect 'PUT /config/{s} with an alias', 200, sub { $_->{alias} eq $AT };
req GET => "/config/$AN";
expect q{GET /config/{s} is the subject's own config, alias and all}, 200, sub { $_->{alias} eq $AT };
req GET => "/subjects/$AN/versions";
expect 'GET /subjects/{alias}/versions reads the target', 200, sub { jeq($_, '[1]') };
req GET => "/subjects/$AN/versions/latest";
expect q{GET /subjects/{alias}/versions/latest is the target's}, 200,
  sub { $_->{subject} eq $AT && $_->{version} == 1 && $_->{id} == $AID };
req GET => "/subjects/$AN/versions/1/schema";
expect 'GET /subjects/{alias}/versions/1/schema', 200, sub { jeq($_, $A1) };
req POST => "/subjects/$AN", sbody($A1);
expect 'POST /subjects/{alias} finds the schema under the target', 200,
  sub { $_->{subject} eq $AT && $_->{version} == 1 && $_->{id} == $AID };
req POST => "/compatibility/subjects/$AN/versions/latest", sbody($A2);
expect 'POST /compatibility/subjects/{alias}/versions/latest', 200, sub { $_->{is_compatible} && JSON::PP::is_bool($_->{is_compatible}) };
req GET => "/schemas/ids/$AID/versions?subject=$AN";
expect 'GET /schemas/ids/{id}/versions?subject={alias}', 200,
  sub { grep { jeq($_, { subject => $AT, version => 1 }) } @$_ };
req POST => "/subjects/$AN/versions", sbody($A2);
expect 'POST /subjects/{alias}/versions registers under the target', 200, sub { $_->{version} == 2 };
req GET => "/subjects/$AT/versions";
expect 'the target has the new version', 200, sub { jeq($_, '[1,2]') };
req GET => "/subjects?subjectPrefix=$RUN-al-";
expect 'the alias is no subject of its own', 200, sub { jeq($_, [$AT]) };
req GET => "/schemas?subjectPrefix=$AN&aliases=true";
expect q{GET /schemas?aliases=true brings the alias's subject, naming its aliases}, 200,
  sub { @$_ == 2 && !grep { !($_->{subject} eq $AT && jeq($_->{aliases}, [$AN])) } @$_ };
req GET => "/schemas?subjectPrefix=$AN";
expect q{GET /schemas without aliases=true lists nothing under the alias's name}, 200, sub { jeq($_, '[]') };
req GET => "/schemas?subjectPrefix=$RUN-al-&aliases=true&latestOnly=true";
expect 'GET /schemas?aliases=true&latestOnly=true', 200,
  sub { @$_ == 1 && $_->[0]{version} == 2 && jeq($_->[0]{aliases}, [$AN]) };
req GET => "/schemas?subjectPrefix=$AT";
expect 'GET /schemas without aliases=true has no aliases member', 200,
  sub { @$_ == 2 && !grep { exists $_->{aliases} } @$_ };
req GET => "/subjects/$AN/versions/9";
expect 'GET /subjects/{alias}/versions/9 is 40402', 404, sub { $_->{error_code} == 40402 };
req PUT => "/config/$RUN-al-ghost", qq{{"alias":"$RUN-al-nothing"}};
req GET => "/subjects/$RUN-al-ghost/versions";
expect q{an alias to a missing subject: 40401 names the alias's subject}, 404,
  sub { $_->{error_code} == 40401 && $_->{message} eq "Subject '$RUN-al-nothing' not found." };
req DELETE => "/subjects/$AN/versions/2";
expect q{DELETE /subjects/{alias}/versions/2 deletes the target's}, 200, sub { jeq($_, 2) };
req GET => "/subjects/$AT/versions";
expect 'the target lost version 2', 200, sub { jeq($_, '[1]') };
req DELETE => "/config/$AN";
expect 'DELETE /config/{s} removes the alias', 200, sub { $_->{alias} eq $AT };
req GET => "/subjects/$AN/versions";
expect 'without the alias the subject is its own again (40401)', 404,
  sub { $_->{error_code} == 40401 && $_->{message} eq "Subject '$AN' not found." };
req DELETE => "/config/$RUN-al-ghost";
# an alias moves /schemas/ids/{id}?subject= to its context: no stale cached answer
my $AC = ".alc$RUN";
req POST => "/subjects/:$AC:t/versions", sbody($A3);
expect 'alias and cache: a schema in another context', 200, sub { $_->{id} == 1 };
req GET => "/schemas/ids/$AID?subject=$RUN-al-x";
expect 'alias and cache: GET /schemas/ids/{id}?subject=s before the alias', 200, sub { $_->{schema} eq $A1 };
req GET => "/schemas/ids/$AID?subject=$RUN-al-x";
expect 'alias and cache: the same again (cached)', 200, sub { $_->{schema} eq $A1 };
req PUT => "/config/$RUN-al-x", qq{{"alias":":$AC:t"}};
expect 'alias and cache: PUT /config/{s} with an alias in another context', 200, sub { $_->{alias} eq ":$AC:t" };
req GET => "/schemas/ids/$AID?subject=$RUN-al-x";
if ($AID == 1)
{
	expect q{alias and cache: the id is read in the alias's context}, 200, sub { $_->{schema} eq $A3 };
}
else
{
	expect q{alias and cache: the id is read in the alias's context (not there)}, 404, sub { $_->{error_code} == 40403 };
}
req DELETE => "/config/$RUN-al-x";

# The workers cache GET /subjects/{s}/versions/{v} and lookups: every answer
# after a registration, a delete, a config change and in a context is the
# new one.  Each read is asked 6 times on fresh connections, so that every
# worker has cached it before the change and answers after it.
sub reads    # reads(NAME, METHOD, PATH, BODY, STATUS, COND): all 6 answers are STATUS and satisfy COND
{
	my ($name, $method, $path, $body, $want, $cond) = @_;
	my $bad = '';
	for my $i (1 .. 6)
	{
		req $method, $path, $body;
		my $v = $J;
		my $good = $STATUS eq $want && defined $v && do { local $_ = $v; no warnings; eval { $cond->($v) } };
		if (!$good)
		{
			$bad = "answer $i: HTTP $STATUS " . short($BODY);
			last;
		}
	}
	check $name, $bad eq '', $bad;
}
my $CSS = "$RUN-cache";
req POST => "/subjects/$CSS/versions", sbody($A1);
reads 'subject cache: latest is version 1', GET => "/subjects/$CSS/versions/latest", undef, 200, sub { $_->{version} == 1 };
reads q{subject cache: version 1's schema}, GET => "/subjects/$CSS/versions/1/schema", undef, 200, sub { $_->{type} eq 'record' };
reads 'subject cache: lookup of version 1', POST => "/subjects/$CSS", sbody($A1), 200, sub { $_->{version} == 1 };
req POST => "/subjects/$CSS/versions", sbody($A2);
expect 'subject cache: a registration (version 2)', 200, sub { $_->{id} > 0 };
reads 'subject cache: after a registration latest is version 2', GET => "/subjects/$CSS/versions/latest", undef, 200,
  sub { $_->{version} == 2 };
reads 'subject cache: lookup of version 2', POST => "/subjects/$CSS", sbody($A2), 200, sub { $_->{version} == 2 };
req DELETE => "/subjects/$CSS/versions/2";
expect 'subject cache: a soft delete of version 2', 200, sub { jeq($_, 2) };
reads 'subject cache: after a delete latest is version 1 again', GET => "/subjects/$CSS/versions/latest", undef, 200,
  sub { $_->{version} == 1 };
reads 'subject cache: after a delete the lookup of version 2 is 40403', POST => "/subjects/$CSS", sbody($A2), 404,
  sub { $_->{error_code} == 40403 };
reads 'subject cache: a deleted version with deleted=true', POST => "/subjects/$CSS?deleted=true", sbody($A2), 200,
  sub { $_->{version} == 2 && $_->{deleted} && JSON::PP::is_bool($_->{deleted}) };
req DELETE => "/subjects/$CSS/versions/2?permanent=true";
expect 'subject cache: a permanent delete of version 2', 200, sub { jeq($_, 2) };
reads 'subject cache: after a permanent delete deleted=true finds nothing', POST => "/subjects/$CSS?deleted=true",
  sbody($A2), 404, sub { $_->{error_code} == 40403 };
my $CX = "$RUN-cache-x";
req POST => "/subjects/$CX/versions", sbody($A3);
reads q{subject cache: another subject's latest}, GET => "/subjects/$CX/versions/latest", undef, 200,
  sub { $_->{version} == 1 && $_->{schema} eq $A3 };
req PUT => "/config/$CX", qq{{"alias":"$CSS"}};
expect 'subject cache: a config change (an alias)', 200, sub { $_->{alias} eq $CSS };
reads q{subject cache: after the alias latest is the target's}, GET => "/subjects/$CX/versions/latest", undef, 200,
  sub { $_->{subject} eq $CSS && $_->{version} == 1 && $_->{schema} eq $A1 };
req DELETE => "/config/$CX";
reads 'subject cache: without the alias latest is its own again', GET => "/subjects/$CX/versions/latest", undef, 200,
  sub { $_->{subject} eq $CX && $_->{schema} eq $A3 };
my $CC = ":.cache$RUN:s";
req POST => "/subjects/$CC/versions", sbody($A1);
reads 'subject cache: latest in a context', GET => "/subjects/$CC/versions/latest", undef, 200,
  sub { $_->{version} == 1 && $_->{subject} eq $CC };
reads 'subject cache: lookup in a context', POST => "/subjects/$CC", sbody($A2), 404, sub { $_->{error_code} == 40403 };
req POST => "/subjects/$CC/versions", sbody($A2);
reads 'subject cache: after a registration in the context', GET => "/subjects/$CC/versions/latest", undef, 200,
  sub { $_->{version} == 2 };
reads 'subject cache: the lookup in the context finds it', POST => "/subjects/$CC", sbody($A2), 200,
  sub { $_->{version} == 2 };
req PUT => "/mode/$CSS", '{"mode":"READONLY"}';
expect 'subject cache: a mode change (READONLY)', 200, sub { $_->{mode} eq 'READONLY' };
reads 'subject cache: reads go on in READONLY', GET => "/subjects/$CSS/versions/latest", undef, 200,
  sub { $_->{version} == 1 };
req POST => "/subjects/$CSS/versions", sbody($A3);
expect 'subject cache: a registration in READONLY is refused', 422, sub { $_->{error_code} == 42205 };
req DELETE => "/mode/$CSS";
req POST => "/subjects/$CSS/versions", sbody($A3);
expect 'subject cache: after the mode is removed a registration', 200, sub { $_->{id} > 0 };
reads 'subject cache: after the mode change and a registration latest is the new version',
  GET => "/subjects/$CSS/versions/latest", undef, 200, sub { $_->{version} > 1 && $_->{schema} eq $A3 };

# server metadata
req GET => '/v1/metadata/id';
expect 'GET /v1/metadata/id', 200, sub { is_str($_->{id}) && ref $_->{scope}{clusters} eq 'HASH' };
req GET => '/v1/metadata/version';
expect 'GET /v1/metadata/version', 200,
  sub { is_str($_->{version}) && is_str($_->{commitId}) };

# deletes: versions and subjects, soft and permanent
my $S3 = "$RUN-del";
req POST => "/subjects/$S3/versions", sbody($A1);
req POST => "/subjects/$S3/versions", sbody($A2);
req POST => "/subjects/$S3/versions", sbody($A3);
expect 'setup: 3 versions', 200, sub { $_->{version} == 3 };
req DELETE => "/subjects/$S3/versions/latest";
expect 'DELETE versions/latest -> 3', 200, sub { jeq($_, 3) };
req DELETE => "/subjects/$S3/versions/-1";
expect 'DELETE versions/-1 -> 2', 200, sub { jeq($_, 2) };
req GET => "/subjects/$S3/versions";
expect 'GET versions after soft deletes', 200, sub { jeq($_, '[1]') };
req GET => "/subjects/$S3/versions?deleted=true";
expect 'GET versions?deleted=true', 200, sub { jeq($_, '[1,2,3]') };
req GET => "/subjects/$S3/versions/2";
expect_error 'GET a soft-deleted version -> 40402', 404, 40402;
req GET => "/subjects/$S3/versions/2?deleted=true";
expect 'GET a soft-deleted version with deleted=true', 200, sub { $_->{version} == 2 };
# latest is the newest live version; with deleted=true the newest of all, soft-deleted or not
req GET => "/subjects/$S3/versions/latest";
expect 'GET latest with the newest versions soft-deleted -> the newest live one', 200,
  sub { $_->{version} == 1 && JSON::PP::is_bool($_->{deleted}) && !$_->{deleted} };
# the row the SQL API gives for it, with the schema's guid and the version's registration time
my $want = jdecode(sql("SELECT json_build_object('id', v.id, 'schema', v.schema, 'guid', s.guid::text,
	'ts', floor(extract(epoch FROM sv.created_at) * 1000)::bigint)
	FROM registry.get_version('$S3', 'latest', true) v
	JOIN registry.subject_versions sv ON sv.context = '.' AND sv.subject = '$S3' AND sv.version = v.version
	JOIN registry.schemas s ON s.context = '.' AND s.id = v.id") // '');
req GET => "/subjects/$S3/versions/latest?deleted=true";
expect q{GET latest?deleted=true -> the newest version, soft-deleted, as the SQL API's row}, 200, sub {
	$_->{version} == 3 && $_->{deleted} && JSON::PP::is_bool($_->{deleted}) && defined $want
	  && jeq({ map { ($_ => $J->{$_}) } qw(id schema guid ts) }, $want);
};
req GET => "/subjects/$S3/versions/-1?deleted=true";
expect 'GET -1?deleted=true is latest?deleted=true', 200, sub { $_->{version} == 3 && $_->{deleted} };
req GET => "/subjects/$S3/versions/3/schema?deleted=true";
expect q{GET 3/schema?deleted=true: the soft-deleted version's schema}, 200, sub { jeq($_, $A3) };
req GET => "/subjects/$S3/versions/3/schema";
expect_error 'GET 3/schema of a soft-deleted version -> 40402', 404, 40402;
# the version id is checked before the subject, as Confluent parses it first
req GET => "/subjects/$RUN-del-none/versions/x1";
expect_error 'GET an invalid version of a missing subject -> 42202', 422, 42202;
req GET => "/subjects/$RUN-del-none/versions/1";
expect_error 'GET a version of a missing subject -> 40401', 404, 40401;
req DELETE => "/subjects/$S3/versions/2";
expect_error 'soft delete twice -> 40406', 404, 40406;
req DELETE => "/subjects/$S3/versions/1?permanent=true";
expect_error 'permanent delete without soft delete -> 40407', 404, 40407;
req DELETE => "/subjects/$S3/versions/2?permanent=true";
expect 'permanent delete of a soft-deleted version', 200, sub { jeq($_, 2) };
req GET => "/subjects/$S3/versions?deleted=true";
expect 'GET versions?deleted=true after permanent delete', 200, sub { jeq($_, '[1,3]') };
req DELETE => "/subjects/$S3?permanent=true";
expect_error 'permanent subject delete without soft delete -> 40405', 404, 40405;
req DELETE => "/subjects/$S3";
expect 'soft DELETE /subjects/{s}', 200, sub { jeq($_, '[1]') };
req DELETE => "/subjects/$S3";
expect_error 'soft subject delete twice -> 40404', 404, 40404;
req GET => '/subjects';
expect 'GET /subjects hides the soft-deleted subject', 200, sub { !grep { $_ eq $S3 } @$_ };
req GET => '/subjects?deleted=true';
expect 'GET /subjects?deleted=true shows it', 200, sub { grep { $_ eq $S3 } @$_ };
req POST => "/subjects/$S3/versions", sbody($A1);
expect 're-register after soft delete: new version, same id', 200, sub { $_->{version} == 4 && $_->{id} == $ID1 };
req DELETE => "/subjects/$S3";
req DELETE => "/subjects/$S3?permanent=true";
expect 'permanent DELETE /subjects/{s}', 200, sub { jeq($_, '[1,3,4]') };
req GET => "/subjects/$S3/versions?deleted=true";
expect_error 'the permanently deleted subject is gone -> 40401', 404, 40401;
req POST => "/subjects/$S3/versions", sbody($A2);
expect 'after a permanent delete numbering restarts at 1', 200, sub { $_->{version} == 1 && $_->{id} == $ID2 };

##############################################################################
# Keep-alive: requests one after the other on one connection (raw socket)
##############################################################################
note('keep-alive');
my $host = "Host: $HTTP_HOST:$HTTP_PORT\r\n";

# keep_alive(NAME, STATUSES, REQUEST...): every request was answered on the
# one connection, none with Connection: close, with STATUSES if given
sub keep_alive
{
	my ($name, $statuses, @reqs) = @_;
	my $out = on_one_connection(@reqs);
	my $got = join ' ', map { "$_->[0]" . ($_->[1] ? " ($_->[1])" : '') } @$out;
	check $name, @$out == @reqs && !grep({ $_->[1] =~ /close/i } @$out)
	  && (!$statuses || join(' ', map { $_->[0] } @$out) eq $statuses),
	  "answers on the connection: $got";
}
keep_alive 'keep-alive: two GETs on one connection', '200 200',
  "GET /subjects HTTP/1.1\r\n${host}Accept: */*\r\n\r\n",
  "GET /schemas/types HTTP/1.1\r\n${host}Accept: */*\r\n\r\n";
my $lk = sbody($A1);
my $post = "POST /subjects/$S1 HTTP/1.1\r\n${host}Accept: */*\r\nContent-Type: $CT\r\nContent-Length: "
  . length($lk) . "\r\n\r\n$lk";
keep_alive 'keep-alive: two POSTs with bodies on one connection', '200 200', $post, $post;
keep_alive 'keep-alive: the connection survives a 404', undef,
  "GET /nosuchroute HTTP/1.1\r\n${host}Accept: */*\r\n\r\n",
  "GET /subjects HTTP/1.1\r\n${host}Accept: */*\r\n\r\n";

done_testing();
