"""Entry point of the ``yatzy`` command.

Each subcommand lives in its own module ``yatzy.cli.cmd_<name>`` with
``add_parser(subparsers)`` and ``run(args) -> int``.  Modules import heavy
libraries (numpy, numba) inside ``run`` only, so commands that need no solver
start fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from yatzy import __version__
from yatzy.cli.common import missing_extra
from yatzy.errors import YatzyError

# Subcommands in the order ``--help`` lists them.
COMMANDS: tuple[str, ...] = (
    "rules",
    "score",
    "play",
    "stats",
    "solve",
    "protocol",
    "export",
    "import",
    "serve",
    "prune",
    "advise",
    "simulate",
    "analyze",
)


class UsageError(YatzyError):
    """Bad command-line usage (reported in one line, exit code 2)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, not usage plus message."""

    def error(self, message: str) -> NoReturn:
        # main() prints "yatzy: error: ..."; name the subcommand only when there is one.
        command = self.prog.removeprefix("yatzy").strip()
        raise UsageError(f"{command}: {message}" if command else message)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser with every subcommand registered (or only the command ``only``)."""
    parser = _Parser(
        prog="yatzy",
        description="Nordic Yatzy and its variants: rules, scoring, play and strategy.",
    )
    parser.add_argument("--version", action="version", version=f"yatzy {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        if only is None or name == only:
            module = importlib.import_module(f"yatzy.cli.cmd_{name}")
            module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (2 for any bad input)."""
    words = sys.argv[1:] if argv is None else list(argv)
    command = words[0] if words and words[0] in COMMANDS else None
    try:
        # A command named first needs only its own module: the others' imports (the
        # protocols, the web app's pieces) would cost a solver run about 0.1 s.
        parser = build_parser(command)
        args = parser.parse_args(argv)
        if not getattr(args, "command", None):
            parser.print_help()
            return 2
        code: int = args.run(args)
        return code
    except YatzyError as exc:
        print(f"yatzy: error: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        # A library of an optional extra that is not installed: one line naming the
        # extra (pip install 'yatzy[web]' ...), not a traceback.  Anything else is a bug.
        line = missing_extra(command, exc)
        if line is None:
            raise
        print(line, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("yatzy: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
