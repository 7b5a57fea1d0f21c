"""Dice anyone can verify: commit, roll from the committed seed, reveal.

Before the first die the dealer (the server, or the terminal game) draws a secret
32-byte *seed* and shows its *commitment*, ``SHA-256(seed)`` in hex.  Players may add
*contributions* (any short texts, e.g. random words from their own device) until the
first die is rolled.  Every die is then a deterministic function of the seed, the
contributions and where the die is: the turn, the roll and the die's position (see
:func:`die_label`).  When the game is over the seed is revealed in the record, and
anyone can recompute the commitment and every die (:func:`verify_record`, the
``yatzy verify`` command, the finished game's page).

The function, version 2 (``SCHEME``)::

    context = SHA-256("yatzy-dice/1\\n" || for each contribution c: len(c) as 2 bytes || c)
    block_i = HMAC-SHA256(key=seed, msg=context || label || ":" || i as 4 bytes)   i = 0, 1, ...
    a face  = the next byte b of block_0 || block_1 || ... with b < 252, as b mod 6 + 1

A roll-off die's context has no contributions (version 2: the roll-off only decides who
starts, so players who join after it may still contribute to every die of the game;
version 1 mixed the contributions into the roll-off too and closed them at the roll-off,
and its records still verify).  A double die (DubbelYatzy) takes two faces, outer then
inner.  The label of a die in
a turn names the turn's index in the game log, the roll's index in the turn and the
die's position (``turn/3/roll/1/die/4``); in *duplicate* mode it names the round and
how often that position was rolled in the turn (``round/1/die/4/draw/2``), so everyone
who keeps the same dice gets the same rolls in the same round (a duplicate game, a
daily challenge, a tournament's round of tables of one); in *duplicate_seat* mode it
names the round, the player's place in the round's order and the same
(``round/1/order/0/die/4/draw/2``): the k-th player of a round at every table of a
tournament shares a stream, and no player at a table sees the dice that are coming
to them in the others' turns.  Roll-off dice are ``rolloff/ROUND/seat/SEAT``.
A seed that other games go on playing after this one is over is held back past the
game's end: until a day (``hold_until``, a daily challenge) or an event the server
knows the end of (``hold_for``, a tournament's round).

The module has no dependencies beyond the standard library, so a verifier can be
written in any language from the description above; the browser check does the
same in WebCrypto.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal

from yatzy.errors import IllegalActionError, RecordError, YatzyError
from yatzy.game.record import from_record
from yatzy.game.state import Phase, State
from yatzy.game.turnlog import Die
from yatzy.rules import RuleSet

SCHEME_V1 = "yatzy-hmac-sha256/1"
"""Version 1: contributions close at the first die (the roll-off's included) and go into
every die's context."""
SCHEME = "yatzy-hmac-sha256/2"
"""The name of the dice function above, written in every new record's ``dice`` block:
as version 1, except that the roll-off's dice come from the seed alone and contributions
close at the first die of the first turn."""
SCHEMES = (SCHEME_V1, SCHEME)

Mode = Literal["standard", "duplicate", "duplicate_seat"]
MODES: tuple[Mode, ...] = ("standard", "duplicate", "duplicate_seat")
MAX_CONTRIBUTIONS = 16
MAX_CONTRIBUTION_LENGTH = 64
_ACCEPT = 252  # the largest multiple of 6 that fits in a byte: no face is favoured


class FairDiceError(YatzyError):
    """A contribution or seed that cannot be used (quoted in the message)."""


class ContributionsClosedError(IllegalActionError):
    """A contribution after the first die of the game (or a seat's second one)."""


class DiceMismatchError(RecordError):
    """A record whose dice or seed do not match its commitment; ``where`` names the first
    die (or ``"seed"``) that differs."""

    def __init__(self, message: str, where: str, *, turn: int = 0, field: str = "") -> None:
        super().__init__(message, turn=turn, field=field)
        self.where = where


def commitment_of(seed: bytes) -> str:
    """The commitment shown before the first roll: SHA-256 of the seed, in hex."""
    return hashlib.sha256(seed).hexdigest()


def check_contribution(text: Any) -> str:
    """A player's contribution, checked: 1-64 printable characters."""
    if not isinstance(text, str) or not text or len(text) > MAX_CONTRIBUTION_LENGTH:
        raise FairDiceError(
            f"contribution {text!r} is not a text of 1-{MAX_CONTRIBUTION_LENGTH} characters"
        )
    if not text.isprintable():
        raise FairDiceError(f"contribution {text!r} has a character that cannot be printed")
    return text


def _context(contributions: Sequence[str]) -> bytes:
    h = hashlib.sha256(b"yatzy-dice/1\n")
    for c in contributions:
        raw = c.encode("utf-8")
        h.update(len(raw).to_bytes(2, "big"))
        h.update(raw)
    return h.digest()


def faces(seed: bytes, contributions: Sequence[str], label: str, count: int) -> list[int]:
    """The first ``count`` faces (1-6) of the die stream named ``label``."""
    context = _context(contributions)
    out: list[int] = []
    block = 0
    while len(out) < count:
        msg = context + label.encode("ascii") + b":" + block.to_bytes(4, "big")
        for b in hmac.new(seed, msg, hashlib.sha256).digest():
            if b < _ACCEPT:
                out.append(b % 6 + 1)
                if len(out) == count:
                    break
        block += 1
    return out


def die_label(mode: Mode, turn: int, roll: int, position: int, draw: int, players: int) -> str:
    """The label of one die of a turn (see the module docstring): ``turn`` is the
    turn's index in the game log, ``roll`` the roll's index in the turn, ``draw`` how
    often ``position`` was rolled before in this turn."""
    if mode == "duplicate":
        return f"round/{turn // players}/die/{position}/draw/{draw}"
    if mode == "duplicate_seat":
        return f"round/{turn // players}/order/{turn % players}/die/{position}/draw/{draw}"
    return f"turn/{turn}/roll/{roll}/die/{position}"


def rolloff_label(round_index: int, seat: int) -> str:
    """The label of a roll-off die."""
    return f"rolloff/{round_index}/seat/{seat}"


@dataclass
class FairDice:
    """The dealer's side: a secret seed, its commitment, and the dice it gives.

    ``FairDice.new()`` draws a seed from the operating system's CSPRNG.  It is a
    :class:`~yatzy.game.state.Dealer`: ``state.roll(dice)`` rolls with it.
    :meth:`proof` is the record's ``dice`` block: the seed only with ``reveal=True``
    (when the game is over).
    """

    seed: bytes
    mode: Mode = "standard"
    contributions: list[str] = field(default_factory=list)
    scheme: str = SCHEME
    hold_until: str | None = None
    """A day (ISO date, UTC) until the end of which the seed stays secret even when a
    game is over: a daily challenge, whose dice everyone plays all day."""
    hold_for: str | None = None
    """An event (a tournament's round, ``tournament/ID/round/N``) until whose end the
    seed stays secret even when a game is over: the other tables of the round play the
    same dice.  The server that dealt the game knows when that is."""

    def __post_init__(self) -> None:
        if not isinstance(self.seed, bytes) or len(self.seed) < 16:
            raise FairDiceError("a seed is at least 16 bytes")
        if self.mode not in MODES:
            raise FairDiceError(f"mode {self.mode!r} is not one of {', '.join(MODES)}")
        if self.scheme not in SCHEMES:
            raise FairDiceError(f"scheme {self.scheme!r} is not one of {', '.join(SCHEMES)}")
        if self.hold_until is not None and not is_day(self.hold_until):
            raise FairDiceError(f"hold_until {self.hold_until!r} is not a day (YYYY-MM-DD)")
        if self.hold_for is not None and not is_hold_name(self.hold_for):
            raise FairDiceError(f"hold_for {self.hold_for!r} is not an event's name")

    @classmethod
    def new(cls, mode: Mode = "standard") -> FairDice:
        """A fresh seed (32 bytes from :func:`secrets.token_bytes`)."""
        return cls(secrets.token_bytes(32), mode)

    @classmethod
    def from_text(cls, text: str, mode: Mode = "standard") -> FairDice:
        """Dice from a published text (a daily challenge's name, ``yatzy play --seed``):
        the seed is SHA-256 of the text, so anyone who knows the text knows the dice."""
        return cls(hashlib.sha256(f"yatzy-seed/1\n{text}".encode()).digest(), mode)

    @property
    def commitment(self) -> str:
        """SHA-256 of the seed, in hex (shown before the first roll)."""
        return commitment_of(self.seed)

    def open_for(self, state: State) -> bool:
        """Whether contributions are still taken: until the first die of the first turn
        (version 1: until the first die, the roll-off's included)."""
        if any(turn.get("rolls") for turn in state.log):
            return False
        return self.scheme != SCHEME_V1 or not any(state.rolloff)

    def contribute(self, state: State, text: str) -> None:
        """Add a player's contribution; refused once the first die of the game is rolled."""
        if not self.open_for(state):
            raise ContributionsClosedError("contributions close when the first die is rolled")
        if len(self.contributions) >= MAX_CONTRIBUTIONS:
            raise FairDiceError(f"at most {MAX_CONTRIBUTIONS} contributions")
        self.contributions.append(check_contribution(text))

    def deal(self, state: State) -> None:
        """Let chance act on ``state`` with this seed's dice until a player is to act
        (``state.roll(self)`` calls it)."""
        if not state.is_chance_node():
            raise IllegalActionError(f"no die is being rolled ({state})")
        while state.is_chance_node():
            if state.phase is Phase.ROLL_OFF:
                round_index = len(state.rolloff) - 1
                seat = state.contenders()[len(state.rolloff[-1])]
                state.apply_chance(self.rolloff_face(round_index, seat))
                continue
            turn = len(state.log) - 1
            rolls = state.log[-1]["rolls"]
            dice = [
                self._die(state, turn, len(rolls) - 1, pos, _draws_before(rolls, pos))
                for pos in state.pending
            ]
            state.apply_roll(dice)

    def _die(self, state: State, turn: int, roll: int, position: int, draw: int) -> Die:
        label = die_label(self.mode, turn, roll, position, draw, state.game.num_players)
        return self.die(label, double=state.rules.double)

    def rolloff_face(self, round_index: int, seat: int) -> int:
        """The roll-off die of ``seat`` in round ``round_index`` (from the seed alone
        in version 2)."""
        contributions = self.contributions if self.scheme == SCHEME_V1 else []
        return faces(self.seed, contributions, rolloff_label(round_index, seat), 1)[0]

    def die(self, label: str, *, double: bool) -> Die:
        """The die named ``label``: a face, or a double die's ``(outer, inner)``."""
        if double:
            outer, inner = faces(self.seed, self.contributions, label, 2)
            return (outer, inner)
        return faces(self.seed, self.contributions, label, 1)[0]

    def proof(self, *, reveal: bool) -> dict[str, Any]:
        """The record's ``dice`` block (the seed only when ``reveal``)."""
        out: dict[str, Any] = {
            "scheme": self.scheme,
            "mode": self.mode,
            "commitment": self.commitment,
            "contributions": list(self.contributions),
        }
        if self.hold_until is not None:
            out["hold_until"] = self.hold_until
        if self.hold_for is not None:
            out["hold_for"] = self.hold_for
        if reveal:
            out["seed"] = self.seed.hex()
        return out

    @classmethod
    def from_proof(cls, proof: Any) -> FairDice:
        """The dice of a record's ``dice`` block that reveals its seed (checked: the
        seed must match the commitment)."""
        if not isinstance(proof, dict):
            raise RecordError("the dice block is a JSON object", field="dice")
        scheme = proof.get("scheme")
        if scheme not in SCHEMES:
            raise RecordError(
                f"dice scheme {scheme!r} is not one of {', '.join(SCHEMES)}", field="dice.scheme"
            )
        mode = proof.get("mode", "standard")
        if mode not in MODES:
            raise RecordError(f"dice mode {mode!r} is not one of {MODES}", field="dice.mode")
        contributions = proof.get("contributions", [])
        if not isinstance(contributions, list) or not all(
            isinstance(c, str) for c in contributions
        ):
            raise RecordError("contributions are a list of texts", field="dice.contributions")
        seed_hex = proof.get("seed")
        if seed_hex is None:
            raise RecordError(
                "the seed is not revealed yet (it is, in the record of a finished game)",
                field="dice.seed",
            )
        try:
            seed = bytes.fromhex(seed_hex)
        except (TypeError, ValueError):
            raise RecordError(f"seed {seed_hex!r} is not hex", field="dice.seed") from None
        commitment = proof.get("commitment")
        if commitment_of(seed) != commitment:
            raise DiceMismatchError(
                f"the revealed seed does not match the commitment {commitment!r} "
                f"(its SHA-256 is {commitment_of(seed)})",
                where="seed",
                field="dice.seed",
            )
        hold = proof.get("hold_until")
        if hold is not None and not is_day(hold):
            raise RecordError(f"hold_until {hold!r} is not a day", field="dice.hold_until")
        held_for = proof.get("hold_for")
        if held_for is not None and not is_hold_name(held_for):
            raise RecordError(
                f"hold_for {held_for!r} is not an event's name", field="dice.hold_for"
            )
        return cls(seed, mode, list(contributions), scheme, hold, held_for)

    @property
    def held(self) -> bool:
        """Whether the seed is held back past the game's end (a daily challenge, a
        tournament's round): such a game takes no contributions and no hints, as
        everyone of the day or round plays the same dice."""
        return self.hold_until is not None or self.hold_for is not None


def is_day(text: Any) -> bool:
    """Whether ``text`` is a day as ISO 8601 writes it (YYYY-MM-DD), and exists."""
    try:
        return isinstance(text, str) and date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False


def is_hold_name(text: Any) -> bool:
    """Whether ``text`` may name an event a seed is held for: 1-100 characters of
    ASCII letters, digits and ``/_-.``."""
    return (
        isinstance(text, str)
        and 0 < len(text) <= 100
        and text.isascii()
        and all(ch.isalnum() or ch in "/_-." for ch in text)
    )


def _draws_before(rolls: list[dict[str, Any]], position: int) -> int:
    """How often ``position`` was rolled in the turn's rolls before the last one."""
    return sum(1 for r in rolls[:-1] if position not in r["keep"])


@dataclass(frozen=True)
class DealtDie:
    """One die of a record: where it is (in words, and as the record's turn and field
    path), what the seed gives and what the record has."""

    where: str
    turn: int
    field: str
    expected: Die
    found: Any  # as the record has it: a face, a pair, or whatever was written there


def expected_dice(data: dict[str, Any], dice: FairDice) -> Iterator[DealtDie]:
    """Every die of a record (a dict as :func:`yatzy.game.to_record` writes it), in
    the order they were rolled; ``where`` names it in words a person can find in the
    record ("turn 4 (Anna), roll 2, die 3").  Read from the record as it stands, before
    any replay, so that a changed die is named even where it also breaks a score."""
    try:
        double = RuleSet.parse(data["rules"]).double
        names = [p["name"] if isinstance(p, dict) else p for p in data["players"]]
        for r, rnd in enumerate(data.get("rolloff") or []):
            for i, entry in enumerate(rnd):
                seat = entry["player"]
                face = dice.rolloff_face(r, seat)
                where = f"roll-off round {r + 1}, {names[seat]}'s die"
                yield DealtDie(where, 0, f"rolloff[{r}][{i}].die", face, entry["die"])
        for t, turn in enumerate(data["turns"]):
            rolls = turn.get("rolls", [])
            name = names[turn["player"]]
            for r, roll in enumerate(rolls):
                for pos, found in enumerate(roll.get("dice") or []):
                    if pos in roll["keep"] or found is None:
                        continue  # kept, or saved while rolling
                    draw = _draws_before(rolls[: r + 1], pos)
                    label = die_label(dice.mode, t, r, pos, draw, len(names))
                    want = dice.die(label, double=double)
                    if double and isinstance(found, list):
                        found = tuple(found)
                    yield DealtDie(
                        f"turn {t + 1} ({name}), roll {r + 1}, die {pos + 1}",
                        t + 1,
                        f"rolls[{r}].dice[{pos}]",
                        want,
                        found,
                    )
    except (KeyError, IndexError, TypeError, AttributeError, YatzyError) as exc:
        # A record out of shape: the replay (from_record) says where, exactly.
        raise _Malformed from exc


class _Malformed(Exception):
    """The record is not in shape for reading its dice (from_record names the fault)."""


@dataclass(frozen=True)
class Verified:
    """What :func:`verify_record` checked: the commitment and how many dice."""

    commitment: str
    dice: int
    mode: Mode


def verify_record(data: Any) -> Verified:
    """Check a finished game's record (a dict as :func:`yatzy.game.to_record` writes
    it with its ``dice`` block): the revealed seed against the commitment, then every
    die against the seed.  Raises :class:`DiceMismatchError` naming the first that
    differs, :class:`RecordError` for a record that cannot be checked (no dice
    block, a score pad, the seed not revealed, a record that does not replay)."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("pad"):
        raise RecordError("a score pad game has no dealt dice to verify: its dice were real")
    proof = data.get("dice")
    if proof is None:
        raise RecordError(
            "this record has no dice proof (games from before verifiable dice, or rolled "
            "with --seed NUMBER, keep none)",
            field="dice",
        )
    dice = FairDice.from_proof(proof)
    count = 0
    try:
        for die in expected_dice(data, dice):
            if die.expected != die.found:
                raise DiceMismatchError(
                    f"{die.where}: the record has {_show(die.found)}, "
                    f"the seed gives {_show(die.expected)}",
                    die.where,
                    turn=die.turn,
                    field=die.field,
                )
            count += 1
    except _Malformed:
        from_record(data)  # raises RecordError naming the fault
        raise RecordError("the record's dice cannot be read") from None
    from_record(data)  # every die is the seed's: the rest of the record must replay too
    return Verified(dice.commitment, count, dice.mode)


def _show(die: Any) -> str:
    if isinstance(die, (tuple, list)):
        return "/".join(str(x) for x in die)
    return repr(die) if not isinstance(die, int) else str(die)
