# Copyright (c) uuidv7 contributors
#
# The application database of test/data/app.sql dumped with pg_dump in custom
# format and as plain SQL, and restored into a fresh cluster: the schema
# dumps again identically, every table holds the same rows, and everything
# still works.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Uuidv7Test;

my $dir = PostgreSQL::Test::Utils::tempdir();
my $source = uuidv7_node('source');
app_create($source);
$source->command_ok([ 'pg_dump', '-d', $source->connstr('app'), '-Fc', '-f', "$dir/app.dump" ], 'dumped in custom format');
$source->command_ok([ 'pg_dump', '-d', $source->connstr('app'), '-f', "$dir/app.sql" ], 'dumped as SQL');
my $schema = app_schema($source, 'app');
my $digests = app_digests($source, 'app');
$source->stop;

my $target = uuidv7_node('target');
$target->safe_psql('postgres', 'CREATE DATABASE from_custom; CREATE DATABASE from_plain');
$target->command_ok([ 'pg_restore', '-d', $target->connstr('from_custom'), '--exit-on-error', "$dir/app.dump" ],
	'restored the custom dump');
$target->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $target->connstr('from_plain'), '-f', "$dir/app.sql" ],
	'restored the SQL dump');
for my $db ('from_custom', 'from_plain')
{
	is(app_schema($target, $db), $schema, "$db: the same schema");
	is(app_digests($target, $db), $digests, "$db: the same rows");
	is(app_works($target, $db), '0 t 2 t 3', "$db: working");
}
$target->stop;

done_testing();
