"""``yatzy play``: scripted complete games, save and resume, bots, errors."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from yatzy.cli.main import main
from yatzy.cli.play_session import BoxResolver, PlaySession, PromptError, random_draws
from yatzy.game import Fill2, Game, Player, Roll, Score, Scratch, State, load, save
from yatzy.rules import RuleSet

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture(autouse=True)
def rescue_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Games cut off by the end of input are rescued under a temporary state dir."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state" / "yatzy"


@pytest.fixture
def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    """Run ``yatzy play ARGS`` in-process with ``script`` on stdin."""

    def run(args: Iterable[str], script: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(script))
        code = main(["play", *args])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def lines(*commands: str) -> str:
    """A script: one command a line."""
    return "".join(c + "\n" for c in commands)


def in_order(num_boxes: int, *, rolls: tuple[str, ...] = ("r", "k 1 2", "r")) -> list[str]:
    """One player's turns writing the boxes in protocol order, by row number."""
    out: list[str] = []
    for n in range(1, num_boxes + 1):
        out += [*rolls, f"s {n}"]
    return out


def interleave(per_player: list[list[str]], turn_len: int, starter: int) -> list[str]:
    """Seat order from ``starter``: each player's next ``turn_len`` commands in turn."""
    queues = [list(p) for p in per_player]
    out: list[str] = []
    seat = starter
    while any(queues):
        out += queues[seat][:turn_len]
        del queues[seat][:turn_len]
        seat = (seat + 1) % len(queues)
    return out


def starter_for(seed: int, players: int) -> int:
    """Who wins the roll-off with ``random.Random(seed)`` (as the state decides it)."""
    state = Game("yatzy", [f"p{i}" for i in range(players)]).new_initial_state()
    state.roll(random.Random(seed))
    assert state.starter is not None
    return state.starter


def final_row(out: str, label: str) -> list[int]:
    """The numbers of the last table row called ``label``."""
    rows = [ln for ln in out.splitlines() if re.match(rf"\s*{re.escape(label)}(\s+-?\d+)+\s*$", ln)]
    assert rows, f"no {label} row in the output"
    return [int(x) for x in rows[-1][len(label) :].split() if re.fullmatch(r"-?\d+", x)]


def replay_with_library(record_path: Path, seed: int) -> State:
    """The saved game replayed through the library with ``random.Random(seed)`` dice."""
    saved = load(record_path)
    data = json.loads(record_path.read_text(encoding="utf-8"))
    state = Game(saved.rules, list(saved.players)).new_initial_state()
    rng = random.Random(seed)
    if state.is_chance_node():  # the roll-off (none for one player)
        state.roll(rng)
    for turn in data["turns"]:
        for roll in turn["rolls"]:
            state.apply(Roll(tuple(roll["keep"])))
            state.roll(rng)
        if "inner" in turn:
            inner, outer = (
                Scratch(turn[k]["box"]) if turn[k].get("scratch") else Score(turn[k]["box"])
                for k in ("inner", "outer")
            )
            state.apply(Fill2(inner, outer))
        elif turn.get("scratch"):
            state.apply(Scratch(turn["box"]))
        else:
            state.apply(Score(turn["box"]))
    return state


# -- complete games -----------------------------------------------------------------------


