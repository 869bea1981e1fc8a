"""The parallel search (solver/threads.pxi): exact on every thread count, and stopped whole.

The exhaustive cross-check (test_solver.py) and the plain-search check (test_plain.py) also
run on two and four threads.  Here: what is particular to the threads — the helpers joining
a search midway, an answer a helper finds first, helpers stopped with their work half done,
the limits counting every thread's nodes, the table growing while the helpers search.

Most tests make the helpers join every search at once and share every node's cards
(``THREAD_TUNING = (0, 0, 1)``): by default they join a search only once it has run 2^16 /
threads nodes alone (2^15 on two threads), which the small positions of a test rarely do.
"""

from __future__ import annotations

import random
import threading
import time
import zlib

import pytest

import atout.solver as solver
from atout.cards import token
from atout.position import parse_position
from atout.solver import Cancel, DEFAULT_FEATURES, make_engine, solve
from atout.solver.params import card_of_code, code_of, engine_params

from deals import random_endgame

TT_MB = 16
GAMES = ["fr4", "fr3", "fr5", "priest5", "at4"]
AT4_BIDS = ["solorufer", "farbendreier", "piccolo", "trischaken", "pagatrufer"]


@pytest.fixture
def every_node_shared(monkeypatch):
    monkeypatch.setattr(solver, "THREAD_TUNING", (0, 0, 1))


def _positions(game: str, count: int, tricks, tag: str):
    rng = random.Random(zlib.crc32(f"{tag}-{game}".encode()))
    for i in range(count):
        options = {"bid": AT4_BIDS[i % len(AT4_BIDS)]} if game == "at4" else {}
        yield random_endgame(rng, game, rng.choice(tricks), partial=bool(i % 3 == 2), **options)


def _same(one, other, obj) -> None:
    assert other.status == "ok", obj
    assert (one.value, one.best, one.cards) == (other.value, other.best, other.cards), obj
    assert other.outcome["value"] == other.value, obj


@pytest.mark.parametrize("game", GAMES)
def test_helpers_joining_midway_give_the_same_answers(game, monkeypatch):
    """The helpers join a search that has run 2,048 nodes alone (the default on two threads is 2^15), with
    the cards of the caller's line marked busy: the value, the best cards and every card's
    value of a one-thread solve, on two, four, eight and sixteen threads.  Some searches must
    really have been joined, or this test would say nothing."""
    monkeypatch.setattr(solver, "THREAD_TUNING", (2048, 3))
    joined = 0
    for obj in _positions(game, 4, (8, 9), "midway"):
        pos = parse_position(obj)
        one = solve(pos, all_cards=True, tt_mb=TT_MB)
        for threads in (2, 4, 8, 16):     # (8 and 16: one young brother, a crowd's rule)
            _same(one, solve(pos, all_cards=True, tt_mb=TT_MB, threads=threads), obj)
            engine = make_engine(pos, TT_MB)
            solver.set_threads(engine, threads)
            done, value, _ = engine.value()
            assert done and value == one.value, obj
            joined += engine.thread_counts()[0]
    assert joined, "no search was joined: the test needs bigger positions"


@pytest.mark.parametrize("game", GAMES)
def test_an_answer_a_helper_finds_first_is_the_answer(game, every_node_shared):
    """Every thread searches from the root; the first to finish answers for all.  On four
    threads some searches are answered by a helper, and the value is still exact (a lost or
    ignored helper answer shows here as a wrong value).  Which thread finishes first is
    up to the machine: the positions go on (up to 60) until helpers have answered some."""
    by_helpers = 0
    for n, obj in enumerate(_positions(game, 60, (3, 4, 5, 6), "first")):
        if n >= 12 and by_helpers >= 3:
            break
        pos = parse_position(obj)
        value = solve(pos, tt_mb=TT_MB).value
        engine = make_engine(pos, TT_MB)
        solver.set_threads(engine, 4)
        done, lo, hi = engine.value()
        assert done and lo == hi == value, obj
        for target in (value, value + 1):
            done, yes = engine.at_least(target)
            assert done and yes == (target <= value), (obj, target)
        by_helpers += engine.thread_counts()[1]
    assert by_helpers, "no helper answered first: the test says nothing"


