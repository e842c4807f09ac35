# Copyright (c) uuidv7 contributors
#
# Uuidv7Test: what the TAP tests of test/t share, on PostgreSQL's own
# framework (PostgreSQL::Test::Cluster; on 13 and 14, the aliases of
# PostgresNode their later releases ship): a started cluster for uuidv7, SQL
# run in sessions of their own at once, and the application database of
# test/data/app.sql with the checks that it survived a dump, an upgrade or a
# replication.
package Uuidv7Test;

use strict;
use warnings;

use Exporter 'import';
use File::Basename ();
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our @EXPORT = qw(pg_config_value uuidv7_node uuidv7_node_at psql_start psql_finish
  pgbench_start pgbench_finish server_exited restart_after_kill app_create app_schema
  app_digests app_works);

# pg_config_value(PG_CONFIG, OPTION): what that pg_config answers for
# --OPTION (PG_CONFIG "pg_config": the server the tests run on)
sub pg_config_value
{
	my ($pg_config, $option) = @_;
	my $value = `"$pg_config" --$option`;
	die "$pg_config --$option failed" if $?;
	chomp $value;
	return $value;
}

# uuidv7_node(NAME, CONF_LINES...): an initialized and started cluster with
# more postgresql.conf lines
sub uuidv7_node
{
	my ($name, @conf) = @_;
	return uuidv7_node_at($name, undef, @conf);
}

# uuidv7_node_at(NAME, BINDIR, CONF_LINES...): the same, of the server whose
# programs are in BINDIR (undef: the one the tests run on); on the framework
# of PostgreSQL 13 and 14, which has no install paths, a node that runs each
# of its calls with BINDIR first in PATH (Uuidv7Test::NodeAt)
sub uuidv7_node_at
{
	my ($name, $bindir, @conf) = @_;
	my $node;
	if (!defined $bindir)
	{
		$node = PostgreSQL::Test::Cluster->new($name);
	}
	elsif (PostgreSQL::Test::Cluster->can('install_path'))
	{
		$node = PostgreSQL::Test::Cluster->new($name, install_path => File::Basename::dirname($bindir));
	}
	else
	{
		$node = Uuidv7Test::NodeAt->new(PostgreSQL::Test::Cluster->new($name), $bindir);
	}
	$node->init;
	$node->append_conf('postgresql.conf', join("\n", 'max_connections = 40', @conf) . "\n");
	$node->start;
	return $node;
}

