-- Seals of persons and companies, and the authorisation of company seals to operators.
-- Images live in the BlobStore (content-addressed); a row holds their keys.
CREATE TABLE seals (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- 0: owner_id is users.id (person seal); 1: owner_id is companies.id (company seal).
  owner_type integer NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  -- SPEC §3 type codes for company seals; NULL for person seals.
  seal_type integer CHECK (seal_type IN (1, 101, 102, 103, 104, 105, 99)),
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('generated', 'uploaded', 'drawn')),
  status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  -- The SealDef (generated seals only), so the seal can be rendered again.
  definition jsonb,
  svg_key text,
  png_key text NOT NULL,
  -- One-page PDF the signer embeds as the visible appearance.
  pdf_key text NOT NULL,
  width_mm real NOT NULL,
  height_mm real NOT NULL,
  -- Printed on the seal and checkable publicly; unique over every seal ever made (deleted ones too).
  anti_counterfeit_no text UNIQUE,
  created_by uuid NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  -- Deleted seals stay as rows: documents signed with them still name them.
  deleted_at timestamptz,
  CHECK ((owner_type = 1) = (seal_type IS NOT NULL)),
  CHECK ((kind = 'generated') = (definition IS NOT NULL AND svg_key IS NOT NULL))
);
CREATE INDEX seals_owner ON seals (owner_type, owner_id, created_at DESC) WHERE deleted_at IS NULL;

CREATE TABLE seal_authorisations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seal_id uuid NOT NULL REFERENCES seals(id) ON DELETE CASCADE,
  -- The seal's company, repeated so every query can be scoped by the caller's company.
  company_id uuid NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  valid_from timestamptz NOT NULL,
  valid_to timestamptz NOT NULL,
  created_by uuid NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_by uuid REFERENCES users(id),
  CHECK (valid_to > valid_from)
);
CREATE INDEX seal_authorisations_seal ON seal_authorisations (seal_id) WHERE revoked_at IS NULL;
CREATE INDEX seal_authorisations_user ON seal_authorisations (company_id, user_id) WHERE revoked_at IS NULL;
