"""Ingest: validating records, extracting the graph, embedding and writing them."""
