-- test/data/upkeep_writer.sql: the pgbench script of an application writing to
-- table ev (id uuid7, client int, at timestamptz) while its partitions are
-- kept: five rows a transaction, each at a random millisecond of January to
-- June 2025 (181 days), as clients with their own clocks or a backfill send
-- them
BEGIN;
\set ms1 random(0, 15638399999)
INSERT INTO ev VALUES (uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + :ms1 * interval '1 millisecond'), :client_id, clock_timestamp());
\set ms2 random(0, 15638399999)
INSERT INTO ev VALUES (uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + :ms2 * interval '1 millisecond'), :client_id, clock_timestamp());
\set ms3 random(0, 15638399999)
INSERT INTO ev VALUES (uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + :ms3 * interval '1 millisecond'), :client_id, clock_timestamp());
\set ms4 random(0, 15638399999)
INSERT INTO ev VALUES (uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + :ms4 * interval '1 millisecond'), :client_id, clock_timestamp());
\set ms5 random(0, 15638399999)
INSERT INTO ev VALUES (uuidv7_generate_at('2025-01-01 00:00+00'::timestamptz + :ms5 * interval '1 millisecond'), :client_id, clock_timestamp());
END;