@pytest.mark.parametrize("game", GAMES)
def test_helpers_stopped_midway_store_nothing(game, every_node_shared):
    """Once one thread has answered, the others stop where they are and store nothing on
    their way out: a bound of theirs stored as proven would poison the table, which one
    engine keeps warm across all the searches of a solve (the value, then every card's).
    Every card's value on four threads as on one; and some helpers must have been stopped
    (searches the caller answered while its helpers ran).  Which thread finishes first is
    up to the machine (on a loaded one the helpers may answer every search): the positions
    go on (up to 40) until some helpers have been stopped."""
    stopped = 0
    for n, obj in enumerate(_positions(game, 40, (4, 5, 6, 7), "stopped")):
        if n >= 8 and stopped >= 3:
            break
        pos = parse_position(obj)
        one = solve(pos, all_cards=True, tt_mb=TT_MB)
        engine = make_engine(pos, TT_MB)
        solver.set_threads(engine, 4)
        done, value, _ = engine.value()
        assert done and value == one.value, obj
        names = card_of_code(pos.rules)
        for code in engine.legal_codes():
            done, lo, hi = engine.child_value(code, guess=value)
            assert done and lo == hi == one.cards[token(names[code])], (obj, token(names[code]))
        joined, by_helpers = engine.thread_counts()
        stopped += joined - by_helpers
    assert stopped, "no helper was ever stopped: the test says nothing"


def test_the_table_grows_while_the_helpers_search(every_node_shared):
    """A table that starts at 1 MB grows while four threads search it: they wait while it
    grows and go on in the new one.  The value and every card's value as on one thread, and
    the table must really have grown."""
    rng = random.Random("grow-threads")
    grown = 0
    for game, tricks in (("fr4", 10), ("fr4", 11), ("priest5", 10)):      # (the last grows)
        pos = parse_position(random_endgame(rng, game, tricks))
        one = solve(pos, all_cards=True, tt_mb=TT_MB)
        engine = solver.Engine(engine_params(pos), 1, DEFAULT_FEATURES, 64)
        for card in pos.played:
            engine.play(code_of(pos.rules, card))
        solver.set_threads(engine, 4)
        small = engine.table_fill()[0]
        done, value, _ = engine.value()
        assert done and value == one.value, game
        names = card_of_code(pos.rules)
        for code in engine.legal_codes():
            done, lo, hi = engine.child_value(code, guess=value)
            assert done and lo == hi == one.cards[token(names[code])], (game, token(names[code]))
        grown += engine.table_fill()[0] > small
    assert grown, "no table grew: the test needs bigger positions"


def test_the_node_limit_counts_every_thread():
    """A node limit bounds the nodes of all the threads together, not of each."""
    rng = random.Random("limit-threads")
    obj = random_endgame(rng, "fr4", 18)                  # a whole deal: far beyond the limit
    for threads in (1, 4):
        r = solve(obj, node_limit=400_000, threads=threads, tt_mb=64)
        assert r.status == "limit" and r.stopped_by == "nodes"
        lo, hi = r.bounds
        assert lo <= hi
        assert 400_000 <= r.nodes < 400_000 + threads * 4096, (threads, r.nodes)


def test_cancel_stops_every_thread():
    """Cancel.set() stops a search on four threads: solve returns (every helper joined)
    with the bounds proven, and the next search on the same switch stops before it starts."""
    rng = random.Random("cancel-threads")
    obj = random_endgame(rng, "fr3", 24)
    cancel = Cancel()
    results = []
    worker = threading.Thread(target=lambda: results.append(
        solve(obj, cancel=cancel, tt_mb=64, threads=4)))
    worker.start()
    time.sleep(0.3)
    cancel.set()
    worker.join(10)
    assert not worker.is_alive()
    r = results[0]
    assert r.status == "limit" and r.stopped_by == "cancel" and r.value is None
    assert r.bounds[0] <= r.bounds[1]
    assert solve(obj, cancel=cancel, tt_mb=16, threads=4).stopped_by == "cancel"


