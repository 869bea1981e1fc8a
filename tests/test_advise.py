"""Single-dummy advice (solver/advise.py, ``atout advise``) and the single-dummy analysis
(solver/single_dummy.py, ``atout analyze --single-dummy``)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time

import pytest

from atout.cards import token
from atout.errors import PositionError
from atout.knowledge import seat_knowledge
from atout.position import parse_position
from atout.sampler import Sampler
from atout.solver import Cancel, solve
from atout.solver.advise import advise, draw, made, solve_cards
from atout.solver.single_dummy import analyze_single_dummy
from deals import GAMES, random_endgame
from views import consistent_deals


MAIN = "import sys; from atout.client.cli import main; sys.exit(main())"


def _atout(*args, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", MAIN, *args], input=stdin,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("game", GAMES)
def test_made_agrees_with_the_outcome(game):
    """made(position, value) says what the outcome of a line worth that value says."""
    rng = random.Random(f"made-{game}")
    for _ in range(40):
        pos = parse_position(random_endgame(rng, game, rng.randrange(1, 4), partial=rng.random() < 0.5))
        r = solve(pos)
        assert made(pos, r.value) == r.outcome.get("made"), (game, r.outcome)


@pytest.mark.parametrize("game", GAMES)
def test_solve_cards_equals_solve_all(game):
    rng = random.Random(f"cards-{game}")
    for _ in range(10):
        pos = parse_position(random_endgame(rng, game, rng.randrange(2, 6), partial=rng.random() < 0.5))
        r = solve(pos, all_cards=True)
        cv = solve_cards(pos)
        assert cv.exact and cv.values == r.cards and cv.value == r.value


def test_a_drawn_deals_table_grows_unless_its_size_is_given(monkeypatch):
    """A draw's search starts on the solver's table for its cards and grows it up to
    DRAW_TT_MB while it gives up entries (a hard 10-trick fr4 draw outgrows 16 MB: 0.62x
    the CPU, docs/single-dummy.md); a size asked for (``tt_mb``) is kept as it is.  The
    growing table's answers equal the fixed one's, and a table does grow."""
    import atout.solver.advise as advise_module
    from atout.solver import DEFAULT_FEATURES, make_engine

    made_with = []

    def recording(position, tt_mb=None, features=DEFAULT_FEATURES, grow_to_mb=0):
        engine = make_engine(position, tt_mb, features=features, grow_to_mb=grow_to_mb)
        if features == DEFAULT_FEATURES:      # (not the engine of value_width: no search)
            made_with.append((tt_mb, grow_to_mb, engine))
        return engine

    monkeypatch.setattr(advise_module, "make_engine", recording)
    rng = random.Random("grow-draw")
    pos = parse_position(random_endgame(rng, "fr4", 3))
    grown, fixed = solve_cards(pos), solve_cards(pos, tt_mb=1)
    assert grown.exact and fixed.exact and grown.values == fixed.values and grown.value == fixed.value
    assert [m[:2] for m in made_with] == [(advise_module.draw_tt_mb(pos), advise_module.DRAW_TT_MB),
                                          (1, 0)]
    # and the growth is real: tables of 1 MB allowed to grow, on positions of 10 tricks
    grew = 0
    for _ in range(3):
        pos = parse_position(random_endgame(rng, "fr4", 10))
        engine = make_engine(pos, 1, grow_to_mb=16)
        before = engine.table_fill()[0]
        done, value, _ = engine.value()
        for code in engine.legal_codes():
            assert engine.child_value(code, guess=value)[0]
        grew += engine.table_fill()[0] > before
    assert grew


def _one_deal_positions():
    """Positions where the seat to play can place every card: by what it saw and what the
    others' play revealed (some cards hidden, but only one way to deal them)."""
    rng = random.Random("one-deal")
    found = []
    for _ in range(4000):
        game = rng.choice(GAMES)
        pos = parse_position(random_endgame(rng, game, rng.randrange(1, 4), partial=rng.random() < 0.5))
        k = seat_knowledge(pos, pos.to_play)
        if k.hidden and Sampler(k, exact=True).count() == 1:
            found.append(pos)
        if len(found) == 12:
            break
    return found


ONE_DEAL = _one_deal_positions()


