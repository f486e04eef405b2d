-- Foundation: people who can log in, their server-side sessions, SMS codes and their locks.
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  phone text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  name text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Only a SHA-256 of the sid cookie is stored: a leaked table does not hand out live sessions.
CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  sid_hash text NOT NULL UNIQUE,
  token text NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  user_type integer NOT NULL,
  company_id uuid,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  ended_at timestamptz,
  ended_reason text CHECK (ended_reason IN ('logout', 'evicted', 'password_reset', 'disabled', 'timeout'))
);
CREATE INDEX sessions_user_live ON sessions (user_id, created_at) WHERE ended_at IS NULL;

CREATE TABLE sms_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  phone text NOT NULL,
  purpose text NOT NULL,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX sms_codes_phone_purpose ON sms_codes (phone, purpose, created_at DESC);

-- Wrong codes per phone; SMS_MAX_WRONG of them lock the phone's codes until locked_until.
CREATE TABLE sms_locks (
  phone text PRIMARY KEY,
  failures integer NOT NULL DEFAULT 0,
  locked_until timestamptz
);
