# Confluent's guid for every schema (issue 32 part 3): the MD5 of what
# Confluent's Schema.updateHash digests, over the text, the references,
# the metadata and the rule set.  The expected values are the ones
# Confluent's own regression data pins (its schema-md5-golden-data: three
# schemas, each with and without references, metadata and rules), written
# down here as the 24 UUIDs Confluent produced.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;

my %TEXT = (
	AVRO => '{"type":"record","name":"Person","namespace":"io.confluent.kafka.example","fields":['
	  . '{"name":"name","type":"string"},{"name":"age","type":"int"},{"name":"ssn","type":"string"},'
	  . '{"name":"user","type":"io.confluent.kafka.example.User"},'
	  . '{"name":"address","type":"io.confluent.kafka.example.Address"}]}',
	PROTOBUF => "syntax = \"proto3\";\npackage io.confluent.kafka.example;\n"
	  . "import \"google/protobuf/timestamp.proto\";\nmessage Person {\n  string name = 1;\n"
	  . "  int32 age = 2;\n  string ssn = 3;\n  User user = 4;\n  Address address = 5;\n}\n"
	  . "message User {\n  string id = 1;\n  string email = 2;\n}\nmessage Address {\n"
	  . "  string street = 1;\n  string city = 2;\n  string zip = 3;\n}",
	JSON => qq({\n  "\$schema": "http://json-schema.org/draft-07/schema#",\n  "type": "object",\n)
	  . qq(  "title": "Person",\n  "properties": {\n    "name": {\n      "type": "string"\n    },\n)
	  . qq(    "age": {\n      "type": "integer",\n      "minimum": 0\n    },\n)
	  . qq(    "ssn": {\n      "type": "string",\n      "pattern": "^[0-9]{3}-[0-9]{2}-[0-9]{4}\$"\n    },\n)
	  . qq(    "user": {\n      "\$ref": "#/definitions/User"\n    },\n)
	  . qq(    "address": {\n      "\$ref": "#/definitions/Address"\n    }\n  },\n)
	  . qq(  "required": ["name", "age"],\n  "definitions": {\n    "User": {\n)
	  . qq(      "type": "object",\n      "properties": {\n        "id": {"type": "string"},\n)
	  . qq(        "email": {"type": "string", "format": "email"}\n      }\n    },\n)
	  . qq(    "Address": {\n      "type": "object",\n      "properties": {\n)
	  . qq(        "street": {"type": "string"},\n        "city": {"type": "string"},\n)
	  . qq(        "zip": {"type": "string"}\n      }\n    }\n  }\n}));

my $REFS = '[{"name":"io.confluent.kafka.example.User","subject":"User","version":1},'
  . '{"name":"io.confluent.kafka.example.Address","subject":"Address","version":2}]';
# given unsorted, as a client may: Confluent's entities sort them
my $METADATA = '{"tags":{"team":["data-engineering"],"environment":["staging","production"]},'
  . '"properties":{"version":"1.0.0","owner":"data-team","description":"Person schema for user management"},'
  . '"sensitive":["ssn","credit-card"]}';
sub rule
{
	my ($name, $doc, $kind, $mode, $type, $field, $expr) = @_;
	return qq({"name":"$name","doc":"$doc","kind":"$kind","mode":"$mode","type":"$type",)
	  . qq("tags":["PERSON"],"params":{"field":"$field"},"expr":"$expr",)
	  . qq("onSuccess":"none","onFailure":"error","disabled":false});
}
my $RULES = '{"migrationRules":['
  . rule('upgrade-rule-1', 'Upgrade rule for field changes', 'TRANSFORM', 'UPGRADE', 'FIELD_UPDATE',
	'name', 'field.name = field.name.toUpperCase()')
  . ','
  . rule('downgrade-rule-1', 'Downgrade rule for compatibility', 'TRANSFORM', 'DOWNGRADE',
	'FIELD_DELETE', 'ssn', 'delete field.ssn')
  . '],"domainRules":['
  . rule('validation-rule-1', 'Validate age field', 'CONDITION', 'WRITE', 'FIELD_VALIDATION', 'age',
	'field.age >= 0 && field.age <= 150')
  . ','
  . rule('masking-rule-1', 'Mask sensitive data on read', 'TRANSFORM', 'READ', 'DATA_MASKING', 'ssn',
	q{field.ssn = '***-**-****'})
  . ']}';

