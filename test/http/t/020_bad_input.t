# Bad input: 4xx with an error body, the server stays up, nothing changes;
# hostile nesting: 422 42201, fast, and no worker dies.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;
use Time::HiRes qw(time sleep);

my $base = base_subject();
my ($S1, $REC, $A1) = @$base{qw(subject record a1)};
my $A3 = avro($REC, "$F_B,$F_C");
my $REFSCHEMA = '{"type":"record","name":"O_' . $REC . '","fields":[{"name":"inner","type":"' . $REC . '"}]}';

my $SB = "$RUN-bad";
req POST => "/subjects/$SB/versions", sbody($A1);    # an existing subject for some cases
my $BEFORE = snapshot();

req POST => "/subjects/$SB/versions", '{"schema": "x"';
expect_error 'invalid JSON (truncated) -> 400', 400, 400;
req POST => "/subjects/$SB%00tail/versions", sbody($A3);
expect_error 'a percent-decoded NUL in the subject -> 42208 (not a cut-short subject)', 422, 42208;
req GET => '/subjects?subjectPrefix=a%00';
expect_error 'a percent-decoded NUL in a query parameter -> 400', 400, 400;
req POST => "/subjects/$SB/versions", q{{'schema': 1}};
expect_error 'invalid JSON (single quotes) -> 400', 400, 400;
req POST => "/subjects/$SB/versions", sbody($A3), 'Content-Type' => 'text/plain';
expect_error 'Content-Type text/plain -> 415', 415, 415;
req PUT => "/config/$SB", '{"compatibility":"NONE"}', 'Content-Type' => 'application/xml';
expect_error 'PUT with Content-Type application/xml -> 415', 415, 415;
req POST => "/subjects/$SB/versions", '{"schema":42}';
expect_4xx 'schema is a number';
req POST => "/subjects/$SB/versions", '{"schema":{"type":"string"}}';
expect_4xx 'schema is an object';
req POST => "/subjects/$SB/versions", sbody($A3, '"schemaType":"XML"');
expect_error 'unknown schemaType -> 42201', 422, 42201;
req POST => "/subjects/$SB/versions", '{"schema":"{\"type\":\"record\",\"name\":\"X\"}"}';
expect_error 'invalid Avro (record without fields) -> 42201', 422, 42201;
req POST => "/subjects/$SB/versions", '{"schema":"{\"type\":\"nosuchtype\"}"}';
expect_error 'invalid Avro (unknown type) -> 42201', 422, 42201;
req POST => "/subjects/$SB/versions", '{"schema":"{not json"}';
expect_error 'schema string is not JSON -> 42201', 422, 42201;
req POST => "/subjects/$SB/versions", qq{{"schema":"\xff\xfe"}};
expect_error 'invalid UTF-8 in the body -> 400', 400, 400;
req POST => "/subjects/$SB/versions", qq{{"schema":"\xc3"}};
expect_error 'truncated UTF-8 sequence in the body -> 400', 400, 400;
req POST => "/subjects/$SB/versions", '{"schema":' . ('[' x 200000) . (']' x 200000) . '}';
expect_4xx 'deeply nested JSON (200000 levels)';
req POST => "/subjects/$SB-new/versions", ('{"a":' x 5000) . '1' . ('}' x 5000);
expect_4xx 'deeply nested JSON objects (5000 levels)';
req POST => "/subjects/$SB/versions", '';
expect_error 'empty body -> 400', 400, 400;
req POST => "/subjects/$SB/versions", '[' . sbody($A3) . ']';
expect_error 'JSON array body -> 400', 400, 400;
req POST => "/subjects/$SB/versions", '"just a string"';
expect_error 'JSON string body -> 400', 400, 400;
req POST => "/subjects/$SB-new/versions", '{}';
expect_error 'no schema member in a new subject -> 42201', 422, 42201;
req POST => "/subjects/$SB/versions", '{}';
expect q{no schema member in a subject with a version: that version's schema, as Confluent fills it}, 200,
  sub { $_->{version} == 1 && $_->{schema} eq $A1 };
req GET => "/subjects/$SB-new/versions";
expect_error '... and the refused requests created no subject', 404, 40401;
req POST => "/subjects/$SB/versions", sbody($A3) . "\0";
expect_4xx 'NUL byte in the body';
req POST => "/subjects/%01ctl$RUN/versions", sbody($A1);
expect_error 'subject with a control character (%01) -> 42208', 422, 42208;
req POST => '/subjects/__GLOBAL/versions', sbody($A1);
expect_error 'subject __GLOBAL -> 42208', 422, 42208;
for my $v (qw(abc 0 -2 2147483648 1.5))
{
	req GET => "/subjects/$SB/versions/$v";
	expect_error "version $v -> 42202", 422, 42202;
}
req DELETE => "/subjects/$SB/versions/abc";
expect_error 'DELETE version abc -> 42202', 422, 42202;
req POST => "/compatibility/subjects/$SB/versions/-2", sbody($A3);
expect_error 'compatibility against version -2 -> 42202', 422, 42202;
req PUT => "/config/$SB", '{"compatibility":"SUPER"}';
expect_error 'unknown compatibility level -> 42203', 422, 42203;
req PUT => '/config', '{"compatibility":7}';
expect_error 'compatibility level not a string -> 42203', 422, 42203;
req PUT => "/mode/$SB", '{"mode":"WHATEVER"}';
expect_error 'unknown mode -> 42204', 422, 42204;
req PUT => '/mode', '{"mode":""}';
expect_error 'empty mode -> 42204', 422, 42204;
req GET => '/nosuchroute';
expect_error 'unknown route -> 404', 404, 404;
req GET => "/subjects/$SB/versions/1/nosuch";
expect_error 'unknown sub-route -> 404', 404, 404;
req PATCH => '/subjects';
expect_error 'PATCH /subjects -> 405', 405, 405;
req PUT => "/subjects/$SB/versions", sbody($A3);
expect_error 'PUT /subjects/{s}/versions -> 405', 405, 405;
req GET => '/subjects', undef, Accept => 'text/html';
expect_error 'Accept: text/html -> 406', 406, 406;
req GET => '/schemas/ids/abc';
expect_4xx 'schema id not a number';
req GET => '/schemas/ids/99999999999999';
expect_4xx 'schema id out of range';
req GET => '/schemas/ids/2147483647';
expect_error 'unknown schema id -> 40403', 404, 40403;
req POST => "/subjects/$SB/versions",
  sbody($REFSCHEMA, qq{"references":[{"name":"$REC","subject":"$RUN-missing","version":1}]});
expect_error 'reference to a missing subject -> 42201', 422, 42201;
req POST => "/subjects/$SB/versions", sbody($REFSCHEMA, qq{"references":[{"name":"$REC","subject":"$S1","version":99}]});
expect_error 'reference to a missing version -> 42201', 422, 42201;
req POST => "/subjects/$SB/versions", sbody($REFSCHEMA, '"references":{"a":1}');
expect_4xx 'references not an array';
req POST => "/subjects/$SB/versions", sbody($A3, '"id":987654');
expect_error 'explicit id outside IMPORT mode -> 42205', 422, 42205;
req POST => "/subjects/$SB/versions", sbody($A3, '"version":7');
expect_error 'explicit version not one more than the previous -> 42201', 422, 42201;
req POST => "/subjects/$SB/versions", sbody('{"type":"record","name":"' . $REC . '","fields":[{"name":"a","type":"string"}]}');
expect 'incompatible schema -> 409', 409,
  sub { ($_->{error_code} == 409 || $_->{error_code} == 40901) && is_str($_->{message}) };
req PUT => "/mode/$SB", '{"mode":"FORWARD"}';
expect_error 'mode FORWARD on a subject -> 42204', 422, 42204;
req DELETE => "/subjects/$RUN-nosuch";
expect_error 'DELETE a missing subject -> 40401', 404, 40401;
req DELETE => "/subjects/$SB/versions/9";
expect_error 'DELETE a missing version -> 40402', 404, 40402;
req POST => "/compatibility/subjects/$SB/versions/latest", '{"schema":"{bad"}';
expect_error 'compatibility with an invalid schema -> 42201', 422, 42201;

# registry.http_max_body_size: set it low, expect 413, reset it
alter_system('registry.http_max_body_size', '4kB');
my $BIG = '{"schema":' . jstr($A3) . ',"pad":"' . ('x' x 8000) . '"}';
# twice(METHOD, PATH, BODY, STATUS): whether two answers in a row are
# STATUS, within 20 tries (until both workers have reloaded)
sub twice
{
	my ($method, $path, $body, $want) = @_;
	for (1 .. 20)
	{
		req $method, $path, $body;
		if ($STATUS eq $want)
		{
			req $method, $path, $body;
			return 1 if $STATUS eq $want;
		}
		sleep 0.25;
	}
	return 0;
}
# probed with a lookup, which only reads: a worker that has not reloaded
# yet must not register the big body's schema
my $ok413 = twice(POST => "/subjects/$SB", $BIG, '413');
if ($ok413)
{
	expect_error 'body over registry.http_max_body_size (4kB) -> 413', 413, 413;
}
else
{
	check 'body over registry.http_max_body_size (4kB) -> 413', 0, "HTTP $STATUS: " . short($BODY);
}
{
	# two lookups with the big body on a keep-alive client: the second is
	# answered too, on the same connection or a new one
	my $ka = HTTP::Tiny->new(keep_alive => 1, timeout => 20);
	my @codes;
	for (1 .. 2)
	{
		my $r = $ka->request('POST', "$URL/subjects/$SB",
			{ headers => { 'content-type' => $CT }, content => $BIG });
		push @codes, $r->{status};
	}
	check '413 on a keep-alive connection: the next request is answered too',
	  2 == grep({ $_ == 413 || $_ == 404 } @codes), "answers: @codes";
}
alter_system('registry.http_max_body_size', undef);
my $okbig = twice(POST => "/subjects/$SB", $BIG, '404');    # a lookup: reads only
check 'after RESET the 8 kB body is accepted again (lookup -> 40403)', $okbig, "HTTP $STATUS: " . short($BODY);

req GET => '/';
expect 'the server is still up after the bad input', 200, sub { jeq($_, '{}') };
my $AFTER = snapshot();
same_rows 'no row of the registry tables changed', $BEFORE, $AFTER;
same_sequences 'no id sequence advanced (no id was burnt)', $BEFORE, $AFTER;

# Input that must be refused and not stored.  Each case gets its own
# before/after snapshot, and is cleaned up through the API if it was stored
# anyway (a subject or value that is not valid UTF-8 in the registry's
# UTF8 text/jsonb columns would break pg_dump/restore of later layers).
sub refused    # refused(NAME, EXPECT-CODE or 4xx, CLEANUP-METHOD, CLEANUP-PATH, METHOD, PATH [, BODY])
{
	my ($name, $code, $cm, $cp, @r) = @_;
	my $before = snapshot();
	req @r;
	if ($code eq '4xx')
	{
		expect_4xx $name;
	}
	else
	{
		expect_error "$name -> $code", substr($code, 0, 3), $code;
	}
	if ($STATUS eq '200')
	{
		req $cm, $cp;
		req DELETE => "$cp?permanent=true" if $cm eq 'DELETE' && $cp =~ m{^/subjects/};
	}
	same_rows "$name: nothing stored", $before, snapshot();
}
refused 'PUT /config/{s} with a control character (%01) in the subject', 42208,
  DELETE => "/config/%01ctl$RUN", PUT => "/config/%01ctl$RUN", '{"compatibility":"NONE"}';
refused 'PUT /mode/{s} with a control character (%01) in the subject', 42208,
  DELETE => "/mode/%01ctl$RUN", PUT => "/mode/%01ctl$RUN", '{"mode":"READONLY"}';
refused 'register under a subject that is invalid UTF-8 (%FF)', '4xx',
  DELETE => "/subjects/%FFbad$RUN", POST => "/subjects/%FFbad$RUN/versions", sbody($A1);
refused 'PUT /config/{s} with a subject that is invalid UTF-8 (%FF)', '4xx',
  DELETE => "/config/%FFbad$RUN", PUT => "/config/%FFbad$RUN", '{"compatibility":"NONE"}';
refused 'register with invalid UTF-8 inside metadata', 400,
  DELETE => "/subjects/$RUN-utf8meta", POST => "/subjects/$RUN-utf8meta/versions",
  qq{{"schema":"\\"string\\"","metadata":{"properties":{"k":"\xff"}}}};
refused 'register with invalid UTF-8 in a reference name', 400,
  DELETE => "/subjects/$RUN-utf8ref", POST => "/subjects/$RUN-utf8ref/versions",
  sbody($REFSCHEMA, qq{"references":[{"name":"R1\xff","subject":"$S1","version":1}]});

##############################################################################
# Hostile nesting: 422 42201, fast, and no worker dies
##############################################################################
note('hostile nesting');
my $SN = "$RUN-nest";
req POST => "/subjects/$SN/versions",
  '{"schema":"syntax = \"proto3\"; message M0 { int32 a = 1; }","schemaType":"PROTOBUF"}';
expect 'a PROTOBUF subject to check against', 200, sub { is_num($_->{id}) };
my $log = server_log();
my $log_size = server_log_size();
my $pids = worker_pids();
my $NEST_BEFORE = snapshot();
# message M0 { message M1 { ... } }: 20,000 deep, about 320 KB; 20,000 nested Avro arrays
my $n = 20000;
my $deep_proto = '{"schemaType": "PROTOBUF", "schema": '
  . jstr("syntax = \"proto3\";\n" . join('', map { "message M$_ { " } 0 .. $n - 1) . ('} ' x $n)) . '}';
my $deep_avro = '{"schema": ' . jstr(('{"type":"array","items":' x $n) . '"int"' . ('}' x $n)) . '}';
my $t0 = time();
req POST => "/subjects/$SN/versions", $deep_proto;
my $ms = ms_since($t0);
expect_error 'register a PROTOBUF schema 20,000 messages deep (' . length($deep_proto) . ' bytes) -> 42201', 422, 42201;
check "  ... refused in $ms ms (limit 2000 ms)", $ms < 2000, "took $ms ms";
check '  ... the message names the limit', index($BODY, 'Nesting is deeper than 100 levels') >= 0, short($BODY);
req POST => "/compatibility/subjects/$SN/versions/latest", $deep_proto;
expect_error 'compatibility of a PROTOBUF schema 20,000 messages deep -> 42201', 422, 42201;
req POST => "/subjects/$SN", $deep_proto;
expect_4xx 'lookup of a PROTOBUF schema 20,000 messages deep';
$t0 = time();
req POST => "/subjects/$SN-avro/versions", $deep_avro;
$ms = ms_since($t0);
expect_error 'register an AVRO schema 20,000 arrays deep -> 42201', 422, 42201;
check "  ... refused in $ms ms (limit 2000 ms)", $ms < 2000, "took $ms ms";
check '  ... the message names the limit', index($BODY, 'nesting deeper than 1000 levels') >= 0, short($BODY);
req POST => "/compatibility/subjects/$SN/versions/latest", $deep_avro;
expect_error 'compatibility of an AVRO schema 20,000 arrays deep -> 42201', 422, 42201;
req GET => '/';
expect 'the server is still up after the deep schemas', 200, sub { jeq($_, '{}') };
my $pids_after = worker_pids();
check "the same HTTP workers are serving ($pids)", $pids ne '' && $pids eq $pids_after,
  "before: $pids; after: $pids_after";
if ($log)
{
	my $tail = substr(slurp($log), $log_size);
	my @bad = grep { /terminated by signal|server process .* was terminated|all server processes terminated|database system was interrupted/ }
	  split /\n/, $tail;
	check 'the postmaster log shows no crash or restart', !@bad, join(' ', @bad[ 0 .. ($#bad < 2 ? $#bad : 2) ]);
}
else
{
	check 'the postmaster log shows no crash or restart', 0,
	  'no server log at ' . ($ENV{CLUSTER_DATA} ? "$ENV{CLUSTER_DATA}/../server.log" : '(CLUSTER_DATA not set)');
}
same_rows 'the deep schemas stored nothing', $NEST_BEFORE, snapshot();
req DELETE => "/subjects/$SN";
req DELETE => "/subjects/$SN?permanent=true";

done_testing();
