-- A contract centre zip (migration 169) is a copy made for one download: kept CENTRE_ZIP_KEEP_DAYS after it is
-- ready, then `expired` by flow.sweep, which removes its file (the contracts themselves are never touched).
ALTER TABLE centre_zips DROP CONSTRAINT centre_zips_status_check;
ALTER TABLE centre_zips ADD CONSTRAINT centre_zips_status_check
  CHECK (status IN ('building', 'ready', 'failed', 'expired'));
CREATE INDEX centre_zips_ready ON centre_zips (finished_at) WHERE status = 'ready';
