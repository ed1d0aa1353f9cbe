"""The ``pitboss`` commands, one module each (``validate``, ``annotate``, ``explain``, ...),
each offering ``command``: a click command that ``cli.py`` adds to the program.

Around them: ``base`` (how a command is built on click: arguments with help, the help's
layout, the failure that exits 2), ``options`` (the options several commands share and
what they mean), ``output`` (standard output or a file written whole, progress),
``findings`` (how a finding is printed) and ``completion`` (shell completion). A new
command is one module here and one line in ``cli.py``. Every module imports only what
``pitboss --help`` needs; the work is imported when a command runs.
"""