def test_the_more_threads_the_sooner_they_join():
    """A search runs alone for its first help_after nodes: 2^15 on two threads, halved as
    the threads double, a quarter of that on more than four threads, never under 2^9.  A
    value search whose largest probe costs a few thousand nodes is left to one thread on two
    threads, and shared on sixteen."""
    obj = random_endgame(random.Random("join-3"), "fr4", 7)
    engine = make_engine(parse_position(obj), TT_MB)
    for threads, nodes in ((2, 1 << 15), (3, 21845), (4, 1 << 14), (8, 1 << 11), (16, 1 << 10),
                           (64, 1 << 9), (256, 1 << 9)):
        engine.set_threads(threads)
        assert engine.help_after() == nodes, threads
    one = make_engine(parse_position(obj), TT_MB)
    value = one.value()
    largest = max(probe[2] for probe in one.trace())
    assert 1 << 12 < largest < 1 << 15, largest      # (else the position no longer tests it)
    joined = {}
    for threads in (2, 16):
        engine = make_engine(parse_position(obj), TT_MB)
        engine.set_threads(threads)
        assert engine.value() == value
        joined[threads] = engine.thread_counts()[0]
    assert joined[2] == 0 and joined[16] > 0, joined


def test_thread_counts_out_of_range_are_refused():
    pos = parse_position(random_endgame(random.Random(3), "fr4", 3))
    engine = make_engine(pos, TT_MB)
    for bad in (0, solver.MAX_THREADS + 1):
        with pytest.raises(ValueError):
            engine.set_threads(bad)
        with pytest.raises(ValueError):
            solve(pos, threads=bad)
    engine.set_threads(solver.MAX_THREADS)            # the most is allowed (a 64-core machine too)
    assert engine.threads == solver.MAX_THREADS >= 64
    assert engine.value()[0]


def test_the_table_mapped_ahead_keeps_every_answer():
    """On several threads, once the engine has searched 16 nodes per page of its table,
    each thread maps a slice of the table's pages ahead while the search goes on
    (threads.pxi, map_table): what the table held stays, and every card's value is as on
    one thread.  A 1 MB table: mapped after a few thousand nodes."""
    rng = random.Random("mapped")
    mapped = 0
    for game, tricks in (("fr4", 7), ("fr5", 6), ("priest5", 6), ("fr3", 8)):
        for _ in range(3):
            pos = parse_position(random_endgame(rng, game, tricks))
            one = make_engine(pos, 1)
            want = [one.value()] + [one.child_value(code) for code in one.legal_codes()]
            engine = make_engine(pos, 1)
            engine.set_threads(2, 0)                 # the helper joins every search at once
            got = [engine.value()] + [engine.child_value(code) for code in engine.legal_codes()]
            assert got == want, (game, pos)
            mapped += engine.table_mapped()
    assert mapped >= 6, mapped                     # (else the positions no longer test it)


# -- lockstep (solver/lockstep.pxi): the threads take turns, as on as many cores ----------------

@pytest.mark.parametrize("game", GAMES)
def test_lockstep_keeps_every_answer(game):
    """In lockstep the threads take turns of a few nodes, one searching at a time: another
    order of the same search, so the value and every card's value are one thread's — on
    eight threads with equal turns and on sixteen with turns drawn from a seed, the helpers
    joining every search at once and sharing every node's cards.  Some searches must really
    have been joined, and the turns handed over (the helpers searched)."""
    joined = helped = 0
    for obj in _positions(game, 2, (6, 7), "lockstep"):
        pos = parse_position(obj)
        one = solve(pos, all_cards=True, tt_mb=TT_MB)
        names = card_of_code(pos.rules)
        for threads, turn, seed in ((8, 16, 0), (16, 4, 7)):
            engine = make_engine(pos, TT_MB)
            engine.set_threads(threads, 0, 0, 1)
            engine.set_lockstep(turn, seed)
            done, value, _ = engine.value()
            assert done and value == one.value, (obj, threads)
            for code in engine.legal_codes():
                done, lo, hi = engine.child_value(code, guess=value)
                assert done and lo == hi == one.cards[token(names[code])], (obj, threads, token(names[code]))
            joined += engine.thread_counts()[0]
            helped += sum(engine.helper_nodes())
    assert joined and helped, "no search was shared: the test says nothing"