def test_complete_two_player_yatzy_game(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    starter = starter_for(4, 2)
    script = interleave([in_order(15), in_order(15)], 4, starter)
    code, out, err = play(["--seed", "4", "--save", str(record), "Anna", "Bo"], lines(*script))
    assert code == 0, err
    assert err == ""
    state = load(record)
    assert state.is_terminal()
    assert final_row(out, "Total") == state.totals()
    assert "Who starts? Everyone rolls one die:" in out
    assert f"{state.players[starter].name} starts." in out
    best = max(state.totals())
    winners = [state.players[i].name for i in state.winners()]
    if len(winners) == 1:
        assert f"Winner: {winners[0]} with {best}\u00a0points." in out
    assert "! " not in out  # no command was refused
    # The dice are random.Random(4)'s, in order: the library reproduces the game.
    assert replay_with_library(record, 4) == state


def test_complete_yahtzee_game_shows_yatzy_bonus_row(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "y.json"
    code, out, _ = play(
        ["--rules", "yahtzee", "--seed", "9", "--save", str(record), "Solo"],
        lines(*in_order(13)),
    )
    assert code == 0
    state = load(record)
    assert state.is_terminal()
    assert final_row(out, "Total") == state.totals()
    assert final_row(out, "Yahtzee bonus") == [state.sheets[0].yatzy_bonus]
    assert f"Solo scores {state.totals()[0]}\u00a0points." in out
    assert "Yahtzee (yahtzee)" in out


def test_maxi_saved_rolls_accumulate_and_run_out(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    # Nineteen turns write after one roll (2 rolls saved each), the last uses all 41.
    script = [c for n in range(1, 20) for c in ("r", f"s {n}")]
    script += ["r", *["r"] * 40, "r", "s 20"]
    code, out, _ = play(
        ["--rules", "maxi+saved_rolls", "--seed", "2", "--save", str(record), "Mia"],
        lines(*script),
    )
    assert code == 0
    assert "Rolls left: 4 of 5 (2 saved from earlier turns)" in out
    assert "Rolls left: 40 of 41 (38 saved from earlier turns)" in out
    assert "Rolls left: 0 of 41" in out
    # The 42nd roll is refused with one line and the game goes on.
    assert out.count("! no rolls left this turn") == 1
    state = load(record)
    assert state.is_terminal()
    assert len(state.log[-1]["rolls"]) == 41
    assert final_row(out, "Total") == state.totals()


def test_dubbel_game_two_boxes_a_turn(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "d.json"
    script: list[str] = []
    for n in range(1, 16, 2):
        script += ["r", f"s {n} {n + 1}"]
    code, out, _ = play(
        ["--rules", "dubbel", "--seed", "3", "--save", str(record), "--lang", "sv", "Eva"],
        lines(*script),
    )
    assert code == 0
    state = load(record)
    assert state.is_terminal()
    assert final_row(out, "Slutsumma") == state.totals()
    assert final_row(out, "Totalsumma") == [state.sheets[0].total]
    assert "Tärningar" in out and "yttre" in out and "inre" in out
    assert "Eva skriver" in out
    assert replay_with_library(record, 3) == state


def test_game_with_bots(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "b.json"
    starter = starter_for(6, 3)
    code, out, err = play(
        ["--seed", "6", "--bot", "greedy", "--bot", "random:Robo", "--save", str(record), "Ann"],
        lines(*in_order(15, rolls=("r",))),
    )
    assert code == 0, err
    state = load(record)
    assert state.is_terminal()
    assert [(p.name, p.bot) for p in state.players] == [
        ("Ann", None),
        ("Greedy", "greedy"),
        ("Robo", "random"),
    ]
    assert "Greedy (bot) writes" in out
    assert "Robo (bot random) " in out
    assert final_row(out, "Total") == state.totals()
    assert "Final standings:" in out
    assert state.starter == starter


def test_shared_win_when_totals_tie(play: Run) -> None:
    starter = starter_for(1, 2)
    scratch_all = [c for n in range(1, 16) for c in ("r", f"x {n}")]
    code, out, _ = play(
        ["--seed", "1", "A", "B"], lines(*interleave([scratch_all] * 2, 2, starter))
    )
    assert code == 0
    assert "Shared win: A and B with 0\u00a0points each." in out
    assert "   1. A     0" in out and "   1. B     0" in out


def test_rolloff_ties_are_rolled_again(play: Run) -> None:
    seed = next(s for s in range(1000) if _first_two_equal(s))
    code, out, _ = play(["--seed", str(seed), "A", "B"], "")
    assert code == 1
    assert "tie at" in out
    assert re.search(r"\n\S+ starts\.", out)


def _first_two_equal(seed: int) -> bool:
    rng = random.Random(seed)
    return rng.randint(1, 6) == rng.randint(1, 6)


# -- save and resume -----------------------------------------------------------------------


def test_resume_mid_turn_gives_the_same_game(play: Run, tmp_path: Path) -> None:
    starter = starter_for(8, 2)
    script = interleave([in_order(15), in_order(15)], 4, starter)
    whole = tmp_path / "whole.json"
    code, out_whole, _ = play(["--seed", "8", "--save", str(whole), "A", "B"], lines(*script))
    assert code == 0
    # The same game stopped after the second roll of turn 7, then resumed.
    cut = 6 * 4 + 2
    part = tmp_path / "part.json"
    code, out, _ = play(["--seed", "8", "--save", str(part), "A", "B"], lines(*script[:cut]))
    assert code == 1
    assert "End of input: the game stops unfinished." in out
    assert f"Saved to {part}." in out
    mid = load(part)
    assert not mid.is_terminal() and mid.dice is not None and mid.rolls_used == 2
    code, out, _ = play(["--seed", "8", "--resume", str(part)], lines(*script[cut:]))
    assert code == 0
    assert f"Resumed {part}: yatzy, 6 turns played." in out
    assert load(part) == load(whole)
    assert json.loads(part.read_text()) == json.loads(whole.read_text())
    assert final_row(out, "Total") == final_row(out_whole, "Total")


def test_resume_a_finished_game_shows_the_result(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "done.json"
    play(["--seed", "5", "--save", str(record), "Z"], lines(*in_order(15)))
    code, out, _ = play(["--resume", str(record)], "")
    assert code == 0
    assert "Game over." in out
    assert final_row(out, "Total") == load(record).totals()


def test_quit_offers_to_save(play: Run, tmp_path: Path) -> None:
    target = tmp_path / "later.json"
    code, out, _ = play(["--seed", "2", "P"], lines("r", "k 1", "q", str(target)))
    assert code == 1
    assert f"Saved to {target}." in out
    assert f"yatzy play --resume {target}" in out
    state = load(target)
    assert state.rolls_used == 2 and state.turn_number == 0


def test_quit_without_saving(play: Run, tmp_path: Path) -> None:
    code, out, _ = play(["--seed", "2", "P"], lines("r", "q", ""))
    assert code == 1
    assert "The game was not saved." in out


@pytest.mark.parametrize(("lang", "no"), [("en", "n"), ("en", "No"), ("sv", "nej"), ("fi", "e")])
def test_a_no_to_the_save_offer_writes_no_file_called_no(
    play: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, no: str
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, _ = play(["--seed", "2", "--lang", lang, "P"], lines("r", "q", no))
    assert code == 1
    assert [p.name for p in tmp_path.iterdir() if p.name != "state"] == []


@pytest.mark.parametrize(("lang", "yes"), [("en", "y"), ("sv", "ja"), ("fi", "k")])
def test_a_yes_to_the_save_offer_saves_in_the_rescue_folder(
    play: Run,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    rescue_home: Path,
    lang: str,
    yes: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = play(["--seed", "2", "--lang", lang, "P"], lines("r", "k 1", "q", yes))
    assert code == 1
    assert not (tmp_path / yes).exists()
    [saved] = list(rescue_home.iterdir())
    assert f"yatzy play --resume {saved}" in out
    assert load(saved).rolls_used == 2


def test_save_command_and_failed_save(play: Run, tmp_path: Path) -> None:
    target = tmp_path / "snap.json"
    missing = tmp_path / "no" / "such" / "dir.json"
    code, out, _ = play(
        ["--seed", "2", "P"], lines("r", f"save {target}", f"save {missing}", "save")
    )
    assert code == 1
    assert load(target).rolls_used == 1
    assert f"! could not save to {missing}: No such file or directory" in out
    assert "! give a file name: save FILE" in out


# -- the prompt -----------------------------------------------------------------------------


def test_bad_commands_are_refused_and_asked_again(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    bad_before_roll = ["s 1", "k 1 2", "v 3"]
    bad_after_roll = [
        "frobnicate",
        "k 9",
        "k 1 1",
        "k",
        "k 1 2 3 4 5",
        "v 7",
        "s nosuchbox",
        "s 99",
        "s two",
        "s",
        "r twice",
        "save",
    ]
    script = [*bad_before_roll, "r", *bad_after_roll, "s ones", "r", "s ones"]
    code, out, _ = play(["--seed", "3", "--save", str(record), "P"], lines(*script))
    assert code == 1
    refusals = [ln for ln in out.splitlines() if ln.startswith("! ")]
    assert refusals == [
        "! roll first: type r",
        "! roll first: type r",
        "! roll first: type r",
        "! unknown command 'frobnicate'; type ? for help",
        "! '9' is not a die position 1-5",
        "! die position 1 is given twice",
        "! say which dice to keep, e.g. k 1 3 (or r to roll every die)",
        "! keeping every die leaves nothing to roll: score instead",
        "! '7' is not a die value 1-6",
        "! no box 'nosuchbox'; give its number 1-15, its name or its id",
        "! no box '99'; give its number 1-15, its name or its id",
        "! 'two' could be Twos, Two Pairs; write more of the name",
        "! name a box, e.g. s 1 or s chance",
        "! r takes no arguments",
        "! give a file name: save FILE",
        "! Ones is already filled",
    ]
    state = load(record)
    assert state.turn_number == 1 and state.rolls_used == 1  # only the good commands counted


def test_forced_order_marks_and_refuses_other_boxes(play: Run) -> None:
    code, out, _ = play(["--rules", "yatzy+forced", "--seed", "3", "P"], lines("r", "s chance"))
    assert code == 1
    assert (
        '! Chance may not be filled now: the rule "forced order" fills the boxes from top to '
        "bottom; next: Ones"
    ) in out
    assert "(n): what the box would score, but it may not be filled now (forced order)" in out
    chance_row = [ln for ln in out.splitlines() if re.match(r"\s*14\s+Chance\b", ln)][-1]
    assert re.search(r"│\s+\(\d+\)$", chance_row)


def test_keep_by_value_and_roll_the_rest_again() -> None:
    state = Game("yatzy", ["P"]).new_initial_state()
    out = io.StringIO()
    session = PlaySession(state, stdin=io.StringIO(""), stdout=out, rng=random.Random(0))
    state.apply(Roll())
    state.apply_roll([2, 5, 2, 6, 5])
    with pytest.raises(PromptError, match="only 1 of the dice show 6"):
        session.handle("v 6 6")
    with pytest.raises(PromptError, match="no die shows 1"):
        session.handle("v 1")
    session.handle("v 5 2 5")
    assert state.dice is not None
    assert state.log[-1]["rolls"][-1]["keep"] == [0, 1, 4]
    assert [state.dice[i] for i in (0, 1, 4)] == [2, 5, 5]
    # r rolls the dice that were not kept: the same keep again.
    session.handle("r")
    assert state.log[-1]["rolls"][-1]["keep"] == [0, 1, 4]
    assert state.rolls_left() == 0
    with pytest.raises(PromptError, match="no rolls left"):
        session.handle("r")


def test_roll_all_and_keep_forms() -> None:
    state = Game("maxi", ["P"]).new_initial_state()
    session = PlaySession(state, stdin=io.StringIO(""), stdout=io.StringIO(), rng=random.Random(0))
    session.handle("r")
    session.handle("k 1,3 56")
    assert state.log[-1]["rolls"][-1]["keep"] == [0, 2, 4, 5]
    session.handle("r all")
    assert state.log[-1]["rolls"][-1]["keep"] == []


def test_box_resolver_names_numbers_prefixes() -> None:
    yatzy = BoxResolver(RuleSet.parse("yatzy"), "en")
    assert yatzy.resolve("7") == "one_pair"
    assert yatzy.resolve("full house") == "full_house"
    assert yatzy.resolve("FULL_HOUSE") == "full_house"
    assert yatzy.resolve("kåk") == "full_house"  # Swedish names work in every language
    assert yatzy.resolve("täyskäsi") == "full_house"
    assert yatzy.resolve("sm") == "small_straight"
    with pytest.raises(PromptError, match="no box 'liten'"):
        yatzy.resolve("liten")  # a start of a name only in the game's language
    assert yatzy.resolve("liten stege") == "small_straight"
    assert yatzy.resolve("ett par") == "one_pair"
    assert yatzy.resolve("2 paria") == "two_pairs"
    assert yatzy.resolve("ch") == "chance"
    with pytest.raises(PromptError, match="could be Sixes, Small Straight; write more"):
        BoxResolver(RuleSet.parse("yatzy"), "en").resolve("s")
    maxi = BoxResolver(RuleSet.parse("maxi"), "sv")
    with pytest.raises(PromptError, match="kan vara Fyror, Fyrtal"):
        maxi.resolve("fyr")
    assert maxi.resolve("full") == "full_straight"  # Swedish: Full straight only
    assert maxi.resolve("ett par") == maxi.resolve("1 par") == "one_pair"
    assert maxi.resolve("20") == "maxi_yatzy"
    with pytest.raises(PromptError, match="ingen ruta 'yatzy x'"):
        maxi.resolve("yatzy x")
    assert BoxResolver(RuleSet.parse("yahtzee"), "en").resolve("yahtzee") == "yatzy"


def _dubbel_session(spec: str = "dubbel") -> tuple[State, PlaySession]:
    state = Game(spec, ["P"]).new_initial_state()
    session = PlaySession(state, stdin=io.StringIO(""), stdout=io.StringIO(), rng=random.Random(0))
    state.apply(Roll())
    state.apply_roll([(6, 5), (6, 4), (4, 3), (3, 2), (3, 2), (3, 1)])  # 003's example
    return state, session


@pytest.mark.parametrize(
    ("command", "inner", "outer"),
    [
        ("s small_straight full_house", ("small_straight", 15), ("full_house", 21)),
        ("s liten stege kåk", ("small_straight", 15), ("full_house", 21)),
        ("s 11 13", ("small_straight", 15), ("full_house", 21)),
        ("s 11/2 13/4", ("small_straight", 15), ("full_house", 21)),
        ("s 14/5 14/6", None, None),
        ("s chance x yatzy", ("chance", 16), ("yatzy", 0)),
        ("x 1 2", ("ones", 0), ("twos", 0)),
    ],
)
def test_dubbel_commands(
    command: str, inner: tuple[str, int] | None, outer: tuple[str, int] | None
) -> None:
    state, session = _dubbel_session()
    if inner is None:
        with pytest.raises(PromptError, match="two different boxes"):
            session.handle(command)
        assert state.turn_number == 0
        return
    session.handle(command)
    turn = state.log[-1]
    assert (turn["inner"]["box"], turn["inner"]["points"]) == inner
    assert (turn["outer"]["box"], turn["outer"]["points"]) == outer


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("s 11", "DubbelYatzy fills two boxes"),
        ("s 11/7 13", "'7' is not a face to drop"),
        ("s 11/6 13", "dropped face 6 is not among the inner dice"),
        ("s extra x chance", None),
        ("x extra chance", "Extra may not be scratched"),
    ],
)
def test_dubbel_refusals(command: str, message: str | None) -> None:
    state, session = _dubbel_session()
    if message is None:
        session.handle(command)
        assert state.turn_number == 1
        return
    with pytest.raises(PromptError, match=re.escape(message)):
        session.handle(command)
    assert state.turn_number == 0


def test_dubbel_keep_by_value_inner_first() -> None:
    state, session = _dubbel_session()
    with pytest.raises(PromptError, match="no die shows 6/6"):
        session.handle("v 6/6")
    with pytest.raises(PromptError, match="only 2 of the dice show 2"):
        session.handle("v 2 2 2")
    with pytest.raises(PromptError, match="'7/1' is not a double die"):
        session.handle("v 7/1")
    session.handle("v 2/3 4 2")  # (outer 3, inner 2); inner 4; another inner 2
    assert state.log[-1]["rolls"][-1]["keep"] == [1, 3, 4]


def test_dubbel_forced_names_the_allowed_pair() -> None:
    _state, session = _dubbel_session("dubbel+forced")
    with pytest.raises(PromptError, match=r"next: Ones \+ Twos"):
        session.handle("s 1 3")


# -- languages and the board -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("sv", ["Vem börjar?", "Ettor", "Summa", "Bonusläge", "Totalsumma", "skriv r för att slå"]),
        ("fi", ["Kuka aloittaa?", "Ykköset", "Hyvitys", "Yhteensä", "Heittoja jäljellä"]),
    ],
)
def test_languages(play: Run, lang: str, words: list[str]) -> None:
    code, out, _ = play(["--lang", lang, "--seed", "1", "A", "B"], lines("r", "", "?"))
    assert code == 1
    for word in words:
        assert word in out


def test_localized_commands_and_english_ones(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "sv.json"
    script = ["slå", "behåll 1 2", "skriv ettor", "r", "s twos"]
    code, _, _ = play(["--lang", "sv", "--seed", "1", "--save", str(record), "A"], lines(*script))
    assert code == 1
    state = load(record)
    assert state.turn_number == 2
    assert not state.sheets[0].is_open("ones") and not state.sheets[0].is_open("twos")


def test_default_player_name_from_user(play: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USER", "kalle")
    code, out, _ = play(["--seed", "1"], "")
    assert code == 1
    assert "kalle: type r to roll" in out
    monkeypatch.delenv("USER")
    _, out, _ = play(["--seed", "1"], "")
    assert "Player: type r to roll" in out


def test_random_draws_counts_every_die() -> None:
    state = Game("dubbel", ["A", "B"]).new_initial_state()
    rng = random.Random(0)
    state.roll(rng)
    rolloff = sum(len(r) for r in state.rolloff)
    state.apply(Roll())
    state.roll(rng)
    state.apply(Roll((0, 1)))
    state.roll(rng)
    assert random_draws(state) == rolloff + 2 * 6 + 2 * 4


# -- errors: one line on stderr, exit code 2 -------------------------------------------------


def _tampered(tmp_path: Path) -> Path:
    state = Game("yatzy", ["A"]).new_initial_state()
    state.apply(Roll())
    state.apply_roll([1, 2, 3, 4, 5])
    state.apply(Score("chance"))
    path = tmp_path / "bad.json"
    save(state, path)
    data = json.loads(path.read_text())
    data["turns"][0]["rolls"][0]["dice"][0] = 7
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "nope", "A"], "unknown rule set 'nope'"),
        (["--rules", "yatzy+forced+half_forced", "A"], "exclude each other"),
        (["--lang", "de", "A"], "argument --lang: invalid choice: 'de'"),
        (["--seed", "x", "A"], "argument --seed: invalid int value: 'x'"),
        (["A", "a"], "player name 'a' is given twice"),
        (["--bot", "genius", "A"], "unknown bot level 'genius'; valid: random, greedy"),
        (["--save", "/no/such/dir/g.json", "A"], "cannot save to /no/such/dir/g.json"),
        (["--resume", "/no/such/file.json"], "cannot read /no/such/file.json"),
        (["--resume", "{tampered}"], "turn 1, rolls[0].dice[0]: die 7 is not in 1-6"),
        (["--resume", "{notjson}"], "not JSON"),
        (["--resume", "{good}", "--rules", "maxi"], "--rules maxi conflicts with the rules"),
        (["--resume", "{good}", "Bo"], "--resume takes the players from the record"),
        (["--resume", "{good}", "--bot", "random"], "--resume takes the bots from the record"),
    ],
)
def test_errors_exit_2_with_one_line(
    play: Run, tmp_path: Path, args: list[str], message: str
) -> None:
    good = tmp_path / "good.json"
    save(Game("yatzy", ["A"]).new_initial_state(), good)
    notjson = tmp_path / "notjson.json"
    notjson.write_text("{oops")
    files = {"{tampered}": str(_tampered(tmp_path)), "{notjson}": str(notjson), "{good}": str(good)}
    args = [files.get(a, a) for a in args]
    code, out, err = play(args, "")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("yatzy: error: ")
    assert message in err


def test_errors_in_a_real_process_have_no_traceback(tmp_path: Path) -> None:
    bad = _tampered(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "yatzy.cli.main", "play", "--resume", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"yatzy: error: {bad}: turn 1")
    assert proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr


def test_play_with_simple_bots_imports_no_numpy(tmp_path: Path) -> None:
    script = lines(*in_order(3, rolls=("r",)))
    code = (
        "import io, sys\n"
        f"sys.stdin = io.StringIO({script!r})\n"
        "from yatzy.cli.main import main\n"
        "rc = main(['play', '--seed', '1', '--bot', 'greedy', '--bot', 'random', 'A'])\n"
        "heavy = sorted(m for m in ('numpy', 'numba', 'scipy') if m in sys.modules)\n"
        "print('RC', rc, 'HEAVY', heavy)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert "Greedy (bot) writes" in proc.stdout
    assert proc.stdout.rstrip().endswith("RC 1 HEAVY []")


@pytest.mark.slow
def test_piped_session_in_a_real_process(tmp_path: Path) -> None:
    record = tmp_path / "p.json"
    proc = subprocess.run(
        [sys.executable, "-m", "yatzy.cli.main", "play", "--seed", "1", "--save", str(record), "A"],
        input=lines(*in_order(15)),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "\x1b[" not in proc.stdout  # no screen clearing when not on a terminal
    assert final_row(proc.stdout, "Total") == load(record).totals()


def test_joker_rule_marks_the_boxes_it_forbids() -> None:
    from yatzy.cli.terminal import protocol_table

    state = Game("yahtzee", ["P"]).new_initial_state()
    state.apply(Roll())
    state.apply_roll([2, 2, 2, 2, 2])
    state.apply(Score("yatzy"))
    state.apply(Roll())
    state.apply_roll([3, 3, 3, 3, 3])  # a second Yahtzee: Threes is open, so it must go there
    table = protocol_table(state, "en")
    assert table[-1] == ("(n): what the box would score, but it may not be filled now (joker rule)")
    threes = next(ln for ln in table if re.match(r"\s*3\s+Threes", ln))
    chance = next(ln for ln in table if re.match(r"\s*13\s+Chance", ln))
    assert threes.endswith("│   15")
    assert chance.endswith("│ (15)")
    session = PlaySession(state, stdin=io.StringIO(""), stdout=io.StringIO(), rng=random.Random(0))
    with pytest.raises(
        PromptError,
        match=r'Chance may not take this Yatzy: the rule "forced joker" .*; allowed: Threes',
    ):
        session.handle("s chance")
    session.handle("s threes")
    assert state.sheets[0].yatzy_bonus == 100


def test_terminal_mode_redraws_and_keeps_events_under_the_board() -> None:
    state = Game("yatzy", ["A", "B"]).new_initial_state(starter=0)
    out = io.StringIO()
    session = PlaySession(
        state,
        stdin=io.StringIO(lines("r", "s chance")),
        stdout=out,
        rng=random.Random(1),
        clear=True,
    )
    assert session.run() == 1
    text = out.getvalue()
    assert text.count("\x1b[H\x1b[2J") == 3  # a board before each of the three prompts
    last = text.rsplit("\x1b[H\x1b[2J", 1)[1]
    assert "A writes" in last and "in Chance" in last
    assert last.index("Total") < last.index("A writes") < last.index("B: type r to roll")


def test_undo_command_and_box_names_never_guessed(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "undo.json"
    starter = starter_for(4, 2)
    script = ["u", "r", "s chance", "u", "s 1.", "s -1", "s ones", "q"]
    code, out, _ = play(["--seed", "4", "--save", str(record), "A", "B"], lines(*script))
    assert code == 1
    assert "nothing to undo" in out
    name = "AB"[starter]
    assert f"{name} takes back Chance" in out
    assert "no box '1.'; give its number 1-15, its name or its id; did you mean Ones (1)?" in out
    assert "no box '-1'" in out
    state = load(record)
    turn = state.log[0]
    assert [u["box"] for u in turn["undone"]] == ["chance"]
    assert turn["box"] == "ones"
    assert state.sheets[starter].is_open("chance")


def test_swedish_kak_is_not_twos(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "kak.json"
    script = ["r", "s kak", "s kåk", "q"]
    code, out, _ = play(["--lang", "sv", "--seed", "2", "--save", str(record), "A"], lines(*script))
    assert code == 1
    assert "ingen ruta 'kak'" in out and "menade du Kåk (13)?" in out
    state = load(record)
    assert state.log[0]["box"] == "full_house" and state.sheets[0].is_open("twos")


def test_last_resort_marks_and_refuses_chance_and_scratches() -> None:
    from yatzy.cli.terminal import protocol_table

    state = Game("yatzy+last_resort", ["P"]).new_initial_state()
    state.apply(Roll())
    state.apply_roll([6, 6, 6, 2, 4])
    table = protocol_table(state, "en")
    assert table[-1] == (
        "(n): what the box would score, but it may not be filled now "
        "(last resort: Chance only when nothing else scores)"
    )
    chance = next(ln for ln in table if re.match(r"\s*14\s+Chance", ln))
    sixes = next(ln for ln in table if re.match(r"\s*6\s+Sixes", ln))
    assert chance.endswith("│ (24)") and sixes.endswith("│   18")
    session = PlaySession(state, stdin=io.StringIO(""), stdout=io.StringIO(), rng=random.Random(0))
    allowed = "allowed: Twos, Fours, Sixes, One Pair, Three of a Kind"
    with pytest.raises(PromptError, match=f"Chance may not take these dice: .*{allowed}"):
        session.handle("s chance")
    with pytest.raises(
        PromptError, match=r'Yatzy may not get 0 now: the rule "last resort" allows a 0 only when'
    ):
        session.handle("x yatzy")
    session.handle("s sixes")
    assert state.sheets[0].points("sixes") == 18


def test_maxi_saved_rolls_next_carry_at_most_two(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "n.json"
    # Every turn writes after one roll: 2 carried each time, never more.
    script = [c for n in range(1, 21) for c in ("r", f"s {n}")]
    code, out, _ = play(
        ["--rules", "maxi+saved_rolls=next", "--seed", "2", "--save", str(record), "Mia"],
        lines(*script),
    )
    assert code == 0
    assert "Rolls left: 4 of 5 (2 saved from earlier turns)" in out
    assert "of 7" not in out
    state = load(record)
    assert state.is_terminal() and state.sheets[0].saved_rolls == 2


# -- issue 14: no keystroke silently loses a game, a file or the dice ------------------------


class _Tty(io.StringIO):
    """Scripted input that says it is a terminal (a person at the keyboard)."""

    def isatty(self) -> bool:
        return True


def test_end_of_input_rescues_an_unsaved_game(play: Run, rescue_home: Path) -> None:
    code, out, _ = play(["--seed", "3", "A"], lines("r", "k 1 2"))
    assert code == 1
    assert "End of input: the game stops unfinished." in out
    [rescued] = list(rescue_home.iterdir())
    assert f"The unfinished game was saved to {rescued}." in out
    assert f"yatzy play --resume {rescued}" in out
    state = load(rescued)
    assert state.dice is not None and state.rolls_used == 2


def test_end_of_input_before_any_roll_saves_nothing(play: Run, rescue_home: Path) -> None:
    code, out, _ = play(["--lang", "sv", "--seed", "3", "A"], "")
    assert code == 1
    assert "Spelet sparades inte." in out
    assert not rescue_home.exists()


def test_ctrl_d_at_a_terminal_offers_to_save(tmp_path: Path) -> None:
    state = Game("yatzy", ["A"]).new_initial_state()
    target = tmp_path / "mine.json"
    out = io.StringIO()
    session = PlaySession(state, lang="fi", stdin=_Tty(), stdout=out, rng=random.Random(1))
    session.rescue_dir = str(tmp_path / "rescue")
    # "r", then Ctrl-D at the prompt (None); the offer is answered with a file name.
    answers = iter(["r", None, str(target)])

    def typed(prompt: str) -> str | None:
        out.write(prompt)
        return next(answers)

    session._read = typed  # type: ignore[method-assign]
    assert session.run() == 1
    assert "Tallennetaanko peli ennen lopetusta?" in out.getvalue()
    assert f"Tallennettu: {target}." in out.getvalue()
    assert load(target).dice is not None
    assert not (tmp_path / "rescue").exists()


def test_ctrl_d_twice_at_a_terminal_rescues_the_game(tmp_path: Path) -> None:
    state = Game("yatzy", ["A"]).new_initial_state()
    out = io.StringIO()
    session = PlaySession(state, stdin=_Tty(lines("r")), stdout=out, rng=random.Random(1))
    session.rescue_dir = str(tmp_path / "rescue")
    assert session.run() == 1
    assert "Save the game before quitting?" in out.getvalue()
    [rescued] = list((tmp_path / "rescue").iterdir())
    assert load(rescued).dice is not None


def test_empty_answer_to_the_offer_discards_on_purpose(tmp_path: Path) -> None:
    state = Game("yatzy", ["A"]).new_initial_state()
    out = io.StringIO()
    session = PlaySession(state, stdin=_Tty(lines("r", "q", "")), stdout=out, rng=random.Random(1))
    session.rescue_dir = str(tmp_path / "rescue")
    assert session.run() == 1
    assert "The game was not saved." in out.getvalue()
    assert not (tmp_path / "rescue").exists()


def test_save_command_does_not_overwrite_without_asking(play: Run, tmp_path: Path) -> None:
    finished = tmp_path / "finished.json"
    finished.write_text("precious", encoding="utf-8")
    code, out, _ = play(["--seed", "3", "A"], lines("r", f"save {finished}", "q", ""))
    assert (
        f"! {finished} already exists; not overwritten (use save! {finished} to replace it)." in out
    )
    assert finished.read_text(encoding="utf-8") == "precious"
    code, out, _ = play(["--seed", "3", "A"], lines("r", f"save! {finished}", "q", ""))
    assert code == 1
    assert f"Saved to {finished}." in out
    assert load(finished).dice is not None


@pytest.mark.parametrize(
    ("lang", "yes", "no"), [("en", "y", "n"), ("sv", "j", "nej"), ("fi", "k", "e")]
)
def test_save_command_at_a_terminal_asks_before_replacing(
    tmp_path: Path, lang: str, yes: str, no: str
) -> None:
    target = tmp_path / "old.json"
    target.write_text("old", encoding="utf-8")
    state = Game("yatzy", ["A"]).new_initial_state()
    out = io.StringIO()
    session = PlaySession(
        state,
        lang=lang,  # type: ignore[arg-type]
        stdin=_Tty(lines(no, yes)),
        stdout=out,
        rng=random.Random(1),
    )
    session.handle("r")
    session.handle(f"save {target}")
    assert target.read_text(encoding="utf-8") == "old"
    session.handle(f"save {target}")
    assert load(target).dice is not None
    assert out.getvalue().count(str(target)) >= 2


def test_save_flag_refuses_an_existing_file(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "done.json"
    record.write_text("a finished game", encoding="utf-8")
    code, _, err = play(["--seed", "3", "--save", str(record), "A"], lines("q"))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "already exists" in err and "--force" in err
    assert record.read_text(encoding="utf-8") == "a finished game"
    code, _, _ = play(["--seed", "3", "--save", str(record), "--force", "A"], lines("r", "q"))
    assert code == 1
    assert load(record).dice is not None


def _guarded(lang: str, script: str = "") -> tuple[State, PlaySession, io.StringIO]:
    state = Game("yatzy", ["A"]).new_initial_state()
    out = io.StringIO()
    session = PlaySession(
        state,
        lang=lang,  # type: ignore[arg-type]
        stdin=io.StringIO(script),
        stdout=out,
        rng=random.Random(1),
        guard=True,
    )
    return state, session, out


@pytest.mark.parametrize(
    ("lang", "hint"),
    [("en", "type r to roll"), ("sv", "skriv r för att slå"), ("fi", "heitä kirjoittamalla r")],
)
def test_stray_enter_after_a_roll_keeps_the_dice(lang: str, hint: str) -> None:
    state, session, _ = _guarded(lang)
    with pytest.raises(PromptError, match=hint):
        session.handle("")  # Enter alone never rolls, before the first roll too
    assert state.dice is None
    session.handle("r")
    assert state.dice is not None
    state.apply(Roll())
    state.apply_roll([6, 6, 6, 6, 6])  # a just-rolled Yatzy
    with pytest.raises(PromptError, match=hint):
        session.handle("")
    assert list(state.dice or []) == [6, 6, 6, 6, 6] and state.rolls_left() == 1
    session.handle("r")  # the explicit command still rolls
    assert state.rolls_left() == 0


@pytest.mark.parametrize(
    ("lang", "yes", "no"), [("en", "y", "n"), ("sv", "j", "n"), ("fi", "k", "e")]
)
def test_a_wasted_zero_asks_first_and_can_be_undone(lang: str, yes: str, no: str) -> None:
    state, session, out = _guarded(lang, lines(no, no, yes))
    state.apply(Roll())
    state.apply_roll([2, 2, 3, 5, 5])
    session.handle("s 1")  # Ones would be 0 while the dice score elsewhere: no
    assert state.sheet.is_open("ones") and state.dice is not None
    session.handle("x chance")  # scratching Chance: no
    assert state.sheet.is_open("chance")
    session.handle("s 1")  # yes
    assert state.sheets[0].points("ones") == 0
    assert (
        out.getvalue().count("(y/n)" if lang == "en" else "(j/n)" if lang == "sv" else "(k/e)") == 3
    )
    session.handle("u")
    assert state.sheets[0].is_open("ones") and list(state.dice or []) == [2, 2, 3, 5, 5]
    session.handle("s 2")  # a box that scores needs no question
    assert state.sheets[0].points("twos") == 4


def test_unguarded_script_writes_zero_at_once() -> None:
    state = Game("yatzy", ["A"]).new_initial_state()
    session = PlaySession(state, stdin=io.StringIO(""), stdout=io.StringIO(), rng=random.Random(1))
    state.apply(Roll())
    state.apply_roll([2, 2, 3, 5, 5])
    session.handle("s 1")
    assert state.sheets[0].points("ones") == 0


def test_progress_bars_stay_out_of_pipes(capsys: pytest.CaptureFixture[str]) -> None:
    """tqdm's ``disable=None``: a bar asked for on a non-terminal stderr prints nothing."""
    from yatzy.strategy.simulate import simulate

    simulate("yatzy", "random", 3, seed=1, workers=1, progress=True, fast=False)
    err = capsys.readouterr().err
    assert "\r" not in err and "games" not in err


def test_bot_moves_are_paced(play: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    pauses: list[float] = []
    monkeypatch.setattr("yatzy.cli.play_session.time.sleep", pauses.append)
    code, out, _ = play(
        ["--seed", "6", "--bot", "greedy", "--bot-delay", "0.25", "Ann"],
        lines(*in_order(15, rolls=("r",))),
    )
    assert code == 0
    bot_moves = out.count("Greedy (bot) writes") + out.count("Greedy (bot) rolls")
    assert bot_moves >= 10
    # One pause per move: every roll and every write (15 of them, scratches included).
    assert set(pauses) == {0.25} and len(pauses) >= max(bot_moves, 15)
    pauses.clear()
    code, _, _ = play(["--seed", "6", "--bot", "greedy", "Ann"], lines(*in_order(15, rolls=("r",))))
    assert code == 0 and pauses == []  # output is not a terminal: no pause by default


@pytest.mark.parametrize("bad", ["-1", "61", "nan"])
def test_bot_delay_out_of_range_is_refused(play: Run, bad: str) -> None:
    code, _, err = play(["--bot", "greedy", "--bot-delay", bad, "Ann"], "")
    assert code == 2
    assert "--bot-delay" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            "P writes 15 in Small Straight (inner faces, 2 dropped) and writes 21 in "
            "Full House (outer faces, 4 dropped)",
        ),
        ("sv", "(inre sidor, 2 struken)"),
        ("fi", "(ulkosilmäluvut, 4 pudotettu)"),
    ],
)
def test_dubbel_confirmation_names_layer_and_dropped_face(lang: str, expected: str) -> None:
    state, session = _dubbel_session()
    out = io.StringIO()
    session.stdout = out
    session.lang = lang  # type: ignore[assignment]
    session.resolver = BoxResolver(state.rules, lang)  # type: ignore[arg-type]
    session.handle("s 11/2 13/4")
    assert expected in out.getvalue()


@pytest.mark.parametrize(
    ("lang", "label"), [("en", "Saved rolls"), ("sv", "Sparade slag"), ("fi", "Säästetyt heitot")]
)
def test_everyones_saved_rolls_are_shown(lang: str, label: str) -> None:
    from yatzy.cli.terminal import protocol_table

    state = Game("maxi+saved_rolls", ["Ann", "Bo", "Cy"]).new_initial_state()
    state.sheets[1].saved_rolls = 2
    state.sheets[2].saved_rolls = 5
    table = protocol_table(state, lang)  # type: ignore[arg-type]
    assert final_row("\n".join(table), label) == [0, 2, 5]
    plain = protocol_table(Game("maxi", ["Ann", "Bo"]).new_initial_state(), lang)  # type: ignore[arg-type]
    assert not any(label in row for row in plain)


def test_ctrl_c_at_the_zero_question_writes_nothing() -> None:
    state, session, out = _guarded("en")

    def interrupted(prompt: str) -> str | None:
        raise KeyboardInterrupt

    session._read = interrupted  # type: ignore[method-assign]
    state.apply(Roll())
    state.apply_roll([2, 2, 3, 5, 5])
    session.handle("s 1")
    assert state.sheets[0].is_open("ones") and "Nothing written." in out.getvalue()


def test_legend_after_a_roll_names_r_not_enter(play: Run) -> None:
    # at a terminal Enter no longer rolls once the dice lie, so the legend says r
    _, out, _ = play(["--lang", "sv", "A"], lines("r", "q", ""))
    assert "r slå · k 1 3 behåll platser" in out and "Enter/r" not in out


@pytest.mark.parametrize(("lang", "yes", "no"), [("en", "y", "n"), ("sv", "j", "n")])
def test_dubbel_wasted_zero_asks_per_result(lang: str, yes: str, no: str) -> None:
    state = Game("dubbel", ["P"]).new_initial_state()
    out = io.StringIO()
    session = PlaySession(
        state,
        lang=lang,  # type: ignore[arg-type]
        stdin=io.StringIO(lines(no, yes, yes)),
        stdout=out,
        rng=random.Random(0),
        guard=True,
    )
    state.apply(Roll())
    state.apply_roll([(6, 5), (6, 4), (4, 3), (3, 2), (3, 2), (3, 1)])  # 003's example
    session.handle("s chance x yatzy")  # Chance scores; scratching Yatzy wastes the outer dice
    assert state.turn_number == 0 and state.dice is not None  # answered no: nothing written
    session.handle("x ones x twos")  # both results thrown away: asked twice, yes and yes
    assert out.getvalue().count("(y/n)" if lang == "en" else "(j/n)") == 3
    assert (state.log[-1]["inner"]["points"], state.log[-1]["outer"]["points"]) == (0, 0)


def test_save_flag_refusal_speaks_the_language(play: Run, tmp_path: Path) -> None:
    record = tmp_path / "done.json"
    record.write_text("a finished game", encoding="utf-8")
    code, _, err = play(["--lang", "sv", "--save", str(record), "A"], lines("q"))
    assert code == 2 and "filen finns redan" in err and "--force" in err
    code, _, err = play(["--lang", "fi", "--save", str(record), "A"], lines("q"))
    assert code == 2 and "tiedosto on jo olemassa" in err
    assert record.read_text(encoding="utf-8") == "a finished game"


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_fourteen_maxi_players_fit_80_columns(lang: str) -> None:
    from yatzy.cli.terminal import protocol_table

    names = ["Anna", "Bo", "Cecilia", "Dan", "Eva", "Fredrik", "Gun", "Hans", "Ida", "Jan"]
    names += ["Kim", "Lena", "Mats", "Nora"]
    state = Game("maxi+saved_rolls", names).new_initial_state(starter=3)
    state.apply(Roll())
    state.roll(random.Random(1))
    table = protocol_table(state, lang, width=80)  # type: ignore[arg-type]
    assert max(len(line) for line in table) <= 80
    assert "Dan*" in table[0] and "Fre" in table[0]  # whose turn, and everyone's column
    assert len(table) == len(protocol_table(state, lang))  # the same rows, only narrower
    wide = protocol_table(state, lang)  # type: ignore[arg-type]
    assert "[Dan]" in wide[0] and max(len(line) for line in wide) > 80


def test_a_bot_without_its_table_plays_greedily_meanwhile_and_says_so_once(
    play: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Issue 24: an empty solver cache no longer makes the first move wait for a whole
    # table (minutes for Maxi): the build starts in the background, the greedy strategy
    # plays meanwhile, and the game says so once; with the table there, nothing is said.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr("yatzy.strategy.advisor._WHOLE", {})
    started: list[tuple[str, str]] = []
    monkeypatch.setattr(
        "yatzy.cli.play_common.prepare_in_background",
        lambda level, state: started.append((level, state.rules.spec)) or True,
    )
    monkeypatch.setattr("yatzy.strategy.levels.AdvisedBot.choose", _never)
    args = ["--rules", "yatzy+forced", "--seed", "1", "--no-record", "P", "--bot", "strong:Hal"]
    _, out, _ = play(args)
    assert "Hal starts." in out
    said = (
        "Hal (bot strong) plays a simple strategy for now: its strategy table is being "
        "prepared (once on this computer)."
    )
    assert out.count(said) == 1 and set(started) == {("strong", "yatzy+forced")}
    # The table ready: the bot's own strategy plays (a greedy one here, to stay quick).
    from yatzy.bots import GreedyBot

    monkeypatch.setattr("yatzy.cli.play_common.strategy_pending", lambda state, seat: False)
    monkeypatch.setattr(
        "yatzy.strategy.levels.AdvisedBot.choose", lambda self, s, rng: GreedyBot().choose(s, rng)
    )
    _, again, _ = play(args)
    assert "Hal starts." in again
    assert "simple strategy" not in again


def _never(*args: object) -> None:
    raise AssertionError("the bot's own strategy was asked while its table was missing")


def test_a_bot_takes_up_its_own_strategy_when_the_table_is_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The table built in the background: the next turn the bot plays its own strategy,
    # and says so (in the game's language).
    from yatzy.bots import make_bot

    turns = {"n": 0}

    def pending(state: State, seat: int) -> bool:
        turns["n"] += 1
        return turns["n"] == 1

    monkeypatch.setattr("yatzy.cli.play_common.strategy_pending", pending)
    monkeypatch.setattr("yatzy.cli.play_common.prepare_in_background", lambda level, state: True)
    state = Game(RuleSet.parse("yatzy"), [Player("Hal", "greedy")]).new_initial_state(0)
    out = io.StringIO()
    session = PlaySession(
        state,
        lang="sv",
        stdin=io.StringIO(""),
        stdout=out,
        rng=random.Random(0),
        bots={0: make_bot("greedy")},
    )
    session._bot_turn(0)
    session._bot_turn(0)
    text = out.getvalue()
    assert text.count("spelar en enkel strategi så länge") == 1
    assert text.count("har sin strategitabell klar och spelar nu sin egen strategi") == 1
