-- What a company's seal governance (issue 27) asks of a flow: the template it came from and the API key that
-- launched it (automatic sealing is authorised for given templates or keys), and the contract's amount when
-- the launcher states one (seal-use approval may apply only above an amount), in fen.
ALTER TABLE flows ADD COLUMN template_id uuid;
ALTER TABLE flows ADD COLUMN api_key_id uuid;
ALTER TABLE flows ADD COLUMN amount_fen bigint CHECK (amount_fen >= 0);
