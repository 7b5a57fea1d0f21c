"""Rule sets: the variants, their options, and the one-line rules spec.

A :class:`RuleSet` is an immutable value.  Variants are data registered in
:data:`VARIANTS`; every option of RULES.md is a field.  ``RuleSet.parse`` reads a
spec such as ``"yatzy+forced+lenient"`` or ``"yahtzee+joker=free"`` and
``RuleSet.spec`` writes the canonical one back, so the two round-trip.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from itertools import combinations_with_replacement
from typing import Any, Literal

from yatzy.errors import DiceError, SpecError, UnknownBoxError
from yatzy.i18n import N_, Message, messages
from yatzy.rules import scoring as sc
from yatzy.rules.categories import CATEGORIES, UPPER_IDS, Category, Language, label

OptionKind = Literal["flag", "choice", "int"]


@dataclass(frozen=True)
class OptionSpec:
    """One option of the spec string: its name, kind and (for choices) its values."""

    name: str
    kind: OptionKind
    help: str
    choices: tuple[str, ...] = ()
    bare: str | None = None
    """For a choice: the value meant when the option is written without one
    (``+saved_rolls`` is ``saved_rolls=all``); the canonical spec writes it bare."""

    def usage(self) -> str:
        """How the option is written in a spec (``lenient``, ``joker=forced|free|none``)."""
        if self.kind == "flag":
            return self.name
        if self.kind == "choice":
            return f"{self.name}={'|'.join(self.choices)}"
        return f"{self.name}=N"


OPTIONS: dict[str, OptionSpec] = {
    o.name: o
    for o in (
        OptionSpec("forced", "flag", "boxes are filled in protocol order (tvång)"),
        OptionSpec(
            "half_forced",
            "flag",
            "the first score picks the upper or lower section, each filled in order (halvtvång)",
        ),
        OptionSpec("lenient", "flag", "four equal count as Two Pairs, five equal as Full House"),
        OptionSpec("yatzy_pip_bonus", "flag", "Yatzy scores 50 plus the sum of the dice"),
        OptionSpec(
            "last_resort",
            "flag",
            "Chance only when the dice score nowhere else; 0 only when they score nowhere",
        ),
        OptionSpec(
            "joker",
            "choice",
            "Yatzy bonus and joker: forced (official), free (optimal-play papers), none",
            ("forced", "free", "none"),
        ),
        OptionSpec(
            "saved_rolls",
            "choice",
            "unused rolls carry over: none, all (kept for any later turn; a bare "
            "+saved_rolls), next (at most 2, into the next turn only)",
            ("none", "all", "next"),
            bare="all",
        ),
        OptionSpec("bonus_threshold", "int", "upper-section sum that earns the bonus"),
        OptionSpec("bonus_points", "int", "points of the upper-section bonus"),
        OptionSpec(
            "extra",
            "choice",
            "DubbelYatzy's Extra box: minus (subtracted chance), chance, scratch (free 0)",
            ("minus", "chance", "scratch"),
        ),
        OptionSpec(
            "scoring",
            "choice",
            "DubbelYatzy's scoring: lenient, strict (Scandinavian) or international",
            ("lenient", "strict", "international"),
        ),
    )
}

# The canonical order of options in a spec string.
OPTION_ORDER: tuple[str, ...] = tuple(OPTIONS)


@dataclass(frozen=True)
class Variant:
    """A rule set family: dice, options that apply, and default option values."""

    name: str
    title: Message  # title[lang]: its name in lang
    num_dice: int
    options: tuple[str, ...]
    defaults: Mapping[str, Any] = field(default_factory=dict)
    double: bool = False

    def __post_init__(self) -> None:
        # Options are listed (in errors and help) in the canonical spec order.
        object.__setattr__(self, "options", tuple(sorted(self.options, key=list(OPTIONS).index)))


_ORDER_OPTS = ("forced", "half_forced", "bonus_threshold", "bonus_points")

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            "yatzy",
            N_("variant.yatzy", "Scandinavian Yatzy"),
            5,
            ("lenient", "yatzy_pip_bonus", "last_resort", *_ORDER_OPTS),
            {"bonus_threshold": 63, "bonus_points": 50},
        ),
        Variant(
            "yahtzee",
            N_("variant.yahtzee", "Yahtzee"),
            5,
            ("joker", *_ORDER_OPTS),
            {"joker": "forced", "bonus_threshold": 63, "bonus_points": 35},
        ),
        Variant(
            "maxi",
            N_("variant.maxi", "Maxi Yatzy"),
            6,
            ("lenient", "last_resort", "saved_rolls", *_ORDER_OPTS),
            {"saved_rolls": "none", "bonus_threshold": 75, "bonus_points": 50},
        ),
        Variant(
            "dubbel",
            N_("variant.dubbel", "Double Yatzy"),
            6,
            ("yatzy_pip_bonus", "extra", "scoring", *_ORDER_OPTS),
            {"extra": "minus", "scoring": "lenient", "bonus_threshold": 63, "bonus_points": 50},
            double=True,
        ),
    )
}

_YATZY_BOXES = (
    *UPPER_IDS,
    "one_pair",
    "two_pairs",
    "three_of_a_kind",
    "four_of_a_kind",
    "small_straight",
    "large_straight",
    "full_house",
    "chance",
    "yatzy",
)
_YAHTZEE_BOXES = (
    *UPPER_IDS,
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yatzy",
    "chance",
)
_MAXI_BOXES = (
    *UPPER_IDS,
    "one_pair",
    "two_pairs",
    "three_pairs",
    "three_of_a_kind",
    "four_of_a_kind",
    "five_of_a_kind",
    "small_straight",
    "large_straight",
    "full_straight",
    "full_house",
    "villa",
    "tower",
    "chance",
    "maxi_yatzy",
)

# The joker's fixed points in the international rules.
JOKER_POINTS: dict[str, int] = {"full_house": 25, "small_straight": 30, "large_straight": 40}
YATZY_BONUS_POINTS = 100
SAVED_NEXT_LIMIT = 2
"""``saved_rolls=next``: the most unused rolls that carry into the next turn (000)."""


def _nordic_scorers(lenient: bool, pip_bonus: bool) -> dict[str, sc.Scorer]:
    g = sc.groups
    return {
        **{u: sc.upper(i + 1) for i, u in enumerate(UPPER_IDS)},
        "one_pair": g((2,), lenient=lenient),
        "two_pairs": g((2, 2), lenient=lenient),
        "three_pairs": g((2, 2, 2), lenient=lenient),
        "three_of_a_kind": g((3,), lenient=lenient),
        "four_of_a_kind": g((4,), lenient=lenient),
        "five_of_a_kind": g((5,), lenient=lenient),
        "small_straight": sc.straight((1, 2, 3, 4, 5), 15),
        "large_straight": sc.straight((2, 3, 4, 5, 6), 20),
        "full_straight": sc.straight((1, 2, 3, 4, 5, 6), 21),
        "full_house": g((3, 2), lenient=lenient),
        "villa": g((3, 3), lenient=lenient),
        "tower": g((4, 2), lenient=lenient),
        "chance": sc.chance,
        "yatzy": sc.all_equal(50, pip_bonus=pip_bonus),
        "maxi_yatzy": sc.all_equal(100),
    }


def _international_scorers(pip_bonus: bool) -> dict[str, sc.Scorer]:
    return {
        **{u: sc.upper(i + 1) for i, u in enumerate(UPPER_IDS)},
        "three_of_a_kind": sc.at_least_of_a_kind_sum_all(3),
        "four_of_a_kind": sc.at_least_of_a_kind_sum_all(4),
        "full_house": sc.fixed_full_house(25),
        "small_straight": sc.run_of(4, 30),
        "large_straight": sc.run_of(5, 40),
        # Only DubbelYatzy with scoring=international can ask for the pip bonus here.
        "yatzy": sc.all_equal(50, pip_bonus=pip_bonus),
        "chance": sc.chance,
    }


_EXTRA_SCORERS: dict[str, sc.Scorer] = {
    "minus": sc.minus_chance,
    "chance": sc.chance,
    "scratch": sc.zero,
}


@dataclass(frozen=True)
class RuleSet:
    """An immutable rule set: a variant with every option resolved.

    Build one with ``RuleSet("maxi", saved_rolls="next")`` or ``RuleSet.parse(spec)``;
    options left as ``None`` take the variant's default, and an option that does
    not apply to the variant raises :class:`SpecError`.  ``saved_rolls=True`` and
    ``False`` are read as ``"all"`` and ``"none"`` (the option was a flag once).
    """

    variant: str = "yatzy"
    forced: bool = False
    half_forced: bool = False
    lenient: bool = False
    yatzy_pip_bonus: bool = False
    last_resort: bool = False
    joker: str | None = None
    saved_rolls: str | bool | None = None
    bonus_threshold: int | None = None
    bonus_points: int | None = None
    extra: str | None = None
    scoring: str | None = None

    def __post_init__(self) -> None:
        variant = VARIANTS.get(self.variant)
        if variant is None:
            raise spec_error("unknown_variant", name=self.variant, valid=", ".join(VARIANTS))
        if isinstance(self.saved_rolls, bool):
            object.__setattr__(self, "saved_rolls", "all" if self.saved_rolls else "none")
        neutral = _neutral_values()
        for name in OPTION_ORDER:
            value = getattr(self, name)
            if name not in variant.options:
                if value is not None and value != neutral[name]:
                    raise spec_error(
                        "not_for_variant",
                        option=name,
                        variant=self.variant,
                        valid=", ".join(OPTIONS[o].usage() for o in variant.options),
                    )
                object.__setattr__(self, name, neutral[name])
        for name in variant.options:
            if getattr(self, name) is None:
                object.__setattr__(self, name, self.default(name))
            _check_value(OPTIONS[name], getattr(self, name))
        if self.forced and self.half_forced:
            raise spec_error("forced_and_half_forced", options=("forced", "half_forced"))
        if not 0 <= self.threshold <= self.upper_max:
            raise spec_error(
                "threshold_range",
                options=("bonus_threshold",),
                value=self.threshold,
                most=self.upper_max,
                variant=self.variant,
            )
        if not 0 <= self.bonus <= 1000:
            raise spec_error("bonus_range", options=("bonus_points",), value=self.bonus)

    def default(self, name: str) -> Any:
        """The default value of option ``name`` for this rule set's variant."""
        if name == "bonus_points" and self.variant == "dubbel" and self.scoring == "international":
            return 35  # the yahtzee points, as the international scoring asks
        return self.info.defaults.get(name, False if OPTIONS[name].kind == "flag" else None)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Cached scorers are closures; a rule set travels as its spec.
        return (RuleSet.parse, (self.spec,))

    # -- spec strings -------------------------------------------------------------

    @classmethod
    def parse(cls, spec: str) -> RuleSet:
        """Read a rules spec such as ``"maxi+saved_rolls"`` (checked input)."""
        if not isinstance(spec, str):
            raise spec_error("not_a_string", value=repr(spec))
        parts = spec.strip().split("+")
        name = parts[0].strip().lower()
        if name not in VARIANTS:
            raise spec_error("unknown_variant", name=parts[0], valid=", ".join(VARIANTS))
        variant = VARIANTS[name]
        values: dict[str, Any] = {}
        for raw in parts[1:]:
            key, eq, val = raw.strip().partition("=")
            key = key.strip().lower()
            if key not in variant.options:
                raise spec_error(
                    "unknown_option",
                    option=key,
                    variant=name,
                    valid=", ".join(OPTIONS[o].usage() for o in variant.options),
                )
            if key in values:
                raise spec_error("given_twice", option=key, spec=spec)
            opt = OPTIONS[key]
            if opt.bare is not None and not eq:
                values[key] = opt.bare
            elif opt.kind == "flag":
                if eq:
                    raise spec_error("takes_no_value", option=key)
                values[key] = True
            elif not eq or not val.strip():
                raise spec_error("needs_value", option=key, usage=opt.usage())
            elif opt.kind == "int":
                try:
                    values[key] = int(val.strip())
                except ValueError:
                    raise spec_error("needs_number", option=key, value=repr(val)) from None
            else:
                values[key] = val.strip().lower()
        return cls(name, **values)

    @cached_property
    def spec(self) -> str:
        """The canonical spec string: options in a fixed order, defaults left out."""
        parts = [self.variant]
        for name in OPTION_ORDER:
            if name not in self.info.options:
                continue
            value = getattr(self, name)
            if value != self.default(name):
                bare = value is True or value == OPTIONS[name].bare
                parts.append(name if bare else f"{name}={value}")
        return "+".join(parts)

    def __str__(self) -> str:
        return self.spec

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with some options changed (validated like the constructor).

        Options at their defaults stay defaults, so they follow the change (a new
        variant's own bonus, the 35 points of ``scoring="international"``); only the
        options set away from their defaults are carried over.
        """
        kept = {
            name: getattr(self, name)
            for name in self.info.options
            if getattr(self, name) != self.default(name)
        }
        return RuleSet(**{"variant": self.variant, **kept, **changes})

    # -- derived properties ---------------------------------------------------------
    # Cached per instance (the rule set is immutable): the game state asks for some of
    # them on every action.

    @property
    def info(self) -> Variant:
        """The :class:`Variant` this rule set belongs to."""
        return VARIANTS[self.variant]

    @cached_property
    def num_dice(self) -> int:
        """How many dice (double dice for DubbelYatzy) are rolled."""
        return self.info.num_dice

    @cached_property
    def double(self) -> bool:
        """Whether the dice are DubbelYatzy's double dice (two results per turn)."""
        return self.info.double

    @cached_property
    def dice_per_result(self) -> int:
        """How many faces a result is scored on (DubbelYatzy drops one of six)."""
        return 5 if self.double else self.num_dice

    @cached_property
    def results_per_turn(self) -> int:
        """How many boxes one turn fills (2 in DubbelYatzy)."""
        return 2 if self.double else 1

    @property
    def max_rolls(self) -> int:
        """Rolls in a turn before saved rolls are added."""
        return 3

    @cached_property
    def saves_rolls(self) -> bool:
        """Whether unused rolls carry over to later turns (``saved_rolls`` all or next)."""
        return self.saved_rolls in ("all", "next")

    @cached_property
    def max_carried(self) -> int | None:
        """The most saved rolls a sheet can hold: 2 for ``saved_rolls=next``, else no limit."""
        return SAVED_NEXT_LIMIT if self.saved_rolls == "next" else None

    @cached_property
    def international(self) -> bool:
        """Whether the categories score by the international (yahtzee) rules."""
        return self.variant == "yahtzee" or self.scoring == "international"

    @cached_property
    def has_joker(self) -> bool:
        """Whether the Yatzy bonus and joker rules apply."""
        return self.variant == "yahtzee" and self.joker != "none"

    @cached_property
    def threshold(self) -> int:
        """The upper-section sum that earns the bonus."""
        assert self.bonus_threshold is not None
        return self.bonus_threshold

    @cached_property
    def bonus(self) -> int:
        """The points of the upper-section bonus."""
        assert self.bonus_points is not None
        return self.bonus_points

    @property
    def upper_max(self) -> int:
        """The largest possible upper-section sum."""
        return 21 * self.dice_per_result

    @cached_property
    def boxes(self) -> tuple[str, ...]:
        """The box ids in protocol order (Extra last)."""
        if self.variant == "maxi":
            return _MAXI_BOXES
        base = _YAHTZEE_BOXES if self.international else _YATZY_BOXES
        return (*base, "extra") if self.double else base

    @cached_property
    def box_index(self) -> dict[str, int]:
        """Box id to its position in :attr:`boxes`."""
        return {b: i for i, b in enumerate(self.boxes)}

    @cached_property
    def categories(self) -> tuple[Category, ...]:
        """The :class:`Category` of every box, in protocol order."""
        return tuple(CATEGORIES[b] for b in self.boxes)

    def box_name(self, box: str, lang: Language = "en") -> str:
        """The name of ``box`` in ``lang`` as this variant's sheet writes it."""
        return CATEGORIES[self.check_box(box)].name(lang, self.variant)

    def label(self, key: str, lang: Language = "en") -> str:
        """The name of a computed row (``sum``, ``yatzy_bonus`` ...) for this variant."""
        return label(key, lang, self.variant)

    @cached_property
    def upper_boxes(self) -> tuple[str, ...]:
        """The upper-section boxes (ones ... sixes)."""
        return UPPER_IDS

    @cached_property
    def lower_boxes(self) -> tuple[str, ...]:
        """The lower-section boxes in protocol order (without Extra)."""
        return tuple(b for b in self.boxes if CATEGORIES[b].section == "lower")

    @property
    def turns(self) -> int:
        """Turns each player takes in a full game."""
        return len(self.boxes) // self.results_per_turn

    @cached_property
    def scorers(self) -> dict[str, sc.Scorer]:
        """Box id to its pure scoring function of face counts (one result's dice)."""
        if self.international:
            table = _international_scorers(self.yatzy_pip_bonus)
        else:
            lenient = self.lenient or self.scoring == "lenient"
            table = _nordic_scorers(lenient, self.yatzy_pip_bonus)
        if self.double:
            assert self.extra is not None
            table["extra"] = _EXTRA_SCORERS[self.extra]
        return {b: table[b] for b in self.boxes}

    def scratchable(self, box: str) -> bool:
        """Whether ``box`` may be scratched (DubbelYatzy's minus Extra may not)."""
        return not (box == "extra" and self.extra == "minus")

    # -- checked scoring --------------------------------------------------------------

    def check_box(self, box: str) -> str:
        """Return ``box`` if this rule set has it, else raise :class:`UnknownBoxError`."""
        if box not in self.box_index:
            raise UnknownBoxError(
                f"unknown box {box!r} for {self.spec}; valid: {', '.join(self.boxes)}"
            )
        return box

    def check_dice(self, dice: Sequence[int], count: int | None = None) -> tuple[int, ...]:
        """Validate faces (1-6) and their number; return them as a tuple."""
        want = self.num_dice if count is None else count
        faces = tuple(dice)
        for d in faces:
            if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
                raise DiceError(f"die {d!r} is not in 1-6")
        if len(faces) != want:
            raise DiceError(f"{self.variant} needs {want} dice, got {len(faces)}")
        return faces

    def score(self, box: str, dice: Sequence[int]) -> int:
        """The points of ``dice`` in ``box`` (checked; no joker, which needs a sheet).

        For DubbelYatzy give one layer's six faces: the best result over the face
        dropped is returned.
        """
        self.check_box(box)
        faces = self.check_dice(dice)
        if self.double:
            return max(self.score_dropped(box, faces, d) for d in set(faces))
        return self.scorers[box](sc.counts_of(faces))

    def score_dropped(self, box: str, faces: Sequence[int], drop: int) -> int:
        """DubbelYatzy: the points of six ``faces`` in ``box`` after dropping ``drop``."""
        counts = list(sc.counts_of(faces))
        if not 1 <= drop <= 6 or counts[drop - 1] == 0:
            raise DiceError(f"dropped face {drop!r} is not among the dice {list(faces)}")
        counts[drop - 1] -= 1
        return self.scorers[box](tuple(counts))

    def score_all(self, dice: Sequence[int]) -> dict[str, int]:
        """The points of ``dice`` in every box, in protocol order (checked)."""
        faces = self.check_dice(dice)
        return {b: self.score(b, faces) for b in self.boxes}

    @cached_property
    def _possible(self) -> dict[str, frozenset[int]]:
        return _possible_scores(scoring_key(self))

    def possible_scores(self, box: str) -> frozenset[int]:
        """Every score that ``box`` can hold under this rule set (0 included)."""
        return self._possible[self.check_box(box)]


def scoring_key(rules: RuleSet) -> RuleSet:
    """The rule set stripped of every option that does not change a box's score."""
    return RuleSet(
        rules.variant,
        lenient=rules.lenient,
        yatzy_pip_bonus=rules.yatzy_pip_bonus,
        extra=rules.extra,
        scoring=rules.scoring,
    )


@cache
def _possible_scores(rules: RuleSet) -> dict[str, frozenset[int]]:
    # Once per scoring key: every result of one result's dice (five faces, or six in
    # Maxi) in every box.  The score tables (yatzy.rules.tables) build on this module,
    # so it scores the rolls itself rather than reading them.
    result: dict[str, set[int]] = {b: {0} for b in rules.boxes}
    scorers = rules.scorers
    for roll in combinations_with_replacement(range(1, 7), rules.dice_per_result):
        counts = sc.counts_of(roll)
        for b in rules.boxes:
            result[b].add(scorers[b](counts))
    if rules.extra == "minus":
        result["extra"].discard(0)
    return {b: frozenset(v) for b, v in result.items()}


def _neutral_values() -> dict[str, Any]:
    return {
        "forced": False,
        "half_forced": False,
        "lenient": False,
        "yatzy_pip_bonus": False,
        "last_resort": False,
        "joker": "none",
        "saved_rolls": "none",
        "bonus_threshold": None,
        "bonus_points": None,
        "extra": None,
        "scoring": None,
    }


_SPEC_ERRORS = messages(
    "rules.error.",
    N_("rules.error.unknown_variant", "unknown rule set '{name}'; valid: {valid}"),
    N_(
        "rules.error.not_for_variant",
        "option '{option}' does not apply to {variant}; valid: {valid}",
    ),
    N_(
        "rules.error.forced_and_half_forced",
        "options 'forced' and 'half_forced' exclude each other",
    ),
    N_("rules.error.threshold_range", "bonus_threshold={value} is not in 0-{most} for {variant}"),
    N_("rules.error.bonus_range", "bonus_points={value} is not in 0-1000"),
    N_("rules.error.not_a_string", "a rules spec is a string, not {value}"),
    N_("rules.error.unknown_option", "unknown option '{option}' for {variant}; valid: {valid}"),
    N_("rules.error.given_twice", "option '{option}' is given twice in '{spec}'"),
    N_("rules.error.takes_no_value", "option '{option}' takes no value (write just '+{option}')"),
    N_("rules.error.needs_value", "option '{option}' needs a value: {usage}"),
    N_("rules.error.needs_number", "option '{option}' needs a whole number, not {value}"),
    N_("rules.error.is_a_flag", "option '{option}' is a flag, not {value}"),
    N_("rules.error.not_a_choice", "option {option}='{value}' is not one of {valid}"),
)
"""The refusals of a rules spec, one text each in the catalog: raised in English
(:func:`spec_error`), said in any language by :func:`explain_spec_error`."""


def spec_error(key: str, options: tuple[str, ...] | None = None, **fields: object) -> SpecError:
    """The :class:`~yatzy.errors.SpecError` of refusal ``key`` (of :data:`_SPEC_ERRORS`)
    with ``fields``: its message in English, its key and fields for other languages,
    and the ``options`` it concerns (default: the ``option`` field's)."""
    message = _SPEC_ERRORS[key].english.format(**fields)
    return SpecError(message, key=key, fields=fields, options=options)


def explain_spec_error(exc: SpecError, lang: str) -> str:
    """``exc`` in ``lang`` (its English message where it has no catalog text)."""
    message = _SPEC_ERRORS.get(exc.key)
    return message.text(lang, **exc.fields) if message is not None else str(exc)


def _check_value(spec: OptionSpec, value: Any) -> None:
    if spec.kind == "flag":
        if not isinstance(value, bool):
            raise spec_error("is_a_flag", option=spec.name, value=repr(value))
    elif spec.kind == "choice":
        if value not in spec.choices:
            raise spec_error(
                "not_a_choice", option=spec.name, value=value, valid=", ".join(spec.choices)
            )
    elif isinstance(value, bool) or not isinstance(value, int):
        raise spec_error("needs_number", option=spec.name, value=repr(value))


def parse_spec(spec: str) -> RuleSet:
    """Shorthand for :meth:`RuleSet.parse`."""
    return RuleSet.parse(spec)


def rule_sets(names: Iterable[str] | None = None) -> list[RuleSet]:
    """The default rule set of every variant (or of the ``names`` given)."""
    return [RuleSet(n) for n in (names or VARIANTS)]
