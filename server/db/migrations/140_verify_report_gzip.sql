-- Issue 16: a hostile PDF with thousands of signature fields yields a report of several MB. Parsed as jsonb
-- inside PGlite (PostgreSQL in WebAssembly, whose memory never shrinks), one such report kept ~45 MB of the
-- process resident for good. The server now stores each report gzip-compressed (a 5.6 MB report of that kind
-- is 58 KB, a usual one well under 1 KB), so the database never parses it. Rows written before this keep their
-- jsonb `result` until they expire (an hour) and are read as before.
ALTER TABLE verify_reports ADD COLUMN result_gzip bytea;
ALTER TABLE verify_reports ALTER COLUMN result DROP NOT NULL;
ALTER TABLE verify_reports ADD CONSTRAINT verify_reports_has_result
  CHECK (result IS NOT NULL OR result_gzip IS NOT NULL);
