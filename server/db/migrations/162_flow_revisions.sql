-- Revised documents (issue 29): the launcher uploads a revised PDF for a document of an open flow. Each revision
-- of a flow's documents is kept (flows.revision, migration 160, names the current one): revision 1 is the
-- launched (footer-stamped) file, stored here when the first revision is made; every later one the revised
-- file as stamped, with who made it and the launcher's note on what changed. Nothing is deleted.
CREATE TABLE flow_revisions (
  flow_id uuid NOT NULL REFERENCES flows(id),
  revision integer NOT NULL,
  document_id uuid NOT NULL REFERENCES documents(id),
  blob_key text NOT NULL,
  sha256 text NOT NULL,
  size integer NOT NULL,
  pages integer NOT NULL,
  -- Who uploaded it (revision 1: the launcher) and their name then.
  created_by uuid NOT NULL REFERENCES users(id),
  created_by_name text,
  note text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (flow_id, revision, document_id)
);

-- A revision made after signatures withdraws them: the rows stay, marked, and the party signs again (a new row).
ALTER TABLE party_signatures ADD COLUMN withdrawn_at timestamptz;
ALTER TABLE party_signatures ADD COLUMN revision integer NOT NULL DEFAULT 1;
ALTER TABLE party_signatures DROP CONSTRAINT party_signatures_pkey;
CREATE UNIQUE INDEX party_signatures_current ON party_signatures (party_id, document_id) WHERE withdrawn_at IS NULL;
CREATE INDEX party_signatures_party ON party_signatures (party_id);

-- How the launcher placed a party (the launch's positions and its fields' positions, as given: a keyword is
-- found again on a revised file). Null for flows launched before: their rectangles are kept.
ALTER TABLE flow_parties ADD COLUMN placement jsonb;
