"""SQLAlchemy 2 table models of the web store."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of the store's tables."""


class GameRow(Base):
    """A game: its settings, the core record (JSON text) and the row version."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    rules: Mapped[str] = mapped_column(String(200), nullable=False)
    lang: Mapped[str] = mapped_column(String(2), nullable=False)
    pad: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    hints: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    invite_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    record: Mapped[str] = mapped_column(Text, nullable=False)
    finished: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    solo_total: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The final total of a finished one-seat game (what solo records are made of)."""


class SeatRow(Base):
    """A seat of a game: bot level, or the hash of the secret token that holds it."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), nullable=False)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    owner_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class MoveRow(Base):
    """One applied action, written in the same transaction as the new record."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class AccountRow(Base):
    """An account: its name as chosen, the name's key (case-folded, unique) and the
    Argon2id hash of its password."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40), nullable=False)
    name_key: Mapped[str] = mapped_column(String(160), nullable=False, unique=True)
    password_hash: Mapped[str] = mapped_column(String(200), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class AccountSessionRow(Base):
    """A signed-in browser: the SHA-256 of its session id (the cookie's value is
    never stored), when it began and was last seen, and its user agent."""

    __tablename__ = "account_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    agent: Mapped[str] = mapped_column(String(200), nullable=False, default="")


class RecoveryCodeRow(Base):
    """An unspent recovery code of an account (SHA-256 of the code: 80 random bits)."""

    __tablename__ = "recovery_codes"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)


class FriendLinkRow(Base):
    """One account's tie to another, one way: ``requested`` (a friend request it
    sent), ``friends`` (both ways once accepted) or ``blocked`` (it blocked the other)."""

    __tablename__ = "friend_links"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    other_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    state: Mapped[str] = mapped_column(String(10), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class PasskeyRow(Base):
    """A passkey (WebAuthn credential) of an account: its id and public key (COSE),
    the authenticator's signature counter, and the browser it was made in."""

    __tablename__ = "passkeys"

    credential_id: Mapped[str] = mapped_column(String(1400), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True
    )
    public_key: Mapped[str] = mapped_column(Text, nullable=False)
    sign_count: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    agent: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class PasskeyChallengeRow(Base):
    """A WebAuthn ceremony under way: the SHA-256 of its handle (given to the browser),
    its challenge, and the account it registers a passkey for (None: a log-in).
    Spent by its answer; stale after five minutes."""

    __tablename__ = "passkey_challenges"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    challenge: Mapped[str] = mapped_column(String(200), nullable=False)
    account_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class DiceSeedRow(Base):
    """The secret seed of a game's verifiable dice (:mod:`yatzy.game.fair_dice`).

    Kept apart from the game's record, which every viewer may read: the record shows
    only the seed's commitment until the game is over, then the seed itself."""

    __tablename__ = "dice_seeds"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seed: Mapped[str] = mapped_column(String(128), nullable=False)


class DailyChallengeRow(Base):
    """A day's challenge for one rule set: its secret seed (everyone plays the same
    dice; revealed when the day is over) and what the optimal player scored on them."""

    __tablename__ = "daily_challenges"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    rules: Mapped[str] = mapped_column(String(200), primary_key=True)
    seed: Mapped[str] = mapped_column(String(128), nullable=False)
    optimal_total: Mapped[int | None] = mapped_column(Integer, nullable=True)


class DailyEntryRow(Base):
    """A browser's one game of a day's challenge (its total is the game's solo total)."""

    __tablename__ = "daily_entries"
    __table_args__ = (
        UniqueConstraint("day", "rules", "owner_hash", name="uq_daily_entries_player"),
    )

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    day: Mapped[str] = mapped_column(String(10), nullable=False)
    rules: Mapped[str] = mapped_column(String(200), nullable=False)
    owner_hash: Mapped[str] = mapped_column(String(64), nullable=False)
    name: Mapped[str] = mapped_column(String(40), nullable=False)


