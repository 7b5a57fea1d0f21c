"""The words of the web pages, from the one catalog (keys ``web.KEY``).

``{name}`` marks a value the page fills in (a player, a box, a number).  The pages'
JavaScript gets every word of its language from the server (:func:`ui_strings`).
"""

from __future__ import annotations

from functools import cache

from yatzy.i18n import LANGUAGE_NAME, LANGUAGES, N_, Message, messages
from yatzy.rules import Language
from yatzy.strategy.advice_words import ABOUT_PERCENT, OVER_PERCENT, UNDER_PERCENT
from yatzy.web.clock_words import CLOCK_WORDS

LANGUAGE_NAMES: dict[str, str] = {lang: LANGUAGE_NAME[lang] for lang in LANGUAGES}
"""Each language by its own name, as the language switch shows it."""

_STRINGS: dict[str, Message] = messages(
    "web.",
    N_(
        "web.tagline",
        "Yatzy, Maxi Yatzy, Double Yatzy and Yahtzee – against the computer, with friends or on "
        "paper.",
    ),
    N_("web.skip", "Skip to content"),
    N_("web.menu", "Menu"),
    N_("web.new_game", "New game"),
    N_("web.history", "History"),
    N_("web.leaderboard_link", "Leaderboards"),
    N_("web.rules", "Rules"),
    N_("web.language", "Language"),
    N_("web.start_title", "Play Yatzy"),
    N_("web.choose_game", "Which game?"),
    N_("web.more_rules", "More rules"),
    N_("web.show_hints", "Show hints while playing"),
    N_("web.hints_missing", "hints are not installed here"),
    N_("web.read_rules", "Read the rules"),
    N_("web.how_play", "How do you want to play?"),
    N_("web.play_bot", "Play against the computer"),
    N_("web.bot_level", "Computer's level"),
    N_("web.play_hotseat", "Pass and play"),
    N_("web.play_hotseat_about", "Several players take turns on this device."),
    N_("web.play_invite", "Invite friends"),
    N_("web.play_invite_about", "Everyone plays on their own device through a link."),
    N_("web.play_pad", "Score pad"),
    N_("web.play_pad_about", "Roll real dice; the app keeps the score."),
    N_("web.play_solo", "Solo: beat your record"),
    N_("web.play_solo_about", "A game on your own against your best score."),
    N_("web.your_name", "Your name"),
    N_("web.add_person", "Add player"),
    N_("web.add_bot", "Add computer"),
    N_("web.start_game", "Start the game"),
    N_("web.name", "Name"),
    N_("web.who_plays", "Plays"),
    N_("web.kind_here", "here on this device"),
    N_("web.kind_remote", "through the link"),
    N_("web.computer", "Computer"),
    N_("web.remove", "Remove"),
    N_("web.bad_form", "Something in the form is not right: check the names and the rules."),
    N_("web.refused", "That did not work:"),
    N_("web.number_range", "{option}: a whole number from {low} to {high}."),
    N_(
        "web.rules_refused",
        "These house rules cannot be played together: check them under “More rules”.",
    ),
    N_("web.rules_exclude", "“{first}” and “{second}” cannot be played together: pick one."),
    N_("web.rule_refused", "“{option}” cannot be played with these rules."),
    N_("web.start_refused", "The game could not be started."),
    N_("web.name_missing", "Every player needs a name."),
    N_("web.unreachable", "The server cannot be reached."),
    N_("web.unreachable_retrying", "The server cannot be reached – retrying …"),
    N_("web.share", "Links"),
    N_("web.invite", "Invite"),
    N_("web.invite_link", "Invite link"),
    N_("web.spectate", "Spectator link"),
    N_("web.copy", "Copy"),
    N_("web.copied", "Copied"),
    N_("web.copy_what", "Copy {what}"),
    N_("web.qr_alt", "QR code of the invite link"),
    N_("web.still_to_join", "Waiting for {players} to join."),
    N_(
        "web.awaiting_join",
        "Waiting for {players} to join: the computers play once they have.",
    ),
    N_("web.join_title", "Take your seat"),
    N_("web.join_as", "Play as {player}"),
    N_("web.not_joined", "not joined"),
    N_("web.rolloff", "Who starts"),
    N_("web.starts_after_rolloff", "{player} starts (see the rolls)"),
    N_("web.fair_title", "Fair dice"),
    N_("web.talk_title", "Say something"),
    N_("web.talk_said", "{player}: {phrase}"),
    N_("web.talk_mute", "Mute {player}"),
    N_("web.talk_unmute", "Hear {player} again"),
    N_("web.talk_refused", "Not now: you have said a lot in a short time."),
    N_("web.talk_hello", "Hello!"),
    N_("web.talk_good_luck", "Good luck!"),
    N_("web.talk_nice_roll", "Nice roll!"),
    N_("web.talk_so_close", "So close!"),
    N_("web.talk_well_played", "Well played!"),
    N_("web.talk_thanks", "Thanks!"),
    N_("web.talk_oops", "Oops!"),
    N_("web.talk_bye", "Bye, see you!"),
    N_("web.text_title", "Messages to friends"),
    N_("web.text_only_friends", "Only your friends in this game see this."),
    N_("web.text_label", "Write to your friends"),
    N_("web.text_send", "Send"),
    N_("web.text_line", "{player}: {text}"),
    N_("web.text_refused", "Not now: you have written a lot in a short time."),
    N_("web.text_too_long", "At most {n} characters."),
    N_("web.text_bad", "The message cannot be sent: write plain text, without line breaks."),
    N_("web.text_no_friends", "None of the other players is your friend any more."),
    N_("web.daily_link", "Daily"),
    N_("web.daily_title", "Daily challenge"),
    N_(
        "web.daily_intro",
        "Every day everyone plays the same dice: whoever keeps the same dice gets the same "
        "rolls. Play once, then see how you did against everyone and against the perfect "
        "player. The dice's secret number is revealed when the day is over (UTC).",
    ),
    N_("web.daily_players", "Played today: {count}"),
    N_("web.daily_play", "Play today's challenge"),
    N_("web.daily_calendar", "Earlier days"),
    N_("web.daily_board", "Leaderboard"),
    N_("web.daily_place", "You are number {place} of {count}."),
    N_("web.daily_place_col", "Place"),
    N_("web.daily_optimal", "The perfect player scored {total} on the same dice."),
    N_(
        "web.daily_optimal_pending", "The perfect player's score on these dice is being worked out."
    ),
    N_("web.daily_your_total", "Your score: {total}."),
    N_("web.daily_day", "Day"),
    N_("web.daily_players_col", "Players"),
    N_("web.daily_best", "Best"),
    N_("web.daily_perfect", "Perfect player"),
    N_("web.daily_yours", "You"),
    N_("web.daily_seed", "The day's secret number (to check any game of the day)"),
    N_("web.daily_played", "You have played today's challenge: see the leaderboard."),
    N_("web.daily_bad_name", "That name cannot be used: try another."),
    N_("web.daily_not_yet", "The leaderboard opens when you have played the challenge."),
    N_("web.daily_nobody", "Nobody played this challenge."),
    N_("web.daily_game", "The daily challenge of {day}: the same dice for everyone."),
    N_("web.tournament_game", "A tournament game:"),
    N_("web.tournament_back", "the tournament's standings"),
    N_(
        "web.tournament_held",
        "The other tables of this round may still be playing: the secret number is shown "
        "when the round is over, and then anyone can check every die.",
    ),
    N_(
        "web.fair_held",
        "Everyone plays these dice all day: the secret number is shown when the day is over "
        "(UTC), and then anyone can check every die.",
    ),
    N_("web.duplicate_dice", "Same dice for everyone"),
    N_(
        "web.duplicate_about",
        "Whoever keeps the same dice in a round gets the same new ones, so luck is shared "
        "and the better choices win.",
    ),
    N_(
        "web.fair_duplicate",
        "Same dice for everyone: each round, the same keeps get the same rolls.",
    ),
    N_(
        "web.fair_running",
        "The dice come from a secret number the server chose before the first roll. Its "
        "fingerprint is below; the number itself is shown when the game is over, so anyone "
        "can check every die.",
    ),
    N_("web.fair_fingerprint", "Fingerprint"),
    N_("web.fair_added", "Added by the players' devices: {count}"),
    N_("web.fair_check", "Check the dice"),
    N_("web.fair_checking", "Checking every die …"),
    N_("web.fair_ok", "All {count} dice come from the number promised before the first roll."),
    N_("web.fair_bad", "Not verified: {where}."),
    N_("web.fair_unreadable", "the game's record could not be read"),
    N_(
        "web.fair_where_die",
        "turn {turn} ({player}), roll {roll}, die {die} is {found} where the seed gives {expected}",
    ),
    N_(
        "web.fair_where_rolloff",
        "{player}'s roll-off die is {found} where the seed gives {expected}",
    ),
    N_("web.fair_where_seed", "the revealed number does not match the fingerprint"),
    N_("web.fair_unsupported", "This browser cannot check the dice (it lacks Web Crypto)."),
    N_(
        "web.fair_none",
        "This game was started before the dice could be checked.",
    ),
    N_("web.rolling_off", "Rolling who starts …"),
    N_("web.protocol", "Score sheet"),
    N_("web.protocol_pdf", "Score sheet as PDF"),
    N_("web.protocol_xlsx", "Score sheet as Excel file"),
    N_("web.how_to_play_rules", "How to play"),
    N_("web.sound", "Sound"),
    N_("web.show_chances", "Win chances"),
    N_("web.win_chance_of", "{player}: chance to win {chance}"),
    N_("web.win_pending", "working out the chances to win…"),
    # shown in a player's narrow column head until the chances come (the long text
    # above is read to screen readers there and shown under the sheet)
    N_("web.win_pending_short", "working…"),
    N_("web.win_unavailable", "The chances to win cannot be worked out for this position yet."),
    N_(
        "web.win_unavailable_large",
        "In {title} the chances to win appear in the last rounds: before that the game can "
        "go too many ways to work them out in time.",
    ),
    N_(
        "web.win_unavailable_not_prepared",
        "This server works out no chances to win for these house rules.",
    ),
    ABOUT_PERCENT,
    UNDER_PERCENT,
    OVER_PERCENT,
    N_(
        "web.win_note_about",
        "Chance to win after every move, simulated: each figure may be off by up to {margin} "
        "percentage points. People are counted at the level their play shows, the computer "
        "at its level.",
    ),
    N_(
        "web.win_measured",
        "{player} counts as playing like the computer level “{level}”, as measured from this "
        "game so far.",
    ),
    N_(
        "web.win_assumed",
        "{player} counts as playing like the computer level “{level}” until their play has "
        "been seen for a few turns.",
    ),
    N_(
        "web.win_measured_earlier",
        "{player} counts as playing like the computer level “{level}”, as measured from this "
        "game so far and their earlier games of these rules ({games}).",
    ),
    N_("web.level_strong", "Strong"),
    N_("web.level_casual", "Casual"),
    N_("web.level_beginner", "Beginner"),
    N_("web.scratched_title", "Scratched: 0 points"),
    N_("web.scratched_key", "– is a scratched box: 0 points."),
    N_(
        "web.par_help",
        "How many points your upper section is ahead of (+) or behind (−) the pace to the "
        "bonus: three of each face filled so far.",
    ),
    N_(
        "web.win_note_exact",
        "Chance to win after every move, exact: people are counted at the level their play "
        "shows, the computer at its level.",
    ),
    N_("web.dice", "Dice"),
    N_("web.die", "Die"),
    N_("web.kept", "kept"),
    N_("web.roll", "Roll"),
    N_("web.roll_all", "Roll all"),
    N_("web.roll_rest", "Roll {n}"),
    N_("web.roll_to_start", "Roll to start your turn."),
    N_("web.not_rolled", "Not rolled yet."),
    N_("web.bot_rolls_after_go_on", "{player} rolls when you go on."),
    N_("web.rolls_left", "Rolls left: {n}"),
    N_("web.rolls_left_saved", "Rolls left: {n} (saved: {saved})"),
    N_("web.saved_rolls", "Saved rolls"),
    N_("web.scratch_mode", "Scratch …"),
    N_("web.scratch_cancel", "Cancel scratch"),
    N_(
        "web.scratch_explain",
        "Scratch: the box you choose next gets 0 points (✕) and stays closed for the rest of "
        "the game.",
    ),
    N_("web.scratched", "scratched"),
    N_("web.scratch", "Scratch"),
    N_("web.score_box", "Score {points} in {box}"),
    N_("web.scratch_box", "Scratch {box}"),
    N_("web.undo", "Undo"),
    N_("web.undo_box", "Undo {box}"),
    N_("web.go_on", "Go on: {player} plays"),
    N_("web.bot_waits", "{player} waits until you go on – until then you can take back {box}."),
    N_("web.end_game", "End the game"),
    N_("web.held_undone", "{box} taken back: choose again."),
    N_(
        "web.held_last",
        "{player}: {box} written, the game's last box – {total}\u00a0points in all. End the "
        "game, or take it back.",
    ),
    N_(
        "web.held_last_timed",
        "{player}: {box} written, the game's last box – {total}\u00a0points in all. The game "
        "ends in {seconds}\u00a0s unless you take it back.",
    ),
    N_("web.tap_confirm", "Tap twice to write"),
    N_("web.tap_again", "Tap {box} again to write {points}."),
    N_("web.tap_again_scratch", "Tap {box} again to scratch it (0)."),
    N_("web.all_kept", "All dice kept"),
    N_(
        "web.rated_refused",
        "This is a rated game: no hints, take-backs or analysis until it is over.",
    ),
    N_("web.rated_account", "A rated game's seats are for signed-in players, one seat each."),
    N_(
        "web.hints_unavailable",
        "This game cannot have hints (in a score pad game the server has no dice to advise on).",
    ),
    N_("web.nothing_waits", "The computer has already moved: that write stands."),
    N_("web.confirm_zero", "Write 0 in {box}? The dice would score {points} in {other}."),
    N_("web.confirm_scratch_self", "Scratch {box}? The dice would score {points} there."),
    N_("web.confirm_yes", "Yes, write it"),
    N_("web.confirm_no", "No"),
    N_(
        "web.joker_now",
        "Joker: five of a kind with the Yahtzee box already filled. Use the matching upper box if "
        "it is open; otherwise full house and the straights score in full.",
    ),
    N_("web.outer_legend", "● outer die"),
    N_("web.inner_legend", "◦ inner die"),
    N_("web.inner", "Inner"),
    N_("web.outer", "Outer"),
    N_("web.layer", "Result"),
    N_("web.dropped", "dropped die"),
    N_("web.choose_inner", "choose the box for the inner result"),
    N_("web.choose_outer", "choose the box for the outer result"),
    N_("web.enter_dice", "The dice"),
    N_("web.set_dice", "Show the points"),
    N_("web.pad_dice_help", "{n} digits 1–6, e.g. 66622"),
    N_("web.approximate", "approximate"),
    N_("web.as_good", "as good"),
    N_("web.points_short", "p"),
    N_("web.best_choice", "best"),
    N_("web.best_value", "expected final score with best play"),
    N_("web.analysis_pending", "Computing the analysis…"),
    N_(
        "web.analysis_preparing",
        "Preparing the strategy tables – the first time on this computer this takes a "
        "minute or two; the analysis follows…",
    ),
    N_("web.analysis_failed", "The analysis could not be made"),
    N_("web.costliest", "Costliest choices"),
    N_("web.no_mistakes", "No costly choices – well played!"),
    N_("web.chart_title", "Expected final score turn by turn"),
    N_("web.final_score", "Final score"),
    N_("web.history_intro", "The games of this browser, newest first."),
    N_("web.no_games", "No games in this browser yet."),
    N_("web.games_list", "Games"),
    N_("web.started", "Started"),
    N_("web.ended", "Ended"),
    N_("web.players", "Players"),
    N_("web.result", "Result"),
    N_("web.game_link", "Game"),
    N_("web.view_game", "View game"),
    N_("web.continue_game", "Continue the game"),
    N_("web.in_progress", "in progress"),
    N_("web.score_pad", "score pad"),
    N_("web.statistics", "Statistics"),
    N_("web.stats_intro", "Your seats in finished games, per rule set."),
    N_("web.variant", "Rules"),
    N_("web.games_played", "Games"),
    N_("web.average", "Average"),
    N_("web.best_score", "Best"),
    N_("web.bonus_rate", "Bonus"),
    N_("web.yatzy_rate", "Yatzy"),
    N_("web.solo_record", "Solo record"),
    N_("web.dash_no_solo", "– in Solo record: no solo game of these rules yet."),
    N_("web.dash_daily", "– : nobody has played it yet, not worked out yet, or not played by you."),
    N_("web.stats_chart", "Average score per rule set"),
    N_("web.house_rules_mark", "* with house rules"),
    N_("web.stats_failed", "The statistics could not be loaded"),
    N_("web.no_stats", "No statistics yet: finish a game."),
    N_("web.pad_dice_help_double", "{n} pairs inner+outer, e.g. 56 34 …"),
    N_("web.pad_dice_bad", "Type {n} dice as digits 1–6, e.g. 66622."),
    N_("web.pad_dice_bad_double", "Type {n} double dice as pairs of digits 1–6, e.g. 56 34."),
    N_("web.box", "Box"),
    N_("web.points", "Points"),
    N_("web.write_points", "Write the points"),
    N_("web.points_missing", "Type the points."),
    N_("web.impossible_points", "{points}\u00a0points are not possible in {box}."),
    N_("web.order_refused", "In this game the boxes are filled in order."),
    N_("web.conflict", "Someone else was quicker – the game is up to date now."),
    N_("web.not_your_turn", "It is not your turn."),
    N_("web.seat_refused", "You cannot take that seat."),
    N_("web.box_filled", "That box is already filled."),
    N_("web.refused_generic", "That move is not allowed."),
    N_(
        "web.refused_forced",
        "{box} cannot be filled now: with forced order the boxes are filled from top to "
        "bottom. Next: {allowed}.",
    ),
    N_(
        "web.refused_half_forced",
        "{box} cannot be filled now: with half-forced order each half is filled from top to "
        "bottom. Allowed now: {allowed}.",
    ),
    N_(
        "web.refused_joker",
        "{box} cannot take five of a kind now: under the joker rule they go in their upper "
        "box first, else in the lower section. Allowed now: {allowed}.",
    ),
    N_(
        "web.refused_last_resort_chance",
        "{box} cannot take these dice: under the rule “Chance and zeros only when nothing "
        "else scores” they go where they score. Allowed now: {allowed}.",
    ),
    N_(
        "web.refused_last_resort_zero",
        "{box} cannot get 0 now: under the rule “Chance and zeros only when nothing else "
        "scores” a 0 is written only when the dice score nowhere. Allowed now: {allowed}.",
    ),
    N_("web.refused_not_allowed", "{box} cannot be filled now. Allowed now: {allowed}."),
    N_("web.box_filled_named", "{box} is already filled."),
    N_("web.not_scratchable", "{box} cannot be scratched."),
    N_("web.no_rolls_left", "No rolls left this turn: write the dice in a box."),
    N_(
        "web.keep_all_refused",
        "Keeping every die leaves nothing to roll: write the dice in a box instead.",
    ),
    N_("web.no_such_game", "There is no such game."),
    N_("web.no_answer", "No answer from the server – retrying …"),
    N_("web.live", "connected"),
    N_("web.offline", "disconnected"),
    N_("web.to_play", "to play"),
    N_("web.your_turn", "Your turn!"),
    N_("web.turn_named", "{player}'s turn"),
    N_("web.watching", "You are watching. {player}'s turn."),
    N_("web.waiting_for", "Waiting for {player} …"),
    N_(
        "web.bot_preparing",
        "{player} plays a simple strategy while its strategy tables are prepared "
        "(once on this computer)",
    ),
    N_("web.pass_device", "{player}'s turn – pass the device"),
    N_("web.i_am", "I am {player}, go"),
    N_("web.said_score", "{player}: {points} in {box}."),
    N_("web.said_scratch", "{player} scratched {box}."),
    N_("web.yatzy_moment", "Yatzy for {player}!"),
    N_(
        "web.keys_help",
        "Keys: 1–6 keep a die · R or Space rolls · A–{last} picks a box, Enter writes · ↑↓ between "
        "boxes · X scratch · U undo",
    ),
    N_("web.game_over", "Game over"),
    N_("web.winner_is", "Winner: {players}"),
    N_("web.winners_are", "Shared win: {players}"),
    N_("web.solo_result", "{player}: {points}\u00a0points"),
    N_("web.you_won", "You won with {points}\u00a0points!"),
    N_("web.you_share_the_win", "You share the win with {points}\u00a0points!"),
    N_("web.your_place", "Your result: {points}\u00a0points, place {place} of {count}"),
    N_("web.rematch", "Play again"),
    N_("web.record_is", "Your record: {points}"),
    N_("web.new_record", "New record!"),
    N_("web.new_record_over", "New record! Your record was {points}."),
    N_("web.no_record", "no record yet"),
    N_("web.record_chance", "chance of beating it: {percent}\u00a0%"),
    N_(
        "web.record_chance_pending",
        "the chance of beating it is being worked out (once for these rules: a few "
        "minutes; it appears after a later move)",
    ),
    N_(
        "web.record_chance_approx",
        "chance of beating it: about {percent}\u00a0% (approximate, while the exact figure is "
        "worked out)",
    ),
    N_("web.aim_record", "Aim at the record"),
    N_("web.aim_expected", "Aim at the expected score"),
    N_("web.record_hint_value", "chance of reaching {target}"),
    N_("web.hint", "Hint"),
    N_("web.hint_pending", "Working out the hints …"),
    N_("web.analysis", "Analysis"),
    N_("web.rules_for", "Rules: {game}"),
    N_("web.other_games", "Other games"),
    N_("web.rules_turn_title", "A turn"),
    N_(
        "web.rules_turn",
        "You roll all {dice} dice. Keep the ones you like and roll the rest again, up to {rolls} "
        "rolls. Then you write the result in an empty box; if the dice do not fit there it scores "
        "0. You may always scratch a box (write 0).",
    ),
    N_(
        "web.rules_start",
        "Everyone rolls one die; the highest starts, ties roll again. Play goes clockwise. When "
        "every box is filled, the highest total wins.",
    ),
    N_(
        "web.rules_bonus",
        "Bonus: {bonus}\u00a0points when the upper half adds up to at least {threshold}. "
        "The +/− row shows whether you are ahead of or behind the pace for the bonus.",
    ),
    N_(
        "web.rules_saved",
        "With saved rolls (a house rule, see below) the rolls you do not use carry over to later "
        "turns: all of them, or at most 2 into the next turn.",
    ),
    N_(
        "web.rules_double",
        "Every die is double: an outer die with an inner one inside. After the last roll you write "
        "two results into two different boxes: one of the outer faces and one of the inner faces. "
        "Each result first drops one of the six faces and counts five.",
    ),
    N_("web.rules_boxes", "The boxes"),
    N_("web.rules_examples", "Examples from the rules"),
    N_("web.rules_example_dropped", "{dice}, {drop} dropped"),
    N_("web.rules_house", "House rules to choose"),
    N_("web.rules_house_about", "Pick them under “More rules” when you start a game."),
    N_("web.seats", "Players"),
    N_("web.player", "Player"),
    N_("web.winner", "Winner"),
    N_("web.open", "open"),
    N_("web.bot", "Computer"),
    N_("web.pad", "Score pad"),
    N_("web.hints", "Hints"),
    N_("web.record", "Your record"),
    N_("web.turn", "Turn"),
    N_("web.best", "best"),
    N_("web.lost", "expected points lost against perfect play"),
    N_("web.expected", "expected final score"),
    N_("web.wa_analysis", "Chance of winning"),
    N_("web.wa_analysis_record", "Chance of beating the record"),
    N_("web.wa_pending", "Computing the chances…"),
    N_(
        "web.wa_preparing",
        "Preparing the win chances – the first time on this computer this takes a minute "
        "or two; the chances follow…",
    ),
    N_("web.wa_failed", "The chances could not be computed"),
    N_("web.wa_costliest", "Costliest choices for the chance"),
    N_("web.wa_all", "Every decision: points and chance"),
    N_("web.wa_choice", "Choice"),
    N_("web.wa_better", "Better for the chance"),
    N_("web.wa_points", "Points lost"),
    N_("web.wa_change", "Chance lost (percentage points)"),
    N_("web.wa_after", "Chance after"),
    N_("web.wa_about", "about {value}"),
    N_("web.wa_rounds", "Rounds played"),
)


def ui_strings(lang: Language) -> dict[str, str]:
    """Every page word in ``lang``."""
    return dict(_ui_strings(lang))


@cache
def _ui_strings(lang: Language) -> dict[str, str]:
    every = {**_STRINGS, **CLOCK_WORDS}  # the timed games' words: clock_words.py
    return {key: message[lang] for key, message in every.items()}
