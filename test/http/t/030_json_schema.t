# JSON Schema: register, the stored form byte for byte, lookup,
# compatibility, references, bad input (nothing stored, no crash).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;
use JSON::PP;
use Time::HiRes qw(time);

my $JS = "$RUN-json";
req GET => '/schemas/types';
expect 'GET /schemas/types lists AVRO, JSON, PROTOBUF', 200, sub { jeq($_, '["AVRO","JSON","PROTOBUF"]') };

# the document pretty-printed, and its compact form (the stored form), as
# UTF-8 bytes; the same keys sorted (what normalize stores), and the keys
# in the reverse order
(my $title = "Order$RUN") =~ s/-/_/g;
my $desc = "caf\xc3\xa9 \xe2\x98\x83";    # "café ☃" in UTF-8
my $compact = '{"$schema":"http://json-schema.org/draft-07/schema#","title":"' . $title . '","type":"object",'
  . '"properties":{"id":{"type":"string","description":"' . $desc . '"},"qty":{"type":"integer","minimum":1},'
  . '"price":{"type":"number","exclusiveMinimum":0},"tags":{"type":"array","items":{"type":"string"}}},'
  . '"required":["id"],"additionalProperties":false}';
my $pretty = <<"EOF";
{
    "\$schema": "http://json-schema.org/draft-07/schema#",
    "title": "$title",
    "type": "object",
    "properties": {
        "id": {
            "type": "string",
            "description": "$desc"
        },
        "qty": {
            "type": "integer",
            "minimum": 1
        },
        "price": {
            "type": "number",
            "exclusiveMinimum": 0
        },
        "tags": {
            "type": "array",
            "items": {
                "type": "string"
            }
        }
    },
    "required": [
        "id"
    ],
    "additionalProperties": false
}
EOF
chomp $pretty;
my $sorted = JSON::PP->new->utf8->canonical->encode(JSON::PP->new->utf8->decode($compact));
my $reversed = '{"additionalProperties": false, "required": ["id"], "properties": {"tags": {"items": {"type": "string"}, '
  . '"type": "array"}, "price": {"exclusiveMinimum": 0, "type": "number"}, "qty": {"minimum": 1, "type": "integer"}, '
  . '"id": {"description": "' . $desc . '", "type": "string"}}, "type": "object", "title": "' . $title . '", '
  . '"$schema": "http://json-schema.org/draft-07/schema#"}';
(my $v2 = $compact) =~ s/("tags":\{"type":"array","items":\{"type":"string"\}\})/$1,"note":{"type":"string"}/;
(my $bad = $compact) =~ s/"qty":\{"type":"integer","minimum":1\}/"qty":{"type":"string"}/;

