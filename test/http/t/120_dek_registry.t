# The DEK registry's 17 routes (/dek-registry/v1/keks/...): Confluent's
# Kek and Dek shapes, its error codes and messages, soft then hard
# delete, undelete, versions and "latest", the query parameters deleted,
# algorithm and permanent, and a shared KEK whose DEKs the server makes
# (registry.local_kms_secret is set by this file).
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;

my $K = "/dek-registry/v1/keks";
(my $R = $RUN) =~ s/[^A-Za-z0-9_]/_/g;
my $KEK = "k_$R";
my $SH = "sh_$R";
my $S = "dek-subject-$RUN";
my $ES = "dek-subject-$RUN";	# no character of it needs escaping in a path

alter_system('registry.local_kms_secret', 'mysecret');
reload_wait();

# a Kek: exactly Confluent's members, in its order
sub kek_ok
{
	my ($k, $name, %w) = @_;
	return ref $k eq 'HASH'
	  && join(',', sort keys %$k) eq join(',', sort(qw(name kmsType kmsKeyId kmsProps shared ts deleted),
		  exists $w{doc} ? ('doc') : ()))
	  && $k->{name} eq $name
	  && is_num($k->{ts})
	  && (!exists $w{kmsType} || $k->{kmsType} eq $w{kmsType})
	  && (!exists $w{shared} || ($k->{shared} ? 1 : 0) == $w{shared})
	  && (!exists $w{deleted} || ($k->{deleted} ? 1 : 0) == $w{deleted})
	  && (!exists $w{doc} || $k->{doc} eq $w{doc});
}

# a Dek: Confluent's members (keyMaterial only where wanted)
sub dek_ok
{
	my ($d, %w) = @_;
	my @keys = qw(kekName subject version algorithm encryptedKeyMaterial ts deleted);
	push @keys, 'keyMaterial' if $w{keyMaterial};
	return ref $d eq 'HASH'
	  && join(',', sort keys %$d) eq join(',', sort @keys)
	  && is_num($d->{version}) && is_num($d->{ts})
	  && (!exists $w{version} || $d->{version} == $w{version})
	  && (!exists $w{algorithm} || $d->{algorithm} eq $w{algorithm})
	  && (!exists $w{material} || $d->{encryptedKeyMaterial} eq $w{material})
	  && (!exists $w{deleted} || ($d->{deleted} ? 1 : 0) == $w{deleted});
}

sub expect_msg
{
	my ($name, $status, $code, $message) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	expect $name, $status, sub { jeq($_, { error_code => $code, message => $message }) };
}

# --- KEKs -----------------------------------------------------------------
req GET => "$K/$KEK";
expect_msg 'GET an unknown KEK -> 404 40470', 404, 40470, "Key '$KEK' not found";

req POST => $K, qq({"name":"$KEK","kmsType":"local-kms","kmsKeyId":"mykey","kmsProps":{"z":"1","a":2},"doc":"d"});
expect 'POST /keks -> the Kek, kmsProps sorted and as strings', 200,
  sub { kek_ok($_, $KEK, kmsType => 'local-kms', shared => 0, deleted => 0, doc => 'd')
	  && jeq($_->{kmsProps}, '{"a":"2","z":"1"}') && $BODY =~ /"kmsProps":\{"a":"2","z":"1"\}/ };
req POST => $K, qq({"name":"$KEK","kmsType":"local-kms","kmsKeyId":"mykey"});
expect_msg 'POST an existing KEK -> 409 40971', 409, 40971, "Key '$KEK' already exists; use a different value";
req POST => $K, '{"name":"9bad","kmsType":"local-kms","kmsKeyId":"k"}';
expect_msg 'a KEK name must start with a letter or _ -> 422 42271', 422, 42271,
  "Invalid or missing value for field 'name' of key";
req POST => $K, '{"name":"x' . ('y' x 64) . '","kmsType":"local-kms","kmsKeyId":"k"}';
expect_error 'a KEK name over 64 characters -> 42271', 422, 42271;
req POST => $K, qq({"name":"n_$R","kmsType":"local-kms"});
expect_msg 'no kmsKeyId -> 42271 kmsKeyId', 422, 42271, "Invalid or missing value for field 'kmsKeyId' of key";
req POST => $K, qq({"name":"n_$R","kmsKeyId":"k"});
expect_msg 'no kmsType -> 42271 kmsType', 422, 42271, "Invalid or missing value for field 'kmsType' of key";
req POST => $K, qq({"name":"aw_$R","kmsType":"AWS","kmsKeyId":"arn:aws:kms:x","shared":true});
expect 'kmsType aws... is normalized to aws-kms', 200, sub { $_->{kmsType} eq 'aws-kms' };

