-- Companies (enterprise e-signature accounts) and their members (administrator, operators).
CREATE TABLE companies (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  credit_code text NOT NULL,
  legal_rep_name text NOT NULL,
  applicant_user_id uuid NOT NULL REFERENCES users(id),
  applicant_role text NOT NULL CHECK (applicant_role IN ('legal_rep', 'agent')),
  -- BlobStore key of the power-of-attorney letter; required when the applicant is an agent.
  poa_blob_key text,
  poa_mime text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'rejected')),
  -- The verification provider's challenge (dev: a micro-payment amount), stored as a keyed hash only.
  payment_amount_hash text,
  payment_attempts integer NOT NULL DEFAULT 0,
  payment_sent_at timestamptz,
  -- Per-company invitation code (getExclusiveCode), made on first request.
  invite_code text UNIQUE,
  verified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- One verified company per credit code; pending applications may repeat (they are abandoned or redone).
CREATE UNIQUE INDEX companies_credit_code_verified ON companies (credit_code) WHERE status = 'verified';
CREATE INDEX companies_applicant ON companies (applicant_user_id, created_at DESC);

CREATE TABLE company_members (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('admin', 'operator')),
  status text NOT NULL CHECK (status IN ('pending', 'active', 'disabled', 'rejected', 'removed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (company_id, user_id)
);
-- A company has at most one administrator at a time.
CREATE UNIQUE INDEX company_members_one_admin ON company_members (company_id) WHERE role = 'admin' AND status = 'active';
CREATE INDEX company_members_user ON company_members (user_id);
