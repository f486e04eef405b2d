-- Seal-use approval (用印审批, issue 27). A company seal's policy says whether each use needs approval and by
-- whom; a handler's request binds ONE flow party, ONE seal and the exact document versions it was asked for;
-- each approver's decision is one row. Owned by server/modules/approval (queries.ts).
CREATE TABLE seal_policies (
  seal_id uuid PRIMARY KEY REFERENCES seals(id) ON DELETE CASCADE,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  mode text NOT NULL CHECK (mode IN ('none', 'one', 'all_in_order', 'all_any_order')),
  -- In order: the order matters for all_in_order.
  approver_ids uuid[] NOT NULL DEFAULT '{}',
  -- NULL: every use; otherwise only contracts of at least this amount (fen).
  min_amount_fen bigint,
  -- NULL: every flow; otherwise only flows launched from these templates.
  template_ids uuid[],
  allow_self_approval boolean NOT NULL DEFAULT false,
  valid_hours integer NOT NULL,
  updated_by uuid REFERENCES users(id),
  updated_at timestamptz NOT NULL
);
CREATE INDEX seal_policies_company ON seal_policies (company_id);

CREATE TABLE seal_approvals (
  id uuid PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  seal_id uuid NOT NULL REFERENCES seals(id) ON DELETE CASCADE,
  flow_id uuid NOT NULL REFERENCES flows(id),
  party_id uuid NOT NULL REFERENCES flow_parties(id),
  requester_user_id uuid NOT NULL REFERENCES users(id),
  -- Copied from the policy when asked: a later policy change voids the request instead of changing it.
  mode text NOT NULL CHECK (mode IN ('one', 'all_in_order', 'all_any_order')),
  approver_ids uuid[] NOT NULL,
  allow_self_approval boolean NOT NULL,
  valid_hours integer NOT NULL,
  -- [{documentId, version, sha256, blobKey, name, pages}]: the versions that will be sealed.
  documents jsonb NOT NULL,
  -- What the approver is shown of the flow, as it was asked: {title, amountFen, partyStep, initiatorUserId,
  -- initiatorCompanyName}.
  flow_facts jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'void', 'used')),
  created_at timestamptz NOT NULL,
  -- Pending: when it lapses undecided; approved: until when it may be used.
  expires_at timestamptz NOT NULL,
  decided_at timestamptz,
  used_at timestamptz,
  -- document_changed, flow_ended (cancelled, declined, expired), policy_changed
  void_reason text
);
CREATE INDEX seal_approvals_party_seal ON seal_approvals (party_id, seal_id, created_at DESC);
CREATE INDEX seal_approvals_company ON seal_approvals (company_id, created_at DESC);
CREATE INDEX seal_approvals_flow ON seal_approvals (flow_id);
CREATE INDEX seal_approvals_requester ON seal_approvals (requester_user_id, created_at DESC);

CREATE TABLE seal_approval_decisions (
  approval_id uuid NOT NULL REFERENCES seal_approvals(id) ON DELETE CASCADE,
  approver_user_id uuid NOT NULL REFERENCES users(id),
  decision text NOT NULL CHECK (decision IN ('approve', 'reject')),
  comment text,
  at timestamptz NOT NULL,
  PRIMARY KEY (approval_id, approver_user_id)
);

-- One waiting request per party and seal: two requests at once make one (the second is answered the first).
CREATE UNIQUE INDEX seal_approvals_one_pending ON seal_approvals (party_id, seal_id) WHERE status = 'pending';