req GET => $K;
expect 'GET /keks lists it', 200, sub { ref $_ eq 'ARRAY' && grep { $_ eq $KEK } @$_ };
req GET => "$K/$KEK";
expect 'GET /keks/{name}', 200, sub { kek_ok($_, $KEK, doc => 'd') };

req PUT => "$K/$KEK", '{"doc":"new doc","kmsProps":{"b":"x"}}';
expect 'PUT changes doc and kmsProps', 200,
  sub { kek_ok($_, $KEK, doc => 'new doc') && jeq($_->{kmsProps}, '{"b":"x"}') };
req PUT => "$K/nope_$R", '{"doc":"x"}';
expect_error 'PUT an unknown KEK -> 40470', 404, 40470;

req POST => "$K/$KEK/test";
expect 'POST /keks/{name}/test with the local KMS -> the Kek', 200, sub { kek_ok($_, $KEK, doc => 'new doc') };
req POST => "$K/aw_$R/test";
expect_error 'a KMS the server cannot reach -> 500 50070', 500, 50070;

# --- DEKs -----------------------------------------------------------------
req POST => "$K/$KEK/deks", qq({"subject":"$S"});
expect_msg 'a DEK without key material under a KEK that is not shared -> 42271', 422, 42271,
  "Invalid or missing value for field 'encryptedKeyMaterial' of key";
req POST => "$K/$KEK/deks", qq({"subject":"$S","encryptedKeyMaterial":"AAAA"});
expect 'POST /keks/{name}/deks -> the Dek, version 1, AES256_GCM', 200,
  sub { dek_ok($_, version => 1, algorithm => 'AES256_GCM', material => 'AAAA', deleted => 0)
	  && $_->{kekName} eq $KEK && $_->{subject} eq $S };
req POST => "$K/$KEK/deks", qq({"subject":"$S","encryptedKeyMaterial":"AAAA"});
expect_msg 'the same DEK again -> 409 40971', 409, 40971, "Key '$S' already exists; use a different value";
req POST => "$K/$KEK/deks/$ES", '{"version":2,"encryptedKeyMaterial":"BBBB"}';
expect 'POST /keks/{name}/deks/{subject}: the subject from the path', 200,
  sub { dek_ok($_, version => 2, material => 'BBBB') && $_->{subject} eq $S };
req POST => "$K/$KEK/deks/$ES", '{"algorithm":"AES256_SIV","encryptedKeyMaterial":"CCCC"}';
expect 'another algorithm is another DEK', 200, sub { dek_ok($_, version => 1, algorithm => 'AES256_SIV') };
req POST => "$K/$KEK/deks/$ES", '{"algorithm":"DES","encryptedKeyMaterial":"CCCC"}';
expect_error 'an unknown algorithm -> 42271', 422, 42271;
req POST => "$K/$KEK/deks/a%C2%85b", '{"encryptedKeyMaterial":"AAAA"}';
expect_msg 'a subject with a C1 control character (U+0085) -> 42271', 422, 42271,
  "Invalid or missing value for field 'subject' of key";
req POST => "$K/nope_$R/deks", qq({"subject":"$S","encryptedKeyMaterial":"AAAA"});
expect_msg 'a DEK under an unknown KEK -> 40470', 404, 40470, "Key 'nope_$R' not found";

req GET => "$K/$KEK/deks";
expect 'GET /keks/{name}/deks: the subjects', 200, sub { jeq($_, [$S]) };
req GET => "$K/nope_$R/deks";
expect_error 'the subjects of an unknown KEK -> 40470', 404, 40470;
req GET => "$K/$KEK/deks/$ES";
expect 'GET /keks/{name}/deks/{subject}: version 1', 200, sub { dek_ok($_, version => 1, material => 'AAAA') };
req GET => "$K/$KEK/deks/$ES?algorithm=AES256_SIV";
expect '?algorithm picks the DEK', 200, sub { dek_ok($_, algorithm => 'AES256_SIV', material => 'CCCC') };
req GET => "$K/$KEK/deks/$ES/versions";
expect 'GET .../versions', 200, sub { jeq($_, [1, 2]) };
req GET => "$K/$KEK/deks/$ES/versions/2";
expect 'GET .../versions/2', 200, sub { dek_ok($_, version => 2, material => 'BBBB') };
for my $v ('latest', '-1')
{
	req GET => "$K/$KEK/deks/$ES/versions/$v";
	expect "GET .../versions/$v -> the latest", 200, sub { dek_ok($_, version => 2) };
}
req GET => "$K/$KEK/deks/$ES/versions/3";
expect_msg 'a version that is not there -> 40470 for the subject', 404, 40470, "Key '$S' not found";
req GET => "$K/$KEK/deks/$ES/versions/x";
expect_msg 'a version that is not a version -> 422 42202', 422, 42202,
  q{The specified version 'x' is not a valid version id. Allowed values are between [1, 2^31-1] and the string "latest"};
