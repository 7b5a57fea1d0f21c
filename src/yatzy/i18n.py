"""The one translation catalog of every front end: gettext, with English as the source.

Every user-visible text is a :class:`Message`, declared where it is used as
``N_("cli.round", "round {n} of {total}")``: a key (gettext's ``msgctxt``, namespaced by
the part of the program that speaks it, so equal English may be translated apart) and
the English text (the ``msgid``; ``{name}`` fields are filled by ``str.format``).
``scripts/i18n.py`` extracts the declarations into the catalog
``locale/LANG/LC_MESSAGES/yatzy.po`` that translators edit, and compiles each into the
``yatzy.mo`` committed beside it.  At run time the standard library's :mod:`gettext`
reads a language's ``.mo`` on its first use (once per process, about a millisecond);
English needs no catalog.  Imports nothing of yatzy but its errors: any layer may use it.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any, Literal

Language = Literal["sv", "fi", "en"]
LANGUAGES: tuple[Language, ...] = ("sv", "fi", "en")
"""The languages of every front end (each but English has a catalog)."""

SOURCE_LANGUAGE: Language = "en"
"""The language of the texts in the code (the catalog's ``msgid``)."""

DOMAIN = "yatzy"
"""The catalog's gettext domain (its files are ``yatzy.po`` and ``yatzy.mo``)."""

# os.path, not pathlib: importing pathlib would cost `yatzy score` about 5 ms.
LOCALE_DIR = os.path.join(os.path.dirname(__file__), "locale")
"""Where the catalogs are: ``LOCALE_DIR/LANG/LC_MESSAGES/yatzy.mo``."""


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang``, read once (English: the texts as they are)."""
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    if lang not in LANGUAGES:
        from yatzy.errors import YatzyError

        raise YatzyError(f"no translations for the language {lang!r}")
    with open(os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", f"{DOMAIN}.mo"), "rb") as f:
        return gettext.GNUTranslations(f)


def translate(lang: str, context: str, english: str) -> str:
    """The text ``english`` with the key ``context`` in ``lang`` (the English itself
    where the catalog lacks it; the tests make sure none is lacking)."""
    return translations(lang).pgettext(context, english)


class Message(Mapping[str, str]):
    """A user-visible text: its key and English source, read in any language.

    ``message[lang]`` is the text in ``lang``, so a message stands where the words of
    every language used to be a ``{lang: text}`` dict; :meth:`text` also fills in
    the fields.  Translations are looked up on use, never at import.
    """

    __slots__ = ("context", "english")

    def __init__(self, context: str, english: str) -> None:
        self.context = context
        self.english = english

    def __getitem__(self, lang: str) -> str:
        if lang not in LANGUAGES:
            raise KeyError(lang)
        return translate(lang, self.context, self.english)

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Message):
            return (self.context, self.english) == (other.context, other.english)
        return super().__eq__(other)

    def __hash__(self) -> int:
        return hash((self.context, self.english))

    def __repr__(self) -> str:
        return f"N_({self.context!r}, {self.english!r})"

    def text(self, lang: str, **fields: Any) -> str:
        """The text in ``lang`` with ``fields`` filled in."""
        return self[lang].format(**fields)


def N_(context: str, english: str) -> Message:
    """Declare a text: ``scripts/i18n.py`` extracts every call (two string literals)."""
    return Message(context, english)


def messages(prefix: str, *items: Message) -> dict[str, Message]:
    """``items`` by their key without ``prefix`` (``messages("cli.", N_("cli.round",
    ...))["round"]``); every key must start with ``prefix`` and appear once."""
    out: dict[str, Message] = {}
    for item in items:
        key = item.context.removeprefix(prefix)
        if key == item.context or key in out:
            raise ValueError(f"key {item.context!r}: outside {prefix!r}, or twice")
        out[key] = item
    return out


LANGUAGE_NAME = N_("language", "English")
"""Each language by its own name (the language switch), from its own catalog."""

# TRANSLATORS: the mark between a number's whole part and its decimals (1.5, 1,5).
DECIMAL_MARK = N_("decimal_mark", ".")
"""The decimal mark of each language (a comma in Swedish and Finnish)."""


def decimal(number: str, lang: str) -> str:
    """``number``, written with a point (``"1.5"``), with ``lang``'s decimal mark."""
    mark = DECIMAL_MARK[lang]
    return number if mark == "." else number.replace(".", mark)
