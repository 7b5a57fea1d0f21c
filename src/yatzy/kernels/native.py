"""The solve kernel as native code that loads without importing numba.

A fresh ``yatzy solve yatzy`` spends about a second of CPU time solving, and
numba's start would add about 0.45 s more: importing numba, then loading even a
cached kernel registers every typing and lowering numba knows.  So the solve
kernel (:func:`yatzy.kernels.solve.solve_masks`) is compiled once by numba as a
C function of one argument (:func:`yatzy.kernels.native_entry.native_entry`), its
machine code is kept as an object file, and later processes load that file with
llvmlite, which numba itself uses for the same job (about 0.05 s).  The call goes
through ctypes, which releases the GIL, so the driver's threads run in parallel.

The object file lives with the numba kernels' cache, in the directory of this
version of the package's sources (:func:`yatzy.kernels.cache.cache_dir`, named by
:func:`yatzy.kernels.cache.source_digest`), under a name that holds a digest of
numba's and llvmlite's versions, the Python version and the processor (name and
features), so a changed kernel or machine never loads old code.  The machine code
calls a few of numba's C helpers (error reporting, memory for small scratch
arrays): they are registered for the linker exactly as numba registers them, from
numba's own extension modules, and a file whose every external symbol cannot be
resolved is not loaded.  Anything that
goes wrong falls back to numba (``kernel`` returns ``None``).
"""

from __future__ import annotations

import builtins
import contextlib
import ctypes
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import struct
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from yatzy.kernels.cache import cache_dir

Kernel = Callable[[npt.NDArray[np.int64]], None]

# The arrays of solve_masks in order, with element type (None: the table's float
# type) and number of dimensions, then its integers.  The words of a call are each
# array's address and shape, then the integers; native_entry reads them in order.
ARRAYS: tuple[tuple[str, str | None, int], ...] = (
    ("masks", "int64", 1),
    ("V", None, 3),
    ("idx_of_mask", "int32", 1),
    ("allowed", "int64", 1),
    ("score", "int32", 2),
    ("box_face", "int32", 1),
    ("joker_pts", "int32", 1),
    ("hi_of_filled_upper", "int32", 1),
    ("lo_of_open_upper", "int32", 1),
    ("add", "int32", 2),
    ("sub", "int32", 2),
    ("nsub", "int32", 1),
    ("roll_prob", "float64", 1),
    ("yatzy_face", "int32", 1),
    ("scratch_a", None, 2),
    ("scratch_b", None, 2),
    ("scratch_c", None, 2),
    ("scratch_out", "float64", 2),
)
SCALARS = ("ybox", "joker_mode", "lower_bits", "threshold", "levels", "saved", "lr_chance")
WORDS = sum(1 + ndim for _, _, ndim in ARRAYS) + len(SCALARS)

_FORMAT = b"yatzy-native-1"

_kernels: dict[str, Kernel | None] = {}
_lock = threading.Lock()  # one thread loads or builds (the web app solves in threads)
# Engines and compiled functions whose machine code the kernels run: kept alive.
_alive: list[object] = []
_symbols: dict[str, int] = {}


def words(arrays: Sequence[npt.NDArray[Any]], scalars: Sequence[int], dtype: str) -> Any:
    """The int64 words of one call: the arrays (C-contiguous, as in :data:`ARRAYS`)
    by address and shape, then the integers.  The arrays must outlive the call."""
    if len(arrays) != len(ARRAYS) or len(scalars) != len(SCALARS):
        raise ValueError("solve kernel: wrong number of arguments")
    out: list[int] = []
    for array, (name, kind, ndim) in zip(arrays, ARRAYS, strict=True):
        if array.dtype != np.dtype(kind or dtype) or array.ndim != ndim:
            raise ValueError(f"solve kernel: {name} is {array.dtype}[{array.ndim}]")
        if not array.flags.c_contiguous:
            raise ValueError(f"solve kernel: {name} is not contiguous")
        out.append(array.ctypes.data)
        out.extend(array.shape)
    out.extend(int(s) for s in scalars)
    return np.array(out, dtype=np.int64)


def kernel(dtype: str) -> Kernel | None:
    """The native solve kernel for ``dtype`` (``"float32"`` or ``"float64"``): loaded
    from its object file, else compiled by numba now (and the file written for the
    next process); ``None`` where neither works (the caller then uses numba)."""
    with _lock:
        if dtype not in _kernels:
            found: Kernel | None = None
            # A faster start is all this buys: any failure just means numba's way
            # (remembered, so a failed build is not tried again in this process).
            with contextlib.suppress(Exception):
                found = _load(dtype)
            if found is None:
                with contextlib.suppress(Exception):
                    found = _build(dtype)
            _kernels[dtype] = found
        return _kernels[dtype]


def _llvm() -> Any:
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    return llvm


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(name)
    return Path(next(iter(spec.submodule_search_locations)))