req GET => "$K/$KEK/deks/other-$RUN";
expect_error 'an unknown subject -> 40470', 404, 40470;

# --- delete, undelete -------------------------------------------------------
req DELETE => "$K/$KEK";
expect_msg 'a KEK with live DEKs cannot be deleted -> 422 42272', 422, 42272,
  "One or more references exist to the key $KEK";
req DELETE => "$K/$KEK/deks/$ES/versions/1?permanent=true";
expect_msg 'a hard delete before the soft one -> 404 40471', 404, 40471,
  "Key '$S' was not deleted first before being permanently deleted";
req DELETE => "$K/$KEK/deks/$ES/versions/1";
check 'DELETE .../versions/1 -> 204 without a body', $STATUS eq '204' && $BODY eq '', "$STATUS $BODY";
req GET => "$K/$KEK/deks/$ES/versions";
expect 'a soft-deleted version is not listed', 200, sub { jeq($_, [2]) };
req GET => "$K/$KEK/deks/$ES/versions?deleted=true";
expect '... unless deleted=true', 200, sub { jeq($_, [1, 2]) };
req GET => "$K/$KEK/deks/$ES/versions/1";
expect_error 'a soft-deleted version -> 40470', 404, 40470;
req GET => "$K/$KEK/deks/$ES/versions/1?deleted=true";
expect '... unless deleted=true', 200, sub { dek_ok($_, version => 1, deleted => 1) };
req POST => "$K/$KEK/deks/$ES/versions/1/undelete";
check 'POST .../versions/1/undelete -> 204', $STATUS eq '204' && $BODY eq '', "$STATUS $BODY";
req GET => "$K/$KEK/deks/$ES/versions";
expect 'undeleted', 200, sub { jeq($_, [1, 2]) };

req DELETE => "$K/$KEK/deks/$ES";
check 'DELETE .../deks/{subject}: every version of the algorithm -> 204', $STATUS eq '204', $STATUS;
req GET => "$K/$KEK/deks/$ES/versions";
expect '... all soft-deleted', 200, sub { jeq($_, []) };
req GET => "$K/$KEK/deks/$ES?algorithm=AES256_SIV";
expect '... the other algorithm is not', 200, sub { dek_ok($_, deleted => 0) };
req DELETE => "$K/$KEK/deks/$ES?algorithm=AES256_SIV";
req GET => "$K/$KEK/deks";
expect 'no live subject is listed', 200, sub { jeq($_, []) };
req GET => "$K/$KEK/deks?deleted=true";
expect '... unless deleted=true', 200, sub { jeq($_, [$S]) };

req DELETE => "$K/$KEK";
check 'a KEK whose DEKs are all soft-deleted is soft-deleted -> 204', $STATUS eq '204', "$STATUS $BODY";
req GET => "$K/$KEK";
expect_error 'a soft-deleted KEK -> 40470', 404, 40470;
req GET => "$K/$KEK?deleted=true";
expect '... unless deleted=true', 200, sub { kek_ok($_, $KEK, deleted => 1, doc => 'new doc') };
req GET => $K;
expect 'GET /keks leaves it out', 200, sub { !grep { $_ eq $KEK } @$_ };
req GET => "$K?deleted=true";
expect '... unless deleted=true', 200, sub { grep { $_ eq $KEK } @$_ };
req POST => "$K/$KEK/deks/$ES/undelete";
expect_msg 'undeleting a DEK of a soft-deleted KEK -> 404 40472', 404, 40472, "Key '$KEK' must be undeleted first";
req POST => "$K/$KEK/deks/$ES", '{"version":5,"encryptedKeyMaterial":"EEEE","deleted":true}';
expect 'a DEK created with deleted: true under a soft-deleted KEK, as Confluent does', 200,
  sub { dek_ok($_, version => 5, material => 'EEEE', deleted => 1) };
req POST => "$K/$KEK/deks/$ES", '{"version":6,"encryptedKeyMaterial":"EEEE"}';
expect_msg '... a live one -> 404 40470 for the KEK', 404, 40470, "Key '$KEK' not found";
req DELETE => "$K/$KEK/deks/$ES/versions/5?permanent=true";
check '... the soft-deleted one hard-deleted -> 204', $STATUS eq '204', "$STATUS $BODY";
req DELETE => "$K/$KEK?permanent=true";
expect_msg 'a hard delete of a KEK that still has DEKs -> 42272', 422, 42272,
  "One or more references exist to the key $KEK";
