"""Every bad argument to `attnlab` is one line on stderr and exit 2, never a traceback (issue 9).

The listed cases are the reproductions of issue 9 and their neighbours; the property test
throws crafted argument lists (unknown words, empty text, NaN and huge numbers, odd digits,
dashes) at `explain` and holds the same line for every one.
"""

import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnlab.cli.main import main

HUGE = "9" * 5000
TOY_CASES = [
    ["explain", "--focus", "²"],
    ["explain", "--read", "²,0"],
    ["explain", "--read", "0,²"],
    ["explain", "--focus=--5"],
    ["explain", "--focus", HUGE],
    ["explain", "--focus", "-" + HUGE],
    ["explain", "--read", f"{HUGE},0"],
    ["explain", "--focus", "٣"],  # an Arabic-Indic three: a digit to str.isdigit
    ["explain", "--focus", "7"],
    ["explain", "--focus", ""],
    ["explain", ""],
    ["explain", "   "],
    ["explain", "by the river dragon"],
    ["explain", "bank " * 13],
    ["explain", "--temperature", "nan"],
    ["explain", "--temperature", "inf"],
    ["explain", "--temperature", "-1"],
    ["explain", "--temperature", "1e400"],
    ["explain", "--temperature", "1e-320"],
    ["explain", "--temperature", "x"],
    ["explain", "--mode", "unscaled", "--temperature", "2"],
    ["explain", "--shuffle", HUGE],
    ["explain", "--shuffle", "-1"],
    ["explain", "--heads", "3"],
    ["explain", "--layer", "1"],
    ["explain", "--head", HUGE],
    ["explain", "--set", "river=nan,0,0,0"],
    ["explain", "--set", "river=1e400,0,0,0"],
    ["explain", "--set", "river=1,2"],
    ["explain", "--set", "dragon=1,0,0,0"],
    ["explain", "--set", "river"],
    ["explain", "--read", "1"],
    ["explain", "--read", "1,2,3"],
    ["explain", "--mode", "sideways"],
    ["explain", "--dragon"],
    ["dragon"],
    [],
    ["cost", "--max-n", HUGE],
    ["cost", "--max-n", "1"],
    ["cost", "--d", "0"],
    ["cost", "--d", "-5"],
    ["cost", "--d", "x"],
]
MODEL_CASES = [
    ["explain", "--model", "minilm", "--focus", "²", "by the river bank"],
    ["explain", "--model", "minilm", "--focus=--5", "by the river bank"],
    ["explain", "--model", "minilm", "--focus", HUGE, "by the river bank"],
    ["explain", "--model", "minilm", "--focus", "99", "by the river bank"],
    ["explain", "--model", "minilm", "--layer", "6", "by the river bank"],
    ["explain", "--model", "minilm", "--head", "-1", "by the river bank"],
    ["explain", "--model", "minilm", "--temperature", "2", "by the river bank"],
    ["explain", "--model", "minilm", ""],
    ["explain", "--model", "minilm", "bank " * 600],  # past MiniLM's 512 tokens
    ["heads", "--focus", "²", "by the river bank"],
    ["heads", "--focus", HUGE, "by the river bank"],
    ["heads", "--focus", "dragon", "by the river bank"],
    ["heads", ""],
]
NO_MODEL_CASES = [
    ["explain", "--model", "/nowhere/at/all", "text"],
    ["explain", "--model", "gpt5", "text"],
    ["explain", "--model", "", "text"],
    ["heads", "--model", "/nowhere/at/all", "text"],
]


def one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(argv)
    _, err = capsys.readouterr()
    assert code == 2, (argv[:4], err)
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("attnlab"), err
    assert len(err) < 2200
    return err


@pytest.mark.parametrize("argv", TOY_CASES, ids=lambda a: " ".join(a)[:40])
def test_a_bad_toy_argument_is_one_line_and_exit_2(argv: list[str], capsys) -> None:
    one_line_exit_2(argv, capsys)


@pytest.mark.usefixtures("minilm")
@pytest.mark.parametrize("argv", MODEL_CASES, ids=lambda a: " ".join(a)[:50])
def test_a_bad_model_argument_is_one_line_and_exit_2(argv: list[str], capsys) -> None:
    err = one_line_exit_2(argv, capsys)
    if "²" in argv:
        assert "'²' is not a token of the text" in err


@pytest.mark.parametrize("argv", NO_MODEL_CASES, ids=lambda a: " ".join(a)[:50])
def test_a_missing_model_folder_is_one_line_and_exit_2(argv: list[str], capsys) -> None:
    one_line_exit_2(argv, capsys)


def test_the_focus_messages_name_the_problem(capsys) -> None:
    assert "focus '²' is not in the sentence" in one_line_exit_2(
        ["explain", "--focus", "²"], capsys
    )
    assert "has 5000 digits" in one_line_exit_2(["explain", "--focus", HUGE], capsys)
    assert "--read '²,0'" in one_line_exit_2(["explain", "--read", "²,0"], capsys)


def test_an_unexpected_error_is_one_line_exit_1_not_a_traceback(monkeypatch, capsys) -> None:
    import attnlab.lesson.explain as explain

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("something inside broke\nacross two lines")

    monkeypatch.setattr(explain, "explain_lesson", broken)
    assert main(["explain"]) == 1
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "unexpected RuntimeError: something inside broke across two lines" in err
    monkeypatch.setenv("ATTNLAB_TRACEBACK", "1")
    with pytest.raises(RuntimeError):
        main(["explain"])


def test_the_installed_command_prints_no_traceback_for_issue_9s_cases() -> None:
    """The same through a real process (the console entry point), for the cases of issue 9."""
    for argv in (["explain", "--focus", "²"], ["explain", "--read", "²,0"],
                 ["explain", "--focus=--5"], ["explain", "--focus", HUGE]):  # fmt: skip
        r = subprocess.run([sys.executable, "-m", "attnlab", *argv],
                           capture_output=True, text=True, timeout=60)  # fmt: skip
        assert r.returncode == 2, r.stderr
        assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.stderr


WORDS = ["by", "the", "river", "bank", "dragon", "", " ", "²", "--5", "-1", "0", "3", "99",
         "nan", "inf", "-inf", "1e400", "5e-324", "x", "river=1,0,0,0", "river=nan,0,0,0",
         "0,0", "²,1", ",", "=", "bank,river", HUGE[:40]]  # fmt: skip
OPTIONS = ["--focus", "--read", "--temperature", "--shuffle", "--heads", "--set", "--set-q",
           "--mode", "--axis", "--positions", "--layer", "--head", "--causal", "--sweep",
           "--json"]  # fmt: skip


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(argv=st.lists(st.one_of(st.sampled_from(OPTIONS), st.sampled_from(WORDS),
                               st.text(max_size=6)), max_size=6))  # fmt: skip
def test_fuzzed_explain_arguments_never_leak_a_traceback(argv: list[str], capsys) -> None:
    code = main(["explain", *argv])
    out, err = capsys.readouterr()
    assert code in (0, 2), (argv, err)
    assert "Traceback" not in err
    if code == 2:
        assert err.count("\n") == 1, (argv, err)
    else:
        assert out and not err
