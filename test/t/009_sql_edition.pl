# Copyright (c) uuidv7 contributors
#
# The SQL edition's installs, on the server of UUIDV7_SQL_EDITION_PG_CONFIG:
# a copy of the server the tests run on that holds the SQL edition as files
# and no file of the C edition, with pg_tle where it was built for it, and
# the assembled edition in UUIDV7_SQL_EDITION_DIR (test/shell/sql_edition.sh
# makes both and runs this test, with UUIDV7_SQL_EDITION_TLE=1 where it
# staged pg_tle; without them it is skipped).
#
#   - as files: the pg_regress suites and isolation specs both editions
#     share (make installcheck-sql-edition), run by a role without
#     superuser that creates the (trusted) extension in its own database;
#     the public ids it does not make, with the error that says why; the
#     test of look-alikes planted in the schema (security), as the
#     superuser it needs to plant them;
#   - a database using it, dumped and restored onto the server the tests
#     run on, with the C edition: the same schema, the same rows, served by
#     C; and that server's dump of it restored onto the SQL edition again;
#   - the plain script, run twice by a role without superuser into a schema
#     of its own: the extension's functions, and a table partitioned by
#     time that lives through it;
#   - through pg_tle (the files removed: pg_tle refuses a name a control
#     file has): a role with pgtle_admin and no superuser installs it (its
#     script run twice), and the suites run on it; a next version, made from
#     these sources as a release makes one, is registered beside it and
#     reached by ALTER EXTENSION UPDATE, with the rows unchanged and the
#     objects of a fresh install.
use strict;
use warnings;

use Cwd;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Uuidv7Test;

my $sqled_pg_config = $ENV{UUIDV7_SQL_EDITION_PG_CONFIG};
my $edition = $ENV{UUIDV7_SQL_EDITION_DIR};
plan skip_all => 'no server with the SQL edition: test/shell/sql_edition.sh makes one '
  . '(UUIDV7_SQL_EDITION_PG_CONFIG, UUIDV7_SQL_EDITION_DIR) and runs this test on it'
  unless $sqled_pg_config && $edition;

