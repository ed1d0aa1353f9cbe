"""The contest server's log: its reader, its writer and how one is recognised."""
