"""Tenants: validated ids and the mapping to one FalkorDB graph each."""
