"""Messages of the terminal game (line mode and full screen), from the one catalog.

Box names and the computed rows (Sum, Bonus, Total ...) come from
:mod:`yatzy.rules.categories`; these are the words of the terminal UI only, keyed
``cli.KEY`` in the catalog (English here, Swedish and Finnish in
``yatzy/locale``).  :func:`tr` looks a message up and fills in its fields; a missing
key is a programming error and fails loudly in the tests.
"""

from __future__ import annotations

from yatzy.i18n import N_, Message, messages
from yatzy.rules import Language

_LINE_MODE = messages(
    "cli.",
    N_("cli.round", "round {n} of {total}"),
    N_("cli.turn_of", "{name} to play"),
    N_("cli.box", "Box"),
    N_("cli.now", "now"),
    N_("cli.dice", "Dice"),
    N_("cli.position", "position"),
    N_("cli.outer", "outer"),
    N_("cli.inner", "inner"),
    N_("cli.kept", "kept"),
    N_("cli.rolls_left", "Rolls left: {n} of {max}"),
    N_("cli.saved_rolls_row", "Saved rolls"),
    N_("cli.saved_rolls", " ({n} saved from earlier turns)"),
    N_(
        "cli.not_allowed_legend",
        "(n): what the box would score, but it may not be filled now ({why})",
    ),
    N_("cli.why_forced", "forced order"),
    N_("cli.why_half_forced", "half-forced order"),
    N_("cli.why_joker", "joker rule"),
    N_("cli.why_last_resort", "last resort: Chance only when nothing else scores"),
    N_("cli.record_chance", "Chance of beating your record ({record}): {percent}\u00a0%"),
    N_("cli.win_line", "Chance to win: {chances}"),
    N_(
        "cli.win_line_simulated",
        "Chance to win (simulated: each may be off by up to {margin} percentage points): {chances}",
    ),
    N_("cli.win_line_pending", "Chance to win: not available yet ({reason})"),
    N_(
        "cli.win_reason_table",
        "the strategy table for these rules is being prepared, once on this computer",
    ),
    N_("cli.win_reason_error", "an error, written to the log; the game goes on"),
    N_("cli.win_row", "Win %"),
    N_(
        "cli.record_chance_unavailable",
        "Chance of beating your record ({record}): not available until its table is ready "
        "(being built, minutes once on this computer)",
    ),
    N_("cli.hint_first_roll_r", "{name}: type r to roll ({help} for help, hint for advice)"),
    N_(
        "cli.hint_turn",
        "r roll · k 1 3 keep positions · v 6 6 keep values\ns BOX score · x BOX scratch · ? help",
    ),
    N_(
        "cli.hint_turn_double",
        "r roll · k 1 3 keep positions · v 3/6 keep values\n"
        "s INNER OUTER score · x INNER OUTER scratch · ? help",
    ),
    N_(
        "cli.hint_no_rolls_double",
        "No rolls left: s INNER OUTER to score or x INNER OUTER to scratch",
    ),
    N_("cli.hint_no_rolls", "No rolls left: s BOX to score or x BOX to scratch"),
    N_("cli.rolloff_title", "Who starts? Everyone rolls one die:"),
    N_("cli.rolloff_tie", "tie at {face}, roll again"),
    N_("cli.starts", "{name} starts."),
    N_("cli.rolled", "{name} rolls {dice}"),
    N_("cli.rolled_keeping", "{name} keeps {kept} and rolls: {dice}"),
    N_("cli.drop_inner", "(inner faces, {face} dropped)"),
    N_("cli.drop_outer", "(outer faces, {face} dropped)"),
    N_("cli.wrote", "{name} writes {points} in {box}"),
    N_("cli.scratched", "{name} scratches {box}"),
    N_("cli.yatzy_bonus_won", "{name} earns a {bonus} of {points}!"),
    N_("cli.and", "and"),
    N_("cli.bot", "bot"),
    N_("cli.resumed", "Resumed {path}: {spec}, {turns} turns played."),
    N_("cli.game_over", "Game over."),
    N_("cli.winner", "Winner: {names} with {points}\u00a0points."),
    N_("cli.shared_win", "Shared win: {names} with {points}\u00a0points each."),
    N_("cli.solo_result", "{name} scores {points}\u00a0points."),
    N_("cli.solo_new_record", "New record! Your record was {record}."),
    N_("cli.solo_record_equalled", "That equals your record, {record}."),
    N_("cli.solo_record_stands", "Your record, {record}, stands: {short}\u00a0points short."),
    N_("cli.standings", "Final standings:"),
    N_("cli.saved", "Saved to {path}."),
    N_("cli.resume_hint", "Continue later with: yatzy play --resume {path}"),
    N_("cli.save_failed", "could not save to {path}: {reason}"),
    N_(
        "cli.quit_offer",
        "Save the game before quitting? y: save it in {folder}, or a file name (Enter or n: do not "
        "save): ",
    ),
    N_("cli.not_saved", "The game was not saved."),
    N_("cli.finished_file", "The finished game's record is in {path}."),
    N_("cli.resume_none", "there is no unfinished game in {folder} to resume"),
    N_("cli.play_bot_delay", "--bot-delay {value}: give seconds from 0 to 60"),
    N_("cli.play_record_number", "--record {value} is not a whole number"),
    N_("cli.play_record_solo", "--record {value}: a solo game's record, 0 or more"),
    N_(
        "cli.resume_no_names",
        "--resume takes the players from the record; do not name players ({names})",
    ),
    N_("cli.resume_no_bot", "--resume takes the bots from the record; do not give --bot"),
    N_("cli.cannot_read", "cannot read {path}: {reason}"),
    N_("cli.not_utf8_record", "{path} is not a game record (not UTF-8 text)"),
    N_(
        "cli.resume_rules_conflict",
        "--rules {wanted} conflicts with the rules of {path} ({rules}); leave --rules out "
        "when resuming",
    ),
    N_("cli.cannot_save", "cannot save to {path}: {reason}"),
    N_(
        "cli.resume_needs_file",
        "--resume without a FILE asks which game at a terminal; the latest unfinished game is "
        "{path} (yatzy play --resume {path})",
    ),
    N_("cli.resume_list", "Unfinished games in {folder}, newest first:"),
    N_("cli.resume_pick", "Which game? 1-{n} (Enter: 1, q: none): "),
    N_("cli.resume_bad_pick", "{text} is not a game's number: type 1-{n}, Enter or q."),
    N_("cli.resume_none_picked", "No game was resumed."),
    N_("cli.enter_never_rolls", "Enter alone does not roll: type r to roll (? for help)."),
    N_("cli.line_grace", "{name} plays next: Enter goes on, u takes your write back: "),
    N_(
        "cli.line_final",
        "{name}, that was the game's last box: Enter ends the game, u takes it back: ",
    ),
    N_("cli.win_line_failed", "Chance to win: could not be computed ({reason})"),
    N_(
        "cli.win_line_working",
        "Chance to win: being worked out (the first time on this computer takes about a "
        "minute); shown at a later turn",
    ),
    N_(
        "cli.win_line_overdue",
        "Chance to win: no answer in {seconds}\u00a0s; shown at a later turn if it comes",
    ),
    N_("cli.confirm_zero", "{box} gets 0 points though the dice score elsewhere. Really? (y/n) "),
    N_("cli.not_written", "Nothing written."),
    N_(
        "cli.file_exists",
        "{path} already exists; not overwritten (use save! {path} to replace it).",
    ),
    N_(
        "cli.stats_recorded",
        "The game is kept in your statistics (yatzy stats, and the web app's history).",
    ),
    N_(
        "cli.stats_already_recorded",
        "The game is in your statistics already; it is not counted twice.",
    ),
    N_("cli.stats_not_recorded", "! The game could not be kept in your statistics: {reason}"),
    N_(
        "cli.save_option_exists",
        "--save {path!r}: the file already exists (add --force to replace it)",
    ),
    N_("cli.confirm_overwrite", "{path} already exists. Replace it? (y/n) "),
    N_("cli.rescued", "The unfinished game was saved to {path}."),
    N_("cli.end_of_input", "End of input: the game stops unfinished."),
    N_("cli.unknown_command", "unknown command {word!r}; type ? for help"),
    N_("cli.unknown_box", "no box {text!r}; give its number 1-{n}, its name or its id"),
    N_("cli.nothing_to_undo", "nothing to undo: a write is taken back only until the next roll"),
    N_("cli.undone", "{name} takes back {box}"),
    N_("cli.did_you_mean", "; did you mean {choices}?"),
    N_("cli.ambiguous_box", "{text!r} could be {choices}; write more of the name"),
    N_("cli.need_box", "name a box, e.g. {cmd} 1 or {cmd} chance"),
    N_("cli.one_box", "one box a turn: {text!r} names more than one"),
    N_(
        "cli.two_boxes",
        "DubbelYatzy fills two boxes: s INNER OUTER (e.g. s small_straight full_house)",
    ),
    N_(
        "cli.two_boxes_unclear",
        "cannot tell the inner and the outer box apart in {text!r}; use numbers or ids",
    ),
    N_("cli.bad_drop", "{text!r} is not a face to drop (1-6)"),
    N_("cli.bad_position", "{text!r} is not a die position 1-{n}"),
    N_("cli.position_twice", "die position {pos} is given twice"),
    N_("cli.need_positions", "say which dice to keep, e.g. k 1 3 (or r to roll every die)"),
    N_("cli.bad_value", "{text!r} is not a die value 1-6"),
    N_(
        "cli.bad_double_value",
        "{text!r} is not a double die: write INNER/OUTER like 3/6, or one inner face",
    ),
    N_("cli.value_missing", "no die shows {value}"),
    N_("cli.value_too_few", "only {count} of the dice show {value}"),
    N_("cli.roll_first_r", "roll first: type r"),
    N_("cli.no_rolls", "no rolls left this turn: score a box (s BOX) or scratch one (x BOX)"),
    N_("cli.keep_all", "keeping every die leaves nothing to roll: score instead"),
    N_("cli.box_filled", "{box} is already filled"),
    N_("cli.not_allowed", "{box} may not be filled now; allowed: {allowed}"),
    N_(
        "cli.refused_last_resort_chance",
        '{box} may not take these dice: the rule "last resort" keeps Chance for dice that '
        "score in no other open box; allowed: {allowed}",
    ),
    N_(
        "cli.refused_last_resort_zero",
        '{box} may not get 0 now: the rule "last resort" allows a 0 only when the dice score '
        "nowhere; allowed: {allowed}",
    ),
    N_(
        "cli.refused_forced",
        '{box} may not be filled now: the rule "forced order" fills the boxes from top to '
        "bottom; next: {allowed}",
    ),
    N_(
        "cli.refused_half_forced",
        '{box} may not be filled now: the rule "half-forced order" fills each half from top to '
        "bottom; allowed: {allowed}",
    ),
    N_(
        "cli.refused_joker",
        '{box} may not take this Yatzy: the rule "forced joker" puts it in its upper box '
        "first, else in a lower box; allowed: {allowed}",
    ),
    N_("cli.not_scratchable", "{box} may not be scratched"),
    N_("cli.same_box_twice", "the inner and outer results need two different boxes"),
    N_("cli.need_file", "give a file name: save FILE"),
    N_("cli.no_arguments", "{cmd} takes no arguments"),
    N_(
        "cli.help",
        "Commands (English words work in every language):\n"
        "  r                   roll the dice that are not kept (* marks the kept ones)\n"
        "  r all               roll every die\n"
        "  k 1 3 4             keep the dice at positions 1, 3 and 4, roll the others\n"
        "  v 3 3               keep two dice showing 3, roll the others\n"
        "  s BOX               write the dice's points in BOX: its number, name, id or\n"
        "                      the start of its name (s 7, s pair, s one_pair)\n"
        "  x BOX               scratch BOX (write 0; asks first if the dice score)\n"
        "  u                   undo your last write (until the next roll or the end)\n"
        "  hint                the advisor's best options now\n"
        "  a                   the analysis of every decision, once the game is over\n"
        "  save FILE           save the game to FILE (continue with --resume FILE)\n"
        "  save! FILE          the same, replacing an existing FILE without asking\n"
        "  q, Ctrl-D           quit (offers to save)\n"
        "  ?                   this help",
    ),
    N_(
        "cli.help_double",
        "DubbelYatzy: each turn writes two results, the inner faces' and the outer faces'.\n"
        "  s INNER OUTER       e.g. s small_straight full_house, or s 11 13\n"
        "  s 11/2 13/4         drop face 2 from the inner result and 4 from the outer\n"
        "                      (without /N the best face to drop is chosen)\n"
        "  x INNER OUTER       scratch both; mix with s INNER x OUTER\n"
        "  v 3/6 5             keep the die with inner 3 and outer 6, and one with inner 5",
    ),
)

