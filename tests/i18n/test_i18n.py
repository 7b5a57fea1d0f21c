"""The one translation catalog: yatzy.i18n at run time, src/yatzy/locale's files, and
the tools that keep them (scripts/i18n.py, scripts/i18n_from_dict.py)."""

from __future__ import annotations

import ast
import importlib.util
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from yatzy.errors import YatzyError
from yatzy.i18n import LANGUAGES, N_, messages, translations

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


tools = _script("i18n")
converter = _script("i18n_from_dict")


@pytest.fixture(scope="module")
def template() -> Any:
    """Every text the code declares (Babel's extraction)."""
    return tools.extract()


# -- the committed catalog --------------------------------------------------------------------


def test_every_language_but_english_has_a_catalog_and_no_other() -> None:
    assert tools.languages() == sorted(TRANSLATED)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_committed_mo_file_is_the_compiled_po_file(lang: str) -> None:
    mo = tools.po_path(lang).with_suffix(".mo").read_bytes()
    assert mo == tools.compile_mo(tools.load_po(lang)), "run scripts/i18n.py compile"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_text_of_the_code_is_translated_with_its_fields(lang: str, template: Any) -> None:
    # No text missing, empty or fuzzy; no field the English lacks; no key twice.
    assert tools.problems(lang, template) == []
    assert len([m for m in template if m.id]) > 550


def test_the_check_finds_each_kind_of_fault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, template: Any
) -> None:
    shutil.copytree(tools.LOCALE, tmp_path / "locale")
    monkeypatch.setattr(tools, "LOCALE", tmp_path / "locale")
    po = tools.po_path("sv")
    text = po.read_text(encoding="utf-8")
    for old, new in [
        ('msgstr "omgång {n} av {total}"', 'msgstr ""'),  # untranslated
        ('msgstr "{name} spelar"', 'msgstr "{player} spelar"'),  # a field the code lacks
        ('msgctxt "cli.box"', '#, fuzzy\nmsgctxt "cli.box"'),  # fuzzy
        ('msgctxt "cli.now"\nmsgid "now"', 'msgctxt "cli.now"\nmsgid "at once"'),  # stale
        ('msgstr "−{points}\u00a0p"', 'msgstr "−{points} p"'),  # a unit that may wrap alone
    ]:
        assert old in text, old
        text = text.replace(old, new)
    po.write_text(text, encoding="utf-8")
    found = "\n".join(tools.problems("sv", template))
    assert "'cli.round' has no translation" in found
    assert "'cli.turn_of': fields ['player']" in found
    assert "'cli.box' is fuzzy" in found
    assert "'cli.now' ('now') is in the code, not the .po" in found
    assert "'cli.now' is in the .po, not the code" in found
    assert "'advice.lost': '−{points} p' splits a number from its unit" in found
    assert "yatzy.mo is not the compiled .po" in found
    assert tools.problems("fi", template) == []


@pytest.mark.slow
def test_update_brings_a_new_text_in_to_translate_and_drops_a_removed_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, template: Any
) -> None:
    shutil.copytree(tools.LOCALE, tmp_path / "locale")
    monkeypatch.setattr(tools, "LOCALE", tmp_path / "locale")
    changed = tools.extract()
    changed.delete("now", context="cli.now")
    changed.add("Hello {name}", context="cli.hello")
    monkeypatch.setattr(tools, "extract", lambda: changed)
    tools.update(["fi"])
    catalog = {m.context: m for m in tools.load_po("fi") if m.id}
    hello = catalog["cli.hello"]
    assert hello.fuzzy or hello.string == ""  # a near match's translation comes in fuzzy
    assert any("'cli.hello'" in p for p in tools.problems("fi", changed))
    assert "python-brace-format" in catalog["cli.hello"].flags
    assert "cli.now" not in catalog
    assert catalog["cli.round"].string == "kierros {n}/{total}"


# -- run time ---------------------------------------------------------------------------------


def test_a_message_reads_as_its_text_in_every_language() -> None:
    round_ = N_("cli.round", "round {n} of {total}")
    assert dict(round_) == {
        "sv": "omgång {n} av {total}",
        "fi": "kierros {n}/{total}",
        "en": "round {n} of {total}",
    }
    assert round_.text("sv", n=3, total=15) == "omgång 3 av 15"
    assert "de" not in round_ and round_.get("de") is None
    with pytest.raises(KeyError):
        round_["de"]
    assert round_ == N_("cli.round", "round {n} of {total}") != N_("web.round", "round")
    assert len({round_, N_("cli.round", "round {n} of {total}")}) == 1


def test_the_key_tells_equal_english_apart() -> None:
    # "kept" is a die kept in the terminal ("behållen") but on the page "sparad".
    assert N_("cli.kept", "kept")["sv"] == "behållen"
    assert N_("web.kept", "kept")["sv"] == "sparad"


def test_a_text_the_catalog_lacks_reads_as_its_english() -> None:
    assert N_("cli.no_such_key", "Hello")["fi"] == "Hello"


def test_a_catalog_is_read_once_and_an_unknown_language_is_refused() -> None:
    assert translations("sv") is translations("sv")
    with pytest.raises(YatzyError, match="'de'"):
        translations("de")


def test_messages_are_keyed_without_their_prefix_and_each_once() -> None:
    table = messages("x.", N_("x.a", "A"), N_("x.b", "B"))
    assert list(table) == ["a", "b"] and table["a"].english == "A"
    with pytest.raises(ValueError, match=r"'y\.c'"):
        messages("x.", N_("y.c", "C"))
    with pytest.raises(ValueError, match=r"'x\.a'"):
        messages("x.", N_("x.a", "A"), N_("x.a", "A again"))


