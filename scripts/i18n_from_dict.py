#!/usr/bin/env python3
"""Moves the old per-module word dicts into the gettext catalog.

Before the one catalog, every front end kept its Swedish, Finnish and English words in
Python dicts (``MESSAGES`` of cli/i18n.py, ``_STRINGS`` of web/i18n.py, the ``Words``
tuples of web/catalog.py, ``WORDS`` of protocols/texts.py, ``_WORDS`` of
strategy/advice_words.py, the names of rules/categories.py ...).  Branches begun before
the move may still add entries there.  This script reads such an old-style file (from
the work tree or from a git revision, without importing it), turns every entry into a
message (``msgctxt`` = its namespaced key, ``msgid`` = its English text) and

* ``--po``: adds the entries missing from ``src/yatzy/locale/{sv,fi}/LC_MESSAGES/
  yatzy.po`` with their Swedish and Finnish texts (and updates changed ones);
* ``--code``: prints the ``N_(...)`` lines to declare them in the new-style module;
  ``--insert`` adds the new ones to that module's ``messages("prefix.", ...)`` registry
  itself where it has one (run ``ruff format`` after).

Typical merge of a branch that added words to the old dicts::

    git show BRANCH:src/yatzy/web/i18n.py > /tmp/old.py     # or pass BRANCH:PATH
    python scripts/i18n_from_dict.py BRANCH:src/yatzy/web/i18n.py --new --insert --po
    .venv/bin/ruff format src && python scripts/i18n.py     # update + compile
    .venv/bin/python -m pytest -q tests/i18n/test_i18n.py

Without options it lists what it found, marking entries whose key is not in the
catalog yet (``+``) or whose texts differ from it (``~``).
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "yatzy"
LOCALE = SRC / "locale"
TRANSLATED = ("sv", "fi")


@dataclass
class Entry:
    """One word or phrase: its key (msgctxt), English text and translations."""

    context: str
    en: str
    sv: str
    fi: str
    variable: str  # the old dict it came from
    module: str  # the new-style module (relative to src/yatzy) that declares it


# -- reading old-style sources ------------------------------------------------------------


def _read(source: str) -> tuple[str, str]:
    """The text of ``source`` (a path, or REV:PATH read with git) and its path."""
    if ":" in source and not Path(source).exists():
        rev, path = source.split(":", 1)
        text = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:{path}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        return text, path
    return Path(source).read_text(encoding="utf-8"), source


def _assignments(tree: ast.Module) -> Iterator[tuple[str, ast.expr]]:
    """Module-level ``NAME = value``, ``NAME: T = value`` and ``NAME.update(value)``."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                yield target.id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if node.value is not None:
                yield node.target.id, node.value
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            func = node.value.func
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "update"
                and isinstance(func.value, ast.Name)
                and node.value.args
            ):
                yield func.value.id, node.value.args[0]


def _literal(node: ast.expr) -> Any:
    """The value of a literal; of a dict, the entries that are literals (others are
    reported: their texts must be moved by hand)."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        if not isinstance(node, ast.Dict):
            return None
    out = {}
    for k, v in zip(node.keys, node.values, strict=True):
        try:
            out[ast.literal_eval(k)] = ast.literal_eval(v)  # type: ignore[arg-type]
        except ValueError:
            print(f"line {v.lineno}: not a plain literal, left out: {ast.unparse(v)[:60]}")
    return out


def _calls(node: ast.AST, name: str) -> Iterator[ast.Call]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == name:
            yield sub


def _key(key: Any, sep: str = ".") -> str:
    return sep.join(str(k) for k in key) if isinstance(key, tuple) else str(key)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


# Each handler turns an old dict (its literal value) into (key, (sv, fi, en)) pairs.
Pairs = Iterator[tuple[str, tuple[str, str, str]]]


def _lang_dicts(value: Any) -> Pairs:
    """``{key: {"sv": .., "fi": .., "en": ..}}``."""
    for key, texts in value.items():
        yield _key(key), (texts["sv"], texts["fi"], texts["en"])


def _tuples(sep: str = ".") -> Callable[[Any], Pairs]:
    """``{key: (sv, fi, en)}`` (a tuple key joined with ``sep``)."""

    def read(value: Any) -> Pairs:
        for key, words in value.items():
            yield _key(key, sep), tuple(words)

    return read


def _one_tuple(value: Any) -> Pairs:
    """A single ``(sv, fi, en)``."""
    yield "", tuple(value)


def _one_lang_dict(value: Any) -> Pairs:
    """A single ``{"sv": .., "fi": .., "en": ..}``."""
    yield "", (value["sv"], value["fi"], value["en"])


def _bot_words(value: Any) -> Pairs:
    """``{level: ((sv, fi, en), loss)}``."""
    for level, (words, _loss) in value.items():
        yield level, tuple(words)


def _per_language_tuples(value: Any) -> Pairs:
    """``{lang: (word, word, ...)}``, one message per position, keyed by the English."""
    for i, en in enumerate(value["en"]):
        yield _slug(en), (value["sv"][i], value["fi"][i], en)


def _joined_names(value: Any) -> Pairs:
    """``{lang: (name, name, ...)}`` as one comma-separated message."""
    yield "", (", ".join(value["sv"]), ", ".join(value["fi"]), ", ".join(value["en"]))


@dataclass(frozen=True)
class Dict:
    """Where an old dict's entries go: the context prefix and the new module."""

    variable: str
    prefix: str
    read: Callable[[Any], Pairs]
    module: str


