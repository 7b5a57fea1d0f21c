"""The line mode after issue 24 (terminal 4, 5 and 7): Enter never rolls, a write
can be taken back before a bot's turn, ``hint``, refusals that name their rule, the
board printed once, chances that fail say so."""

from __future__ import annotations

import io
import random
import signal
import time
from pathlib import Path

import pytest

from yatzy.bots import make_bot, prepare_tables
from yatzy.cli.i18n import tr
from yatzy.cli.play_session import PlaySession, PromptError
from yatzy.game import BoxEntry, Game, Player, Roll, Score, Scratch, State
from yatzy.rules import Language

CLEAR = "\x1b[H\x1b[2J"


class _Tty(io.StringIO):
    """Scripted input that says it is a terminal (a person at the keyboard)."""

    def isatty(self) -> bool:
        return True


def lines(*commands: str) -> str:
    """A script: one command a line."""
    return "".join(c + "\n" for c in commands)


def session_of(state: State, lang: Language = "en", script: str = "") -> PlaySession:
    return PlaySession(
        state, lang=lang, stdin=io.StringIO(script), stdout=io.StringIO(), rng=random.Random(1)
    )


def rolled(spec: str, dice: list[int], players: tuple[str, ...] = ("P",)) -> State:
    state = Game(spec, list(players)).new_initial_state(0)
    state.apply(Roll())
    state.apply_roll(dice)
    return state


def test_a_second_enter_after_a_write_rolls_nobodys_dice() -> None:
    state = Game("yatzy", ["A", "B"]).new_initial_state(0)
    session = session_of(state)
    session.handle("r")
    session.handle("s chance")
    with pytest.raises(PromptError, match="Enter alone does not roll: type r"):
        session.handle("")
    assert state.player == 1 and state.dice is None


def test_a_write_can_be_taken_back_before_the_bot_rolls() -> None:
    state = Game("yatzy", ["A", "Greedy"]).new_initial_state(0)
    out = io.StringIO()
    session = PlaySession(
        state,
        stdin=_Tty(lines("r", "s chance", "u", "q", "n")),
        stdout=out,
        rng=random.Random(1),
        bots={1: make_bot("greedy")},
    )
    session.run()
    text = out.getvalue()
    assert "Greedy plays next: Enter goes on, u takes your write back" in text
    assert "A takes back Chance" in text
    assert state.player == 0 and state.sheets[0].is_open("chance") and state.dice is not None
    assert state.sheets[1].open_boxes == list(state.rules.boxes)  # the bot never played


def test_enter_lets_the_bot_play_after_a_write() -> None:
    state = Game("yatzy", ["A", "Greedy"]).new_initial_state(0)
    session = PlaySession(
        state,
        stdin=_Tty(lines("r", "s chance", "", "q", "n")),
        stdout=io.StringIO(),
        rng=random.Random(1),
        bots={1: make_bot("greedy")},
    )
    session.run()
    assert state.turn_number == 2 and state.player == 0


