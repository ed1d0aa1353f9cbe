"""The contest server's own randomness (the engine layer: no I/O, nothing above the engine)."""
