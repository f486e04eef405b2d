-- Seal governance (issue 27): a company's administrator names the keepers of each company seal. A keeper
-- (a member holding the seal_keeper role, company_member_roles) enables and disables the seals they keep and
-- authorises them to handlers; losing the role ends every keeping at once (checked on each call).
CREATE TABLE seal_keepers (
  seal_id uuid NOT NULL REFERENCES seals(id) ON DELETE CASCADE,
  -- The seal's company, repeated so every query is scoped by the caller's company.
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  granted_by uuid REFERENCES users(id),
  granted_at timestamptz NOT NULL,
  PRIMARY KEY (seal_id, user_id)
);
CREATE INDEX seal_keepers_user ON seal_keepers (company_id, user_id);