@pytest.mark.parametrize("pos", ONE_DEAL, ids=[f"{p.game}-{len(p.played)}" for p in ONE_DEAL])
def test_one_consistent_deal_is_solve_all(pos):
    """When the seat's knowledge leaves one deal, the advice is solve --all of it (a
    seat with one legal card is answered at once, nothing solved)."""
    a = advise(pos, samples=7, seed=1, workers=2)
    r = solve(pos, all_cards=True)
    if a.decided == "one card":
        # one legal card, or every legal card worth the same: the same value, and best
        assert set(a.best) == set(r.cards) == set(r.best) and len(set(r.cards.values())) == 1
        assert a.solved == 0 and a.nodes == 0 and a.deals == 1
        return
    assert a.status == "ok" and a.deals == 1 and a.distinct == 1 and a.solved == 7
    assert a.value == r.value
    assert {row["card"]: row["mean"] for row in a.cards} == r.cards
    for row in a.cards:
        assert row["optimal"] == (1.0 if row["card"] in r.best else 0.0)
        assert row["se"] == 0.0
        assert row["loss"] == abs(r.value - r.cards[row["card"]])
        assert row["made"] == (None if made(pos, r.cards[row["card"]]) is None
                               else float(made(pos, r.cards[row["card"]])))
    assert a.recommended in r.best and set(a.best) == set(r.best)


def test_one_deal_cases_exist():
    assert len(ONE_DEAL) >= 8 and len({p.game for p in ONE_DEAL}) >= 4


def test_the_mean_is_the_mean_over_the_consistent_deals():
    """With few consistent deals, many draws: each card's mean comes close to its exact
    average over those deals (within four standard errors; fixed seed)."""
    rng = random.Random("few")
    for _ in range(2000):
        pos = parse_position(random_endgame(rng, "fr4", 2, partial=True))
        k = seat_knowledge(pos, pos.to_play)
        if 3 <= Sampler(k, exact=True).count() <= 12 and len(pos.legal_cards()) > 1:
            break
    deals = consistent_deals(pos, pos.to_play)
    exact = {}
    for obj in deals:
        for c, v in solve(parse_position(obj), all_cards=True).cards.items():
            exact.setdefault(c, []).append(v)
    a = advise(pos, samples=3000, seed=5, workers=2, confidence=1)
    assert a.distinct == len(deals)
    for row in a.cards:
        truth = sum(exact[row["card"]]) / len(deals)
        assert abs(row["mean"] - truth) <= 4 * row["se"] + 1e-9, (row, truth)


def test_same_seed_same_advice():
    pos = parse_position(random_endgame(random.Random(8), "fr5", 5))
    one = advise(pos, samples=30, seed=42, workers=1).to_json()
    two = advise(pos, samples=30, seed=42, workers=2).to_json()
    for obj in (one, two):
        obj.pop("seconds")
        obj.pop("nodes")        # the work: a draw left alone searches on several threads
    assert one == two
    other = advise(pos, samples=30, seed=43, workers=2)
    assert other.seed == 43 and advise(pos, samples=2).seed is not None


def test_the_recommended_card_is_best_for_its_camp():
    rng = random.Random("camp")
    for game in GAMES:
        pos = parse_position(random_endgame(rng, game, 4))
        a = advise(pos, samples=20, seed=1)
        means = [row["mean"] for row in a.cards]
        assert means == sorted(means, reverse=a.maximizing)
        assert a.recommended == a.cards[0]["card"]
        assert all(row["loss"] >= 0 for row in a.cards)
        # no card does better on average than seeing every card
        assert (a.cards[0]["mean"] <= a.value + 1e-9) if a.maximizing else (a.cards[0]["mean"] >= a.value - 1e-9)


def test_a_limit_counts_the_proven_bounds():
    """A whole fr4 deal's draws are not solved in a second: each stopped draw counts with
    its bounds (low <= high), and the advice says it stopped.  (A second, not less: the
    limit covers the drawing too, which a loaded machine can slow past a tenth.)  Not
    budgeted: the limit only stops the plain draws (a budget caps each draw instead)."""
    pos = parse_position(random_endgame(random.Random(9), "fr4", 18))
    a = advise(pos, samples=4, seed=1, time_limit=1.0, workers=2, budget=False)
    assert a.status == "limit" and a.stopped_by == "time"
    assert a.solved + a.limited <= 4 and a.limited >= 1
    for row in a.cards:
        assert row["low"] <= row["high"]


