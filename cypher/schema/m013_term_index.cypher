// name: m013_term_index
// mode: write
// params:
// Range index on _Term.stem: the tenant's document frequencies, one node per Snowball stem
// (what the keyword channel reads instead of counting a term's matches at query time).
CREATE INDEX FOR (t:_Term) ON (t.stem)
