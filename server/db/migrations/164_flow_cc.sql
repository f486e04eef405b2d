-- Copy recipients (抄送, issue 29): people who do not sign but receive the finished contract (and, when the
-- launcher chose it, each step's progress), with their own READ-ONLY links. Added at launch or by the
-- launcher to an open flow; never deleted.
CREATE TABLE flow_cc (
  id uuid PRIMARY KEY,
  flow_id uuid NOT NULL REFERENCES flows(id),
  -- The order the launcher gave.
  ord integer NOT NULL,
  name text NOT NULL,
  phone text NOT NULL,
  -- Told at launch and at each party's signature too (else only when the flow completes).
  notify_progress boolean NOT NULL,
  created_at timestamptz NOT NULL,
  -- The last time one of the recipient's links opened the read-only view.
  last_viewed_at timestamptz,
  UNIQUE (flow_id, phone)
);
CREATE INDEX flow_cc_phone ON flow_cc (phone, flow_id);

-- A recipient's read-only links, stored hashed like party links: a new one with each notice; every one stays
-- valid (an earlier message still opens the view).
CREATE TABLE flow_cc_links (
  link_hash text PRIMARY KEY,
  cc_id uuid NOT NULL REFERENCES flow_cc(id),
  created_at timestamptz NOT NULL
);
