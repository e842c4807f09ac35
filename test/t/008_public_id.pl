# Copyright (c) uuidv7 contributors
#
# Public ids (uuidv7_to_public, uuidv7_from_public, uuidv7_from_public_all):
#
# - src/ff1.c against NIST's nine FF1 samples (with and without 128-bit
#   integers) and src/siphash.c against python3-nacl, built without the
#   server; the independent implementation (test/unit/public_id_reference.py)
#   against the same NIST samples;
# - in a cluster with uuidv7 preloaded: each scheme's public ids of 2,000
#   fixed v7s equal the independent implementation's, exactly; two million
#   generated ids per scheme round-trip, come out as distinct version 4
#   UUIDs, the same from parallel workers; FF1 flips on average 61 of 122
#   bits for a flipped input bit, and no output bit follows any input bit
#   more often than chance (uuidv47, which shows 74 bits, fails this); a new
#   key changes every public id, and the old ones are read back through
#   uuidv7_from_public_all during the rotation;
# - the keys, from a key file the server reads (uuidv7.public_id_key_file):
#   refused, with the keys in use kept and a log line that names the file
#   and the rule, when its permissions are not those of ssl_key_file or a
#   line is malformed; rotated by an edit and a reload; a database's own
#   keys, so that a public id of one database does not decode in another;
#   only superusers and pg_read_all_settings members see fingerprints; after
#   it all, no key's bytes (as hex, either case, or raw) in any file of the
#   data directory but the key file (the log in every format, log_statement
#   = all, log_min_messages = debug5, pg_stat_statements' texts where the
#   server has it), nor in pg_stat_activity, pg_stat_statements,
#   pg_settings, pg_file_settings; a plain role's statement naming
#   public_id_keys is logged as any other; kept as ssl_key_file is, in the
#   postmaster's private memory inherited by its children, never where a
#   core dump would hold it, and in a session its own database's keys alone
#   once it needs one;
# - lookups by public id use the primary key, for a role under row-level
#   security too; bad input gets 22023;
# - without preloading, the functions refuse with an error that says so.
#
# (A build without OpenSSL, mounted over the installed library for one
# server, needs root: test/shell/public_id.sh.)
use strict;
use warnings;

use Digest::MD5 qw(md5_hex);
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(sleep);
use Uuidv7Test;

# Debian's Python, whose packages the reference needs (another python3 may
# come first on PATH)
my $python = -x '/usr/bin/python3' ? '/usr/bin/python3' : 'python3';
plan skip_all => 'the reference needs python3-nacl and python3-cryptography'
  unless system($python, '-c', 'import nacl.hash, cryptography') == 0;
plan skip_all => 'building the vectors needs gcc and OpenSSL\'s headers (libssl-dev)'
  unless system('sh', '-c', 'command -v gcc >/dev/null && echo "#include <openssl/evp.h>" | gcc -E - >/dev/null 2>&1') == 0;

my $dir = PostgreSQL::Test::Utils::tempdir();

