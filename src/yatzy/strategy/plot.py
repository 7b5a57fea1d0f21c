"""Charts as PNG files (matplotlib): the histogram of a simulation's final scores, and
every player's win chance over a game (:func:`save_win_chart`)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from yatzy.errors import YatzyError
from yatzy.strategy.sim_result import SimulationResult

if TYPE_CHECKING:
    from yatzy.strategy.win_analysis import WinAnalysis


def check_plot_path(path: str | os.PathLike[str]) -> Path:
    """The plot's path, checked before a long run: a ``.png`` in an existing directory."""
    target = Path(path)
    if target.suffix.lower() != ".png":
        raise YatzyError(f"plot file {os.fspath(path)!r} must end in .png")
    if not target.parent.is_dir():
        raise YatzyError(
            f"plot file {os.fspath(path)!r}: directory {str(target.parent)!r} is missing"
        )
    return target


@contextmanager
def _chart(path: str | os.PathLike[str]) -> Iterator[Any]:
    """A 900x500 chart's axes, drawn on in the ``with`` block, then (with its legend)
    written as the PNG file ``path`` (checked first; :class:`YatzyError` when it
    cannot be written)."""
    target = check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")  # files only: no display needed
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5), dpi=100)
    try:
        yield ax
        ax.legend()
        fig.tight_layout()
        try:
            fig.savefig(target, format="png")
        except OSError as exc:
            raise YatzyError(f"cannot write {os.fspath(path)!r}: {exc.strerror}") from None
    finally:
        plt.close(fig)


def save_histogram(result: SimulationResult, path: str | os.PathLike[str]) -> Path:
    """Draw the final scores of ``result`` into the PNG file ``path`` (checked)."""
    with _chart(path) as ax:
        lo, hi = min(result.scores), max(result.scores)
        width = max(1, (hi - lo + 1) // 80 + 1)
        bins = list(range(lo, hi + width + 1, width))
        ax.hist(result.scores, bins=bins, color="#3b6ea5", edgecolor="white", linewidth=0.3)
        ax.axvline(result.mean, color="#c0392b", linewidth=1.5, label=f"mean {result.mean:.2f}")
        median = result.percentiles()[50]
        ax.axvline(median, color="#27ae60", linewidth=1, linestyle="--", label=f"median {median:g}")
        ax.set_xlabel("final score")
        ax.set_ylabel("games")
        ax.set_title(
            f"{result.rules}, bot {result.bot}: {result.games:,} games, "
            f"sd {result.sd:.1f}, bonus {result.bonus_rate:.0%}, yatzy {result.yatzy_rate:.0%}"
        )
    return Path(path)


def save_win_chart(result: WinAnalysis, names: list[str], path: str | os.PathLike[str]) -> Path:
    """Draw every player's chance (of winning, or of beating the record) before each
    turn of the game and at its end into the PNG file ``path`` (checked)."""
    turns = [p.turn for p in result.points]
    styles = ["-", "--", ":", "-."]
    with _chart(path) as ax:
        for seat, name in enumerate(names):
            chances = [100 * p.chances[seat] for p in result.points]
            ax.plot(turns, chances, styles[seat % len(styles)], linewidth=2, label=name)
        ax.set_ylim(-2, 102)
        ax.set_xlabel("turns played")
        aim = f"beating the record {result.record}" if result.goal == "record" else "winning"
        ax.set_ylabel(f"chance of {aim} (%)")
        how = (
            "exact"
            if result.exact
            else f"simulated in part, off by up to {100 * result.margin:.1f} percentage points"
        )
        ax.set_title(f"{result.rules}: chance of {aim}, turn by turn ({how})")
        ax.grid(alpha=0.3)
    return Path(path)
