"""A repository's files, read by both paths: the git mirror, which files are indexed, what may be shown."""
