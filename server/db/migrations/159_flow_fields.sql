-- Fields the signer fills (issue 28): placed at launch on a document the party signs (an empty AcroForm field
-- of that document, added before any signature), filled in the signing room (a draft: value, saved_at), and
-- written into the PDF with the party's signature (signed_at; never changed afterwards).
CREATE TABLE flow_fields (
  id uuid PRIMARY KEY,
  flow_id uuid NOT NULL REFERENCES flows(id),
  party_id uuid NOT NULL REFERENCES flow_parties(id),
  document_id uuid NOT NULL REFERENCES documents(id),
  -- The order the launcher gave (per flow: party by party, field by field).
  ord integer NOT NULL,
  key text NOT NULL,
  label text NOT NULL,
  kind text NOT NULL,
  is_required boolean NOT NULL,
  -- radio and select: the options (a JSON array of strings); null otherwise.
  options jsonb,
  -- 1-based page and the box in PDF points (origin bottom-left).
  page integer NOT NULL,
  rect jsonb NOT NULL,
  -- The AcroForm field's name in the PDF (unique in the document).
  pdf_name text NOT NULL,
  -- The value: text; a checkbox 'true' / 'false'; signDate the signing date; attachment its file name.
  value text,
  attachment_key text,
  attachment_name text,
  attachment_type text,
  attachment_size integer,
  attachment_sha256 text,
  saved_at timestamptz,
  signed_at timestamptz,
  UNIQUE (party_id, key),
  UNIQUE (document_id, pdf_name)
);
CREATE INDEX flow_fields_flow ON flow_fields (flow_id, ord);
CREATE INDEX flow_fields_party ON flow_fields (party_id, ord);
