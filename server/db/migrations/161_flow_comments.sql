-- Comments on a flow (issue 29: negotiate before signing). A root comment (parent_id null, thread_id its own
-- id) is pinned to a point of a page of a document (document_id, page, x, y in PDF points, origin bottom-left),
-- a whole document (page null) or the flow (document_id null); replies carry their root's thread_id. Each
-- names the flow's revision it was made on. Nothing is deleted: a thread is resolved (resolved_at) and reopened.
CREATE TABLE flow_comments (
  id uuid PRIMARY KEY,
  flow_id uuid NOT NULL REFERENCES flows(id),
  thread_id uuid NOT NULL,
  parent_id uuid REFERENCES flow_comments(id),
  revision integer NOT NULL,
  document_id uuid REFERENCES documents(id),
  page integer,
  x double precision,
  y double precision,
  -- 'launcher' (a user of the launching account) or 'party' (author_party_id).
  author_role text NOT NULL,
  author_party_id uuid REFERENCES flow_parties(id),
  author_user_id uuid,
  author_name text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  -- Roots only: resolved (null while open) and by whom.
  resolved_at timestamptz,
  resolved_by text
);
CREATE INDEX flow_comments_flow ON flow_comments (flow_id, created_at);
CREATE INDEX flow_comments_thread ON flow_comments (thread_id, created_at);
