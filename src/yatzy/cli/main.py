"""Entry point of the ``yatzy`` command.

Each subcommand lives in its own module ``yatzy.cli.cmd_<name>`` with
``add_parser(subparsers)`` and ``run(args) -> int``.  Modules import heavy
libraries (numpy, numba) inside ``run`` only, so commands that need no solver
start fast.

Packages above the command line add commands of their own through the entry-point
group ``yatzy.commands`` (:data:`PLUGIN_GROUP`): an entry ``name = module`` names a
module with the same two functions.  The web app's ``yatzy serve`` is one
(:mod:`yatzy.web.serve`), so the command line does not import the web app: the
dependency points from the web app to this protocol.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from yatzy import __version__
from yatzy.cli.common import missing_extra
from yatzy.errors import SpecError, YatzyError

# The command line's own subcommands, in the order ``--help`` lists them (the
# registered ones follow, by name).
COMMANDS: tuple[str, ...] = (
    "rules",
    "score",
    "play",
    "stats",
    "solve",
    "protocol",
    "export",
    "import",
    "prune",
    "review",
    "advise",
    "simulate",
    "analyze",
    "cache",
    "verify",
)

PLUGIN_GROUP = "yatzy.commands"
"""The entry-point group of the commands other packages add (``serve``: the web app)."""


def registered_commands() -> dict[str, str]:
    """The commands registered under :data:`PLUGIN_GROUP`: name to module, by name
    (read from the installed package's metadata; nothing is imported)."""
    # importlib.metadata costs the start-up of every command (~10 ms): only here.
    from importlib.metadata import entry_points

    found = {ep.name: ep.value for ep in entry_points(group=PLUGIN_GROUP)}
    return {name: found[name] for name in sorted(found) if name not in COMMANDS}


def command_module(name: str, registered: dict[str, str] | None = None) -> ModuleType:
    """The module of command ``name``: the command line's own, or a registered one."""
    if name in COMMANDS:
        return importlib.import_module(f"yatzy.cli.cmd_{name}")
    modules = registered_commands() if registered is None else registered
    return importlib.import_module(modules[name])


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
    if only in COMMANDS:
        command_module(only).add_parser(sub)  # no metadata to read for the own ones
        return parser
    registered = registered_commands()
    for name in (*COMMANDS, *registered):
        if only is None or name == only:
            command_module(name, registered).add_parser(sub)
    return parser


def _is_command(word: str) -> bool:
    if word in COMMANDS:
        return True
    # Options and the help come first without a command: no metadata to read.
    return not word.startswith("-") and word in registered_commands()


def _said(exc: YatzyError, lang: object) -> str:
    """``exc`` in the command's ``--lang`` where the refusal has catalog words (a rules
    spec's), else as raised (the command's own refusals are worded in it already)."""
    if isinstance(exc, SpecError) and lang in ("sv", "fi", "en"):
        from yatzy.rules import explain_spec_error

        return explain_spec_error(exc, str(lang))
    return str(exc)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (2 for any bad input)."""
    words = sys.argv[1:] if argv is None else list(argv)
    command = words[0] if words and _is_command(words[0]) else None
    args: argparse.Namespace | None = None
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
        print(f"yatzy: error: {_said(exc, getattr(args, 'lang', None))}", file=sys.stderr)
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
