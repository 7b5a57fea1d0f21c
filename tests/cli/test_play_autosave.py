"""Nothing of a terminal game is lost (issue 24, terminal 1 and 2): every move is saved
by default, a hang-up (SIGHUP) or SIGTERM saves the game, ``--resume`` without a file
offers the latest unfinished games, a finished game's file is no longer called
``unfinished-…`` and resuming it never records the game twice."""

from __future__ import annotations

import io
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.test_cli_play import Run, in_order, lines
from yatzy.cli.main import main
from yatzy.cli.play_session import PlaySession
from yatzy.game import Game, Roll, Score, State, load, save
from yatzy.store import GameRepository
from yatzy.store.local import local_owner, owner_hash, record_finished_game_once
from yatzy.store.stats import finished_games_of


@pytest.fixture(autouse=True)
def rescue_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The folder autosaved and rescued games go to, private to the test."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state" / "yatzy"


@pytest.fixture
def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    """``yatzy play ARGS`` in-process with ``script`` on stdin (piped, not a terminal)."""

    def run(args: list[str], script: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(script))
        code = main(["play", *args])
        out, err = capsys.readouterr()
        return code, out, err

    return run


class _Tty(io.StringIO):
    """Scripted input that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _files(folder: Path) -> list[str]:
    """The game files in ``folder`` (the owner token of the statistics lives there too)."""
    return sorted(p.name for p in folder.glob("*.json"))


# -- every move saved ---------------------------------------------------------------------


def test_every_move_is_saved_by_default(tmp_path: Path) -> None:
    # At each prompt the autosaved file already holds the game as it stands.
    path = tmp_path / "auto" / "unfinished-x.json"
    state = Game("yatzy", ["A"]).new_initial_state()
    seen: list[tuple[int, object]] = []

    class Spy(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            if path.exists():
                saved = load(path)
                seen.append((saved.turn_number, saved.dice))
                assert saved.dice == state.dice and saved.turn_number == state.turn_number
            return super().readline()

    out = io.StringIO()
    session = PlaySession(
        state,
        stdin=Spy(lines("r", "k 1 2", "s 1", "r", "s chance")),
        stdout=out,
        rng=random.Random(3),
        autosave_path=str(path),
    )
    session.rescue_dir = str(tmp_path / "auto")
    assert session.run() == 1  # the end of input: saved where it was autosaved
    assert len(seen) == 5  # every prompt but the first (nothing played yet)
    assert load(path).turn_number == 2
    assert f"The unfinished game was saved to {path}." in out.getvalue()


def test_yatzy_play_autosaves_into_the_state_folder(play: Run, rescue_home: Path) -> None:
    code, _, _ = play(["--seed", "3", "A"], lines("r", "s 1", "r", "k 1 2"))
    assert code == 1
    [name] = _files(rescue_home)
    assert name.startswith("unfinished-")
    state = load(rescue_home / name)
    assert state.turn_number == 1 and state.rolls_used == 2


def test_nothing_is_saved_before_the_first_roll(play: Run, rescue_home: Path) -> None:
    code, _, _ = play(["--seed", "3", "A"], lines("?"))
    assert code == 1
    assert not rescue_home.exists()


def test_no_to_the_quit_offer_deletes_the_autosave(play: Run, rescue_home: Path) -> None:
    code, out, _ = play(["--seed", "2", "P"], lines("r", "k 1", "q", ""))
    assert code == 1 and "The game was not saved." in out
    assert _files(rescue_home) == []


def test_a_file_named_at_quit_takes_the_game_from_the_autosave(
    play: Run, rescue_home: Path, tmp_path: Path
) -> None:
    target = tmp_path / "later.json"
    code, _, _ = play(["--seed", "2", "P"], lines("r", "k 1", "q", str(target)))
    assert code == 1 and load(target).rolls_used == 2
    assert _files(rescue_home) == []  # kept once, where the player said


def test_no_autosave_saves_nothing_until_asked(
    monkeypatch: pytest.MonkeyPatch, rescue_home: Path
) -> None:
    state_seen: list[list[str]] = []

    class Spy(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            state_seen.append(_files(rescue_home))
            return super().readline()

    monkeypatch.setattr(sys, "stdin", Spy(lines("r", "k 1", "q", "")))
    code = main(["play", "--seed", "2", "--no-autosave", "P"])
    assert code == 1
    assert all(seen == [] for seen in state_seen)


# -- hang-up and SIGTERM ------------------------------------------------------------------


def _read_until(proc: subprocess.Popen[bytes], text: bytes, count: int, seen: bytearray) -> None:
    """Read the game's output into ``seen`` until ``text`` shows ``count`` times."""
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while seen.count(text) < count:
        assert time.monotonic() < deadline, seen.decode(errors="replace")[-400:]
        ready, _, _ = select.select([proc.stdout], [], [], 0.5)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, seen.decode(errors="replace")[-400:]
            seen.extend(chunk)