# Old dicts by the file that held them (path relative to src/yatzy) -> new contexts.
DICTS: dict[str, tuple[Dict, ...]] = {
    "cli/i18n.py": (
        Dict("MESSAGES", "cli.", _lang_dicts, "cli/i18n.py"),
        Dict("_TUI_MESSAGES", "cli.", _lang_dicts, "cli/i18n.py"),
    ),
    "web/i18n.py": (Dict("_STRINGS", "web.", _tuples(), "web/i18n.py"),),
    "web/catalog.py": (
        Dict("OPTION_WORDS", "house.", _tuples(), "web/catalog.py"),
        Dict("CHOICE_WORDS", "house.", _tuples("="), "web/catalog.py"),
        Dict("BOT_WORDS", "bot.", _bot_words, "web/catalog.py"),
        Dict("LOSS_WORDS", "bot.loss", _one_tuple, "web/catalog.py"),
        Dict("PERFECT_WORDS", "bot.perfect", _one_tuple, "web/catalog.py"),
        Dict("COMPUTER", "bot.computer", _one_tuple, "web/catalog.py"),
        Dict("DEFAULT_NAMES", "names.default", _joined_names, "web/catalog.py"),
        Dict("_FACE", "box_help.face", _one_tuple, "web/catalog.py"),
        Dict("_BOX_HELP", "box_help.", _tuples(), "web/catalog.py"),
        Dict("_EXTRA", "box_help.extra.", _tuples(), "web/catalog.py"),
        Dict("_FACE_WORDS", "box_help.faces.", _tuples(), "web/catalog.py"),
        Dict("_DUBBEL_NOTE", "box_help.dubbel_note", _one_tuple, "web/catalog.py"),
        Dict("_LENIENT_NOTE", "box_help.lenient.", _tuples(), "web/catalog.py"),
        Dict("_PIP_NOTE", "box_help.pip_note", _one_tuple, "web/catalog.py"),
    ),
    "web/stats.py": (Dict("_BONUS_WORDS", "web.stats.bonus", _one_lang_dict, "web/stats.py"),),
    "cli/cmd_stats.py": (
        Dict("_HEAD", "cli.stats.head.", _per_language_tuples, "cli/cmd_stats.py"),
        Dict("_NONE", "cli.stats.none", _one_lang_dict, "cli/cmd_stats.py"),
    ),
    "protocols/texts.py": (
        Dict("WORDS", "protocol.", _lang_dicts, "protocols/texts.py"),
        Dict("OPTION_HELP", "option_help.", _lang_dicts, "protocols/texts.py"),
        Dict("_OPTIONS", "protocol.option.", _lang_dicts, "protocols/texts.py"),
        Dict("_NORDIC", "protocol.nordic.", _lang_dicts, "protocols/texts.py"),
        Dict("_INTERNATIONAL", "protocol.international.", _lang_dicts, "protocols/texts.py"),
        Dict("_EXTRA", "protocol.extra.", _lang_dicts, "protocols/texts.py"),
        Dict("_GENERAL", "protocol.general.", _lang_dicts, "protocols/texts.py"),
    ),
    "strategy/advice_words.py": (
        Dict("_WORDS", "advice.", _lang_dicts, "strategy/advice_words.py"),
    ),
    "rules/categories.py": (Dict("LABELS", "label.", _lang_dicts, "rules/categories.py"),),
}


