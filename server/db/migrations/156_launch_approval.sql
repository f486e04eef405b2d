-- Launch approval (发起审批, issue 27): a company may require approval before a flow launched by a handler (any
-- member but its administrator, or one of its API keys) is sent. The request is a `seal_approvals` row of kind
-- `launch` (no seal, no party: it binds the flow and every document's version at launch); the flow is held
-- (`flows.held_for_approval`) until it is approved (sent) or rejected (cancelled). Owned by server/modules/approval
-- (launch_policies, seal_approvals) and server/modules/flow (flows.held_for_approval).
CREATE TABLE launch_policies (
  company_id uuid PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  mode text NOT NULL CHECK (mode IN ('none', 'one', 'all_in_order', 'all_any_order')),
  approver_ids uuid[] NOT NULL DEFAULT '{}',
  -- NULL: every launch; otherwise only contracts of at least this amount (fen) or without an amount.
  min_amount_fen bigint,
  -- NULL: every flow; otherwise only flows launched from these templates.
  template_ids uuid[],
  allow_self_approval boolean NOT NULL DEFAULT false,
  valid_hours integer NOT NULL,
  updated_by uuid REFERENCES users(id),
  updated_at timestamptz NOT NULL
);

ALTER TABLE seal_approvals ADD COLUMN kind text NOT NULL DEFAULT 'seal' CHECK (kind IN ('seal', 'launch'));
ALTER TABLE seal_approvals ALTER COLUMN seal_id DROP NOT NULL;
ALTER TABLE seal_approvals ALTER COLUMN party_id DROP NOT NULL;
ALTER TABLE seal_approvals ADD CONSTRAINT seal_approvals_kind_shape
  CHECK ((kind = 'seal') = (seal_id IS NOT NULL AND party_id IS NOT NULL));
-- One launch request per flow.
CREATE UNIQUE INDEX seal_approvals_one_launch ON seal_approvals (flow_id) WHERE kind = 'launch';

-- A flow waiting for its launch approval: stored, quota reserved, no links sent yet.
ALTER TABLE flows ADD COLUMN held_for_approval boolean NOT NULL DEFAULT false;
