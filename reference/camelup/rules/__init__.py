"""One module per spec chapter: the rules themselves, each naming the clauses it implements."""
