"""The contract table (atout table): every proven cell is what `atout solve` of the
corresponding whole-deal position says, the écart classes make the same game, the
table agrees with itself, par and the bid played read the cells right, and bad input is
refused by field while the other deals go on.

Whole deals are too big to solve exactly in a test (but Austrian Tarock's negative games),
so the tables here are of deals cut short: every cell takes the same first cards as
played (``contract_table(..., played=...)``), and its position — built here from the
rules, not by the table's own code — is solved whole."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from atout.cards import card, token, tokens
from atout.contract_table import AT4_SOLO, table_spec
from atout.dealt import dealt
from atout.ecart import class_key, ecart_classes
from atout.errors import PositionError
from atout.games import AT4_NEGATIVE_TRICKS, rules_for
from atout.position import parse_position
from atout.solver import solve
from atout.solver.contract_table import contract_table

from deals import random_position


def _prefix(obj: dict, rng: random.Random, tricks_left: int) -> list[int]:
    """Random legal cards from the start of ``obj``'s deal until ``tricks_left`` remain."""
    pos = parse_position(obj)
    while pos.rules.hand_size - pos.trick_no > tricks_left:
        pos.play(rng.choice(pos.legal_cards()))
    return list(pos.played)


def _solved(game: str, hands, first: int, contract: dict, played) -> tuple | None:
    """(made, value) of a whole-deal position built here, solved; None where the rules
    refuse it (a card played that this contract makes illegal, an écart they forbid)."""
    try:
        pos = parse_position({"game": game, "hands": [tokens(h) for h in hands], "first": first,
                              "played": tokens(played), "contract": contract})
    except PositionError:
        return None
    r = solve(pos)
    return r.made, r.value


def _check_cell(cell: dict, made, value) -> None:
    lo, hi = cell["bounds"]
    assert lo <= value <= hi, (cell, value)
    assert cell["made"] in (None, made), (cell, made, value)
    if cell["value"] is not None:
        assert cell["value"] == value, (cell, value)


def _check_consistent(table: dict) -> None:
    """A garde contre made means the garde sans of the same seat and call is made."""
    by = {(c["seat"], c.get("called"), c["contract"]): c for c in table["cells"]}
    for (seat, called, contract), c in by.items():
        if contract == "garde_contre" and c["made"]:
            assert by[(seat, called, "garde_sans")]["made"] is not False, (seat, called)
        lo, hi = c["bounds"]
        assert lo <= hi
        if c["value"] is not None:
            assert lo == c["value"] == hi


# -- French Tarot --------------------------------------------------------------------------

def _french_oracle(obj: dict, table: dict, played: list[int]) -> int:
    """Each cell of a French table against the positions it stands for; returns the
    number of cells checked."""
    game = obj["game"]
    rules = rules_for(game)
    hands = [[card(t) for t in h] for h in obj["hands"]]
    dog = [card(t) for t in obj["contract"]["dog"]]
    first = obj["first"]
    checked = 0
    for cell in table["cells"]:
        seat = cell["seat"]
        base = {"taker": seat}
        if "called" in cell:
            base["called"] = cell["called"]
        if cell["contract"] != "garde":
            answer = _solved(game, hands, first, dict(base, bid=cell["contract"],
                                                      dog=tokens(dog)), played)
            assert answer is not None
            _check_cell(cell, *answer)
            checked += 1
            continue
        # every écart the rules allow, solved: made when one makes it; the classes the
        # table searched make the same game for each of their écarts
        mine = hands[seat] + dog
        values, by_class = [], {}
        keep = [c for c in played if c in mine]
        fixed = [card(cell["called"])] if "called" in cell else []
        # (a card the taker played was never put aside)
        free = sorted(c for c in mine if c not in played)
        for ecart in itertools.combinations(free, len(dog)):
            after = [list(h) for h in hands]
            after[seat] = [c for c in mine if c not in ecart]
            answer = _solved(game, after, first, dict(base, bid="garde", dog=tokens(ecart)),
                             played)
            if answer is None:
                continue
            values.append(answer)
            key = class_key(rules, hands, seat, dog, ecart, keep=keep, fixed=fixed)
            assert key is not None, ecart
            assert by_class.setdefault(key, answer[1]) == answer[1], "a class of two games"
        assert values
        made = any(m for m, _ in values)
        _check_cell(cell, made, max(v for _, v in values))
        assert cell["made"] is not None         # a deal cut short: every écart is settled
        if cell["made"]:
            ecart = [card(t) for t in cell["ecart_cards"]]
            after = [list(h) for h in hands]
            after[seat] = [c for c in mine if c not in ecart]
            assert _solved(game, after, first, dict(base, bid="garde", dog=tokens(ecart)),
                           played)[0] is True
        checked += 1
    return checked


