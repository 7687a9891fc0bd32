"""The query path: search, symbol lookup, callers, cards, impact, overlay, ask (no grpc here)."""
