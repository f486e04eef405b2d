-- A zip of selected contracts (issue 29, the contract centre): each flow's signed PDFs (current ones while not
-- complete) and audit report. Up to 20 flows are zipped in the request; more by the durable job
-- `flow.centreZip`, which counts its progress in `done`. The zip is a blob (blob_key) its account downloads.
CREATE TABLE centre_zips (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  owner_type integer NOT NULL,
  owner_id uuid NOT NULL,
  -- The selected flow ids, a JSON array, in the order chosen.
  flow_ids jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('building', 'ready', 'failed')),
  total integer NOT NULL,
  done integer NOT NULL DEFAULT 0,
  blob_key text,
  size bigint,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX centre_zips_user ON centre_zips (user_id, created_at DESC);

-- Search: the exact phone of a party (a full phone only), and the lists' order.
CREATE INDEX IF NOT EXISTS flow_parties_phone_flow ON flow_parties (phone, flow_id);
CREATE INDEX IF NOT EXISTS flows_owner_completed ON flows (owner_type, owner_id, completed_at DESC);
