"""Computing turns: at most `running` worker threads compute at once, and a thread that only
waits (for another's computation of the same trace, a heavy slot, a model being loaded) gives
its turn back meanwhile.

Deterministic: threads are held on Events the test controls; a bounded wait only stops a test
that would otherwise hang, it is never a threshold the test asserts.
"""

import threading

from attnlab.web.model_routes import _Kept
from attnlab.web.turns import in_turn, waiting
from attnlab.web.workers import HeavyGate

WAIT = 60  # seconds: a bound on waiting for a thread, never a threshold that is asserted


def _free_turn(turns: threading.Semaphore) -> bool:
    """True once a turn is free (taken and given back at once), False after WAIT seconds."""
    if turns.acquire(timeout=WAIT):
        turns.release()
        return True
    return False


def test_in_turn_lets_only_as_many_threads_compute_as_there_are_turns() -> None:
    turns, release = threading.Semaphore(2), threading.Event()
    entered = threading.Semaphore(0)

    def hold() -> None:
        entered.release()
        assert release.wait(WAIT)

    threads = [threading.Thread(target=in_turn, args=(turns, hold)) for _ in range(3)]
    for t in threads:
        t.start()
    assert entered.acquire(timeout=WAIT) and entered.acquire(timeout=WAIT)
    assert not entered.acquire(timeout=0.2)  # the third waits for a turn: it has not entered
    release.set()
    for t in threads:
        t.join(WAIT)
    assert entered.acquire(timeout=WAIT)  # ... and entered once one was given back


def test_waiting_gives_the_turn_back_and_takes_one_again() -> None:
    turns, inside, release = threading.Semaphore(1), threading.Event(), threading.Event()
    after: list[bool] = []

    def wait_a_while() -> None:
        with waiting():
            inside.set()
            assert release.wait(WAIT)
        after.append(turns.acquire(blocking=False))  # False: the thread holds the only turn

    t = threading.Thread(target=in_turn, args=(turns, wait_a_while))
    t.start()
    assert inside.wait(WAIT)
    assert _free_turn(turns)  # while it only waits, another computes
    release.set()
    t.join(WAIT)
    assert after == [False] and _free_turn(turns)  # and it gave its turn back at the end


def test_waiting_outside_a_turn_does_nothing() -> None:
    with waiting():
        pass  # no turn held (the CLI, a test): nothing to give back, nothing raised


def test_a_request_waiting_for_the_same_trace_gives_its_turn_back() -> None:
    """The page asks for a head's beats and its picture at once: the second waits for the
    first's forward pass. Before, it held its turn meanwhile, and with the first's that was
    every turn: a cheap request waited out the whole pass."""
    turns, kept = threading.Semaphore(2), _Kept[str, int](4)
    computing, release = threading.Event(), threading.Event()

    def slow() -> int:
        computing.set()
        assert release.wait(WAIT)
        return 7

    answers: list[int] = []
    first = threading.Thread(target=lambda: answers.append(in_turn(turns, kept.get, "t", slow)))
    first.start()
    assert computing.wait(WAIT)
    arrived = threading.Event()

    def ask_again() -> int:
        arrived.set()  # holding a turn, about to wait for the first's computation
        return kept.get("t", lambda: -1)

    second = threading.Thread(target=lambda: answers.append(in_turn(turns, ask_again)))
    second.start()
    assert arrived.wait(WAIT)
    assert _free_turn(turns)  # the first computes, the second waits without a turn
    release.set()
    first.join(WAIT), second.join(WAIT)
    assert answers == [7, 7]  # computed once, by the first


def test_a_request_queued_for_a_heavy_slot_gives_its_turn_back() -> None:
    turns, gate = threading.Semaphore(2), HeavyGate(limit=1, queue=1, retry_after=1)
    running, release, arrived = threading.Event(), threading.Event(), threading.Event()

    def heavy() -> None:
        arrived.set()
        with gate.slot("cost"):
            running.set()
            assert release.wait(WAIT)

    threads = [threading.Thread(target=in_turn, args=(turns, heavy)) for _ in range(2)]
    threads[0].start()
    assert running.wait(WAIT)
    arrived.clear()
    threads[1].start()
    assert arrived.wait(WAIT)  # the second holds a turn and asks for the slot
    assert _free_turn(turns)  # one heavy computes, one is queued without a turn
    release.set()
    for t in threads:
        t.join(WAIT)
