# Copyright (c) uuidv7 contributors
#
# Upkeep beside logical replication and change-data capture.  A publisher
# holds a table range-partitioned by month on its uuid7 key, rows of later
# months waiting in its DEFAULT partition; two subscribers read it, one
# through a publication with publish_via_partition_root = false (changes
# under each partition's name: the subscriber has a table of each name) and
# one with true (changes under the parent's name), and a test_decoding slot
# reads every change as a CDC consumer would.  Upkeep then makes the periods
# of the waiting rows, two in one call, and the application updates and
# deletes rows that moved and inserts new ones (the first subscriber told
# of the new partitions meanwhile, as for any made on the publisher).
# Then: each subscriber, and
# what the consumer makes of the changes it read, holds exactly the
# publisher's rows, each under the table that holds it there.  (A move
# written as a rewrite of the tables' files, which decoding does not see,
# leaves the moved rows in DEFAULT for the first subscriber and the
# consumer, and their later updates and deletes find nothing.)
#
# A DEFAULT partition that is a user_catalog_table, whose rewrite writes
# logical mapping files for the slot: two periods made in one call, both
# with rows waiting.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Uuidv7Test;

my $pub = PostgreSQL::Test::Cluster->new('publisher');
$pub->init(allows_streaming => 'logical');
$pub->append_conf('postgresql.conf', "max_connections = 40\n");
$pub->start;
# (the slot first: it decodes what is written after it is made)
$pub->safe_psql('postgres', "SELECT 1 FROM pg_create_logical_replication_slot('cdc', 'test_decoding')");
$pub->safe_psql('postgres', "SET client_min_messages = warning;
	CREATE EXTENSION uuidv7;
	CREATE TABLE ev (id uuid7 PRIMARY KEY, n int NOT NULL) PARTITION BY RANGE (id);
	CREATE TABLE ev_default PARTITION OF ev DEFAULT;
	SELECT count(*) FROM uuidv7_create_partitions('ev', '2025-01-01', '2025-02-01', '1 month', 'UTC');
	INSERT INTO ev SELECT uuidv7_min('2025-01-01 00:00+00'::timestamptz + g * interval '9 hours'), g
	FROM generate_series(0, 239) g;
	CREATE PUBLICATION leaf FOR TABLE ev;
	CREATE PUBLICATION root FOR TABLE ev WITH (publish_via_partition_root = true)");
is($pub->safe_psql('postgres', "SELECT count(*) FROM ev_default"), '157',
	'rows of February and March wait in DEFAULT');

is( $pub->safe_psql('postgres',
		"SELECT string_agg(severity, ',' ORDER BY severity) FROM uuidv7_doctor() WHERE object = 'public.ev_default'"),
	'notice,warning',
	'the doctor: rows wait, and will move by DELETE and INSERT');

# the subscribers: a table of each partition's name, and one of the parent's
my $leaf = uuidv7_node('leafsub');
my $root = uuidv7_node('rootsub');
$leaf->safe_psql('postgres', join(';',
	map { "CREATE TABLE $_ (id uuid PRIMARY KEY, n int NOT NULL)" } qw(ev_default ev_p2025_01 ev_p2025_02 ev_p2025_03)));
$root->safe_psql('postgres', "CREATE TABLE ev (id uuid PRIMARY KEY, n int NOT NULL)");
(my $connstr = $pub->connstr('postgres')) =~ s/'/''/g;
$leaf->safe_psql('postgres', "CREATE SUBSCRIPTION leafsub CONNECTION '$connstr' PUBLICATION leaf");
$root->safe_psql('postgres', "CREATE SUBSCRIPTION rootsub CONNECTION '$connstr' PUBLICATION root");
for my $node ($leaf, $root)
{
	$node->poll_query_until('postgres',
		"SELECT count(*) = 0 FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')")
	  or die 'the initial copy did not end';
}

# upkeep, then the application
is( $pub->safe_psql('postgres', "SELECT string_agg(partition_name || ' ' || moved, ', ' ORDER BY partition_name)
		FROM uuidv7_create_partitions('ev', '2025-02-01', '2025-04-01', '1 month', 'UTC')"),
	'public.ev_p2025_02 75, public.ev_p2025_03 82',
	'the two periods made, their waiting rows moved in');
$pub->safe_psql('postgres', "UPDATE ev SET n = -n WHERE n % 3 = 0;
	DELETE FROM ev WHERE n % 5 = 0;
	INSERT INTO ev SELECT uuidv7_min('2025-02-10 00:30+00'::timestamptz + g * interval '1 hour'), 1000 + g
	FROM generate_series(0, 9) g");
# (a subscriber of each partition by name learns of the new partitions when
# told to, as of any partition made on the publisher, and copies them then)
$leaf->safe_psql('postgres', "ALTER SUBSCRIPTION leafsub REFRESH PUBLICATION");
$leaf->poll_query_until('postgres',
	"SELECT count(*) = 4 FROM pg_subscription_rel WHERE srsubstate IN ('r', 's')")
  or die 'the new partitions were not copied';
$pub->safe_psql('postgres', "UPDATE ev SET n = n + 10000 WHERE n % 7 = 1;
	DELETE FROM ev WHERE n % 11 = 0");
$pub->wait_for_catchup('leafsub');
$pub->wait_for_catchup('rootsub');

# lines(NODE, SQL): its rows, sorted
sub lines
{
	my ($node, $sql) = @_;
	return join("\n", sort split /\n/, $node->safe_psql('postgres', $sql));
}

# the rows as the publisher has them, "table id n" a line
my $expected = lines($pub,
	"SELECT tableoid::regclass || ' ' || id || ' ' || n AS r FROM ev");
is( lines($leaf, "SELECT t || ' ' || id || ' ' || n AS r FROM (
		SELECT 'ev_default' AS t, * FROM ev_default UNION ALL SELECT 'ev_p2025_01', * FROM ev_p2025_01
		UNION ALL SELECT 'ev_p2025_02', * FROM ev_p2025_02 UNION ALL SELECT 'ev_p2025_03', * FROM ev_p2025_03) t
"),
	$expected,
	'publish_via_partition_root = false: every row under its partition, as on the publisher');
is( lines($root, "SELECT id || ' ' || n AS r FROM ev"),
	lines($pub, "SELECT id || ' ' || n AS r FROM ev"),
	'publish_via_partition_root = true: every row, as on the publisher');

# the consumer: each INSERT, UPDATE and DELETE applied to a table of its
# name, keyed by id; an UPDATE or DELETE of a row it does not have there is
# a divergence
my (%replayed, @diverged);
for my $line (split /\n/,
	$pub->safe_psql('postgres', "SELECT data FROM pg_logical_slot_get_changes('cdc', NULL, NULL)"))
{
	next
	  unless $line =~
	  /^table public\.(\w+): (INSERT|UPDATE|DELETE): id\[[^\]]+\]:'([0-9a-f-]+)'(?: n\[integer\]:(-?\d+))?/;
	my ($table, $action, $id, $n) = ($1, $2, $3, $4);
	push @diverged, "$action of $id in $table, which it lacks"
	  if $action ne 'INSERT' && !exists $replayed{$table}{$id};
	if ($action eq 'DELETE')
	{
		delete $replayed{$table}{$id};
	}
	else
	{
		$replayed{$table}{$id} = $n;
	}
}
is(scalar(@diverged), 0, 'the consumer never updates or deletes a row it lacks')
  or diag(join("\n", grep { defined } @diverged[ 0 .. 4 ]));
is( join("\n",
		sort map { my $t = $_; map { "$t $_ $replayed{$t}{$_}" } keys %{ $replayed{$t} } } keys %replayed),
	$expected,
	"the consumer's replay: every row under its partition, as on the publisher");

# a DEFAULT that is a user_catalog_table, two periods with waiting rows in
# one call, beside the slot
$pub->safe_psql('postgres', "CREATE TABLE uc (id uuid PRIMARY KEY, n int) PARTITION BY RANGE (id);
	CREATE TABLE uc_default PARTITION OF uc DEFAULT WITH (user_catalog_table = true);
	INSERT INTO uc SELECT uuidv7_min('2025-05-01 00:00+00'::timestamptz + g * interval '1 day'), g
	FROM generate_series(0, 59) g");
my ($rc, $out, $err) = $pub->psql('postgres',
	"SELECT string_agg(partition_name || ' ' || moved, ', ' ORDER BY partition_name)
	FROM uuidv7_create_partitions('uc', '2025-05-01', '2025-07-01', '1 month', 'UTC')");
is($rc, 0, 'a user_catalog_table DEFAULT: its periods made') or diag($err);
is($out, 'public.uc_p2025_05 31, public.uc_p2025_06 29', 'every waiting row moved');
is($pub->safe_psql('postgres', "SELECT count(*) FROM uc_default"), '0', 'nothing left in DEFAULT');

# rows waiting in a table that foreign keys reference: moved by DELETE,
# they would make the keys act; refused, before anything changes, and the
# doctor says so
$pub->safe_psql('postgres', "CREATE TABLE fk (id uuid PRIMARY KEY, n int) PARTITION BY RANGE (id);
	CREATE TABLE fk_default PARTITION OF fk DEFAULT;
	CREATE TABLE fk_child (fk_id uuid REFERENCES fk ON DELETE CASCADE);
	INSERT INTO fk VALUES (uuidv7_min('2025-08-02 00:00+00'), 1);
	INSERT INTO fk_child VALUES (uuidv7_min('2025-08-02 00:00+00'))");
is( $pub->safe_psql('postgres',
		"SELECT string_agg(severity, ',' ORDER BY severity) FROM uuidv7_doctor() WHERE object = 'public.fk_default'"),
	'error,warning',
	'the doctor: their periods cannot be made');
($rc, $out, $err) = $pub->psql('postgres',
	"SELECT * FROM uuidv7_create_partitions('fk', '2025-08-01', '2025-09-01', '1 month', 'UTC')",
	extra_params => [ '-v', 'VERBOSITY=sqlstate' ]);
like($err, qr/0A000/, 'refused with 0A000');
is( $pub->safe_psql('postgres',
		"SELECT (SELECT count(*) FROM fk_default) || ' ' || (SELECT count(*) FROM fk_child) || ' ' || (to_regclass('fk_p2025_08') IS NULL)"),
	'1 1 true',
	'nothing changed');

# a trigger of the parent that keeps rows back (it returns NULL for some):
# moved by DELETE and INSERT, those rows would be lost; the move is refused
# (27000), and every row stays where it was
$pub->safe_psql('postgres', "CREATE TABLE kept (id uuid PRIMARY KEY, stale bool) PARTITION BY RANGE (id);
	CREATE TABLE kept_default PARTITION OF kept DEFAULT;
	INSERT INTO kept SELECT uuidv7_min('2025-10-02 00:00+00'::timestamptz + g * interval '1 hour'), g % 2 = 0
	FROM generate_series(0, 9) g;
	CREATE FUNCTION keep_fresh() RETURNS trigger LANGUAGE plpgsql AS \$\$
		BEGIN IF NEW.stale THEN RETURN NULL; END IF; RETURN NEW; END \$\$;
	CREATE TRIGGER keep_fresh BEFORE INSERT ON kept FOR EACH ROW EXECUTE FUNCTION keep_fresh()");
($rc, $out, $err) = $pub->psql('postgres',
	"SELECT * FROM uuidv7_create_partitions('kept', '2025-10-01', '2025-11-01', '1 month', 'UTC')",
	extra_params => [ '-v', 'VERBOSITY=sqlstate' ]);
like($err, qr/27000/, 'a move that a trigger would cut short is refused');
is( $pub->safe_psql('postgres', "SELECT count(*) || ' ' || (to_regclass('kept_p2025_10') IS NULL) FROM kept_default"),
	'10 true', 'every row still waits, and no period was made');

$pub->safe_psql('postgres', "SELECT pg_drop_replication_slot('cdc')");
done_testing();
