-- Issue 13: embedded signing. An integrator asks for a short-lived URL that opens one party's signing room
-- without a login (inside the partner's iframe). The URL carries a one-time code, stored only hashed; the
-- room it opens is bound to the party's phone, which the intent check then proves.
CREATE TABLE embed_links (
  code_hash text PRIMARY KEY,
  party_id uuid NOT NULL REFERENCES flow_parties(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX embed_links_party ON embed_links (party_id);
