"""The public surface: what `import attnlab` offers."""

import attnlab


def test_all_is_what_it_should_be() -> None:
    assert set(attnlab.__all__) == {
        "AttnlabError", "EmptySequenceError", "Explanation", "FocusError", "LessonExplanation",
            "LessonOptions", "MaskError",
        "NonFiniteError", "ShapeError", "TooLongError", "Trace", "UnknownHeadError",
        "UnknownModeError", "UnknownModelError", "UnknownWordError", "WeightsError", "attend",
        "causal_mask", "entropy_bits", "explain_lesson", "load_model", "merge_heads",
        "self_attend", "softmax", "split_heads",
    }  # fmt: skip
    for name in attnlab.__all__:
        assert hasattr(attnlab, name), name


def test_every_error_is_an_attnlab_error() -> None:
    for name in attnlab.__all__:
        obj = getattr(attnlab, name)
        if isinstance(obj, type) and name.endswith("Error"):
            assert issubclass(obj, attnlab.AttnlabError)


def test_importing_attnlab_does_not_import_the_models_extra() -> None:
    import subprocess
    import sys

    code = (
        "import attnlab, sys; print('safetensors' in sys.modules, 'attnlab.models' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