def test_no_catalog_is_read_at_import_and_yatzy_score_reads_only_its_own() -> None:
    code = (
        "import sys\n"
        "import yatzy.rules, yatzy.cli.i18n, yatzy.protocols.texts, yatzy.strategy.advice_words\n"
        "from yatzy.i18n import translations\n"
        "print(translations.cache_info().currsize)\n"
        "from yatzy.cli.main import main\n"
        "main(['score', 'yatzy', '6', '6', '6', '6', '6', '--lang', 'fi'])\n"
        "print(translations.cache_info().currsize, 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "0"
    assert any("Kutoset" in line and "30" in line for line in lines)
    assert lines[-1] == "1 False"


# -- moving the old word dicts into the catalog (scripts/i18n_from_dict.py) --------------------

OLD_WEB = """
from yatzy.rules import Language

LANGUAGE_NAMES: dict[str, str] = {"sv": "Svenska", "fi": "Suomi", "en": "English"}

_STRINGS: dict[str, tuple[str, str, str]] = {
    # key: (sv, fi, en)
    "skip": ("Hoppa till innehållet", "Siirry sisältöön", "Skip to content"),
    "win_streak": (
        "{player} har vunnit {n} i rad",
        "{player} on voittanut {n} peräkkäin",
        "{player} has won {n} in a row",
    ),
    "long": (
        "Lång\\nrad",
        "Pitkä\\nrivi",
        "A long text, a long text, a long text, a long text, a long text, a long text, a long "
        "text, a long text, a long text\\nwith a second line",
    ),
    "computed": ("Ett " + "två", "Yksi", "One " + "two"),
}
"""

OLD_CLI = """
MESSAGES: dict[str, dict[Language, str]] = {
    "round": {"en": "round {n} of {total}", "sv": "omgång {n} av {total}", "fi": "x"},
    "bot_wins": {"en": "{name} wins", "sv": "{name} vinner", "fi": "{name} voittaa"},
}
_TUI_MESSAGES: dict[str, dict[Language, str]] = {
    "tui_win": {"en": "Won!", "sv": "Vann!", "fi": "Voitti!"},
}
MESSAGES.update(_TUI_MESSAGES)
"""


def _old_file(tmp_path: Path, rel: str, text: str) -> Path:
    path = tmp_path / "old" / "src" / "yatzy" / rel
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_the_converter_reads_an_old_dict_into_keys_english_and_translations(
    tmp_path: Path,
) -> None:
    web = _old_file(tmp_path, "web/i18n.py", OLD_WEB)
    entries = {e.context: e for e in converter.read_entries(str(web))}
    streak = entries["web.win_streak"]
    assert (streak.en, streak.sv, streak.fi) == (
        "{player} has won {n} in a row",
        "{player} har vunnit {n} i rad",
        "{player} on voittanut {n} peräkkäin",
    )
    assert entries["language"].fi == "Suomi" and entries["web.skip"].module == "web/i18n.py"
    assert "web.computed" not in entries  # not a literal: reported, left to move by hand
    old_cli = _old_file(tmp_path, "cli/i18n.py", OLD_CLI)
    cli = {e.context: e for e in converter.read_entries(str(old_cli))}
    assert set(cli) == {"cli.round", "cli.bot_wins", "cli.tui_win"}
    assert cli["cli.bot_wins"].sv == "{name} vinner"


def test_the_converters_declarations_are_what_babel_extracts(tmp_path: Path) -> None:
    entries = converter.read_entries(str(_old_file(tmp_path, "web/i18n.py", OLD_WEB)))
    source = "x = [\n" + "\n".join(converter.code_line(e) for e in entries) + "\n]\n"
    assert max(len(line) for line in source.splitlines()) <= 100
    declared = [
        (call.args[0].value, ast.literal_eval(call.args[1]))  # type: ignore[attr-defined]
        for call in ast.walk(ast.parse(source))
        if isinstance(call, ast.Call)
    ]
    assert declared == [(e.context, e.en) for e in entries]


def test_the_converter_adds_new_entries_to_the_registry_and_the_catalogs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "src"
    (src / "cli").mkdir(parents=True)
    module = src / "cli" / "i18n.py"
    module.write_text(
        textwrap.dedent(
            """\
            _LINE_MODE = messages(
                "cli.",
                N_("cli.round", "round {n} of {total}"),
            )
            """
        ),
        encoding="utf-8",
    )
    old = converter.read_entries(str(_old_file(tmp_path, "cli/i18n.py", OLD_CLI)))
    new = [e for e in old if e.context != "cli.round"]
    converter.insert(new, src=src)
    tree = ast.parse(module.read_text(encoding="utf-8"))
    registry = next(c for c in ast.walk(tree) if isinstance(c, ast.Call) and c.args)
    keys = [ast.literal_eval(c.args[0]) for c in registry.args[1:]]  # type: ignore[attr-defined]
    assert keys == ["cli.round", "cli.bot_wins", "cli.tui_win"]

    shutil.copytree(tools.LOCALE, tmp_path / "locale")
    converter.merge_po(new, locale=tmp_path / "locale")
    monkeypatch.setattr(tools, "LOCALE", tmp_path / "locale")
    catalog = {m.context: m for m in tools.load_po("fi") if m.id}
    assert catalog["cli.bot_wins"].string == "{name} voittaa"
    assert catalog["cli.tui_win"].id == "Won!"
    assert catalog["cli.round"].string == "kierros {n}/{total}"  # untouched