def test_cancel_stops_the_advice():
    """Cancelled before it began: the first draw is begun all the same and stopped at
    once, so the advice answers with its cheap bounds rather than nothing."""
    pos = parse_position(random_endgame(random.Random(9), "fr4", 18))
    cancel = Cancel()
    cancel.set()
    a = advise(pos, samples=4, seed=1, cancel=cancel)
    assert a.status == "limit" and a.stopped_by == "cancel" and a.solved == 0 and a.limited == 1
    assert a.recommended is not None and all(row["low"] <= row["high"] for row in a.cards)


def _eight_tricks():
    return parse_position(random_endgame(random.Random(21), "fr4", 8))


def test_the_time_limit_covers_the_drawing():
    """--samples 100000 --time-limit 1: the deals are drawn as they are solved, the limit
    stops the drawing too, and the advice answers with the draws it had (it used to draw
    all 100,000 first, for about 45 s, then answer recommended null).  Confidence 1: the
    advice never stops early, so the limit is what ends it however fast the machine."""
    a = advise(_eight_tricks(), samples=100_000, seed=3, time_limit=1.0, workers=2,
               confidence=1)
    assert a.status == "limit" and a.stopped_by == "time"
    assert a.recommended is not None and a.solved >= 1
    assert a.solved + a.limited < 20_000


def test_cancel_stops_the_drawing():
    """Ctrl-C a moment after the start (while 100,000 deals would still be drawing):
    the advice stops and answers with the draws begun so far (confidence 1: never early)."""
    cancel = Cancel()
    timer = threading.Timer(0.3, cancel.set)
    timer.start()
    try:
        a = advise(_eight_tricks(), samples=100_000, seed=3, workers=2, cancel=cancel,
                   confidence=1)
    finally:
        timer.cancel()
    assert a.status == "limit" and a.stopped_by == "cancel"
    assert a.recommended is not None and 1 <= a.solved + a.limited < 20_000


def test_draw_stops_at_the_deadline_or_a_cancel():
    """draw() (the service draws with it) keeps to a deadline and a cancel as well, with
    one deal at least; without either it draws them all, the same deals as advise."""
    pos = _eight_tricks()
    assert len(draw(pos, 100_000, seed=1, deadline=time.perf_counter()).order) == 1
    cancel = Cancel()
    cancel.set()
    assert len(draw(pos, 100_000, seed=1, cancel=cancel).order) == 1
    whole = draw(pos, 40, seed=1)
    assert len(whole.order) == 40 and sum(whole.weight.values()) == 40
    assert whole.order[:1] == draw(pos, 1, seed=1).order


@pytest.mark.parametrize("kwargs,field", [
    ({"seat": 4}, "seat"), ({"seat": -1}, "seat"), ({"seat": "0"}, "seat"),
    ({"samples": 0}, "samples"), ({"samples": 1.5}, "samples"), ({"time_limit": 0}, "time_limit"),
    ({"workers": 0}, "workers"),
])
def test_bad_input_is_refused(kwargs, field):
    pos = parse_position(random_endgame(random.Random(10), "fr4", 3))
    with pytest.raises(PositionError) as e:
        advise(pos, **kwargs)
    assert e.value.field == field


def test_seat_not_to_play_and_finished_deal_are_refused():
    pos = parse_position(random_endgame(random.Random(10), "fr4", 3))
    with pytest.raises(PositionError, match="not to play") as e:
        advise(pos, seat=(pos.to_play + 1) % 4)
    assert e.value.field == "seat"
    with pytest.raises(PositionError) as e:
        advise(random_endgame(random.Random(10), "fr4", 0))
    assert e.value.field == "played"


# -- the command line -----------------------------------------------------------------------

