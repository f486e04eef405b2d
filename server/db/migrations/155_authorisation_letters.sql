-- Authorisation letters (授权书, issue 27): a company's signed PDF that authorises someone to use its seals.
--   member     an operator of the company may use the seals for the period (issued with the seal authorisation);
--   auto_sign  the platform seals automatically for the company, for flows from the given templates or API keys;
--   company    another company may use the seals for the period, once it accepts.
-- The PDF (signed with the company's certificate and official seal) stays as evidence after a revocation.
CREATE SEQUENCE authorisation_letter_seq;

CREATE TABLE authorisation_letters (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Shown to people: SQ-<year>-<6 digits>.
  number text NOT NULL UNIQUE,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('member', 'auto_sign', 'company')),
  grantee_user_id uuid REFERENCES users(id),
  grantee_company_id uuid REFERENCES companies(id),
  -- JSON arrays of ids.
  seal_ids jsonb NOT NULL,
  purpose text NOT NULL,
  template_ids jsonb NOT NULL DEFAULT '[]',
  api_key_ids jsonb NOT NULL DEFAULT '[]',
  valid_from timestamptz NOT NULL,
  valid_to timestamptz NOT NULL,
  -- NULL: no count limit.
  max_uses integer,
  used_count integer NOT NULL DEFAULT 0,
  -- pending: a company letter not accepted yet; active; revoked. Expiry and exhaustion are read from the dates
  -- and counts, not stored.
  status text NOT NULL CHECK (status IN ('pending', 'active', 'revoked')),
  pdf_key text NOT NULL,
  pdf_sha256 text NOT NULL,
  issued_by uuid NOT NULL REFERENCES users(id),
  -- How the issuer confirmed: {check: 'sms', phone (masked), codeSentAt, ip}.
  intent jsonb NOT NULL,
  -- The seal authorisation a member letter was issued with (seal module's seal_authorisations).
  seal_authorisation_id uuid,
  created_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by uuid REFERENCES users(id),
  revoked_at timestamptz,
  revoked_by uuid REFERENCES users(id),
  revoke_reason text,
  CHECK (max_uses IS NULL OR used_count <= max_uses)
);
CREATE INDEX authorisation_letters_company ON authorisation_letters (company_id, created_at DESC);
CREATE INDEX authorisation_letters_grantee_company ON authorisation_letters (grantee_company_id);
CREATE INDEX authorisation_letters_seal_auth ON authorisation_letters (seal_authorisation_id);
