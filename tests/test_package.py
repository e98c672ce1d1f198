"""The public surface: what `import attnlab` offers."""

import attnlab


def test_all_is_what_it_should_be() -> None:
    assert set(attnlab.__all__) == {
        "AttnlabError", "EmptySequenceError", "Explanation", "FocusError", "LessonExplanation",
        "LessonOptions", "MaskError", "NonFiniteError", "ShapeError", "TooLongError", "Trace",
        "UnknownHeadError",
        "UnknownModeError", "UnknownModelError", "UnknownWordError", "WeightsError", "attend",
        "causal_mask", "entropy_bits", "explain_lesson", "load_model", "merge_heads",
        "save", "self_attend", "show", "softmax", "split_heads",
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
        "import attnlab, sys; print('safetensors' in sys.modules, 'attnlab.models' in sys.modules,"
        " 'attnlab.export' in sys.modules)"  # attnlab.save imports the exports when called
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "False"]


def test_the_console_script_names_a_callable_main() -> None:
    """pyproject's `attnlab = "module:function"` must name the CLI's function, not a module
    (after the CLI became a package, "attnlab.cli:main" named the module attnlab.cli.main)."""
    import importlib
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    target = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["scripts"]["attnlab"]
    module, _, name = target.partition(":")
    main = getattr(importlib.import_module(module), name)
    assert callable(main) and main(["vocab"]) == 0


def test_the_installed_command_runs() -> None:
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    script = Path(sys.executable).with_name("attnlab")
    command = str(script) if script.exists() else shutil.which("attnlab")
    assert command, "the attnlab command is not installed beside this Python"
    out = subprocess.run([command, "vocab"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "preset 'river': 'by the river bank'" in out.stdout