def test_cli_advise_lines_and_text(tmp_path):
    rng = random.Random(11)
    objs = [dict(random_endgame(rng, g, 3), id=f"p{i}") for i, g in enumerate(GAMES)]
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in objs))
    out = _atout("advise", str(path), "--samples", "8", "--seed", "3", "--workers", "2")
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [line["id"] for line in lines] == [o["id"] for o in objs]
    for line, obj in zip(lines, objs):
        pos = parse_position(obj)
        assert line["status"] == "ok" and line["seat"] == pos.to_play and line["seed"] == 3
        assert {row["card"] for row in line["cards"]} == {token(c) for c in pos.legal_cards()}
    again = _atout("advise", str(path), "--samples", "8", "--seed", "3")
    work = ("seconds", "nodes")
    strip = [{k: v for k, v in json.loads(x).items() if k not in work} for x in again.stdout.splitlines()]
    assert strip == [{k: v for k, v in line.items() if k not in work} for line in lines]
    text = _atout("advise", str(path), "--samples", "8", "--seed", "3", "--text", "--ascii")
    assert text.returncode == 0 and "p0:" in text.stdout and "from what it can see" in text.stdout
    assert "play " in text.stdout and "optimal" in text.stdout


def test_cli_advise_bad_input():
    pos = random_endgame(random.Random(12), "fr4", 3)
    to_play = parse_position(pos).to_play
    out = _atout("advise", "--seat", str((to_play + 1) % 4), "--samples", "2",
                 stdin=json.dumps(pos) + "\nnot json\n" + json.dumps(random_endgame(random.Random(1), "fr4", 0)) + "\n")
    assert out.returncode == 1
    errors = [json.loads(line) for line in out.stdout.splitlines()]
    assert [e["field"] for e in errors] == ["seat", "json", "played"]
    assert len(out.stderr.strip().splitlines()) == 3
    out = _atout("advise", stdin=json.dumps(random_endgame(random.Random(1), "fr4", 0)) + "\n")
    assert out.returncode == 1 and json.loads(out.stdout)["field"] == "played"
    for bad in (["--samples", "0"], ["--seat", "-1"], ["--time-limit", "0"]):
        out = _atout("advise", *bad, stdin="")
        assert out.returncode == 2 and "Traceback" not in out.stderr


# -- the single-dummy analysis ----------------------------------------------------------------

def test_single_dummy_analysis():
    """Every card analysed gets its single-dummy judgement; a card with no alternative
    costs nothing; the costs add up per seat."""
    obj = random_endgame(random.Random(13), "fr4", 0)
    pos = parse_position(obj)
    report = analyze_single_dummy(pos, start=len(pos.played) - 12, samples=6, seed=2, workers=2)
    assert report["single_dummy"] == {"samples": 6, "seed": 2, "judged": 12}
    assert len(report["plays"]) == 12
    for play in report["plays"]:
        sd = play["single_dummy"]
        assert sd["cost"] >= 0 and play["card"] in {token(c) for c in range(78)}
        at = parse_position(dict(obj, played=obj["played"][:play["index"]]))
        if len(at.legal_cards()) == 1:
            assert sd["cost"] == 0 and sd["best"] == [play["card"]]
    for seat in report["seats"]:
        costs = [p["single_dummy"]["cost"] for p in report["plays"] if p["seat"] == seat["seat"]]
        assert seat["sd_cost"] == pytest.approx(sum(costs))


def test_single_dummy_analysis_time_limit_keeps_the_last_cards():
    """A time limit raises nothing: every card keeps its double-dummy verdict (exact or
    bounded), the cards judged in time are the deal's last ones, the others are not judged."""
    obj = random_endgame(random.Random(14), "fr4", 0)
    pos = parse_position(obj)
    report = analyze_single_dummy(pos, start=len(pos.played) - 40, samples=200, seed=2,
                                  time_limit=0.5, workers=2)
    assert [p["index"] for p in report["plays"]] == list(range(len(pos.played) - 40, len(pos.played)))
    judged = [p["index"] for p in report["plays"] if p["single_dummy"] is not None]
    assert judged == list(range(len(pos.played) - len(judged), len(pos.played)))
    assert report["single_dummy"]["judged"] == len(judged) < 40
    assert report["single_dummy"]["stopped_by"] == "time"
    for play in report["plays"]:
        assert play["value_after"] is not None or play["bounds_after"] is not None
    for seat in report["seats"]:
        costs = [p["single_dummy"]["cost"] for p in report["plays"]
                 if p["seat"] == seat["seat"] and p["single_dummy"] is not None]
        assert seat["sd_cost"] == pytest.approx(sum(costs))


