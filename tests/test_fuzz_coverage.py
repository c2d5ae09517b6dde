"""Every public function and method of lessons_lib, and the server's input-facing ones, is
called by a fuzzer or left out with a reason (tests/fuzz_coverage.py)."""

from __future__ import annotations

import fuzz_coverage


def test_every_public_function_and_method_is_fuzzed():
    assert fuzz_coverage.uncovered() == []


def test_what_is_left_out_is_named_with_a_reason():
    found = fuzz_coverage.public_callables()
    assert len(found) > 500          # the walk reaches every module (596 when written)
    assert set(fuzz_coverage.EXEMPT) <= set(found), "an exemption names nothing"
    assert len(fuzz_coverage.EXEMPT) <= 8, "exempt few by name; fuzz the rest"
    left_out = fuzz_coverage.exempted()
    assert all(isinstance(why, str) and len(why) > 10 for why in left_out.values())
    # the panels, views, drawing helpers and text cache are fuzzed, not exempted
    kinds = ("panel.", "view.", "fastdraw.painter.", "textcache.TextCache.clear")
    fuzzed = [n for n in found if any(k in n for k in kinds) and n not in left_out]
    assert len(fuzzed) > 60, len(fuzzed)