# psql_start(NODE, DB, SQL): SQL run by psql in a session of its own, in the
# background; psql_finish(HANDLE) waits for it and returns its output, and
# fails the test if it failed or did not end within the framework's timeout
# (PG_TEST_TIMEOUT_DEFAULT, 180 s)
sub psql_start
{
	my ($node, $db, $sql) = @_;
	my %h = (out => '', err => '', sql => $sql);
	$h{run} = IPC::Run::start(
		[ 'psql', '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr($db), '-c', $sql ],
		'>', \$h{out}, '2>', \$h{err},
		IPC::Run::timeout($ENV{PG_TEST_TIMEOUT_DEFAULT} // 180));
	return \%h;
}

sub psql_finish
{
	my ($h) = @_;
	my $finished = eval { $h->{run}->finish };
	if (!defined $finished)
	{
		$h->{run}->kill_kill;
		$h->{err} .= $@;
	}
	ok($finished, 'a session ran: ' . (split /\n/, $h->{sql})[0])
	  or diag($h->{err});
	chomp $h->{out};
	return $h->{out};
}

# pgbench_start(NODE, DB, ENV, ARGS...): pgbench -n ARGS on DB in the
# background, with the environment variables of hash ENV; its output and
# exit code kept.  pgbench_finish(HANDLE): waits for it (the framework's
# timeout past its own end), and returns whether it succeeded and its output
# (its report and its errors)
sub pgbench_start
{
	my ($node, $db, $env, @args) = @_;
	my %h = (out => '');
	local %ENV = (%ENV, %$env);
	$h{run} = IPC::Run::start(
		[ 'pgbench', '-n', @args, $node->connstr($db) ],
		'>', \$h{out}, '2>&1',
		IPC::Run::timeout($ENV{PG_TEST_TIMEOUT_DEFAULT} // 180));
	return \%h;
}

sub pgbench_finish
{
	my ($h) = @_;
	my $ok = eval { $h->{run}->finish };
	$h->{run}->kill_kill unless defined $ok;
	return ($ok, $h->{out});
}

# server_exited(NODE, SECONDS): whether the node's postmaster has exited, or
# does within SECONDS (its pid file gone); restart_after_kill(NODE): start a
# node again whose postmaster was made to exit without the framework
# (SIGQUIT from a session, as pg_ctl's immediate mode sends), once it has:
# the framework is told so through its _update_pid, the one way it has
sub server_exited
{
	my ($node, $seconds) = @_;
	my $pidfile = $node->data_dir . '/postmaster.pid';
	for (1 .. 10 * $seconds)
	{
		return 1 unless -e $pidfile;
		select(undef, undef, undef, 0.1);
	}
	return !-e $pidfile;
}

sub restart_after_kill
{
	my ($node) = @_;
	server_exited($node, 60) or die 'the server did not exit';
	$node->_update_pid(0);
	$node->start;
}

# app_create(NODE): the application database of test/data/app.sql, as "app"
sub app_create
{
	my ($node) = @_;
	$node->safe_psql('postgres', 'CREATE DATABASE app');
	$node->command_ok(
		[ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $node->connstr('app'), '-f', 'test/data/app.sql' ],
		'the application database created');
}

# app_schema(NODE, DB): its schema, as pg_dump prints it (less the \restrict
# key of pg_dump 15.14+, random in every dump, and the server's version)
sub app_schema
{
	my ($node, $db) = @_;
	my $out = '';
	IPC::Run::run([ 'pg_dump', '--schema-only', '-d', $node->connstr($db) ], '>', \$out)
	  or die "pg_dump of $db failed";
	return join '', grep { !/^\\(un)?restrict |^-- Dumped from database version / } split /^/, $out;
}

# app_digests(NODE, DB): a digest of its rows, and the checks that must hold
# of them
sub app_digests
{
	my ($node, $db) = @_;
	return $node->safe_psql($db, q{
		SELECT 'orders ' || count(*) || ' ' || md5(string_agg(o::text, ',' ORDER BY id)) FROM orders o;
		SELECT 'events ' || count(*) || ' ' || md5(string_agg(e::text, ',' ORDER BY id)) FROM events e;
		SELECT 'recent_orders ' || count(*) FROM recent_orders;
		SELECT 'rows in the partition of their time ' || bool_and(tableoid = (
			SELECT c.oid FROM pg_class c WHERE c.relname = 'orders_p' || to_char(created_at AT TIME ZONE 'UTC', 'YYYY_MM')))
		FROM orders;});
}

# app_works(NODE, DB): what must still work: the time operators' families
# complete, a default, the DDL, the casts between uuid and timestamptz, the
# recorded grid of shifts (days of America/Havana, from a session in UTC);
# "0 t 2 t 3" when it all works
sub app_works
{
	my ($node, $db) = @_;
	my $out = $node->safe_psql($db, q{
		SELECT count(*) FROM uuidv7_time_ops_status() WHERE NOT present;
		INSERT INTO events (kind) VALUES ('later') RETURNING uuidv7_timestamp(id) > now() - interval '1 minute';
		SELECT count(*) FROM uuidv7_partition_ddl('orders', '2025-07-01', '2025-09-01', '1 month', 'UTC');
		SELECT '2025-07-01 00:00+00'::timestamptz::uuid::timestamptz = '2025-07-01 00:00+00';
		SET TimeZone = 'UTC';
		SELECT count(*) FROM uuidv7_create_partitions('shifts', '2026-03-08 12:00-04', '2026-03-11 00:00-04')
		WHERE partition_name LIKE 'public.shifts_p2026_03_%';});
	return join ' ', split /\n/, $out;
}

# A node whose every call runs with its server's programs first in PATH, as
# the framework's install paths do from PostgreSQL 15 on.  (The framework
# stops it at the end with the PATH of the tests' server: a server of
# another major would need install paths.)
package Uuidv7Test::NodeAt;

our $AUTOLOAD;

sub new
{
	my ($class, $node, $bindir) = @_;
	return bless { node => $node, bindir => $bindir }, $class;
}

sub AUTOLOAD
{
	my $self = shift;
	(my $method = $AUTOLOAD) =~ s/.*:://;
	return if $method eq 'DESTROY';
	local $ENV{PATH} = "$self->{bindir}:$ENV{PATH}";
	return $self->{node}->$method(@_);
}

1;
