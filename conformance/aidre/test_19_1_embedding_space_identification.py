"""§19.1 Embedding Space Identification: the members of each advertised embedding space.

Embedding spaces are the items of the discovery document's embedding_spaces array (24.1,
AMB-10); each member is checked for presence only, since the draft states no type (AMB-10).
"""

from __future__ import annotations

from conformance.aidre._spaces import each_space_includes
from conformance.document import Document
from conformance.outcomes import clause


@clause("AIDRE-19.1-02")
def test_19_1_space_includes_id(document: Document) -> None:
    """Each embedding space advertised by the server MUST include: * id"""
    each_space_includes(document, "id")


@clause("AIDRE-19.1-03")
def test_19_1_space_includes_dimensions(document: Document) -> None:
    """Each embedding space advertised by the server MUST include: * dimensions"""
    each_space_includes(document, "dimensions")


@clause("AIDRE-19.1-04")
def test_19_1_space_includes_distance(document: Document) -> None:
    """Each embedding space advertised by the server MUST include: * distance"""
    each_space_includes(document, "distance")


@clause("AIDRE-19.1-06")
def test_19_1_space_includes_normalized(document: Document) -> None:
    """It SHOULD also include: * normalized"""
    each_space_includes(document, "normalized")


@clause("AIDRE-19.1-07")
def test_19_1_space_includes_provider(document: Document) -> None:
    """It SHOULD also include: * provider"""
    each_space_includes(document, "provider")


@clause("AIDRE-19.1-08")
def test_19_1_space_includes_model(document: Document) -> None:
    """It SHOULD also include: * model"""
    each_space_includes(document, "model")


@clause("AIDRE-19.1-09")
def test_19_1_space_includes_revision(document: Document) -> None:
    """It SHOULD also include: * revision"""
    each_space_includes(document, "revision")
