# Pages of the listings (issue 33 item 1): offset and limit on GET
# /schemas, /subjects, /subjects/{s}/versions, /schemas/ids/{id}/versions
# and /schemas/ids/{id}/subjects, as Confluent pages them (skip offset,
# then at most limit; a limit of 0 or less is the default: all, or 1000
# for /schemas), with the filters that come before the page (deleted,
# deletedOnly, subjectPrefix, contexts, latestOnly).  Each page is checked
# against the same slice of the whole listing.  A context of 1,050
# versions takes /schemas past 1,000 entries, where the subject directory
# starts a page at its subject; a version written there must move the
# pages after it at once.  An answer over 64 kB is sent in pieces as it is
# made (chunked), and must be the same answer.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/..";
use RegistryHttp;
use Test::More;

# the slice Confluent gives of a whole list: skip offset, then limit (<= 0: all)
sub slice
{
	my ($all, $offset, $limit) = @_;
	return [] if $offset >= @$all;
	my $end = $limit > 0 && $offset + $limit < @$all ? $offset + $limit : scalar @$all;
	return [ @$all[ $offset .. $end - 1 ] ];
}

# the page at offset and limit of a listing (its path and query, without
# paging) equals the slice of the whole listing; 200 either way
sub pages_agree
{
	my ($what, $path, $all, @pages) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my $sep = $path =~ /\?/ ? '&' : '?';
	for my $p (@pages)
	{
		my ($offset, $limit) = @$p;
		req GET => "$path${sep}offset=$offset&limit=$limit";
		my $want = slice($all, $offset, $limit);
		expect "$what offset=$offset limit=$limit: " . scalar(@$want) . ' entries', 200,
		  sub { jeq($_, $want) };
	}
}

# the subject and version of each row of a GET /schemas answer
sub sv { return [ map { "$_->{subject}/$_->{version}" } @{ $_[0] } ] }

# --- /subjects ----------------------------------------------------------------

my $P = "$RUN-lp";
my @S = map { "$P-$_" } qw(a b c d e);
for my $s (@S)
{
	req POST => "/subjects/$s/versions", sbody(avro("LP_$RUN"));
	expect "register $s", 200, sub { is_num($_->{id}) };
}
req POST => "/subjects/$S[1]/versions", sbody(avro("LP_$RUN", $F_B));
expect "a second version of $S[1]", 200, sub { is_num($_->{id}) };
# $S[2] soft-deleted whole, $S[3] keeps a live version
req DELETE => "/subjects/$S[2]";
expect "soft-delete $S[2]", 200;
my $CTX = ".lp$RUN";
my $CS = ":$CTX:$P-x";
req POST => "/subjects/$CS/versions", sbody(avro("LPX_$RUN"));
expect "register $CS in a context", 200, sub { is_num($_->{id}) };

my @live = ($S[0], $S[1], $S[3], $S[4]);
req GET => "/subjects?subjectPrefix=$P";
expect 'GET /subjects?subjectPrefix: the live subjects', 200, sub { jeq($_, \@live) };
pages_agree('GET /subjects?subjectPrefix', "/subjects?subjectPrefix=$P", \@live,
	[ 0, 1 ], [ 0, 2 ], [ 1, 2 ], [ 3, 1 ], [ 3, 5 ], [ 4, 1 ], [ 40, 1 ], [ 0, 0 ], [ 2, 0 ],
	[ 0, -1 ], [ 1, -1 ]);
my @with_deleted = @S;
pages_agree('GET /subjects?deleted=true', "/subjects?subjectPrefix=$P&deleted=true",
	\@with_deleted, [ 0, 3 ], [ 2, 1 ], [ 2, 2 ], [ 5, 1 ]);
pages_agree('GET /subjects?deletedOnly=true', "/subjects?subjectPrefix=$P&deletedOnly=true",
	[ $S[2] ], [ 0, 1 ], [ 1, 1 ], [ 0, -1 ]);
pages_agree('GET /subjects?subjectPrefix=:ctx:', "/subjects?subjectPrefix=:$CTX:",
	[$CS], [ 0, 1 ], [ 1, 1 ], [ 0, 0 ]);

# every context: the default context's subjects first, the page across both
req GET => '/subjects?subjectPrefix=:*:';
my $every = ref $J eq 'ARRAY' ? $J : [];
check 'GET /subjects?subjectPrefix=:*: lists the context subject after the others',
  @$every >= 5 && $every->[-1] ne $S[0] && (grep { $_ eq $CS } @$every),
  short($BODY);