def _special(rel: str, tree: ast.Module, values: dict[str, Any]) -> Iterator[Entry]:
    """The structures that are not plain dicts: calls (Category, Variant, Preset),
    per-variant overrides, the advisor's grammar tables, the language names."""
    if rel == "rules/categories.py":
        base: dict[str, tuple[str, str, str]] = {}
        for call in _calls(tree, "Category"):
            args = [_literal(a) for a in call.args]
            base[args[0]] = (args[2], args[3], args[4])
            yield Entry(f"box.{args[0]}", args[4], args[2], args[3], "_ALL", "rules/categories.py")
        for variant, boxes in (values.get("VARIANT_NAMES") or {}).items():
            for box, names in boxes.items():
                sv, fi, en = (names.get(lang, base[box][i]) for i, lang in enumerate(LANGS))
                yield Entry(f"box.{variant}.{box}", en, sv, fi, "VARIANT_NAMES", rel)
        labels = values.get("LABELS") or {}
        for variant, keys in (values.get("VARIANT_LABELS") or {}).items():
            for key, names in keys.items():
                sv, fi, en = (names.get(lang, labels[key][lang]) for lang in LANGS)
                yield Entry(f"label.{variant}.{key}", en, sv, fi, "VARIANT_LABELS", rel)
    if rel == "rules/ruleset.py":
        for call in _calls(tree, "Variant"):
            name, title = _literal(call.args[0]), _literal(call.args[1])
            if isinstance(title, dict):
                yield Entry(
                    f"variant.{name}", title["en"], title["sv"], title["fi"], "VARIANTS", rel
                )
    if rel == "web/catalog.py":
        for call in _calls(tree, "Preset"):
            pid, _spec, name, summary = (_literal(a) for a in call.args[:4])
            for part, words in (("name", name), ("summary", summary)):
                sv, fi, en = words
                yield Entry(f"preset.{pid}.{part}", en, sv, fi, "PRESETS", rel)
    if rel == "web/i18n.py" and "LANGUAGE_NAMES" in values:
        names = values["LANGUAGE_NAMES"]
        yield Entry("language", names["en"], names["sv"], names["fi"], "LANGUAGE_NAMES", rel)
    if rel == "strategy/advice_words.py" and "_SV_ONE" in values:
        numerals = values["_NUMERALS"]
        for n, en in numerals["en"].items():
            sv, fi = numerals["sv"][n], numerals["fi"][n]
            yield Entry(f"advice.numeral.{n}", en, sv, fi, "_NUMERALS", rel)
        for face in range(1, 7):
            sv, fi = values["_SV_ONE"][face], values["_FI_ONE"][face]
            yield Entry(f"advice.die.{face}", f"the {face}", sv, fi, "_SV_ONE", rel)
            yield Entry(f"advice.die_after.{face}", f"{face}", sv, fi, "_SV_ONE", rel)
            sv_many = "de {count} " + values["_SV_MANY"][face]
            fi_many = "{count} " + values["_FI_PART"][face]
            many = "the {count} " + f"{face}s"
            yield Entry(f"advice.dice.{face}", many, sv_many, fi_many, "_SV_MANY", rel)


LANGS = ("sv", "fi", "en")


def read_entries(source: str) -> list[Entry]:
    """Every entry of an old-style source file (a path or REV:PATH)."""
    text, path = _read(source)
    rel = str(Path(path).as_posix()).split("src/yatzy/")[-1]
    tree = ast.parse(text)
    values: dict[str, Any] = {}
    for name, node in _assignments(tree):
        value = _literal(node)
        if isinstance(value, dict) and isinstance(values.get(name), dict):
            values[name] = {**values[name], **value}  # NAME.update({...})
        elif value is not None:
            values[name] = value
    entries: list[Entry] = []
    for spec in DICTS.get(rel, ()):
        if spec.variable not in values:
            continue
        for key, (sv, fi, en) in spec.read(values[spec.variable]):
            entries.append(Entry(spec.prefix + key, en, sv, fi, spec.variable, spec.module))
    entries.extend(_special(rel, tree, values))
    if not entries:
        sys.exit(f"{source}: no old-style word dicts found (known files: {', '.join(DICTS)})")
    return entries


# -- the catalog ---------------------------------------------------------------------------


def _po_path(lang: str, locale: Path = LOCALE) -> Path:
    return locale / lang / "LC_MESSAGES" / "yatzy.po"


def _load_po(lang: str, locale: Path = LOCALE) -> Any:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    path = _po_path(lang, locale)
    if not path.exists():
        return Catalog(locale=lang, project="yatzy", fuzzy=False)
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _by_context(catalog: Any) -> dict[str, Any]:
    return {m.context: m for m in catalog if m.id and m.context}


def merge_po(entries: list[Entry], locale: Path = LOCALE) -> None:
    """Add (or update) ``entries`` in every translated language's .po file."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from i18n import save_po

    for lang in TRANSLATED:
        catalog = _load_po(lang, locale)
        known = _by_context(catalog)
        added = changed = 0
        for e in entries:
            text = getattr(e, lang)
            old = known.get(e.context)
            if old is not None and old.id == e.en and old.string == text and not old.fuzzy:
                continue
            if old is not None:
                catalog.delete(old.id, context=e.context)
                changed += 1
            else:
                added += 1
            catalog.add(e.en, text, context=e.context)
        save_po(catalog, _po_path(lang, locale))
        print(f"{lang}: {added} added, {changed} updated")


# -- the new-style code ----------------------------------------------------------------------


def _pieces(text: str, room: int) -> list[str]:
    """``text`` cut after each newline and at spaces so each piece's literal fits ``room``."""
    pieces: list[str] = []
    for line in text.splitlines(keepends=True):
        piece = ""
        for word in re.findall(r"\S+\s*|\s+", line):
            if piece and len(_quote(piece + word)) > room:
                pieces.append(piece)
                piece = ""
            piece += word
        pieces.append(piece)
    return pieces


