"""Protocols: blank and filled score sheets as PDF and Excel, and Excel import.

An adapter over the core (it imports :mod:`yatzy.rules` and :mod:`yatzy.game`,
never the reverse).  :mod:`~yatzy.protocols.layout` is the row model both formats
share; :mod:`~yatzy.protocols.pdf` and :mod:`~yatzy.protocols.xlsx` write the files
(reportlab and openpyxl are imported only when a file is written);
:mod:`~yatzy.protocols.importer` reads a hand-filled Excel protocol back into a
score-pad game record.
"""

from __future__ import annotations

from yatzy.protocols.files import FORMATS, ProtocolFileError, pick_format, write_file
from yatzy.protocols.layout import Column, Mark, Protocol, Row, protocol_rows

__all__ = [
    "FORMATS",
    "Column",
    "Mark",
    "Protocol",
    "ProtocolFileError",
    "Row",
    "pick_format",
    "protocol_rows",
    "write_file",
    "write_protocol",
]


def write_protocol(protocol: Protocol, fmt: str, output: str, *, force: bool = False) -> None:
    """Write ``protocol`` as ``fmt`` (``pdf`` or ``xlsx``) to ``output`` (``-``: stdout)."""
    if fmt == "pdf":
        from yatzy.protocols.pdf import write_pdf as writer
    elif fmt == "xlsx":
        from yatzy.protocols.xlsx import write_xlsx as writer
    else:
        raise ProtocolFileError(f"unknown format {fmt!r}; valid: {', '.join(FORMATS)}")
    write_file(output, lambda f: writer(protocol, f), force=force)