my ($at) = grep { $every->[$_] eq $CS } 0 .. $#$every;
$at //= 0;
pages_agree('GET /subjects (all contexts)', '/subjects', $every,
	[ 0, 2 ], [ $at - 1 < 0 ? 0 : $at - 1, 3 ], [ $at, 1 ], [ scalar @$every, 1 ]);

# --- /subjects/{s}/versions -----------------------------------------------

my $V = "$RUN-lpv";
for my $extra ('', $F_B, "$F_B,$F_C", "$F_B,$F_C,{\"name\":\"d\",\"type\":\"int\",\"default\":1}")
{
	req POST => "/subjects/$V/versions", sbody(avro("LPV_$RUN", $extra));
}
req DELETE => "/subjects/$V/versions/2";
expect 'soft-delete version 2', 200, sub { $_ == 2 };
pages_agree('GET /subjects/{s}/versions', "/subjects/$V/versions", [ 1, 3, 4 ],
	[ 0, 1 ], [ 1, 1 ], [ 1, 5 ], [ 2, 1 ], [ 3, 1 ], [ 9, 2 ], [ 0, 0 ], [ 1, -1 ]);
pages_agree('GET /subjects/{s}/versions?deleted=true', "/subjects/$V/versions?deleted=true",
	[ 1, 2, 3, 4 ], [ 1, 2 ], [ 3, 1 ], [ 4, 1 ]);
pages_agree('GET /subjects/{s}/versions?deletedOnly=true',
	"/subjects/$V/versions?deletedOnly=true", [2], [ 0, 1 ], [ 1, 1 ]);
pages_agree('GET /subjects/{s}/versions?deleted=true&deletedAsNegative=true',
	"/subjects/$V/versions?deleted=true&deletedAsNegative=true", [ 1, -2, 3, 4 ],
	[ 1, 1 ], [ 1, 2 ], [ 2, 9 ]);
req GET => "/subjects/$V-none/versions?offset=1&limit=1";
expect_error 'a subject without versions is 40401 whatever the page', 404, 40401;
req GET => "/subjects/$S[2]/versions?offset=5";
expect_error 'a soft-deleted subject is 40401 without deleted=true', 404, 40401;

# --- /schemas/ids/{id}/versions and /subjects ----------------------------

# one schema in three subjects; in the first twice (the version that used it
# soft-deleted, then the schema registered again)
my $U = "$RUN-lpu";
my $USCHEMA = avro("LPU_$RUN");
req POST => "/subjects/$U-1/versions", sbody($USCHEMA);
my $UID = ref $J eq 'HASH' ? $J->{id} // 0 : 0;
req POST => "/subjects/$U-1/versions", sbody(avro("LPU_$RUN", $F_B));
req DELETE => "/subjects/$U-1/versions/1";
req POST => "/subjects/$U-1/versions", sbody($USCHEMA);
expect 'the schema again in the subject: version 3, the same id', 200, sub { $_->{id} == $UID };
req POST => "/subjects/$U-2/versions", sbody($USCHEMA);
req POST => "/subjects/$U-3/versions", sbody($USCHEMA);
my @uses = ("$U-1/1", "$U-1/3", "$U-2/1", "$U-3/1");
req GET => "/schemas/ids/$UID/versions?deleted=true";
expect 'GET /schemas/ids/{id}/versions?deleted=true: four versions', 200,
  sub { jeq([ map { "$_->{subject}/$_->{version}" } @$_ ], \@uses) };
for my $p ([ 0, 1 ], [ 1, 2 ], [ 3, 1 ], [ 4, 1 ], [ 2, 0 ])
{
	my ($offset, $limit) = @$p;
	req GET => "/schemas/ids/$UID/versions?deleted=true&offset=$offset&limit=$limit";
	my $want = slice(\@uses, $offset, $limit);
	expect "GET /schemas/ids/{id}/versions?deleted=true offset=$offset limit=$limit", 200,
	  sub { jeq([ map { "$_->{subject}/$_->{version}" } @$_ ], $want) };
}
pages_agree('GET /schemas/ids/{id}/subjects?deleted=true',
	"/schemas/ids/$UID/subjects?deleted=true", [ "$U-1", "$U-2", "$U-3" ],
	[ 0, 1 ], [ 1, 1 ], [ 1, 2 ], [ 2, 1 ], [ 3, 1 ], [ 0, -1 ]);
pages_agree('GET /schemas/ids/{id}/subjects', "/schemas/ids/$UID/subjects",
	[ "$U-1", "$U-2", "$U-3" ], [ 1, 1 ], [ 2, 5 ]);
req GET => "/schemas/ids/$UID/versions?offset=0&limit=1";
expect 'without deleted=true the soft-deleted version is left out before the page', 200,
  sub { jeq([ map { "$_->{subject}/$_->{version}" } @$_ ], ["$U-1/3"]) };

