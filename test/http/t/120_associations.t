# Associations (Confluent 8.2+): /associations/subjects/{s},
# /associations/resources/{namespace}/{name}, /associations/resources/{id}
# (GET, PUT, DELETE), POST /associations, /associations:batchGet and
# /associations:batchMutate -- their shapes, validation and error codes.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;

my $NS = "lkc-$RUN";
my $T = "orders-$RUN";
my $KS = "$T-k";
my $VS = "$T-v";
my @ENTITY_KEYS = sort qw(subject resourceName resourceNamespace resourceId resourceType
  associationType lifecycle frozen);

# a request body for a resource, with the associations as JSON text
sub assoc_body
{
	my ($name, $id, $assocs, $more) = @_;
	return '{"resourceName":' . jstr($name) . ',"resourceNamespace":' . jstr($NS)
	  . (defined $id ? ',"resourceId":' . jstr($id) : '')
	  . ',"associations":' . $assocs . ($more // '') . '}';
}

# an association entity's members, sorted
sub keys_of { return join(',', sort keys %{ $_[0] }) }

note('setup: two subjects with a version each');
req POST => "/subjects/$KS/versions", sbody(avro("K$RUN"));
expect 'setup: key subject registered', 200;
req POST => "/subjects/$VS/versions", sbody(avro("V$RUN"));
expect 'setup: value subject registered', 200;

note('POST /associations');
req POST => '/associations', assoc_body($T, "id-$RUN",
	'[{"subject":' . jstr($KS) . ',"associationType":"key"},{"subject":' . jstr($VS) . ',"lifecycle":"STRONG"}]');
expect 'create: the AssociationResponse names the resource and each association', 200, sub {
	$_->{resourceName} eq $T && $_->{resourceNamespace} eq $NS && $_->{resourceId} eq "id-$RUN"
	  && $_->{resourceType} eq 'topic' && @{ $_->{associations} } == 2
	  && keys_of($_->{associations}[0]) eq 'associationType,frozen,lifecycle,subject'
	  && $_->{associations}[0]{subject} eq $KS && $_->{associations}[0]{associationType} eq 'key'
	  && $_->{associations}[0]{lifecycle} eq 'WEAK' && $_->{associations}[0]{frozen} == JSON::PP::false
	  && $_->{associations}[1]{associationType} eq 'value' && $_->{associations}[1]{lifecycle} eq 'STRONG';
};

note('GET');
req GET => "/associations/resources/$NS/$T?resourceType=topic&associationType=value";
expect 'by resource name: one association of the type asked for, as an Association entity', 200, sub {
	ref $_ eq 'ARRAY' && @$_ == 1 && keys_of($_->[0]) eq join(',', @ENTITY_KEYS)
	  && $_->[0]{subject} eq $VS && $_->[0]{resourceId} eq "id-$RUN" && $_->[0]{lifecycle} eq 'STRONG';
};
req GET => "/associations/resources/-/$T?associationType=key&associationType=value";
expect 'by resource name: namespace "-" is any namespace; associationType repeats', 200,
  sub { @$_ == 2 && $_->[0]{associationType} eq 'key' && $_->[1]{associationType} eq 'value' };
req GET => "/associations/resources/other-cluster/$T";
expect 'by resource name: another namespace has none', 200, sub { ref $_ eq 'ARRAY' && @$_ == 0 };
req GET => "/associations/resources/id-$RUN?lifecycle=WEAK";
expect 'by resource id: the lifecycle filters', 200, sub { @$_ == 1 && $_->[0]{subject} eq $KS };
req GET => "/associations/resources/id-$RUN?offset=1&limit=1";
expect 'by resource id: offset and limit page the list', 200,
  sub { @$_ == 1 && $_->[0]{associationType} eq 'value' };
req GET => "/associations/resources/id-$RUN?resourceType=table";
expect 'by resource id: another resource type has none', 200, sub { @$_ == 0 };
req GET => "/associations/resources/id-$RUN?lifecycle=SOMETIMES";
expect_error 'a lifecycle that is neither STRONG nor WEAK is 404, as Jersey answers it', 404, 404;
req GET => "/associations/subjects/$KS";
expect 'by subject', 200, sub { @$_ == 1 && $_->[0]{resourceName} eq $T && $_->[0]{associationType} eq 'key' };
req GET => "/associations/subjects/nothing-$RUN";
expect 'by subject: a subject without associations has an empty list', 200, sub { @$_ == 0 };

note('GET /schemas by association (8.2+)');
my $NS_SUBJECT = "$T-n";
req POST => "/subjects/$NS_SUBJECT/versions", sbody(avro("N$RUN"));
expect 'setup: a subject without an association', 200;
# the subjects of a listing, each with its associations' type:lifecycle
sub listed
{
	return join(' ', map {
		$_->{subject} . (exists $_->{associations}
			? '[' . join(',', map { "$_->{associationType}:$_->{lifecycle}" } @{ $_->{associations} }) . ']' : '')
	} @{ $_[0] });
}
req GET => "/schemas?subjectPrefix=$T-";
expect 'without association parameters: every subject, none with the member', 200,
  sub { listed($_) eq "$KS $NS_SUBJECT $VS" };
req GET => "/schemas?subjectPrefix=$T-&resourceType=topic&associationType=key";
expect 'associationType: the subjects with one, with their associations as Association entities', 200, sub {
	listed($_) eq "$KS\[key:WEAK]" && keys_of($_->[0]{associations}[0]) eq join(',', @ENTITY_KEYS)
	  && $_->[0]{associations}[0]{resourceId} eq "id-$RUN" && $_->[0]{associations}[0]{resourceName} eq $T;
};
req GET => "/schemas?subjectPrefix=$T-&associationType=key&associationType=value";
expect 'associationType repeats', 200, sub { listed($_) eq "$KS\[key:WEAK] $VS\[value:STRONG]" };
req GET => "/schemas?subjectPrefix=$T-&lifecycle=STRONG";
expect 'lifecycle: the subjects with an association of it', 200, sub { listed($_) eq "$VS\[value:STRONG]" };
req GET => "/schemas?subjectPrefix=$T-&lifecycle=NONE";
expect 'lifecycle NONE: the subjects without one', 200, sub { listed($_) eq $NS_SUBJECT };
req GET => "/schemas?subjectPrefix=$T-&lifecycle=STRONG&lifecycle=NONE";
expect 'lifecycle repeats', 200, sub { listed($_) eq "$NS_SUBJECT $VS\[value:STRONG]" };
req GET => "/schemas?subjectPrefix=$T-&lifecycle=SOMETIMES";
expect_error 'a lifecycle but STRONG, WEAK and NONE is 404, as Jersey answers it', 404, 404;

note('refusals');
req POST => '/associations', assoc_body($T, "id-$RUN", '[{"subject":' . jstr($KS) . ',"associationType":"key"}]');
expect_error 'an association of the type the resource has is 40903', 409, 40903;
req POST => '/associations', assoc_body("$T-2", "id2-$RUN", '[{"subject":' . jstr($KS) . ',"lifecycle":"STRONG"}]');
expect_error 'a STRONG association for a subject that has one is 40904', 409, 40904;
req POST => '/associations', assoc_body("$T-2", "id2-$RUN", '[{"subject":' . jstr($VS) . '}]');
expect_error 'any association for a subject with a STRONG one is 40905', 409, 40905;
req POST => '/associations', assoc_body("$T-2", "id2-$RUN", '[{"subject":"none-' . $RUN . '"}]');
expect_error 'a subject without a live version is 40907', 409, 40907;
check 'the 40907 message is Confluent\'s',
  $J->{message} eq "No active (non-deleted) version exists for subject 'none-$RUN'", $BODY;
req POST => '/associations', assoc_body("$T-2", "id2-$RUN", '[{"subject":' . jstr($KS) . ',"associationType":"header"}]');
expect_error 'an association type but key and value is 42212', 422, 42212;
check 'the 42212 message names the property and the reason',
  $J->{message} eq "The association specified an invalid value for property: 'associationType', reason: must be either 'key' or 'value'",
  $BODY;
req POST => '/associations', assoc_body("$T-2", "id2-$RUN", '[{"subject":' . jstr($KS) . '}]', ',"resourceType":"table"');
expect_error 'a resource type but topic is 42212', 422, 42212;
req POST => '/associations', '{"resourceNamespace":"x","resourceId":"y","associations":[{"subject":"s"}]}';
expect_error 'no resource name is 42212', 422, 42212;
req POST => '/associations', assoc_body("$T-2", undef, '[{"subject":' . jstr($KS) . '}]');
expect_error 'no resource id (but for a dry run) is 42212', 422, 42212;
req POST => '/associations', assoc_body('t' x 3000, "id2-$RUN", '[{"subject":' . jstr($KS) . '}]');
expect_error 'a resource name too long for the index is 42212, not a store error', 422, 42212;
req POST => '/associations', assoc_body("$T-2", 'i' x 3000, '[{"subject":' . jstr($KS) . '}]');
expect_error 'a resource id too long for the index is 42212', 422, 42212;
req POST => '/associations', assoc_body("$T-2", "id2-$RUN", '[]');
expect_error 'no association is 42212', 422, 42212;
req POST => '/associations', assoc_body("$T-2", "id2-$RUN", '[{"subject":' . jstr($KS) . '},{"subject":' . jstr($VS) . '}]');
expect_error 'one association type twice is 42212', 422, 42212;
req POST => '/associations', assoc_body("$T-2", "id2-$RUN", '[{"subject":' . jstr($KS) . ',"lifecycle":"WEAK","frozen":true}]');
expect_error 'a frozen WEAK association is 42212', 422, 42212;
req POST => '/associations', assoc_body("$T-2", "id2-$RUN", '[{"subject":"x","lifecycle":"WEAK","schema":' . sbody(avro("W$RUN")) . '}]');
expect_error 'a WEAK association with a schema is 42212', 422, 42212;
req POST => '/associations', assoc_body("$T-2", "id2-$RUN", '[{"subject":' . jstr($KS) . ',"lifecycle":"STRONG","frozen":true,"schema":' . sbody(avro("W$RUN")) . '}]');
expect_error 'a frozen association on a subject but the resource\'s own is 42212', 422, 42212;
req POST => '/associations', '[1]';
expect_4xx 'a body that is not an object';
req POST => '/associations?dryRun=true', assoc_body("$T-dry", undef, '[{"subject":' . jstr($KS) . '}]');
expect 'a dry run answers the resource without associations', 200,
  sub { $_->{resourceName} eq "$T-dry" && !exists $_->{associations} && !exists $_->{resourceId} };
req GET => "/associations/resources/-/$T-dry";
expect 'a dry run writes nothing', 200, sub { @$_ == 0 };

note('a schema in an association is registered');
my $FS = ":.$NS:$T-f-value";
req POST => '/associations', assoc_body("$T-f", "idf-$RUN",
	'[{"lifecycle":"STRONG","frozen":true,"schema":' . sbody(avro("F$RUN")) . '}]');
expect 'frozen: the subject is the resource\'s own, its schema registered and answered', 200, sub {
	my $a = $_->{associations}[0];
	$a->{subject} eq $FS && $a->{frozen} == JSON::PP::true && is_num($a->{schema}{id})
	  && $a->{schema}{version} == 1 && $a->{schema}{subject} eq $FS;
};
req GET => "/subjects/$FS/versions";
expect 'frozen: the subject has the version', 200, sub { jeq($_, '[1]') };
req PUT => "/associations/resources/idf-$RUN", assoc_body("$T-f", undef, '[{"lifecycle":"WEAK"}]');
expect_error 'frozen: an update is 40908', 409, 40908;
req DELETE => "/associations/resources/idf-$RUN";
expect_error 'frozen: a delete without cascadeLifecycle is 40908', 409, 40908;
req DELETE => "/associations/resources/idf-$RUN?cascadeLifecycle=true";
check 'frozen: a delete with cascadeLifecycle is 204 without a body', $STATUS eq '204' && $BODY eq '', "$STATUS $BODY";
req GET => "/subjects/$FS/versions";
expect_error 'frozen: the cascade deleted the STRONG association\'s subject', 404, 40401;

note('PUT and DELETE /associations/resources/{id}');
req PUT => "/associations/resources/id-$RUN", assoc_body($T, undef, '[{"subject":' . jstr($KS) . ',"associationType":"key","lifecycle":"STRONG"}]');
expect 'PUT: the lifecycle is updated', 200,
  sub { $_->{resourceId} eq "id-$RUN" && $_->{associations}[0]{lifecycle} eq 'STRONG' };
req PUT => "/associations/resources/id-$RUN", assoc_body($T, "other-$RUN", '[{"subject":' . jstr($KS) . ',"associationType":"key"}]');
expect_error 'PUT: a body naming another resource id is 42212', 422, 42212;
req PUT => "/associations/resources/id-$RUN", assoc_body($T, undef, '[{"subject":' . jstr($VS) . ',"associationType":"key"}]');
expect_error 'PUT: another subject for an association is 42212', 422, 42212;
req PUT => "/associations/resources/new-$RUN", assoc_body("$T-new", undef, '[{"subject":' . jstr($KS) . ',"associationType":"key"}]');
expect_error 'PUT: a new association is checked as a created one (the subject has a STRONG one)', 409, 40905;
req DELETE => "/associations/resources/nothing-$RUN";
expect_error 'DELETE: a resource without associations is 40410', 404, 40410;
check 'the 40410 message is Confluent\'s', $J->{message} eq "Association for 'nothing-$RUN' not found.", $BODY;
req DELETE => "/associations/resources/id-$RUN?associationType=key";
check 'DELETE: the key association deleted (204)', $STATUS eq '204', "$STATUS $BODY";
req GET => "/associations/resources/id-$RUN";
expect 'DELETE: the value association is left', 200, sub { @$_ == 1 && $_->[0]{associationType} eq 'value' };
req GET => "/subjects/$KS/versions";
expect 'DELETE without cascade leaves the subject', 200, sub { jeq($_, '[1]') };

note('batches');
req POST => '/associations:batchGet', '{"requests":[{"resourceId":"id-' . $RUN . '"},{"resourceName":' . jstr($T)
  . ',"resourceNamespace":"-","associationTypes":["key"]},{"resourceId":"none-' . $RUN . '"}]}';
expect 'batchGet: one result per request, in order', 200, sub {
	my $r = $_->{results};
	@$r == 3 && $r->[0]{result}{resourceId} eq "id-$RUN" && @{ $r->[0]{result}{associations} } == 1
	  && !exists $r->[1]{result}{associations} && !exists $r->[2]{result}{associations}
	  && !exists $r->[0]{error};
};
req POST => '/associations:batchGet?includeSchemas=true', '{"requests":[{"resourceId":"id-' . $RUN . '"}]}';
expect 'batchGet: includeSchemas adds each subject\'s latest version', 200, sub {
	my $s = $_->{results}[0]{result}{associations}[0]{schema};
	$s->{subject} eq $VS && $s->{version} == 1 && index($s->{schema}, "V$RUN") >= 0;
};
req POST => '/associations:batchGet', '{"requests":[]}';
expect_error 'batchGet: no request is 42212', 422, 42212;
req POST => '/associations:batchMutate', '{"requests":[{"resourceName":' . jstr("$T-b") . ',"resourceNamespace":' . jstr($NS)
  . ',"resourceId":"idb-' . $RUN . '","associations":[{"opType":"CREATE","subject":' . jstr($KS) . ',"associationType":"key"}]},'
  . '{"resourceName":' . jstr("$T-c") . ',"resourceNamespace":' . jstr($NS)
  . ',"resourceId":"idc-' . $RUN . '","associations":[{"opType":"CREATE","subject":"none-' . $RUN . '"}]},'
  . '{"resourceName":' . jstr($T) . ',"resourceNamespace":' . jstr($NS)
  . ',"resourceId":"id-' . $RUN . '","associations":[{"opType":"UPSERT","subject":' . jstr($VS) . ',"lifecycle":"WEAK"}]}]}';
expect 'batchMutate: each resource has its result or its error', 200, sub {
	my $r = $_->{results};
	@$r == 3 && $r->[0]{result}{associations}[0]{subject} eq $KS
	  && $r->[1]{error}{error_code} == 40907 && !exists $r->[1]{result}
	  && $r->[2]{result}{associations}[0]{lifecycle} eq 'WEAK';
};
req GET => "/associations/resources/idc-$RUN";
expect 'batchMutate: the failed resource wrote nothing', 200, sub { @$_ == 0 };
req POST => '/associations:batchMutate', '{"requests":[{"resourceName":' . jstr("$T-b") . ',"resourceNamespace":' . jstr($NS)
  . ',"resourceId":"idb-' . $RUN . '","associations":[{"opType":"DELETE","associationType":"key"}]}]}';
expect 'batchMutate: a DELETE op', 200, sub { !exists $_->{results}[0]{error} };
req GET => "/associations/resources/idb-$RUN";
expect 'batchMutate: the DELETE op deleted the association', 200, sub { @$_ == 0 };
req POST => '/associations:batchMutate', '{"requests":[{"resourceName":"x","resourceNamespace":"y","resourceId":"z","associations":[{"opType":"RENAME"}]}]}';
expect 'batchMutate: an unknown opType is that request\'s 42212', 200,
  sub { $_->{results}[0]{error}{error_code} == 42212 };

note('cleanup');
req DELETE => "/associations/resources/id-$RUN";
req DELETE => "/subjects/$KS";
req DELETE => "/subjects/$VS";

done_testing();
