-- Issue 11: a party's progress as the launcher sees it, and onboarding inside the signing room.
ALTER TABLE flow_parties ADD COLUMN sent_at timestamptz;
ALTER TABLE flow_parties ADD COLUMN opened_at timestamptz;
ALTER TABLE flow_parties ADD COLUMN onboarding_at timestamptz;
-- Why the onboarding stopped, {zh, en} (e.g. the confirmed name differs from the one the launcher typed).
ALTER TABLE flow_parties ADD COLUMN onboarding_problem jsonb;
UPDATE flow_parties p SET sent_at = (SELECT min(l.created_at) FROM party_links l WHERE l.party_id = p.id);
-- The room made the account of its phone (it may then log the browser in: the account has no password).
ALTER TABLE room_tokens ADD COLUMN made_account boolean NOT NULL DEFAULT false;
