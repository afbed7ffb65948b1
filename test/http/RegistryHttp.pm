# Helpers of the HTTP tests (test/http/t/*.t): requests to the registry's
# REST workers with HTTP::Tiny, checks of their answers with Test::More,
# and psql for the registry tables, the settings and the worker processes.
#
# Environment (set by make test, see test/scripts/test.sh):
#   REGISTRY_URL   http://127.0.0.1:<port> of the HTTP workers
#   PGHOST PGPORT PGUSER   the cluster (superuser: ALTER SYSTEM is used)
#   CLUSTER_DATA   the data directory (its server.log is read next to it)
#
# Every test file makes its own subjects, unique per run ($RUN); every loop
# is bounded; only loopback is used.  The settings a file changes with
# ALTER SYSTEM are reset when it ends, whatever happened.
package RegistryHttp;

use strict;
use warnings;
use Exporter 'import';
use Test::More;
use HTTP::Tiny;
use JSON::PP;
use IO::Socket::IP;
use IO::Select;
use File::Temp ();
use Time::HiRes qw(time sleep);
use B ();

our @EXPORT = qw(
  $URL $HTTP_HOST $HTTP_PORT $CT $RUN $DB $TMP $STATUS $BODY $HDRS $J
  req expect expect_error expect_4xx check jstr jdecode jeq is_num is_str avro sbody short
  $F_B $F_C sql snapshot same_rows same_sequences wait_http wait_down wait_sql
  worker_pids reload_wait alter_system helper helper_start helper_lines
  on_one_connection slurp spit ms_since server_log server_log_size
  base_subject);