# --- /schemas past 1,000 entries --------------------------------------------

my $BIG = ".lpbig$RUN";
my $made = sql("SELECT registry.set_compatibility('NONE', ':$BIG:');
	SELECT count(registry.register_schema(':$BIG:s' || lpad((k / 10)::text, 3, '0'),
		format('{\"type\":\"record\",\"name\":\"B%s\",\"fields\":[{\"name\":\"a\",\"type\":\"int\"}]}', k)))
	FROM generate_series(0, 1049) k");
check '1,050 versions in 105 subjects of a context', ($made // '') =~ /1050$/, $made // '';
my @big;
for my $k (0 .. 1049)
{
	push @big, sprintf(':%s:s%03d/%d', $BIG, int($k / 10), $k % 10 + 1);
}
my $BQ = "/schemas?subjectPrefix=:$BIG:";
req GET => "$BQ&limit=1000";
expect 'GET /schemas: the first 1,000', 200, sub { jeq(sv($_), [ @big[ 0 .. 999 ] ]) };
# an answer over 64 kB goes in pieces as it is made, a short one whole
check 'the 1,000 rows (over 64 kB) came chunked, in pieces',
  length($BODY) > 65536 && ($HDRS->{'transfer-encoding'} // '') eq 'chunked',
  length($BODY) . ' bytes, transfer-encoding ' . ($HDRS->{'transfer-encoding'} // 'none');
req GET => "$BQ&limit=3";
check 'a short page came whole, with its length',
  defined $HDRS->{'content-length'} && !defined $HDRS->{'transfer-encoding'}, short($BODY);
req GET => $BQ;
expect 'GET /schemas without a limit: 1,000 (Confluent\'s default and maximum)', 200,
  sub { @$_ == 1000 };
req GET => "$BQ&limit=5000";
expect 'a limit over 1,000 gives 1,000', 200, sub { @$_ == 1000 };
for my $p ([ 1000, 1000 ], [ 1003, 5 ], [ 1045, 10 ], [ 1049, 1 ], [ 1050, 1 ], [ 5000, 10 ],
	[ 995, 10 ], [ 1040, 0 ])
{
	my ($offset, $limit) = @$p;
	req GET => "$BQ&offset=$offset&limit=$limit";
	my $want = slice(\@big, $offset, $limit > 0 ? $limit : 1000);
	expect "GET /schemas offset=$offset limit=$limit: " . scalar(@$want) . ' rows', 200,
	  sub { jeq(sv($_), $want) };
}
# a version written between two pages is in the next one
req POST => "/subjects/:$BIG:s101/versions", sbody('{"type":"record","name":"Late","fields":[]}');
expect 'a version written in a subject after offset 1,000', 200, sub { is_num($_->{id}) };
my @later = (@big[ 0 .. 1019 ], ":$BIG:s101/11", @big[ 1020 .. 1049 ]);
req GET => "$BQ&offset=1015&limit=10";
expect 'the page after the write has it', 200, sub { jeq(sv($_), [ @later[ 1015 .. 1024 ] ]) };
# soft-deleted versions: left out, or listed with deleted=true
req DELETE => "/subjects/:$BIG:s000/versions/3";
expect 'soft-delete a version before the page', 200, sub { $_ == 3 };
my @live_big = grep { $_ ne ":$BIG:s000/3" } @later;
req GET => "$BQ&offset=1010&limit=12";
expect 'the pages after it move by one', 200, sub { jeq(sv($_), [ @live_big[ 1010 .. 1021 ] ]) };
req GET => "$BQ&deleted=true&offset=1010&limit=12";
expect 'deleted=true keeps it', 200, sub { jeq(sv($_), [ @later[ 1010 .. 1021 ] ]) };
# latestOnly: one per subject, paged over subjects
my @latest = map { sprintf(':%s:s%03d/%d', $BIG, $_, $_ == 101 ? 11 : 10) } 0 .. 104;
req GET => "$BQ&latestOnly=true&offset=100&limit=3";
expect 'latestOnly offset=100: subjects 100-102', 200,
  sub { jeq(sv($_), [ @latest[ 100 .. 102 ] ]) };
# the listing of every context reaches the context's versions at its offset
req GET => "/schemas?subjectPrefix=:*:&offset=1000&limit=1000";
my $n1 = ref $J eq 'ARRAY' ? scalar @$J : -1;
req GET => '/schemas?subjectPrefix=:*:&offset=0&limit=1';
check 'GET /schemas over every context pages past 1,000', $STATUS eq '200' && $n1 > 0, $n1;

done_testing();
