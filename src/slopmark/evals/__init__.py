"""Evals: tasks whose answers code can check, verifiers, the fixed harness, runs."""