def test_cli_analyze_single_dummy(tmp_path):
    obj = dict(random_endgame(random.Random(15), "priest5", 0), id="deal")
    path = tmp_path / "deal.jsonl"
    path.write_text(json.dumps(obj) + "\n")
    out = _atout("analyze", str(path), "--last-tricks", "2", "--single-dummy", "--samples", "5",
                 "--seed", "1", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert len(report["plays"]) == 10 and all("single_dummy" in p for p in report["plays"])
    text = _atout("analyze", str(path), "--last-tricks", "2", "--single-dummy", "--samples", "5",
                  "--seed", "1", "--ascii")
    assert text.returncode == 0 and "sd cost" in text.stdout and "sd mistakes" in text.stdout
    usage = _atout("analyze", str(path), "--samples", "5")
    assert usage.returncode == 2 and "--single-dummy" in usage.stderr


def test_text_keeps_the_partner_hidden_until_the_seat_can_know():
    """--text writes the contract as the seat to play sees it: while the called card is
    hidden from it, neither "held by seat N" nor "alone"."""
    from atout.client.advise_cmd import render
    from atout.knowledge import seat_knowledge
    from atout.present.text import contract_text
    rng = random.Random("text-partner")
    checked = 0
    while checked < 3:
        pos = parse_position(random_endgame(rng, "fr5", 3))
        if pos.contract.called not in seat_knowledge(pos, pos.to_play).hidden:
            continue
        text = render(pos, advise(pos, samples=1, seed=1).to_json(), ascii=True)
        head = text.splitlines()[0]
        assert not any(w in head for w in ("held by", "partner", "alone")), head
        assert "held by seat" in contract_text(pos) or "alone" in contract_text(pos)  # all seen
        checked += 1


# -- paired statistics, stopping early, what the seat cannot see -------------------------------

def test_behind_is_the_paired_loss_over_the_same_draws():
    """Each card's behind / behind_se / p_better: its loss against the recommended card in
    each of the first ``draws`` draws (the deals draw() draws, in order), each deal solved
    on its own with solve --all."""
    rng = random.Random("paired")
    while True:
        pos = parse_position(random_endgame(rng, "fr4", 3, partial=True))
        if len(pos.legal_cards()) >= 3:
            break
    a = advise(pos, samples=25, seed=4, workers=2, confidence=1)
    deals = draw(pos, a.solved, seed=4)
    values = [solve(parse_position(deals.deals[key]), all_cards=True).cards for key in deals.order]
    sign = 1 if a.maximizing else -1
    rec = a.recommended
    assert a.cards[0]["card"] == rec and a.solved == 25
    for row in a.cards[1:]:
        d = [sign * (v[rec] - v[row["card"]]) for v in values[:row["draws"]]]
        assert row["behind"] == pytest.approx(sum(d) / len(d), abs=1e-4)
        assert row["mean"] == pytest.approx(sum(v[row["card"]] for v in values[:row["draws"]]) / len(d), abs=1e-4)
        if len(set(d)) > 1:
            assert 0 <= row["p_better"] <= 1 and row["behind_se"] > 0


def test_stops_early_once_sure():
    """A position where one card is clearly best stops early, and says so; the same seed
    gives the same advice; --confidence 1 draws them all."""
    rng = random.Random("sure")
    for _ in range(200):
        pos = parse_position(random_endgame(rng, "fr3", 3))
        if len(pos.legal_cards()) < 3:
            continue
        a = advise(pos, samples=60, seed=2, workers=2)
        if a.decided == "confidence" and a.solved < 60:
            break
    assert a.status == "ok" and a.solved < 60 and a.certainty >= 0.95
    # the certainty is the weakest of the other cards' tests (cards worth the same share
    # their row's numbers; the recommended card's own group is never better: 0)
    assert max(row["p_better"] or 0 for row in a.cards) == pytest.approx(1 - a.certainty, abs=1e-3)
    again = advise(pos, samples=60, seed=2, workers=1)
    assert again.recommended == a.recommended and again.cards == a.cards
    every = advise(pos, samples=60, seed=2, workers=2, confidence=1)
    assert every.decided == "samples" and every.solved == 60


def test_cards_worth_the_same_are_one_choice():
    """Legal cards that no deal tells apart (solver/equivalent.py) are valued once and
    reported together, each row listing its group; where they are all the legal cards,
    the advice answers at once (it used to solve every draw)."""
    from atout.solver.equivalent import equivalent_cards
    rng = random.Random("one choice")
    while True:
        pos = parse_position(random_endgame(rng, "fr4", 4, partial=True))
        groups = equivalent_cards(pos)
        if len(groups) == 1 and len(groups[0]) > 1:
            break
    a = advise(pos, samples=20, seed=1, workers=2)
    group = sorted(token(c) for c in groups[0])
    assert a.decided == "one card" and a.solved == 0 and a.nodes == 0 and a.certainty == 1.0
    assert a.best == sorted(group) and a.recommended == token(groups[0][0])
    assert [row["card"] for row in a.cards] == [token(c) for c in groups[0]]
    assert all(row["equivalent"] == a.cards[0]["equivalent"] for row in a.cards)
    while True:
        pos = parse_position(random_endgame(rng, "fr4", 4, partial=True))
        groups = equivalent_cards(pos)
        if 1 < len(groups) < len(pos.legal_cards()):
            break
    a = advise(pos, samples=20, seed=1, workers=2)
    rows = {row["card"]: row for row in a.cards}
    assert set(rows) == {token(c) for c in pos.legal_cards()}
    for g in groups:
        first = rows[token(g[0])]
        for c in g[1:]:
            same = rows[token(c)]
            assert same["equivalent"] == [token(x) for x in g]
            assert {k: v for k, v in same.items() if k not in ("card", "p_better")} == \
                {k: v for k, v in first.items() if k not in ("card", "p_better")}
            assert same["p_better"] == (0.0 if token(g[0]) == a.recommended else first["p_better"])


def test_one_legal_card_answers_at_once():
    rng = random.Random("one card")
    while True:
        pos = parse_position(random_endgame(rng, "fr4", 2, partial=True))
        if len(pos.legal_cards()) == 1:
            break
    a = advise(pos, samples=100, seed=1)
    only = token(pos.legal_cards()[0])
    assert a.recommended == only and a.best == [only] and a.decided == "one card"
    assert a.solved == 0 and a.nodes == 0 and a.status == "ok" and a.deals >= 1
    json.dumps(a.to_json())
    # in words too (nothing drawn, so no mean and no bounds: it was a KeyError)
    from atout.client.advise_cmd import render
    text = render(pos, a.to_json(), ascii=True)
    assert "one legal card, nothing to weigh" in text and f"play {only}" in text, text


def test_no_peeking():
    """Two deals the seat to play cannot tell apart get the same advice, card for card:
    it reads nothing the seat does not see."""
    from atout.knowledge import view
    rng = random.Random("peek")
    for game in GAMES:
        pos = parse_position(random_endgame(rng, game, 3, partial=True))
        k = seat_knowledge(pos, pos.to_play)
        other = next(p for p in map(parse_position, Sampler(k).positions(rng, 30))
                     if p.hands != pos.hands)
        assert view(other, pos.to_play) == view(pos, pos.to_play)
        one, two = (advise(p, samples=12, seed=5, workers=2).to_json() for p in (pos, other))
        for obj in (one, two):
            del obj["seconds"], obj["nodes"]
        assert one == two, game


def test_a_failing_draw_fails_the_advice_without_a_hang(monkeypatch):
    """A search that raises (a bug) ends the advice with that error: no worker is left
    waiting for a look that draw would have completed."""
    import atout.solver.advise as advice_module
    real, calls = advice_module.solve_cards, []

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("a bug")
        return real(*args, **kwargs)
    monkeypatch.setattr(advice_module, "solve_cards", failing)
    with pytest.raises(RuntimeError, match="a bug"):
        advise(_eight_tricks(), samples=40, seed=1, workers=2)


def test_a_draw_left_alone_gets_the_idle_cores(monkeypatch):
    """One draw and four workers: the three with nothing to begin give their cores to the
    draw's searches (threads under one search)."""
    import atout.solver.advise as advice_module
    real, seen = advice_module.solve_cards, []

    def watching(*args, threads=None, **kwargs):
        # the three idle workers lend their cores one by one: wait for all of them (on a
        # loaded machine the second may come well after the first)
        deadline = time.monotonic() + 30
        while threads() < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        seen.append(threads())
        return real(*args, threads=threads, **kwargs)
    monkeypatch.setattr(advice_module, "solve_cards", watching)
    a = advise(_eight_tricks(), samples=1, seed=1, workers=4)
    assert a.solved == 1 and seen == [4]
