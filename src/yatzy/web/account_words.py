"""The words of the account pages and of the header's account links, from the one
catalog (keys ``account.KEY``); the templates read them as ``account_words(lang)``."""

from __future__ import annotations

from functools import cache

from yatzy.i18n import N_, Message, messages
from yatzy.rules import Language

_WORDS: dict[str, Message] = messages(
    "account.",
    N_("account.account", "Account"),
    N_("account.login", "Log in"),
    N_("account.signup", "Sign up"),
    N_("account.signed_in_as", "Signed in as {name}"),
    N_("account.signup_title", "Create an account"),
    N_(
        "account.signup_intro",
        "An account is optional. It keeps your games and statistics on every device you "
        "log in on, and you can play the same seat from your phone and your computer.",
    ),
    N_("account.name", "Account name"),
    N_("account.password", "Password"),
    N_("account.password_hint", "At least 8 characters."),
    N_("account.create", "Create the account"),
    N_("account.codes_title", "Your recovery codes"),
    N_(
        "account.codes_intro",
        "Write these codes down and keep them safe. Each one logs you in once if you forget "
        "your password. They are shown only now.",
    ),
    N_("account.codes_done", "I have saved them"),
    N_("account.have_account", "Already have an account?"),
    N_("account.login_title", "Log in"),
    N_("account.use_code", "Log in with a recovery code instead"),
    N_("account.use_password", "Log in with the password instead"),
    N_("account.code", "Recovery code"),
    N_("account.no_account", "No account yet?"),
    N_("account.title", "Your account"),
    N_("account.created", "Account created"),
    N_("account.sessions", "Devices logged in"),
    N_("account.this_device", "this device"),
    N_("account.since", "Logged in"),
    N_("account.seen", "Last seen"),
    N_("account.revoke", "Log out this device"),
    N_("account.logout", "Log out"),
    N_("account.logout_everywhere", "Log out everywhere"),
    N_("account.codes", "Recovery codes"),
    N_("account.codes_left", "Unused recovery codes left: {n}."),
    N_("account.new_codes", "Make new codes"),
    N_("account.your_data", "Your data"),
    N_("account.export", "Export my data (JSON)"),
    N_("account.delete_title", "Delete the account"),
    N_(
        "account.delete_intro",
        "Your games stay, with your name in them replaced by an anonymous one. This cannot "
        "be undone.",
    ),
    N_("account.delete_confirm", "Type your account name to confirm"),
    N_("account.delete", "Delete my account"),
    N_("account.deleted", "The account is deleted."),
    N_("account.friends", "Friends"),
    N_("account.friend_name", "Friend's account name"),
    N_("account.friend_add", "Send a friend request"),
    N_("account.friend_incoming", "Friend requests to you"),
    N_("account.friend_outgoing", "Your requests, not answered yet"),
    N_("account.friend_blocked", "Blocked"),
    N_("account.friend_accept", "Accept"),
    N_("account.friend_decline", "Decline"),
    N_("account.friend_cancel", "Withdraw"),
    N_("account.friend_remove", "Remove"),
    N_("account.your_turns", "Your turn: {count}"),
    N_("account.turns_title", "Your turn"),
    N_("account.turns_none", "No game waits for you."),
    N_("account.day_left", "1 day left"),
    N_("account.days_left", "{count} days left"),
    N_("account.time_out", "time is out"),
    N_("account.friend_online", "online"),
    N_("account.friend_playing", "in a game"),
    N_("account.friend_block", "Block"),
    N_("account.friend_unblock", "Unblock"),
    N_("account.no_friends", "No friends yet: add one by their account name."),
    N_("account.friend_unknown", "No other account has that name."),
    N_("account.passkeys", "Passkeys"),
    N_(
        "account.passkeys_intro",
        "A passkey logs you in with your phone's or computer's screen lock: no name or "
        "password to type.",
    ),
    N_("account.passkey_add", "Add a passkey"),
    N_("account.passkey_login", "Log in with a passkey"),
    N_("account.passkey_remove", "Remove the passkey"),
    N_("account.passkey_failed", "The passkey did not work."),
    N_("account.wrong_login", "Wrong name, password or recovery code."),
    N_("account.name_taken", "That name is taken. Choose another."),
    N_(
        "account.bad_input",
        "Check the name (a reserved word will not do) and the password (at least 8 "
        "characters, not the name).",
    ),
    N_("account.too_many", "Too many attempts. Wait a moment and try again."),
    N_("account.failed", "That did not work. Try again."),
    N_("account.push_title", "Notifications"),
    N_(
        "account.push_intro",
        "Get a notification on this device when it is your turn, when a game ends, "
        "and when someone asks to be your friend or invites you to a game.",
    ),
    N_("account.push_on", "Turn on notifications on this device"),
    N_("account.push_off", "Turn off notifications on this device"),
    N_("account.push_is_on", "This device gets notifications."),
    N_("account.push_is_off", "This device gets no notifications."),
    N_("account.push_devices", "Devices with notifications: {count}"),
    N_(
        "account.push_denied",
        "Notifications are blocked for this site in the browser's settings.",
    ),
    N_("account.push_unsupported", "This browser cannot show notifications from the app."),
    N_("account.push_kinds", "Notify me of"),
    N_("account.push_turn", "My turn in a game"),
    N_("account.push_friend", "Friend requests"),
    N_("account.push_ended", "Games that end"),
    N_("account.push_invite", "Invitations to a game"),
)


def account_words(lang: Language) -> dict[str, str]:
    """Every account word in ``lang``."""
    return dict(_account_words(lang))


@cache
def _account_words(lang: Language) -> dict[str, str]:
    return {key: message[lang] for key, message in _WORDS.items()}
