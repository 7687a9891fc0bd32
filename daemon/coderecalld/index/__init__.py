"""The index path: a repo's changed files become chunks and points (pipeline composes the stages)."""
