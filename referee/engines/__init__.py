"""Game engines: state, legal_moves, apply and check for each game. No text, no I/O."""
