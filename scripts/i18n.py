#!/usr/bin/env python3
"""The translation catalog's tools: extract, update, compile, check, init.

Every user-visible text of yatzy is declared in the code as ``N_("key", "English
text")`` (:mod:`yatzy.i18n`).  This script, with Babel (the test dependency group):

* ``update`` (the default, then ``compile``): extracts the declarations from
  ``src/yatzy`` and brings every ``src/yatzy/locale/LANG/LC_MESSAGES/yatzy.po`` up to
  date: new texts come in untranslated (or ``fuzzy`` with a near match's translation to
  review), texts no longer in the code go;
* ``compile``: writes each .po's ``yatzy.mo`` next to it, the file the program reads
  (committed, so that pip users need no build step);
* ``check``: fails when a text lacks a translation, is fuzzy, has other ``{fields}``
  than its English has, parts a number from its unit with a plain space
  (:data:`UNIT_SPLIT`), or a .mo is not what its .po compiles to (the test does the same);
* ``init LANG``: starts a new language's .po (then add LANG to ``yatzy.i18n.LANGUAGES``);
* ``pot FILE``: writes the template of every text, for translators' tools.

Run: ``.venv/bin/python scripts/i18n.py [update|compile|check|init LANG|pot FILE]``.
"""

from __future__ import annotations

import argparse
import datetime
import io
import re
import string
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "yatzy"
LOCALE = SRC / "locale"
DOMAIN = "yatzy"
KEYWORDS = {"N_": ((1, "c"), 2)}  # N_(context, english)
WIDTH = 88
UNIT_SPLIT = re.compile(
    r"\{\w+\} (?=(?:p|%|s|min|points?|poäng|pistettä|pisteen|pisteellä|pisteet)(?:\W|$))"
)
"""A number field and its unit with a plain space between them ("{points} p",
"{percent} %"): a line may break there and leave the unit alone at the start of the
next (the phone's analysis list did).  Every language writes a no-break space (U+00A0,
``\\u00a0`` in the code), as Swedish and Finnish typography join a number and its unit."""


def po_path(lang: str) -> Path:
    """The .po file of ``lang``."""
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def shown(path: Path) -> str:
    """``path`` as the messages name it (from the project's root where it is inside)."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def languages() -> list[str]:
    """The languages that have a .po file."""
    return sorted(p.parent.parent.name for p in LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def extract() -> Catalog:
    """Every ``N_()`` declaration of the package, as a template catalog."""
    template = Catalog(project="yatzy", fuzzy=False)
    found = extract_from_dir(
        str(SRC),
        method_map=[("**.py", "python")],
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
        directory_filter=lambda d: "__pycache__" not in d,
    )
    for filename, lineno, msgid, comments, context in found:
        if not isinstance(msgid, str) or not context:
            sys.exit(f"{filename}: N_() needs two string literals (key, English)")
        template.add(
            msgid,
            locations=[(f"src/yatzy/{filename}", lineno)],  # written without the line
            auto_comments=comments,
            context=context,
        )
    _flag(template)
    return template


def _flag(catalog: Catalog) -> None:
    """Mark the texts with ``{fields}`` python-brace-format (whatever Babel's version
    guesses), none python-format: no text is %-formatted ("95 % sure" is not one)."""
    for message in catalog:
        message.flags.discard("python-format")
        if message.id and fields(message.id):
            message.flags.add("python-brace-format")


def load_po(lang: str) -> Catalog:
    """The catalog of ``lang``'s .po file."""
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def save_po(catalog: Catalog, path: Path) -> None:
    """Write ``catalog`` as ``path`` in the project's one layout (no line numbers,
    so that moving code does not churn the catalog; obsolete texts dropped)."""
    catalog.revision_date = catalog.creation_date = _EPOCH
    catalog.project, catalog.version = "yatzy", "1"
    catalog.msgid_bugs_address = catalog.last_translator = "the yatzy project"
    catalog.language_team = f"{catalog.locale_identifier or 'LANG'} (yatzy)"
    catalog.header_comment = (
        f"# The words of yatzy's every front end in {catalog.locale_identifier or 'LANG'}.\n"
        "# English is the source (msgid), msgctxt the text's key in the code.\n"
        "# scripts/i18n.py keeps this file in step with the code; see the README."
    )
    _flag(catalog)
    catalog.fuzzy = False
    buf = io.BytesIO()
    write_po(buf, catalog, width=WIDTH, include_lineno=False, ignore_obsolete=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())


# Dates in the header would change on every run; the history is in git.
_EPOCH = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


