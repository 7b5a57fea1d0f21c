"""The words of the lobby, the invitations (header badge, account page, start page)
and the rematch button, from the one catalog (keys ``lobby.KEY``); the templates
read them as ``lobby_words(lang)``, the scripts from a ``data-lobby-words`` block."""

from __future__ import annotations

from functools import cache

from yatzy.i18n import N_, Message, messages
from yatzy.rules import Language

_WORDS: dict[str, Message] = messages(
    "lobby.",
    N_("lobby.title", "Lobby"),
    N_(
        "lobby.intro",
        "Find people to play with: join an open game, open one of your own, or play someone now.",
    ),
    N_(
        "lobby.accounts_only",
        "Opening and joining games here needs an account, so that everyone plays under "
        "their own name on any device. Guests may look.",
    ),
    N_("lobby.quick_title", "Play someone now"),
    N_(
        "lobby.quick_about",
        "You are paired with someone who wants the same game, usually within seconds. "
        "If nobody comes within {seconds} seconds, you may play the computer.",
    ),
    N_("lobby.rules", "Rules"),
    N_("lobby.players", "Players"),
    N_("lobby.quick_start", "Find an opponent"),
    N_("lobby.waiting", "Looking for an opponent… {seconds}\u00a0s"),
    N_("lobby.stop", "Stop looking"),
    N_("lobby.computer_offer", "Nobody came yet. Play the computer instead?"),
    N_("lobby.play_computer", "Play the computer"),
    N_("lobby.seeks_title", "Open games"),
    N_("lobby.no_seeks", "No open games right now. Open one!"),
    N_("lobby.new_seek", "Open a game"),
    N_("lobby.time_control", "Time control"),
    N_("lobby.tc_none", "No clock"),
    N_("lobby.tc_live", "{n}\u00a0s a move"),
    N_("lobby.tc_daily", "{n} d a move"),
    N_("lobby.create", "Open the game"),
    N_("lobby.join", "Join"),
    N_("lobby.leave", "Leave"),
    N_("lobby.cancel", "Cancel the game"),
    N_("lobby.by", "{name}'s game"),
    N_("lobby.seated", "{seated} of {players} seated"),
    N_("lobby.you_are_in", "You are in: the game starts when it is full."),
    N_("lobby.starting", "The game starts…"),
    N_("lobby.queue", "Waiting now: {n}"),
    N_("lobby.too_many", "Too many open games or requests. Wait a moment and try again."),
    N_("lobby.closed", "That game is no longer open."),
    N_("lobby.failed", "That did not work. Try again."),
    N_("lobby.invitations", "Invitations"),
    N_("lobby.invitations_count", "Invitations: {count}"),
    N_("lobby.invitation_from", "{name} invites you: {title}"),
    N_("lobby.accept", "Join the game"),
    N_("lobby.decline", "Decline"),
    N_("lobby.no_invitations", "No invitations."),
    N_("lobby.invite_friends", "Play with your friends"),
    N_(
        "lobby.invite_about",
        "Your friends get an invitation on their page and join with one tap: no link to send.",
    ),
    N_("lobby.invite_none", "No friends yet: add them on your account page."),
    N_("lobby.invite_start", "Start and invite"),
    N_("lobby.invite_pick", "Pick at least one friend."),
    N_(
        "lobby.invite_bots_about",
        "Computers sit at the table from the start; the game waits for each friend at "
        "their turn until they join.",
    ),
    N_("lobby.rematch", "Rematch"),
    N_("lobby.rematch_about", "The same game again: your friends get an invitation."),
)


def lobby_words(lang: Language) -> dict[str, str]:
    """Every lobby word in ``lang``."""
    return dict(_lobby_words(lang))


@cache
def _lobby_words(lang: Language) -> dict[str, str]:
    return {key: message[lang] for key, message in _WORDS.items()}
