-- Seal governance (issue 27): a company's members hold roles beside membership. `admin` stays
-- company_members.role (one per company); the others are granted here, any number per member:
--   handler      launches contracts and signs for the company with the seals authorised to them;
--   seal_keeper  manages the seals they keep (seal module: seal_keepers);
--   approver     approves the use of seals whose policy names them.
CREATE TABLE company_member_roles (
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('handler', 'seal_keeper', 'approver')),
  -- NULL: granted by this migration (every operator was a handler before roles existed).
  granted_by uuid REFERENCES users(id),
  granted_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, user_id, role)
);
CREATE INDEX company_member_roles_role ON company_member_roles (company_id, role);

-- Every operator so far launched and signed: each keeps that as the handler role.
INSERT INTO company_member_roles (company_id, user_id, role, granted_by, granted_at)
  SELECT company_id, user_id, 'handler', NULL, now() FROM company_members
  WHERE role = 'operator' AND status IN ('active', 'disabled', 'pending');

-- The company's audit trail now records more than membership steps: role changes, seal policies, approvals,
-- authorisation letters, grants and hand-overs. `subject_user_id` is the member concerned, `detail` what changed.
ALTER TABLE company_events ADD COLUMN subject_user_id uuid REFERENCES users(id);
ALTER TABLE company_events ADD COLUMN detail jsonb;
