"""Real stand-ins for outside services, started by tests on 127.0.0.1."""
