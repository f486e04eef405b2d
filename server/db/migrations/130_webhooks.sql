-- Issue 13, webhooks: endpoints per account (owner_type 0 person / 1 company, like documents and flows),
-- one message per event and endpoint (the signed body, kept so a redelivery sends the same bytes), and
-- every delivery attempt.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  owner_type smallint NOT NULL CHECK (owner_type IN (0, 1)),
  owner_id uuid NOT NULL,
  url text NOT NULL,
  description text,
  events jsonb NOT NULL,
  -- The signing secret, AES-256-GCM under a key derived from the master key (never in the clear).
  secret_sealed text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_owner ON webhook_endpoints (owner_type, owner_id);

CREATE TABLE webhook_messages (
  id uuid PRIMARY KEY,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  -- The event's id (X-Esign-Event-Id): the same for every endpoint the event went to, and for redeliveries.
  event_id uuid NOT NULL,
  type text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  -- pending (an attempt is due at next_attempt_at), delivered, failed (gave up after 24 hours).
  state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  next_attempt_at timestamptz,
  retry_until timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_messages_due ON webhook_messages (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_messages_endpoint ON webhook_messages (endpoint_id, created_at DESC);

CREATE TABLE webhook_attempts (
  id uuid PRIMARY KEY,
  message_id uuid NOT NULL REFERENCES webhook_messages(id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  ok boolean NOT NULL,
  response_code integer,
  error text,
  -- A redelivery someone asked for (screen or API), not a scheduled retry.
  manual boolean NOT NULL DEFAULT false
);
CREATE INDEX webhook_attempts_message ON webhook_attempts (message_id, at);
