-- Wrong SMS codes are counted per phone, purpose and client (the caller's address), no longer per phone
-- alone: five wrong password-reset codes typed by anyone used to lock every code of that phone, signing
-- and signing-room login included. A lock now stops only the client that earned it, for that purpose.
-- The old rows are short-lived counters; they are dropped with the table.
DROP TABLE sms_locks;
CREATE TABLE sms_locks (
  phone text NOT NULL,
  purpose text NOT NULL,
  client text NOT NULL,
  failures integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  PRIMARY KEY (phone, purpose, client)
);
