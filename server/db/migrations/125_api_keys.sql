-- Issue 13: API keys of the integrator REST API (/open/v1). A key belongs to an account (a person, or a
-- company with the administrator who made it) and acts as that account. Only the SHA-256 of the secret is
-- kept; `prefix` is the short visible start of the secret (shown in the list, never enough to use it).
CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  owner_type smallint NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  created_by uuid NOT NULL REFERENCES users(id),
  name text NOT NULL,
  scopes text[] NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_owner ON api_keys (owner_type, owner_id, created_at DESC);

-- The first answer to a POST sent with an Idempotency-Key, per API key, kept 24 hours: the same key with
-- the same body gets this answer again; with another body, a refusal.
CREATE TABLE api_idempotency (
  api_key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  idem_key text NOT NULL,
  request_hash text NOT NULL,
  status integer,
  answer jsonb,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (api_key_id, idem_key)
);
CREATE INDEX api_idempotency_created ON api_idempotency (created_at);
