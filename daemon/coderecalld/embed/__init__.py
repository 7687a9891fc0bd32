"""What a text becomes in the index: dense vectors (local model, remote endpoint), sparse terms, name trigrams."""
