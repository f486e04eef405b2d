-- A flow's revision (issue 29): 1 at launch; the launcher's revised upload (a new revision of the contract,
-- negotiated before signing) moves it on. Comments and versions name the revision they belong to.
ALTER TABLE flows ADD COLUMN revision integer NOT NULL DEFAULT 1;