# a request body of a JSON schema (text as UTF-8 bytes)
sub jbody
{
	my ($text, $type) = @_;
	my $t = $text;
	utf8::decode($t);
	return '{"schemaType":"' . ($type // 'JSON') . '","schema":' . jstr($t) . '}';
}
# a text of UTF-8 bytes as the string JSON decoding gives
sub chars
{
	my $t = $_[0];
	utf8::decode($t);
	return $t;
}

req POST => "/subjects/$JS/versions", jbody($pretty);
expect 'register a JSON schema', 200, sub { is_num($_->{id}) && $_->{version} == 1 };
my $JID = ref $J eq 'HASH' ? $J->{id} // 0 : 0;
req GET => "/schemas/ids/$JID";
expect 'GET /schemas/ids/{id}: schemaType JSON, the compact document', 200,
  sub { $_->{schemaType} eq 'JSON' && $_->{schema} eq chars($compact) };
req GET => "/schemas/ids/$JID/schema";
check 'GET /schemas/ids/{id}/schema is the stored form byte for byte (key order, unicode)', $BODY eq $compact,
  'got ' . substr($BODY, 0, 200);
req GET => "/subjects/$JS/versions/1";
expect 'GET /subjects/{s}/versions/1 has schemaType JSON', 200, sub { $_->{schemaType} eq 'JSON' && $_->{id} == $JID };
req POST => "/subjects/$JS/versions", jbody($compact);
expect 'register it again without whitespace: same id, same version', 200, sub { $_->{id} == $JID && $_->{version} == 1 };
req POST => "/subjects/$JS", jbody($compact);
expect 'lookup finds version 1', 200, sub { $_->{version} == 1 && $_->{id} == $JID && $_->{schemaType} eq 'JSON' };
req POST => "/subjects/$JS", jbody($reversed);
expect_error 'lookup with the keys in another order (no normalize) -> 40403', 404, 40403;
req POST => "/subjects/$JS-norm/versions?normalize=true", jbody($pretty);
expect 'register with normalize=true', 200, sub { $_->{version} == 1 };
my $JNID = ref $J eq 'HASH' ? $J->{id} // 0 : 0;
req POST => "/subjects/$JS-norm/versions?normalize=true", jbody($reversed);
expect '  ... the keys in another order: the same id and version', 200, sub { $_->{id} == $JNID && $_->{version} == 1 };
req GET => "/schemas/ids/$JNID/schema";
check '  ... stored with its keys sorted, byte for byte', $BODY eq $sorted, 'got ' . substr($BODY, 0, 200);
req POST => "/subjects/$JS?normalize=true", jbody($reversed);
expect_error '  ... lookup with normalize=true of the unnormalized subject: the stored text differs -> 40403', 404, 40403;
req POST => "/subjects/$JS", jbody($compact, 'AVRO');
expect_4xx 'lookup as AVRO is not the JSON schema';
req POST => "/compatibility/subjects/$JS/versions/latest?verbose=true", jbody($bad);
expect q{compatibility (verbose): a property's type changed -> TYPE_CHANGED in Confluent's form}, 200, sub {
	!$_->{is_compatible} && JSON::PP::is_bool($_->{is_compatible})
	  && index($_->{messages}[0], '{errorType:"TYPE_CHANGED"') == 0
	  && 1 == grep { index($_, '{oldSchemaVersion: 1}') == 0 } @{ $_->{messages} };
};
req POST => "/compatibility/subjects/$JS/versions/latest", jbody($v2);
expect 'compatibility: an optional property added to a closed object is compatible', 200,
  sub { jeq($_, '{"is_compatible":true}') };
req POST => "/subjects/$JS/versions", jbody($bad);
expect_error 'registering the incompatible one -> 409', 409, 40901;
req POST => "/subjects/$JS/versions", jbody($v2);
expect 'register v2', 200, sub { $_->{version} == 2 };
req POST => "/subjects/$JS/versions", '{"schema":"\"string\""}';
expect 'an AVRO schema after JSON versions: incompatible', 409,
  sub { index($_->{message}, 'Incompatible because of different schema type') >= 0 };
# compatibilityPolicy: LENIENT takes an optional property added to an open object
req POST => "/subjects/$JS-open/versions",
  '{"schemaType":"JSON","schema":"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}"}';
expect 'register an open object', 200, sub { is_num($_->{id}) };
my $JOPEN = '{"schemaType":"JSON","schema":"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"}}}"}';
req POST => "/compatibility/subjects/$JS-open/versions/latest?verbose=true", $JOPEN;
expect 'STRICT (the default): an optional property added to an open object is incompatible', 200, sub {
	!$_->{is_compatible} && JSON::PP::is_bool($_->{is_compatible})
	  && index($_->{messages}[0], '{errorType:"OPTIONAL_PROPERTY_ADDED_TO_OPEN_CONTENT_MODEL"') == 0;
};
req PUT => "/config/$JS-open", '{"compatibilityPolicy":"LENIENT"}';
expect 'PUT /config/{s} {compatibilityPolicy: LENIENT}', 200, sub { $_->{compatibilityPolicy} eq 'LENIENT' };
req GET => "/config/$JS-open";
expect 'GET /config/{s} has the policy', 200, sub { $_->{compatibilityPolicy} eq 'LENIENT' };
req POST => "/compatibility/subjects/$JS-open/versions/latest", $JOPEN;
expect 'LENIENT: the same change is compatible', 200, sub { jeq($_, '{"is_compatible":true}') };
req POST => "/subjects/$JS-open/versions", $JOPEN;
expect 'LENIENT: and registers', 200, sub { is_num($_->{id}) };
req DELETE => "/config/$JS-open";
req POST => "/compatibility/subjects/$JS-open/versions/latest",
  '{"schemaType":"JSON","schema":"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"},\"c\":{}}}"}';
expect '  ... and after DELETE /config/{s}, STRICT again (but an empty schema added is compatible)', 200,
  sub { jeq($_, '{"is_compatible":true}') };
req POST => "/compatibility/subjects/$JS-open/versions/latest",
  '{"schemaType":"JSON","schema":"{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":\"integer\"},\"c\":{\"type\":\"null\"}}}"}';
expect '  ... while a typed one is not', 200, sub { jeq($_, '{"is_compatible":false}') };

# references: a JSON schema refers to another subject's by the reference's name
my $JA = "$RUN-json-addr";
my $JC = "$RUN-json-cust";
req POST => "/subjects/$JA/versions",
  '{"schemaType":"JSON","schema":"{\"$id\":\"https://example.com/address.json\",\"type\":\"object\",\"properties\":{\"street\":{\"type\":\"string\"}}}"}';
expect 'register the referenced JSON schema', 200, sub { is_num($_->{id}) };
my $JC_BODY = '{"schemaType":"JSON","schema":'
  . jstr('{"type":"object","properties":{"home":{"$ref":"https://example.com/address.json"},"work":{"$ref":"addr.json"}}}')
  . ',"references":[{"name":"https://example.com/address.json","subject":"' . $JA . '","version":1},'
  . '{"name":"addr.json","subject":"' . $JA . '","version":1}]}';
req POST => "/subjects/$JC/versions", $JC_BODY;
expect 'register a JSON schema with references (an $id URL and a relative name)', 200, sub { is_num($_->{id}) };
my $JCID = ref $J eq 'HASH' ? $J->{id} // 0 : 0;
req GET => "/schemas/ids/$JCID";
expect 'GET /schemas/ids/{id} has the references', 200,
  sub { @{ $_->{references} } == 2 && $_->{references}[0]{subject} eq $JA && $_->{references}[0]{version} == 1 };
req GET => "/subjects/$JA/versions/1/referencedby";
expect 'referencedby lists the referring schema', 200, sub { jeq($_, [ 0 + $JCID ]) };
req DELETE => "/subjects/$JA/versions/1";
expect_error 'deleting a referenced version -> 42206', 422, 42206;
req DELETE => "/subjects/$JA";
expect_error 'deleting a referenced subject -> 42206', 422, 42206;
req GET => "/subjects/$JC/versions/1";
my $JC_REFS = ref $J eq 'HASH' ? $J->{references} : undef;
req POST => "/subjects/$JC", $JC_BODY;
expect 'lookup with references: its references as GET gives them', 200, sub {
	$_->{id} == $JCID && $_->{version} == 1 && @{ $_->{references} } > 0 && jeq($_->{references}, $JC_REFS);
};
my $JBEFORE = snapshot();
my $jc = jdecode($JC_BODY);
delete $jc->{references};
req POST => "/subjects/$JC-x/versions", JSON::PP->new->utf8->encode($jc);
expect_error 'the same schema without its references: unresolvable $ref -> 42201', 422, 42201;
$jc = jdecode($JC_BODY);
$jc->{references}[1]{version} = 9;
req POST => "/subjects/$JC-x/versions", JSON::PP->new->utf8->encode($jc);
expect_error 'a reference to a missing version -> 42201', 422, 42201;

# bad input: 42201, fast, nothing stored, the workers live on
my $JPIDS = worker_pids();
my $n = 20000;
# about 5 MB on one line, as clients send it: 100,000 valid properties, then
# one that is not a schema; the valid one, and the same with a line each;
# the same with one property fewer: a second version of it
my $props = join ',', map { qq{"p$_":{"type":"string","maxLength":$_}} } 0 .. 99999;
(my $props_lines = $props) =~ s/,"p/,\n"p/g;
my ($props_fewer) = split /,"p99999"/, $props;
my %bad = (
	js_deep_items => ('{"items":' x $n) . '{}' . ('}' x $n),
	js_deep_props => ('{"properties":{"a":' x $n) . '{}' . ('}}' x $n),
	js_deep_array => '{"enum":[' . ('[' x $n) . (']' x $n) . ']}',
	js_huge_bad => '{"type":"object","properties":{' . $props . ',"last":{"type":5}}}',
	js_cycle => '{"$ref":"#/definitions/a","definitions":{"a":{"$ref":"#/definitions/b"},"b":{"$ref":"#/definitions/a"}}}',
	js_unresolved => '{"type":"object","properties":{"x":{"$ref":"#/definitions/missing"}}}',
	js_remote => '{"type":"object","properties":{"x":{"$ref":"other.json"}}}',
	js_notjson => '{"type": "object", ',
	js_type5 => '{"type":5}',
	js_required => '{"type":"object","required":"x"}');
my $huge_ok = '{"type":"object","properties":{' . $props . '}}';
my $huge_lines = "{\"type\":\"object\",\"properties\":{\n" . $props_lines . '}}';
my $huge_v2 = '{"type":"object","properties":{' . $props_fewer . '}}';
for my $f (qw(js_deep_items js_deep_props js_deep_array js_huge_bad js_cycle js_unresolved js_remote js_notjson
	js_type5 js_required))
{
	my $body = jbody($bad{$f});
	my $t0 = time();
	req POST => "/subjects/$JS-bad/versions", $body;
	my $ms = ms_since($t0);
	expect_error "register $f (" . length($body) . " bytes) -> 42201 in $ms ms", 422, 42201;
	check "  ... $f took $ms ms (limit 5000)", 0, '' if $ms >= 5000;
}
req POST => "/compatibility/subjects/$JS/versions/latest", jbody($bad{js_deep_items});
expect_error 'compatibility of a schema 20,000 levels deep -> 42201', 422, 42201;
req POST => "/compatibility/subjects/$JS/versions/latest?verbose=true", jbody($bad{js_type5});
expect 'compatibility (verbose) of an invalid schema: a negative verdict with the reason', 200, sub {
	!$_->{is_compatible} && JSON::PP::is_bool($_->{is_compatible}) && @{ $_->{messages} } == 1
	  && index($_->{messages}[0], 'Invalid schema') == 0;
};
req POST => "/subjects/$JS", jbody($bad{js_cycle});
expect_4xx 'lookup of a $ref cycle';
my $JAFTER = snapshot();
same_rows 'the refused JSON schemas stored nothing', $JBEFORE, $JAFTER;
same_sequences '  ... and used no id', $JBEFORE, $JAFTER;
req GET => '/';
expect 'the server still answers after the bad JSON schemas', 200, sub { jeq($_, '{}') };
my $JPIDS_AFTER = worker_pids();
check 'the same HTTP workers are serving', $JPIDS ne '' && $JPIDS eq $JPIDS_AFTER, "before: $JPIDS; after: $JPIDS_AFTER";
my $huge_body = jbody($huge_ok);
req POST => "/subjects/$JS-huge/versions", $huge_body;
expect 'a valid JSON schema of ' . length($huge_body) . ' bytes (100,000 properties) registers', 200,
  sub { is_num($_->{id}) };
my $JHID = (jdecode($BODY) // {})->{id} // 0;    # the answer is too big for $J
req GET => "/schemas/ids/$JHID/schema";
check '  ... and comes back byte for byte', $BODY eq $huge_ok, substr($BODY, 0, 100);
req POST => "/subjects/$JS-huge/versions", jbody($huge_lines);
expect '  ... the same with a line per property: the same id', 200, sub { $_->{id} == $JHID };
# each worker parses the stored 5 MB form once to check against it
my $v2body = jbody($huge_v2);
for (1 .. 4)
{
	my $t0 = time();
	req POST => "/compatibility/subjects/$JS-huge/versions/latest", $v2body;
	my $ms = ms_since($t0);
	expect "  ... compatibility of a version with one property fewer ($ms ms)", 200, sub { jeq($_, '{"is_compatible":true}') };
}
req POST => "/subjects/$JS-huge/versions", $v2body;
expect '  ... which registers as version 2', 200, sub { $_->{version} == 2 };
for my $s ("$JS-huge", "$JS-open", "$JS-norm", $JC, $JA, $JS)
{
	req DELETE => "/subjects/$s";
	req DELETE => "/subjects/$s?permanent=true";
}

done_testing();
