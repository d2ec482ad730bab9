"""Where the kit's data lives: the clause catalogs (``profiles/``) and built-in fixtures.

In a wheel they are carried inside the package as ``conformance/_data/``; in a source
checkout (or an editable install) they are the top-level folders of the repository.
The drafts themselves are never carried: see :func:`specs_dir`.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def _data_root() -> Path:
    packaged = _PACKAGE / "_data"
    if (packaged / "profiles").is_dir():
        return packaged
    checkout = _PACKAGE.parent
    if (checkout / "profiles").is_dir():
        return checkout
    raise RuntimeError(
        "adck cannot find its profiles/ folder: reinstall the package "
        "(pip install adck) or run from a source checkout"
    )


def profile_dir(draft: str) -> Path:
    """The profile folder of a draft: catalog, schemas, ambiguities."""
    return _data_root() / "profiles" / draft


def fixtures_dir(draft: str) -> Path:
    """The built-in fixtures of a draft: reference implementation and its mutants."""
    return _data_root() / "fixtures" / draft


def _shared(env: str, name: str) -> Path | None:
    """``$env`` if set (and then only it: a folder the user named is the one meant), else
    ``../shared/<name>`` beside the checkout; None when absent."""
    named = os.environ.get(env)
    candidate = Path(named) if named else _PACKAGE.parent.parent / "shared" / name
    return candidate if candidate.is_dir() else None


def specs_dir() -> Path | None:
    """The folder holding the drafts' texts, if there is one.

    The project does not carry the drafts. Self-tests read them from ``$ADCK_SPECS`` or
    from ``../shared/specs`` beside the checkout; ``None`` when neither exists.
    """
    return _shared("ADCK_SPECS", "specs")


def corpora_dir() -> Path | None:
    """The folder of real documents published by the drafts' authors (read-only, never copied)."""
    return _shared("ADCK_CORPORA", "corpora")
