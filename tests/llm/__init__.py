"""Tests of the model-provider layer against a real local server."""
