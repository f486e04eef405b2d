-- Void by agreement (issue 29): a completed contract is voided only by a rescission agreement, a new flow the
-- same parties sign. The rescission names the original (rescinds_flow_id); when it completes the original gets
-- voided_at and voided_by_flow_id (nothing is deleted: the original and its signed PDFs stay as they were).
ALTER TABLE flows ADD COLUMN rescinds_flow_id uuid REFERENCES flows(id);
ALTER TABLE flows ADD COLUMN voided_at timestamptz;
ALTER TABLE flows ADD COLUMN voided_by_flow_id uuid REFERENCES flows(id);
-- One open rescission per contract (an open flow is 'signing').
CREATE UNIQUE INDEX flows_open_rescission ON flows (rescinds_flow_id)
  WHERE rescinds_flow_id IS NOT NULL AND status = 'signing';
CREATE INDEX flows_rescinds ON flows (rescinds_flow_id) WHERE rescinds_flow_id IS NOT NULL;
-- The verification of an uploaded signed PDF finds its platform document by the file's SHA-256.
CREATE INDEX documents_current_sha256 ON documents (current_sha256);