@pytest.mark.parametrize(
    ("signum", "extra"),
    [(signal.SIGTERM, []), (signal.SIGHUP, []), (signal.SIGHUP, ["--no-autosave"])],
    ids=["sigterm", "sighup", "sighup-no-autosave"],
)
def test_a_hang_up_or_sigterm_saves_the_game(
    tmp_path: Path, signum: signal.Signals, extra: list[str]
) -> None:
    state_home = tmp_path / "state"
    env = {**os.environ, "XDG_STATE_HOME": str(state_home)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "yatzy.cli.main", "play", "--seed", "3", *extra, "A"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None
    seen = bytearray()
    try:
        _read_until(proc, b"A> ", 1, seen)
        proc.stdin.write(b"r\n")
        proc.stdin.flush()
        _read_until(proc, b"A> ", 2, seen)  # rolled, and waiting at the prompt again
        proc.send_signal(signum)
        code = proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 128 + signum
    [saved] = list((state_home / "yatzy").iterdir())
    assert saved.name.startswith("unfinished-")
    assert load(saved).dice is not None and load(saved).rolls_used == 1
    assert proc.stderr is not None and b"Traceback" not in proc.stderr.read()


# -- finished games -----------------------------------------------------------------------


def test_a_finished_games_autosave_is_no_longer_called_unfinished(
    play: Run, rescue_home: Path, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'stats.db'}"
    code, out, _ = play(["--seed", "5", "--database-url", db, "Z"], lines(*in_order(15)))
    assert code == 0
    [name] = _files(rescue_home)
    assert name.startswith("finished-")
    assert f"The finished game's record is in {rescue_home / name}." in out
    assert load(rescue_home / name).is_terminal()


def _finished_record(path: Path, seed: int = 5) -> State:
    state = Game("yatzy", ["Z"]).new_initial_state()
    rng = random.Random(seed)
    for box in state.rules.boxes:
        state.apply(Roll())
        state.roll(rng)
        state.apply(Score(box))
    save(state, path)
    return state


def test_resuming_a_finished_game_never_records_it_twice(
    play: Run, tmp_path: Path, rescue_home: Path
) -> None:
    rescue_home.mkdir(parents=True)
    rescued = rescue_home / "unfinished-20261126-101010-1.json"
    _finished_record(rescued)
    db = f"sqlite:///{tmp_path / 'stats.db'}"
    code, out, _ = play(["--resume", str(rescued), "--database-url", db])
    assert code == 0 and "kept in your statistics" in out
    renamed = rescue_home / "finished-20261126-101010-1.json"
    assert not rescued.exists() and load(renamed).is_terminal()
    for _ in range(2):
        code, out, _ = play(["--resume", str(renamed), "--database-url", db])
        assert code == 0
        assert "in your statistics already; it is not counted twice" in out
    repo = GameRepository.open(db)
    try:
        assert len(finished_games_of(repo, owner_hash(local_owner()))) == 1
    finally:
        repo.close()


def test_recording_the_same_game_twice_stores_it_once(tmp_path: Path) -> None:
    state = _finished_record(tmp_path / "g.json")
    db = f"sqlite:///{tmp_path / 'once.db'}"
    first = record_finished_game_once(state, url=db, owner="tok")
    again = record_finished_game_once(load(tmp_path / "g.json"), url=db, owner="tok")
    assert first == (first[0], True) and again == (first[0], False)
    other = record_finished_game_once(state, url=db, owner="someone else")
    assert other[1] and other[0] != first[0]  # the same dice of another owner: their own game


# -- resume without a file ----------------------------------------------------------------


def _unfinished(folder: Path, name: str, players: list[str], age: float) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    state = Game("yatzy", players).new_initial_state(0)
    state.apply(Roll())
    state.roll(random.Random(1))
    path = folder / name
    save(state, path)
    when = time.time() - age
    os.utime(path, (when, when))
    return path


def test_resume_without_a_file_offers_the_latest_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], rescue_home: Path
) -> None:
    older = _unfinished(rescue_home, "unfinished-1.json", ["Ann", "Bo"], 3600)
    newer = _unfinished(rescue_home, "unfinished-2.json", ["Cid"], 60)
    _finished_record(rescue_home / "finished-3.json")  # over: not offered
    (rescue_home / "notes.json").write_text("{}")  # not a record: passed over
    monkeypatch.setattr(sys, "stdin", _Tty("7\n2\nq\n"))
    code = main(["play", "--resume"])
    out = capsys.readouterr().out
    assert code == 1
    listed = [ln for ln in out.splitlines() if ln.lstrip()[:2] in ("1.", "2.", "3.")]
    assert len(listed) == 2
    assert listed[0].endswith(str(newer)) and "Cid" in listed[0]
    assert listed[1].endswith(str(older)) and "Ann, Bo" in listed[1]
    assert "7 is not a game's number" in out
    assert f"Resumed {older}" in out
    assert f"Saved to {older}." in out  # q saves to the file it came from


def test_resume_without_a_file_and_without_a_terminal_is_one_line(
    play: Run, rescue_home: Path
) -> None:
    newer = _unfinished(rescue_home, "unfinished-2.json", ["Cid"], 60)
    code, out, err = play(["--resume", "--lang", "en"])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"yatzy play --resume {newer}" in err


def test_resume_without_a_file_when_there_is_none(play: Run, rescue_home: Path) -> None:
    code, _, err = play(["--resume", "--lang", "sv"])
    assert code == 2 and err.count("\n") == 1
    assert f"inget oavslutat spel i {rescue_home}" in err


def test_resume_speaks_the_language_the_game_was_played_in(play: Run, rescue_home: Path) -> None:
    code, _, _ = play(["--seed", "3", "--lang", "sv", "A"], lines("r", "s 1", "r"))
    assert code == 1
    [name] = _files(rescue_home)
    path = rescue_home / name
    assert json.loads(path.read_text(encoding="utf-8"))["lang"] == "sv"
    code, out, _ = play(["--resume", str(path)], lines("q"))
    assert code == 1 and f"Fortsätter {path}" in out  # no --lang: the record's Swedish
    code, out, _ = play(["--resume", str(path), "--lang", "en"], lines("q"))
    assert code == 1 and f"Resumed {path}" in out  # --lang still wins
    assert json.loads(path.read_text(encoding="utf-8"))["lang"] == "en"  # saved as played
