# The rest of the API clients and tools call (issue 32 part 3): format on
# the metadata and lookup answers, deletedAsNegative, register's force,
# DELETE /mode?recursive=true, GET /contexts?contextPrefix=,
# referenceFormat=qualified and GET /v1/metadata/deployment.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;
use MIME::Base64 qw(decode_base64);

# --- format=serialized on GET /subjects/{s}/metadata and the lookup ---------

my $PS = "$RUN-pbmeta";
my $PROTO = "syntax = \"proto3\";\npackage meta_$RUN.v1;\n\nmessage Item {\n  string sku = 1;\n  int32 count = 2;\n}\n";
req POST => "/subjects/$PS/versions",
  '{"schema":' . jstr($PROTO) . ',"schemaType":"PROTOBUF","metadata":{"properties":{"app":"x"}}}';
expect 'register a PROTOBUF schema with metadata', 200, sub { is_num($_->{id}) };
my $PID = ref $J eq 'HASH' ? $J->{id} // 0 : 0;
req GET => "/schemas/ids/$PID?format=serialized";
my $B64 = ref $J eq 'HASH' ? $J->{schema} // '' : '';
check 'GET /schemas/ids/{id}?format=serialized gives base64', $B64 =~ m{^[A-Za-z0-9+/]+=*$}, $B64;

req GET => "/subjects/$PS/metadata?key=app&value=x&format=serialized";
expect 'GET /subjects/{s}/metadata?format=serialized: the base64 FileDescriptorProto', 200,
  sub { $_->{schema} eq $B64 && $_->{id} == $PID && $_->{version} == 1 };
check 'the descriptor names the message', index(decode_base64($B64), 'Item') >= 0;
req GET => "/subjects/$PS/metadata?key=app&value=x";
expect 'GET /subjects/{s}/metadata without format: the .proto text', 200,
  sub { $_->{schema} =~ /message Item/ };
req GET => "/subjects/$PS/metadata?key=app&value=x&format=nosuchformat";
expect 'an unknown format is ignored', 200, sub { $_->{schema} =~ /message Item/ };

req POST => "/subjects/$PS?format=serialized", '{"schema":' . jstr($PROTO) . ',"schemaType":"PROTOBUF"}';
expect 'POST /subjects/{s}?format=serialized (lookup): the base64 FileDescriptorProto', 200,
  sub { $_->{schema} eq $B64 && $_->{id} == $PID };
req POST => "/subjects/$PS", '{"schema":' . jstr($PROTO) . ',"schemaType":"PROTOBUF"}';
expect 'the lookup without format: the .proto text', 200, sub { $_->{schema} =~ /message Item/ };

# --- deletedAsNegative ------------------------------------------------------

my $DS = "$RUN-neg";
for my $extra ('', $F_B, "$F_B,$F_C")
{
	req POST => "/subjects/$DS/versions", sbody(avro("N_$RUN", $extra));
}
req DELETE => "/subjects/$DS/versions/2";
expect 'soft-delete version 2', 200, sub { $_ == 2 };
req GET => "/subjects/$DS/versions?deleted=true&deletedAsNegative=true";
expect 'deleted=true&deletedAsNegative=true: [1,-2,3]', 200, sub { jeq($_, [1, -2, 3]) };
req GET => "/subjects/$DS/versions?deletedOnly=true&deletedAsNegative=true";
expect 'deletedOnly=true&deletedAsNegative=true: [-2]', 200, sub { jeq($_, [-2]) };
req GET => "/subjects/$DS/versions?deleted=true";
expect 'deleted=true alone: [1,2,3]', 200, sub { jeq($_, [1, 2, 3]) };
req GET => "/subjects/$DS/versions?deletedAsNegative=true";
expect 'deletedAsNegative alone: the live versions [1,3]', 200, sub { jeq($_, [1, 3]) };

# --- register ?force=true -----------------------------------------------------

my $FS = "$RUN-force";
req POST => "/subjects/$FS/versions", sbody(avro("F_$RUN"));
expect 'register v1', 200;
my $INCOMPAT = '{"type":"record","name":"F_' . $RUN . '","fields":[{"name":"a","type":"string"}]}';
req POST => "/subjects/$FS/versions", sbody($INCOMPAT);
expect_error 'an incompatible schema is refused (409)', 409, 40901;
req POST => "/subjects/$FS/versions?force=false", sbody($INCOMPAT);
expect_error 'force=false: refused as well', 409, 40901;
req POST => "/subjects/$FS/versions?force=true", sbody($INCOMPAT);
expect 'force=true registers it without the compatibility check', 200, sub { $_->{version} == 2 };
req GET => "/subjects/$FS/versions";
expect 'the subject has both versions', 200, sub { jeq($_, [1, 2]) };
req POST => "/subjects/$FS/versions?force=true", '{"schema":"{not avro"}';
expect_error 'force=true still refuses an invalid schema (42201)', 422, 42201;

# --- DELETE /mode?recursive=true ----------------------------------------------