req POST => "$K/$KEK/undelete";
check 'POST /keks/{name}/undelete -> 204', $STATUS eq '204', "$STATUS $BODY";
req POST => "$K/$KEK/deks/$ES/undelete";
check 'POST .../deks/{subject}/undelete -> 204', $STATUS eq '204', "$STATUS $BODY";
req GET => "$K/$KEK/deks/$ES/versions";
expect '... every version undeleted', 200, sub { jeq($_, [1, 2]) };

# --- GET /keks?subjectPrefix: the KEKs with a DEK of such a subject ---------
req GET => "$K?subjectPrefix=dek-subject-$RUN";
expect 'subjectPrefix: the KEKs with a DEK of a subject with the prefix', 200, sub { jeq($_, [$KEK]) };
req GET => "$K?subjectPrefix=nothing-$RUN&subjectPrefix=dek-subj";
expect '... subjectPrefix repeats: any of them', 200, sub { grep({ $_ eq $KEK } @$_) && !grep({ $_ eq $SH } @$_) };
req GET => "$K?subjectPrefix=nothing-$RUN";
expect '... none', 200, sub { jeq($_, []) };

# --- create again: the same key with the other deleted flag takes the flag ----
req DELETE => "$K/$KEK/deks/$ES/versions/2";
req POST => "$K/$KEK/deks/$ES", '{"version":2,"encryptedKeyMaterial":"BBBB"}';
expect 'creating a soft-deleted DEK version again with its key material undeletes it', 200,
  sub { dek_ok($_, version => 2, material => 'BBBB', deleted => 0) };
req GET => "$K/$KEK/deks/$ES/versions";
expect '... it is live', 200, sub { jeq($_, [1, 2]) };
req DELETE => "$K/$KEK/deks/$ES/versions/2";
req POST => "$K/$KEK/deks/$ES", '{"version":2,"encryptedKeyMaterial":"XXXX"}';
expect_msg '... with other key material -> 40971', 409, 40971, "Key '$S' already exists; use a different value";
req POST => "$K/$KEK/deks/$ES", '{"version":2,"encryptedKeyMaterial":"BBBB","deleted":true}';
expect_msg '... with the same deleted flag -> 40971', 409, 40971, "Key '$S' already exists; use a different value";
req POST => "$K/$KEK/deks/$ES", '{"version":3,"encryptedKeyMaterial":"DDDD","deleted":true}';
expect 'a DEK created with deleted: true is soft-deleted', 200, sub { dek_ok($_, version => 3, deleted => 1) };
req GET => "$K/$KEK/deks/$ES/versions?deleted=true";
expect '... and listed only with deleted=true', 200, sub { jeq($_, [1, 2, 3]) };
req DELETE => "$K/$KEK/deks/$ES/versions/3?permanent=true";
req POST => "$K/$KEK/deks/$ES/versions/2/undelete";

my $KX = "kx_$R";
req POST => $K, qq({"name":"$KX","kmsType":"local-kms","kmsKeyId":"mykey","doc":"x"});
req DELETE => "$K/$KX";
req POST => $K, qq({"name":"$KX","kmsType":"local-kms","kmsKeyId":"mykey","doc":"other"});
expect_msg 'creating a soft-deleted KEK again with other fields -> 40971', 409, 40971,
  "Key '$KX' already exists; use a different value";
req POST => $K, qq({"name":"$KX","kmsType":"local-kms","kmsKeyId":"mykey","doc":"x"});
expect 'creating a soft-deleted KEK again with the same fields undeletes it, as Confluent does', 200,
  sub { kek_ok($_, $KX, deleted => 0, doc => 'x') };
req GET => "$K/$KX";
expect '... it is live', 200, sub { kek_ok($_, $KX, deleted => 0, doc => 'x') };
req POST => $K, qq({"name":"$KX","kmsType":"local-kms","kmsKeyId":"mykey","doc":"x","deleted":true});
expect 'creating a live KEK again with deleted: true soft-deletes it', 200, sub { kek_ok($_, $KX, deleted => 1, doc => 'x') };
req POST => $K, qq({"name":"d$KX","kmsType":"local-kms","kmsKeyId":"mykey","deleted":true});
expect 'a KEK created with deleted: true is soft-deleted', 200, sub { kek_ok($_, "d$KX", deleted => 1) };
req GET => "$K/d$KX";
expect_error '... and not found without deleted=true', 404, 40470;
req DELETE => "$K/$KX?permanent=true";
req DELETE => "$K/d$KX?permanent=true";
check '... both hard-deleted', $STATUS eq '204', "$STATUS $BODY";

