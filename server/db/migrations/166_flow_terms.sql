-- A contract's own term (issue 29): start and end dates (Beijing calendar days, separate from the signing
-- deadline), the days before the end a reminder goes out (30, 7, 1 or any of them), and people told besides
-- the launcher (phones). The flow sweep sends each threshold once for a COMPLETED flow: `sent_days` is claimed
-- with a conditional UPDATE, so one instance sends each. Editing the term starts the reminders over.
CREATE TABLE flow_terms (
  flow_id uuid PRIMARY KEY REFERENCES flows(id),
  starts_on date NOT NULL,
  ends_on date NOT NULL CHECK (ends_on > starts_on),
  remind_days integer[] NOT NULL,
  -- [{ "phone": "138…", "name": "…" }]: told besides the launcher.
  remind_people jsonb NOT NULL DEFAULT '[]',
  sent_days integer[] NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL
);
CREATE INDEX flow_terms_ends ON flow_terms (ends_on);
-- A renewal (issue 29): the flow this one renews (started by "Renew / 续签" on a completed flow).
ALTER TABLE flows ADD COLUMN renews_flow_id uuid REFERENCES flows(id);
CREATE INDEX flows_renews ON flows (renews_flow_id) WHERE renews_flow_id IS NOT NULL;
