-- Person accounts: real-name identity, certificate usage agreement, face-recognition sessions and
-- account recovery tickets. The ID number itself is never stored: id_hash is HMAC-SHA256 under a key
-- derived from ESIGN_MASTER_KEY (the same value as the certificate's subject serialNumber) and
-- id_masked keeps only the first 6 and last 4 characters for display.
CREATE TABLE person_identities (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  real_name text NOT NULL,
  id_hash text NOT NULL,
  id_masked text NOT NULL,
  -- The phone the check was made with, masked (first 3 + last 4).
  phone_masked text NOT NULL,
  provider text NOT NULL,
  verified_at timestamptz NOT NULL,
  face_verified_at timestamptz
);
-- One account per person: a second account with the same identity must use account recovery instead.
CREATE UNIQUE INDEX person_identities_id_hash ON person_identities (id_hash);

-- Every acceptance of a version of the certificate usage agreement.
CREATE TABLE person_agreements (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  version text NOT NULL,
  accepted_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, version)
);

-- One face-recognition attempt. Only the provider's signed callback moves it out of 'pending'; the
-- browser holds the token (only its SHA-256 is stored) to ask for the result.
CREATE TABLE face_auth_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  person_code text NOT NULL UNIQUE,
  token_hash text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  open_flag text NOT NULL,
  business_code text,
  device_type text,
  sign_url text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'passed', 'failed')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  decided_at timestamptz
);
CREATE INDEX face_auth_sessions_user ON face_auth_sessions (user_id, created_at DESC);

-- A verified identity re-check on a new phone, waiting for recoverAccountFinish (ticket hash only).
CREATE TABLE account_recoveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  ticket_hash text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  new_phone text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
