"""The daemon's operations: scheduling repos, webhooks, HTTP serving, cluster ownership."""