our $URL = $ENV{REGISTRY_URL} // 'http://127.0.0.1:8081';
$URL =~ s{/+$}{};
our ($HTTP_HOST, $HTTP_PORT) = $URL =~ m{^http://([^:/]+):(\d+)}
  or die "REGISTRY_URL $URL is not http://HOST:PORT\n";
our $CT = 'application/vnd.schemaregistry.v1+json';
our $RUN = 'h' . time_s() . $$;
our $TMP = File::Temp->newdir('/tmp/registry-http.XXXXXX');

# the answer to the last request: status ("000" when there was none), raw
# body, headers (lower-case names) and the body decoded as JSON (undef if
# it is not JSON, or over 1 MB: decode those with jdecode($BODY) when
# needed; expect does)
our ($STATUS, $BODY, $HDRS, $J);
my $J_DONE = 1;

# An Avro record field with a default, and an optional one
our $F_B = '{"name":"b","type":"string","default":"x"}';
our $F_C = '{"name":"c","type":["null","long"],"default":null}';

my $json = JSON::PP->new->utf8->allow_nonref->canonical;
my @PSQL = (qw(psql -XAtq -v ON_ERROR_STOP=1));
our $DB = (qx{psql -XAtq -d postgres -c "SHOW registry.database" 2>/dev/null} // '');
chomp $DB;
$DB ||= 'postgres';

# whole seconds since the epoch
sub time_s { return int(time()) }

# milliseconds since a time() value
sub ms_since { return int((time() - $_[0]) * 1000) }

# a file's bytes; spit: write bytes to a file
sub slurp
{
	my ($f) = @_;
	open my $fh, '<:raw', $f or return '';
	local $/;
	my $s = <$fh>;
	return $s // '';
}

sub spit
{
	my ($f, $s) = @_;
	open my $fh, '>:raw', $f or die "$f: $!";
	print $fh $s;
	close $fh;
}

# --- JSON ----------------------------------------------------------------

# a string as a JSON string literal (UTF-8 bytes)
sub jstr { return $json->encode("$_[0]") }

# bytes of JSON text as data, undef if they are not JSON
sub jdecode
{
	my $v = eval { $json->decode($_[0]) };
	return $v;
}

# whether a decoded value equals the value of a JSON text
sub jeq
{
	my ($got, $want) = @_;
	my $w = ref $want || !defined $want ? $want : $json->decode($want);
	return $json->encode($got) eq $json->encode($w);
}

# whether a value decoded from JSON was a number (ask before anything
# uses it as a string: that makes it look like one)
sub is_num
{
	my ($v) = @_;
	return 0 if !defined $v || ref $v;
	my $flags = B::svref_2object(\$v)->FLAGS;
	return ($flags & (B::SVp_IOK | B::SVp_NOK)) && !($flags & B::SVp_POK);
}

# whether a value decoded from JSON was a string
sub is_str { return defined $_[0] && !ref $_[0] && !is_num($_[0]) }

# An Avro record schema (text): avro(NAME [, EXTRA-FIELDS-JSON]), as jq -c
# writes it
sub avro
{
	my ($name, $extra) = @_;
	return '{"type":"record","name":"' . $name
	  . '","fields":[{"name":"a","type":"int"}'
	  . (defined $extra && length $extra ? ",$extra" : '') . ']}';
}

# a request body {"schema": TEXT} with more members as JSON text
sub sbody
{
	my ($schema, $more) = @_;
	return '{"schema":' . jstr($schema) . (defined $more ? ",$more" : '') . '}';
}

# the first 300 bytes of a text, on one line
sub short
{
	my $s = substr($_[0] // '', 0, 300);
	$s =~ s/\n/ /g;
	return $s;
}

# --- HTTP ----------------------------------------------------------------

my $ua = HTTP::Tiny->new(keep_alive => 0, timeout => 20, max_redirect => 0);

# req(METHOD, PATH [, BODY [, HEADER => VALUE ...]]): one request on a new
# connection (each one may land on another worker, as curl's did); PATH may
# be a whole URL.  A body goes with Content-Type CT unless a header gives
# another.  Sets $STATUS, $BODY, $HDRS and $J.
sub req
{
	my ($method, $path, $body, %h) = @_;
	my %headers = (accept => '*/*');
	$headers{ lc $_ } = $h{$_} for keys %h;
	my %args = (headers => \%headers);
	if (defined $body)
	{
		$args{content} = $body;
		$headers{'content-type'} //= $CT;
	}
	my $u = $path =~ m{^http://} ? $path : $URL . $path;
	my $r = $ua->request($method, $u, \%args);
	$STATUS = $r->{status} == 599 ? '000' : "$r->{status}";
	$BODY = $r->{content} // '';
	$HDRS = $r->{headers} // {};
	# a big body is decoded only when a check asks for it
	$J_DONE = length $BODY < 1_000_000;
	$J = $J_DONE && length $BODY ? jdecode($BODY) : undef;
	return $r;
}

# check(NAME, CONDITION [, DETAIL]): one test; DETAIL is shown on failure
sub check
{
	my ($name, $good, $detail) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	ok($good, $name) or diag($detail // '');
	return $good;
}

# expect(NAME, STATUS [, COND]): the last answer had STATUS and its body is
# JSON for which COND (code, with the body in $_) is true
sub expect
{
	my ($name, $want, $cond) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	if ($STATUS ne $want)
	{
		return check($name, 0, "HTTP $STATUS (want $want): " . short($BODY));
	}
	my $v = $J_DONE ? $J : jdecode($BODY);
	my $good = 0;
	if (defined $v || $BODY =~ /^\s*null\s*$/)
	{
		local $_ = $v;
		no warnings;
		$good = $cond ? eval { $cond->($v) } : 1;
	}
	return check($name, $good, "body does not satisfy the condition: " . short($BODY));
}

# expect_error(NAME, STATUS, CODE): Confluent's {"error_code","message"}
sub expect_error
{
	my ($name, $want, $code) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	return expect($name, $want,
		sub {
			ref $_ eq 'HASH'
			  && join(',', sort keys %$_) eq 'error_code,message'
			  && is_num($_->{error_code})
			  && $_->{error_code} == $code
			  && is_str($_->{message})
			  && length $_->{message} > 0;
		});
}

# expect_4xx(NAME): any 4xx with Confluent's error body
sub expect_4xx
{
	my ($name) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my $v = jdecode($BODY);
	my $good = $STATUS =~ /^4\d\d$/ && ref $v eq 'HASH'
	  && is_num($v->{error_code}) && is_str($v->{message});
	return check(
		$good ? "$name (HTTP $STATUS, error_code $v->{error_code})" : $name,
		$good,
		"want 4xx with an error body, got HTTP $STATUS: " . short($BODY));
}

# on_one_connection(REQUEST, ...): send each raw request (bytes) on one
# socket after the answer to the one before; the answers as
# [status, Connection header, body] while the socket stays open
sub on_one_connection
{
	my @out;
	my $s = IO::Socket::IP->new(PeerHost => $HTTP_HOST, PeerPort => $HTTP_PORT, Timeout => 5)
	  or return \@out;
	my $buf = '';
	my $deadline = time() + 20;
	my $fill = sub {
		my $sel = IO::Select->new($s);
		my $left = $deadline - time();
		return 0 if $left <= 0 || !$sel->can_read($left);
		my $n = sysread($s, my $chunk, 65536);
		return 0 unless $n;
		$buf .= $chunk;
		return 1;
	};
	for my $r (@_)
	{
		last unless defined syswrite($s, $r);
		my $head_end;
		while (($head_end = index($buf, "\r\n\r\n")) < 0)
		{
			$fill->() or last;
		}
		last if $head_end < 0;
		my $head = substr($buf, 0, $head_end);
		$buf = substr($buf, $head_end + 4);
		my ($status) = $head =~ m{^HTTP/1\.[01] (\d{3})};
		my ($conn) = $head =~ m{\r\nconnection:\s*([^\r]*)}i;
		my ($len) = $head =~ m{\r\ncontent-length:\s*(\d+)}i;
		my $body = '';
		if ($head =~ m{\r\ntransfer-encoding:\s*chunked}i)
		{
			while (1)
			{
				$fill->() or last while $buf !~ /\r\n/;
				my ($size) = $buf =~ /^([0-9a-fA-F]+)/;
				last unless defined $size;
				$size = hex $size;
				my $start = index($buf, "\r\n") + 2;
				$fill->() or last while length($buf) < $start + $size + 2;
				$body .= substr($buf, $start, $size);
				$buf = substr($buf, $start + $size + 2);
				if ($size == 0)
				{
					# the empty line after the last chunk, if not read yet
					$buf =~ s/^\r\n//;
					last;
				}
			}
		}
		elsif (defined $len)
		{
			$fill->() or last while length($buf) < $len;
			$body = substr($buf, 0, $len);
			$buf = substr($buf, $len);
		}
		push @out, [ $status // 0, $conn // '', $body ];
	}
	close $s;
	return \@out;
}

# wait_http(URL, SECONDS): poll GET / until it answers 200
sub wait_http
{
	my ($u, $max) = @_;
	my $t = HTTP::Tiny->new(keep_alive => 0, timeout => 2);
	for (1 .. $max * 4)
	{
		return 1 if $t->get("$u/")->{status} == 200;
		sleep 0.25;
	}
	return 0;
}

# wait_down(URL, SECONDS): poll until the port refuses connections
sub wait_down
{
	my ($u, $max) = @_;
	my ($h, $p) = $u =~ m{^http://([^:/]+):(\d+)};
	for (1 .. $max * 4)
	{
		my $s = IO::Socket::IP->new(PeerHost => $h, PeerPort => $p, Timeout => 2);
		return 1 unless $s;
		close $s;
		sleep 0.25;
	}
	return 0;
}

# --- SQL -----------------------------------------------------------------

# sql(QUERY): psql's unaligned output, without its last newline; errors go
# to $TMP/psql.err and give undef
sub sql
{
	my ($q) = @_;
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid)
	{
		open STDERR, '>>', "$TMP/psql.err";
		exec @PSQL, '-d', $DB, '-c', $q;
		exit 127;
	}
	local $/;
	my $out = <$fh>;
	close $fh;
	return undef if $?;
	$out //= '';
	$out =~ s/\n\z//;
	return $out;
}

# wait_sql(SECONDS): poll until the cluster accepts SQL again
sub wait_sql
{
	my ($max) = @_;
	for (1 .. $max * 4)
	{
		return 1 if defined sql('SELECT 1');
		sleep 0.25;
	}
	return 0;
}

# the pids of the registry http workers, in order, joined by spaces
sub worker_pids
{
	my $p = sql("SELECT pid FROM pg_stat_activity WHERE backend_type = 'registry http' ORDER BY pid") // '';
	return join ' ', split /\n/, $p;
}

my %altered;

# alter_system(NAME, VALUE): ALTER SYSTEM SET (undef VALUE: RESET) and
# pg_reload_conf(); what a file sets is reset when it ends
sub alter_system
{
	my ($name, $value) = @_;
	if (defined $value)
	{
		$altered{$name} = 1;
		sql("ALTER SYSTEM SET $name = '$value'");
	}
	else
	{
		sql("ALTER SYSTEM RESET $name");
	}
	sql('SELECT pg_reload_conf()');
}

# reload_wait: give the workers a moment to act on pg_reload_conf()
sub reload_wait { sleep 1 }

END
{
	my $rc = $?;
	if (%altered)
	{
		sql("ALTER SYSTEM RESET $_") for sort keys %altered;
		sql('SELECT pg_reload_conf()');
	}
	$? = $rc;
}

# A fingerprint of every registry table and id sequence: its rows, sorted
# ("seq ..." rows for the sequences)
sub snapshot
{
	my $rows = sql(
		"SELECT x FROM (
		SELECT 'config ' || row_to_json(t)::text AS x FROM registry.config t
		UNION ALL SELECT 'contexts ' || row_to_json(t)::text FROM registry.contexts t
		UNION ALL SELECT 'seq ' || t.context || ' ' || t.id_sequence::text || ' ' ||
			coalesce(pg_sequence_last_value(t.id_sequence)::text, '-') FROM registry.contexts t
		UNION ALL SELECT 'modes ' || row_to_json(t)::text FROM registry.modes t
		UNION ALL SELECT 'refs ' || row_to_json(t)::text FROM registry.schema_references t
		UNION ALL SELECT 'schemas ' || row_to_json(t)::text FROM registry.schemas t
		UNION ALL SELECT 'versions ' || row_to_json(t)::text FROM registry.subject_versions t
		UNION ALL SELECT 'subjects ' || row_to_json(t)::text FROM registry.subjects t
		UNION ALL SELECT 'seq default_context_ids ' ||
			coalesce(pg_sequence_last_value('registry.default_context_ids')::text, '-')) s
		ORDER BY x");
	return defined $rows ? [ split /\n/, $rows ] : [ 'snapshot failed ' . time() ];
}

# the rows of two snapshots that differ, on one line
sub snapshot_diff
{
	my ($a, $b) = @_;
	my (%in_a, %in_b);
	$in_a{$_}++ for @$a;
	$in_b{$_}++ for @$b;
	my @d = ((map { "< $_" } grep { !$in_b{$_} } @$a), (map { "> $_" } grep { !$in_a{$_} } @$b));
	return substr(join(' ', @d), 0, 600);
}

# same_rows(NAME, BEFORE, AFTER): no table row changed;
# same_sequences(NAME, BEFORE, AFTER): no id sequence advanced
sub same_rows
{
	my ($name, $a, $b) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my @a = grep { !/^seq / } @$a;
	my @b = grep { !/^seq / } @$b;
	return check($name, @a && @b && "@a" eq "@b", 'changed rows: ' . snapshot_diff(\@a, \@b));
}

sub same_sequences
{
	my ($name, $a, $b) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my @a = grep { /^seq / } @$a;
	my @b = grep { /^seq / } @$b;
	return check($name, @a && @b && "@a" eq "@b", snapshot_diff(\@a, \@b));
}

# --- the server log --------------------------------------------------------

# the cluster's server.log (next to its data directory), if it can be read
sub server_log
{
	return undef unless $ENV{CLUSTER_DATA};
	(my $dir = $ENV{CLUSTER_DATA}) =~ s{/[^/]+/?$}{};
	my $f = "$dir/server.log";
	return -r $f ? $f : undef;
}

# its size now (where to read it from later)
sub server_log_size
{
	my $f = server_log();
	return $f ? -s $f : 0;
}

# --- helper programs -------------------------------------------------------

# helper(NAME, COMMAND...): run a helper that prints "ok - ..." and
# "not ok - ... :: detail" lines (test/http/*.py); each such line is a
# test; a helper that printed none fails "NAME ran".  Its output is
# kept in $TMP/helper.out.
sub helper
{
	my ($name, @cmd) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my $out = "$TMP/helper.out";
	system("@{[ map { quotemeta } @cmd ]} >$out 2>&1");
	return helper_lines($name, $out);
}

# helper_start(OUTFILE, COMMAND...): the same in the background; its pid
sub helper_start
{
	my ($out, @cmd) = @_;
	my $pid = fork // die "fork: $!";
	if (!$pid)
	{
		open STDOUT, '>', $out;
		open STDERR, '>&', \*STDOUT;
		exec @cmd;
		exit 127;
	}
	return $pid;
}

# helper_lines(NAME, FILE): the tests of a helper's output
sub helper_lines
{
	my ($name, $file) = @_;
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	my $text = slurp($file);
	my $n = 0;
	for my $line (split /\n/, $text)
	{
		if ($line =~ /^ok - (.*)$/)
		{
			ok(1, $1);
			$n++;
		}
		elsif ($line =~ /^not ok - (.*?)(?: :: (.*))?$/)
		{
			ok(0, $1);
			diag($2 // '');
			$n++;
		}
		elsif ($line =~ /^(?:#|result )/)
		{
			note($line);
		}
	}
	check("$name ran", 0, short($text)) unless $n;
	return $text;
}

# --- setup -----------------------------------------------------------------

# base_subject(): a subject of this run with two versions of record R_$RUN
# (avro(R) and avro(R, $F_B)); its name, ids and schemas
sub base_subject
{
	my $s = "$RUN-s1";
	my $rec = "R_$RUN";
	my ($a1, $a2) = (avro($rec), avro($rec, $F_B));
	req('POST', "/subjects/$s/versions", sbody($a1));
	my $id1 = $J->{id};
	req('POST', "/subjects/$s/versions", sbody($a2));
	my $id2 = ref $J eq 'HASH' ? $J->{id} : undef;
	return { subject => $s, record => $rec, a1 => $a1, a2 => $a2, id1 => $id1, id2 => $id2 };
}

# every file starts with the API answering, or stops at once
unless (wait_http($URL, 15))
{
	fail("the REST API answers GET / at $URL");
	diag('no answer within 15 s');
	done_testing();
	exit 1;
}
note("registry HTTP tests against $URL (database $DB, data "
	  . ($ENV{CLUSTER_DATA} // '?') . "), run $RUN");

1;
