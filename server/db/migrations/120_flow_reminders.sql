-- Reminders every N days per flow (issue 13, durable jobs): the launcher's choice at launch, and when the
-- next one is due. The flow sweep (a cron job) sends due reminders and moves next_remind_at on by N days in
-- one conditional UPDATE, so one instance sends each reminder.
ALTER TABLE flows ADD COLUMN remind_every_days integer CHECK (remind_every_days BETWEEN 1 AND 30);
ALTER TABLE flows ADD COLUMN next_remind_at timestamptz;
CREATE INDEX flows_open_next_remind ON flows (next_remind_at)
  WHERE status = 'signing' AND next_remind_at IS NOT NULL;
