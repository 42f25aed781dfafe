"""The bytes that are hashed and signed: pbem's fast canonical JSON is RFC 8785's, byte for byte, on any
JSON value (the rfc8785 package as the oracle, and the RFC's own examples)."""

from __future__ import annotations

import json

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.record.canonical import canonical, pretty

SAFE = 2**53 - 1
keys = st.one_of(st.text(alphabet=st.characters(max_codepoint=127), max_size=8), st.text(max_size=4))
scalars = st.one_of(st.none(), st.booleans(), st.integers(-SAFE, SAFE), st.integers(), st.text(),
                    st.text(alphabet=st.characters(max_codepoint=0x7f)), st.floats(allow_nan=False, allow_infinity=False))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(keys, inner, max_size=5)), max_leaves=30)


def rfc(value: object) -> bytes | type[Exception]:
    try:
        return rfc8785.dumps(value)  # type: ignore[arg-type]
    except rfc8785.CanonicalizationError as exc:  # the oracle refuses (its errors share this base): so must we
        return type(exc)


def ours(value: object) -> bytes | type[Exception]:
    try:
        return canonical(value)
    except rfc8785.CanonicalizationError as exc:
        return type(exc)


@settings(max_examples=400)
@given(values)
@pytest.mark.slow
def test_any_json_value_gets_the_bytes_rfc8785_gives_it(value):
    assert ours(value) == rfc(value)


def test_the_strings_and_orders_of_rfc8785_examples():
    # RFC 8785 section 3.2.2.2 (strings) and 3.2.3 (property order: UTF-16 code units)
    assert canonical({"string": "\u20ac$\u000f\u000aA'\u0042\u0022\u005c\\\"/"}) == \
        b'{"string":"\xe2\x82\xac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
    assert canonical({"\u20ac": 1, "\r": 2, "\U0001f600": 3, "1": 4, "\u00fc": 5, "\ufb33": 6}) == \
        rfc8785.dumps({"\u20ac": 1, "\r": 2, "\U0001f600": 3, "1": 4, "\u00fc": 5, "\ufb33": 6})
    assert canonical({"b": [1, True, None, "\b\f\t\u2028\x7f"], "a": {}}) == \
        b'{"a":{},"b":[1,true,null,"\\b\\f\\t\xe2\x80\xa8\x7f"]}'
    for odd in ("\ud800", 2**53, -(2**53), 0.5, 1e21, {"k": (1, 2)}):  # the oracle's: refused, or its bytes
        assert ours(odd) == rfc(odd)


def blanked(text: str) -> str:
    """The depth check's view of a text, read a character at a time: each string literal (to its closing
    quote, a backslash escaping the character after it; or to the end of the text) as `""`."""
    out, i = [], 0
    while i < len(text):
        if text[i] != '"':
            out.append(text[i])
            i += 1
            continue
        i += 1
        while i < len(text) and text[i] != '"':
            i += 2 if text[i] == "\\" else 1
        i += 1
        out.append('""')
    return "".join(out)


@given(st.one_of(st.text(alphabet='"\\ab[]{}\n\u00e9', max_size=40), st.text(alphabet='"ab[]{}', max_size=40)))
def test_the_depth_check_blanks_exactly_the_string_literals(text):
    from pbem.record.canonical import _STRING, _blanked

    assert _STRING.sub('""', text) == _blanked(text) == blanked(text)


@pytest.mark.slow
@settings(max_examples=300)
@given(values)
def test_a_record_is_laid_out_exactly_as_json_indents_it(value):
    """pretty writes records itself (json's indented layout is its slow pure-Python encoder): the same
    text for any JSON value, floats and non-ASCII text included, and for keys json must convert."""
    assert pretty(value) == json.dumps(value, indent=2, sort_keys=True, ensure_ascii=True) + "\n"


def test_a_record_with_keys_json_converts_is_laid_out_as_json_does():
    for value in ({1: "a", 2: [True, None]}, {"k": {3: 1.5}}, [1.0, float("inf")], {"a": [{}, [], ""]}):
        assert pretty(value) == json.dumps(value, indent=2, sort_keys=True, ensure_ascii=True) + "\n"
