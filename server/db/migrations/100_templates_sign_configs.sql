-- Templates and signing configurations (server/modules/template, server/modules/sign-config). Each row belongs
-- to one account: owner_type 0 person (owner_id = users.id), 1 company (owner_id = companies.id).

CREATE TABLE sign_configs (
  id uuid PRIMARY KEY,
  owner_type integer NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  name text NOT NULL,
  description text,
  -- [{parties: [{key, name, kind, applies}]}], in step order.
  steps jsonb NOT NULL,
  created_by uuid NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX sign_configs_owner ON sign_configs (owner_type, owner_id, updated_at DESC);

CREATE TABLE templates (
  id uuid PRIMARY KEY,
  owner_type integer NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  name text NOT NULL,
  description text,
  document_name text NOT NULL,
  -- The PDF as uploaded (content-addressed blob); contracts are made from copies of it.
  blob_key text NOT NULL,
  sha256 text NOT NULL,
  pages integer NOT NULL,
  page_sizes jsonb NOT NULL,
  roles jsonb NOT NULL,
  fields jsonb NOT NULL,
  positions jsonb NOT NULL,
  -- The configuration the roles were copied from; cleared when it is deleted.
  sign_config_id uuid REFERENCES sign_configs(id),
  created_by uuid NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX templates_owner ON templates (owner_type, owner_id, updated_at DESC);

-- One contract being made from a template: the values, the parties and the filled PDF (a document of the
-- account, not launched) until it is launched.
CREATE TABLE template_drafts (
  id uuid PRIMARY KEY,
  owner_type integer NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  template_id uuid NOT NULL REFERENCES templates(id),
  document_id uuid NOT NULL REFERENCES documents(id),
  title text NOT NULL,
  field_values jsonb NOT NULL,
  assignments jsonb NOT NULL,
  flow_id uuid,
  created_by uuid NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX template_drafts_owner ON template_drafts (owner_type, owner_id, updated_at DESC);
