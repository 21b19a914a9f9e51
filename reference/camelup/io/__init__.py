"""JSON in and out: the one JSON reader, JSON pointers, the published schemas and the codec."""
