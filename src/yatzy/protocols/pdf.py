"""The printable protocol: one A4 page per up to six players, made with reportlab.

Each page has the title, the rule set with its options, the protocol table with
large boxes (the computed rows shaded, the bonus threshold beside Bonus) and the
short scoring rules as a footnote.  A game's protocol shows every filled box,
scratches as ``x``, the computed rows and the winner.  Text is set in Bitstream
Vera, which reportlab ships inside its wheel: the font is embedded in the PDF, has
å ä ö (and − ≥), and needs no system font package.
"""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path
from typing import IO, Any
from xml.sax.saxutils import escape

import reportlab
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    Flowable,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from yatzy.protocols.layout import Column, Protocol, final_key, row_hint, row_label
from yatzy.protocols.texts import (
    general_notes,
    option_phrases,
    scoring_notes,
    title,
    word,
)
from yatzy.rules import RuleSet

FONT = "YatzyVera"
BOLD = "YatzyVera-Bold"
MARGIN = 14 * mm
LABEL_WIDTH = 64 * mm
MAX_PLAYER_WIDTH = 26 * mm
_SHADE = colors.HexColor("#E6E6E6")
_WINNER = colors.HexColor("#FFE58A")
_GREY = colors.HexColor("#555555")
_LINE = colors.HexColor("#404040")


