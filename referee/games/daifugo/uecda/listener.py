"""The UEC computer-Daihinmin contest protocol (20070, and the 20060 fallback) as a
listener of Daifugo's (:class:`referee.jobs.listener.Listener`): the contest's own clients
play through ``pitboss serve --uecda PORT``, byte for byte as with the contest's standard
server (tndhms 0.29's daihu.c). Its ``serve`` is :mod:`referee.games.daifugo.uecda.server`;
the same options run it on its own (``python -m referee.games.daifugo.uecda``).

Its options: ``--uecda-config FILE`` (a tndhms.cfg), ``--uecda-games N``, ``--uecda-seed
S``, ``--uecda-options TOGGLES``, ``--uecda-timeout SECONDS``, ``--uecda-revision
2018|later``, ``--uecda-logs FOLDER``, ``--uecda-positions FILE``. Nothing heavy is imported here.
"""

from referee.jobs.listener import Listener, ListenerOption

#: The protocol's name, as ``pitboss serve --NAME PORT`` spells it.
NAME = "uecda"

OPTIONS = (
    ListenerOption(f"{NAME}-config", str, None, "A contest server configuration (tndhms.cfg): its RULE_* flags, "
                   "RULE_SEKIGAE_NUM, FLASH_MIBUN_NUMBER, RAND_TYPE and GAME_NUMBER apply as in the contest server."),
    ListenerOption(f"{NAME}-games", int, None, "Games per table (overrides the configuration's GAME_NUMBER)."),
    ListenerOption(f"{NAME}-seed", int, None, "RANDOM_SEED of every table: the deals and seats the contest server "
                   "makes with it (default: a random one per table; the log names it)."),
    ListenerOption(f"{NAME}-options", str, "", 'Toggles on top of the configuration, as the Options tag writes them '
                   '("+eleven-back -sequences").'),
    ListenerOption(f"{NAME}-timeout", float, 10.0, "Seconds a client may take to answer before its seat is dropped "
                   "(its turns then pass)."),
    ListenerOption(f"{NAME}-revision", str, None, "2018 (the devkit's server, default) or later (its later revision: "
                   "extra log lines, a trick ends when all but one still in have passed)."),
    ListenerOption(f"{NAME}-logs", str, "logs", "Folder for the contest's logs and their companion records."),
    ListenerOption(f"{NAME}-positions", str, None, "Deal each table's first games from this file, one deal per "
                   "game in turn: each DFN record's first round or each game of a contest log, the hands by seat "
                   "(the server still draws the seats, and deals the games after these); the logs then name "
                   "no RANDOM_SEED."),
)

LISTENER = Listener(NAME, f"Also listen for the {NAME} protocol on this port: the UEC computer-Daihinmin "
                    "contest's clients play Daifugo tables of five, each one a table of the service too.",
                    "referee.games.daifugo.uecda.server", OPTIONS, held="referee.games.daifugo.uecda.held")
