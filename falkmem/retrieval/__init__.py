"""Retrieval channels: vector, keyword and graph candidates for a query (one query each)."""
