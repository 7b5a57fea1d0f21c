"""What the translations cost: ``yatzy score`` start to finish, and a catalog's load.

Prints the median and the fastest wall time of ``yatzy score yatzy 1 1 1 1 1`` in a
fresh process per language (the command a shell script calls in a loop; it must not
import the numeric stack), the import time of the whole CLI for that command
(``python -X importtime``), and, where :mod:`yatzy.i18n` exists, the time to read one
language's compiled catalog and to look up every page word of the web app.
``--against DIR`` times another checkout's ``src`` (before the catalog: ``git worktree
add /tmp/before COMMIT``) in turns with this one, the same interpreter for both, so
that the load of a busy machine falls on both alike.
Run: ``.venv/bin/python benchmarks/bench_i18n.py [--runs N] [--against DIR]``.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

SCORE = ["score", "yatzy", "1", "1", "1", "1", "1"]


def _wall(argv: list[str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return times


def _import_ms(lang: str) -> tuple[float, float]:
    """Total self time of every import, and of the catalog's own modules, in ms."""
    code = f"from yatzy.cli.main import main; main({[*SCORE, '--lang', lang]!r})"
    argv = [sys.executable, "-X", "importtime", "-c", code]
    subprocess.run(argv, capture_output=True)  # compiles what is not compiled yet
    err = subprocess.run(argv, capture_output=True, text=True).stderr
    total = mine = 0.0
    for line in err.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)", line)
        if m:
            total += int(m.group(1)) / 1000
            if m.group(4) in ("gettext", "yatzy.i18n"):
                mine += int(m.group(1)) / 1000
    return total, mine


def _catalog_ms(lang: str) -> str:
    code = f"""
import time
import yatzy.i18n as i
spent = []
for _ in range(50):
    i.translations.cache_clear()
    t = time.perf_counter()
    i.translations({lang!r})
    spent.append(time.perf_counter() - t)
from yatzy.web.i18n import _ui_strings
t = time.perf_counter()
_ui_strings({lang!r})
words = time.perf_counter() - t
print(f"read in {{spent[0] * 1e3:.2f}} ms the first time, {{min(spent) * 1e3:.2f}} ms at best; "
      f"the page's {{len(_ui_strings({lang!r}))}} words looked up in {{words * 1e3:.2f}} ms")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else "(no yatzy.i18n here)"


def _against(other: Path, runs: int) -> None:
    here = Path(__file__).resolve().parent.parent
    trees = {"this checkout": here / "src", str(other): other / "src"}
    for lang in ("en", "sv", "fi"):
        code = f"from yatzy.cli.main import main; main({[*SCORE, '--lang', lang]!r})"
        times: dict[str, list[float]] = {name: [] for name in trees}
        for _ in range(runs):
            for name, src in trees.items():
                env = {**os.environ, "PYTHONPATH": str(src)}
                start = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-c", code], check=True, env=env, capture_output=True
                )
                times[name].append(time.perf_counter() - start)
        for name, spent in times.items():
            median, fastest = statistics.median(spent) * 1e3, min(spent) * 1e3
            print(
                f"yatzy score --lang {lang}, {name}: "
                f"median {median:.0f} ms, fastest {fastest:.0f} ms"
            )


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--against", type=Path, help="another checkout to time in turns")
    args = parser.parse_args()
    if args.against:
        print(f"load average {os.getloadavg()[0]:.1f}")
        _against(args.against, args.runs)
        return
    yatzy = os.path.join(os.path.dirname(sys.executable), "yatzy")
    print(f"load average {os.getloadavg()[0]:.1f}")
    for lang in ("en", "sv", "fi"):
        times = _wall([yatzy, *SCORE, "--lang", lang], args.runs)
        total, mine = _import_ms(lang)
        print(
            f"yatzy score --lang {lang}: median {statistics.median(times) * 1e3:.0f} ms, "
            f"fastest {min(times) * 1e3:.0f} ms; imports {total:.1f} ms "
            f"(gettext and yatzy.i18n {mine:.1f} ms); catalog {_catalog_ms(lang)}"
        )


if __name__ == "__main__":
    main()
