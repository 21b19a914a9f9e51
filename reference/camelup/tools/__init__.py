"""Tools on the library and the harness: board diagrams and the documentation site."""
