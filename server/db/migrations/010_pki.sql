-- PKI: certificates issued to person and company accounts (server/pki). The private key of each is
-- stored only in the KeyStore's sealed form (AES-256-GCM under a key derived from ESIGN_MASTER_KEY).
-- The CA's own keys and certificates live as files in DATA_DIR/pki, not here.
CREATE TABLE pki_certificates (
  serial text PRIMARY KEY CHECK (serial ~ '^[0-9a-f]{2,40}$'),
  user_type integer NOT NULL CHECK (user_type IN (0, 1)),
  -- users.id for a person, the company's id for a company: no foreign key, as the two live in different tables.
  account_id uuid NOT NULL,
  subject text NOT NULL,
  not_before timestamptz NOT NULL,
  not_after timestamptz NOT NULL,
  pem text NOT NULL,
  encrypted_key bytea NOT NULL,
  status text NOT NULL DEFAULT 'good' CHECK (status IN ('good', 'revoked')),
  revoked_at timestamptz,
  -- RFC 5280 CRLReason; NULL when none was given.
  revocation_reason integer CHECK (revocation_reason BETWEEN 0 AND 10),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Issue order: breaks ties between certificates created within the same clock reading.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  CHECK ((status = 'revoked') = (revoked_at IS NOT NULL))
);
CREATE INDEX pki_certificates_holder ON pki_certificates (account_id, user_type, created_at DESC, seq DESC);
-- What a CRL lists: revoked and not yet expired.
CREATE INDEX pki_certificates_revoked ON pki_certificates (not_after) WHERE status = 'revoked';
