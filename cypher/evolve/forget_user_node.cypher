// name: forget_user_node
// mode: write
// params: user
// Deletes a user's node and its HAS_SESSION links once that user's memories are erased.
MATCH (u:User {id: $user})
WITH collect(u) AS dead
FOREACH (x IN dead | DETACH DELETE x)
RETURN size(dead) AS removed
