"""`attnlab lab one-projection`: both sentences, bank's |q|² beside its q·k, and a bad role."""

from attnlab.cli.main import main


def test_one_projection_prints_both_sentences_and_the_context_line(capsys) -> None:
    assert main(["lab", "one-projection"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "by the river bank: the row of bank" in out and "at the savings bank" in out
    assert "|q|² = 10.58" in out and "own key is 1.38" in out
    assert "moves by 1.94 with three matrices and by 0.13 with one" in out