# key: references, metadata, rules (1 = present), as Confluent's data names them
my %WANT = (
	AVRO => {
		'000' => 'd629bb05-ad85-3d20-fbcb-895de3c459f7', '001' => 'c0708b8f-65f6-b698-bffe-45c1dfa8987c',
		'010' => '2034166c-90a8-1166-0ff2-f5f62c80dbe0', '011' => 'd9877161-cfdf-d8c5-4eb4-ab37ed50e9d5',
		'100' => '5c08d70e-5347-41b2-6369-199425d044eb', '101' => '96825311-eb10-b7f5-48be-2a023b4c018e',
		'110' => '3619d8e0-2ee8-de51-0d9e-2520d39174d5', '111' => '589556fb-ad98-e8e0-94fa-e6da3455433a',
	},
	PROTOBUF => {
		'000' => 'fd291f54-9ebf-6b66-69c4-d7c94f57d765', '001' => 'e0a5944a-07ec-f8b3-2e65-d618095d9b93',
		'010' => '56052a3d-b48e-0af1-2f4e-fb4fc5defed4', '011' => '89665e7a-68a3-0750-503e-cab9c5ab6494',
		'100' => '2acee2f0-10ab-9e39-ff5e-a3c6301a16fc', '101' => 'ca144a0b-d04f-9cdf-5576-bc3e0872c2ec',
		'110' => '1b1cd912-56b3-5aec-ed5e-628e4f8d6b99', '111' => '6e27c5d9-341f-eedd-8d14-8e32f414f50e',
	},
	JSON => {
		'000' => '8d9ce1c2-8624-0d98-53ec-66d14051c703', '001' => 'b1dd5216-670b-476a-bba4-2763ff8720d6',
		'010' => 'c1410156-b1ec-346c-3b3b-e8ef9df4fd20', '011' => '4f438fbe-c518-fea5-e433-82bd8c77e72f',
		'100' => 'ee6044f3-6476-c191-e6b6-e3eceeea87d6', '101' => '0476399c-ee06-5d92-14fd-f3afe300b400',
		'110' => '916dad4b-fef3-50ed-25ab-de84bd91c74a', '111' => 'fbab57e1-71f5-063c-288a-03fbfb24c505',
	},
);

