-- The contract centre (issue 29): an account's own folders and tags for the flows it sees (sent or received),
-- and each user's saved views. An account is a person (owner_type 0, owner_id the user) or a company
-- (owner_type 1, owner_id the company): the same flow can sit in different folders and carry different tags
-- for each account that sees it, and no account ever sees another's.
CREATE TABLE centre_folders (
  id uuid PRIMARY KEY,
  owner_type integer NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (owner_type, owner_id, name)
);

CREATE TABLE centre_tags (
  id uuid PRIMARY KEY,
  owner_type integer NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  name text NOT NULL,
  -- '#rrggbb'
  colour text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (owner_type, owner_id, name)
);

-- A tag on a flow (the tag names its account).
CREATE TABLE centre_flow_tags (
  tag_id uuid NOT NULL REFERENCES centre_tags(id) ON DELETE CASCADE,
  flow_id uuid NOT NULL REFERENCES flows(id),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (tag_id, flow_id)
);
CREATE INDEX centre_flow_tags_flow ON centre_flow_tags (flow_id);

-- The folder a flow sits in for one account (at most one folder per account and flow).
CREATE TABLE centre_flow_folders (
  owner_type integer NOT NULL,
  owner_id uuid NOT NULL,
  flow_id uuid NOT NULL REFERENCES flows(id),
  folder_id uuid NOT NULL REFERENCES centre_folders(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (owner_type, owner_id, flow_id)
);
CREATE INDEX centre_flow_folders_folder ON centre_flow_folders (folder_id);

-- A user's saved search: a name and the filter (contract/calls/centre.ts zCentreFilter) for one account.
CREATE TABLE centre_views (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id),
  owner_type integer NOT NULL,
  owner_id uuid NOT NULL,
  name text NOT NULL,
  filter jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, owner_type, owner_id, name)
);
