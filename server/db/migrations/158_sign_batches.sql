-- Batch signing (issue 28): a person or a company handler signs many waiting flows with ONE intent check.
-- The batch is prepared (the parties chosen, the seals chosen once, the intent check the strictest of the
-- chosen parties' needs), started with the proof, then signed by the job `flow.signBatch`, one party at a
-- time through the signing room's own path; an item is claimed with a conditional UPDATE, so a resumed job
-- (after a crash) never signs a party twice.
CREATE TABLE sign_batches (
  id uuid PRIMARY KEY,
  -- Who signs, and the account they act for (0 person, 1 company: company_id).
  user_id uuid NOT NULL REFERENCES users(id),
  user_type integer NOT NULL,
  company_id uuid,
  -- prepared: waiting for the intent proof; running: signing; done: every item signed or failed.
  status text NOT NULL CHECK (status IN ('prepared', 'running', 'done')),
  total integer NOT NULL,
  signed integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  -- The intent check asked once: sms, password or face (the strictest of the parties').
  intent text NOT NULL CHECK (intent IN ('sms', 'password', 'face')),
  -- When the SMS code was sent (the sign entries name it), and when the proof was given.
  code_sent_at timestamptz,
  proven_at timestamptz,
  -- The seals or the drawn signature chosen once: {companySealId?, legalPersonSealId?, personSealId?, signaturePng?}.
  seal_choice jsonb NOT NULL,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX sign_batches_user ON sign_batches (user_id, created_at);

CREATE TABLE sign_batch_items (
  batch_id uuid NOT NULL REFERENCES sign_batches(id) ON DELETE CASCADE,
  flow_id uuid NOT NULL REFERENCES flows(id),
  party_id uuid NOT NULL REFERENCES flow_parties(id),
  ord integer NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'signed', 'failed')),
  -- A worker signing the item holds it until then; a claim past it (its worker died) is taken again.
  claimed_until timestamptz,
  -- How many times a worker claimed it (more than once: resumed after a crash).
  attempts integer NOT NULL DEFAULT 0,
  -- Why it failed: {code, en, zh}.
  error jsonb,
  finished_at timestamptz,
  PRIMARY KEY (batch_id, party_id)
);
CREATE INDEX sign_batch_items_order ON sign_batch_items (batch_id, ord);
