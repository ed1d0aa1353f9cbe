"""``python -m referee.arena``: the arena's command on its own (``pitboss arena``)."""

from referee.arena.command import command

command(prog_name="pitboss arena")
