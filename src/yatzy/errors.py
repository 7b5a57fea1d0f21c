"""The exception hierarchy of yatzy.

Every error that bad input can cause subclasses :class:`YatzyError`, which is a
:class:`ValueError`, so callers may catch either.  Messages are one line and quote
the offending input.
"""

from __future__ import annotations


class YatzyError(ValueError):
    """Base class of every error raised for bad input."""


class SpecError(YatzyError):
    """A rules spec names an unknown rule set or option, or an invalid value.

    ``key`` names the refusal in the translation catalog (``rules.error.KEY``) and
    ``fields`` fills its text in, so a front end can say it in the player's language
    (:func:`yatzy.rules.explain_spec_error`); the message itself is English.
    ``options`` names the options the refusal concerns (their ids), so that a front
    end can name them as it writes them (by default the ``option`` field's, if any).
    """

    def __init__(
        self,
        message: str,
        *,
        key: str = "",
        fields: dict[str, object] | None = None,
        options: tuple[str, ...] | None = None,
    ) -> None:
        self.key = key
        self.fields = dict(fields or {})
        if options is None:
            option = self.fields.get("option")
            options = (str(option),) if option is not None else ()
        self.options = options
        super().__init__(message)


class DiceError(YatzyError):
    """Dice that are not valid for the rule set (a face outside 1-6, a wrong count)."""


class UnknownBoxError(YatzyError):
    """A box (category) id, number or name that the rule set does not have.

    ``text`` is what was given and ``candidates`` the box ids it comes close to
    (empty when nothing does), for a front end to offer in its own words.
    """

    def __init__(self, message: str, *, text: str = "", candidates: tuple[str, ...] = ()) -> None:
        self.text = text
        self.candidates = candidates
        super().__init__(message)


class AmbiguousBoxError(UnknownBoxError):
    """A box name that could mean two or more boxes (``candidates``); never guessed."""


class IllegalActionError(YatzyError):
    """An action that the rules do not allow in the current state."""


class NotYourTurnError(IllegalActionError):
    """An action by a player whose turn it is not (or while chance is to act)."""


class BoxFilledError(IllegalActionError):
    """Scoring a box that is already filled."""


class OrderError(IllegalActionError):
    """A box that the forced, half-forced or joker rules do not allow now."""


class LastResortError(OrderError):
    """A box or a 0 that the option ``last_resort`` does not allow for these dice."""


class NoRollsLeftError(IllegalActionError):
    """A roll past the limit of the turn."""


class KeepError(IllegalActionError):
    """Keeping dice that are not on the table."""


class ImpossibleScoreError(IllegalActionError):
    """Score pad: points that the rules make impossible for that box."""


class GameOverError(IllegalActionError):
    """An action after the game has ended."""


class RecordError(YatzyError):
    """A game record that is malformed, truncated or tampered with.

    ``turn`` is the 1-based turn number (0 for the header or the roll-off) and
    ``field`` the path of the offending field inside the record.
    """

    def __init__(self, message: str, *, turn: int = 0, field: str = "") -> None:
        self.turn = turn
        self.field = field
        self.reason = message
        where = f"turn {turn}" if turn else "record"
        if field:
            where += f", {field}"
        super().__init__(f"{where}: {message}")
