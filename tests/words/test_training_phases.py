"""The Train view's words (words/training.py, through train/narrate.py): each phase line states
only what the run on screen measured: a bar passed only when it was, a drop only once it came."""

from __future__ import annotations

import pytest

from attnlab.train.catalog import advance, begin, start
from attnlab.train.narrate import checkpoint_line, phase_line, summary_lines
from attnlab.words import training as words
from attnlab.words.numfmt import num


def _steps(name: str, n: int, seed: int = 0):
    return list(start(name, steps=n, seed=seed))


def test_the_lookup_says_the_bar_is_passed_only_when_it_is() -> None:
    steps = _steps("lookup", 60)
    for k in (0, 5, 27, 28, 60):
        line = phase_line("lookup", steps[: k + 1])
        river = steps[k].values["scaled.weight_river"]
        assert num(river) in line
        if k == 0:
            assert line.startswith("Step 0, before any update")
        else:
            assert ("above 0.6: bank now reads mostly river" in line) == (river > 0.6)
            assert ("not yet above 0.6" in line) == (river <= 0.6)


def test_the_induction_line_names_a_drop_only_after_one() -> None:
    early = _steps("induction", 8)
    assert "has not fallen below log V / 2" in phase_line("induction", early)
    assert "fell below" not in phase_line("induction", early)
    line = words.induction_phase(
        step=400, two=0.9, one=2.5, log_vocab=3.18, drop_at=325, one_min=2.46
    )
    assert "It fell below log V / 2 at step 325" in line and "2.46" in line


def test_sqrt_dk_quotes_every_divisors_numbers() -> None:
    steps = _steps("sqrt-dk", 3)
    line = phase_line("sqrt-dk", steps)
    for name in ("Scaled", "No √dₖ", "T=2", "T=32"):
        assert name in line
    assert num(steps[-1].values["unscaled.entropy"]) in line


def test_a_checkpoint_line_is_its_best_scores_or_nothing() -> None:
    _, got = advance(begin("induction", steps=2), 1)
    ck = got[0].checkpoint
    assert ck is not None and checkpoint_line(ck).startswith("At this checkpoint: ")
    toy = _steps("lookup", 1)[0].checkpoint
    assert toy is not None and checkpoint_line(toy) == ""


@pytest.mark.parametrize("name", ["lookup", "sqrt-dk", "induction"])
def test_a_run_stopped_early_is_summarised_as_far_as_it_went(name: str) -> None:
    steps = _steps(name, 4)[:3]  # stopped after step 2
    lines = summary_lines(name, steps)
    assert lines and all(isinstance(x, str) and x for x in lines)
    if name != "sqrt-dk":
        assert "in 2 steps" in lines[0]


def test_every_label_the_view_fills_has_its_fields() -> None:
    assert "{step}" in words.PAGE["running"] and "{steps}" in words.PAGE["at_step"]
    assert words.PAGE["stopped"].format(step=7).startswith("Stopped at step 7")
    assert words.variant_name("unscaled") == "No √dₖ" and words.variant_name("T=2") == "T=2"


def test_the_sqrt_dk_summary_quotes_the_runs_own_late_gradients() -> None:
    """Issue 25, item 1: the words said a saturated row passes almost no gradient back while the
    curve showed its spikes; now each divisor's median and largest late gradient are quoted, as
    the run measured them, and the verdict follows from those numbers."""
    import numpy as np

    steps = _steps("sqrt-dk", 300)
    lines = summary_lines("sqrt-dk", steps)
    late = steps[-30:]
    for name, line in zip(("scaled", "unscaled", "T=2", "T=32"), lines, strict=False):
        g = [s.values[f"{name}.grad_norm"] for s in late]
        assert line.startswith(words.variant_name(name) + ":")
        assert f"its median was {np.median(g):.2g} and its largest {max(g):.2g}" in line
    verdict = lines[-1]
    scaled_big = max(s.values["scaled.grad_norm"] for s in late)
    assert f"a largest of {scaled_big:.2g}" in verdict
    for name in ("unscaled", "T=2"):  # the two that end one-hot on the wrong key
        g = [s.values[f"{name}.grad_norm"] for s in late]
        clause = verdict.split(f"{words.variant_name(name)} median ")[1].split(";")[0]
        assert clause.startswith(f"{np.median(g):.2g}, largest {max(g):.2g}:")
        # each divisor's own verdict: T=2's largest (0.11 at seed 0) is below Scaled's 0.88
        assert ("more than Scaled's largest" in clause) == (max(g) > scaled_big), clause