@pytest.mark.parametrize("game,seed", [("fr4", 1), ("fr4", 2), ("fr3", 3), ("fr5", 4)])
def test_french_cells_are_what_solve_says(game, seed):
    rng = random.Random(seed)
    obj = random_position(rng, game, "garde_sans", chelem=False, poignees=False)
    played = _prefix(obj, rng, 2)
    table = contract_table(obj, played=played, implications=False)
    assert table["status"] == "ok"
    assert all(c["made"] is not None for c in table["cells"])
    _check_consistent(table)
    assert _french_oracle(obj, table, played) == len(table["cells"])
    # the same with the implied answers, and every exact value asked: the same verdicts,
    # each value but a searched écart's exact (and checked against solve)
    again = contract_table(obj, played=played, threads=2, values=True)
    assert again["status"] == "ok"
    assert [c["made"] for c in again["cells"]] == [c["made"] for c in table["cells"]]
    assert all(c["value"] is not None for c in again["cells"] if c.get("ecart") != "searched")
    assert _french_oracle(obj, again, played) == len(again["cells"])


def test_the_ecart_given_is_the_takers_own():
    """A garde with its écart and the dog shown: the taker's garde is played with that
    écart — and searched beside it (could another écart have made it?) — every other
    seat's searched, and the garde sans of the deal as dealt."""
    rng = random.Random(5)
    obj = random_position(rng, "fr4", "garde", taker=1, chelem=False, poignees=False)
    pos = parse_position(obj)
    d = dealt(pos)
    taker_hand = set(d.hands[1])
    assert taker_hand == (set(pos.hands[1]) | set(pos.contract.outside[0])) - set(pos.contract.shown_dog)
    assert set(d.outside) == set(pos.contract.shown_dog)
    spec = table_spec(d)
    garde = [(c.seat, c.ecart) for c in spec.cells if c.contract == "garde"]
    assert garde == [(0, "searched"), (1, "given"), (1, "searched"), (2, "searched"),
                     (3, "searched")]
    given = next(c for c in spec.cells if c.ecart == "given")
    assert given.position.hands == pos.hands
    assert sorted(given.given_ecart) == sorted(pos.contract.outside[0])


def test_without_the_dog_shown_only_the_contract_played():
    rng = random.Random(6)
    obj = random_position(rng, "fr4", "prise", taker=2, chelem=False, poignees=False)
    del obj["contract"]["shown_dog"]
    spec = table_spec(dealt(parse_position(obj)))
    assert [(c.seat, c.contract, c.ecart) for c in spec.cells] == [(2, "garde", "given")]
    assert {m.contract for m in spec.missing} == {"garde", "garde_sans", "garde_contre"}
    assert all(m.field == "contract.shown_dog" for m in spec.missing)
    with pytest.raises(PositionError) as e:
        table_spec(dealt(parse_position(obj)), ["garde_sans"])
    assert e.value.field == "contract.shown_dog"


def test_ecart_classes_hold_every_ecart_once():
    """Every écart the rules allow is in one class (the classes' sizes add up to them)."""
    rng = random.Random(7)
    for game in ("fr5", "fr5"):
        obj = random_position(rng, game, "garde_sans", chelem=False, poignees=False)
        rules = rules_for(game)
        hands = [[card(t) for t in h] for h in obj["hands"]]
        dog = [card(t) for t in obj["contract"]["dog"]]
        for seat in range(len(hands)):
            classes = ecart_classes(rules, hands, seat, dog)
            legal = [e for e in itertools.combinations(sorted(hands[seat] + dog), len(dog))
                     if class_key(rules, hands, seat, dog, e) is not None]
            assert sum(k.size for k in classes) == len(legal)
            keys = {class_key(rules, hands, seat, dog, k.ecart) for k in classes}
            assert len(keys) == len(classes) == len({class_key(rules, hands, seat, dog, e)
                                                     for e in legal})


