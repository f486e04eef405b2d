-- Documents, signing flows, their parties, signing-room tokens, the hash-chained audit trail, the signing
-- quota and the /message notifications. Bytes live in the BlobStore (content-addressed); rows hold keys.

CREATE TABLE documents (
  id uuid PRIMARY KEY,
  -- The uploading account: 0 person (owner_id = users.id), 1 company (owner_id = companies.id).
  owner_type integer NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  uploaded_by uuid NOT NULL REFERENCES users(id),
  name text NOT NULL,
  original_key text NOT NULL,
  original_sha256 text NOT NULL,
  pages integer NOT NULL,
  page_sizes jsonb NOT NULL,
  -- The version pointer: moves only after the new blob is stored, in the transaction that bumps `version`.
  current_key text NOT NULL,
  current_sha256 text NOT NULL,
  current_size integer NOT NULL,
  version integer NOT NULL DEFAULT 0,
  signature_count integer NOT NULL DEFAULT 0,
  -- Set at launch: the footer-stamped file every signature appends to.
  flow_id uuid,
  launched_sha256 text,
  verification_code text UNIQUE,
  -- DSS + document time-stamp appended after the last party.
  is_ltv_done boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE INDEX documents_owner ON documents (owner_type, owner_id, created_at DESC);
CREATE INDEX documents_flow ON documents (flow_id);

CREATE TABLE document_versions (
  document_id uuid NOT NULL REFERENCES documents(id),
  version integer NOT NULL,
  blob_key text NOT NULL,
  sha256 text NOT NULL,
  size integer NOT NULL,
  -- 'upload', 'launch', 'sign', 'ltv'
  reason text NOT NULL,
  party_id uuid,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (document_id, version)
);

CREATE TABLE flows (
  id uuid PRIMARY KEY,
  owner_type integer NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  initiator_user_id uuid NOT NULL REFERENCES users(id),
  initiator_name text,
  initiator_company_name text,
  title text NOT NULL,
  message text,
  is_quick boolean NOT NULL DEFAULT false,
  status text NOT NULL CHECK (status IN ('draft', 'signing', 'completed', 'declined', 'expired', 'cancelled')),
  current_step integer NOT NULL DEFAULT 0,
  step_count integer NOT NULL,
  deadline timestamptz NOT NULL,
  -- Lower-case title and document names, for the keyword filter.
  search_text text NOT NULL,
  -- One unit of the owner's quota: reserved at launch, used at completion, released when the flow ends otherwise.
  quota_state text NOT NULL CHECK (quota_state IN ('reserved', 'used', 'released')),
  created_at timestamptz NOT NULL,
  completed_at timestamptz,
  ended_at timestamptz,
  end_reason text,
  report_key text,
  report_sha256 text
);
CREATE INDEX flows_owner ON flows (owner_type, owner_id, created_at DESC);
CREATE INDEX flows_open_deadline ON flows (deadline) WHERE status = 'signing';

CREATE TABLE flow_parties (
  id uuid PRIMARY KEY,
  flow_id uuid NOT NULL REFERENCES flows(id),
  step_index integer NOT NULL,
  ord integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('person', 'company')),
  -- Person: the signer; company: the operator or administrator who receives the link.
  name text,
  phone text NOT NULL,
  company_id uuid,
  company_name text,
  applies jsonb NOT NULL,
  -- Resolved positions: [{documentId, page, rect}] in PDF points.
  positions jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('waiting', 'pending', 'signed', 'declined', 'closed')),
  link_type integer NOT NULL,
  signed_at timestamptz,
  signed_by_user uuid,
  signed_by_name text,
  declined_at timestamptz,
  decline_reason text,
  last_reminded_at timestamptz
);
CREATE INDEX flow_parties_flow ON flow_parties (flow_id, step_index, ord);
CREATE INDEX flow_parties_phone ON flow_parties (phone, status);
CREATE INDEX flow_parties_company ON flow_parties (company_id, status);

-- Links sent to a party (at its step's start, and by reminders): only the SHA-256 of each link code is kept;
-- the code itself exists only in the message sent to the party.
CREATE TABLE party_links (
  link_hash text PRIMARY KEY,
  party_id uuid NOT NULL REFERENCES flow_parties(id),
  created_at timestamptz NOT NULL
);

-- Which documents a party has signed (one incremental update each): at most once per party and document.
CREATE TABLE party_signatures (
  party_id uuid NOT NULL REFERENCES flow_parties(id),
  document_id uuid NOT NULL REFERENCES documents(id),
  version integer NOT NULL,
  sha256 text NOT NULL,
  signer_user_id uuid NOT NULL,
  cert_serial text NOT NULL,
  seal_ids jsonb NOT NULL,
  signed_at timestamptz NOT NULL,
  PRIMARY KEY (party_id, document_id)
);

-- A signing room: a capability for ONE party, from a link login (phone + SMS code) or a logged-in user.
CREATE TABLE room_tokens (
  token_hash text PRIMARY KEY,
  party_id uuid NOT NULL REFERENCES flow_parties(id),
  -- The person acting in the room (found by the verified phone), null when the phone has no account yet.
  user_id uuid,
  phone text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE TABLE audit_entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  flow_id uuid NOT NULL,
  document_id uuid NOT NULL,
  seq integer NOT NULL,
  event text NOT NULL,
  actor text NOT NULL,
  actor_phone text,
  actor_company text,
  detail text,
  at timestamptz NOT NULL,
  ip text,
  user_agent text,
  hash_before text,
  hash_after text,
  prev_hash text NOT NULL,
  entry_hash text NOT NULL,
  UNIQUE (document_id, seq)
);
CREATE INDEX audit_entries_flow ON audit_entries (flow_id, id);

CREATE TABLE signing_quotas (
  owner_type integer NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  -- Units bought in packages (later); the free allowance comes from the configuration.
  extra integer NOT NULL DEFAULT 0,
  reserved integer NOT NULL DEFAULT 0 CHECK (reserved >= 0),
  used integer NOT NULL DEFAULT 0 CHECK (used >= 0),
  PRIMARY KEY (owner_type, owner_id)
);

CREATE TABLE flow_messages (
  id uuid PRIMARY KEY,
  -- The recipient: a phone, within a company (company_id) or as a person (company_id NULL).
  phone text NOT NULL,
  company_id uuid,
  kind text NOT NULL,
  title text NOT NULL,
  text text NOT NULL,
  flow_id uuid,
  link text,
  read_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX flow_messages_recipient ON flow_messages (phone, created_at DESC);
