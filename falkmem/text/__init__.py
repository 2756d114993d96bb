"""The one text layer: search tokens, name keys, sentences, month and weekday names.

Extraction, the keyword channel, routing, ranking and context packing all read text through
these modules, so a word, a name or a sentence is the same thing to each of them.
"""
