"""Named exceptions for bad input. Every message quotes the offending values.

All derive from `AttnlabError`, so a front end (CLI, server) can catch one type and show the
message; `assert` is kept for internal invariants only.
"""

from __future__ import annotations


class AttnlabError(ValueError):
    """Base class: input that attnlab cannot work with, explained in the message.

    `field` names the input it concerns (a CLI option, an API parameter, a control on the
    page), so a host can show the message next to it; a subclass may set a default.
    """

    field: str | None = None

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        if field is not None:
            self.field = field


class ArgumentTypeError(AttnlabError, TypeError):
    """An argument of the wrong kind: None, a number where a text goes, a text where a count goes.

    Also a TypeError, so a caller that already catches TypeError for a wrong type keeps working.
    """


class ShapeError(AttnlabError):
    """Arrays whose shapes do not fit together (e.g. queries and keys of different widths)."""


class EmptySequenceError(AttnlabError):
    """A sequence with no tokens, so there is nothing to attend to."""

    field = "sentence"


class NonFiniteError(AttnlabError):
    """NaN or infinity in an input vector."""


class ScoreOverflowError(NonFiniteError):
    """Scores QKᵀ too large for floating point even in float64: the softmax would be NaN."""


class MaskError(AttnlabError):
    """A mask of the wrong shape, or one that leaves a query with no key to attend to."""

    field = "mask"


class UnknownModeError(AttnlabError):
    """A normalisation mode or softmax axis that does not exist."""

    field = "mode"


class UnknownWordError(AttnlabError):
    """A word outside the toy lesson's vocabulary."""

    field = "sentence"


class TooLongError(AttnlabError):
    """A text longer than the limit for this view."""

    field = "sentence"


class FocusError(AttnlabError):
    """A focus token that is not in the sentence."""

    field = "focus"


class MaskTokenError(AttnlabError):
    """A token that cannot be masked or dropped (the focus itself, a special token, none such)."""

    field = "mask"


class WeightsError(AttnlabError):
    """A weights folder that cannot be read: a missing file, tensor, shape or dtype, bad JSON."""

    field = "model"


class ConfigError(WeightsError):
    """A config.json value out of its range, or one that disagrees with the tensors."""


class TensorValueError(WeightsError):
    """A stored tensor holding NaN, infinity, or values too large for the forward pass."""


class UnknownModelError(AttnlabError):
    """A model name that is neither a known model nor a folder."""

    field = "model"


class UnknownHeadError(AttnlabError):
    """A layer or head index outside the model."""


class TemperatureError(AttnlabError):
    """A softmax temperature that is not a positive finite number, or one used without "scaled"."""

    field = "temperature"


class VectorEditError(AttnlabError):
    """An edited vector with a non-number, NaN, a value beyond ±100, or the wrong width."""

    field = "set"


class PositionsError(AttnlabError):
    """A positional-encoding kind that does not exist, or a width it cannot encode."""

    field = "positions"


class ShuffleError(AttnlabError):
    """A shuffle seed that is not a non-negative whole number."""

    field = "shuffle"


class AttentionMapError(AttnlabError):
    """Attention weights handed in from elsewhere that cannot be attention weights."""

    field = "attentions"


class MapShapeError(AttentionMapError):
    """Attention weights of the wrong rank or size, or labels that do not match their rows."""


class MapValueError(AttentionMapError):
    """Attention weights that are not finite, negative, or not an array of numbers."""


class RowSumError(AttentionMapError):
    """An attention row whose weights do not sum to 1 (scores handed in, or the wrong axis)."""


class ExportError(AttnlabError):
    """A file attnlab cannot write: an unknown suffix or format, or an object it cannot save."""

    field = "format"


class SpecError(ConfigError):
    """A decoder spec whose values do not fit together (models/spec.py)."""


class UnsupportedError(ConfigError):
    """A checkpoint that asks for what the forward pass does not implement (an architecture,
    a mixture of experts, a RoPE scaling not listed): the message names it and the supported."""
