"""One home per draft (issue #22): each draft's code is in ``conformance/<draft>/``, under the
same names in all five, and the core stays draft-agnostic.

* every draft's folder holds its suite (``conftest.py``, ``test_*.py``), ``reference_server``
  (its reference server or publisher: code, or the data the mock world serves),
  ``reference_client``, ``adapter`` (the client's harness adapter) and ``variants`` (its
  broken clients; its broken servers are data in ``fixtures/<draft>/mutants*.toml``);
* no module outside a draft's folder imports from a draft's folder, and no draft's module
  imports from another draft's: the core reaches a draft only through its profile (the
  registry that lists drafts: ``profiles/<draft>/profile.toml`` names the adapter, the
  variants, the world's handlers and companion server as data);
* each folder of the package says in its ``__init__.py`` docstring what it holds.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conformance import catalog

ROOT = Path(__file__).resolve().parents[1] / "conformance"
DRAFTS = catalog.available()
SAME_NAMES = ("__init__.py", "conftest.py", "reference_server.py", "reference_client.py", "adapter.py",
              "variants/__init__.py")


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in ``path``, those inside functions included; ``from
    conformance import woa`` is ``conformance.woa``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
            if node.module == "conformance":
                out += [(node.lineno, f"conformance.{a.name}") for a in node.names]
    return out


def _owner(path: Path) -> str:
    """The draft whose folder holds ``path``, or "core"."""
    first = path.relative_to(ROOT).parts[0]
    return first if first in DRAFTS else "core"


def _draft_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "conformance" and parts[1] in DRAFTS else None


def test_the_five_drafts_are_known() -> None:
    assert sorted(DRAFTS) == ["adp", "aid", "aidre", "aiendpoint", "woa"]


@pytest.mark.parametrize("draft", DRAFTS)
def test_a_draft_is_one_folder_with_the_same_names(draft: str) -> None:
    folder = ROOT / draft
    missing = [name for name in SAME_NAMES if not (folder / name).is_file()]
    assert not missing, f"conformance/{draft}/ lacks {missing}"
    assert list(folder.glob("test_*.py")), f"conformance/{draft}/ holds no suite"
    profile = catalog.load(draft)
    assert profile.client is not None
    assert profile.client.adapter == f"conformance.{draft}.adapter"
    assert profile.client.variants == f"conformance.{draft}.variants"


@pytest.mark.parametrize("draft", DRAFTS)
def test_each_reference_server_names_its_site_and_variants(draft: str) -> None:
    """``reference_server.REFERENCE`` is the built-in target's reference (code or data alike)."""
    import importlib

    from conformance.world.site import load_mutants

    module = importlib.import_module(f"conformance.{draft}.reference_server")
    assert module.REFERENCE.draft == draft and module.REFERENCE.site() is not None
    assert set(module.REFERENCE.variants()) == set(load_mutants(draft)) and module.REFERENCE.variants()


def test_no_module_reaches_into_another_drafts_folder() -> None:
    crossings = []
    for path in sorted(ROOT.rglob("*.py")):
        owner = _owner(path)
        for line, module in _imports(path):
            target = _draft_of(module)
            if target is not None and target != owner:
                crossings.append(f"conformance/{path.relative_to(ROOT).as_posix()}:{line} ({owner}) imports {module}")
    assert not crossings, ("the core reaches a draft only through its profile, and a draft never another's:\n"
                           + "\n".join(crossings))


def test_the_import_scan_can_fail(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("from conformance import woa\ndef f():\n    import conformance.aid.record\n"
                      "    from conformance.adp.reference_server import site\n", "utf-8")
    assert [m for _, m in _imports(sample) if _draft_of(m)] == ["conformance.woa", "conformance.aid.record",
                                                                "conformance.adp.reference_server"]


def test_each_folder_says_what_it_holds() -> None:
    for init in sorted(ROOT.rglob("__init__.py")):
        if "__pycache__" in init.parts:
            continue
        doc = ast.get_docstring(ast.parse(init.read_text("utf-8")))
        assert doc and len(doc.split()) >= 8, f"conformance/{init.relative_to(ROOT).as_posix()}: no docstring " \
                                              "saying what the folder holds"


def test_no_folder_of_the_old_layout_is_back() -> None:
    assert not (ROOT / "agent").exists(), "conformance/agent/ is gone: a draft's client lives in its own folder"
