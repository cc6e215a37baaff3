"""Reading an untrusted zip with every size known and capped before anything is decompressed.

A zip's sizes are claims made by its author. ``zipfile`` believes the central directory's
size (it reads that many bytes and makes one object per entry), and a member's declared
size is only checked after it has been inflated. So, before ``zipfile`` sees the file, the
end-of-central-directory record is read and its directory size capped; every member's
declared size is checked against its own cap before it is opened; and a member is read
with a hard limit, so a header that lies about the size cannot make the reader allocate
more than the cap. Only stored and deflated members are accepted, never encrypted ones.

Every problem is a :class:`ZipRefused` naming it in one line; the caller adds the file name.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import BinaryIO

MAX_DIRECTORY_BYTES = 64 * 2**10
"""Central directory of at most 64 KiB (a rams checkpoint's is under 200 bytes): bounds what ``zipfile`` parses."""

COMPRESSIONS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}
ENCRYPTED_FLAG = 0x1


class ZipRefused(ValueError):
    """A zip (or one of its members) that is malformed, oversized or not what was expected."""


def _check_directory(source: BinaryIO, what: str) -> None:
    """Refuse a zip whose central directory (what ``zipfile`` parses into one object per entry) is large."""
    end = zipfile._EndRecData(source)  # the very reader ZipFile uses (zip64 included): we bound what it will read
    if end is None:
        raise ZipRefused(f"{what} is not a zip file (no end-of-central-directory record)")
    size = int(end[zipfile._ECD_SIZE])
    if size > MAX_DIRECTORY_BYTES:
        raise ZipRefused(f"{what} has a central directory of {size} bytes (limit {MAX_DIRECTORY_BYTES})")


def _open(source: str | Path | BinaryIO, what: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(source)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError) as err:
        raise ZipRefused(f"{what} is not a readable zip file ({err})") from None


def open_bounded(path: Path, caps: Mapping[str, int]) -> zipfile.ZipFile:
    """Open ``path`` if its directory is small, its members are exactly among ``caps`` (name -> most bytes
    once uncompressed), each named once, stored or deflated, unencrypted and declared within its cap."""
    with open(path, "rb") as raw:
        _check_directory(raw, "the file")
    zf = _open(path, "the file")
    try:
        check_members(zf.infolist(), caps)
    except ZipRefused:
        zf.close()
        raise
    return zf


def check_stored_archive(data: bytes, what: str, cap: int, pickle_cap: int) -> None:
    """``data`` is a zip of stored (uncompressed) members totalling at most ``cap`` bytes, its ``.pkl`` records
    at most ``pickle_cap``: what ``torch.save`` writes. Checked before ``torch.load``, whose own zip reader
    would inflate a deflated record blindly, and whose unpickler turns each byte of a pickle into up to one
    object (2 bytes per empty dict: 30 MB of pickle would be a gigabyte of dicts)."""
    source = io.BytesIO(data)
    _check_directory(source, what)
    with _open(source, what) as inner:
        infos = inner.infolist()
    packed = [i.filename for i in infos if i.compress_type != zipfile.ZIP_STORED]
    if packed:
        raise ZipRefused(f"{what} holds compressed records {packed[:3]}; torch.save stores its records")
    pickles = [i for i in infos if i.filename.endswith(".pkl") and i.file_size > pickle_cap]
    if pickles:
        raise ZipRefused(f"{what} holds a pickle of {pickles[0].file_size} bytes (limit {pickle_cap}); "
                         "a tensor file's is a few KiB")
    total = sum(i.file_size for i in infos)
    if total > cap:
        raise ZipRefused(f"{what} declares {total} bytes of records (limit {cap})")


def check_members(infos: list[zipfile.ZipInfo], caps: Mapping[str, int]) -> None:
    """The declared directory: known names, once each, stored or deflated, not encrypted, within their caps."""
    names = [info.filename for info in infos]
    unknown = sorted(set(names) - set(caps))
    if unknown:
        raise ZipRefused(f"unexpected members {unknown}; expected only {sorted(caps)}")
    if len(set(names)) != len(names):
        raise ZipRefused(f"a member is named twice ({sorted(names)})")
    for info in infos:
        if info.compress_type not in COMPRESSIONS:
            raise ZipRefused(f"{info.filename} uses compression method {info.compress_type}; "
                             f"only {' or '.join(COMPRESSIONS.values())} is read")
        if info.flag_bits & ENCRYPTED_FLAG:
            raise ZipRefused(f"{info.filename} is encrypted")
        if info.file_size > caps[info.filename]:
            raise ZipRefused(f"{info.filename} declares {info.file_size} bytes uncompressed "
                             f"(limit {caps[info.filename]})")


def read_bounded(zf: zipfile.ZipFile, name: str, cap: int) -> bytes:
    """Member ``name``, inflated in a stream that stops at ``cap`` bytes whatever its header says."""
    try:
        with zf.open(name) as member:
            data = member.read(cap + 1)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError) as err:
        raise ZipRefused(f"{name} is corrupt ({type(err).__name__}: {err})") from None
    if len(data) > cap:
        raise ZipRefused(f"{name} inflates past {cap} bytes (its header understates it)")
    return data