# -- the full-screen game (yatzy play at a terminal, yatzy.cli.tui) ----------------------
# A registry of its own, so that the line mode's messages above and these merge apart.
_FULL_SCREEN = messages(
    "cli.",
    N_(
        "cli.tui_keys",
        "1-6 keep  R roll  A-Z Enter write  X scratch  U undo  H hint  ? help  Q quit",
    ),
    N_("cli.tui_keys_over", "The game is over · A analysis · ? help · Ctrl-S save · Q quit"),
    N_("cli.tui_keys_final", "Enter end the game  U undo  ? help  Q end the game and quit"),
    N_("cli.tui_analysis_title", "Analysis: each decision against the best play"),
    N_("cli.tui_analysis_key", "A: the analysis of every decision"),
    N_("cli.line_over_prompt", "a: the analysis of every decision · Enter: end> "),
    N_("cli.line_over_unknown", "The game is over: a shows its analysis, Enter or q ends."),
    N_("cli.analysis_at_end", "The analysis is made when the game is over: type a then."),
    N_("cli.line_analysing", "Analysing the game …"),
    N_(
        "cli.analysis_preparing",
        "The analysis's strategy table is being prepared (once on this computer, about a "
        "minute): the analysis appears here as soon as it is ready.",
    ),
    N_("cli.analysis_failed", "The analysis could not be made: {reason}"),
    N_(
        "cli.analysis_player",
        "{name}: {points}\u00a0points; {mistakes} mistakes in {decisions} decisions, {loss}\u00a0"
        "points lost to the best play in all",
    ),
    N_(
        "cli.analysis_unrated",
        "{name}: {points}\u00a0points; cannot be rated: the pad holds the points without the "
        "dice they were scored from",
    ),
    N_("cli.analysis_no_mistakes", "No mistakes: every decision was as good as the best."),
    N_("cli.analysis_costliest", "The costliest decisions:"),
    N_(
        "cli.analysis_win_title",
        "In chance to win (people counted as playing their best, the computer at its level):",
    ),
    N_(
        "cli.analysis_win_title_measured",
        "In chance to win (the computer at its level, people as their play has shown):",
    ),
    N_(
        "cli.analysis_win_player",
        "{name}: {start}\u00a0% at the start; {given} percentage points given up to the best "
        "play, {costly} decisions costly",
    ),
    N_("cli.analysis_win_failed", "The analysis in chance to win could not be made: {reason}"),
    N_("cli.analysis_mistake", "{name}, turn {turn}: {chosen}; best: {best} (−{loss}\u00a0points)"),
    N_("cli.tui_first_roll", "{name}: press Space or R to roll"),
    N_(
        "cli.tui_choose",
        "Keep dice (1-{n}) and roll, or choose a box (↑↓, letter) and press Enter",
    ),
    N_("cli.tui_choose_last", "No rolls left: choose a box (↑↓, letter) and press Enter"),
    N_("cli.tui_arm_first", "Choose the box first (↑↓ or its letter), then Enter writes it"),
    N_("cli.tui_space_guard", "The dice are out: keep dice with 1-{n} first, or press R to roll"),
    N_("cli.tui_confirm_reroll", "The dice show {box}! Roll them away anyway?"),
    N_("cli.tui_scratch_mode", "Scratch mode: Enter scratches the chosen box (X: back to scoring)"),
    N_(
        "cli.tui_pick_outer",
        "Inner result: {box}. Now the box of the outer result (Esc: start over)",
    ),
    N_(
        "cli.tui_pick_inner",
        "DubbelYatzy: Enter picks the box of the inner result first, then the outer",
    ),
    N_("cli.tui_not_a_box", "That row is not a box to write in"),
    N_("cli.tui_yes", "Yes"),
    N_("cli.tui_no", "No"),
    N_("cli.tui_confirm_zero", "{box} gets 0 points though the dice score elsewhere. Write it?"),
    N_("cli.tui_quit_title", "Quit the unfinished game? Save it first to this file:"),
    N_("cli.tui_save_quit", "Save and quit"),
    N_("cli.tui_quit_nosave", "Quit without saving"),
    N_("cli.tui_back", "Back to the game"),
    N_("cli.tui_save_title", "Save the game to this file:"),
    N_("cli.tui_save", "Save"),
    N_("cli.tui_cancel", "Cancel"),
    N_("cli.tui_overwrite", "{path} already exists. Replace it?"),
    N_("cli.tui_hint_title", "The best options now"),
    N_(
        "cli.tui_thinking",
        "Thinking… (the first hint of a rule set may take a while: the solver's table is made once "
        "and kept)",
    ),
    N_("cli.tui_hint_value", "Expected final score with the best play: {value}"),
    N_(
        "cli.tui_hint_record",
        "Aiming at your record ({record}): the chance of beating it with the best play is "
        "{percent}\u00a0%",
    ),
    N_("cli.tui_hint_chance_lost", "−{points} percentage points"),
    N_("cli.tui_hint_for_points", "Aiming at the highest expected score instead:"),
    N_("cli.tui_hint_none", "No hint now: it is not a person's turn"),
    N_("cli.tui_close", "Esc: close"),
    N_(
        "cli.tui_help_keys",
        "Keys\n"
        "  1-6          keep a die / let it roll again (yellow: kept)\n"
        "  Space, R     roll the dice that are not kept (Space needs a keep choice\n"
        "               once the dice are out; R always rolls)\n"
        "  ↑ ↓, A B C…  choose a box (the letter is shown beside it)\n"
        "  Enter        write the dice in the chosen box (a 0 where the dice score\n"
        "               elsewhere asks first)\n"
        "  X            scratch mode for the next write\n"
        "  U            undo your last write (until the next roll or the end)\n"
        "  H            the advisor's best options\n"
        "  ?            this help\n"
        "  Ctrl-S       save the game to a file\n"
        "  Q, Ctrl-Q    quit (offers to save an unfinished game)\n"
        "Colours: yellow = kept dice, green = what scores most now / a won bonus,\n"
        "magenta = a Yatzy, grey = a box the rules do not allow now",
    ),
    N_(
        "cli.tui_help_double",
        "DubbelYatzy: Enter picks the inner result's box, a second Enter the outer's; Esc starts "
        "over. The best face to drop is chosen.",
    ),
    N_("cli.tui_bot_thinking", "{name} is thinking…"),
    N_("cli.tui_grace", "{name} plays next · U takes your write back · Enter goes on"),
    N_("cli.tui_final", "{name}: the game's last box · U takes it back · Enter ends the game"),
    N_("cli.tui_enter_no_roll", "Enter does not roll: press Space or R to roll"),
    N_(
        "cli.tui_unknown_key",
        "{pressed} does nothing · 1-6 keep · Space/R roll · letter+Enter write · ? help",
    ),
    N_("cli.tui_chances_failed", "Win % could not be computed ({reason}): shown as ?"),
    N_("cli.tui_chances_pending", "Working out the chances to win (Win %) …"),
    N_(
        "cli.tui_chances_overdue",
        "Win % got no answer in {seconds}\u00a0s: shown as ? until the answer comes.",
    ),
    N_("cli.record_short", "record {record}: {percent}\u00a0% to beat it"),
    N_("cli.record_short_unavailable", "record {record}: chance needs its table built"),
    N_("cli.record_short_approx", "record {record}: about {percent}\u00a0% to beat it"),
    N_(
        "cli.record_chance_approx",
        "Chance of beating your record ({record}): about {percent}\u00a0% (approximate until its "
        "table is ready: being built, minutes once on this computer)",
    ),
    N_(
        "cli.record_chance_unsupported",
        "Chance of beating your record ({record}): not computed for these rules "
        "(only Yatzy and Yahtzee have the tables for it)",
    ),
    N_("cli.record_short_unsupported", "record {record}: no chance for these rules"),
    N_(
        "cli.bot_stand_in",
        "{name} plays a simple strategy for now: its strategy table is being prepared "
        "(once on this computer).",
    ),
    N_(
        "cli.hint_preparing",
        "The hints' strategy table is being prepared (once on this computer, about a "
        "minute): the options are shown by themselves at the first prompt after it is ready.",
    ),
    N_("cli.hint_ready", "The hints' strategy table is ready: the hint you asked for."),
    N_(
        "cli.tui_hint_preparing",
        "The hints' strategy table is being prepared (once on this computer, about a "
        "minute): the options appear here as soon as it is ready.",
    ),
    N_("cli.bot_own_strategy", "{name}'s strategy table is ready: it plays its own strategy."),
    N_(
        "cli.win_assumed",
        "{name} counts as playing like the computer level “{level}” until their play has been "
        "seen for a few turns.",
    ),
    N_(
        "cli.win_measured",
        "{name} counts as playing like the computer level “{level}”, as measured from this "
        "game so far.",
    ),
    N_(
        "cli.win_measured_earlier",
        "{name} counts as playing like the computer level “{level}”, as measured from this "
        "game so far and their earlier games of these rules on this computer ({games}).",
    ),
    N_("cli.unknown_level", "unknown bot level {text!r}; valid: {levels}"),
    N_(
        "cli.unknown_level_ids",
        "unknown bot level {text!r}; valid: {levels} (or in English: {ids})",
    ),
)