# run(COMMAND, STDIN): its output; fails the test if it fails
sub run
{
	my ($cmd, $in) = @_;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run($cmd, '<', \($in // ''), '>', \$out, '2>', \$err);
	ok($ok, "ran @$cmd[0 .. ($#$cmd < 1 ? $#$cmd : 1)]") or diag($err);
	return $out;
}
sub reference { return run([ $python, 'test/unit/public_id_reference.py', @_[ 0 .. $#_ - 1 ] ], $_[-1]); }

# FF1 against NIST's samples, SipHash-2-4 against python3-nacl
my $pg_config = sub { return pg_config_value('pg_config', $_[0]); };
for my $variant ('', '-DFF1_WITHOUT_INT128')
{
	my @cc = ('gcc', '-std=gnu99', '-Wall', '-Wextra', '-Werror', '-DFRONTEND', '-DUUIDV7_USE_OPENSSL');
	push @cc, $variant if $variant;
	run([ @cc, '-isystem', $pg_config->('includedir-server'), '-isystem', $pg_config->('includedir') . '/internal',
		'-o', "$dir/vectors", 'test/unit/vectors.c', 'src/ff1.c', 'src/siphash.c', '-lcrypto' ]);
	note(run([ "$dir/vectors", 'ff1' ]));
}
note(run([ $python, 'test/unit/public_id_reference.py', 'nist' ]));
is( md5_hex(run([ "$dir/vectors", 'siphash' ])),
	md5_hex(run([ $python, '-c', 'import nacl.hash
key = bytes(range(16))
for n in range(64):
    print(nacl.hash.siphash24(bytes(range(n)), key=key).decode())' ])),
	"SipHash-2-4 of the reference's 64 messages equals libsodium's (python3-nacl)");

# test keys (not secrets): a key's hex must never show in any output
my @keys = qw(8d2f61c07a3be4195f0a6c27d3e8b41a 0f1e2d3c4b5a69788796a5b4c3d2e1f0 5c4d3e2f1a0b99887766554433221100);
my ($key1, $key2, $key3) = @keys;
sub leaks { my $n = () = $_[0] =~ /$key1|$key2|$key3/gi; return $n; }
# (the lines of TEXT that match, as grep -c counts them)
sub count_of { my ($re, $text) = @_; return scalar grep { /$re/ } split /\n/, $text; }

# every log format the server has, every statement, every debug message,
# and pg_stat_statements where the server has it
my $node = PostgreSQL::Test::Cluster->new('keys');
$node->init;
my $preload = -f $pg_config->('sharedir') . '/extension/pg_stat_statements.control' ? 'uuidv7,pg_stat_statements' : 'uuidv7';
my ($major) = $pg_config->('version') =~ /(\d+)/;
my $destinations = 'stderr,csvlog' . ($major >= 15 ? ',jsonlog' : '');
$node->append_conf('postgresql.conf', "shared_preload_libraries = '$preload'
uuidv7.public_id_key_file = 'uuidv7.keys'
log_statement = 'all'
log_min_messages = debug5
logging_collector = on
log_destination = '$destinations'
max_connections = 40
restart_after_crash = on
" . ($major >= 14 ? "min_dynamic_shared_memory = '1MB'\n" : ''));
my $key_file = $node->data_dir . '/uuidv7.keys';
# write_keys(LINES...): the key file, mode 0600
sub write_keys
{
	open my $fh, '>', "$key_file.new" or die;
	print $fh join("\n", '# keys of public ids', @_) . "\n";
	close $fh;
	chmod 0600, "$key_file.new";
	rename "$key_file.new", $key_file or die;
}
write_keys("* $key1");
$node->start;
# reload: and wait until the server has read the configuration again (the
# postmaster reads the key file then, before any later session starts)
sub reload
{
	my $before = $node->safe_psql('postgres', 'SELECT pg_conf_load_time()');
	$node->reload;
	$node->poll_query_until('postgres', "SELECT pg_conf_load_time() <> '$before'") or die 'no reload';
}

# sql(SQL, OPTIONS): its output, stopping at the first error; errors(SQL,
# OPTIONS): its errors then its output, every statement run (options: user,
# db, verbose)
sub params
{
	my (%o) = @_;
	my @p = ($o{user} ? ('-U', $o{user}) : ());
	push @p, '-v', 'VERBOSITY=verbose' if $o{verbose};
	return (extra_params => \@p);
}
sub sql
{
	my ($sql, %o) = @_;
	return $node->safe_psql($o{db} // 'postgres', $sql, params(%o));
}
sub errors
{
	my ($sql, %o) = @_;
	my ($out, $err) = ('', '');
	$node->psql($o{db} // 'postgres', $sql, stdout => \$out, stderr => \$err, on_error_stop => 0, params(%o));
	$err =~ s/^psql:<stdin>:\d+: //mg;
	return join "\n", grep { length } $err, $out;
}

sql('CREATE EXTENSION uuidv7');
sql('CREATE EXTENSION pg_stat_statements') if $preload =~ /pg_stat_statements/;

# each scheme against the independent implementation, on 2,000 fixed ids
my $ids = run([ $python, 'test/unit/public_id_bits.py', 'ids' ]);
my @ids = split /\n/, $ids;
sql('CREATE TABLE fixed (n serial, id uuid); INSERT INTO fixed (id) SELECT unnest(' . "'{" . join(',', @ids) . "}'::uuid[])");
for my $scheme ('ff1', 'uuidv47')
{
	is( md5_hex(sql("SET uuidv7.public_id_scheme = $scheme; SELECT uuidv7_to_public(id) FROM fixed ORDER BY n") . "\n"),
		md5_hex(reference($scheme, $key1, $ids)),
		"$scheme: the public ids of the 2,000 fixed ids equal the reference's");
	is( sql("SET uuidv7.public_id_scheme = $scheme;
			SELECT count(*) FILTER (WHERE uuidv7_from_public(uuidv7_to_public(id)) = id) FROM fixed"),
		2000, "$scheme: and back");
}

# two million generated ids per scheme
for my $scheme ('ff1', 'uuidv47')
{
	is( sql("SET uuidv7.public_id_scheme = $scheme;
			SELECT count(*), count(DISTINCT p), count(*) FILTER (WHERE uuidv7_from_public(p) = id),
				count(*) FILTER (WHERE substr(p::text, 15, 1) = '4' AND substr(p::text, 20, 1) IN ('8', '9', 'a', 'b'))
			FROM (SELECT id, uuidv7_to_public(id) AS p FROM (SELECT uuidv7_generate() AS id FROM generate_series(1, 2000000)) g) s"),
		'2000000|2000000|2000000|2000000',
		"$scheme: 2,000,000 ids: distinct public ids, all round-trip, all version 4 of the RFC variant");
}

# in parallel workers, the same public ids
my $parallel = sql(q{CREATE TABLE many AS SELECT uuidv7_generate() AS id FROM generate_series(1, 200000);
	ANALYZE many;
	SET uuidv7.public_id_scheme = ff1;
	SET max_parallel_workers_per_gather = 2;
	SET parallel_setup_cost = 0;
	SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0;
	EXPLAIN (COSTS OFF) SELECT sum(hashtext(uuidv7_to_public(id)::text)), count(*) FILTER (WHERE uuidv7_from_public(uuidv7_to_public(id)) = id) FROM many;
	SELECT 'parallel ' || sum(hashtext(uuidv7_to_public(id)::text)) || ' ' || count(*) FILTER (WHERE uuidv7_from_public(uuidv7_to_public(id)) = id) FROM many;
	SET max_parallel_workers_per_gather = 0;
	SELECT 'serial ' || sum(hashtext(uuidv7_to_public(id)::text)) || ' ' || count(*) FILTER (WHERE uuidv7_from_public(uuidv7_to_public(id)) = id) FROM many;});
my ($in_parallel) = $parallel =~ /^parallel (.*)$/m;
my ($in_serial) = $parallel =~ /^serial (.*)$/m;
is( count_of(qr/Gather/, $parallel) . ' ' . count_of(qr/Partial Aggregate/, $parallel) . " $in_parallel",
	"1 0 $in_serial",
	'a parallel plan makes its public ids in the leader (PARALLEL RESTRICTED), the serial plan\'s');
like($in_serial, qr/ 200000$/, 'all round-tripping');

# FF1 hides every bit; uuidv47, for contrast, sends 74 as they are
my $flipped = run([ $python, 'test/unit/public_id_bits.py', 'flip' ], $ids);
open my $fh, '>', "$dir/ids.txt" or die;
print $fh $ids;
close $fh;
{
	open my $f, '>', "$dir/flipped.txt" or die;
	print $f $flipped;
	close $f;
}
sql("CREATE TABLE flipped (n serial, id uuid); COPY flipped (id) FROM '$dir/flipped.txt'");
for my $scheme ('ff1', 'uuidv47')
{
	for my $table ('fixed', 'flipped')
	{
		open my $f, '>', "$dir/public-$table.txt" or die;
		print $f sql("SET uuidv7.public_id_scheme = $scheme; SELECT uuidv7_to_public(id) FROM $table ORDER BY n") . "\n";
		close $f;
	}
	my $out = '';
	IPC::Run::run([ $python, 'test/unit/public_id_bits.py', 'hides', "$dir/ids.txt",
			"$dir/public-fixed.txt", "$dir/public-flipped.txt" ], '>', \$out);
	# (0: every bit hidden; 3: bits shown; anything else: the script failed)
	my $verdict = $? >> 8;
	chomp $out;
	if ($scheme eq 'ff1')
	{
		is($verdict, 0, "ff1: every bit hidden: $out");
	}
	else
	{
		is($verdict, 3, "uuidv47, for contrast, fails that check: $out");
	}
}

# who sees what of the keys
sql('CREATE ROLE regress_app LOGIN; CREATE ROLE regress_monitor LOGIN; GRANT pg_monitor TO regress_monitor');
my $seen = q{SHOW uuidv7.public_id_key_file;
	SELECT 'state: ' || fingerprints::text FROM uuidv7_public_id_state();
	SELECT 'pg_settings rows: ' || count(*) FROM pg_settings WHERE name = 'uuidv7.public_id_key_file';
	SELECT 'doctor: ' || count(*) FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%';
	SELECT 'public id: ' || (uuidv7_to_public(uuidv7_min('2025-01-01')) IS NOT NULL);};
my $out = errors($seen, user => 'regress_app');
note($out);
is( leaks($out) . ' ' . count_of(qr/^ERROR/, $out) . ' ' . count_of(qr/^(pg_settings rows: 0|doctor: 0|public id: true)$/, $out),
	'0 2 3', 'a plain role: no SHOW, no state, no pg_settings row, nothing from the doctor about keys; encodes');
$out = errors($seen, user => 'regress_monitor');
note($out);
is( leaks($out) . ' '
	  . count_of(qr/^uuidv7.keys \(fingerprints [0-9a-f]{8}\)$/, $out) . ' '
	  . count_of(qr/^state: \{[0-9a-f]{8}\}$/, $out),
	'0 1 1', 'a pg_monitor member (pg_read_all_settings): the file and a fingerprint, never a key');
is( count_of(
		qr/^ERROR/,
		errors("ALTER ROLE regress_app SET uuidv7.public_id_key_file = '/tmp/theirs';
			ALTER DATABASE postgres SET uuidv7.public_id_key_file = '/tmp/theirs';")),
	2, 'the key file is named only in the configuration files (ALTER ROLE / DATABASE SET refused)');

# a key file the server refuses: the keys in use kept, the log names the
# file and the rule
sql('SET uuidv7.public_id_scheme = ff1; CREATE TABLE before AS SELECT n, uuidv7_to_public(id) AS p FROM fixed');
my $unchanged = 'SET uuidv7.public_id_scheme = ff1;
	SELECT count(*) FROM fixed f JOIN before b USING (n) WHERE uuidv7_to_public(f.id) = b.p';
# (after the rotation below) the public ids made before it that still decode
# under the key that is now second
my $unchanged_under_first = 'SET uuidv7.public_id_scheme = ff1;
	SELECT count(*) FROM fixed f JOIN before b USING (n) WHERE (uuidv7_from_public_all(b.p))[2] = f.id';
chmod 0640, $key_file;
reload();
my $refused = sql('SELECT refused FROM uuidv7_public_id_state()');
is(sql($unchanged) . ' ' . count_of(qr/group or world access/, $refused), '2000 1',
	"group-readable and owned by the server's user: refused, keys kept ($refused)");
write_keys("* $key1", 'postgres 0123');
reload();
$refused = sql(q{SELECT severity || ' ' || object || ': ' || problem FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%'});
note($refused);
is( leaks($refused) . ' ' . sql($unchanged) . ' '
	  . count_of(qr/^error uuidv7.public_id_key_file: the key file uuidv7.keys was refused \(the key on line 3 is not 32 hexadecimal digits\)/,
		$refused),
	'0 2000 1', 'a malformed line: refused, keys kept, the doctor names the line, not its text');
# (the logging collector writes what the postmaster logged)
my $logs = sub { return join '', map { slurp_file($_) } glob($node->data_dir . '/log/*.log'); };
my $logged = 0;
for (1 .. 100)
{
	$logged = count_of(qr/uuidv7 refused the public id key file "uuidv7.keys"/, $logs->());
	last if $logged >= 2;
	sleep 0.1;
}
is($logged, 2, 'the postmaster logged each refusal once, naming the file');

# a new key, the old one second: every public id changes, the old ones still read
write_keys("* $key2", "* $key1");
reload();

# one key set a transaction: a reload in the middle of one (the session
# reads the configuration again before its next statement) changes none of
# its public ids; the next transaction takes the new keys
{
	local $ENV{UUIDV7_KEY_FILE} = $key_file;
	local $ENV{UUIDV7_NEXT_KEY} = $key3;
	my $ids = sql(q{SET uuidv7.public_id_scheme = ff1;
		BEGIN;
		SELECT 'first ' || uuidv7_to_public(id) FROM fixed WHERE n = 1;
		\! printf '* %s\n' "$UUIDV7_NEXT_KEY" > "$UUIDV7_KEY_FILE.new" && chmod 600 "$UUIDV7_KEY_FILE.new" && mv "$UUIDV7_KEY_FILE.new" "$UUIDV7_KEY_FILE"
		SELECT 'reloaded ' || pg_reload_conf();
		SELECT 'slept ' || pg_sleep(0.5);
		SELECT 'again ' || uuidv7_to_public(id) FROM fixed WHERE n = 1;
		COMMIT;
		SELECT 'next ' || uuidv7_to_public(id) FROM fixed WHERE n = 1;});
	my %id = $ids =~ /^(first|again|next) (\S+)$/mg;
	is( ($id{first} eq $id{again} ? 'same' : 'changed') . ' ' . ($id{first} eq $id{next} ? 'same' : 'changed'),
		'same changed',
		'a reload of other keys in the middle of a transaction changes none of its public ids; the next transaction\'s change');
	write_keys("* $key2", "* $key1");
	reload();
}

# the scheme too is the transaction's, taken with its keys at its first
# public id: another in the middle of it (a reload, a SET, a function's SET
# clause, a SET LOCAL rolled back since) is refused (55000), never followed
# nor ignored, either of which makes an id that does not read back; the
# next transaction takes the new one
{
	local $ENV{UUIDV7_CONNSTR} = $node->connstr('postgres');
	sql(q{CREATE FUNCTION uuidv47_public(u uuid) RETURNS uuid LANGUAGE sql STABLE
		SET uuidv7.public_id_scheme = uuidv47 AS $$ SELECT uuidv7_to_public(u) $$;
		CREATE FUNCTION try(q text) RETURNS text LANGUAGE plpgsql AS $$
		DECLARE r text;
		BEGIN EXECUTE q INTO r; RETURN r;
		EXCEPTION WHEN object_not_in_prerequisite_state THEN RETURN 'ERROR: ' || SQLERRM; END $$});
	my $v = sql('SELECT id FROM fixed WHERE n = 1');
	my %id = (
		ff1 => sql("SET uuidv7.public_id_scheme = ff1; SELECT uuidv7_to_public('$v')"),
		uuidv47 => sql("SET uuidv7.public_id_scheme = uuidv47; SELECT uuidv7_to_public('$v')"));
	my %seen = map { $id{$_} => $_ } keys %id;
	my $name = sub { my ($line) = @_; $line =~ s/([0-9a-f]{8}-[0-9a-f-]{27})/$seen{$1} \/\/ $1/ge; $line };
	my $try = "try('SELECT uuidv7_to_public(''$v'')')";
	my $out = sql(qq{BEGIN;
		SELECT 'first ' || $try;
		\\! psql -X -q -d "\$UUIDV7_CONNSTR" -c "ALTER SYSTEM SET uuidv7.public_id_scheme = uuidv47" -c "SELECT pg_reload_conf()" >/dev/null
		SELECT 'slept ' || pg_sleep(0.5);
		SELECT 'reloaded ' || $try;
		COMMIT;
		SELECT 'next ' || uuidv7_to_public('$v');});
	sql('ALTER SYSTEM RESET uuidv7.public_id_scheme');
	reload();
	$out .= "\n" . sql(qq{SET uuidv7.public_id_scheme = ff1;
		BEGIN;
		SELECT 'called ' || uuidv47_public('$v');
		SELECT 'after ' || $try;
		ROLLBACK;
		BEGIN;
		SAVEPOINT s;
		SET LOCAL uuidv7.public_id_scheme = uuidv47;
		SELECT 'local ' || uuidv7_to_public('$v');
		ROLLBACK TO s;
		SELECT 'rolled back ' || $try;
		ROLLBACK;
		SELECT 'then ' || uuidv7_to_public('$v');
		SELECT 'called ' || uuidv47_public('$v');});
	is( join("\n", map { $name->($_) } grep { /^(first|reloaded|next|called|after|local|rolled|then)/ } split /\n/, $out),
		join("\n",
			'first ff1',
			'reloaded ERROR: uuidv7.public_id_scheme changed in the middle of a transaction',
			'next uuidv47',
			'called uuidv47',
			'after ERROR: uuidv7.public_id_scheme changed in the middle of a transaction',
			'local uuidv47',
			'rolled back ERROR: uuidv7.public_id_scheme changed in the middle of a transaction',
			'then ff1',
			'called uuidv47'),
		'a scheme other than the transaction\'s, by a reload, a function\'s SET clause or a rolled-back SET LOCAL, is refused; the next transaction takes it');
	sql('DROP FUNCTION uuidv47_public(uuid), try(text)');
}

# postmaster_pid(): the postmaster's
sub postmaster_pid
{
	open my $pidfile, '<', $node->data_dir . '/postmaster.pid' or die;
	chomp(my $pid = <$pidfile>);
	return $pid;
}
# keys_in_memory(PID): how many of the keys are in the process's memory (its
# pages read through /proc, as the server's OS user may), how many of those
# are in a mapping that a core dump would hold (not marked "dd"), and which
# (1, 2, 3: of @keys)
sub keys_in_memory
{
	my ($pid) = @_;
	open my $maps, '<', "/proc/$pid/smaps" or return (-1, -1);
	open my $mem, '<:raw', "/proc/$pid/mem" or return (-1, -1);
	my ($found, $dumped, @which) = (0, 0);
	my %raw = map { $_ => pack('H*', $_) } @keys;
	my @mappings;
	while (my $line = <$maps>)
	{
		if ($line =~ /^([0-9a-f]+)-([0-9a-f]+) (\S+)/)
		{
			push @mappings, { from => $1, to => $2, perms => $3, flags => '' };
		}
		elsif ($line =~ /^VmFlags:(.*)$/ && @mappings)
		{
			$mappings[-1]{flags} = $1;
		}
	}
	for my $m (@mappings)
	{
		next unless $m->{perms} =~ /^r/;
		no warnings 'portable';
		my $size = hex($m->{to}) - hex($m->{from});
		next if $size > 256 * 1024 * 1024;
		seek($mem, hex($m->{from}), 0) or next;
		my $bytes = '';
		defined(sysread($mem, $bytes, $size)) or next;
		my $here = grep { index($bytes, $raw{$_}) >= 0 } @keys;
		push @which, grep { index($bytes, $raw{$keys[$_ - 1]}) >= 0 } 1 .. @keys;
		$found += $here;
		$dumped += $here if $m->{flags} !~ /\bdd\b/;
	}
	my %seen;
	return ($found, $dumped, join(',', grep { !$seen{$_}++ } sort @which));
}
# the keys are kept as ssl_key_file's: in the postmaster's private memory,
# inherited by every process it starts, and left out of core dumps (the
# memory of a session, of the postmaster, of the checkpointer)
SKIP:
{
	my $backend = IPC::Run::start([ 'psql', '-X', '-q', '-d', $node->connstr('postgres'),
			'-c', 'SELECT pg_sleep(30)' ], '>', \my $sleep_out, '2>', \my $sleep_err);
	$node->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)'")
	  or die 'no sleeping session';
	# (a session that made and read public ids with both keys, in
	# transactions now ended: the AES contexts derived from them are freed)
	my $user = IPC::Run::start([ 'psql', '-X', '-q', '-d', $node->connstr('postgres'),
			'-c', 'SET uuidv7.public_id_scheme = ff1',
			'-c', 'SELECT count(*) FROM fixed WHERE id = ANY (uuidv7_from_public_all(uuidv7_to_public(id)))',
			'-c', 'SELECT pg_sleep(31)' ], '>', \my $user_out, '2>', \my $user_err);
	$node->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(31)'")
	  or die 'no sleeping session';
	my $pid = sql("SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)'");
	my $used = sql("SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(31)'");
	my $checkpointer = sql("SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'");
	my $postmaster = postmaster_pid();
	my @found = map { my @k = keys_in_memory($_); "$k[0]/$k[1]" } $pid, $used, $postmaster, $checkpointer;
	$backend->kill_kill;
	$user->kill_kill;
	skip("cannot read /proc/$pid/mem", 1) if $found[0] =~ /^-1/;
	is("@found", '2/0 2/0 2/0 2/0',
		'the two keys in the memory of a session, of one that used them, of the postmaster and of the checkpointer, none where a core dump would hold it');
}
is( sql('SET uuidv7.public_id_scheme = ff1;
		SELECT count(*) FILTER (WHERE uuidv7_to_public(f.id) = b.p),
			   count(*) FILTER (WHERE uuidv7_from_public(uuidv7_to_public(f.id)) = f.id),
			   count(*) FILTER (WHERE (uuidv7_from_public_all(b.p))[2] = f.id),
			   count(*) FILTER (WHERE f.id = ANY (uuidv7_from_public_all(b.p)))
		FROM fixed f JOIN before b USING (n)'),
	'0|2000|2000|2000',
	'after the edit and a reload: 0 of 2,000 public ids unchanged, all new ones round-trip, all old ones read back under the second key');
my $doctor = sql(q{SELECT severity || ' ' || object || ': ' || problem FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%'},
	user => 'regress_monitor');
is( leaks($doctor) . ' '
	  . count_of(qr/^notice uuidv7.public_id_key_file: 2 keys for this database \(fingerprints [0-9a-f]{8},[0-9a-f]{8}\)/, $doctor),
	'0 1', 'uuidv7_doctor() tells a pg_read_all_settings member of the rotation by fingerprints');

# one set of keys for every process, the last reload's: an edit without a
# reload changes nothing, for new sessions and parallel workers alike (each
# inherits the keys the postmaster read at the last reload)
write_keys("* $key3");
my @same = split /\n/, sql(q{SET uuidv7.public_id_scheme = ff1;
	SET parallel_setup_cost = 0;
	SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0;
	SET parallel_leader_participation = off;
	SET max_parallel_workers_per_gather = 0;
	SELECT sum(hashtext(uuidv7_to_public(id)::text)) FROM many;
	SET max_parallel_workers_per_gather = 2;
	SELECT sum(hashtext(uuidv7_to_public(id)::text)) FROM many;
	SELECT count(*) FROM fixed f JOIN before b USING (n) WHERE (uuidv7_from_public_all(b.p))[2] = f.id;
	SELECT array_to_string(fingerprints, ',') FROM uuidv7_public_id_state();
	SET } . ($major >= 16 ? 'debug_parallel_query' : 'force_parallel_mode') . q{ = on;
	SELECT array_to_string(fingerprints, ',') FROM uuidv7_public_id_state();});
is("$same[0] $same[2] $same[3]", "$same[1] 2000 $same[4]",
	'after an edit of the file without a reload, a new session and parallel workers use the keys of the last reload (a worker does not read the file as it starts)');
write_keys("* $key2", "* $key1");
reload();

# a crash of a backend: the sessions after it take the keys the postmaster
# holds
# crash_a_backend(): a backend killed, and the server back after its
# restart
sub crash_a_backend
{
	my $victim = IPC::Run::start([ 'psql', '-X', '-q', '-d', $node->connstr('postgres'),
			'-c', 'SELECT pg_sleep(60)' ], '>', \my $victim_out, '2>', \my $victim_err);
	$node->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'")
	  or die 'no sleeping session';
	kill 'KILL', sql("SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'");
	$victim->finish;
	$node->poll_query_until('postgres', 'SELECT 1', '1') or die 'no restart';
}
my $before_crash = sql($unchanged_under_first);
crash_a_backend();
is($before_crash . ' ' . sql($unchanged_under_first), '2000 2000',
	'after a crash and the restart, the same keys, read again');

# a file refused at a reload right after the one that accepted it, before
# any session read the keys: those keys stay in use, and after a crash too
# (the keys before them, key3's, read by a session, are not taken instead)
write_keys("* $key3");
reload();
my $under_key3 = sql("SET uuidv7.public_id_scheme = ff1; SELECT uuidv7_to_public(id) FROM fixed WHERE n = 1");
write_keys("* $key2", "* $key1");
reload();
write_keys("* $key2", "* $key1", 'junk');
reload();
my $refused_kept = sql($unchanged_under_first);
crash_a_backend();
is($refused_kept . ' ' . sql($unchanged_under_first), '2000 2000',
	'a file refused before any session read the keys accepted before: those stay in use, after a crash too');
# another file named: one reload switches to it; no file named: one reload
# turns public ids off and wipes the keys (none left in the postmaster's
# memory); named again: on at once
write_keys("* $key2", "* $key1");
my $other = $node->data_dir . '/other.keys';
open my $ofh, '>', $other or die;
print $ofh "* $key3\n";
close $ofh;
chmod 0600, $other;
sql("ALTER SYSTEM SET uuidv7.public_id_key_file = 'other.keys'");
reload();
my $switched = sql("SET uuidv7.public_id_scheme = ff1; SELECT uuidv7_to_public(id) = '$under_key3' FROM fixed WHERE n = 1");
sql("ALTER SYSTEM SET uuidv7.public_id_key_file = ''");
reload();
my $off = errors('SET uuidv7.public_id_scheme = ff1; SELECT uuidv7_to_public(id) FROM fixed WHERE n = 1');
my ($left_off) = keys_in_memory(postmaster_pid());
sql("ALTER SYSTEM SET uuidv7.public_id_key_file = 'uuidv7.keys'");
reload();
unlink $other;
is( join(' ', $switched, count_of(qr/public ids are off|no key/, $off), $left_off, sql($unchanged_under_first)),
	't 1 0 2000',
	"one reload switches to another file; one turns public ids off, no key left in the postmaster's memory; one turns them on again");

# a role's function marked PARALLEL SAFE cannot let a parallel worker take
# keys of its own
my $in_worker = errors(q{SET uuidv7.public_id_scheme = ff1;
	CREATE FUNCTION pub(u uuid) RETURNS uuid LANGUAGE plpgsql PARALLEL SAFE AS $$ BEGIN RETURN uuidv7_to_public(u); END $$;
	SET parallel_setup_cost = 0;
	SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0;
	SET max_parallel_workers_per_gather = 2;
	SET parallel_leader_participation = off;
	SELECT count(pub(id)) FROM many;
	DROP FUNCTION pub(uuid);});
is(count_of(qr/^ERROR:  cannot make or read public ids in a parallel worker/, $in_worker), 1,
	'public ids asked of a parallel worker (through a function mislabelled PARALLEL SAFE): refused');

# files refused without harm: empty, a FIFO (never waited on), and a name
# longer than any path, shown and listed in pg_settings
my $started = sql('SELECT pg_postmaster_start_time()');
open $fh, '>', $key_file or die;
close $fh;
reload();
is(sql($unchanged_under_first) . ' ' . sql('SELECT refused FROM uuidv7_public_id_state()'), '2000 it holds no key',
	'an empty key file: refused, keys kept');
my $fifo = "$dir/fifo";
system('mkfifo', $fifo) == 0 or die;
sql("ALTER SYSTEM SET uuidv7.public_id_key_file = '$fifo'");
reload();
my $fifo_out = '';
IPC::Run::run([ 'psql', '-X', '-At', '-d', $node->connstr('postgres'), '-c', 'SELECT refused FROM uuidv7_public_id_state()' ],
	'>', \$fifo_out, IPC::Run::timeout(10));
chomp $fifo_out;
is($fifo_out, 'it is not a regular file', 'a FIFO: refused at once, keys kept');
my $long = ('./' x 900) . 'uuidv7.keys';
sql("ALTER SYSTEM SET uuidv7.public_id_key_file = '$long'");
reload();
my $shown = errors('SHOW uuidv7.public_id_key_file; SELECT count(*) FROM pg_settings;
	SELECT uuidv7_to_public(uuidv7_min(\'2025-01-01\')) IS NOT NULL', user => 'regress_monitor');
is( count_of(qr/^\Q$long\E \(fingerprints [0-9a-f]*,[0-9a-f]*; last reading refused: .*\)$/, $shown) . ' '
	  . (split /\n/, $shown)[-1] . ' '
	  . (sql('SELECT pg_postmaster_start_time()') eq $started ? 'same postmaster' : 'restarted'),
	'1 t same postmaster', 'a name of 1,800 characters is shown whole, and nothing breaks');
sql("ALTER SYSTEM SET uuidv7.public_id_key_file = 'uuidv7.keys'");
write_keys("* $key2", "* $key1");
reload();

# keys scoped to a database
sql('CREATE DATABASE other');
sql('CREATE DATABASE third');
write_keys("* $key2", "* $key1", "other $key3");
reload();
sql('CREATE EXTENSION uuidv7', db => $_) for ('other', 'third');
my ($public_id, $v7) = split / /, sql("SELECT uuidv7_to_public(id) || ' ' || id FROM fixed WHERE n = 1");
is( sql("SET uuidv7.public_id_scheme = ff1;
		SELECT uuidv7_from_public('$public_id') = '$v7', '$v7' = ANY (uuidv7_from_public_all('$public_id'))", db => 'other')
	  . ' '
	  . sql("SET uuidv7.public_id_scheme = ff1; SELECT uuidv7_from_public('$public_id') = '$v7'", db => 'third'),
	'f|f t',
	'a public id of postgres does not decode to its v7 in a database with a key of its own, and does in one that shares *');
like(
	join(' ', map { sql("SELECT array_to_string(fingerprints, ',') FROM uuidv7_public_id_state()", db => $_) } 'postgres', 'other'),
	qr/^[0-9a-f]{8},[0-9a-f]{8} [0-9a-f]{8}$/,
	'each database sees the fingerprints of its own keys only');
# a session keeps its own database's keys only, once it needs one: the
# others it inherited from the postmaster are wiped
SKIP:
{
	my $session = IPC::Run::start([ 'psql', '-X', '-q', '-d', $node->connstr('other'),
			'-c', "SET uuidv7.public_id_scheme = ff1; SELECT uuidv7_to_public('$v7')", '-c', 'SELECT pg_sleep(30)' ],
		'>', \my $session_out, '2>', \my $session_err);
	$node->poll_query_until('postgres', "SELECT count(*) = 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)'")
	  or die 'no sleeping session';
	my (undef, undef, $which) = keys_in_memory(sql("SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)'"));
	my (undef, undef, $in_postmaster) = keys_in_memory(postmaster_pid());
	$session->kill_kill;
	skip('cannot read /proc', 1) if $which eq '';
	is("$which $in_postmaster", '3 1,2,3',
		"a session of a database with a key of its own holds that key alone; the postmaster holds the file's");
}

# a database without a key: a call refused for it takes nothing, so that
# the next, after a savepoint rolled back another scheme, is refused for the
# same reason, not for a change of scheme (before: "changed in the middle
# of a transaction", of ids never made)
write_keys("other $key3");
reload();
my $no_key = errors(q{BEGIN;
	SAVEPOINT a;
	SET LOCAL uuidv7.public_id_scheme = uuidv47;
	SELECT uuidv7_to_public('0190a0b1-2c3d-7e4f-8a1b-2c3d4e5f6a7b');
	ROLLBACK TO a;
	SELECT uuidv7_to_public('0190a0b1-2c3d-7e4f-8a1b-2c3d4e5f6a7b');
	ROLLBACK;}, db => 'third');
is( count_of(qr/ERROR:  no key for public ids in this database/, $no_key) . ' '
	  . count_of(qr/changed in the middle/, $no_key),
	'2 0', 'no key, then no key again after a rolled-back SET LOCAL: not a change of scheme');
write_keys("* $key2", "* $key1", "other $key3");
reload();

# a plain role's statements are logged as any other's
errors('/* public_id_keys */ SELECT 1 AS public_id_keys; SELECT 1/0 AS public_id_keys;', user => 'regress_app');
my $statements = 0;
for (1 .. 100)
{
	$statements = count_of(qr{statement: /\* public_id_keys \*/ SELECT 1 AS public_id_keys|STATEMENT:  SELECT 1/0 AS public_id_keys},
		$logs->());
	last if $statements >= 2;
	sleep 0.1;
}
is($statements, 2, 'statements of a role that name public_id_keys are in the log, their error too');

# lookups by public id are index scans, under row-level security too
sql(q{CREATE TABLE orders (id uuid7 PRIMARY KEY DEFAULT uuidv7_generate(), owner name NOT NULL DEFAULT current_user, total int);
	INSERT INTO orders (total) SELECT g FROM generate_series(1, 20000) g;
	ALTER TABLE orders ENABLE ROW LEVEL SECURITY;
	CREATE POLICY own ON orders USING (owner = current_user);
	GRANT SELECT ON orders TO regress_app;
	UPDATE orders SET owner = 'regress_app' WHERE total % 2 = 0;
	ANALYZE orders});
my $wanted = sql('SELECT uuidv7_to_public(id) FROM orders WHERE total = 4242');
for my $who (undef, 'regress_app')
{
	my $plan = sql("SET plan_cache_mode = force_generic_plan;
		PREPARE by_public(uuid) AS SELECT total FROM orders WHERE id = uuidv7_from_public(\$1);
		EXPLAIN (COSTS OFF) EXECUTE by_public('$wanted');
		EXECUTE by_public('$wanted');", ($who ? (user => $who) : ()));
	is(count_of(qr/Index Scan using orders_pkey/, $plan) . ' ' . (split /\n/, $plan)[-1], '1 4242',
		($who // 'the superuser') . ': WHERE id = uuidv7_from_public($1) (generic plan) is an index scan and finds the row');
}

# bad input
is( join("\n", grep { /^(ERROR|DETAIL|t$)/ } split /\n/, errors(q{SELECT uuidv7_to_public('8d2f61c0-7a3b-4419-9f0a-6c27d3e8b41a');
		SELECT uuidv7_to_public('8d2f61c0-7a3b-7419-cf0a-6c27d3e8b41a');
		SELECT uuidv7_from_public('01936b2e-1e85-7000-8000-000000000000');
		SELECT uuidv7_from_public_all('01936b2e-1e85-4000-0000-000000000000');
		SELECT uuidv7_to_public(NULL) IS NULL;}, verbose => 1)),
	'ERROR:  22023: only a version 7 UUID has a public id
DETAIL:  "8d2f61c0-7a3b-4419-9f0a-6c27d3e8b41a" is of version 4.
ERROR:  22023: only a version 7 UUID has a public id
DETAIL:  "8d2f61c0-7a3b-7419-cf0a-6c27d3e8b41a" is not of the RFC 9562 variant.
ERROR:  22023: a public id is a version 4 UUID
DETAIL:  "01936b2e-1e85-7000-8000-000000000000" is of version 7.
ERROR:  22023: a public id is a version 4 UUID
DETAIL:  "01936b2e-1e85-4000-0000-000000000000" is not of the RFC 9562 variant.
t', 'errors (22023, the value and its version), NULL for NULL');

# no key's bytes anywhere but the key file
sql('CHECKPOINT');
my $views = errors("SELECT string_agg(coalesce(query, ''), ' ') FROM pg_stat_activity;
	SELECT string_agg(name || '=' || coalesce(setting, ''), ' ') FROM pg_settings;", user => 'regress_monitor')
  . errors("SELECT string_agg(name || '=' || coalesce(setting, ''), ' ') FROM pg_file_settings");
$views .= errors("SELECT string_agg(query, ' ') FROM pg_stat_statements", user => 'regress_monitor')
  if $preload =~ /pg_stat_statements/;
is(leaks($views), 0, "pg_stat_activity, pg_settings, pg_file_settings, pg_stat_statements ($preload) hold no key");
$node->stop;
my @needles = ((map { $_, uc $_ } @keys), map { pack 'H*', $_ } @keys);
my ($files, $hits, $control) = (0, 0, 0);
my @dirs = ($node->data_dir);
while (my $d = shift @dirs)
{
	opendir my $dh, $d or die;
	for my $name (grep { !/^\.\.?$/ } readdir $dh)
	{
		my $path = "$d/$name";
		if (-d $path && !-l $path) { push @dirs, $path; next; }
		next unless -f $path;
		my $data = slurp_file($path);
		my $found = grep { index($data, $_) >= 0 } @needles;
		if ($path eq $key_file) { $control = $found; next; }    # (the search finds them where they are)
		$files++;
		$hits += $found;
		diag("key bytes in $path") if $found;
	}
}
is("$hits $control", '0 3',
	"no key (hex, either case, or raw bytes) in any of the data directory's $files files but the key file, logs ($destinations) among them");

# without preloading
my $late = PostgreSQL::Test::Cluster->new('late');
$late->init;
$late->append_conf('postgresql.conf', "uuidv7.public_id_key_file = 'uuidv7.keys'\n");
open $fh, '>', $late->data_dir . '/uuidv7.keys' or die;
print $fh "* $key1\n";
close $fh;
chmod 0600, $late->data_dir . '/uuidv7.keys';
$late->start;
$node = $late;
my $refusal = errors('CREATE EXTENSION uuidv7; SELECT uuidv7_to_public(uuidv7_generate());')
  . "\n" . errors(q{SELECT severity || ' ' || object || ': ' || problem FROM uuidv7_doctor() WHERE object LIKE 'uuidv7.public_id%'});
note($refusal);
is( count_of(qr/^ERROR:  public ids need uuidv7 in shared_preload_libraries/, $refusal) . ' '
	  . count_of(qr/^error uuidv7.public_id_key_file: a key file is set \(uuidv7.keys\) but uuidv7 is not in shared_preload_libraries/, $refusal)
	  . ' ' . leaks($refusal),
	'1 1 0', 'not preloaded: the functions refuse, saying why, and so does the doctor');
$late->stop;

done_testing();
