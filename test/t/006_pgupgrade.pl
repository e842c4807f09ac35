# Copyright (c) uuidv7 contributors
#
# pg_upgrade of a cluster holding the application database of test/data/app.sql,
# from the server of OLD_PG_CONFIG (the previous major the suite tests;
# default: this server, which the framework of PostgreSQL 13 requires) to
# this one.  Every row survives, the schema is the one a dump of the old
# cluster restored into the new server gives (both printed by the new
# server: views, for one, are printed differently from PostgreSQL 16 on),
# and everything works, by the checks of 004_dump.  The time operators of
# uuidv7 keep their index through it (the planner inlines them into
# comparisons of uuids); those of uuidv7_time_ops survive too, but
# pg_upgrade drops their membership in core's operator families, which
# uuidv7_time_ops_status() reports and uuidv7_time_ops_repair() restores;
# dropping that extension then leaves none of it behind.
use strict;
use warnings;

use Cwd;
use File::Basename;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Uuidv7Test;

# the servers' binaries
my $new_bindir = pg_config_value('pg_config', 'bindir');
my $old_bindir = pg_config_value($ENV{OLD_PG_CONFIG} // 'pg_config', 'bindir');
# (another server's node is one of an install path, which the framework of
# PostgreSQL 13 does not know)
my @old_install = $old_bindir eq $new_bindir ? () : (install_path => dirname($old_bindir));

my $dir = PostgreSQL::Test::Utils::tempdir();
my $old = PostgreSQL::Test::Cluster->new('old', @old_install);
$old->init;
$old->start;
app_create($old);

my $time_ops_plan = "EXPLAIN (COSTS OFF) SELECT count(*) FROM orders
	WHERE id OPERATOR(uuidv7_time_ops.>=) '2025-02-10 00:00:00+00'::timestamptz
		AND id OPERATOR(uuidv7_time_ops.<) '2025-02-11 00:00:00+00'::timestamptz";
my $inlined_plan = "EXPLAIN (COSTS OFF) SELECT count(*) FROM orders
	WHERE id >= '2025-02-10 00:00:00+00'::timestamptz AND id < '2025-02-11 00:00:00+00'::timestamptz";
command_ok([ 'pg_dump', '-d', $old->connstr('app'), '-Fc', '-f', "$dir/app.dump" ], 'the old cluster dumped');
my $digests = app_digests($old, 'app');
my $before_time_ops = $old->safe_psql('app', $time_ops_plan);
my $before_inlined = $old->safe_psql('app', $inlined_plan);
like($before_time_ops, qr/Index Only Scan using orders_p2025_02_pkey/, "uuidv7_time_ops' operators use the index");
like($before_inlined, qr/Index Only Scan using orders_p2025_02_pkey/, "uuidv7's operators use the index");
my $checksums = $old->safe_psql('postgres', 'SHOW data_checksums');
$old->stop;

# the new cluster's data checksums must be the old one's; initdb turns them
# on by default from PostgreSQL 18
my @checksums;
if ($checksums eq 'on')
{
	@checksums = ('--data-checksums');
}
elsif (`initdb --help` =~ /--no-data-checksums/)
{
	@checksums = ('--no-data-checksums');
}
my $new = PostgreSQL::Test::Cluster->new('new');
$new->init(extra => \@checksums);
# (pg_upgrade writes its files in the directory it runs in)
my $cwd = getcwd();
chdir $dir or die;
my $upgraded = run_log(
	[
		'pg_upgrade', '-b', $old_bindir, '-B', $new_bindir,
		'-d', $old->data_dir, '-D', $new->data_dir,
		'-p', $old->port, '-P', $new->port, '-s', $new->host
	]);
ok($upgraded, 'pg_upgrade');
chdir $cwd or die;
if (!$upgraded)
{
	diag(slurp_file($_)) for glob($new->data_dir . '/pg_upgrade_output.d/*/log/*.log'), glob("$dir/*.log");
	die 'pg_upgrade failed';
}
$new->start;

my $missing = $new->safe_psql('app', 'SELECT count(*) FROM uuidv7_time_ops_status() WHERE NOT present');
cmp_ok($missing, '>', 0, "pg_upgrade dropped uuidv7_time_ops' members of core's families, and the status says so");
unlike($new->safe_psql('app', $time_ops_plan), qr/Index/, "without them, uuidv7_time_ops' operators use no index");
# pg_upgrade carries no planner statistics over: gather them as it advises
$new->safe_psql('app', 'VACUUM ANALYZE');
is($new->safe_psql('app', $inlined_plan), $before_inlined, "uuidv7's operators keep their plan, before any repair");
is($new->safe_psql('app', 'SELECT count(*) FROM uuidv7_time_ops_repair()'), $missing, 'the repair adds each member missing');
is($new->safe_psql('app', $time_ops_plan), $before_time_ops, "uuidv7_time_ops' operators have their plan back");

is(app_digests($new, 'app'), $digests, 'every row survived');
$new->safe_psql('postgres', 'CREATE DATABASE restored');
command_ok([ 'pg_restore', '-d', $new->connstr('restored'), '--exit-on-error', "$dir/app.dump" ],
	"the old cluster's dump restored into the new one");
is(app_schema($new, 'app'), app_schema($new, 'restored'), 'the schema of the old cluster restored');
is(app_works($new, 'app'), '0 t 2 t 3', 'working');

# removing the extension also removes the members the repair added
$new->safe_psql('app', 'DROP VIEW recent_orders; DROP EXTENSION uuidv7_time_ops');
is( $new->safe_psql(
		'app', "SELECT (SELECT count(*) FROM pg_amop WHERE 'timestamptz'::regtype IN (amoplefttype, amoprighttype)
			AND 'uuid'::regtype IN (amoplefttype, amoprighttype))
		+ (SELECT count(*) FROM pg_amproc WHERE amproclefttype = 'uuid'::regtype
			AND amprocrighttype IN ('timestamptz'::regtype, 'interval'::regtype))"),
	'0', 'DROP EXTENSION uuidv7_time_ops leaves no member behind');
$new->stop;

done_testing();
