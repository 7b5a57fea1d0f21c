"""Optional extras: ``pip install yatzy`` is the pure-Python core, and a command whose
extra is not installed answers one line naming it (exit 2), simulated here by making
the library unimportable (``sys.modules[name] = None``) in a fresh interpreter."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from yatzy.cli.common import COMMAND_EXTRAS, EXTRA_MODULES, missing_extra
from yatzy.cli.main import COMMANDS, main, registered_commands

ROOT = Path(__file__).resolve().parents[2]
# Modules that come with another library of the same extra, not named in pyproject.
_BROUGHT_ALONG = {"llvmlite", "starlette", "pydantic", "rich"}
# Distributions whose top-level module has another name.
_MODULE_OF = {"argon2_cffi": "argon2"}
_EVERY_EXTRA = sorted(set().union(*EXTRA_MODULES.values()))


def _extras() -> dict[str, list[str]]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    extras: dict[str, list[str]] = data["project"]["optional-dependencies"]
    return extras


def _modules_of(extra: str, extras: dict[str, list[str]]) -> set[str]:
    """The top-level modules ``yatzy[extra]`` installs, its own extras followed."""
    found: set[str] = set()
    for requirement in extras[extra]:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)
        assert name is not None, requirement
        if name.group() == "yatzy":
            inner = re.search(r"\[(.*)\]", requirement)
            assert inner is not None, requirement
            for other in inner.group(1).split(","):
                found |= _modules_of(other.strip(), extras)
        else:
            module = name.group().lower().replace("-", "_")
            found.add(_MODULE_OF.get(module, module))
    return found


def test_the_core_needs_no_library_and_the_extras_match_the_cli() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert data["project"]["dependencies"] == []
    extras = _extras()
    assert set(extras) == {*EXTRA_MODULES, "all"}
    for extra, modules in EXTRA_MODULES.items():
        assert _modules_of(extra, extras) == modules - _BROUGHT_ALONG, extra
    assert _modules_of("all", extras) == set(_EVERY_EXTRA) - _BROUGHT_ALONG


def test_every_command_but_the_core_ones_names_its_extra() -> None:
    # The command line's own commands and the registered ones (yatzy serve, the web app's).
    every = set(COMMANDS) | set(registered_commands())
    assert "serve" in every
    assert set(COMMAND_EXTRAS) == every - {"score", "rules", "verify"}
    assert set(COMMAND_EXTRAS.values()) <= set(EXTRA_MODULES)


def _run_without(modules: list[str], argv: list[str]) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys\n"
        f"for name in {modules!r}:\n"
        "    sys.modules[name] = None\n"
        "from yatzy.cli.main import main\n"
        f"sys.exit(main({argv!r}))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
    )


@pytest.mark.parametrize(
    ("missing", "argv", "extra"),
    [
        ("uvicorn", ["serve", "--port", "0"], "web"),
        ("sqlalchemy", ["prune", "--days", "30"], "web"),
        ("numpy", ["solve", "yatzy"], "solver"),
        ("reportlab", ["protocol", "yatzy", "-o", "never-written.pdf"], "protocols"),
        ("sqlalchemy", ["stats"], "tui"),
        # The bot needs the solver, which the tui extra brings along.
        ("numpy", ["play", "--bot", "optimal", "--no-record", "--seed", "1"], "tui"),
    ],
)
def test_a_command_without_its_extra_names_it(missing: str, argv: list[str], extra: str) -> None:
    out = _run_without([missing], argv)
    assert out.returncode == 2, out.stderr
    command = argv[0]
    assert out.stderr.splitlines() == [
        f"yatzy {command} needs the {extra} extra ({missing} is not installed): "
        f"pip install 'yatzy[{extra}]'"
    ]
    assert not (ROOT / "never-written.pdf").exists()


def test_the_core_commands_run_without_any_extra() -> None:
    out = _run_without(_EVERY_EXTRA, ["score", "yatzy", "3", "3", "3", "5", "5"])
    assert out.returncode == 0, out.stderr
    assert re.search(r"Full House\s+19", out.stdout)
    out = _run_without(_EVERY_EXTRA, ["rules", "yahtzee"])
    assert out.returncode == 0, out.stderr
    assert "Yahtzee" in out.stdout
    out = _run_without(_EVERY_EXTRA, ["verify", "/no/such/record.json"])
    assert out.returncode == 2 and "cannot read" in out.stderr  # its own answer, no extra named


def test_a_missing_module_of_no_extra_is_a_bug_and_raised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import yatzy.cli.cmd_score as cmd_score

    def broken(args: object) -> int:
        raise ModuleNotFoundError("No module named 'yatzy.gone'", name="yatzy.gone")

    monkeypatch.setattr(cmd_score, "run", broken)
    with pytest.raises(ModuleNotFoundError, match=r"yatzy\.gone"):
        main(["score", "yatzy", "1", "1", "1", "1", "1"])
    assert missing_extra("score", ModuleNotFoundError(name="yatzy.gone")) is None
    assert missing_extra(None, ModuleNotFoundError(name="numba.core")) == (
        "yatzy needs the solver extra (numba is not installed): pip install 'yatzy[solver]'"
    )
