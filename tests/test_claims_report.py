"""A claim test that fails says which sentence broke and what the page says instead."""

from __future__ import annotations

import pytest
from claims import nearest_passage

PAGE = ("Press Lock it. The middle ring swings to 90° in about two seconds, and the outer "
        "and inner rings then turn about the same axis.")


def test_a_missing_sentence_is_named_with_the_passage_that_replaced_it():
    with pytest.raises(AssertionError) as failure:
        assert "The middle ring swings to ±90° in about a second" in PAGE
    message = str(failure.value)
    assert "no longer says: 'The middle ring swings to ±90° in about a second'" in message
    assert "The middle ring swings to 90° in about two seconds" in message


def test_text_with_nothing_in_common_says_so():
    with pytest.raises(AssertionError) as failure:
        assert "zzzz" in PAGE
    assert f"nothing like it in the text ({len(PAGE)} characters)" in str(failure.value)


def test_the_nearest_passage_is_cut_round_the_match():
    near = nearest_passage("outer and inner rings", "x" * 500 + " the outer and inner rings " +
                           "y" * 500)
    assert "outer and inner rings" in near and len(near) < 120
