-- Launch drafts (issue 29): a launch saved by a user of an account and resumed later. `form` is the launch
-- screen's form as JSON (the client's draft: title, parties, positions, settings, term); `document_ids` the
-- uploads it uses (uploads are never swept, so they live as long as the draft; a launched or deleted one is
-- dropped when the draft is opened). Deleted after its launch or on request: the one thing a user deletes.
CREATE TABLE launch_drafts (
  id uuid PRIMARY KEY,
  owner_type integer NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id),
  title text NOT NULL,
  form jsonb NOT NULL,
  document_ids jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX launch_drafts_owner ON launch_drafts (owner_type, owner_id, user_id, updated_at DESC);
