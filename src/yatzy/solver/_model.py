"""A rule set as the solver's arrays, and the states between turns it covers.

:class:`Model` turns a :class:`~yatzy.rules.RuleSet` into what the kernels read
(score table, upper faces, joker points, threshold).  :class:`Layout` lists the sets
of open boxes that a (sub-)game can reach, in the order they are solved, and what
the order rules (forced, half-forced) allow in each; the allowed boxes come from the
game state's own :meth:`~yatzy.game.State.allowed_groups`, so the solver cannot
drift from the rules the game enforces.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from yatzy.errors import SpecError, YatzyError
from yatzy.game import BoxEntry, Game, Sheet
from yatzy.kernels.cache import source_digest
from yatzy.kernels.codes import JOKER_FORCED, JOKER_FREE, JOKER_NONE
from yatzy.rules import JOKER_POINTS, RuleSet, score_table
from yatzy.solver._dice import DiceTables, dice_tables

IntArray = npt.NDArray[np.int32]
Int64Array = npt.NDArray[np.int64]


def solver_rules(rules: RuleSet | str) -> RuleSet:
    """A solver's rules: a :class:`RuleSet`, or a spec string parsed; else
    :class:`YatzyError`, quoting it."""
    if isinstance(rules, str):
        return RuleSet.parse(rules)
    if not isinstance(rules, RuleSet):
        raise YatzyError(f"rules must be a RuleSet or a spec string, not {rules!r}")
    return rules


def check_dtype(dtype: object) -> None:
    """Refuse (:class:`YatzyError`) a table type other than float32 and float64."""
    if dtype not in ("float32", "float64"):
        raise YatzyError(f"dtype {dtype!r} is not float32 or float64")


def check_supported(rules: RuleSet) -> None:
    """Raise :class:`SpecError` for rule sets the solver does not model."""
    if rules.double:
        raise SpecError(f"the solver does not handle DubbelYatzy ({rules.spec})")


@dataclass(frozen=True)
class Model:
    """The numeric description of a rule set for the kernels.

    ``threshold`` is the bonus threshold the upper sum is capped at (0 when the bonus
    is worth nothing, so the sum is not tracked); ``ys`` is 2 when the state must
    remember whether the Yatzy box holds 50 (Yatzy bonus rules), 3 with
    ``saved_rolls=next`` (the rolls carried into the turn, 0 to ``saved``), else 1.
    ``lr_chance`` is the Chance box's index under ``last_resort``, else -1.
    """

    rules: RuleSet
    dice: DiceTables
    n_boxes: int
    score: IntArray
    box_face: IntArray
    joker_pts: IntArray
    ybox: int
    joker_mode: int
    lower_bits: int
    upper_bits: int
    threshold: int
    bonus: int
    ys: int
    levels: int
    saved: int
    lr_chance: int
    hi_of_filled_upper: IntArray
    lo_of_open_upper: IntArray

    @classmethod
    def build(cls, rules: RuleSet) -> Model:
        """The model of ``rules`` (checked: see :func:`check_supported`)."""
        check_supported(rules)
        table = score_table(rules)
        boxes = rules.boxes
        score = np.array(table.points, dtype=np.int32)
        box_face = np.array([c.face for c in rules.categories], dtype=np.int32)
        if list(box_face[:6]) != [1, 2, 3, 4, 5, 6] or any(box_face[6:]):
            raise YatzyError(f"{rules.spec}: the upper boxes must come first")
        joker_mode = JOKER_NONE
        if rules.has_joker:
            joker_mode = JOKER_FORCED if rules.joker == "forced" else JOKER_FREE
        joker_pts = np.array(
            [JOKER_POINTS.get(b, 0) if joker_mode else 0 for b in boxes], dtype=np.int32
        )
        ybox = rules.box_index.get("yatzy", -1)
        lower_bits = sum(1 << rules.box_index[b] for b in rules.lower_boxes)
        bonus = rules.bonus
        threshold = rules.threshold if bonus else 0
        n = rules.num_dice
        saved = rules.max_carried or 0
        hi = np.array(
            [min(threshold, n * sum(f + 1 for f in range(6) if (s >> f) & 1)) for s in range(64)],
            dtype=np.int32,
        )
        # Below ``threshold - n * (open upper faces)`` the bonus is out of reach, so the
        # upper sum no longer changes anything: every smaller sum has the value of
        # one less than that bound (computed from identical inputs, bit for bit).
        lo = np.array(
            [
                max(0, threshold - n * sum(f + 1 for f in range(6) if (s >> f) & 1) - 1)
                for s in range(64)
            ],
            dtype=np.int32,
        )
        return cls(
            rules=rules,
            dice=dice_tables(n),
            n_boxes=len(boxes),
            score=score,
            box_face=box_face,
            joker_pts=joker_pts,
            ybox=ybox,
            joker_mode=joker_mode,
            lower_bits=lower_bits,
            upper_bits=63,
            threshold=threshold,
            bonus=bonus,
            ys=2 if joker_mode != JOKER_NONE else saved + 1,
            levels=rules.max_rolls - 1,
            saved=saved,
            lr_chance=rules.box_index["chance"] if rules.last_resort else -1,
            hi_of_filled_upper=hi,
            lo_of_open_upper=lo,
        )

    @property
    def full_mask(self) -> int:
        """The mask with every box open."""
        return (1 << self.n_boxes) - 1

    def fingerprint(self) -> str:
        """A digest of everything the values depend on (part of the cache key)."""
        h = hashlib.sha256()
        h.update(self.rules.spec.encode())
        # The kernels' source: a change to how values are computed is a new table.
        h.update(source_digest("solve.py", "final.py", "common.py", "codes.py").encode())
        h.update((Path(__file__).parent / "_dice.py").read_bytes())
        for arr in (
            self.score,
            self.box_face,
            self.joker_pts,
            self.hi_of_filled_upper,
            self.lo_of_open_upper,
        ):
            h.update(arr.tobytes())
        h.update(
            repr(
                (
                    self.ybox,
                    self.joker_mode,
                    self.lower_bits,
                    self.threshold,
                    self.bonus,
                    self.ys,
                    self.levels,
                    self.saved,
                    self.lr_chance,
                    self.dice.n,
                )
            ).encode()
        )
        return h.hexdigest()

    def mask_of(self, open_boxes: list[str] | tuple[str, ...]) -> int:
        """The mask of a set of open boxes."""
        mask = 0
        for b in open_boxes:
            mask |= 1 << self.rules.box_index[self.rules.check_box(b)]
        return mask

    def root_of(self, open_boxes: Iterable[str] | None) -> int:
        """The mask a solver's table starts from: every box (None), else the boxes
        ``open_boxes`` names (a list of box ids; a lone string is refused)."""
        if open_boxes is None:
            return self.full_mask
        if isinstance(open_boxes, str):
            raise YatzyError(f"open_boxes is a list of box ids, not {open_boxes!r}")
        return self.mask_of(list(open_boxes))

    def boxes_of(self, mask: int) -> tuple[str, ...]:
        """The open boxes of a mask, in protocol order."""
        return tuple(b for i, b in enumerate(self.rules.boxes) if (mask >> i) & 1)


def first_section(model: Model, mask: int) -> str | None:
    """Half-forced order: the section the first score chose, read off the open boxes.

    Before the first score it is ``None``.  Afterwards a section is filled in full
    before the other is touched, so an untouched section was not the first, and
    when both are touched the full one was.
    """
    filled = model.full_mask & ~mask
    upper = filled & model.upper_bits
    lower = filled & model.lower_bits
    if not filled:
        return None
    if not lower:
        return "upper"
    if not upper:
        return "lower"
    return "upper" if upper == model.upper_bits else "lower"


@dataclass(frozen=True)
class Layout:
    """The open-box sets of a (sub-)game in solving order.

    ``masks`` holds them by increasing number of open boxes, ``bounds[j]`` the slice
    with ``j`` open boxes; ``idx_of_mask`` maps a mask to its row of the value table
    (-1 when the sub-game cannot reach it); ``allowed[i]`` the boxes row ``i`` may
    fill by the order rules.
    """

    root: int
    masks: Int64Array
    bounds: tuple[tuple[int, int], ...]
    idx_of_mask: IntArray
    allowed: Int64Array

    @classmethod
    def build(cls, model: Model, root: int) -> Layout:
        """Every open-box set reachable from ``root`` (checked)."""
        rules = model.rules
        n = model.n_boxes
        if rules.forced or rules.half_forced:
            reachable = _ordered_reachable(model, model.full_mask)
            if root not in reachable:
                raise YatzyError(
                    f"open boxes {', '.join(model.boxes_of(root)) or '(none)'} cannot occur "
                    f"under {rules.spec}"
                )
            sub = _ordered_reachable(model, root)
            masks = np.array(sorted(sub), dtype=np.int64)
            allowed_of = sub
        else:
            every = np.arange(1 << n, dtype=np.int64)
            masks = every[(every & ~root) == 0]
            allowed_of = None
        byte_count = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)
        popcount = np.zeros(masks.shape[0], dtype=np.int64)
        for shift in range(0, n, 8):
            popcount += byte_count[(masks >> shift) & 255]
        order = np.argsort(popcount, kind="stable")
        masks = masks[order]
        popcount = popcount[order]
        idx_of_mask = np.full(1 << n, -1, dtype=np.int32)
        idx_of_mask[masks] = np.arange(masks.shape[0], dtype=np.int32)
        if allowed_of is None:
            allowed = masks.copy()
        else:
            allowed = np.array([allowed_of[int(m)] for m in masks], dtype=np.int64)
        starts = np.searchsorted(popcount, np.arange(n + 2))
        bounds = tuple((int(starts[j]), int(starts[j + 1])) for j in range(n + 1))
        return cls(root, masks, bounds, idx_of_mask, allowed)


def _ordered_reachable(model: Model, root: int) -> dict[int, int]:
    """Forced/half-forced: reachable masks from ``root`` with their allowed boxes.

    The walk follows the game state's own order rules; for half-forced it tracks
    the first section as the game does and checks that the open boxes determine it
    (so the solver's state needs nothing more than the mask).
    """
    rules = model.rules
    state = Game(rules, ["solver"]).new_initial_state()
    seen: dict[int, int] = {}
    queue: deque[tuple[int, str | None]] = deque([(root, first_section(model, root))])
    while queue:
        mask, section = queue.popleft()
        if rules.half_forced and mask and section != first_section(model, mask):
            raise YatzyError(f"internal: half-forced section of mask {mask:#x} is ambiguous")
        if mask in seen:
            continue
        sheet = Sheet(rules)
        for i, b in enumerate(rules.boxes):
            if not (mask >> i) & 1:
                sheet.entries[b] = BoxEntry(0)
        sheet.first_section = section if rules.half_forced else None
        groups = state.allowed_groups(sheet) or [tuple(sheet.open_boxes)]
        allowed = 0
        for group in groups:
            for b in group:
                allowed |= 1 << rules.box_index[b]
        seen[mask] = allowed
        for i in range(model.n_boxes):
            if (allowed >> i) & 1:
                nxt = section or rules.categories[i].section
                queue.append((mask & ~(1 << i), nxt if rules.half_forced else None))
    return seen
