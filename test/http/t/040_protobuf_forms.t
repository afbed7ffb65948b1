# PROTOBUF in text and descriptor form: one schema, one id; the serialized
# descriptor names every field's JSON key.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;
use MIME::Base64 qw(decode_base64);

my $PF = "$RUN-pbform";
my $PFTEXT = <<'EOF';
syntax = "proto3";
package forms.v1;

import "google/protobuf/timestamp.proto";

message Order {
  message Line {
    string sku = 1;
    Kind kind = 2;
  }
  enum Kind {
    KIND_UNSPECIFIED = 0;
    KIND_BOOK = 1;
  }
  int64 order_id = 1;
  repeated Line line_items = 2;
  google.protobuf.Timestamp placed_at = 3;
  map<string, Line> by_sku = 4;
  string note = 5 [json_name = "memo"];
  oneof payment {
    string card_no = 6;
    Refund refund_of = 7;
  }
}

message Refund {
  Order.Line line = 1;
  Order.Kind kind = 2;
}
EOF
req POST => "/subjects/$PF/versions", '{"schema":' . jstr($PFTEXT) . ',"schemaType":"PROTOBUF"}';
expect 'register a PROTOBUF schema as .proto text', 200, sub { is_num($_->{id}) };
my $PFID = ref $J eq 'HASH' ? $J->{id} // 0 : 0;
req GET => "/schemas/ids/$PFID?format=serialized";
expect 'GET /schemas/ids/{id}?format=serialized', 200, sub { is_str($_->{schema}) };
my $PFB64 = ref $J eq 'HASH' ? $J->{schema} // '' : '';
req GET => "/subjects/$PF/versions/1";
my $PFSTORED = ref $J eq 'HASH' ? $J->{schema} : undef;

# The descriptor's json_names, by a wire-format walk (no protobuf module
# needed): FileDescriptorProto.message_type 4, DescriptorProto.field 2 and
# nested_type 3, FieldDescriptorProto.name 1 and json_name 10.

# the fields of a message: [number, bytes or undef] in order
sub fields
{
	my ($b) = @_;
	my @out;
	my $i = 0;
	my $varint = sub {
		my ($v, $shift) = (0, 0);
		while (1)
		{
			die "truncated\n" if $i >= length $b;
			my $c = ord substr($b, $i++, 1);
			$v |= ($c & 127) << $shift;
			$shift += 7;
			return $v if $c < 128;
		}
	};
	while ($i < length $b)
	{
		my $key = $varint->();
		my ($num, $wt) = ($key >> 3, $key & 7);
		if ($wt == 0) { $varint->(); push @out, [ $num, undef ] }
		elsif ($wt == 2)
		{
			my $n = $varint->();
			push @out, [ $num, substr($b, $i, $n) ];
			$i += $n;
		}
		elsif ($wt == 5) { $i += 4; push @out, [ $num, undef ] }
		elsif ($wt == 1) { $i += 8; push @out, [ $num, undef ] }
		else { die "bad wire type\n" }
	}
	return @out;
}

# "Scope.Message.field=json_name" of every field of a message and its nested ones
sub message
{
	my ($b, $scope, $out) = @_;
	my ($name) = map { $_->[1] } grep { $_->[0] == 1 } fields($b);
	$name //= '';
	for my $f (fields($b))
	{
		if ($f->[0] == 2)
		{
			my %fd = map { ($_->[0] => $_->[1]) } grep { $_->[0] == 1 || $_->[0] == 10 } fields($f->[1]);
			push @$out, "$scope$name.$fd{1}=" . ($fd{10} // '-');
		}
		elsif ($f->[0] == 3)
		{
			message($f->[1], "$scope$name.", $out);
		}
	}
}
my @names;
my $walked = eval {
	for my $f (fields(decode_base64($PFB64)))
	{
		message($f->[1], '', \@names) if $f->[0] == 4;
	}
	1;
};
my $JSON_NAMES = $walked ? join(' ', @names) : "the descriptor does not parse: $@";
for my $want (
	qw(Order.order_id=orderId Order.line_items=lineItems Order.placed_at=placedAt Order.by_sku=bySku
	Order.note=memo Order.card_no=cardNo Order.refund_of=refundOf Order.Line.sku=sku Refund.line=line))
{
	check "the serialized descriptor has json_name $want", index(" $JSON_NAMES ", " $want ") >= 0, $JSON_NAMES;
}
check 'every field of the serialized descriptor has a json_name', index(" $JSON_NAMES ", '=- ') < 0, $JSON_NAMES;
my $PFDESC = '{"schema":' . jstr($PFB64) . ',"schemaType":"PROTOBUF"}';
req POST => "/subjects/$PF", $PFDESC;
expect q{lookup with the serialized descriptor finds the text's version}, 200, sub {
	$_->{id} == $PFID && $_->{version} == 1 && $_->{subject} eq $PF && defined $PFSTORED && $_->{schema} eq $PFSTORED;
};
req POST => "/subjects/$PF/versions", $PFDESC;
expect 'registering the serialized descriptor: the same id and version', 200, sub { $_->{id} == $PFID && $_->{version} == 1 };
req GET => "/subjects/$PF/versions";
expect '  ... and no new version', 200, sub { jeq($_, '[1]') };
req POST => "/subjects/$PF-desc/versions", $PFDESC;
expect q{the serialized descriptor under another subject: the text's id}, 200, sub { $_->{id} == $PFID && $_->{version} == 1 };
req GET => "/subjects/$PF-desc/versions/1";
expect q{  ... stored as the .proto text's stored form}, 200, sub { defined $PFSTORED && $_->{schema} eq $PFSTORED };
for my $s ($PF, "$PF-desc")
{
	req DELETE => "/subjects/$s";
	req DELETE => "/subjects/$s?permanent=true";
}

done_testing();
