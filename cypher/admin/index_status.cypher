// name: index_status
// mode: read
// params:
// Every index of the graph with its state (OPERATIONAL, or UNDER CONSTRUCTION while it is built).
CALL db.indexes() YIELD label, properties, types, status, entitytype
RETURN label, properties, types, status, entitytype