def test_lockstep_searches_the_same_nodes_run_after_run():
    """One thread searches at a time, and what it does depends only on the nodes searched so
    far: the same node counts, every thread's, run after run (what makes the lockstep a
    measurement).  A seed changes the turns, and with them the counts."""
    pos = parse_position(random_endgame(random.Random("lockstep-same"), "fr4", 9))

    def counts(seed):
        engine = make_engine(pos, TT_MB)
        engine.set_threads(8, 0)
        engine.set_lockstep(16, seed)
        assert engine.value()[0]
        return engine.nodes, engine.helper_nodes()

    first = counts(1)
    assert counts(1) == first and counts(1) == first
    assert counts(2) != first


def test_lockstep_table_growth():
    """The table grows while sixteen threads search in lockstep: the helpers, parked in
    their turns, wait out of the round and come back into it (no thread waits for a turn
    that never comes).  The value and every card's value as on one thread."""
    pos = parse_position(random_endgame(random.Random("grow-lockstep-1"), "fr4", 11))
    one = solve(pos, all_cards=True, tt_mb=TT_MB)
    engine = solver.Engine(engine_params(pos), 1, DEFAULT_FEATURES, 64)
    for card in pos.played:
        engine.play(code_of(pos.rules, card))
    engine.set_threads(16, 0, 0, 1)
    engine.set_lockstep(16, 5)
    small = engine.table_fill()[0]
    done, value, _ = engine.value()
    assert done and value == one.value
    names = card_of_code(pos.rules)
    for code in engine.legal_codes():
        done, lo, hi = engine.child_value(code, guess=value)
        assert done and lo == hi == one.cards[token(names[code])], token(names[code])
    assert engine.table_fill()[0] > small, "the table did not grow: the test needs a bigger position"


@pytest.mark.parametrize("how", ["time", "cancel", "nodes"])
def test_lockstep_ends_cleanly_on_a_limit(how):
    """A time limit, a node limit or a stop from another thread (what Cancel does) ends a
    search of sixteen threads in lockstep like one running free: it returns soon, with the
    bounds proven so far, every helper joined — none left waiting for its turn."""
    pos = parse_position(random_endgame(random.Random("lockstep-limit"), "fr4", 18))
    engine = make_engine(pos, 64)
    engine.set_threads(16)
    engine.set_lockstep(16, 3)
    engine.set_limits(300_000 if how == "nodes" else 0, 0.4 if how == "time" else 0)
    results = []
    worker = threading.Thread(target=lambda: results.append(engine.value()))
    started = time.perf_counter()
    worker.start()
    if how == "cancel":
        time.sleep(0.4)
        engine.stop()
    worker.join(20)
    assert not worker.is_alive(), "the search did not end"
    assert time.perf_counter() - started < 10
    done, lo, hi = results[0]
    assert not done and lo <= hi and engine.stopped
    assert sum(engine.helper_nodes()), "the helpers never joined: the test says nothing"
    if how == "nodes":
        assert 300_000 <= engine.nodes < 300_000 + 16 * 4096, engine.nodes
    engine.set_limits(0, 0)                 # the engine searches again after a stop
    engine.set_lockstep(0)
    done, yes = engine.at_least(hi + 1)
    assert done and not yes


def test_lockstep_settings_out_of_range_are_refused():
    engine = make_engine(parse_position(random_endgame(random.Random(4), "fr4", 3)), TT_MB)
    for turn, seed in ((3, 0), (2048, 0), (-1, 0), (2, 1)):
        with pytest.raises(ValueError):
            engine.set_lockstep(turn, seed)
    engine.set_lockstep(1)
    engine.set_lockstep(1024, 9)
