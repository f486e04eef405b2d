-- Issue 28: bulk sending from a spreadsheet. A checked sheet is a batch of an account (a person, or a
-- company) for one template; each data row is one contract to launch. Good rows wait `pending`, rows with
-- problems are `skipped` with them; sending claims a row (`sending`, with a lease), prepares its template
-- draft (`draft_id`, set once) and launches it: the draft's document moves into the flow in the launch's own
-- transaction, so a retry after a crash finds the flow from the draft and never launches a row twice.
CREATE TABLE bulk_sends (
  id uuid PRIMARY KEY,
  owner_type smallint NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  template_id uuid NOT NULL,
  created_by uuid NOT NULL REFERENCES users(id),
  -- how the launcher was proven ('session' | 'apiKey') and its id: the rows are launched as that actor
  via_kind text NOT NULL,
  via_id text NOT NULL,
  file_name text NOT NULL,
  status text NOT NULL CHECK (status IN ('checked', 'sending', 'done')),
  total integer NOT NULL,
  good integer NOT NULL,
  sent integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX bulk_sends_owner ON bulk_sends (owner_type, owner_id, created_at DESC);

CREATE TABLE bulk_send_rows (
  bulk_id uuid NOT NULL REFERENCES bulk_sends(id) ON DELETE CASCADE,
  row_no integer NOT NULL,
  data jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'skipped')),
  -- the problems of a skipped row: [{column, en, zh}]
  problems jsonb,
  lease_until timestamptz,
  draft_id uuid,
  flow_id uuid,
  -- why a row failed: {en, zh}
  error jsonb,
  PRIMARY KEY (bulk_id, row_no)
);
CREATE INDEX bulk_send_rows_pending ON bulk_send_rows (bulk_id, status, row_no);
