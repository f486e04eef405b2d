-- Every message the product sends (SMS codes, notices). The default sender only writes here and logs;
-- a real gateway later delivers from this table.
CREATE TABLE outbox (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  channel text NOT NULL CHECK (channel IN ('sms', 'notice')),
  to_addr text NOT NULL,
  purpose text NOT NULL,
  text text NOT NULL,
  code text,
  user_id uuid,
  created_at timestamptz NOT NULL,
  sent_at timestamptz
);
CREATE INDEX outbox_to_created ON outbox (to_addr, id DESC);

-- Fixed-window counters in the database, so that limits hold across several server instances.
CREATE TABLE rate_counters (
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
