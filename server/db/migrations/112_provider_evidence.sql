-- Going live (issue 12): online payments and the evidence of outside providers' checks.

-- Online payment: the provider's transaction and refund numbers of an order.
ALTER TABLE package_orders ADD COLUMN provider_trade_no text;
ALTER TABLE package_orders ADD COLUMN refund_id text;

-- Every authentic payment notification, once: a second delivery (or a replay) of the same notification
-- id changes nothing. `outcome` says what it did (credited, already_paid, amount_mismatch, ...).
CREATE TABLE payment_notifications (
  provider text NOT NULL,
  notify_id text NOT NULL,
  order_no text NOT NULL,
  trade_no text NOT NULL,
  amount_fen bigint NOT NULL,
  outcome text NOT NULL,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (provider, notify_id)
);

-- What an outside provider answered to a check (identity three-factor, face, company register), with the
-- provider's request id as evidence. Never the ID number itself: subject is an account id.
CREATE TABLE provider_evidence (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('identity', 'face', 'company', 'payment', 'refund')),
  provider text NOT NULL,
  request_id text,
  subject_type text NOT NULL,
  subject_id text NOT NULL,
  outcome text NOT NULL,
  detail text,
  at timestamptz NOT NULL
);
CREATE INDEX provider_evidence_subject ON provider_evidence (subject_type, subject_id, at DESC);

ALTER TABLE person_identities ADD COLUMN provider_request_id text;
-- Only with a real identity provider, whose face check needs it: the ID number sealed with AES-256-GCM
-- under a key derived from ESIGN_MASTER_KEY (never in clear, never in an answer).
ALTER TABLE person_identities ADD COLUMN id_sealed text;
ALTER TABLE face_auth_sessions ADD COLUMN provider_ref text;
ALTER TABLE face_auth_sessions ADD COLUMN provider_request_id text;
