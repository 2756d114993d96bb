"""Memory that evolves: keyed facts, supersession, time travel, forgetting, consolidation, health."""
