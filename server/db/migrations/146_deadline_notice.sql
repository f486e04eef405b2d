-- Issue 13: the "deadline approaching" notice. A day before an open flow's deadline its unsigned parties of
-- the current step are told once, by the flow sweep job; this column says when (null: not yet). The sweep
-- claims it with a conditional UPDATE, so one instance sends each notice.
ALTER TABLE flows ADD COLUMN deadline_notice_at timestamptz;
