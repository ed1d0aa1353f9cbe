"""The UEC computer-Daihinmin contest protocol (20070, and the 20060 fallback) as a face of
the referee: the contest's own clients play through ``pitboss serve --uecda PORT``, byte
for byte as with the contest's standard server (shared/fixtures/uecda-protocol.md). The
listener is ``server``; the game's side (handshake, tables, log) is the ``contest`` part
of the game that speaks the protocol, found through the registry.

``CLI_OPTIONS`` are the options ``pitboss serve`` adds for this protocol
(referee.service.protocols): ``--uecda-config FILE`` (a tndhms.cfg), ``--uecda-games N``,
``--uecda-seed S``, ``--uecda-options TOGGLES``, ``--uecda-timeout SECONDS``,
``--uecda-revision 2018|later``, ``--uecda-logs FOLDER``. Nothing heavy is imported here.
"""

#: The protocol's name, as ``pitboss serve --NAME PORT`` spells it.
NAME = "uecda"

CLI_OPTIONS = [
    (f"{NAME}-config", str, None, "A contest server configuration (tndhms.cfg): its RULE_* flags, "
     "RULE_SEKIGAE_NUM, FLASH_MIBUN_NUMBER, RAND_TYPE and GAME_NUMBER apply as in the contest server."),
    (f"{NAME}-games", int, None, "Games per table (overrides the configuration's GAME_NUMBER)."),
    (f"{NAME}-seed", int, None, "RANDOM_SEED of every table: the deals and seats the contest server makes "
     "with it (default: a random one per table; the log names it)."),
    (f"{NAME}-options", str, "", 'Toggles on top of the configuration, as the Options tag writes them '
     '("+eleven-back -sequences").'),
    (f"{NAME}-timeout", float, 10.0, "Seconds a client may take to answer before its seat is dropped "
     "(its turns then pass)."),
    (f"{NAME}-revision", str, None, "2018 (the devkit's server, default) or later (its later revision: "
     "extra log lines, a trick ends when all but one still in have passed)."),
    (f"{NAME}-logs", str, "logs", "Folder for the contest's logs and their companion records."),
]
