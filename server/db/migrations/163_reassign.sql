-- Reassign (转交, issue 29): a party that should not sign hands its turn to someone else, with a reason; the
-- launcher can do the same. The launcher may forbid it per party at launch (allow_reassign). Each hand-over is
-- one row (who, to whom, why, by whom, when); the links the old signer held are remembered by hash only, so an
-- old link refuses with "handed over" rather than "invalid".
ALTER TABLE flow_parties ADD COLUMN allow_reassign boolean NOT NULL DEFAULT true;

CREATE TABLE party_reassignments (
  id uuid PRIMARY KEY,
  flow_id uuid NOT NULL REFERENCES flows(id),
  party_id uuid NOT NULL REFERENCES flow_parties(id),
  from_name text,
  from_phone text NOT NULL,
  to_name text,
  to_phone text NOT NULL,
  reason text NOT NULL,
  -- 'party' (the signer, from the room or their session) or 'launcher' (the flow detail).
  by_role text NOT NULL,
  by_user_id uuid,
  by_name text,
  at timestamptz NOT NULL
);
CREATE INDEX party_reassignments_flow ON party_reassignments (flow_id, at);

-- The links deleted by a reassignment (sha-256 of the code, as party_links).
CREATE TABLE reassigned_links (
  link_hash text PRIMARY KEY,
  reassignment_id uuid NOT NULL REFERENCES party_reassignments(id)
);
