-- Operators are invited, not added: an administrator invites a phone; only its owner's acceptance makes a
-- member. The phone need not be registered yet: the invitation waits for whoever registers with it.
CREATE TABLE company_invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  -- The invitee's phone (normalised, as users.phone); the invitee is whoever holds an account of it.
  phone text NOT NULL,
  -- The role the member gets on accepting (the administrator role only ever passes by hand-over).
  role text NOT NULL CHECK (role IN ('operator')),
  -- 'pending' past expires_at is shown and treated as expired (no sweep needed).
  status text NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'withdrawn')),
  invited_by uuid NOT NULL REFERENCES users(id),
  -- The account that accepted or declined.
  answered_by uuid REFERENCES users(id),
  sent_count integer NOT NULL DEFAULT 1,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- One live invitation per company and phone: inviting again sends the same one again.
CREATE UNIQUE INDEX company_invitations_one_pending ON company_invitations (company_id, phone) WHERE status = 'pending';
CREATE INDEX company_invitations_company ON company_invitations (company_id, created_at DESC);
CREATE INDEX company_invitations_phone ON company_invitations (phone, created_at DESC);

-- A company's audit trail of membership steps (invited, sent again, withdrawn, accepted, declined, expired).
-- Rows are only ever added.
CREATE TABLE company_events (
  id bigserial PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  kind text NOT NULL,
  -- Who did it (NULL: the system, e.g. an expiry noticed).
  actor_user_id uuid REFERENCES users(id),
  -- The phone concerned (the invitee's).
  phone text,
  invitation_id uuid,
  created_at timestamptz NOT NULL
);
CREATE INDEX company_events_company ON company_events (company_id, id DESC);
