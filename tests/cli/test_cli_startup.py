"""Start-up of the command line: a command named first imports only its own module
(the others' imports cost a solver run about 0.1 s), and the help still lists all."""

from __future__ import annotations

import subprocess
import sys

import pytest

from yatzy.cli.main import COMMANDS, main, registered_commands


def test_a_named_command_imports_only_its_own_module() -> None:
    code = (
        "import sys\n"
        "from yatzy.cli.main import main\n"
        "main(['score', 'yatzy', '1', '1', '1', '1', '1'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('yatzy.cli.cmd_')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "['yatzy.cli.cmd_score']"


def test_the_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    listed = capsys.readouterr().out
    assert all(f"    {name} " in listed for name in (*COMMANDS, *registered_commands()))
    assert "    serve " in listed


def test_the_web_app_adds_serve_without_the_command_line_importing_it() -> None:
    # The command is registered by the package's metadata (pyproject.toml); naming it
    # first loads its module alone, not the app (FastAPI) nor the other commands.
    assert registered_commands()["serve"] == "yatzy.web.serve"
    code = (
        "import sys\n"
        "from yatzy.cli.main import main\n"
        "try:\n"
        "    main(['serve', '--help'])\n"
        "except SystemExit as exc:\n"
        "    assert exc.code == 0\n"
        "print(sorted(m for m in sys.modules if m.startswith(('yatzy.cli.cmd_', 'yatzy.web', "
        "'fastapi'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "--limit-create" in out.stdout  # every option of the command is there
    assert out.stdout.strip().splitlines()[-1] == "['yatzy.web', 'yatzy.web.serve']"


def test_an_unknown_command_is_still_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solv", "yatzy"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("yatzy: error:") and "'solv'" in err and "solve" in err
    assert len(err.splitlines()) == 1
