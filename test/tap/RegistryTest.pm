# RegistryTest: PostgreSQL::Test::Cluster nodes that preload the registry
# and serve its REST API, and a small HTTP client for the tests in t/.
package RegistryTest;

use strict;
use warnings;

use Exporter 'import';
use IPC::Run;
use JSON::PP ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;

our @EXPORT = qw(registry_node http_port rest rest_json curl_rest);

# registry_node(NAME, conf => EXTRA_CONF, allows_streaming => 1,
# safe_defaults => 1): a new primary (not started) that preloads the
# library; its REST API listens on a free port on 127.0.0.1 and serves
# anonymous requests as registry_admin (an opt-in) unless safe_defaults
sub registry_node
{
	my ($name, %opts) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	my $port = PostgreSQL::Test::Cluster::get_free_port();

	$node->init(allows_streaming => $opts{allows_streaming} ? 1 : 0);
	$node->append_conf('postgresql.conf', <<CONF);
shared_preload_libraries = 'registry'
registry.http_port = $port
registry.http_workers = 2
registry.database = 'postgres'
CONF
	$node->append_conf('postgresql.conf', "registry.http_anonymous_role = 'registry_admin'\n")
	  unless $opts{safe_defaults};
	$node->append_conf('postgresql.conf', $opts{conf}) if $opts{conf};
	$node->{_registry_http_port} = $port;
	return $node;
}

# the node's REST API port (as registry_node gave it, or as set later)
sub http_port
{
	my ($node) = @_;
	return $node->{_registry_http_port};
}

# curl_rest(ARGS...): run curl with the given arguments and return
# (HTTP status, body, curl's exit code, curl's stderr); status is 0 when no
# answer came
sub curl_rest
{
	my @args = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'curl', '-sS', '--max-time', '30', '-w', '\n%{http_code}', @args ],
		'>', \$out, '2>', \$err);
	my $rc = $? >> 8;
	my $status = 0;
	if ($out =~ s/\n?(\d{3})\z//)
	{
		$status = $1 + 0;
	}
	return ($status, $out, $rc, $err);
}

# rest(NODE, METHOD, PATH, BODY, CURL_ARGS...): one request to the node's
# REST API over plain HTTP; returns (status, body)
sub rest
{
	my ($node, $method, $path, $body, @extra) = @_;
	my @args = ('-X', $method, @extra);
	if (defined $body)
	{
		push @args, '-H', 'Content-Type: application/vnd.schemaregistry.v1+json',
		  '--data-binary', $body;
	}
	my ($status, $out) = curl_rest(@args,
		'http://127.0.0.1:' . http_port($node) . $path);
	return ($status, $out);
}

# rest_json: rest() whose body is decoded when it is JSON (JSON::PP is core)
sub rest_json
{
	require JSON::PP;
	my ($status, $out) = rest(@_);
	my $decoded = eval { JSON::PP::decode_json($out) };
	return ($status, defined $decoded ? $decoded : $out);
}

# wait_for_rest(NODE): poll until the workers answer GET /subjects (or 30 s)
sub wait_for_rest
{
	my ($node) = @_;
	for (my $i = 0; $i < 300; $i++)
	{
		my ($status) = rest($node, 'GET', '/subjects');
		return 1 if $status == 200;
		select(undef, undef, undef, 0.1);
	}
	return 0;
}

push @EXPORT, 'wait_for_rest';

# registry_standby(PRIMARY, NAME, EXTRA_CONF): a streaming standby (not
# started) of a primary made with allows_streaming, from a new base backup;
# its REST API gets a port of its own
sub registry_standby
{
	my ($primary, $name, %opts) = @_;
	my $backup = "${name}_base";
	my $standby = PostgreSQL::Test::Cluster->new($name);
	my $port = PostgreSQL::Test::Cluster::get_free_port();

	$primary->backup($backup);
	$standby->init_from_backup($primary, $backup, has_streaming => 1);
	$standby->append_conf('postgresql.conf', "registry.http_port = $port\n");
	$standby->append_conf('postgresql.conf', $opts{conf}) if $opts{conf};
	$standby->{_registry_http_port} = $port;
	return $standby;
}

push @EXPORT, 'registry_standby';

# record_body(NAME, FIELDS...): a registration body of an Avro record with
# those int fields (each with a default, so every such record is BACKWARD
# compatible with the one before)
sub record_body
{
	my ($name, @fields) = @_;
	my $schema = JSON::PP::encode_json(
		{
			type => 'record',
			name => $name,
			fields => [ map { { name => $_, type => 'int', default => 0 } } @fields ]
		});
	return JSON::PP::encode_json({ schema => $schema });
}

push @EXPORT, 'record_body';

1;
