-- Partner and central-platform login (server/modules/partner).

-- A partner user (partner code + its user id) is linked to one account here, and an account to at most one
-- user of each partner: a second partner user claiming the same phone is refused rather than merged.
CREATE TABLE partner_links (
  partner_code text NOT NULL,
  partner_user_id text NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name text,
  created_at timestamptz NOT NULL,
  last_login_at timestamptz NOT NULL,
  PRIMARY KEY (partner_code, partner_user_id),
  UNIQUE (partner_code, user_id)
);

-- Every accepted partner token's jti, kept until the token could no longer pass the expiry check:
-- a second use of the same token finds its row and is refused.
CREATE TABLE partner_token_uses (
  partner_code text NOT NULL,
  jti text NOT NULL,
  used_at timestamptz NOT NULL,
  keep_until timestamptz NOT NULL,
  PRIMARY KEY (partner_code, jti)
);
CREATE INDEX partner_token_uses_keep_until ON partner_token_uses (keep_until);

-- Sessions started by a partner token: getLoginInfoFromJinshang answers who the session is over there.
CREATE TABLE partner_sessions (
  session_id uuid PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
  partner_code text NOT NULL,
  partner_user_id text NOT NULL
);

-- Accounts opened without a password by a partner token or a central-platform login: how each was made.
-- (users.password_hash holds the hash of a random secret nobody knows; the user may set a password by SMS.)
CREATE TABLE external_account_openings (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  via text NOT NULL CHECK (via IN ('partner', 'central')),
  partner_code text,
  created_at timestamptz NOT NULL
);
