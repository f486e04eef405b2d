-- Issue 23: a signing room knows how it was opened and whether its phone was proven in this browser.
-- via: 'link' (link + SMS code), 'session' (a logged-in party), 'embed' (an integrator's embedded-signing URL).
-- phone_proof: 'sms' (a code sent to the phone, at the link login or later in the room), 'session' (the
-- logged-in account of that phone), 'apiKey' (an integrator key trusted to assert identities), or NULL: the
-- room may sign as the phone's account with its intent check, but may not make an account, write an identity
-- or issue a certificate, and never logs a browser in.
ALTER TABLE room_tokens ADD COLUMN via text NOT NULL DEFAULT 'link';
ALTER TABLE room_tokens ADD COLUMN phone_proof text;
ALTER TABLE room_tokens ADD COLUMN api_key_id uuid;
-- Rooms opened before this migration: their phones were proven by their link logins, except embedded ones,
-- which cannot be told apart now; they live two hours, so all of them are treated as unproven (a code in the
-- room proves the phone again).
-- The key an embedded-signing URL was asked with, and whether it was trusted to assert identities then.
ALTER TABLE embed_links ADD COLUMN api_key_id uuid;
ALTER TABLE embed_links ADD COLUMN asserts_identity boolean NOT NULL DEFAULT false;
-- A per-key setting, off by default, set only by the platform's administrators (npm run admin -- trust-key).
ALTER TABLE api_keys ADD COLUMN asserts_identity boolean NOT NULL DEFAULT false;
