"""Issue 27: every option a newcomer reads in `--help` says what it does and what its default
is, and a refused value names the option the newcomer typed, not an internal parameter."""

from __future__ import annotations

import argparse

import pytest

from attnlab.cli.main import _parser, main

COMMANDS = ("explain", "heads", "export", "serve", "next", "vocab", "cost", "mask")


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    for action in _parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("attnlab has no subcommands")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_of_every_command_has_a_help_text(command: str) -> None:
    p = _subparsers()[command]
    silent = [a.option_strings or [a.dest] for a in p._actions if not a.help]
    assert not silent, f"attnlab {command}: no help for {silent}"


def test_serve_says_what_host_and_port_are() -> None:
    helps = {a.dest: a.help or "" for a in _subparsers()["serve"]._actions}
    assert "127.0.0.1" in helps["host"] and "this machine only" in helps["host"]
    assert "default 8000" in helps["port"]


@pytest.mark.parametrize(("command", "default"), [("next", "smollm2"), ("heads", "minilm"),
                                                   ("mask", "minilm")])  # fmt: skip
def test_a_command_that_needs_a_model_names_its_default(command: str, default: str) -> None:
    p = _subparsers()[command]
    (model,) = [a for a in p._actions if "--model" in a.option_strings]
    assert model.default == default
    assert model.help is not None
    assert f"default: {default}" in model.help
    assert "instead of the toy" not in model.help  # there is no toy to fall back to


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["cost", "--max-n", "99999"], "--max-n must be 4 to 4096, got 99999"),
        (["cost", "--max-n", "2"], "--max-n must be 4 to 4096, got 2"),
        (["cost", "--d", "0"], "--d must be 1 to 512, got 0"),
        (["export", "--beat", "0", "-o", "never-written.html"], "--beat is a step from 1 to 6"),
    ],
)
def test_a_refused_value_names_the_option_typed(argv: list[str], says: str, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err
    for internal in ("min_n", "per_octave", "max_n=", "between 0 and 5"):
        assert internal not in err