def _paths(dtype: str, llvm: Any) -> tuple[Path, Path]:
    """The object file and its description for ``dtype`` on this machine."""
    # The sources are in the directory's name (cache_dir); the rest of the key is here.
    h = hashlib.sha256(_FORMAT + dtype.encode())
    for package in ("numba", "llvmlite"):
        h.update((_package_dir(package) / "_version.py").read_bytes())
    h.update(sys.version.encode())
    h.update(llvm.get_process_triple().encode())
    h.update(llvm.get_host_cpu_name().encode())
    h.update(llvm.get_host_cpu_features().flatten().encode())
    for var in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "NUMBA_OPT"):
        h.update(f"{var}={os.environ.get(var, '')};".encode())
    base = cache_dir() / f"native-solve-{dtype}-{h.hexdigest()[:20]}"
    return base.with_suffix(".o"), base.with_suffix(".json")


def _extension(package: Path, dotted: str) -> ModuleType:
    """One of numba's extension modules, loaded from its file without numba."""
    name = dotted.rsplit(".", 1)[-1]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = package.joinpath(*dotted.split(".")[1:-1], name + suffix)
        if path.exists():
            loader = importlib.machinery.ExtensionFileLoader(name, str(path))
            spec = importlib.util.spec_from_file_location(name, path, loader=loader)
            if spec is None:
                break
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            return module
    raise ImportError(dotted)


def _register_symbols(llvm: Any) -> None:
    """numba's C helpers in the linker's symbol table, named as numba names them
    (``numba.core.base._load_global_helpers`` and ``numba.core.runtime.nrt``)."""
    if _symbols:
        return
    dotted = ("numba._helperlib", "numba._dynfunc", "numba.core.runtime._nrt_python")
    if "numba" in sys.modules:
        # numba's own modules, already initialised (loading them again would
        # reset the allocator numba's live arrays came from).  numba may still be
        # starting in another thread: the jit module's import waits for that start to end.
        import importlib

        from yatzy.kernels import jit  # noqa: F401

        helper, dynfunc, nrt = (importlib.import_module(d) for d in dotted)
    else:
        package = _package_dir("numba")
        helper, dynfunc, nrt = (_extension(package, d) for d in dotted)
        nrt.memsys_use_cpython_allocator()  # as numba does when it starts
    table: dict[str, int] = {"_Py_NoneStruct": id(None)}
    for module in (helper, dynfunc):
        for py_name, address in module.c_helpers.items():
            table["numba_" + py_name] = address
    for py_name, address in nrt.c_helpers.items():
        table[py_name if py_name.startswith("_") else "NRT_" + py_name] = address
    for obj in builtins.__dict__.values():
        if isinstance(obj, type) and issubclass(obj, BaseException):
            table["PyExc_" + obj.__name__] = id(obj)
    for name, address in table.items():
        llvm.add_symbol(name, address)
    _symbols.update(table)


def _load(dtype: str) -> Kernel | None:
    llvm = _llvm()
    obj_path, meta_path = _paths(dtype, llvm)
    if not obj_path.exists() or not meta_path.exists():
        return None
    meta = json.loads(meta_path.read_text())
    _register_symbols(llvm)
    process = ctypes.CDLL(None)
    for name in meta["undefined"]:
        # An unresolved symbol would abort the process inside LLVM: refuse instead.
        if name not in _symbols and not hasattr(process, name):
            return None
    machine = llvm.Target.from_default_triple().create_target_machine(jit=True)
    engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), machine)
    engine.add_object_file(llvm.ObjectFileRef.from_data(obj_path.read_bytes()))
    engine.finalize_object()
    address = engine.get_function_address(meta["symbol"])
    if not address:
        return None
    _alive.append(engine)
    return _c_function(address)


def _build(dtype: str) -> Kernel:
    from yatzy.kernels import native_entry

    entry = native_entry.native_entry(dtype)
    _alive.append(entry)
    with contextlib.suppress(Exception):
        _save(dtype, entry)
    return _c_function(entry.address)


def _save(dtype: str, entry: Any) -> None:
    """Write the compiled entry's machine code (with what it links to) for later."""
    llvm = _llvm()
    library = entry._library  # numba's code library: the linked, optimised module
    obj = library._codegen._tm.emit_object(library._final_module)
    undefined = _undefined_symbols(obj)
    obj_path, meta_path = _paths(dtype, llvm)
    obj_path.parent.mkdir(parents=True, exist_ok=True)
    meta = {"symbol": entry.native_name, "undefined": undefined}
    for path, data in ((obj_path, obj), (meta_path, json.dumps(meta).encode())):
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)


def _undefined_symbols(obj: bytes) -> list[str]:
    """The names an ELF64 object file needs from outside (its undefined symbols)."""
    if obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:
        raise ValueError("not a little-endian ELF64 object")
    (shoff,) = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize) for i in range(shnum)]
    names: list[str] = []
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != 2:  # SHT_SYMTAB
            continue
        strtab = sections[link][4]
        for at in range(offset, offset + size, entsize):
            name_at, _, _, shndx = struct.unpack_from("<IBBH", obj, at)
            if shndx == 0 and name_at:
                end = obj.index(b"\0", strtab + name_at)
                names.append(obj[strtab + name_at : end].decode())
    return sorted(set(names))


def _c_function(address: int) -> Kernel:
    function = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address)
    _alive.append(function)

    def call(args: npt.NDArray[np.int64]) -> None:
        if args.dtype != np.int64 or args.shape != (WORDS,):
            raise ValueError("solve kernel: the words are not int64[WORDS]")
        function(args.ctypes.data)

    return call
