"""The words of timed games on the game page (issue 26), from the one catalog (keys
``web.clock_*``); :func:`yatzy.web.i18n.ui_strings` hands them to the page with its
other words."""

from __future__ import annotations

from yatzy.i18n import N_, Message, messages

CLOCK_WORDS: dict[str, Message] = messages(
    "web.",
    N_("web.clock_title", "Clock"),
    # The start page's choice of a clock (invite mode).
    N_("web.clock_pick", "Time per turn"),
    N_("web.clock_none", "No clock"),
    N_("web.clock_live_60", "1 minute (live)"),
    N_("web.clock_live_180", "3 minutes (live)"),
    N_("web.clock_daily_1", "1 day"),
    N_("web.clock_daily_3", "3 days"),
    N_(
        "web.clock_pick_about",
        "A player who runs out of time pauses the game: the others let the computer play "
        "for them or end it. A rated game always has a clock (3 days unless you choose).",
    ),
    N_("web.clock_live_left", "{player}: {time} left"),
    N_("web.clock_your_left", "Your move: {time} left"),
    # TRANSLATORS: {when} is a weekday and a time, e.g. "Thu 18:00"
    N_("web.clock_daily_until", "{player}'s move: until {when}"),
    N_("web.clock_your_until", "Your move: until {when}"),
    N_("web.clock_per_turn_live", "{time} per turn"),
    N_("web.clock_per_turn_daily", "{days} days per turn"),
    N_("web.clock_per_turn_day", "1 day per turn"),
    N_("web.clock_waiting", "The clock starts when every player has joined."),
    N_("web.clock_ten_left", "{player}: ten seconds left."),
    N_("web.clock_timed_out", "{player} ran out of time."),
    N_(
        "web.clock_choose",
        "Choose what happens. Without a choice the computer plays for {player} in {time}.",
    ),
    N_(
        "web.clock_choose_daily",
        "Choose what happens. Without a choice the computer plays for {player} from {when}.",
    ),
    N_("web.clock_computer", "Let the computer play for {player}"),
    N_("web.clock_end", "End the game now"),
    N_(
        "web.clock_you_timed_out",
        "Your time ran out. Play on now, or the others may let the computer play for you.",
    ),
    N_("web.clock_back", "I'm back"),
    N_("web.clock_take_back", "Take my seat back"),
    N_("web.clock_computer_plays", "The computer plays for {player} while they are away."),
    N_("web.clock_returning", "{player} is back and plays again when the computer's turn ends."),
    N_("web.clock_ended", "The game was ended: {player} ran out of time."),
    N_("web.clock_computer_turns", "The computer played for {player} in turns {turns}."),
    N_(
        "web.clock_nothing_to_choose",
        "There is nothing to choose now: someone may have chosen already.",
    ),
    N_("web.clock_not_a_player", "Only the game's other players choose for an absent player."),
    N_("web.clock_computer_plays_refused", "The computer plays your seat now: take it back first."),
)
"""The game page's words about its clock, by key (without ``web.``)."""

__all__ = ["CLOCK_WORDS"]
