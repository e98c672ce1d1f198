"""heavy.py: the gate lets heavy_workers run and heavy_queue wait, and refuses one more at once."""

import threading

import pytest

from attnlab.web.app import ServerOptions
from attnlab.web.heavy import Busy, HeavyGate

WAIT = 60  # seconds: a bound on waiting for a thread, never a threshold that is asserted


def test_the_gate_lets_limit_run_queue_wait_and_refuses_one_more() -> None:
    gate = HeavyGate(ServerOptions(heavy_workers=1, heavy_queue=1, retry_after_seconds=3))
    release, entered = threading.Event(), threading.Event()

    def hold() -> None:
        with gate.slot("cost"):
            entered.set()
            release.wait(WAIT)

    first, second = threading.Thread(target=hold), threading.Thread(target=hold)
    first.start()
    assert entered.wait(WAIT)
    entered.clear()
    second.start()  # waits for the slot: inside counts it
    while gate.inside < 2:
        threading.Event().wait(0.01)
    assert not entered.is_set()  # the second is queued, not running
    with pytest.raises(Busy, match="try again in 3 s") as busy, gate.admit("cost"):
        pass
    assert busy.value.retry_after == 3
    release.set()
    first.join(WAIT), second.join(WAIT)
    assert entered.is_set() and gate.inside == 0


def test_options_refuse_limits_that_take_nothing_and_quote_them() -> None:
    with pytest.raises(ValueError, match=r"heavy_workers\n.* equal to 1 .*input_value=0"):
        ServerOptions(heavy_workers=0)
    with pytest.raises(ValueError, match=r"retry_after_seconds\n.* equal to 1 .*input_value=0"):
        ServerOptions(retry_after_seconds=0)
