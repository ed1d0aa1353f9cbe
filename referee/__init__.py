"""Pitboss: the rules referee for Caravan and Daifugo.

Layers, each importing only those below it:

* ``referee.engines``  - the rules and the state of each game (no text parsing, no I/O)
* ``referee.notation`` - grammars, readers and writers: text <-> records and moves
* ``referee.jobs``     - referee (validate), self-play generator, and later solver/annotator
* ``cli.py``           - the command line (top level of the repository)
"""

__version__ = "0.1.0"

# The compiled engines (referee/compiled): loaded only when built and current; one stat
# when nothing is built. PITBOSS_COMPILED=0 turns them off.
from referee.compiled.loader import install as _install_compiled

_install_compiled()