@cache
def register_fonts() -> None:
    """Register the Vera fonts that ship with reportlab (embedded in every PDF)."""
    folder = Path(reportlab.__file__).parent / "fonts"
    pdfmetrics.registerFont(TTFont(FONT, str(folder / "Vera.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(folder / "VeraBd.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=BOLD, italic=FONT, boldItalic=BOLD)


def _styles() -> dict[str, ParagraphStyle]:
    return {
        "title": ParagraphStyle("title", fontName=BOLD, fontSize=18, leading=22),
        "sub": ParagraphStyle("sub", fontName=FONT, fontSize=9.5, leading=12, textColor=_GREY),
        "status": ParagraphStyle("status", fontName=BOLD, fontSize=11, leading=14),
        "label": ParagraphStyle("label", fontName=FONT, fontSize=11, leading=12),
        "label_bold": ParagraphStyle("label_bold", fontName=BOLD, fontSize=11, leading=12),
        "note": ParagraphStyle("note", fontName=FONT, fontSize=7.5, leading=9.2, textColor=_GREY),
        "page": ParagraphStyle(
            "page", fontName=FONT, fontSize=8, leading=10, textColor=_GREY, alignment=2
        ),
    }


def _subtitle(rules: RuleSet, lang: str) -> str:
    key = "double_dice" if rules.double else "dice"
    parts = [
        f"{word('rules', lang)}: {rules.spec}",  # type: ignore[arg-type]
        word(key, lang, n=rules.num_dice, turns=rules.turns),  # type: ignore[arg-type]
        *option_phrases(rules, lang),  # type: ignore[arg-type]
    ]
    return " · ".join(escape(p) for p in parts)


def _status(protocol: Protocol) -> str:
    lang = protocol.lang
    if protocol.finished:
        fk = final_key(protocol.rules)
        names = protocol.winner_names
        best = next(c.computed[fk] for c in protocol.columns if c.winner)
        key = "winner" if len(names) == 1 else "winners"
        return f"{word(key, lang)}: {escape(', '.join(names))} ({best} {word('points', lang)})"
    if any(c.marks for c in protocol.columns):
        return escape(
            word("in_progress", lang, done=protocol.rounds_played, all=protocol.rules.turns)
        )
    return ""


def _name_cell(name: str, width: float) -> Paragraph:
    """A player's name in its column: the largest size that fits in one or two lines,
    broken at spaces and hyphens."""
    words = [w for w in re.split(r"(?<=-)|\s+", name) if w]
    size, lines = 10.0, [name]
    while size >= 6:
        lines = _lines(words, size, width)
        if len(lines) <= 2 and all(pdfmetrics.stringWidth(ln, BOLD, size) <= width for ln in lines):
            break
        size -= 0.5
    style = ParagraphStyle("name", fontName=BOLD, fontSize=size, leading=size * 1.15, alignment=1)
    return Paragraph("<br/>".join(escape(ln) for ln in lines), style)


def _lines(words: list[str], size: float, width: float) -> list[str]:
    lines: list[str] = []
    for w in words:
        sep = "" if not lines or lines[-1].endswith("-") else " "
        if lines and pdfmetrics.stringWidth(lines[-1] + sep + w, BOLD, size) <= width:
            lines[-1] += sep + w
        else:
            lines.append(w)
    return lines


def _table(protocol: Protocol, columns: tuple[Column, ...], row_height: float) -> Table:
    rules, lang = protocol.rules, protocol.lang
    st = _styles()
    n = len(columns)
    width = min(MAX_PLAYER_WIDTH, (A4[0] - 2 * MARGIN - LABEL_WIDTH) / max(n, 1))
    header: list[object] = [Paragraph(escape(word("player", lang)), st["label_bold"])]
    names = [_name_cell(c.name, width - 6) for c in columns]
    header += names
    data: list[list[object]] = [header]
    style: list[Any] = [
        ("FONT", (0, 0), (-1, -1), FONT, 13),
        ("GRID", (0, 0), (-1, -1), 0.6, _LINE),
        ("BOX", (0, 0), (-1, -1), 1.4, colors.black),
        ("LINEBELOW", (0, 0), (-1, 0), 1.4, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (1, 1), (-1, -1), "CENTER"),
        ("LEFTPADDING", (0, 0), (0, -1), 5),
    ]
    fk = final_key(rules)
    for r, row in enumerate(protocol.rows, start=1):
        hint = row_hint(row, rules, lang)
        computed = row.kind == "computed"
        name = escape(row_label(row, lang, rules))
        text = f"<b>{name}</b>" if computed else name
        if hint:
            text += f' <font size="7.5" color="#555555">{escape(hint)}</font>'
        cells: list[object] = [Paragraph(text, st["label_bold" if computed else "label"])]
        for k, column in enumerate(columns, start=1):
            if computed:
                value = column.computed.get(row.key)
                if value is None:
                    cells.append("")
                elif row.key == "par":
                    cells.append(f"{value:+d}".replace("-", "−") if value else "0")
                else:
                    cells.append(str(value).replace("-", "−"))
                if row.key == fk and column.winner:
                    style.append(("BACKGROUND", (k, r), (k, r), _WINNER))
            else:
                mark = column.marks.get(row.key)
                cells.append("" if mark is None else mark.text().replace("-", "−"))
                if mark is not None and mark.scratched:
                    style.append(("TEXTCOLOR", (k, r), (k, r), _GREY))
        data.append(cells)
        if computed:
            style.append(("BACKGROUND", (0, r), (-1, r), _SHADE))
            style.append(("FONT", (1, r), (-1, r), BOLD, 13))
        if row.key in ("par", "total"):
            style.append(("LINEBELOW", (0, r), (-1, r), 1.4, colors.black))
    for k, column in enumerate(columns, start=1):
        if column.winner:
            style.append(("BACKGROUND", (k, len(data) - 1), (k, len(data) - 1), _WINNER))
    name_height = max((p.wrap(width - 6, 1000)[1] for p in names), default=0) + 8
    heights = [max(row_height + 4, name_height)] + [row_height] * (len(data) - 1)
    table = Table(data, colWidths=[LABEL_WIDTH] + [width] * n, rowHeights=heights, hAlign="LEFT")
    table.setStyle(TableStyle(style))
    return table


def _footnote(rules: RuleSet, lang: str) -> str:
    parts = [word("scratch_note", lang), *general_notes(rules, lang)]  # type: ignore[arg-type]
    text = " ".join(p if p.endswith(".") else p + "." for p in parts)
    boxes = "; ".join(scoring_notes(rules, lang))  # type: ignore[arg-type]
    return f"{escape(text)} {escape(boxes)}."


def build_story(protocol: Protocol) -> list[Flowable]:
    """The flowables of every page of ``protocol``."""
    register_fonts()
    st = _styles()
    rules, lang = protocol.rules, protocol.lang
    pages = protocol.pages()
    # Boxes as large as the page allows, between 7 and 10 mm.
    rows = len(protocol.rows) + 1
    row_height = max(7 * mm, min(10 * mm, (A4[1] - 2 * MARGIN - 55 * mm) / rows))
    story: list[Flowable] = []
    status = _status(protocol)
    for p, columns in enumerate(pages, start=1):
        if p > 1:
            story.append(PageBreak())
        story.append(Paragraph(escape(title(rules, lang)), st["title"]))
        story.append(Paragraph(_subtitle(rules, lang), st["sub"]))
        if status:
            story.append(Spacer(1, 2 * mm))
            story.append(Paragraph(status, st["status"]))
        story.append(Spacer(1, 4 * mm))
        story.append(_table(protocol, columns, row_height))
        story.append(Spacer(1, 4 * mm))
        story.append(Paragraph(_footnote(rules, lang), st["note"]))
        if len(pages) > 1:
            story.append(Spacer(1, 2 * mm))
            story.append(Paragraph(word("page", lang, page=p, pages=len(pages)), st["page"]))
    return story


def write_pdf(protocol: Protocol, target: str | os.PathLike[str] | IO[bytes]) -> None:
    """Write ``protocol`` as a PDF (one A4 page per up to six players)."""
    register_fonts()
    out = os.fspath(target) if isinstance(target, (str, os.PathLike)) else target
    doc = SimpleDocTemplate(
        out,
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=title(protocol.rules, protocol.lang),
        author="yatzy",
        subject=protocol.rules.spec,
        creator="yatzy",
        initialFontName=FONT,  # else the canvas names Helvetica, a font not embedded
    )
    doc.build(build_story(protocol))