class RatedGameRow(Base):
    """A rated game (issue 27): its rule-set family, and when its ratings were updated
    (``rated_at``, set once: the guard that rates a game exactly once) and its
    analysis recorded (``analysed_at``, likewise)."""

    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    family: Mapped[str] = mapped_column(String(60), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    rated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    analysed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RatedSeatRow(Base):
    """The account that holds a seat of a rated game (one seat per account)."""

    __tablename__ = "rated_seats"
    __table_args__ = (UniqueConstraint("game_id", "account_id", name="uq_rated_seats_account"),)

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("rated_games.game_id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True
    )


class RatingRow(Base):
    """An account's OpenSkill rating in one rule-set family (``mu``, ``sigma``, games)."""

    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    family: Mapped[str] = mapped_column(String(60), primary_key=True)
    mu: Mapped[float] = mapped_column(Float, nullable=False)
    sigma: Mapped[float] = mapped_column(Float, nullable=False)
    games: Mapped[int] = mapped_column(Integer, nullable=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class RatingHistoryRow(Base):
    """An account's rating after one rated game (its place and total in it)."""

    __tablename__ = "rating_history"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    family: Mapped[str] = mapped_column(String(60), nullable=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False, index=True)
    mu: Mapped[float] = mapped_column(Float, nullable=False)
    sigma: Mapped[float] = mapped_column(Float, nullable=False)
    games: Mapped[int] = mapped_column(Integer, nullable=False)
    total: Mapped[int] = mapped_column(Integer, nullable=False)
    place: Mapped[int] = mapped_column(Integer, nullable=False)


class SkillGameRow(Base):
    """One analysed rated game of an account: its decisions, the points they lost
    against optimal play, how many were the best play, and whether exactly."""

    __tablename__ = "skill_games"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    family: Mapped[str] = mapped_column(String(60), nullable=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False, index=True)
    decisions: Mapped[int] = mapped_column(Integer, nullable=False)
    total_loss: Mapped[float] = mapped_column(Float, nullable=False)
    best: Mapped[int] = mapped_column(Integer, nullable=False)
    exact: Mapped[bool] = mapped_column(Boolean, nullable=False)


class FairPlayFlagRow(Base):
    """An account flagged for review in a family (never shown publicly, never a ban):
    the counts and the chance of so many best plays when it was last reviewed."""

    __tablename__ = "fairplay_flags"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    family: Mapped[str] = mapped_column(String(60), primary_key=True)
    first_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    last_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    games: Mapped[int] = mapped_column(Integer, nullable=False)
    decisions: Mapped[int] = mapped_column(Integer, nullable=False)
    best: Mapped[int] = mapped_column(Integer, nullable=False)
    p_value: Mapped[float] = mapped_column(Float, nullable=False)


class AppSettingRow(Base):
    """A setting of the whole server, shared by its processes through the database
    (the Web Push VAPID key pair: made by the first process that needs it)."""

    __tablename__ = "app_settings"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(Text, nullable=False)


class PushSubscriptionRow(Base):
    """A device of an account that takes Web Push notifications: the push service's
    endpoint (its SHA-256 is the key), the browser's keys (``p256dh``, ``auth``) that
    the payload is encrypted for, and the language its notifications are worded in.
    ``owner_hash`` is the account's owner hash (:func:`yatzy.store.accounts.owner_hash`
    of its owner token), by which a game's seat finds its account."""

    __tablename__ = "push_subscriptions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True
    )
    owner_hash: Mapped[str] = mapped_column(String(64), nullable=False, index=True)
    endpoint: Mapped[str] = mapped_column(Text, nullable=False)
    p256dh: Mapped[str] = mapped_column(String(200), nullable=False)
    auth: Mapped[str] = mapped_column(String(100), nullable=False)
    lang: Mapped[str] = mapped_column(String(2), nullable=False)
    agent: Mapped[str] = mapped_column(String(200), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class PushSettingRow(Base):
    """An account's notification settings: the kinds it turned off (comma-separated;
    no row: every kind on)."""

    __tablename__ = "push_settings"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    off: Mapped[str] = mapped_column(String(200), nullable=False)


class InvitationRow(Base):
    """An account's invitation of a friend into a seat of a game (issue 26):
    ``pending`` until the friend takes the seat (``accepted``) or says no
    (``declined``); it lapses at ``expires_at`` or when the game is over."""

    __tablename__ = "invitations"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True
    )
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    from_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False
    )
    to_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True
    )
    state: Mapped[str] = mapped_column(String(10), nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class SeekRow(Base):
    """An open seek of the lobby: an account looks for ``players`` people (itself
    included) to play ``rules``; ``open`` until full (``started``, with its game) or
    ``cancelled``.  ``time_control`` is the JSON of the clock asked for (or None)."""

    __tablename__ = "seeks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True
    )
    rules: Mapped[str] = mapped_column(String(200), nullable=False)
    lang: Mapped[str] = mapped_column(String(2), nullable=False)
    hints: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    players: Mapped[int] = mapped_column(Integer, nullable=False)
    time_control: Mapped[str | None] = mapped_column(String(200), nullable=True)
    state: Mapped[str] = mapped_column(String(10), nullable=False, index=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class SeekMemberRow(Base):
    """A person seated in a seek (its creator first)."""

    __tablename__ = "seek_members"

    seek_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("seeks.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class QuickWaitRow(Base):
    """An account waiting in the quick-match queue of (``rules``, ``players``):
    ``waiting`` (``seen_at``: its page's last sign of life), then ``matched`` by one
    pairing (``match_id``), which fills in ``game_id`` once the game is made."""

    __tablename__ = "quick_waits"

    account_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    rules: Mapped[str] = mapped_column(String(200), nullable=False)
    players: Mapped[int] = mapped_column(Integer, nullable=False)
    lang: Mapped[str] = mapped_column(String(2), nullable=False)
    state: Mapped[str] = mapped_column(String(10), nullable=False)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    matched_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class GameClockRow(Base):
    """A timed game's clock (issue 26): its mode and time per turn, the deadline of
    the seat to move, and what happened when a seat ran out of time.

    ``due`` is when a server must look at the game next (the deadline while a
    person's clock runs, the end of the grace after a time-out), indexed so that
    the servers find the overdue games with one query; ``stamp`` counts the row's
    changes, and every change is conditional on the stamp it read (two server
    processes never both act on one time-out)."""

    __tablename__ = "game_clocks"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    mode: Mapped[str] = mapped_column(String(5), nullable=False)
    seconds: Mapped[int] = mapped_column(Integer, nullable=False)
    stamp: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    phase: Mapped[str] = mapped_column(String(10), nullable=False)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    turn: Mapped[str] = mapped_column(String(20), nullable=False, default="")
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    due: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    detail: Mapped[str] = mapped_column(Text, nullable=False, default="{}")


class TournamentRow(Base):
    """A tournament: its settings, who made it, where it stands (``state``: open,
    running, finished or cancelled; ``round``: the round being played, 0 before the
    start) and its secret, from which every round's seed, table order and game id
    are derived (:mod:`yatzy.web.tournaments`)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80), nullable=False)
    rules: Mapped[str] = mapped_column(String(200), nullable=False)
    lang: Mapped[str] = mapped_column(String(2), nullable=False)
    creator_id: Mapped[str] = mapped_column(String(32), nullable=False, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    rounds: Mapped[int] = mapped_column(Integer, nullable=False)
    table_size: Mapped[int] = mapped_column(Integer, nullable=False)
    duplicate: Mapped[bool] = mapped_column(Boolean, nullable=False)
    public: Mapped[bool] = mapped_column(Boolean, nullable=False, index=True)
    cap: Mapped[int] = mapped_column(Integer, nullable=False)
    round_minutes: Mapped[int] = mapped_column(Integer, nullable=False)
    state: Mapped[str] = mapped_column(String(10), nullable=False, index=True)
    round: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    players: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    secret: Mapped[str] = mapped_column(String(64), nullable=False)


class TournamentPlayerRow(Base):
    """An account in a tournament, with its name as it was when it joined."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    name: Mapped[str] = mapped_column(String(40), nullable=False)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)


class TournamentRoundRow(Base):
    """A round of a tournament: when it began, its deadline, and when it was closed
    (its scores counted, its seed revealed)."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    deadline: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TournamentSeatRow(Base):
    """A player's place in a round: the table, the game and the seat in it, and once
    the round is closed the score and the table placement points."""

    __tablename__ = "tournament_seats"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_no: Mapped[int] = mapped_column(Integer, nullable=False)
    game_id: Mapped[str] = mapped_column(String(32), nullable=False, index=True)
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    points: Mapped[int | None] = mapped_column(Integer, nullable=True)


class GameMessageRow(Base):
    """A line of free text written in a game by a player to their friends among the
    game's other players (:mod:`yatzy.store.messages`): never a move of the game, and
    shown only to the writer and to ``audience`` (the account ids it was delivered to,
    space-separated) while they are still friends."""

    __tablename__ = "game_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True
    )
    sender_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True
    )
    seat: Mapped[int] = mapped_column(Integer, nullable=False)
    audience: Mapped[str] = mapped_column(Text, nullable=False)
    text: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
