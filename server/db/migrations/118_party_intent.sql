-- Issue 11: the intent check the launcher chose for each party (SMS code, face, or signing password).
ALTER TABLE flow_parties ADD COLUMN intent text NOT NULL DEFAULT 'sms' CHECK (intent IN ('sms', 'face', 'password'));
-- A passed face check confirms one signature only.
ALTER TABLE face_auth_sessions ADD COLUMN used_at timestamptz;
-- A person's signing password (argon2id hash, never the password), with its own wrong-attempt lock.
CREATE TABLE signing_passwords (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  password_hash text NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  updated_at timestamptz NOT NULL
);
