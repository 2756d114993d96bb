// name: entity_keys
// mode: read
// params:
// Every entity key of a tenant (the long-input suite checks each fits the cap).
MATCH (e:Entity) RETURN e.key AS key
