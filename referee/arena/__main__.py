"""``python -m referee.arena``: ``pitboss arena`` on its own (the same command)."""

from referee.commands.arena import command

command(prog_name="pitboss arena")
