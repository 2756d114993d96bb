// name: term_df
// mode: read
// params:
// Reliability tests: every stored document frequency.
MATCH (t:_Term)
RETURN t.stem AS stem, t.df AS df