@pytest.mark.parametrize(
    ("lang", "word", "title"),
    [
        ("en", "hint", "The best options now"),
        ("sv", "tips", "De bästa valen nu"),
        ("fi", "vihje", "Parhaat vaihtoehdot nyt"),
    ],
)
def test_hint_gives_the_advisors_options(lang: Language, word: str, title: str) -> None:
    prepare_tables("optimal", "dubbel")  # the table there, as after the background build
    state = Game("dubbel", ["P"]).new_initial_state(0)
    state.apply(Roll())
    state.apply_roll([(6, 6), (6, 5), (6, 4), (1, 3), (2, 2), (3, 1)])
    session = session_of(state, lang)
    session.handle(word)
    text = session.stdout.getvalue()  # type: ignore[attr-defined]
    assert title in text and len(text.splitlines()) >= 5
    if lang == "en":
        assert "Expected final score" in text and "approximate" in text.lower()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The hints' strategy table is being prepared (once on this computer"),
        ("sv", "Tipsens strategitabell förbereds (en gång på den här datorn"),
        ("fi", "Vihjeiden strategiataulukkoa valmistellaan (kerran tällä tietokoneella"),
    ],
)
def test_the_first_hint_answers_at_once_while_its_table_is_built(
    lang: Language, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24: the first hint no longer waits a minute for a table: the build starts
    # in the background and the hint says so in words.
    started: list[tuple[str, str]] = []
    monkeypatch.setattr("yatzy.bots.preparing", lambda level, rules: True)
    monkeypatch.setattr(
        "yatzy.cli.play_common.prepare_in_background",
        lambda level, state: started.append((level, state.rules.spec)) or True,
    )
    monkeypatch.setattr("yatzy.strategy.advisor.advise", _never_advise)
    state = Game("yatzy", ["P"]).new_initial_state(0)
    state.apply(Roll())
    state.apply_roll([6, 6, 6, 5, 4])
    session = session_of(state, lang)
    session.handle({"en": "hint", "sv": "tips", "fi": "vihje"}[lang])
    assert said in session.stdout.getvalue()  # type: ignore[attr-defined]
    assert started == [("optimal", "yatzy")]


@pytest.mark.parametrize(
    ("lang", "word", "ready"),
    [
        ("en", "hint", "The hints' strategy table is ready"),
        ("sv", "tips", "Tipsens strategitabell är klar"),
        ("fi", "vihje", "Vihjeiden strategiataulukko on valmis"),
    ],
)
def test_a_hint_asked_while_its_table_is_built_comes_by_itself(
    lang: Language, word: str, ready: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The line mode no longer says "ask again in a moment": the options it could not
    # give come at the first prompt after the table is ready, without asking again.
    building = [True]
    monkeypatch.setattr("yatzy.bots.preparing", lambda level, rules: building[0])
    monkeypatch.setattr("yatzy.cli.play_common.prepare_in_background", lambda *a: True)
    state = rolled("yatzy", [6, 6, 6, 5, 4])
    session = session_of(state, lang, script=f"{word}\n\n\n")
    prompts = 0
    read = session._read_line

    def read_line(prompt: str) -> str | None:
        nonlocal prompts
        prompts += 1
        if prompts == 3:
            building[0] = False  # the build ended while the player read the board
        return read(prompt)

    monkeypatch.setattr(session, "_read_line", read_line)
    session.run()
    text = session.stdout.getvalue()  # type: ignore[attr-defined]
    asked, _, after = text.partition(ready)
    # Two prompts went by with no options; then, unasked, the options, once.
    assert text.count(ready) == 1
    options = [line for line in after.splitlines() if line.startswith("  ") and line.strip()]
    assert len(options) >= 6
    assert not any(line in asked for line in options[1:])
    if lang == "en":
        assert "Expected final score" in after and "Expected final score" not in asked


@pytest.mark.parametrize(
    ("lang", "word", "best"),
    [("en", "hint", "best"), ("sv", "tips", "bäst"), ("fi", "vihje", "paras")],
)
def test_the_first_option_of_a_hint_is_called_the_best(
    lang: Language, word: str, best: str
) -> None:
    # It said "as good" (as what?) where the web page says "best".
    session = session_of(rolled("yatzy", [6, 6, 6, 5, 4]), lang)
    session.handle(word)
    lines = session.stdout.getvalue().splitlines()  # type: ignore[attr-defined]
    options = [line for line in lines if line.startswith("  ") and line.endswith(")")]
    assert options[0].endswith(f"  ({best})")
    assert not any(line.endswith(f"({best})") for line in options[1:])


def test_a_hint_at_a_terminal_breaks_between_words(monkeypatch: pytest.MonkeyPatch) -> None:
    # At 80 columns the terminal itself cut the long "being prepared" line mid-word.
    monkeypatch.setattr("yatzy.bots.preparing", lambda level, rules: True)
    monkeypatch.setattr("yatzy.cli.play_common.prepare_in_background", lambda *a: True)
    session = session_of(rolled("yatzy", [6, 6, 6, 5, 4]), "fi")
    monkeypatch.setattr(session, "_columns", lambda: 80)
    session.handle("vihje")
    lines = session.stdout.getvalue().splitlines()  # type: ignore[attr-defined]
    said = tr("hint_preparing", "fi")
    assert len(lines) > 2 and all(len(line) < 80 for line in lines)
    assert " ".join(line.strip() for line in lines[1:]) == said


def _never_advise(*args: object) -> None:
    raise AssertionError("the hint waited for the advisor's table")


@pytest.mark.parametrize(
    ("lang", "chance", "zero"),
    [
        ("en", 'the rule "last resort" keeps Chance', 'may not get 0 now: the rule "last resort"'),
        ("sv", "regeln ”sista utväg” sparar Chans", "får inte få 0 nu: regeln ”sista utväg”"),
        (
            "fi",
            "sääntö ”viimeinen keino” säästää",
            "ei saa merkitä 0 nyt: sääntö ”viimeinen keino”",
        ),
    ],
)
def test_last_resort_refusals_name_the_rule(lang: Language, chance: str, zero: str) -> None:
    state = rolled("yatzy+last_resort", [6, 6, 6, 2, 4])
    session = session_of(state, lang)
    with pytest.raises(PromptError, match=chance):
        session.handle("s chance")
    with pytest.raises(PromptError, match=zero):
        session.handle("x yatzy")
    assert state.dice is not None and state.turn_number == 0


def test_scratching_a_box_the_dice_score_in_names_the_rule_not_a_contradiction() -> None:
    state = rolled("yatzy+last_resort", [1, 1, 3, 4, 6])
    with pytest.raises(PromptError) as refused:
        session_of(state).handle("x ones")
    text = str(refused.value)
    assert text.startswith('Ones may not get 0 now: the rule "last resort"'), text


def test_forced_order_and_forced_joker_refusals_name_the_rule() -> None:
    state = rolled("yatzy+forced", [6, 6, 6, 2, 4])
    with pytest.raises(PromptError, match=r'the rule "forced order" .*; next: Ones'):
        session_of(state).handle("s chance")
    state = Game("yahtzee", ["P"]).new_initial_state(0)
    state.sheets[0].entries["yatzy"] = BoxEntry(50)
    state.apply(Roll())
    state.apply_roll([3, 3, 3, 3, 3])
    with pytest.raises(PromptError, match='the rule "forced joker"'):
        session_of(state).handle("s chance")


def test_the_board_is_printed_once_after_a_bots_turn() -> None:
    state = Game("yatzy", ["A", "Greedy"]).new_initial_state(0)
    out = io.StringIO()
    session = PlaySession(
        state,
        stdin=io.StringIO(lines("r", "s chance", "q", "n")),
        stdout=out,
        rng=random.Random(1),
        bots={1: make_bot("greedy")},
        clear=True,
        bot_delay=0.5,
        sleep=lambda _s: None,
    )
    session.run()
    boards = out.getvalue().split(CLEAR)[1:]
    without_prompt = [b for b in boards if "A> " not in b]
    bot_rolls = len(state.log[1]["rolls"])
    # A board for each of the bot's rolls (shown for the delay), then the next prompt's
    # board with its write: never the same board twice.
    assert len(without_prompt) == bot_rolls, boards


def test_the_screen_is_not_blank_while_the_chances_are_computed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 24: the line mode blanked the screen for up to a minute while the chances
    # were computed. The screen is cleared only once every line of the board is ready:
    # while the chances are computed, the last board is still on it.
    import yatzy.cli.play_session as module

    out = io.StringIO()
    seen: list[str] = []

    def chances(state: State, budget: float = 0.2, *, history: object = None) -> None:
        seen.append(out.getvalue())  # what is on the screen meanwhile
        return None

    monkeypatch.setattr(module, "live_chances", chances)
    state = Game("yatzy", ["A", "B"]).new_initial_state(0)
    session = PlaySession(
        state,
        stdin=io.StringIO(lines("r", "s chance", "q", "n")),
        stdout=out,
        rng=random.Random(1),
        chances=True,
        clear=True,
    )
    session.run()
    assert len(seen) >= 2
    # Each computation after the first sees a screen that still ends with a board
    # (its last clear followed by that board's lines), never a clear just written.
    for screen in seen[1:]:
        assert not screen.endswith(CLEAR)
        assert screen.rsplit(CLEAR, 1)[-1].strip(), "a blank screen while the chances computed"


def test_a_failed_chance_to_win_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import yatzy.cli.play_session as module

    def broken(state: State, budget: float = 0.2, *, history: object = None) -> None:
        raise RuntimeError("the table went missing")

    monkeypatch.setattr(module, "live_chances", broken)
    state = Game("yatzy", ["A", "B"]).new_initial_state(0)
    session = PlaySession(
        state, stdin=io.StringIO(""), stdout=io.StringIO(), rng=random.Random(1), chances=True
    )
    session._show_board()
    text = session.stdout.getvalue()  # type: ignore[attr-defined]
    # the error in the log, plain words on the screen (no exception's name or text)
    assert "Chance to win: could not be computed (an error, written to the log" in text
    assert "RuntimeError" not in text and "went missing" not in text


def _one_box_left(spec: str, people: list[str]) -> State:
    """A game of ``spec`` played by a casual bot's choices (mistakes to find) up to its
    last turn, which the person at the prompt plays."""
    state = Game(spec, people).new_initial_state(0)
    bot, rng = make_bot("casual"), random.Random(7)
    while len(state.sheets[-1].open_boxes) > 1 or state.player != len(people) - 1:
        action = bot.choose(state, rng)
        state.apply(action)
        if state.is_chance_node():
            state.roll(rng)
    return state


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_the_line_mode_shows_the_analysis_at_the_end(
    lang: Language, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24: the analysis within seconds of the last box in the terminal, the line
    # mode too: `a` at the end, in the game's language, as `yatzy analyze` rates it
    # (and in chance to win with two or more players).
    from yatzy.cli import play_advice, play_common
    from yatzy.strategy.advice_words import number
    from yatzy.strategy.analyze import analyze

    monkeypatch.setattr(play_advice, "ANALYSIS_WIN_BUDGET", 0.01)  # a second, not 15
    state = _one_box_left("yatzy", ["Anna", "Bo"])
    box = state.sheets[1].open_boxes[0]
    out = io.StringIO()
    script = lines("r", "a", f"s {box}", "?", "what", "a", "")
    session = PlaySession(
        state, lang=lang, stdin=io.StringIO(script), stdout=out, rng=random.Random(3)
    )
    assert session.run() == 0
    text = out.getvalue()
    assert tr("analysis_at_end", lang) in text  # `a` while the game goes on
    after = text[text.index(tr("line_over_prompt", lang)) :]
    assert tr("line_over_unknown", lang) in after  # `what` at the end
    assert tr("tui_analysis_title", lang) in after
    expected = analyze(state, lang)
    for p in expected.players:
        words = {"name": p.name, "points": p.final, "mistakes": p.mistakes}
        line = tr(
            "analysis_player",
            lang,
            decisions=p.decisions,
            loss=number(p.total_loss, lang),
            **words,
        )
        assert line in after
    worst = max(expected.decisions, key=lambda d: d.loss)
    assert f"−{number(worst.loss, lang)}" in after
    measured = play_common.measured_levels(state)
    title = "analysis_win_title_measured" if measured else "analysis_win_title"
    assert tr(title, lang) in after
    assert play_common.measured_words(state, measured, lang) in after


def test_the_line_mode_ends_quietly_at_the_end_of_input() -> None:
    # A script that stops at the last box ends with the game, as before: exit 0.
    state = _one_box_left("yatzy", ["Anna"])
    box = state.sheets[0].open_boxes[0]
    out = io.StringIO()
    session = PlaySession(
        state, stdin=io.StringIO(lines("r", f"s {box}")), stdout=out, rng=random.Random(3)
    )
    assert session.run() == 0
    assert state.is_terminal()
    assert out.getvalue().rstrip().endswith(tr("line_over_prompt", "en").rstrip())


def test_the_line_modes_analysis_waits_for_its_table_in_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # While the strategy table is being prepared (a fresh install's Maxi) the line mode
    # says so, and the analysis follows by itself once the table is ready.
    from yatzy.cli import line_advice
    from yatzy.cli.play_advice import AdvisorLines

    asked: list[int] = []

    def analysis_lines(state: State, lang: Language, history: object = None) -> AdvisorLines:
        asked.append(1)
        if len(asked) < 3:
            return AdvisorLines.waiting(tr("analysis_preparing", lang))
        return AdvisorLines(["Anna: 200 points"])

    monkeypatch.setattr(line_advice, "analysis_lines", analysis_lines)
    state = _one_box_left("yatzy", ["Anna"])
    box = state.sheets[0].open_boxes[0]
    out = io.StringIO()
    slept: list[float] = []
    session = PlaySession(
        state,
        stdin=io.StringIO(lines("r", f"s {box}", "analys")),
        stdout=out,
        rng=random.Random(3),
        sleep=slept.append,
        lang="sv",
    )
    assert session.run() == 0
    text = out.getvalue()
    assert text.count(tr("analysis_preparing", "sv")) == 2
    assert text.index(tr("analysis_preparing", "sv")) < text.index("Anna: 200 points")
    assert slept == [line_advice.ANALYSIS_RETRY_SECONDS] * 2


def test_the_line_mode_hands_each_written_box_to_the_analysis_ahead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As the full screen: with the live chances on, each written box's game so far is
    # rated in a thread of its own, so that the end has only the last turn left.
    import threading

    from yatzy.analysis import AHEAD_ENV
    from yatzy.cli.play_advice import AnalysisAhead

    monkeypatch.setenv(AHEAD_ENV, "1")
    handed: list[int] = []
    done = threading.Event()

    def rate(position: State) -> None:
        handed.append(position.turn_number)
        done.set()

    state = Game("yatzy", ["A", "B"]).new_initial_state(0)
    script = lines("r", "s chance", "q", "n")
    session = PlaySession(
        state, stdin=io.StringIO(script), stdout=io.StringIO(), rng=random.Random(1)
    )
    session.ahead = AnalysisAhead(rate)
    session.run()
    assert done.wait(5)
    assert handed == [1]


def test_the_analysis_ahead_is_off_where_the_environment_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from yatzy.analysis import AHEAD_ENV
    from yatzy.cli.play_advice import AnalysisAhead

    monkeypatch.setenv(AHEAD_ENV, "0")
    handed: list[int] = []
    ahead = AnalysisAhead(lambda position: handed.append(position.turn_number))
    state = Game("yatzy", ["A", "B"]).new_initial_state(0)
    state.apply(Roll())
    state.apply_roll([1, 2, 3, 4, 5])
    state.apply(Score("chance"))
    ahead.after_write(state)
    assert handed == []


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_at_a_terminal_the_line_mode_plays_on_while_the_chances_are_worked_out(
    lang: Language, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24: the line mode held the game while the chances were computed (a minute
    # on a fresh install). At a terminal the board waits a few seconds, then says that
    # they are being worked out and the game goes on; they show once they come.
    import threading

    import yatzy.cli.line_chances as line_chances
    import yatzy.cli.play_session as module

    monkeypatch.setattr(line_chances, "LINE_CHANCES_WAIT", 0.05)
    monkeypatch.setattr(module, "LINE_CHANCES_WAIT", 0.05)
    release = threading.Event()

    def slow(state: State, budget: float = 0.2, *, history: object = None) -> None:
        release.wait(10)
        return None  # then: not available, said as such

    monkeypatch.setattr(module, "live_chances", slow)
    state = Game("yatzy", ["Anna", "Bo"]).new_initial_state(0)
    out = io.StringIO()
    session = PlaySession(
        state, lang=lang, stdin=_Tty(), stdout=out, rng=random.Random(1), chances=True
    )
    session._show_board()
    assert tr("win_line_working", lang) in out.getvalue()  # and the prompt comes
    release.set()
    session._chances_worker._job.done.wait(5)  # type: ignore[union-attr]
    session.handle("r")
    session.handle("s chance")
    session._show_board()  # the next turn: the figures (here "not available") come
    reason = tr("win_reason_table", lang)  # plain words, never a command to run
    assert tr("win_line_pending", lang, reason=reason) in out.getvalue()
    assert "yatzy solve" not in out.getvalue()


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_a_line_mode_chance_computation_that_never_returns_is_timed_out(
    lang: Language, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24 (terminal 5): a computation that never returns is said to be overdue,
    # never shown as current and never doubled; the game goes on.
    import threading

    import yatzy.cli.play_session as module

    never = threading.Event()
    calls: list[int] = []

    def hung(state: State, budget: float = 0.2, *, history: object = None) -> None:
        calls.append(state.turn_number)
        never.wait(30)

    monkeypatch.setattr(module, "live_chances", hung)
    state = Game("yatzy", ["Anna", "Bo"]).new_initial_state(0)
    out = io.StringIO()
    session = PlaySession(
        state, lang=lang, stdin=_Tty(), stdout=out, rng=random.Random(1), chances=True
    )
    session._chances_worker.wait = 0.05
    session._chances_worker.timeout = 0.2
    try:
        session._show_board()
        assert tr("win_line_working", lang) in out.getvalue()
        time.sleep(0.3)
        session.handle("r")
        session.handle("s chance")
        session._show_board()
        overdue = tr("win_line_overdue", lang, seconds=0)
        assert out.getvalue().count(overdue) == 1
        assert len(calls) == 1  # one computation, not one per board
    finally:
        never.set()


def test_a_game_with_a_person_prepares_the_analysis_table_at_its_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 24: a people-only Maxi game on a fresh install started building the
    # analysis's table only when `a`/A was asked for (45 s to 3 min at the end). The
    # build starts with the game, in the background, where the table is not ready.
    import yatzy.bots
    from yatzy.analysis import AHEAD_ENV
    from yatzy.cli import play_common

    started: list[str] = []
    monkeypatch.setenv(AHEAD_ENV, "1")
    monkeypatch.setattr(yatzy.bots, "preparing", lambda level, rules: rules.spec == "maxi")
    monkeypatch.setattr(
        play_common, "prepare_in_background", lambda level, state: started.append(state.rules.spec)
    )
    for spec, players, bots in [
        ("maxi", ["Anna", "Bo"], {}),
        ("yatzy", ["Anna", "Bo"], {}),  # its table is ready: nothing to build
        ("maxi", [Player("Greedy", "greedy"), Player("Random", "random")], {0: 1}),
    ]:
        state = Game(spec, players).new_initial_state(0)
        if bots:  # the bots alone: nobody asks for the analysis
            play_common.prepare_analysis(state)
            continue
        session = PlaySession(
            state, stdin=io.StringIO("q\n"), stdout=io.StringIO(), rng=random.Random(1)
        )
        session.run()
    assert started == ["maxi"]
    monkeypatch.setenv(AHEAD_ENV, "0")  # the tests' setting: nothing built at the start
    play_common.prepare_analysis(Game("maxi", ["Anna"]).new_initial_state(0))
    assert started == ["maxi"]


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_a_solo_game_ends_with_its_result_against_the_record(lang: Language) -> None:
    # Issue 24: a solo game has no winner but a result against the record; the
    # terminal said only the points.
    from yatzy.cli.terminal import result_lines

    state = Game("yatzy", ["Anna"]).new_initial_state(0)
    greedy, rng = make_bot("greedy"), random.Random(3)
    while len(state.sheets[0].open_boxes) > 1:  # play_turn would play a solo game out
        if state.is_chance_node():
            state.roll(rng)
        else:
            state.apply(greedy.choose(state, rng))
    last = state.sheets[0].open_boxes[0]
    before = state.totals()[0]
    out = io.StringIO()
    script = io.StringIO(lines("r", f"s {last}"))
    session = PlaySession(state, lang=lang, stdin=script, stdout=out, rng=rng, record=before + 400)
    assert session.run() == 0
    assert state.is_terminal()
    total = state.totals()[0]
    said = out.getvalue()
    assert tr("solo_record_stands", lang, record=before + 400, short=before + 400 - total) in said
    assert tr("solo_new_record", lang, record=total - 1) in result_lines(state, lang, total - 1)
    assert tr("solo_record_equalled", lang, record=total) in result_lines(state, lang, total)
    assert len(result_lines(state, lang)) == 2  # no record known: the points alone


def at_the_last_box(spec: str = "yatzy", players: tuple[str, ...] = ("A",)) -> State:
    """A game whose every box but Chance is scratched, the first player to act: the
    last round."""
    state = Game(spec, list(players)).new_initial_state(0)
    dice = random.Random(3)
    while len(state.sheet.open_boxes) > 1:
        state.apply(Roll())
        state.roll(dice)
        state.apply(Scratch(next(b for b in state.allowed_boxes() if b != "chance")))
    return state


def test_the_games_last_write_can_be_taken_back_before_the_game_ends() -> None:
    state = at_the_last_box()
    out = io.StringIO()
    recorded: list[int] = []
    session = PlaySession(
        state,
        stdin=_Tty(lines("r", "s chance", "u", "s chance", "")),
        stdout=out,
        rng=random.Random(1),
        on_finished=lambda s: str(recorded.append(s.totals()[0])),
    )
    assert session.run() == 0
    text = out.getvalue()
    final = "A, that was the game's last box: Enter ends the game, u takes it back"
    assert text.count(final) == 2 and "A takes back Chance" in text
    assert state.is_terminal() and recorded == state.totals()  # recorded once, at the end
    assert state.log[-1]["undone"][0]["box"] == "chance"


def test_a_line_typed_over_the_last_write_ends_the_game_and_is_not_lost() -> None:
    state = at_the_last_box(players=("A", "B"))
    out = io.StringIO()
    script = lines("r", "s chance", "r", "s chance", "q")
    session = PlaySession(state, stdin=_Tty(script), stdout=out, rng=random.Random(1))
    assert session.run() == 0
    text = out.getvalue()
    assert state.is_terminal() and "B, that was the game's last box" in text
    assert "A, that was" not in text  # A's last write was not the game's
    assert tr("line_over_prompt", "en") not in text  # q was taken as typed: the end


def test_a_hang_up_over_the_held_last_write_ends_and_records_the_game(tmp_path: Path) -> None:
    """The terminal closes at the prompt over the game's last write: the write stands,
    and the game ends as on Enter (recorded; its autosave no longer "unfinished")."""
    state = at_the_last_box()
    recorded: list[int] = []
    autosave = tmp_path / "unfinished-game.json"

    class HangsUpAtTheLastBox(_Tty):
        def readline(self, size: int = -1) -> str:
            if state.is_terminal():  # the prompt over the held write
                session._on_signal(signal.SIGHUP, None)
            return super().readline(size)

    session = PlaySession(
        state,
        stdin=HangsUpAtTheLastBox(lines("r", "s chance", "")),
        stdout=io.StringIO(),
        rng=random.Random(1),
        on_finished=lambda s: str(recorded.append(s.totals()[0])),
        autosave_path=str(autosave),
    )
    assert session.run() == 128 + signal.SIGHUP
    assert state.is_terminal() and recorded == state.totals()
    assert not autosave.exists() and (tmp_path / "finished-game.json").exists()
