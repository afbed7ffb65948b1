# Schema tags (Confluent 7.5+): POST /subjects/{s}/versions/{v}/tags,
# schemaTagsToAdd / schemaTagsToRemove / propagateSchemaTags on register,
# findTags on GET.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;

# tag_list(PATH, TYPE, TAG...): a SchemaTags list of one entity (JSON text)
sub tag_list
{
	my ($path, $type, @tags) = @_;
	return '[{"schemaEntity":{"entityPath":' . jstr($path) . ',"entityType":' . jstr($type) . '},"tags":['
	  . join(',', map { jstr($_) } @tags) . ']}]';
}
# the schema member of an answer, as data
sub schema_of { return jdecode($_[0]{schema}) }

note('schema tags');
my $ST = "$RUN-tags";
my $TR = "T_$RUN";
my $base = avro($TR, $F_B);
req POST => "/subjects/$ST/versions", sbody($base);
expect 'tags: version 1 registered', 200, sub { is_num($_->{id}) };
req POST => "/subjects/$ST/versions/1/tags", '{"tagsToAdd":' . tag_list("$TR.a", 'sr_field', 'PII') . '}';
expect 'tags: POST /versions/1/tags makes version 2 with the field\'s tags and confluent:version', 200, sub {
	$_->{version} == 2 && $_->{metadata}{properties}{'confluent:version'} eq '2'
	  && jeq(schema_of($_)->{fields}[0]{'confluent:tags'}, '["PII"]');
};
my $id2 = ref $J eq 'HASH' ? $J->{id} // 0 : 0;
req GET => "/subjects/$ST/versions/2";
expect q{tags: version 2 is stored with the tags, after the field's other attributes}, 200,
  sub { index($_->{schema}, '{"name":"a","type":"int","confluent:tags":["PII"]}') >= 0 };
my $tagged_a = qq{[{"schemaEntity":{"entityPath":"$TR.a","entityType":"sr_field"},"tags":["PII"]}]};
req GET => "/subjects/$ST/versions/2?findTags=PII";
expect 'tags: findTags=PII lists the tagged field', 200, sub { jeq($_->{schemaTags}, $tagged_a) };
req GET => "/subjects/$ST/versions/2?findTags=NOPE";
expect 'tags: findTags with no match leaves schemaTags out', 200, sub { !exists $_->{schemaTags} };
req GET => "/schemas/ids/$id2?findTags=*";
expect 'tags: GET /schemas/ids/{id}?findTags=* lists every tagged entity', 200, sub { jeq($_->{schemaTags}, $tagged_a) };
req POST => "/subjects/$ST/versions/2/tags", '{"newVersion":5,"tagsToAdd":' . tag_list($TR, 'sr_record', 'R') . '}';
expect_error 'tags: a newVersion that is not the next version is refused', 422, 42201;
req POST => "/subjects/$ST/versions/2/tags", '{"newVersion":3,"tagsToAdd":' . tag_list($TR, 'sr_record', 'R') . '}';
expect q{tags: newVersion 3 makes version 3 with the record's tags too}, 200, sub {
	my $s = schema_of($_);
	$_->{version} == 3 && $_->{metadata}{properties}{'confluent:version'} eq '3'
	  && jeq($s->{'confluent:tags'}, '["R"]') && jeq($s->{fields}[0]{'confluent:tags'}, '["PII"]');
};
req POST => "/subjects/$ST/versions/3/tags", '{"tagsToRemove":' . tag_list("$TR.a", 'sr_field', 'PII') . '}';
expect q{tags: tagsToRemove drops the field's last tag and its property}, 200, sub {
	my $s = schema_of($_);
	$_->{version} == 4 && !exists $s->{fields}[0]{'confluent:tags'} && jeq($s->{'confluent:tags'}, '["R"]');
};
req POST => "/subjects/$ST/versions/1/tags", '{"tagsToAdd":' . tag_list("$TR.zz", 'sr_field', 'X') . '}';
expect 'tags: an entity not in the schema is 42201 (No matching path)', 422,
  sub { $_->{error_code} == 42201 && index($_->{message}, 'No matching path') >= 0 };
req POST => "/subjects/$ST/versions/1/tags", '{"ruleSet":{},"rulesToRemove":["r"]}';
expect 'tags: ruleSet with rulesToRemove is 42210', 422, sub {
	$_->{error_code} == 42210 && $_->{message} eq 'ruleSet should be omitted if specifying rulesToMerge or rulesToRemove';
};
req POST => "/subjects/$RUN-no-such/versions/1/tags", '{"tagsToAdd":' . tag_list("$TR.a", 'sr_field', 'X') . '}';
expect_error 'tags: a missing subject is 40401', 404, 40401;
req POST => "/subjects/$ST/versions/99/tags", '{"tagsToAdd":' . tag_list("$TR.a", 'sr_field', 'X') . '}';
expect_error 'tags: a missing version is 40402', 404, 40402;
req POST => "/subjects/$ST/versions", sbody($base, '"schemaTagsToAdd":' . tag_list("$TR.b", 'sr_field', 'S'));
expect 'tags: register with schemaTagsToAdd stores the tagged schema as a new version', 200, sub { is_num($_->{id}) };
req GET => "/subjects/$ST/versions/latest";
expect 'tags: the latest version has the tags schemaTagsToAdd gave and confluent:version', 200, sub {
	$_->{version} == 5 && $_->{metadata}{properties}{'confluent:version'} eq '5'
	  && jeq(schema_of($_)->{fields}[1]{'confluent:tags'}, '["S"]');
};
req POST => "/subjects/$ST-proto/versions", '{"schemaType":"PROTOBUF","schema":"syntax = \"proto3\"; message M { int32 a = 1; }"}';
expect 'tags: a PROTOBUF version', 200, sub { $_->{version} == 1 };
req POST => "/subjects/$ST-proto/versions/1/tags", '{"tagsToAdd":' . tag_list('M.a', 'sr_field', 'PII') . '}';
expect 'tags: tags on a PROTOBUF field make version 2 with its (confluent.field_meta) option', 200, sub {
	$_->{version} == 2
	  && index($_->{schema}, 'int32 a = 1 [(confluent.field_meta) = { tags: [ "PII" ] }];') >= 0
	  && index($_->{schema}, 'import "confluent/meta.proto";') >= 0;
};
req POST => "/subjects/$ST-proto/versions/2/tags", '{"tagsToRemove":' . tag_list('M.a', 'sr_field', 'PII') . '}';
expect 'tags: the PROTOBUF tag removed again: version 3 without the option', 200, sub {
	$_->{version} == 3 && index($_->{schema}, 'int32 a = 1;') >= 0 && index($_->{schema}, 'field_meta') < 0;
};
req POST => "/subjects/$ST-proto/versions/1/tags", '{"tagsToAdd":' . tag_list('p.M.a', 'sr_field', 'PII') . '}';
expect_error 'tags: a PROTOBUF path with no such message is 42201', 422, 42201;
req POST => "/subjects/$ST/versions/1/tags", '{"tagsToAdd":[{"schemaEntity":"nope"}]}';
expect_error 'tags: a malformed tag list is 42201, never a 500', 422, 42201;
req POST => "/subjects/$ST/versions", sbody(avro($TR, "$F_B,$F_C"), '"propagateSchemaTags":true');
expect 'tags: register with propagateSchemaTags', 200, sub { is_num($_->{id}) };
req GET => "/subjects/$ST/versions/latest";
expect q{tags: the previous version's tags are carried to the new schema}, 200, sub {
	my $s = schema_of($_);
	$_->{version} == 6 && jeq($s->{fields}[1]{'confluent:tags'}, '["S"]') && !exists $s->{fields}[2]{'confluent:tags'};
};

done_testing();
