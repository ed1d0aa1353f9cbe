"""The contest protocol's listener on its own, without the HTTP service:

    python -m referee.games.daifugo.uecda --uecda 42485 [--uecda-config tndhms.cfg] [--uecda-games N]
        [--uecda-seed S] [--uecda-options "+eleven-back -sequences"] [--uecda-timeout SECONDS]
        [--uecda-revision 2018|later] [--uecda-logs logs] [--host 127.0.0.1] [--tables N]

(``pitboss serve --uecda PORT`` takes the same options beside the HTTP service's: the
listener's OPTIONS.)
"""

from __future__ import annotations

import argparse
import sys

from referee.games.daifugo.uecda import contest
from referee.games.daifugo.uecda.listener import NAME, OPTIONS
from referee.games.daifugo.uecda.server import run, settings_from


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=f"python -m referee.games.daifugo.{NAME}",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument(f"--{NAME}", type=int, default=contest.DEFAULT_PORT, metavar="PORT", dest="port",
                        help="The port to listen on (the contest's is the default).")
    parser.add_argument("--host", default="127.0.0.1", help="The address to listen on (loopback by default).")
    parser.add_argument("--tables", type=int, help="Stop after this many tables.")
    for option in OPTIONS:
        parser.add_argument(f"--{option.flag}", type=option.type, default=option.default, help=option.help)
    args = vars(parser.parse_args(argv))
    args[f"{NAME}_tables"] = args.pop("tables")
    host, port = args.pop("host"), args.pop("port")
    try:
        return run(host, port, settings_from(args))
    except (ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
