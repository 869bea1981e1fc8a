"""Bots playing whole deals (solver/bots.py, solver/play.py, ``atout play``): no seat's
bot reads a card its seat cannot know, the same seed and node budgets play the same
cards at any number of workers, the double-dummy bot plays an optimal card, the rule
bot its rule, and the command writes each finished deal as a played position and keeps
them when stopped."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from atout.cards import card, token
from atout.knowledge import seat_knowledge, view
from atout.position import parse_position
from atout.sampler import Sampler
from atout.solver import solve
from atout.solver.bots import AdviceBot, PerfectBot, RuleBot
from atout.solver.play import card_seed, play_deal
from atout.tricks import winning_index
from deals import GAMES, random_endgame, random_position

ATOUT = Path(sys.executable).parent / "atout"


@pytest.mark.parametrize("game", GAMES)
def test_no_seat_reads_a_card_it_cannot_know(game):
    """The advice bot of the seat to play chooses the same card, with the same advice,
    in two deals the seat cannot tell apart (the hidden cards dealt again): it reads
    nothing its seat does not see.  A node budget, so that both are searched alike; one
    position near the end (draws solved) and one early (draws capped)."""
    rng = random.Random(f"leak-{game}")
    bot = AdviceBot(node_limit=150_000, samples=12, workers=2)
    for tricks in (3, 9):
        pos = parse_position(random_endgame(rng, game, tricks, partial=True))
        while len(pos.legal_cards()) < 2:
            pos = parse_position(random_endgame(rng, game, tricks, partial=True))
        seat = pos.to_play
        other = next(p for p in map(parse_position, Sampler(seat_knowledge(pos, seat)).positions(rng, 30))
                     if p.hands != pos.hands)
        assert view(other, seat) == view(pos, seat)
        seed = card_seed(7, 0, len(pos.played))
        one, two = bot.choose(pos, seed), bot.choose(other, seed)
        assert (one.card, one.detail) == (two.card, two.detail), (game, tricks)
        assert card(one.card) in pos.legal_cards()


def test_the_same_seed_plays_the_same_cards_at_any_number_of_workers():
    """A whole deal (at4: 48 cards), two advice bots with a node budget a card and two
    rule bots: one worker and three play the same cards, and the finished deal is a
    played position naming its bots."""
    deal = parse_position(random_position(random.Random(3), "at4", "solorufer"))
    runs = []
    for workers in (1, 3):
        bots = [AdviceBot(node_limit=30_000, samples=10, workers=workers), RuleBot(),
                AdviceBot(node_limit=30_000, samples=10, workers=workers), RuleBot()]
        played = play_deal(deal, bots, seed=11, number=0)
        assert played.position.is_finished
        runs.append(played.to_json())
    assert runs[0] == runs[1]
    assert runs[0]["players"] == ["advice 30,000 nodes a card", "rule"] * 2
    assert parse_position(runs[0]).outcome()["value"] is not None


def test_the_double_dummy_bot_plays_an_optimal_card():
    rng = random.Random("perfect")
    for game in GAMES:
        pos = parse_position(random_endgame(rng, game, 4))
        choice = PerfectBot().choose(pos)
        assert choice.how == "double dummy" and choice.card in solve(pos).best, game
    # stopped by its budget: the search's best guess, a legal card
    pos = parse_position(random_position(random.Random(1), "fr4"))
    choice = PerfectBot(node_limit=20_000).choose(pos)
    assert choice.how == "guess" and card(choice.card) in pos.legal_cards()


def test_the_rule_bot_takes_the_trick_with_its_highest_card_or_plays_its_cheapest():
    rng = random.Random("rule")
    for game in GAMES:
        for _ in range(30):
            pos = parse_position(random_endgame(rng, game, rng.randrange(1, 8), partial=True))
            legal = pos.legal_cards()
            chosen = card(RuleBot().choose(pos).card)
            assert chosen in legal
            trick, seat, rules = list(pos.trick), pos.to_play, pos.rules
            wins = [c for c in legal if winning_index(rules, trick + [(seat, c)]) == len(trick)]
            if wins:
                assert chosen in wins
                # no other winner of the same suit is stronger
                assert all(rules.power[c] <= rules.power[chosen] for c in wins
                           if rules.suit(c) == rules.suit(chosen))
            else:
                assert rules.points[chosen] == min(rules.points[c] for c in legal)


def _atout(*args, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(ATOUT), *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.skipif(not ATOUT.exists(), reason="the atout script is not installed")
def test_atout_play_writes_played_deals_and_refuses_bad_options():
    deal = dict(random_position(random.Random(4), "priest5"), id="p5")
    out = _atout("play", "--nodes-per-card", "40000", "--samples", "10", "--seed", "5",
                 "--rule", "1", "--rule", "2", "--rule", "3", "--perfect", "4",
                 "--seat-nodes", "0=80000", stdin=json.dumps(deal) + "\n")
    assert out.returncode == 0, out.stderr
    played = json.loads(out.stdout)
    pos = parse_position(played)
    assert played["id"] == "p5" and pos.is_finished and len(pos.played) == 75
    assert played["players"] == ["advice 80,000 nodes a card", "rule", "rule", "rule",
                                 "double dummy 40,000 nodes a card"]
    assert _atout("score", stdin=out.stdout).returncode == 0
    # a seat the game does not have, and options that make no sense: refused, no traceback
    fr3 = json.dumps(random_position(random.Random(5), "fr3"))
    bad = _atout("play", "--rule", "4", "--nodes-per-card", "1000", stdin=fr3 + "\n")
    assert bad.returncode == 1 and json.loads(bad.stdout)["field"] == "seat"
    for args in (["--seat-budget", "9=2"], ["--seat-budget", "1"], ["--time-per-card", "0"]):
        bad = _atout("play", *args, stdin=fr3 + "\n")
        assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.mark.skipif(not ATOUT.exists(), reason="the atout script is not installed")
def test_sigterm_keeps_the_deals_finished():
    """Three deals; SIGTERM once the first is written: it stays, the one under way is
    dropped (said on stderr), exit 143."""
    deals = [json.dumps(dict(random_position(random.Random(i), "fr4"), id=f"d{i}")) for i in range(3)]
    proc = subprocess.Popen([str(ATOUT), "play", "--rule", "0", "--rule", "1", "--rule", "2",
                             "--time-per-card", "0.15", "--seed", "1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        proc.stdin.write("\n".join(deals) + "\n")
        proc.stdin.close()
        first = proc.stdout.readline()
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        rest, err = proc.stdout.read(), proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert json.loads(first)["id"] == "d0" and parse_position(json.loads(first)).is_finished
    assert proc.returncode == 143 and rest == ""
    assert "1 deal finished and written" in err and "d1 stopped after" in err
    assert "Traceback" not in err