class _MoSource:
    """What ``write_mo`` reads of a catalog, with a fixed header: Babel's own header
    names its version, which would make the .mo differ between Babel releases."""

    charset = "utf-8"

    def __init__(self, catalog: Catalog) -> None:
        header = (
            f"Project-Id-Version: yatzy\nLanguage: {catalog.locale}\nMIME-Version: 1.0\n"
            "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n"
        )
        self.messages = [Message("", header), *(m for m in catalog if m.id)]

    def __iter__(self) -> Any:
        return iter(self.messages)


def compile_mo(catalog: Catalog) -> bytes:
    """The .mo file of ``catalog`` (fuzzy and empty translations left out)."""
    buf = io.BytesIO()
    write_mo(buf, _MoSource(catalog), use_fuzzy=False)  # type: ignore[arg-type]
    return buf.getvalue()


def fields(text: object) -> set[str]:
    """The ``{name}`` fields of a ``str.format`` text (none for anything else)."""
    if not isinstance(text, str):
        return set()
    return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(text) if f}


def problems(lang: str, template: Catalog | None = None) -> list[str]:
    """What is wrong with ``lang``'s catalog (an empty list when nothing is)."""
    catalog = load_po(lang)
    out = []
    for m in catalog:
        if not m.id:
            continue
        where = f"{lang}: {m.context!r}"
        if m.fuzzy:
            out.append(f"{where} is fuzzy (review the translation, then drop the flag)")
        if not m.string:
            out.append(f"{where} has no translation")
        elif not fields(m.string) <= fields(m.id):
            # As msgfmt --check-format: a translation may leave a field out (Finnish
            # inflects "Yatzy-bonuksen" itself), never name one the code does not pass.
            unknown = sorted(fields(m.string) - fields(m.id))
            out.append(f"{where}: fields {unknown} are not in the English {m.id!r}")
        for text in (m.id, m.string):
            if isinstance(text, str) and UNIT_SPLIT.search(text):
                out.append(
                    f"{where}: {text!r} splits a number from its unit with a plain space "
                    "(write a no-break space, U+00A0)"
                )
        if fields(m.id) and "python-brace-format" not in m.flags:
            out.append(f"{where} lacks the python-brace-format flag")
    if template is not None:
        contexts = [m.context for m in template if m.id]
        out += [
            f"the key {c!r} has two English texts" for c in set(contexts) if contexts.count(c) > 1
        ]
        have = {(m.id, m.context) for m in catalog if m.id}
        want = {(m.id, m.context) for m in template if m.id}
        out += [f"{lang}: {c!r} ({i[:40]!r}) is in the code, not the .po" for i, c in want - have]
        out += [f"{lang}: {c!r} is in the .po, not the code" for i, c in have - want]
    mo = po_path(lang).with_suffix(".mo")
    if not mo.exists() or mo.read_bytes() != compile_mo(catalog):
        out.append(f"{lang}: {shown(mo)} is not the compiled .po (run compile)")
    return out


def update(langs: Iterable[str]) -> None:
    """Bring each language's .po up to date with the code's texts."""
    template = extract()
    for lang in langs:
        catalog = load_po(lang)
        catalog.update(template, update_header_comment=False)
        save_po(catalog, po_path(lang))
        todo = [m for m in catalog if m.id and (m.fuzzy or not m.string)]
        print(f"{shown(po_path(lang))}: {len(template)} texts, {len(todo)} to translate")


def compile_all(langs: Iterable[str]) -> None:
    """Write each language's .mo."""
    for lang in langs:
        path = po_path(lang).with_suffix(".mo")
        path.write_bytes(compile_mo(load_po(lang)))
        print(f"{shown(path)} written")


def main() -> None:
    """Run the command."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("command", nargs="?", default="all")
    parser.add_argument("arg", nargs="?")
    args = parser.parse_args()
    langs = languages()
    if args.command in ("all", "update"):
        update(langs)
    if args.command in ("all", "compile"):
        compile_all(langs)
    elif args.command == "check":
        template = extract()
        found = [p for lang in langs for p in problems(lang, template)]
        print("\n".join(found) or f"{len(template)} texts, all translated in {', '.join(langs)}")
        sys.exit(1 if found else 0)
    elif args.command == "init":
        if not args.arg or po_path(args.arg).exists():
            sys.exit("init LANG: a language without a .po yet")
        catalog = Catalog(locale=args.arg, project="yatzy", fuzzy=False)
        catalog.update(extract())
        save_po(catalog, po_path(args.arg))
        print(f"{shown(po_path(args.arg))} started: translate it, then compile")
    elif args.command == "pot":
        if not args.arg:
            sys.exit("pot FILE: where to write the template")
        save_po(extract(), Path(args.arg))
    elif args.command != "update":
        sys.exit(f"unknown command {args.command!r}: update, compile, check, init, pot")


if __name__ == "__main__":
    main()