# hard delete: soft first, then permanent; then the KEK can go
req DELETE => "$K/$KEK/deks/$ES";
req DELETE => "$K/$KEK/deks/$ES?permanent=true";
check 'DELETE .../deks/{subject}?permanent=true after the soft delete -> 204', $STATUS eq '204', "$STATUS $BODY";
req GET => "$K/$KEK/deks/$ES/versions?deleted=true";
expect '... gone', 200, sub { jeq($_, []) };
req DELETE => "$K/$KEK/deks/$ES?algorithm=AES256_SIV&permanent=true";
req DELETE => "$K/$KEK?permanent=true";
expect_error 'a hard delete of a live KEK -> 40471', 404, 40471;
req DELETE => "$K/$KEK";
req DELETE => "$K/$KEK?permanent=true";
check 'soft, then hard delete of the KEK -> 204', $STATUS eq '204', "$STATUS $BODY";
req GET => "$K/$KEK?deleted=true";
expect_error '... gone', 404, 40470;
req DELETE => "$K/$KEK";
expect_error 'deleting it again -> 40470', 404, 40470;

# --- a shared KEK: the server makes the DEK through the local KMS ---------
req POST => $K, qq({"name":"$SH","kmsType":"local-kms","kmsKeyId":"mykey","shared":true});
expect 'a shared KEK', 200, sub { kek_ok($_, $SH, shared => 1) };
req POST => "$K/$SH/deks/other-$ES", '{}';
req DELETE => "$K/$SH/deks/other-$ES";
req POST => "$K/$SH/deks/other-$ES", '{}';
expect_msg 'a shared KEK\'s soft-deleted DEK is not made again -> 40971', 409, 40971,
  "Key 'other-$S' already exists; use a different value";
req DELETE => "$K/$SH/deks/other-$ES?permanent=true";
req POST => "$K/$SH/deks/$ES", '{}';
my $made = $J;
expect 'a DEK the server makes: wrapped and in clear', 200,
  sub { dek_ok($_, version => 1, keyMaterial => 1) && length($_->{encryptedKeyMaterial}) > 40 };
req GET => "$K/$SH/deks/$ES";
expect 'reading it unwraps it again', 200,
  sub { dek_ok($_, keyMaterial => 1) && $_->{keyMaterial} eq $made->{keyMaterial} };
my $km = sql(qq{SELECT encode(registry.dek_key_material('$SH', '$S'), 'base64')});
check 'registry.dek_key_material() is the same key', $km eq ($made->{keyMaterial} // ''), $km;
check 'the table holds it only wrapped',
  sql(qq{SELECT count(*) FROM registry.deks WHERE kek_name = '$SH'
		 AND encrypted_key_material = '$made->{encryptedKeyMaterial}'}) eq '1'
  && sql(qq{SELECT count(*) FROM registry.deks WHERE encrypted_key_material = '$made->{keyMaterial}'}) eq '0';
req POST => "$K/aw_$R/deks/$ES", '{}';
expect_msg 'a shared KEK of a KMS the server cannot reach -> 500 50070', 500, 50070,
  "Could not generate encrypted dek for $S: No kms client found for aws-kms://arn:aws:kms:x";

alter_system('registry.local_kms_secret', '');
reload_wait();
req GET => "$K/$SH/deks/$ES";
expect_error 'without the secret the server cannot unwrap it -> 50070', 500, 50070;
req POST => "$K/$SH/deks/other-$ES", '{}';
expect_error '... nor make one', 500, 50070;
alter_system('registry.local_kms_secret', 'another secret');
reload_wait();
req GET => "$K/$SH/deks/$ES";
expect_error 'with another secret unwrapping fails -> 50070', 500, 50070;

# --- audit ------------------------------------------------------------------
check 'KEK and DEK writes are audited',
  sql(qq{SELECT count(*) FROM registry.audit WHERE operation = 'dek.soft_delete' AND subject = '$S'}) > 0
  && sql(qq{SELECT count(*) FROM registry.audit WHERE operation = 'kek.hard_delete'
		 AND before->>'name' = '$KEK'}) eq '1'
  && sql(qq{SELECT count(*) FROM registry.audit WHERE operation = 'rest DELETE /dek-registry/v1/keks/*'
		 AND result = '42272'}) > 0;

done_testing();
