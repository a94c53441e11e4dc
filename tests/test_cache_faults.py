"""Builders that stop, die or are interrupted, many builders at once, and removal racing with
loading. Every other process is a real subprocess; slow builds use a TRANSPILE_CC wrapper
that sleeps before running the real compiler, so a builder can be caught mid-compile."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from cache_tools import EXPECTED, entries, env_for, fake_cc, finish, leftovers, run, start
from transpile.runtime import build_lock
from transpile.runtime.build_lock import Outcome


def wait_for(path, timeout=60.0):
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def slow_compiler(tmp_path, seconds=3):
    """A compiler that marks the moment it starts ($MARK), sleeps, then compiles."""
    return fake_cc(tmp_path, "slow-cc", f'touch "$MARK"; sleep {seconds}; exec "$REAL" "$@"')


@pytest.mark.parametrize("stop", ["process", "process group (Ctrl-Z)"])
def test_a_stopped_builder_does_not_block_the_others(tmp_path, cache_dir, stop):
    cc = slow_compiler(tmp_path)
    mark = tmp_path / "first-compiling"
    builder = start(tmp_path, cache_dir, "f", new_session=True, TRANSPILE_CC=cc, MARK=mark)
    wait_for(mark)
    if stop == "process":
        os.kill(builder.pid, signal.SIGSTOP)
    else:
        os.killpg(builder.pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        second = run(tmp_path, cache_dir, "f", TRANSPILE_CC=cc, MARK=tmp_path / "m2",
                     timeout=90)
        waited = time.monotonic() - started
    finally:
        os.killpg(builder.pid, signal.SIGCONT)
    first = finish(builder)
    assert second["result"] == first["result"] == EXPECTED["f"]
    assert waited < 40, waited                  # stopped-holder grace + one slow build
    notes = [w for w in second["warnings"] if "not waiting" in w]
    assert len(second["warnings"]) == 1 and len(notes) == 1, second["warnings"]
    assert "stopped" in notes[0]
    assert first["warnings"] == []              # resumed, it finds the entry published
    assert len(entries(cache_dir)) == 1
    assert leftovers(cache_dir) == []


def test_a_killed_builder_does_not_block_and_its_build_directory_goes(tmp_path, cache_dir):
    cc = slow_compiler(tmp_path)
    mark = tmp_path / "first-compiling"
    builder = start(tmp_path, cache_dir, "g", TRANSPILE_CC=cc, MARK=mark)
    wait_for(mark)
    assert leftovers(cache_dir)                 # its private build directory
    builder.kill()
    builder.communicate()
    started = time.monotonic()
    second = run(tmp_path, cache_dir, "g", TRANSPILE_CC=cc, MARK=tmp_path / "m2")
    assert time.monotonic() - started < 40
    assert second["result"] == EXPECTED["g"]
    assert second["warnings"] == []             # the kernel released the dead holder's lock
    assert len(entries(cache_dir)) == 1
    assert leftovers(cache_dir) == []


def test_many_processes_building_one_key_compile_once(tmp_path, cache_dir):
    log = tmp_path / "compiles.log"
    # (-###: the link step's probe, asked once by the building process, compiles nothing)
    cc = fake_cc(tmp_path, "counting-cc", 'case "$*" in *-###*) exec "$REAL" "$@" ;; esac\n'
                 f'echo run >> "{log}"; sleep 1; exec "$REAL" "$@"')
    procs = [start(tmp_path, cache_dir, "h", TRANSPILE_CC=cc, MARK=tmp_path / "m")
             for _ in range(6)]
    outs = [finish(p, timeout=180) for p in procs]
    assert all(o["result"] == EXPECTED["h"] for o in outs)
    assert all(o["warnings"] == [] for o in outs), [o["warnings"] for o in outs]
    assert log.read_text().count("run") == 1          # one compile for six processes
    assert sum(o["disk_misses"] for o in outs) == 1
    assert len(entries(cache_dir)) == 1
    assert leftovers(cache_dir) == []


def test_an_interrupted_build_leaves_no_half_entry(tmp_path, cache_dir):
    cc = slow_compiler(tmp_path, seconds=5)
    mark = tmp_path / "compiling"
    builder = start(tmp_path, cache_dir, "f", TRANSPILE_CC=cc, MARK=mark)
    wait_for(mark)
    builder.send_signal(signal.SIGINT)           # KeyboardInterrupt mid-compile
    _, err = builder.communicate(timeout=60)
    assert builder.returncode != 0 and "KeyboardInterrupt" in err
    assert entries(cache_dir) == [] and leftovers(cache_dir) == []
    again = run(tmp_path, cache_dir, "f", TRANSPILE_CC=cc, MARK=tmp_path / "m2")
    assert again["result"] == EXPECTED["f"] and again["warnings"] == []
    assert len(entries(cache_dir)) == 1


def test_clearing_while_other_processes_load_never_breaks_them(tmp_path, cache_dir):
    run(tmp_path, cache_dir, "f")
    stop = tmp_path / "stop"
    clearer = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f'''
        import os, time
        from transpile.runtime import cache_admin
        n = 0
        while not os.path.exists({str(stop)!r}):
            n += cache_admin.clear({str(cache_dir)!r}) + len(cache_admin.prune(
                {str(cache_dir)!r}, older_than_s=0.0))
            time.sleep(0.01)
        print(n)''')], env=env_for(cache_dir), stdout=subprocess.PIPE, text=True)
    try:
        outs = [finish(p, timeout=300) for p in
                [start(tmp_path, cache_dir, "f", 8) for _ in range(3)]]
    finally:
        stop.touch()
        removed = int(clearer.communicate(timeout=60)[0])
    assert removed >= 1
    for out in outs:
        assert out["result"] == EXPECTED["f"] and out["all_equal"]
        assert out["warnings"] == [], out["warnings"]
    assert leftovers(cache_dir) == []


# -- the lock's wait, in one process against a holder subprocess ---------------------------

HOLDER = textwrap.dedent('''
    import fcntl, os, sys, time
    fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.ftruncate(fd, 0)
    os.write(fd, b"1 1 another-machine/0\\n")     # cannot be inspected from here
    print("locked", flush=True)
    end = time.monotonic() + float(sys.argv[2])
    while time.monotonic() < end:
        if sys.argv[3] == "beat":
            os.utime(fd)
        time.sleep(0.2)
''')


def hold(lock, seconds, beat):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(lock), str(seconds), beat],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    return holder


def wait_for_lock(lock):
    started = time.monotonic()
    with build_lock.build_lock(str(lock)) as outcome:
        return outcome, time.monotonic() - started


def test_a_holder_that_shows_progress_is_waited_for(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSPILE_CACHE_STALL_TIMEOUT", "2")
    lock = tmp_path / "k.lock"
    holder = hold(lock, 5.0, "beat")
    outcome, waited = wait_for_lock(lock)
    holder.wait()
    assert outcome == Outcome(held=True)
    assert waited > 4.0                      # longer than the stall timeout: it kept beating


def test_a_holder_without_progress_is_given_up_on(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSPILE_CACHE_STALL_TIMEOUT", "1")
    lock = tmp_path / "k.lock"
    holder = hold(lock, 30.0, "still")
    try:
        outcome, waited = wait_for_lock(lock)
    finally:
        holder.kill()
        holder.wait()
    assert not outcome.held and "no progress" in outcome.reason
    assert 0.9 < waited < 10


def test_the_lock_names_its_holder_and_beats(tmp_path, monkeypatch):
    monkeypatch.setattr(build_lock, "HEARTBEAT_S", 0.05)
    lock = tmp_path / "k.lock"
    with build_lock.build_lock(str(lock)) as outcome:
        assert outcome.held
        pid, _, host = lock.read_text().split()
        assert int(pid) == os.getpid() and host == build_lock._host()
        first = lock.stat().st_mtime_ns
        time.sleep(0.3)
        assert lock.stat().st_mtime_ns != first
    assert build_lock.try_lock(str(lock)) is not None      # released


def test_stale_timeout_settings(monkeypatch):
    monkeypatch.delenv("TRANSPILE_CACHE_STALL_TIMEOUT", raising=False)
    assert build_lock.stall_timeout() == build_lock.DEFAULT_STALL_S
    monkeypatch.setenv("TRANSPILE_CACHE_STALL_TIMEOUT", "2.5")
    assert build_lock.stall_timeout() == 2.5
    monkeypatch.setenv("TRANSPILE_CACHE_STALL_TIMEOUT", "soon")
    with pytest.warns(RuntimeWarning, match="not a number of seconds"):
        assert build_lock.stall_timeout() == build_lock.DEFAULT_STALL_S


def test_build_directories_of_live_and_dead_builders(tmp_path):
    """A build directory whose `.owner` lock is free belongs to a dead builder (removed); one
    whose lock is held, even by a stopped process, is in use (kept)."""
    from transpile.runtime.cache_removal import remove_stale_temporaries
    shard = tmp_path / "ab"
    dead = shard / f".build-abababababab-{os.getpid()}-dead"
    live = shard / ".build-abababababab-1-live"
    for d in (dead, live):
        d.mkdir(parents=True)
        (d / ".owner").write_text("")
        (d / "module.c").write_text("int x;")
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f'''
        import fcntl, os, time
        fd = os.open({str(live / ".owner")!r}, os.O_RDWR)
        fcntl.flock(fd, fcntl.LOCK_EX)
        print("held", flush=True)
        time.sleep(60)''')], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        os.kill(holder.pid, signal.SIGSTOP)
        assert remove_stale_temporaries(str(shard)) == 1
        assert not dead.exists() and live.exists()
    finally:
        holder.kill()
        holder.wait()
    assert remove_stale_temporaries(str(shard)) == 1 and not live.exists()


def test_holder_info_is_parsed_and_bad_text_ignored(tmp_path):
    lock = tmp_path / "k.lock"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    try:
        os.write(fd, b"garbage")
        assert build_lock._read_holder(fd) is None
        assert "does not name itself" in build_lock._holder_problem(fd)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{2 ** 22 + 12345} 77 {build_lock._host()}\n".encode(), 0)
        assert "exited" in build_lock._holder_problem(fd)
    finally:
        os.close(fd)


def test_a_stopped_compiler_stops_the_heartbeat(tmp_path):
    """Only the compiler is stopped, its builder runs on: that is no progress either."""
    child = subprocess.Popen(["sleep", "60"])
    try:
        assert not build_lock._a_child_is_stopped()
        os.kill(child.pid, signal.SIGSTOP)
        deadline = time.monotonic() + 10
        while not build_lock._a_child_is_stopped():
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        child.kill()
        child.wait()


def test_a_holder_that_does_not_name_itself_is_given_up_on_soon(tmp_path, monkeypatch):
    """A plain `flock` holder (another program, an older transpile) never beats: waiting
    for the whole stall timeout would gain nothing."""
    monkeypatch.setenv("TRANSPILE_CACHE_STALL_TIMEOUT", "60")
    lock = tmp_path / "k.lock"
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f'''
        import fcntl, time
        f = open({str(lock)!r}, "a")
        fcntl.flock(f, fcntl.LOCK_EX)
        print("locked", flush=True)
        time.sleep(60)''')], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        outcome, waited = wait_for_lock(lock)
    finally:
        holder.kill()
        holder.wait()
    assert not outcome.held and "does not name itself" in outcome.reason
    assert waited < 20
