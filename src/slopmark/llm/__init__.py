"""Model clients at the edge: OpenAI-compatible first, paste, cache, usage and cost."""