# a SQL literal
sub lit { my $s = shift; $s =~ s/'/''/g; return "'$s'" }

# --- registry.schema_guid over Confluent's inputs ------------------------------

for my $type (qw(AVRO PROTOBUF JSON))
{
	for my $key (sort keys %{ $WANT{$type} })
	{
		my ($r, $m, $x) = split //, $key;
		my $got = sql('SELECT registry.schema_guid(' . lit($TEXT{$type}) . ', '
			  . ($r ? lit($REFS) : "'[]'") . ', ' . ($m ? lit($METADATA) : 'NULL') . ', '
			  . ($x ? lit($RULES) : 'NULL') . ')') // 'error';
		is($got, $WANT{$type}{$key},
			"schema_guid($type, references=$r, metadata=$m, rules=$x) is Confluent's");
	}
}

# --- the guid a registration answers --------------------------------------------

my $CTX = ":.guid$RUN:";
my $USER = '{"type":"record","name":"User","namespace":"io.confluent.kafka.example","fields":[{"name":"id","type":"string"}]}';
my $ADDR1 = '{"type":"record","name":"Address","namespace":"io.confluent.kafka.example","fields":[{"name":"street","type":"string"}]}';
my $ADDR2 = '{"type":"record","name":"Address","namespace":"io.confluent.kafka.example","fields":[{"name":"street","type":"string"},{"name":"zip","type":"string","default":""}]}';
req POST => "/subjects/${CTX}User/versions", sbody($USER);
expect 'register User v1', 200;
req POST => "/subjects/${CTX}Address/versions", sbody($ADDR1);
req POST => "/subjects/${CTX}Address/versions", sbody($ADDR2);
expect 'register Address v1 and v2', 200, sub { $_->{version} == 2 };

# The registry stores Avro's form of the text ("User" for a name in the
# record's namespace, as Confluent's canonicalString writes it), and the
# guid is over the stored form: Confluent's over the same inputs.
req POST => "/subjects/${CTX}Person/versions",
  sbody($TEXT{AVRO}, qq("references":$REFS,"metadata":$METADATA,"ruleSet":$RULES));
expect 'register Person with references, metadata and rules', 200, sub { is_num($_->{id}) };
my ($ID, $GUID, $STORED) = ref $J eq 'HASH' ? ($J->{id} // 0, $J->{guid} // '', $J->{schema} // '') : (0, '', '');
my $WANT111 = sql('SELECT registry.schema_guid(' . lit($STORED) . ', ' . lit($REFS) . ', '
	  . lit($METADATA) . ', ' . lit($RULES) . ')') // 'error';
is($GUID, $WANT111, q{its guid is Confluent's over the stored text, references, metadata and rules});
isnt($GUID, sql('SELECT registry.schema_guid(' . lit($STORED) . ')'), '...which the contract changes');
req GET => "/subjects/${CTX}Person/versions/1";
expect 'GET the version: the same guid', 200, sub { $_->{guid} eq $WANT111 };
req GET => "/schemas/guids/$WANT111";
expect 'GET /schemas/guids/{guid} finds it', 200, sub { $_->{schema} eq $STORED };
req GET => "/schemas/guids/$WANT111/ids";
expect '...and its id in the context', 200, sub { $_->[0]{id} == $ID };
req POST => "/subjects/${CTX}Person", sbody($TEXT{AVRO}, qq("references":$REFS,"metadata":$METADATA,"ruleSet":$RULES));
expect 'the lookup answers the same guid', 200, sub { $_->{guid} eq $WANT111 && $_->{id} == $ID };
req POST => "/subjects/${CTX}Person/versions",
  sbody($TEXT{AVRO}, qq("references":$REFS,"metadata":$METADATA,"ruleSet":$RULES));
expect 'registering it again: the same id, no new version', 200,
  sub { $_->{id} == $ID && $_->{version} == 1 };
req POST => "/subjects/${CTX}PersonRefsOnly/versions", sbody($TEXT{AVRO}, qq("references":$REFS));
expect q{with references only: Confluent's guid over the text and references}, 200,
  sub { $_->{guid} eq sql('SELECT registry.schema_guid(' . lit($STORED) . ', ' . lit($REFS) . ')') };
is(sql("SELECT guid FROM registry.schemas WHERE context = '.guid$RUN' AND id = $ID"), $WANT111,
	q{the stored guid column is the same});

# --- a restored row of a 0.6 dump ------------------------------------------
# 0.6 stored the MD5 of the text, a byte 1 and the metadata's canonical form
# for a schema with metadata; a restore (a superuser's complete row with a
# past creation time) accepts it and stores Confluent's guid instead.
my $RCTX = ".rst$RUN";
my $RTEXT = '"string"';
my $RMETA = '{"properties":{"owner":"o"}}';
my $restored = sql(qq{
INSERT INTO registry.contexts (context) VALUES ('$RCTX');
INSERT INTO registry.schemas (context, id, schema_type, schema, refs, metadata, fingerprint, created_at)
VALUES ('$RCTX', 7, 'AVRO', '$RTEXT', '[]', '$RMETA',
        decode(md5(convert_to('$RTEXT' || chr(1) || '$RMETA', 'UTF8')), 'hex'), now() - interval '1 day');
SELECT guid FROM registry.schemas WHERE context = '$RCTX' AND id = 7});
$restored = (split /\n/, $restored // '')[-1] // 'error';
is($restored, sql("SELECT registry.schema_guid('$RTEXT', '[]', '$RMETA')"),
	q{a restored 0.6 row with metadata is stored with Confluent's guid});
isnt(sql(qq{INSERT INTO registry.schemas (context, id, schema_type, schema, refs, metadata, fingerprint, created_at)
VALUES ('$RCTX', 8, 'AVRO', '"int"', '[]', '$RMETA', decode(md5('x'), 'hex'), now() - interval '1 day')
RETURNING id}), '8', 'a restored row with neither identity is refused');

done_testing();
