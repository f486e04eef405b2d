-- Issue 15: the package module owns quota_holds and must not read the flow module's table. The usage detail
-- shows (and searches) each flow's title and initiator: flow passes them when it reserves the unit at launch
-- (a flow's title and initiator never change), so the package module keeps its own copy.
ALTER TABLE quota_holds ADD COLUMN flow_title text NOT NULL DEFAULT '';
ALTER TABLE quota_holds ADD COLUMN initiator_name text;
UPDATE quota_holds h SET flow_title = f.title, initiator_name = f.initiator_name FROM flows f WHERE f.id = h.flow_id;