def test_the_verdict_claims_only_what_its_numbers_show() -> None:
    quiet = words.sqrt_dk_verdict(late_steps=3, scaled=(1e-3, 0.5), saturated={"T=2": (1e-9, 0.1)})
    assert "almost nothing passes back" in quiet and "yet" not in quiet
    loud = words.sqrt_dk_verdict(late_steps=3, scaled=(1e-3, 0.5), saturated={"T=2": (0.1, 9.0)})
    assert "did not stop the gradient" in loud
    both = words.sqrt_dk_verdict(
        late_steps=3, scaled=(1e-3, 0.5), saturated={"unscaled": (1e-9, 9.0), "T=2": (1e-9, 0.1)}
    )
    assert "No √dₖ median 1e-09, largest 9: almost nothing on most steps, yet more" in both
    assert "T=2 median 1e-09, largest 0.1: almost nothing passes back" in both
    assert words.sqrt_dk_verdict(late_steps=3, scaled=(1, 1), saturated={}).startswith("No divisor")


def test_t2_and_t32_are_related_to_scaleds_divisor() -> None:
    line = words.sqrt_dk_divisors(d_k=64, divisors={"scaled": 8.0, "T=2": 2.0, "T=32": 32.0})
    assert "√dₖ = √64 = 8" in line
    assert "T=2 divides by 2 (scores 4 times Scaled's)" in line
    assert "T=32 divides by 32 (scores 1/4 of Scaled's)" in line


@pytest.mark.slow
def test_the_induction_words_name_what_the_run_formed() -> None:
    """Issue 25, item 4: seed 0 forms a duplicate-token head in layer 0, not a previous-token
    one; the words say so from the run's own scores, never the textbook circuit."""
    from attnlab.train.narrate import best_scores

    steps = _steps("induction", 500)
    ck = [s.checkpoint for s in steps if s.checkpoint is not None][-1]
    best = best_scores(ck)
    text = summary_lines("induction", steps)[-1]
    (dh, dv), (ph, pv) = best["duplicate"], best["previous"]
    if dv > pv:
        assert f"duplicate-token head ({dh}, {num(dv)}), not a previous-token head" in text
        assert f"{ph}'s, {num(pv)}" in text
    if pv < words.PREVIOUS_BAR:
        assert "this is not the usual previous-token + induction pair" in text
        assert "Olsson" not in text
    assert checkpoint_line(ck).endswith(words.heads_formed(best)[-1])


def test_a_formed_pair_is_named_only_when_its_scores_say_so() -> None:
    pair = {"previous": ("L0H1", 0.9), "duplicate": ("L0H0", 0.1), "induction": ("L1H0", 0.8)}
    said = " ".join(words.heads_formed(pair))
    assert "previous-token head (L0H1, 0.9)" in said and "Olsson" in said
    early = {"previous": ("L0H1", 0.14), "duplicate": ("L0H1", 0.09), "induction": ("L1H0", 0.08)}
    said = " ".join(words.heads_formed(early))  # step 0: 0.14 is no previous-token head yet
    assert "No layer-0 head has specialised" in said and "strongest head" not in said


def test_counts_and_bars_read_as_english() -> None:
    lines = summary_lines("lookup", _steps("lookup", 1))
    assert "in 1 step " in lines[0] and "1 steps" not in lines[0]
    assert "never passed 0.6" in lines[0] and "passed 0.6 never" not in lines[0]
    assert "ended at" not in lines[0]  # the summary shows mid-run too
