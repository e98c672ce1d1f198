"""Issue 27: the terminal tables' rules. `explain`'s Tokens table had an unlabelled "───────"
rule after the ambiguity column (over the ◀ focus marks), and a rule or a row could be shorter
than its values where a token is wide in a terminal (本, 😀) or holds a mark of no width."""

from __future__ import annotations

import contextlib
import io

import pytest

from attnlab.cli.main import main
from attnlab.encode.terminal import table, width


def _explain(*argv: str) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["explain", *argv, "--color", "never"]) == 0
    return out.getvalue().splitlines()


def _block(lines: list[str], header_start: str) -> list[str]:
    """The table whose header line starts with `header_start`: header, rule, rows."""
    at = next(i for i, ln in enumerate(lines) if ln.strip().startswith(header_start))
    end = next((i for i in range(at, len(lines)) if not lines[i].strip()), len(lines))
    return lines[at:end]


def test_the_tokens_table_has_no_rule_without_a_header() -> None:
    head, rule, *rows = _block(_explain(), "token  geographic")
    assert rule.split() == ["─" * len(h) for h in head.split()], rule  # five rules, five names
    assert rows[-1].endswith("◀ focus")


def test_an_empty_header_gets_no_rule() -> None:
    assert table(["a", "b", ""], [["x", "1", "mark"]])[1] == "─  ─"


def test_width_counts_terminal_columns() -> None:
    assert [width(t) for t in ("bank", "本", "😀", "e\u0301", "|\u2060q|")] == [4, 2, 2, 1, 3]


@pytest.mark.usefixtures("smollm2")
def test_every_row_of_smollm2s_project_table_ends_under_its_rule() -> None:
    lines = _explain("--model", "smollm2", "Café 日本 bank", "--focus", "bank")
    head, rule, *rows = next(
        _block(lines[i:], "token")
        for i, ln in enumerate(lines)
        if "value v" in ln and "token" in ln
    )
    assert all(width(r) == width(rule) == width(head) for r in rows), [width(r) for r in rows]
    # the rule under "value v" is as wide as the widest value
    values = [r.rsplit("  ", 1)[-1].strip() for r in rows]
    assert len(rule.rsplit("  ", 1)[-1]) == max(map(width, [*values, "value v"]))