my $CTX = ".mctx$RUN";
req PUT => "/mode/:$CTX:", '{"mode":"READONLY"}';
expect 'PUT a context mode', 200, sub { $_->{mode} eq 'READONLY' };
req PUT => "/mode/:$CTX:m1", '{"mode":"READONLY"}';
req PUT => "/mode/:$CTX:m2", '{"mode":"READWRITE"}';
expect 'PUT two subject modes in the context', 200;
req DELETE => "/mode/:$CTX:";
expect 'DELETE /mode/{ctx} (not recursive): the context mode', 200, sub { $_->{mode} eq 'READONLY' };
req GET => "/mode/:$CTX:m1";
expect q{the subjects' modes stay}, 200, sub { $_->{mode} eq 'READONLY' };
req PUT => "/mode/:$CTX:", '{"mode":"READONLY"}';
req DELETE => "/mode/:$CTX:?recursive=true";
expect 'DELETE /mode/{ctx}?recursive=true: the context mode', 200, sub { $_->{mode} eq 'READONLY' };
req GET => "/mode/:$CTX:m1";
expect_error q{...and its subjects' modes are gone (40409)}, 404, 40409;
req GET => "/mode/:$CTX:m2";
expect_error 'the other one too', 404, 40409;
req DELETE => "/mode/:$CTX:nomode";
expect_error 'DELETE /mode/{s} without a mode: 40401', 404, 40401;
req DELETE => "/mode/:$CTX:nomode?recursive=true";
expect 'with recursive=true: no error', 200, sub { $_->{mode} eq 'READWRITE' };
my $GS = "$RUN-gmode";
req PUT => "/mode/$GS", '{"mode":"READONLY"}';
req DELETE => '/mode?recursive=true';
expect 'DELETE /mode?recursive=true', 200, sub { defined $_->{mode} };
req GET => "/mode/$GS";
expect_error q{the default context's subject modes are gone}, 404, 40409;

# --- GET /contexts?contextPrefix= -------------------------------------------------

my $P = "pfx$RUN";
req POST => "/subjects/:.${P}a:s/versions", sbody(avro("C_$RUN"));
req POST => "/subjects/:.${P}b:s/versions", sbody(avro("C_$RUN"));
expect 'register in two contexts', 200;
req GET => "/contexts?contextPrefix=.$P";
expect 'contextPrefix=.P: the two contexts', 200, sub { jeq($_, [".${P}a", ".${P}b"]) };
req GET => "/contexts?contextPrefix=$P";
expect 'contextPrefix without the dot: the same', 200, sub { jeq($_, [".${P}a", ".${P}b"]) };
req GET => "/contexts?contextPrefix=.${P}b";
expect 'a longer prefix: one', 200, sub { jeq($_, [".${P}b"]) };
req GET => '/contexts?contextPrefix=.nosuchctxprefix';
expect 'no match: []', 200, sub { jeq($_, []) };
req GET => '/contexts';
expect 'without contextPrefix: all, the default first', 200,
  sub { $_->[0] eq '.' && grep { $_ eq ".${P}a" } @$_ };

# --- referenceFormat=qualified ------------------------------------------------------

my $RC = ".rf$RUN";
my $BASE = '{"type":"record","name":"Base' . $RUN . '","fields":[{"name":"x","type":"int"}]}';
req POST => "/subjects/:$RC:base/versions", sbody($BASE);
expect 'register the referenced schema in a context', 200;
my $USER = '{"type":"record","name":"User' . $RUN . '","fields":[{"name":"b","type":"Base' . $RUN . '"}]}';
req POST => "/subjects/:$RC:user/versions",
  sbody($USER, '"references":[{"name":"Base' . $RUN . '","subject":"base","version":1}]');
expect 'register a schema referencing it by a bare subject', 200, sub { is_num($_->{id}) };
my $UID = ref $J eq 'HASH' ? $J->{id} // 0 : 0;
req GET => "/subjects/:$RC:user/versions/1";
expect 'GET version: the reference as registered', 200, sub { $_->{references}[0]{subject} eq 'base' };
req GET => "/subjects/:$RC:user/versions/1?referenceFormat=qualified";
expect 'GET version?referenceFormat=qualified: qualified by the context', 200,
  sub { $_->{references}[0]{subject} eq ":$RC:base" && $_->{references}[0]{version} == 1 };
req GET => "/schemas/ids/$UID?subject=:$RC:user&referenceFormat=qualified";
expect 'GET /schemas/ids/{id}?referenceFormat=qualified: the same', 200,
  sub { $_->{references}[0]{subject} eq ":$RC:base" };
req GET => "/schemas/ids/$UID?subject=:$RC:user";
expect 'without it: bare', 200, sub { $_->{references}[0]{subject} eq 'base' };

# --- format=resolved (AVRO): the references' types inlined ---------------------

req GET => "/subjects/:$RC:user/versions/1?format=resolved";
expect 'GET version?format=resolved: the referenced record written in full', 200, sub {
	my $s = jdecode($_->{schema});
	ref $s eq 'HASH' && ref $s->{fields}[0]{type} eq 'HASH' && $s->{fields}[0]{type}{name} eq "Base$RUN"
	  && $s->{fields}[0]{type}{fields}[0]{name} eq 'x';
};
req GET => "/subjects/:$RC:user/versions/1";
expect 'without format: the type by name', 200, sub { jdecode($_->{schema})->{fields}[0]{type} eq "Base$RUN" };
req GET => "/schemas/ids/$UID?subject=:$RC:user&format=resolved";
expect 'GET /schemas/ids/{id}?format=resolved: the same', 200,
  sub { ref jdecode($_->{schema})->{fields}[0]{type} eq 'HASH' };
req GET => "/subjects/:$RC:user/versions/1/schema?format=resolved";
expect '.../schema?format=resolved: the resolved schema itself', 200,
  sub { ref $_ eq 'HASH' && ref $_->{fields}[0]{type} eq 'HASH' };
req GET => "/subjects/:$RC:base/versions/1?format=resolved";
expect 'a schema without references: its stored text', 200, sub { $_->{schema} eq $BASE };

# --- GET /v1/metadata/deployment ---------------------------------------------------

req GET => '/v1/metadata/deployment';
expect 'GET /v1/metadata/deployment: {"attributes":["opensource"]}', 200,
  sub { jeq($_, { attributes => ['opensource'] }) };

done_testing();
