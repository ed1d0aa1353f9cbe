"""``python -m pitboss`` and the ``pitboss`` command: the command line (cli.py), shipped
inside this package in a wheel, beside it in a source checkout."""

from __future__ import annotations


def main() -> None:
    try:
        from pitboss.cli import app  # an installed wheel: cli.py is pitboss/cli.py
    except ModuleNotFoundError as err:
        if err.name != "pitboss.cli":
            raise
        from cli import app  # a source checkout or an editable install: cli.py at the top
    app(prog_name="pitboss")


if __name__ == "__main__":
    main()