def test_counting_the_ecarts_stops_when_asked():
    """A whole fr4 deal's écarts take a second or more to count, and a search process must
    stop within its grace when its request goes away (a contract table replaced in the
    viewer was killed so): the count asks its ``stop`` as it goes and raises Stopped when
    it says yes; a ``stop`` that never does changes nothing; and a table cancelled while
    its écarts are counted stops there (before, the whole count ran first)."""
    from atout.ecart import STOP_EVERY
    from atout.errors import Stopped
    from atout.solver import Cancel

    obj = json.loads((Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-full.jsonl")
                     .read_text().splitlines()[2])       # gardes over every écart: 17,275 classes
    d = dealt(parse_position(obj))
    rules = rules_for("fr4")
    asked = []

    def stop_at_third_question() -> bool:
        asked.append(1)
        return len(asked) >= 3

    seat = 3                                               # 6,263 classes
    with pytest.raises(Stopped):
        ecart_classes(rules, [list(h) for h in d.hands], seat, d.outside,
                      stop=stop_at_third_question)
    assert len(asked) == 3
    every = ecart_classes(rules, [list(h) for h in d.hands], seat, d.outside)
    assert len(every) > 3 * STOP_EVERY
    assert ecart_classes(rules, [list(h) for h in d.hands], seat, d.outside,
                         stop=lambda: False) == every
    cancel = Cancel()
    cancel.set()
    with pytest.raises(Stopped):
        contract_table(obj, time_limit=60, cancel=cancel)


def test_a_table_stopped_while_counting_ecarts_answers_at_once():
    """The search process's answer to a table stopped before its cells are known: the job
    failed as "stopped" (no one waits for it), not a bug."""
    from atout.server import worker
    from atout.solver import Cancel

    obj = json.loads((Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-full.jsonl")
                     .read_text().splitlines()[2])
    cancel = Cancel()
    cancel.set()
    answer = worker.run_job("table", 1, obj, {"time_limit": 60, "tt_mb": 16}, cancel)
    assert isinstance(answer, worker.Failed) and answer.kind == "stopped", answer


# -- Priestertarock ---------------------------------------------------------------------------

def test_priest_cells_are_what_solve_says():
    rng = random.Random(8)
    obj = random_position(rng, "priest5")
    played = _prefix(obj, rng, 3)
    table = contract_table(obj, played=played)
    assert table["status"] == "ok"
    hands = [[card(t) for t in h] for h in obj["hands"]]
    con = obj["contract"]
    base = {"dealer": con["dealer"], "open": con["open"]}
    assert len(table["cells"]) == 25
    for cell in table["cells"]:
        if cell["contract"] == "alone":
            contract = dict(base, caller=cell["seat"], alone=True)
        else:
            partner = cell["partner"]
            contract = dict(base, caller=cell["seat"], called=token(hands[partner][0]))
            assert token(hands[partner][0]) in cell["calls"]
        _check_cell(cell, *_solved("priest5", hands, obj["first"], contract, played))
    _check_par(table)


# -- Austrian Tarock --------------------------------------------------------------------------

def _at4_contract(cell: dict, hands, talon, obj: dict) -> dict:
    """The position's contract of an at4 cell, by the seed's rules: a solo game's talon
    for the other camp, a called king lying in it for the declarer — but the contract
    played, whose side cards are as the position gives them."""
    seat = cell["seat"]
    con = obj["contract"]
    if (con["bid"], con.get("declarer"), con.get("called")) == (cell["contract"], seat,
                                                                 cell.get("called")):
        return dict(con, objective=cell.get("objective", "contract"))
    partner = cell.get("partner")
    other = next(s for s in range(4) if s not in (seat, partner))
    called = cell.get("called")
    side = {str(other): [t for t in talon if t != called]}
    if called in talon:
        side[str(seat)] = [called]
    contract = {"bid": cell["contract"], "declarer": seat, "side_cards": side,
                "objective": cell.get("objective", "contract"),
                "counting": con.get("counting", "seed")}
    if called:
        contract["called"] = called
    return contract


@pytest.mark.parametrize("bid,seed", [("solodreier", 9), ("bettler", 10), ("farbensolo", 11)])
def test_at4_cells_are_what_solve_says(bid, seed):
    """Deals cut short under a trump, a negative and a colour game: each cell whose cards
    played its game allows."""
    rng = random.Random(seed)
    obj = random_position(rng, "at4", bid, objective="contract", declarer=0, first=0)
    played = _prefix(obj, rng, 3)
    table = contract_table(obj, played=played)
    assert table["status"] == "ok"
    hands = [[card(t) for t in h] for h in obj["hands"]]
    talon = [t for ts in obj["contract"]["side_cards"].values() for t in ts]
    games = {c["contract"] for c in table["cells"]}
    assert games & (set(AT4_SOLO) | set(AT4_NEGATIVE_TRICKS))
    for cell in table["cells"]:
        first = cell["seat"] if cell["contract"] in AT4_NEGATIVE_TRICKS else obj["first"]
        _check_cell(cell, *_solved("at4", hands, first, _at4_contract(cell, hands, talon, obj),
                                   played))
    _check_par(table)


def test_at4_whole_deal_negative_games():
    """A whole Austrian deal: every seat's piccolo and bettler (and their ouvert forms,
    the same game double dummy) against the whole deal solved."""
    rng = random.Random(12)
    obj = random_position(rng, "at4", "solodreier", objective="contract")
    asked = ["piccolo", "bettler", "bettler_ouvert"]
    table = contract_table(obj, contracts=asked, threads=2)
    assert table["status"] == "ok"
    assert len(table["cells"]) == 12
    hands = [[card(t) for t in h] for h in obj["hands"]]
    talon = [t for ts in obj["contract"]["side_cards"].values() for t in ts]
    for cell in table["cells"]:
        _check_cell(cell, *_solved("at4", hands, cell["seat"],
                                   _at4_contract(cell, hands, talon, obj), []))
    by = {(c["seat"], c["contract"]): c["made"] for c in table["cells"]}
    assert all(by[(s, "bettler")] == by[(s, "bettler_ouvert")] for s in range(4))


def test_at4_whole_deal_solo_games():
    """A whole Austrian deal's solo games and their announcements against `atout solve`
    of each whole deal, stopped once it has answered the contract question (it asks that
    first; the exact points of a hopeless solo take it minutes)."""
    rng = random.Random(14)
    obj = random_position(rng, "at4", "solodreier", objective="contract")
    table = contract_table(obj, contracts=["solodreier", "farbensolo"], threads=2)
    # per seat: solodreier and its volat and ultimos, farbensolo and its volat — but an
    # ultimo whose bird the declarer (alone) does not hold, which no play can make
    impossible = sum(1 for seat in range(4) for bird in ("T1", "T2", "T3", "T4")
                     if bird not in obj["hands"][seat])
    assert table["status"] == "ok" and len(table["cells"]) == 32 - impossible
    hands = [[card(t) for t in h] for h in obj["hands"]]
    talon = [t for ts in obj["contract"]["side_cards"].values() for t in ts]
    answered = 0
    for cell in table["cells"]:
        contract = _at4_contract(cell, hands, talon, obj)
        r = solve(parse_position({"game": "at4", "hands": obj["hands"], "first": obj["first"],
                                  "contract": contract}), node_limit=200_000)
        lo, hi = r.bounds if r.bounds is not None else (r.value, r.value)
        assert max(lo, cell["bounds"][0]) <= min(hi, cell["bounds"][1]), (cell, lo, hi)
        if r.made is not None:
            assert r.made == cell["made"], cell
            answered += 1
    assert answered >= len(table["cells"]) - 8


def test_at4_cells_by_the_seed():
    """Which games and announcements each seat is asked: solorufer per king it may call,
    volat only in a colour game, the talon game only where the position plays it."""
    rng = random.Random(13)
    obj = random_position(rng, "at4", "dreier", declarer=2, objective="contract")
    spec = table_spec(dealt(parse_position(obj)))
    hands = [set(h) for h in parse_position(obj).hands]
    for seat in range(4):
        kings = {c.called for c in spec.cells if c.seat == seat and c.contract == "solorufer"}
        assert kings == ({k for k in (13, 27, 41, 55) if k not in hands[seat]} or {13, 27, 41, 55})
        assert {c.objective for c in spec.cells if c.seat == seat
                and c.contract == "farbensolo"} == {"contract", "volat"}
        assert not any(c.objective != "contract" for c in spec.cells
                       if c.seat == seat and c.contract in AT4_NEGATIVE_TRICKS)
    assert {c.seat for c in spec.cells if c.contract == "dreier"} == {2}
    with pytest.raises(PositionError) as e:
        table_spec(dealt(parse_position(obj)), ["sechserdreier"])
    assert e.value.field == "contracts"


# -- par and the bid played -------------------------------------------------------------------

def _check_par(table: dict) -> None:
    """The par is a cell proven made that no other made cell outbids, proven when
    nothing that would beat it is open."""
    par = table["par"]
    cells = [c for c in table["cells"] if c.get("objective", "contract") == "contract"]
    if par["contract"] is None:
        assert not any(c["made"] for c in cells)
        return
    match = [c for c in cells if c["seat"] == par["seat"] and c["contract"] == par["contract"]
             and c.get("called") == par.get("called") and c.get("partner") == par.get("partner")]
    assert match and match[0]["made"] is True
    if table["status"] == "ok":       # (a cell not asked could have beaten it)
        assert par["proven"] == (not table.get("missing"))


def test_par_follows_the_bidding():
    """French Tarot: the highest bid made, the first bidder among its seats; the bid
    played names the higher contracts some seat makes."""
    rng = random.Random(14)
    obj = random_position(rng, "fr4", "garde_sans", taker=3, chelem=False, poignees=False)
    played = _prefix(obj, rng, 2)
    table = contract_table(obj, played=played)
    ranks = {"garde": 0, "garde_sans": 1, "garde_contre": 2}
    made = [c for c in table["cells"] if c["made"]]
    par = table["par"]
    if made:
        top = max(ranks[c["contract"]] for c in made)
        assert ranks[par["contract"]] == top
        seats = [c["seat"] for c in made if ranks[c["contract"]] == top]
        assert par["seat"] == min(seats, key=lambda s: (s - obj["first"]) % 4)
    higher = {(c["seat"], c["contract"]) for c in table["played"]["higher"]}
    assert higher == {(c["seat"], c["contract"]) for c in made if c["contract"] == "garde_contre"}
    _check_par(table)


# -- the command ------------------------------------------------------------------------------

def _run(args, stdin: str):
    return subprocess.run([sys.executable, "-m", "atout.client.cli", "table", *args],
                          input=stdin, capture_output=True, text=True, timeout=300)


def test_command_bad_lines_named_and_the_others_go_on():
    rng = random.Random(15)
    at4 = random_position(rng, "at4", "bettler", declarer=1, first=1)
    at4["id"] = "at4 deal"
    fr4 = random_position(rng, "fr4", "prise", chelem=False, poignees=False)
    del fr4["contract"]["shown_dog"]
    fr4["id"] = "no dog"
    lines = [json.dumps(at4), json.dumps(fr4), '{"game": "fr4"}']
    out = _run(["--contract", "bettler", "--time-limit", "60"], "\n".join(lines) + "\n")
    assert out.returncode == 1
    results = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["status"] for r in results] == ["ok", "error", "error"]
    assert results[0]["id"] == "at4 deal" and len(results[0]["cells"]) == 4
    assert results[1]["field"] == "contracts" and "bettler" in results[1]["reason"]
    assert results[2]["field"] == "hands"
    assert "no dog: contracts: fr4 has no contract 'bettler'" in out.stderr
    assert "Traceback" not in out.stderr
    # the dog not shown: asked for a garde sans, the field that would give it
    out = _run(["--contract", "garde_sans"], json.dumps(fr4) + "\n")
    assert out.returncode == 1
    assert json.loads(out.stdout)["field"] == "contract.shown_dog"


def test_command_text():
    rng = random.Random(16)
    obj = random_position(rng, "at4", "piccolo", declarer=2, first=2)
    out = _run(["--text", "--ascii", "--contract", "piccolo", "--contract", "bettler"],
               json.dumps(obj) + "\n")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    # (contracts as players write them: issue 65)
    assert "seat 0 Piccolo" in text and "seat 3 Bettler" in text
    assert "par: " in text and "the contract played: Piccolo by seat 2" in text


def test_batch_tables_resume_and_refuse_other_results(tmp_path):
    from atout.runner.batch import BatchError, solve_all, table_all
    rng = random.Random(17)
    deals = [random_position(rng, "at4", "piccolo", declarer=s, first=s) for s in (0, 1)]
    for i, d in enumerate(deals):
        d["id"] = f"deal {i}"
    src, out = tmp_path / "in.jsonl", tmp_path / "tables.jsonl"
    src.write_text("\n".join(json.dumps(d) for d in deals) + '\n{"id": "bad", "game": "x"}\n')
    report = table_all(src, out, workers=2, contracts=["bettler"], time_limit=60)
    assert (report.ok, report.errors) == (2, 1)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    by = {line["id"]: line for line in lines}
    assert by["bad"]["field"] == "game"
    for i in (0, 1):
        assert by[f"deal {i}"]["status"] == "ok" and len(by[f"deal {i}"]["cells"]) == 4
        assert by[f"deal {i}"]["position"]["contract"]["bid"] == "piccolo"
        alone = contract_table(deals[i], contracts=["bettler"])
        assert [c["made"] for c in by[f"deal {i}"]["cells"]] == [c["made"] for c in alone["cells"]]
    again = table_all(src, out, workers=1, contracts=["bettler"], time_limit=60)
    assert (again.skipped, again.solved) == (3, 0)
    with pytest.raises(BatchError, match="is a contract table"):
        solve_all(src, out, workers=1)
    r = subprocess.run([sys.executable, "-m", "atout.client.cli", "batch", "--table", str(src),
                        "-o", str(tmp_path / "t2.jsonl"), "--contract", "bettler", "--all"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--all is for solving, not --table" in r.stderr


def test_report_shows_each_boards_table_and_the_bidding_verdicts(tmp_path):
    """atout report --tables: a board's table and par under its hands, each table's
    bidding verdict read from the cells of its own deal's table."""
    from atout.present.report_tables import read_tables
    from atout.runner.batch import analyze_line, table_all
    rng = random.Random(18)
    base = random_position(rng, "at4", "bettler", declarer=0, first=0)
    plays = []
    for i, (bid, seat) in enumerate((("bettler", 0), ("piccolo", 1))):
        obj = dict(base, id=f"t{i + 1}", board="B1", table=i + 1, first=seat,
                   contract=dict(base["contract"], bid=bid, declarer=seat))
        pos = parse_position(obj)
        while not pos.is_finished:
            pos.play(rng.choice(pos.legal_cards()))
        obj["played"] = tokens(pos.played)
        plays.append(obj)
    src = tmp_path / "session.jsonl"
    src.write_text("".join(json.dumps(o) + "\n" for o in plays))
    analyses = tmp_path / "analyses.jsonl"
    analyses.write_text("".join(json.dumps(analyze_line(json.dumps(o).encode(), n,
                                                        {"last_tricks": 2, "tt_mb": 8})) + "\n"
                                for n, o in enumerate(plays, 1)))
    tables = tmp_path / "tables.jsonl"
    table_all(src, tables, workers=1, contracts=["bettler", "piccolo"], time_limit=60)
    page = tmp_path / "page.html"
    r = subprocess.run([sys.executable, "-m", "atout.client.cli", "report", str(analyses),
                        "-o", str(page), "--tables", str(tables)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    html = page.read_text()
    assert html.count("Who could have made what") == 1 and "seat 3 Piccolo" in html
    assert html.count('class="par"') == 1 and "Par: " in html
    with open(tables, "rb") as f:
        read = read_tables(f)
    for obj in plays:
        pos = parse_position(obj)
        table = read.of(pos)
        assert table["id"] == obj["id"]
        cell = next(c for c in table["cells"] if c["seat"] == pos.contract.declarer
                    and c["contract"] == obj["contract"]["bid"])
        made = {True: "made with best play", False: "down with best play"}[cell["made"]]
        assert (f"Bidding: {obj['contract']['bid'].capitalize()} by seat "
                f"{pos.contract.declarer}: {made}") in html
    # a file that holds no table: said, the page still made
    r = subprocess.run([sys.executable, "-m", "atout.client.cli", "report", str(analyses),
                        "-o", str(page), "--tables", str(analyses)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "line 1: status: not a contract table" in r.stderr


# -- issue 65: what is told, par's proof, the écarts within the time ------------------------

def test_every_cell_told_first_in_order_each_with_both_bounds():
    """The cells told while a table is worked out: first every cell, in the table's order,
    then each change — each with both bounds proven (a garde contre refuted by its garde
    sans was told as [null, 0], which gRPC could not carry); applied in order they end as
    the final table's cells, the taker's own écart written in each of them."""
    obj = json.loads((Path(__file__).resolve().parent / "data" / "table_z0.json").read_text())
    rng = random.Random(65)
    played = _prefix(obj, rng, 3)
    told = []
    table = contract_table(obj, played=played, on_cell=told.append)
    assert all(None not in c["bounds"] for c in told), [c for c in told if None in c["bounds"]]
    key = lambda c: tuple(str(c.get(k)) for k in ("seat", "contract", "called", "objective", "ecart"))
    assert [key(c) for c in told[:len(table["cells"])]] == [key(c) for c in table["cells"]]
    last = {}
    for c in told:
        last[key(c)] = c
    assert [last[key(c)] for c in table["cells"]] == table["cells"]
    given = [c for c in told if c.get("ecart") == "given"]
    assert given and all(c["ecart_cards"] == obj["contract"]["dog"] for c in given)


def test_the_takers_own_ecart_and_the_best_one_beside_it():
    """The taker of a garde: its cell with the écart it made, and the best écart's cell of
    the same seat — made whenever its own écart makes it; the contract played is judged
    by its own écart."""
    rng = random.Random(66)
    obj = random_position(rng, "fr4", "garde", taker=2, chelem=False, poignees=False)
    played = _prefix(obj, rng, 2)
    table = contract_table(obj, played=played, contracts=["garde"])
    assert table["status"] == "ok"
    own = [c for c in table["cells"] if c["seat"] == 2]
    assert [c["ecart"] for c in own] == ["given", "searched"]
    given, best = own
    assert given["ecart_cards"] == obj["contract"]["dog"]
    assert best["made"] or not given["made"]
    assert best["bounds"][0] >= given["bounds"][0]
    assert table["played"]["made"] == given["made"]
    assert table["played"]["bounds"] == given["bounds"]


def test_par_is_proven_only_where_every_contract_that_could_beat_it_was_asked():
    """``--contract garde_sans`` asks no garde and no garde contre: par cannot be proven
    (it was said "everyone passes (proven)"); the contracts left out that could beat it
    are named."""
    rng = random.Random(8)
    obj = random_position(rng, "priest5")
    played = _prefix(obj, rng, 3)
    whole = contract_table(obj, played=played)
    assert whole["status"] == "ok" and not whole.get("missing")
    assert whole["par"]["proven"] is True and "unasked" not in whole["par"]
    _check_par(whole)
    for asked, other in ((["call"], "alone"), (["alone"], "call")):
        part = contract_table(obj, played=played, contracts=asked)
        par = part["par"]
        assert part["status"] == "ok" and par["proven"] is False, (asked, par)
        assert par["unasked"] == [other]
    fr4 = random_position(rng, "fr4", "garde_sans", chelem=False, poignees=False)
    only = contract_table(fr4, played=_prefix(fr4, rng, 2), contracts=["garde_sans"])
    assert only["par"]["proven"] is False and "garde_contre" in only["par"]["unasked"]


def test_par_is_the_best_call_of_its_seat_and_contract():
    """Two calls of one seat's solorufer both made: par names the one whose declarer also
    makes more announcements, then the higher value (a solorufer calling K♠ with kakadu
    ultimo was named where K♣ made kakadu and König ultimo too)."""
    from atout.contract_table import CellResult, par

    rng = random.Random(68)
    obj = random_position(rng, "at4", "solorufer", declarer=1, objective="contract")
    spec = table_spec(dealt(parse_position(obj)), ["solorufer"])
    seat = next(s for s in range(4) if len({c.called for c in spec.cells
                                            if c.seat == s and c.objective == "contract"}) >= 2)
    first, second = sorted({c.called for c in spec.cells if c.seat == seat})[:2]

    def results(made: dict) -> list:
        out = []
        for c in spec.cells:
            m = made.get((c.called, c.objective)) if c.seat == seat else False
            lo = {first: 150, second: 140}.get(c.called, 0) if c.objective == "contract" else 1
            out.append(CellResult(made=m or False, lo=lo if m else 0, hi=lo if m else 0))
        return out

    both = {(first, "contract"): True, (second, "contract"): True}
    assert par(spec, results(both))["called"] == token(first)          # the higher value
    announced = [o for c in spec.cells for o in [c.objective]
                 if c.seat == seat and c.called == second and o != "contract"]
    assert announced, "no announcement to make"
    more = {**both, (second, announced[0]): True}
    best = par(spec, results(more))
    assert best["called"] == token(second) and best["announcements"] == [announced[0]]
    # the other call open: par is not proven (it could be the better one)
    rs = results(both)
    for i, c in enumerate(spec.cells):
        if c.seat == seat and c.called == second:
            rs[i] = CellResult()
    assert par(spec, rs)["proven"] is False


def test_an_ultimo_no_hand_of_the_camp_can_make_is_not_asked():
    """An ultimo whose bird lies in the talon (or with the other camp) cannot be made: the
    table has no cell of it (it is shown as –), and asks no search."""
    rng = random.Random(69)
    for _ in range(200):
        obj = random_position(rng, "at4", "solodreier", declarer=0, objective="contract")
        talon = [t for ts in obj["contract"]["side_cards"].values() for t in ts]
        if "T1" in talon:
            break
    spec = table_spec(dealt(parse_position(obj)), ["solodreier", "solorufer"])
    assert not any(c.objective == "pagat_ultimo" for c in spec.cells)
    for c in spec.cells:
        if c.contract == "solodreier" and c.objective in ("uhu_ultimo", "kakadu_ultimo"):
            assert {"uhu_ultimo": "T2", "kakadu_ultimo": "T3"}[c.objective] in obj["hands"][c.seat]
    assert any(c.objective == "volat" for c in spec.cells)


def test_the_time_limit_counts_from_the_start_the_ecarts_too():
    """A time limit that runs out while the écarts are counted leaves the gardes not yet
    counted open (no classes), and the table is answered at once, stopped by the time
    (the whole count ran first, whatever the limit: 14.9 s for 0.5 s)."""
    obj = json.loads((Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-full.jsonl")
                     .read_text().splitlines()[2])
    table = contract_table(obj, time_limit=1e-6)
    assert table["status"] == "limit" and table["stopped_by"] == "time"
    gardes = [c for c in table["cells"] if c.get("ecart") == "searched"]
    assert gardes and all("ecart_classes" not in c and c["made"] is None for c in gardes)
    assert table["par"]["proven"] is False


def test_a_requests_check_counts_no_ecart(monkeypatch):
    """The server checks a table request before a search process takes it, on its event
    loop's side: that check counts no écart (a second or more of the loop's time)."""
    import atout.contract_table as ct
    from atout.server.service import _check_contracts

    def no(*args, **kwargs):
        raise AssertionError("the écarts counted")
    monkeypatch.setattr(ct, "ecart_classes", no)
    obj = json.loads((Path(__file__).resolve().parents[1] / "bench" / "data" / "fr4-full.jsonl")
                     .read_text().splitlines()[2])
    _check_contracts(obj, None)
    spec = table_spec(dealt(parse_position(obj)), count_ecarts=False)
    assert all(not c.counted for c in spec.cells if c.ecart == "searched")


def test_the_ecart_classes_come_in_the_takers_order_of_preference():
    """The classes' order is :func:`atout.ecart.promise`'s (each class ranked as it is
    made, between two questions to ``stop``, not by one sort at the end that took seconds
    no stop could cut short)."""
    from atout.ecart import promise

    obj = random_position(random.Random(2), "fr3", "garde_sans")
    d = dealt(parse_position(obj))
    rules = rules_for("fr3")
    for seat in (2,):                       # (its 5,085 classes: the fewest of the three)
        classes = ecart_classes(rules, [list(h) for h in d.hands], seat, d.outside)
        mine = list(d.hands[seat]) + list(d.outside)
        keys = [(promise(k.ecart, mine, rules), k.ecart) for k in classes]
        assert keys == sorted(keys)


def test_cores_taken_back_stop_their_turns_at_once(monkeypatch):
    """The server lends a table the idle search processes' cores and takes them back when
    a call needs one: the turn searching on the core taken back stops then, not when its
    budget runs out (seconds later: an analysis's deadline on the other process was missed
    under the load).  Here every turn is endless but for a stop: the worker past the
    number ends at once or never."""
    import threading
    import time

    import atout.solver.contract_table as search
    from atout.solver import Cancel

    def endless(engine, threshold, lo, hi):
        while not engine.stopped:
            time.sleep(0.01)
        return False, lo, hi
    monkeypatch.setattr(search, "ask_made", endless)
    obj = json.loads((Path(__file__).resolve().parents[1] / "bench" / "data" / "priest5-full.jsonl")
                     .read_text().splitlines()[0])
    cancel, wants, out = Cancel(), [], {}
    run = threading.Thread(target=lambda: out.update(table=contract_table(
        obj, time_limit=120, threads=2, cancel=cancel, on_threads=wants.append)))
    run.start()
    try:
        for _ in range(200):
            second = [t for t in threading.enumerate() if t.name == "atout-table-1"]
            if second:
                break
            run.join(0.05)
        assert second and wants
        run.join(0.3)                       # (both turns under way)
        wants[0](1)
        second[0].join(10)
        assert not second[0].is_alive(), "the turn on the core taken back goes on"
    finally:
        cancel.set()
        run.join()
    assert out["table"]["stopped_by"] == "cancel"


def test_the_text_a_player_reads():
    """``--text``: contracts named as players write them, a legend for the numbers,
    Austrian points in standard counting in thirds as elsewhere (55⅔, not 167),
    Priestertarock's partners in seat order with a card to call, the taker's own écart
    beside the best, and par "not known yet" — naming what could still be made — where
    nothing is proven (it said "everyone passes" in bold)."""
    from atout.present.table_text import describe_table

    fr4 = random_position(random.Random(7), "fr4", "garde", taker=1, chelem=False,
                          poignees=False)
    text = describe_table(contract_table(fr4, time_limit=1e-6))
    assert "par: not known yet — no contract is proven made; could still be made: " \
           "Garde by seat" in text and "everyone passes" not in text
    assert "numbers: the deal's score per defender" in text
    head = text.splitlines()[1].split()
    assert head == ["Prise/garde", "own", "écart", "Garde", "sans", "Garde", "contre"]
    assert "seat 1's garde with the écart it made (" in text

    rng = random.Random(9)
    at4 = random_position(rng, "at4", "solodreier", objective="contract", declarer=0, first=0,
                          counting="standard")
    table = contract_table(at4, played=_prefix(at4, rng, 3), values=True)
    text = describe_table(table)
    exact = [c for c in table["cells"] if c["value"] is not None and not c.get("objective")
             and c["contract"] not in AT4_NEGATIVE_TRICKS]
    assert exact and table["counting"] == "standard"
    for c in exact:
        whole, third = divmod(c["value"], 3)
        assert f"{'made' if c['made'] else 'down'} {whole or ''}{('', '⅓', '⅔')[third]}" in text
    assert "counted in threes (made with 35⅔ of 70)" in text
    assert "Solodreier" in text and "solodreier" not in text.replace("at4", "")

    priest = random_position(random.Random(8), "priest5")
    text = describe_table(contract_table(priest, time_limit=1e-6))
    head = [c.strip() for c in text.splitlines()[1].split("  ") if c.strip()]
    assert head == [f"with seat {s}" for s in range(5)] + ["Alone"]
    assert ", call " in text and "écart" not in text


def test_the_command_says_progress_on_a_terminal_and_refusals_in_words():
    """On a terminal the bar says how many cells are proven (120 s of silence before); a
    refused deal with ``--text`` is said in words on stdout, not as a JSON line."""
    import os
    import pty
    import time

    obj = random_position(random.Random(70), "fr4", "garde_sans", chelem=False, poignees=False)
    import fcntl
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 160, 0, 0))  # (a 0-wide bar: none)
    proc = subprocess.Popen([sys.executable, "-m", "atout.client.cli", "table", "--time-limit",
                             "2.5", "--threads", "1"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    proc.stdin.write((json.dumps(obj) + "\n").encode())
    proc.stdin.close()
    seen = b""
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            seen += os.read(master, 65536)
        except OSError:
            break
    proc.wait(60)
    os.close(master)
    assert b"cells proven" in seen, seen[-500:]
    assert json.loads(proc.stdout.read())["status"] == "limit"
    out = _run(["--text", "--contract", "bettler"], json.dumps(obj) + "\n")
    assert out.returncode == 1 and "{" not in out.stdout
    assert out.stdout.startswith("line 1: refused: contracts: fr4 has no contract 'bettler'")
