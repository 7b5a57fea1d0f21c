"""Every code example of the README and the documentation site (docs/) runs.

Python examples are written as doctests (``>>>``) and run here file by file; a Python
block without ``>>>`` fails the check, so no example escapes the tests. Every line of a
shell block that starts with ``yatzy`` (or ``.venv/bin/yatzy``) must parse with the real
command line, and the cheap commands among them (rules, score, protocol) run to exit 0.
Every benchmark or script a page names exists.

Files whose examples build solver tables (numba compiles its kernels the first time, then
each table takes seconds) are in the slow tier. The examples run with the caches and the
data of the program in a temporary folder, never in the home of whoever runs the tests.
"""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from yatzy.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# These pages' examples build solver tables (minutes in a fresh checkout, numba compiling).
SLOW = {"README.md", "docs/solver.md", "docs/strategy.md"}
# Commands cheap enough to run from every page in the fast tier.
RUN = {"rules", "score", "protocol"}

FENCE = re.compile(
    r"^(?P<indent> *)```(?P<lang>\w*)[^\n]*\n(?P<body>.*?)^(?P=indent)```", re.M | re.S
)
# A benchmark or a script (benchmarks/bench_web.py, scripts/test) or a source file.
NAMED = re.compile(r"\b((?:benchmarks|scripts)/\w[\w-]*(?:\.\w+)?|src/yatzy/[\w/]*\w\.py)\b")


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _blocks(path: Path, lang: str) -> list[str]:
    """The bodies of the fenced blocks of ``lang`` in a page."""
    text = path.read_text(encoding="utf-8")
    return [m["body"] for m in FENCE.finditer(text) if m["lang"] == lang]


def _shell_commands(path: Path) -> list[list[str]]:
    """The ``yatzy`` command lines of a page's shell blocks, as argument lists."""
    commands = []
    for body in _blocks(path, "sh"):
        for line in body.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0] in ("yatzy", ".venv/bin/yatzy"):
                commands.append(words[1:])
            elif len(words) > 6 and words[-2:] == [".venv/bin/yatzy", "serve"]:
                commands.append(["serve"])  # the set-up line ends by starting the server
    return commands


def _params(slow: set[str]) -> list[object]:
    return [
        pytest.param(p, id=_name(p), marks=[pytest.mark.slow] if _name(p) in slow else [])
        for p in PAGES
    ]


@pytest.fixture
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Caches, data and state of the program in a temporary folder; that folder the cwd."""
    for name in ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_there_are_pages() -> None:
    """The list of pages is not empty by mistake (a moved docs/ would skip every test)."""
    names = {_name(p) for p in PAGES}
    assert {"README.md", "docs/index.md", "docs/library.md", "docs/rules.md"} <= names
    assert names >= SLOW


@pytest.mark.parametrize("path", _params(SLOW))
def test_python_examples_run(path: Path, private_home: Path) -> None:
    """Every ``>>>`` example of the page gives the output written under it."""
    blocks = _blocks(path, "python")
    for body in blocks:
        assert ">>>" in body, f"{_name(path)}: a Python example without >>>:\n{body}"
    text = path.read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, _name(path), str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    result = runner.run(test, out=report.append)
    assert result.failed == 0, "".join(report)
    assert result.attempted >= sum(body.count(">>>") for body in blocks)


@pytest.mark.parametrize("path", _params(set()))
def test_shell_examples_parse(path: Path, private_home: Path) -> None:
    """Every ``yatzy`` line parses with the real command line; the cheap ones run."""
    yatzy = Path(sys.executable).parent / "yatzy"
    for argv in _shell_commands(path):
        args = build_parser().parse_args(argv)  # a wrong option or value raises UsageError
        assert args.command == argv[0]
        if argv[0] in RUN:
            done = subprocess.run(
                [str(yatzy), *argv], capture_output=True, text=True, timeout=120, check=False
            )
            assert done.returncode == 0, f"{_name(path)}: yatzy {shlex.join(argv)}\n{done.stderr}"


@pytest.mark.parametrize("path", _params(set()))
def test_named_files_exist(path: Path) -> None:
    """Every benchmark, script or source file a page names is there."""
    text = path.read_text(encoding="utf-8")
    for found in NAMED.findall(text):
        target = ROOT / found
        assert target.exists(), f"{_name(path)} names {found}, which does not exist"


@pytest.mark.parametrize("path", _params(set()))
def test_fences_are_closed(path: Path) -> None:
    """Every code block is closed: an open fence would swallow the page's text after it."""
    fences = re.findall(r"^ *```", path.read_text(encoding="utf-8"), re.M)
    assert len(fences) % 2 == 0, f"{_name(path)} has an unclosed code block"


def test_readme_is_short() -> None:
    """The README is read in ten minutes: at most 200 lines, the rest lives in docs/."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    first = next(FENCE.finditer(text))
    assert first["body"].lstrip().startswith(">>>"), "the README's first example is a doctest"