my $top = getcwd();
my $dir = PostgreSQL::Test::Utils::tempdir();
my $pkglibdir = pg_config_value($sqled_pg_config, 'pkglibdir');
my $sharedir = pg_config_value($sqled_pg_config, 'sharedir');
my @libraries = glob("$pkglibdir/uuidv7*");
is("@libraries", '', 'the server of the SQL edition holds no library of uuidv7');
ok(-f "$sharedir/extension/uuidv7.control", 'the SQL edition is installed on it as files');
my $with_tle = -f "$pkglibdir/pg_tle.so";
# (where test/shell/sql_edition.sh staged pg_tle, UUIDV7_SQL_EDITION_TLE=1, a
# pg_tle missing fails the test rather than skipping its half)
ok($with_tle, 'pg_tle is installed on the server of the SQL edition')
  if ($ENV{UUIDV7_SQL_EDITION_TLE} // '') eq '1';

my $sqled = uuidv7_node_at('sqled', pg_config_value($sqled_pg_config, 'bindir'),
	$with_tle ? "shared_preload_libraries = 'pg_tle'" : ());

# as_role(NODE, ROLE, DB, SQL, PSQL_OPTIONS...): SQL run by ROLE
sub as_role
{
	my ($node, $role, $db, $sql, @options) = @_;
	return $node->safe_psql($db, $sql, extra_params => [ '-U', $role, @options ]);
}

# regress_database(NODE, NAME, OWNER): a database set up as pg_regress sets
# up the one it makes
sub regress_database
{
	my ($node, $name, $owner) = @_;
	$node->safe_psql('postgres', "CREATE DATABASE $name OWNER $owner");
	$node->safe_psql('postgres', "ALTER DATABASE $name SET $_")
	  for ("lc_messages TO 'C'", "lc_monetary TO 'C'", "lc_numeric TO 'C'", "lc_time TO 'C'",
		"bytea_output TO 'hex'", "timezone_abbreviations TO 'Default'");
	return;
}

# sql_edition_regress(ROLE, DB, NAME, [TESTS]): the suites both editions
# share (or TESTS, without the isolation specs), run by ROLE in DB of the
# SQL edition's node, where the extension exists; a result for each test
my $runs = 0;
sub sql_edition_regress
{
	my ($role, $db, $name, $tests) = @_;
	my $out = "$dir/regress-" . $runs++;
	mkdir $out;
	mkdir "$out/build";
	local $ENV{PGHOST} = $sqled->host;
	local $ENV{PGPORT} = $sqled->port;
	local $ENV{PGUSER} = $role;
	delete local $ENV{MAKEFLAGS};
	delete local $ENV{MAKELEVEL};
	my ($stdout, $stderr) = ('', '');
	my $ok = IPC::Run::run(
		[
			'make', '-s', '-C', "$out/build", '-f', "$top/Makefile", "VPATH=$top",
			"PG_CONFIG=$sqled_pg_config", 'installcheck-sql-edition',
			"REGRESS_OPTS=--inputdir=$top --outputdir=$out --use-existing --dbname=$db",
			"ISOLATION_OPTS=--inputdir=$top --outputdir=$out/isolation --use-existing --dbname=$db",
			defined $tests ? ("REGRESS_SQL_EDITION=$tests", 'ISOLATION=') : ()
		],
		'>', \$stdout, '2>', \$stderr);
	# each test by name: "test x ... ok" before PostgreSQL 16, "ok 1 - x" after
	my $count = 0;
	for (split /\n/, $stdout)
	{
		my ($test, $verdict);
		($test, $verdict) = ($1, $2) if /^test (\w+) +\.\.\. +(ok|FAILED)/;
		($test, $verdict) = ($2, $1) if /^(ok|not ok) +\d+ +[-+] +(\w+)/;
		next unless defined $test;
		is($verdict, 'ok', "$name: $test");
		$count++;
	}
	ok($ok && $count > 0, "$name: make installcheck-sql-edition ran $count tests and passed")
	  or diag($stdout, $stderr, map { -f $_ ? slurp_file($_) : () } "$out/regression.diffs",
		"$out/isolation/regression.diffs");
	return;
}

# as files, by a role without superuser
$sqled->safe_psql('postgres', 'CREATE ROLE regress_sql_edition LOGIN CREATEDB CREATEROLE');
regress_database($sqled, 'regress_sql_edition', 'regress_sql_edition');
as_role($sqled, 'regress_sql_edition', 'regress_sql_edition', 'CREATE EXTENSION uuidv7');
sql_edition_regress('regress_sql_edition', 'regress_sql_edition', 'as files');

# public ids: not made, and it says why
for my $sql ('SELECT uuidv7_to_public(uuidv7_generate())', 'SELECT uuidv7_from_public(gen_random_uuid())')
{
	my ($rc, $stdout, $stderr) = $sqled->psql('regress_sql_edition', $sql,
		extra_params => [ '-U', 'regress_sql_edition', '-v', 'VERBOSITY=verbose' ]);
	like(
		$stderr,
		qr/ERROR:  0A000: public ids need the C edition of uuidv7\n(.*\n)?DETAIL:  The SQL edition cannot keep their keys from the roles that use them\.\n/,
		"public ids: $sql fails, saying why");
}

# look-alikes planted for its scripts are never called (as the superuser the
# test needs to plant them)
sql_edition_regress($sqled->safe_psql('postgres', 'SELECT current_user'), 'regress_sql_edition',
	'look-alikes', 'security');

# A database using the SQL edition, restored onto the C edition: an
# application's table partitioned by its uuid7 key, with its rows
my $app_sql = q{
SET client_min_messages = warning;
CREATE EXTENSION uuidv7;
CREATE TABLE orders (
	id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(),
	created_at timestamptz GENERATED ALWAYS AS (uuidv7_timestamp(id)) STORED,
	customer text NOT NULL
) PARTITION BY RANGE (id);
SELECT count(*) FROM uuidv7_create_partitions('orders', '2025-01-01', '2025-07-01', '1 month', 'UTC');
CREATE TABLE orders_default PARTITION OF orders DEFAULT;
INSERT INTO orders (id, customer)
SELECT uuidv7_generate_at('2025-01-01 00:00:00+00'::timestamptz + g * interval '7 minutes'), 'c' || g % 97
FROM generate_series(0, 40000) g;
INSERT INTO orders (customer) VALUES ('today');
CREATE INDEX orders_time_idx ON orders (uuidv7_timestamp(id));
CREATE INDEX orders_code_idx ON orders (uuidv7_to_base32_grouped(id));
CREATE VIEW march AS SELECT * FROM orders
	WHERE id >= uuidv7_min('2025-03-01 00:00+00') AND id < uuidv7_min('2025-04-01 00:00+00');
};

# digests(NODE, DB): the rows, what the view sees, the codes of the keys
sub digests
{
	my ($node, $db) = @_;
	return $node->safe_psql($db, q{
		SELECT 'orders ' || count(*) || ' ' || md5(string_agg(o::text, ',' ORDER BY id)) FROM orders o;
		SELECT 'march ' || count(*) FROM march;
		SELECT 'codes ' || md5(string_agg(uuidv7_to_base32(id), ',' ORDER BY id)) FROM orders;});
}

# dump_restore(FROM, DB, TO, DB): FROM's database dumped and restored into
# TO's, which exists
sub dump_restore
{
	my ($from, $from_db, $to, $to_db) = @_;
	my $file = "$dir/$from_db.dump";
	command_ok([ 'pg_dump', '-Fc', '-f', $file, '-d', $from->connstr($from_db) ], "$from_db dumped");
	command_ok([ 'pg_restore', '--exit-on-error', '-d', $to->connstr($to_db), $file ], "$from_db restored as $to_db");
	return;
}

regress_database($sqled, 'app', 'regress_sql_edition');
as_role($sqled, 'regress_sql_edition', 'app', $app_sql);
my $c = uuidv7_node('c_edition');
$c->safe_psql('postgres', 'CREATE ROLE regress_sql_edition LOGIN');
$c->safe_psql('postgres', 'CREATE DATABASE app OWNER regress_sql_edition');
dump_restore($sqled, 'app', $c, 'app');
is(app_schema($c, 'app'), app_schema($sqled, 'app'), 'restored onto the C edition: the same schema');
my $rows = digests($sqled, 'app');
like($rows, qr/^orders 40002 /, 'the rows of the SQL edition');
is(digests($c, 'app'), $rows, 'restored onto the C edition: the same rows');
is( as_role(
		$c, 'regress_sql_edition', 'app', q{
		SELECT count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
		WHERE l.lanname = 'c' AND p.proname IN ('uuidv7_generate', 'uuidv7_min', 'uuidv7_timestamp');
		INSERT INTO orders (customer) VALUES ('after the move')
			RETURNING uuidv7_timestamp(id) > now() - interval '1 minute';
		SELECT count(*) FROM uuidv7_create_partitions('orders', '2025-01-01', '2025-09-01', '1 month', 'UTC')
		WHERE created;}),
	"4\nt\n2",
	'restored onto the C edition: its C functions serve the rows and the upkeep');

# and back: the C edition's dump (with the row and partitions it added)
# restored onto the SQL edition
$sqled->safe_psql('postgres', 'CREATE DATABASE back OWNER regress_sql_edition');
dump_restore($c, 'app', $sqled, 'back');
is(app_schema($sqled, 'back'), app_schema($c, 'app'), 'and back onto the SQL edition: the same schema');
is(digests($sqled, 'back'), digests($c, 'app'), 'and back onto the SQL edition: the same rows');
is( as_role(
		$sqled, 'regress_sql_edition', 'back', q{
		SELECT count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
		WHERE l.lanname = 'c' AND p.pronamespace = 'public'::regnamespace}),
	'0',
	'and back onto the SQL edition: no C function');
$c->stop;

# the plain script, twice, by a role without superuser, in a schema of its own
regress_database($sqled, 'plain', 'regress_sql_edition');
as_role($sqled, 'regress_sql_edition', 'plain', 'CREATE SCHEMA uv');
{
	local $ENV{PGOPTIONS} = '-c search_path=uv -c client_min_messages=error';
	as_role($sqled, 'regress_sql_edition', 'plain', slurp_file("$edition/uuidv7_plain.sql")) for 1 .. 2;
}
pass('the plain script ran twice');

# functions(DB, SCHEMA): the signatures of a schema's functions
sub functions
{
	my ($db, $schema) = @_;
	return as_role($sqled, 'regress_sql_edition', $db, qq{
		SELECT s FROM (SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS s
			FROM pg_proc p WHERE p.pronamespace = '$schema'::regnamespace) f
		ORDER BY s COLLATE "C"});
}
# (the plain script puts the helpers in its schema: a role that owns a
# schema only may run it)
my $plain_functions = functions('plain', 'uv');
is( $plain_functions,
	join("\n", sort(split(/\n/, functions('regress_sql_edition', 'public') . "\n" . functions('regress_sql_edition', 'uuidv7_internal')))),
	"the plain script: the extension's functions and helpers");
cmp_ok(scalar(split /\n/, $plain_functions), '>', 50, 'the plain script: its functions listed');
my $plain_works;
{
	local $ENV{PGOPTIONS} = '-c search_path=uv';
	$plain_works = as_role(
		$sqled, 'regress_sql_edition', 'plain', q{
		CREATE TABLE ev (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), v int) PARTITION BY RANGE (id);
		CREATE TABLE ev_default PARTITION OF ev DEFAULT;
		INSERT INTO ev SELECT uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + g * interval '1 hour'), g
		FROM generate_series(0, 2000) g;
		SELECT sum(moved) FROM uuidv7_create_partitions('ev', '2025-01-01', '2025-04-01', '1 month', 'UTC');
		SELECT count(*) FROM uuidv7_drop_partitions('ev', '2025-02-01 00:00+00');
		EXPLAIN (COSTS OFF) SELECT count(*) FROM ev
		WHERE id >= uuidv7_min('2025-03-05 00:00+00') AND id < uuidv7_min('2025-03-06 00:00+00');});
}
like($plain_works, qr/^2001\n1\n/, 'the plain script: 2001 rows moved into their months, January retired');
like($plain_works, qr/ev_p2025_03 /, 'the plain script: the month of the range scanned');
unlike($plain_works, qr/ev_p2025_02/, 'the plain script: the month before it not scanned');

