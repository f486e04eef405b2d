-- Verification reports (server/modules/verify): kept for one hour after a verification so that the page can
-- be reloaded and the report downloaded as JSON or PDF, then deleted. Only the report is kept, never the file.
CREATE TABLE verify_reports (
  id uuid PRIMARY KEY,
  -- 'upload' (a file someone checked) or 'platform' (a platform document opened by its verification code).
  source text NOT NULL CHECK (source IN ('upload', 'platform')),
  verification_code text,
  -- The presentation shape of contract/calls/verify.ts (zVerifyResult) and, for 'platform', the document.
  result jsonb NOT NULL,
  document jsonb,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX verify_reports_expires ON verify_reports (expires_at);
