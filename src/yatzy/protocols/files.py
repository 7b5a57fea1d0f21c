"""Writing protocol files safely: never half a file, never an unasked overwrite."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

from yatzy.errors import YatzyError

FORMATS: tuple[str, ...] = ("pdf", "xlsx")
"""The file formats a protocol can be written in."""


class ProtocolFileError(YatzyError):
    """A protocol file that cannot be written, or a format that does not fit."""


def pick_format(fmt: str | None, output: str) -> str:
    """The format to write: ``fmt``, else the one the output's suffix names (checked)."""
    suffix = Path(output).suffix.lower().lstrip(".")
    if fmt is None:
        if suffix in FORMATS:
            return suffix
        raise ProtocolFileError(
            f"give --format {'|'.join(FORMATS)}: the file name {output!r} does not say"
        )
    if fmt not in FORMATS:
        raise ProtocolFileError(f"unknown format {fmt!r}; valid: {', '.join(FORMATS)}")
    if suffix in FORMATS and suffix != fmt:
        raise ProtocolFileError(f"format {fmt} does not fit the file name {output!r}")
    return fmt


def write_file(output: str, write: Callable[[IO[bytes]], None], *, force: bool = False) -> None:
    """Write a file through ``write``: to stdout for ``-``, else atomically.

    An existing file is replaced only with ``force``; a folder that does not exist or
    cannot be written raises :class:`ProtocolFileError` and leaves nothing behind.
    """
    if output == "-":
        write(sys.stdout.buffer)
        sys.stdout.buffer.flush()
        return
    target = Path(output)
    if target.is_dir():
        raise ProtocolFileError(f"{output!r} is a folder, not a file name")
    if target.exists() and not force:
        raise ProtocolFileError(f"{output!r} exists; give --force to overwrite it")
    folder = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=".yatzy-", suffix=target.suffix, dir=folder)
    except OSError as exc:
        raise ProtocolFileError(f"cannot write {output!r}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.chmod(tmp, 0o666 & ~_umask())
        if force:
            os.replace(tmp, target)
        else:
            # A hard link fails if the name appeared meanwhile: no overwrite race.
            os.link(tmp, target)
            os.unlink(tmp)
    except FileExistsError:
        Path(tmp).unlink(missing_ok=True)
        raise ProtocolFileError(f"{output!r} exists; give --force to overwrite it") from None
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ProtocolFileError(f"cannot write {output!r}: {exc.strerror}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
