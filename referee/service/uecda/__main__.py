"""The contest protocol's listener on its own, without the HTTP service:

    python -m referee.service.uecda --uecda 42485 [--uecda-config tndhms.cfg] [--uecda-games N]
        [--uecda-seed S] [--uecda-options "+eleven-back -sequences"] [--uecda-timeout SECONDS]
        [--uecda-revision 2018|later] [--host 127.0.0.1] [--log-dir logs] [--tables N]

(``pitboss serve --uecda`` takes the same options beside the HTTP service's.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.service.uecda.server import DEFAULT_TIMEOUT, Settings, contest_part, run


def settings_of(config: str | None, games: int | None, seed: int | None, options: str, timeout: float,
                revision: str | None, log_dir: str, tables: int | None = None) -> Settings:
    """The listener's settings from the command line's options (ValueError: what is wrong)."""
    part = contest_part()
    if timeout <= 0:
        raise ValueError("--uecda-timeout takes a number of seconds above 0")
    loaded = part.load(Path(config) if config else None, options=options, games=games, revision=revision)
    return Settings(loaded, seed, timeout, Path(log_dir), tables, part)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m referee.service.uecda", description=__doc__.split("\n\n")[0])
    parser.add_argument("--uecda", type=int, default=contest_part().DEFAULT_PORT, metavar="PORT")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--uecda-config", metavar="FILE")
    parser.add_argument("--uecda-games", type=int, metavar="N")
    parser.add_argument("--uecda-seed", type=int, metavar="S")
    parser.add_argument("--uecda-options", default="", metavar="TOGGLES")
    parser.add_argument("--uecda-timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS")
    parser.add_argument("--uecda-revision", metavar="REVISION")
    parser.add_argument("--log-dir", default="logs")
    parser.add_argument("--tables", type=int, help="stop after this many tables")
    args = parser.parse_args(argv)
    try:
        settings = settings_of(args.uecda_config, args.uecda_games, args.uecda_seed, args.uecda_options,
                               args.uecda_timeout, args.uecda_revision, args.log_dir, args.tables)
        return run(args.host, args.uecda, settings)
    except (ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