def _quote(text: str) -> str:
    """``text`` as a double-quoted Python literal."""
    return '"' + repr(text)[1:-1].replace('"', '\\"').replace("\\'", "'") + '"'


def code_line(entry: Entry, indent: int = 4, width: int = 100) -> str:
    """The ``N_(...)`` declaration of ``entry``, formatted as ``ruff format`` leaves it."""
    pad = " " * indent
    one = f"{pad}N_({_quote(entry.context)}, {_quote(entry.en)}),"
    if len(one) <= width and "\n" not in entry.en:
        return one
    inner = pad + "    "
    pieces = _pieces(entry.en, width - len(inner))
    lines = [f"{pad}N_(", f"{inner}{_quote(entry.context)},"]
    lines += [inner + _quote(p) for p in pieces]
    lines[-1] += ","
    return "\n".join([*lines, f"{pad}),"])


def insert(entries: list[Entry], src: Path = SRC) -> None:
    """Add ``entries`` to their module's ``messages("prefix.", ...)`` registry (the
    one with the longest prefix of the key); print those that have none."""
    by_module: dict[str, list[Entry]] = {}
    for e in entries:
        by_module.setdefault(e.module, []).append(e)
    for module, items in by_module.items():
        path = src / module
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        lines = text.splitlines(keepends=True)
        todo: dict[int, list[str]] = {}
        for e in items:
            registry = _registry(tree, e.context)
            if registry is None or registry.end_lineno is None:
                print(f"{module}: no messages() registry for {e.context!r}; add by hand:")
                print(code_line(e))
                continue
            todo.setdefault(registry.end_lineno, []).append(code_line(e) + "\n")
        for end in sorted(todo, reverse=True):
            lines[end - 1 : end - 1] = todo[end]  # before the registry's closing line
        path.write_text("".join(lines), encoding="utf-8")
        print(f"{module}: {sum(map(len, todo.values()))} declarations added")


def _registry(tree: ast.Module, context: str) -> ast.Call | None:
    """The ``messages("prefix.", ...)`` call with the longest prefix of ``context``."""
    best: ast.Call | None = None
    best_len = -1
    for call in _calls(tree, "messages"):
        prefix = _literal(call.args[0]) if call.args else None
        if isinstance(prefix, str) and context.startswith(prefix) and len(prefix) > best_len:
            best, best_len = call, len(prefix)
    return best


def main() -> None:
    """Read the old-style files and do what the options say."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("sources", nargs="+", help="old-style files: PATH or REV:PATH")
    parser.add_argument("--new", action="store_true", help="only entries new or changed")
    parser.add_argument("--po", action="store_true", help="write them into the .po files")
    parser.add_argument("--code", action="store_true", help="print their N_() declarations")
    parser.add_argument("--insert", action="store_true", help="add them to the modules")
    args = parser.parse_args()
    entries = [e for source in args.sources for e in read_entries(source)]
    seen: dict[str, Entry] = {}
    for e in entries:
        if e.context in seen and (seen[e.context].en, seen[e.context].sv) != (e.en, e.sv):
            sys.exit(f"two different texts under the key {e.context!r}")
        seen[e.context] = e
    entries = list(seen.values())
    known = _by_context(_load_po("sv")) if _po_path("sv").exists() else {}
    known_fi = _by_context(_load_po("fi")) if _po_path("fi").exists() else {}

    def status(e: Entry) -> str:
        old, old_fi = known.get(e.context), known_fi.get(e.context)
        if old is None:
            return "+"
        if (old.id, old.string, old_fi.string if old_fi else None) != (e.en, e.sv, e.fi):
            return "~"
        return " "

    if args.new:
        entries = [e for e in entries if status(e) != " "]
    if args.code:
        for e in entries:
            print(code_line(e))
    if args.insert:
        insert([e for e in entries if e.context not in known])
        for e in entries:
            if e.context in known and known[e.context].id != e.en:
                print(f"{e.module}: change the English of {e.context!r} by hand to {e.en!r}")
    if args.po:
        merge_po(entries)
    if not (args.code or args.insert or args.po):
        for e in entries:
            print(f"{status(e)} {e.context:<40} {e.en[:60]!r}")
        print(f"{len(entries)} entries ({sum(status(e) != ' ' for e in entries)} new or changed)")


if __name__ == "__main__":
    main()
