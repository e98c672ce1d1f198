"""The cores free to a pass, played on a machine whose clocks the test sets: the idle time over
a window, this process's own time not counted against it, a window too short or too old."""

from __future__ import annotations

from pathlib import Path

import pytest

from attnlab.models.machine_load import (
    STALE_S,
    WINDOW_S,
    MachineLoad,
    read_proc_stat,
    running_others,
)


class Clocks:
    """A 2-core machine: the test moves wall time and says how the cores were used."""

    def __init__(self) -> None:
        self.wall, self.idle, self.ours, self.others_now = 100.0, 1_000.0, 5.0, 0.0
        self.has_stat = True

    def spend(self, seconds: float, *, idle_cores: float, our_cores: float) -> None:
        self.wall += seconds
        self.idle += idle_cores * seconds
        self.ours += our_cores * seconds

    def load(self) -> MachineLoad:
        return MachineLoad(
            cores=2,
            idle_seconds=lambda: self.idle if self.has_stat else None,
            wall=lambda: self.wall,
            ours=lambda: self.ours,
            others_now=lambda: self.others_now,
        )


def test_an_idle_machine_is_all_free() -> None:
    c = Clocks()
    load = c.load()
    load.free_cores()  # the first look starts the window
    c.spend(1.0, idle_cores=2.0, our_cores=0.0)
    assert load.free_cores() == pytest.approx(2.0)
    assert load.all_free()


def test_our_own_work_is_not_load_against_us() -> None:
    """This process kept one core busy and BLAS's threads another: still all free for it."""
    c = Clocks()
    load = c.load()
    load.free_cores()
    c.spend(1.0, idle_cores=0.0, our_cores=2.0)
    assert load.free_cores() == pytest.approx(2.0)
    assert load.all_free()


def test_another_process_on_a_core_means_one_thread() -> None:
    c = Clocks()
    load = c.load()
    load.free_cores()
    c.spend(1.0, idle_cores=0.0, our_cores=1.0)  # we used one core, somebody else the other
    assert load.free_cores() == pytest.approx(1.0)
    assert not load.all_free()
    c.spend(1.0, idle_cores=0.6, our_cores=1.0)  # the other process used 0.4 of a core
    assert load.free_cores() == pytest.approx(1.6)
    assert load.all_free()  # within half a core


def test_a_window_shorter_than_the_minimum_gives_the_last_answer() -> None:
    c = Clocks()
    load = c.load()
    load.free_cores()
    c.spend(1.0, idle_cores=2.0, our_cores=0.0)
    assert load.free_cores() == pytest.approx(2.0)
    c.spend(WINDOW_S / 2, idle_cores=0.0, our_cores=0.0)  # the machine got busy, but just now
    assert load.free_cores() == pytest.approx(2.0)
    c.spend(WINDOW_S, idle_cores=0.0, our_cores=0.0)
    assert load.free_cores() == pytest.approx(0.0)  # the window since the last look says so


def test_a_stale_window_asks_what_runs_now() -> None:
    """A server idle for a minute: the average over it says nothing of the process that
    started a second ago; the threads runnable now do."""
    c = Clocks()
    load = c.load()
    load.free_cores()
    c.spend(STALE_S + 60, idle_cores=2.0, our_cores=0.0)
    c.others_now = 1.0
    assert load.free_cores() == pytest.approx(1.0)
    assert not load.all_free()


def test_the_first_look_asks_what_runs_now() -> None:
    c = Clocks()
    c.others_now = 2.0
    assert c.load().free_cores() == 0.0


def test_without_proc_stat_every_look_asks_what_runs_now() -> None:
    c = Clocks()
    c.has_stat = False
    load = c.load()
    assert load.free_cores() == 2.0
    c.spend(1.0, idle_cores=0.0, our_cores=0.0)
    c.others_now = 1.5
    assert load.free_cores() == 0.5


def test_the_answer_stays_within_the_cores() -> None:
    c = Clocks()
    load = c.load()
    load.free_cores()
    c.spend(1.0, idle_cores=2.0, our_cores=2.0)  # tick rounding can add up past the cores
    assert load.free_cores() == 2.0
    c.others_now = 5.0
    c.spend(STALE_S + 1, idle_cores=0.0, our_cores=0.0)
    assert load.free_cores() == 0.0


def test_proc_files_in_linux_format_and_not(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    stat.write_text("cpu  100 0 50 800 20 0 0 0 0 0\ncpu0 50 0 25 400 10 0 0 0 0 0\n")
    assert read_proc_stat(str(stat)) == pytest.approx(820 / 100)  # idle + iowait, 100 Hz
    stat.write_text("intr 1 2 3\n")
    assert read_proc_stat(str(stat)) is None
    assert read_proc_stat(str(tmp_path / "missing")) is None
    loadavg = tmp_path / "loadavg"
    loadavg.write_text("0.62 1.65 2.10 3/345 11184\n")
    assert running_others(str(loadavg)) == 2.0  # three runnable, this one among them
    loadavg.write_text("0.62 1.65 2.10 1/345 11184\n")
    assert running_others(str(loadavg)) == 0.0


@pytest.mark.skipif(read_proc_stat() is None, reason="Linux's /proc/stat")
def test_the_real_files_read() -> None:
    assert read_proc_stat() > 0
    assert running_others() >= 0.0
