"""Helpers shared by the subcommands: spec and dice arguments, languages, and the
line that names the optional extra a command's missing library comes with."""

from __future__ import annotations

import argparse

from yatzy.errors import DiceError
from yatzy.rules import LANGUAGES, RuleSet, parse_faces


def add_lang(
    parser: argparse.ArgumentParser, help_text: str = "language of names shown (default en)"
) -> None:
    """Add ``--lang sv|fi|en`` (``help_text``: what it means for this command)."""
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help=help_text)


def parse_dice(words: list[str]) -> list[int]:
    """Read dice from words like ``3 3 4``, ``334``, ``3,3,4`` or ``3-3-4`` (checked
    faces; a sign or a stray dash is refused, see :func:`yatzy.rules.parse_faces`)."""
    for word in words:
        if not word.strip():
            raise DiceError(f"empty die {word!r}")
    return parse_faces(" ".join(words))


def rules_arg(spec: str) -> RuleSet:
    """Parse a rules spec from the command line."""
    return RuleSet.parse(spec)


# The top-level modules each optional extra of pyproject.toml installs (what
# ``pip install 'yatzy[extra]'`` brings, the extras it names included), so that a
# command whose library is missing names the extra to install; a test keeps these
# equal to pyproject.toml.  llvmlite, starlette, pydantic and rich come with numba,
# fastapi and textual.
_SOLVER = frozenset(
    {
        "numpy",
        "numba",
        "llvmlite",
        "platformdirs",
        "filelock",
        "tqdm",
        "matplotlib",
        "openskill",
    }
)
_PROTOCOLS = frozenset({"openpyxl", "reportlab"})
_STORE = frozenset({"sqlalchemy", "alembic", "orjson"})
EXTRA_MODULES: dict[str, frozenset[str]] = {
    "solver": _SOLVER,
    "protocols": _PROTOCOLS,
    "tui": _SOLVER | _STORE | {"textual", "rich"},
    "web": _SOLVER
    | _PROTOCOLS
    | _STORE
    | {
        "fastapi",
        "starlette",
        "pydantic",
        "uvicorn",
        "jinja2",
        "psycopg",
        "asyncpg",
        "segno",
        "fastapi_offline",
        "procrastinate",
        "redis",
        "argon2",
        "webauthn",
        "pywebpush",
    },
}
"""Optional extra to the top-level modules it installs, from the smallest extra up."""

COMMAND_EXTRAS: dict[str, str] = {
    "play": "tui",
    "stats": "tui",
    "solve": "solver",
    "advise": "solver",
    "simulate": "solver",
    "analyze": "solver",
    "cache": "solver",
    "protocol": "protocols",
    "export": "protocols",
    "import": "protocols",
    "serve": "web",
    "prune": "web",
    "review": "web",
    "worker": "web",
}
"""The extra each command is made for (``score`` and ``rules`` need none)."""


def missing_extra(command: str | None, error: ModuleNotFoundError) -> str | None:
    """The line telling what to install when ``error`` is a library of an optional
    extra that is not installed, or None when it is not one (a bug, to be raised).

    The command's own extra is named when it holds the library; otherwise the
    smallest extra that does (``yatzy play --bot optimal`` without numpy: tui).
    """
    module = (error.name or "").partition(".")[0]
    holders = [extra for extra, modules in EXTRA_MODULES.items() if module in modules]
    if not holders:
        return None
    own = COMMAND_EXTRAS.get(command or "")
    extra = own if own in holders else holders[0]
    who = f"yatzy {command}" if command else "yatzy"
    return (
        f"{who} needs the {extra} extra ({module} is not installed): pip install 'yatzy[{extra}]'"
    )
