"""Hypothesis strategies for the values every draft's documents are made of: text with the
characters that make length counting and escaping interesting, and any JSON value (for a member
whose type the draft does not state, or for unknown members). Each draft's ``strategies`` module
builds its documents and its named breaks on these."""

from __future__ import annotations

from hypothesis import strategies as st

#: Characters that make length counting interesting: accents (precomposed and combining),
#: CJK, Hangul, RTL, zero-width joiner, no-break space, and astral ones (two UTF-16 units).
NOTABLE = "éüßøñçЖжλ中文日本語한국어עבריתالعربية\u0301\u200d\u00a0🙂😀𝄞𠜎𝒜"
CHARS = st.one_of(st.characters(codec="utf-8"), st.sampled_from(NOTABLE))


def text(lo: int = 0, hi: int = 24) -> st.SearchStrategy[str]:
    """Text of lo..hi code points, any of them valid UTF-8, the notable ones often."""
    return st.text(CHARS, min_size=lo, max_size=hi)


def words(*choices: str) -> st.SearchStrategy[str]:
    return st.sampled_from(choices)


SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**63),
                   st.floats(allow_nan=False, allow_infinity=False), text())
#: Any JSON value: a few levels of arrays and objects over the scalars.
ANY_JSON = st.recursive(SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(text(0, 8), inner, max_size=3)), max_leaves=6)
