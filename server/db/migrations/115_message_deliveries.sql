-- Every message handed to a real provider (SMS gateway, SMTP): what became of it. Failures are what the
-- platform administrator's "message delivery" card lists (adminGetMessageFailures).
CREATE TABLE message_deliveries (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  channel text NOT NULL CHECK (channel IN ('sms', 'email')),
  provider text NOT NULL,
  to_addr text NOT NULL,
  purpose text NOT NULL,
  status text NOT NULL CHECK (status IN ('sent', 'failed')),
  -- temporary (retried, then given up) | throttled | invalid_phone | config | rejected
  failure_kind text,
  attempts integer NOT NULL,
  message_id text,
  request_id text,
  error_code text,
  error_message text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz NOT NULL
);
CREATE INDEX message_deliveries_failed ON message_deliveries (id DESC) WHERE status = 'failed';

-- Where a person's notices are also e-mailed, in which language and with which platform's brand.
ALTER TABLE users ADD COLUMN email text;
ALTER TABLE users ADD COLUMN email_lang text CHECK (email_lang IN ('zh', 'en'));
ALTER TABLE users ADD COLUMN email_platform text;