MESSAGES: dict[str, Message] = {**_LINE_MODE, **_FULL_SCREEN}
"""Message key to its text (``MESSAGES[key][lang]``; ``str.format`` fields)."""


LEVEL_WORDS: dict[str, Message] = {
    # The same words as the web's start page (web/catalog.py BOT_WORDS), weakest first.
    "random": N_("bot.random", "Random"),
    "greedy": N_("bot.greedy", "Greedy"),
    "beginner": N_("bot.beginner", "Beginner"),
    "casual": N_("bot.casual", "Casual"),
    "strong": N_("bot.strong", "Strong"),
    "optimal": N_("bot.optimal", "Perfect"),
    "winner": N_("bot.winner", "Winner"),
}
"""Each bot level's name as the players read it (``perfect`` is ``optimal``'s other id)."""


def level_name(level: str, lang: Language) -> str:
    """Bot ``level``'s name in ``lang`` ("Lagom" for ``casual`` in Swedish; an unknown
    level as it is)."""
    words = LEVEL_WORDS.get("optimal" if level == "perfect" else level)
    return words[lang] if words is not None else level


def level_from_word(text: str) -> str | None:
    """The bot level ``text`` names: an English id (``casual``) or a level's name in any
    language ("lagom", "Tavallinen"), in any case; ``None`` when it names none."""
    word = text.strip().casefold()
    if word in LEVEL_IDS:
        return word
    for level, words in LEVEL_WORDS.items():
        if any(words[lang].casefold() == word for lang in words):
            return level
    return None


LEVEL_IDS = ("random", "greedy", "beginner", "casual", "strong", "optimal", "perfect", "winner")
"""The bot levels' ids as the command line and the records write them
(:data:`yatzy.bots.BOT_LEVELS`, whose tests keep the two alike)."""


def unknown_level(text: str, lang: Language) -> str:
    """The one line refusing ``--bot TEXT``: the levels by their names in ``lang`` (in
    Swedish and Finnish the English ids too, which work in every language)."""
    ids = ", ".join(LEVEL_IDS)
    if lang == "en":
        return tr("unknown_level", lang, text=text, levels=ids)
    names = ", ".join(level_name(level, lang).casefold() for level in LEVEL_WORDS)
    return tr("unknown_level_ids", lang, text=text, levels=names, ids=ids)


def tr(key: str, lang: Language, **fields: object) -> str:
    """The message ``key`` in ``lang`` with its fields filled in."""
    return MESSAGES[key][lang].format(**fields)


def join_names(names: list[str], lang: Language) -> str:
    """``A``, ``A and B``, ``A, B and C`` in ``lang``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {tr('and', lang)} {names[-1]}"