SKIP:
{
	skip 'pg_tle is not installed on this server (test/shell/sql_edition.sh builds it for 13 to 18)', 1
	  unless $with_tle;

	# (pg_tle refuses a name that a control file on the server has)
	command_ok([ 'make', '-s', '-C', $edition, "PG_CONFIG=$sqled_pg_config", 'uninstall' ],
		'the SQL edition as files uninstalled');
	# (in template1, so that the databases made after it have it too: what
	# pg_tle installs lives in one database)
	$sqled->safe_psql('postgres', 'CREATE ROLE regress_tle_admin LOGIN CREATEDB CREATEROLE');
	# (a database without pg_tle: the script says who must create it there)
	# (read by psql itself: it stops at the first error, and a script sent on
	# its standard input would meet a closed pipe)
	$sqled->psql('postgres', "\\i $edition/uuidv7_pg_tle.sql",
		stderr => \my $no_tle, extra_params => [ '-U', 'regress_tle_admin', '-v', 'ON_ERROR_STOP=1' ]);
	like($no_tle,
		qr/ERROR:  pg_tle is not installed in database "postgres"\nHINT:  A superuser or the provider \(on Amazon RDS and Aurora, a member of rds_superuser\) runs CREATE EXTENSION pg_tle in each database/,
		'without pg_tle in the database, its script says who must create it (55000), not that a schema is missing');
	$sqled->safe_psql('template1', 'CREATE EXTENSION pg_tle; GRANT pgtle_admin TO regress_tle_admin');
	as_role($sqled, 'regress_tle_admin', 'template1', slurp_file("$edition/uuidv7_pg_tle.sql")) for 1 .. 2;
	pass('its pg_tle script ran twice');
	regress_database($sqled, 'tle', 'regress_tle_admin');
	as_role($sqled, 'regress_tle_admin', 'tle', 'CREATE EXTENSION uuidv7');
	my ($version) = slurp_file("$top/uuidv7.control") =~ /^default_version = '(.*)'/m;
	is( as_role(
			$sqled, 'regress_tle_admin', 'tle', q{
			SELECT extname || ' ' || extversion || ', by ' || extowner::regrole || ', superuser: '
				|| (SELECT rolsuper FROM pg_roles WHERE oid = extowner)
			FROM pg_extension WHERE extname = 'uuidv7'}),
		"uuidv7 $version, by regress_tle_admin, superuser: false",
		'through pg_tle, by a role without superuser');
	sql_edition_regress('regress_tle_admin', 'tle', 'through pg_tle');

	# A next version, made here as a release makes one: the same sources, an
	# update template in src/update/ and the version in uuidv7.control; its
	# pg_tle script registers it beside this one, and ALTER EXTENSION walks
	# the update path it registers.
	my $next_version = "$version.1";
	my $tree = "$dir/next-tree";
	mkdir $tree;
	system('cp', '-a', "$top/Makefile", "$top/src", "$top/uuidv7.control", "$top/uuidv7_time_ops.control", $tree) == 0
	  or die 'cannot copy the tree';
	my $control = slurp_file("$tree/uuidv7.control");
	$control =~ s/^default_version = .*$/default_version = '$next_version'/m;
	append_to_file("$tree/uuidv7.control.new", $control);
	rename("$tree/uuidv7.control.new", "$tree/uuidv7.control") or die "cannot rename: $!";
	append_to_file("$tree/src/update/uuidv7--$version--$next_version.sql",
		"\\echo Use \"ALTER EXTENSION uuidv7 UPDATE TO '$next_version'\" to load this file. \\quit\n"
		  . "--#object uuidv7_doctor replace\n");
	{
		delete local $ENV{MAKEFLAGS};
		delete local $ENV{MAKELEVEL};
		command_ok([ 'make', '-s', '-C', $tree, "PG_CONFIG=$sqled_pg_config", "SQL_EDITION_DIR=$dir/next", 'sql-edition' ],
			"the SQL edition of $next_version made");
	}
	regress_database($sqled, 'tle_update', 'regress_tle_admin');
	as_role($sqled, 'regress_tle_admin', 'tle_update', $app_sql);
	my $before = digests($sqled, 'tle_update');
	as_role($sqled, 'regress_tle_admin', 'tle_update', slurp_file("$dir/next/uuidv7_pg_tle.sql"));
	is( as_role(
			$sqled, 'regress_tle_admin', 'tle_update', q{
			ALTER EXTENSION uuidv7 UPDATE;
			SELECT extversion FROM pg_extension WHERE extname = 'uuidv7';
			INSERT INTO orders (customer) VALUES ('after the update')
				RETURNING uuidv7_timestamp(id) > now() - interval '1 minute';
			DELETE FROM orders WHERE customer = 'after the update';}),
		"$next_version\nt",
		"updated to $next_version by ALTER EXTENSION UPDATE, and it works");
	is(digests($sqled, 'tle_update'), $before, 'updated: the same rows');

	# and the extension's objects are those of a fresh install of that version
	regress_database($sqled, 'tle_fresh', 'regress_tle_admin');
	as_role($sqled, 'regress_tle_admin', 'tle_fresh', slurp_file("$dir/next/uuidv7_pg_tle.sql"));
	as_role($sqled, 'regress_tle_admin', 'tle_fresh', 'CREATE EXTENSION uuidv7');
	my $members = q{
		SELECT member FROM (
			SELECT pg_describe_object(d.classid, d.objid, d.objsubid)
				|| coalesce(' ' || md5(pg_get_functiondef(p.oid)), '')
				|| coalesce(' ' || md5(obj_description(d.objid, d.classid::regclass::name)), '') AS member
			FROM pg_depend d
			LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid AND p.prokind <> 'a'
			WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
				AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uuidv7')) m
		ORDER BY member COLLATE "C"};
	my $fresh = as_role($sqled, 'regress_tle_admin', 'tle_fresh', $members);
	cmp_ok(scalar(split /\n/, $fresh), '>', 50, 'a fresh install of the next version: its objects listed');
	is(as_role($sqled, 'regress_tle_admin', 'tle_update', $members),
		$fresh, 'updated: the objects of a fresh install, each function as defined there');
}

$sqled->stop;
done_testing();
