// name: drop_turn_order
// mode: write
// params:
// Test support: remove every NEXT edge and Session.last, as a tenant written before schema 12 looks.
MATCH (s:Session)
REMOVE s.last
WITH count(s) AS n
OPTIONAL MATCH ()-[r:NEXT]->()
DELETE r
RETURN n
