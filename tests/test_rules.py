"""Unit tests of each rule that differs between the games (docs/rules.md).

Trick rules are tested on atout.tricks with explicit hands; counting rules on
atout.scoring with explicit tricks (who won which cards); the rules that need a
real deal (the Excuse winning a slam) on played-out random deals."""

from __future__ import annotations

import dataclasses
import random


from atout.cards import EXCUSE, card, tokens
from atout.games import rules_for
from atout.position import parse_position
from atout.scoring import PlayedTrick, outcome
from atout.tricks import legal_cards, winning_index
from deals import keep_policy, random_endgame, random_position

# -- helpers ---------------------------------------------------------------------------------


def legal(rules, hand, trick=(), trick_no=3):
    """Legal tokens for ``hand`` after ``trick`` (tokens, seats 0, 1, ...)."""
    t = [(i, card(x)) for i, x in enumerate(trick)]
    return set(tokens(legal_cards(rules, {card(x) for x in hand}, t, trick_no)))


def winner(rules, trick):
    """Index of the winning card of ``trick`` (tokens)."""
    return winning_index(rules, [(i, card(x)) for i, x in enumerate(trick)])


def contract_for(game, bid=None, **options):
    """A parsed contract of a random valid deal."""
    obj = random_position(random.Random(7), game, bid, **options)
    return parse_position(obj).contract


def tricks(*groups):
    """Tricks from (winner, cards) groups in order.  ``cards`` are tokens, ``"seat:tok"``
    to say who played a card; a group of k·n cards makes k tricks won by ``winner``."""
    out = []
    for n, win, cards in groups:
        if "EX" in cards:  # a bare Excuse/Narr goes first: played by the winner itself
            cards = ["EX"] + [x for x in cards if x != "EX"]
        for i in range(0, len(cards), n):
            chunk = cards[i:i + n]
            played = []
            for j, x in enumerate(chunk):
                seat, tok = x.split(":") if ":" in x else ((win + j) % n, x)
                played.append((int(seat), card(tok)))
            out.append(PlayedTrick(tuple(played), win))
    return out


def rest(contract, *used):
    """Every card of the pack not outside the hands and not in ``used`` (tokens)."""
    taken = {card(x.split(":")[-1]) for group in used for x in group}
    taken |= {c for cs in contract.outside for c in cs} | set(contract.talon)
    return tokens(c for c in contract.rules.deck if c not in taken)


# -- French Tarot: trick rules ---------------------------------------------------------------

FR4 = rules_for("fr4")


def test_fr_follow_suit_then_trump_then_anything():
    assert legal(FR4, ["5H", "KH", "3S", "T4"], ["2H"]) == {"5H", "KH"}
    assert legal(FR4, ["3S", "T4", "T9"], ["2H"]) == {"T4", "T9"}
    assert legal(FR4, ["3S", "4C"], ["2H"]) == {"3S", "4C"}


def test_fr_overtrump_obligation_whoever_wins():
    # T9 is winning (a partner's or not: the rule has no exception) -> beat it if able
    assert legal(FR4, ["T4", "T12", "T15", "3S"], ["2H", "T9"]) == {"T12", "T15"}
    assert legal(FR4, ["T4", "T12", "3S"], ["T10", "T2"]) == {"T12"}
    # only lower trumps: any trump
    assert legal(FR4, ["T4", "T5", "3S"], ["2H", "T9"]) == {"T4", "T5"}
    # all trumps already in the trick count, not only the led one
    assert legal(FR4, ["T8", "T12"], ["T3", "T10"]) == {"T12"}


def test_fr_excuse_playable_any_time():
    assert "EX" in legal(FR4, ["5H", "EX", "T3"], ["2H"])
    assert "EX" in legal(FR4, ["T12", "EX"], ["T10"])
    assert "EX" in legal(FR4, ["3S", "EX"], ["2H", "T9"])
    assert legal(FR4, ["EX", "KS"]) == {"EX", "KS"}


def test_fr_excuse_led_second_card_sets_suit():
    assert legal(FR4, ["5H", "3S", "T2"], ["EX"]) == {"5H", "3S", "T2"}
    assert legal(FR4, ["5H", "3S", "T2"], ["EX", "2S"]) == {"3S"}
    assert legal(FR4, ["5H", "T2", "T7"], ["EX", "T4"]) == {"T7"}
    assert winner(FR4, ["EX", "2S", "9S", "KH"]) == 2


def test_fr_trick_winner():
    assert winner(FR4, ["2H", "KH", "T1", "QH"]) == 2
    assert winner(FR4, ["2H", "KS", "5H", "QC"]) == 2     # off-suit cards never win
    assert winner(FR4, ["2H", "EX", "3H", "1H"]) == 2     # the Excuse never wins
    assert winner(FR4, ["T3", "T21", "EX", "T20"]) == 1


def test_fr5_called_suit_first_lead():
    rules = rules_for("fr5", called=card("KH"))
    hand = ["3H", "KH", "5S", "T2", "EX"]
    assert legal(rules, hand, trick_no=0) == {"KH", "5S", "T2", "EX"}
    assert legal(rules, hand, trick_no=1) == set(hand)
    assert legal(rules, ["3H", "5H"], trick_no=0) == {"3H", "5H"}  # nothing else to lead
    # a queen called (the taker holds all four kings): hearts queen's suit is closed
    rules = rules_for("fr5", called=card("QH"))
    assert legal(rules, ["KH", "QH", "2S"], trick_no=0) == {"QH", "2S"}
    # following the called suit in the first trick is allowed
    rules = rules_for("fr5", called=card("KH"))
    assert legal(rules, ["3H", "5S"], ["2H"], trick_no=0) == {"3H"}
    assert rules_for("fr4").called_card is None


def test_fr_overtrump_in_fr3_and_fr5():
    """docs/rules.md §1 "Playing a trick": the overtrump obligation is a rule of every French
    game (fr3 and fr5 as well as fr4)."""
    for game in ("fr3", "fr5"):
        r = rules_for(game)
        assert legal(r, ["T4", "T12", "3S"], ["2H", "T9"]) == {"T12"}
        assert legal(r, ["T8", "T12", "EX"], ["T3", "T10"]) == {"T12", "EX"}
        assert legal(r, ["T4", "T5", "3S"], ["2H", "T9"]) == {"T4", "T5"}


# -- French Tarot: where the cards go and the score ----------------------------------------

DOG = ["2S", "3S", "4S", "5S", "6S", "7S"]  # 6 half points


def fr4_contract(bid="garde", taker=0, dog=DOG, **changes):
    c = contract_for("fr4", bid, taker=taker, chelem=False, poignees=False)
    outside = (tuple(map(card, dog)), ()) if bid != "garde_contre" else ((), tuple(map(card, dog)))
    return dataclasses.replace(c, outside=outside, **changes)


def fr5_contract(**changes):
    """fr5 garde: the taker seat 0, its partner seat 3, a dog of 3 half points."""
    c = contract_for("fr5", "garde", taker=0, chelem=False, poignees=False)
    return dataclasses.replace(c, outside=((card("2S"), card("3S"), card("4S")), ()),
                               partner=3, camp=(0, 1, 1, 0, 1), **changes)


def test_fr_excuse_exchange_before_last_trick():
    c = fr4_contract(taker=0)
    special = ["0:EX", "1:KH", "2:1H", "3:2H"]        # the taker's Excuse, the defence wins
    others = rest(c, special)
    out = outcome(c, tricks((4, 1, special), (4, 1, others)))
    # the taker keeps the Excuse (a bout) for 8 half points; the defence gets 1
    assert out["taker_points"] == 3 + 4 and out["bouts"] == 1
    assert out["defence_points"] == 91 - 7
    # the defence's Excuse in a trick the taker wins: the taker gets only 1 half point for it
    special = ["1:EX", "0:KH", "2:1H", "3:2H"]
    others = rest(c, special)
    out = outcome(c, tricks((4, 0, special), (4, 1, others)))
    assert out["taker_points"] == 3 + (9 + 1 + 1 + 1) / 2 and out["bouts"] == 0


def test_fr_excuse_in_last_trick_changes_camp():
    c = fr4_contract(taker=0)
    last = ["0:EX", "1:KH", "2:1H", "3:2H"]
    others = rest(c, last)
    # the taker plays it in the last trick: it goes to the defence, bout included
    out = outcome(c, tricks((4, 1, others), (4, 1, last)))
    assert out["taker_points"] == 3 and out["bouts"] == 0
    # ... even when the taker wins that trick: a defender's Excuse goes to the taker
    last = ["0:KH", "1:1H", "2:2H", "3:EX"]
    out = outcome(c, tricks((4, 1, rest(c, last)), (4, 0, last)))
    # half points arise in fr4 (3 + 5.5 + 4.5)
    assert out["taker_points"] == 3 + (9 + 1 + 1) / 2 + 4.5 and out["bouts"] == 1
    assert out["defence_points"] == 91 - out["taker_points"]


def _slam_position(slam_seat, taker, bid):
    """fr4, nothing played: ``slam_seat`` holds the Excuse and T5..T21 and leads."""
    big = ["EX"] + [f"T{n}" for n in range(5, 22)]
    small = ["T1", "T2", "T3", "T4"] + [r + s for s in "SHDC" for r in
                                        ("1 2 3 4 5 6 7 8 9 10 J N Q K".split())]
    dog, small = small[-6:], small[:-6]
    hands, others = [None] * 4, [s for s in range(4) if s != slam_seat]
    hands[slam_seat] = big
    for i, seat in enumerate(others):
        hands[seat] = small[18 * i:18 * i + 18]
    obj = {"game": "fr4", "hands": hands, "first": slam_seat, "played": [],
           "contract": {"taker": taker, "bid": bid, "dog": dog}}
    return parse_position(obj)


def slam_deal(slam_seat, taker, bid):
    """The deal of :func:`_slam_position`, played out: ``slam_seat`` wins every trick by
    leading its highest trump, and leads the Excuse to the last trick."""
    pos = _slam_position(slam_seat, taker, bid)
    while not pos.is_finished():
        legal = pos.legal_cards()
        if pos.to_play == slam_seat:
            trumps = [c for c in legal if c != EXCUSE]
            pos.play(max(trumps) if trumps else EXCUSE)
        else:
            pos.play(legal[0])
    return pos


def test_fr_excuse_wins_the_last_trick_in_a_slam():
    # the taker's slam: its Excuse wins the last trick, and it counts for the taker
    pos = slam_deal(0, 0, "garde_sans")
    assert pos.tricks[-1].winning_card() == EXCUSE and pos.tricks[-1].winner == 0
    out = pos.outcome()
    assert out["chelem"] == "taker" and out["taker_points"] == 91 and out["bouts"] == 3
    assert out["value"] == (25 + 55) * 4 + 200
    # the defence's slam: the same, for the defence
    pos = slam_deal(2, 0, "garde_contre")
    assert pos.tricks[-1].winning_card() == EXCUSE and pos.tricks[-1].winner == 2
    out = pos.outcome()
    assert out["chelem"] == "defence" and out["taker_points"] == 0 and out["bouts"] == 0
    assert out["value"] == -(25 + 56) * 6 - 200
    # T1 was played (and lost) before: no petit au bout
    assert out["petit_au_bout"] is None


def test_fr_excuse_loses_the_last_trick_without_a_slam():
    rng = random.Random(12)
    obj = random_endgame(
        rng, "fr4", 0, policy=keep_policy(["EX"]),
        accept=lambda p: (EXCUSE in [c for _, c in p.tricks[-1].cards]
                          and len({p.contract.camp[t.winner] for t in p.tricks[:-1]}) == 2))
    pos = parse_position(obj)
    assert pos.tricks[-1].winning_card() != EXCUSE


def test_fr_petit_au_bout():
    c = fr4_contract("garde", taker=0)
    last = ["0:T1", "1:1H", "2:2H", "3:3H"]
    out = outcome(c, tricks((4, 1, rest(c, last)), (4, 0, last)))
    assert out["petit_au_bout"] == "taker"
    # taker: 3 + 4.5 + 1.5 = 9 points, 1 bout: lost by 42; (−(25+42) + 10) × 2
    assert out["taker_points"] == 9 and out["value"] == (-(25 + 42) + 10) * 2
    out = outcome(c, tricks((4, 0, rest(c, last)), (4, 1, last)))
    assert out["petit_au_bout"] == "defence"
    # taker: 91 - 6 = 85 points with 2 bouts: made by 44; (25 + 44 - 10) × 2
    assert out["taker_points"] == 85 and out["value"] == (25 + 44 - 10) * 2


def test_fr_petit_au_bout_slam_case():
    c = fr4_contract("prise", taker=0)
    before = ["0:T1", "1:1H", "2:2H", "3:3H"]
    last = ["1:4H", "2:5H", "3:6H", "0:EX"]   # the Excuse wins: the taker has every trick
    out = outcome(c, tricks((4, 0, rest(c, before, last)), (4, 0, before), (4, 0, last)))
    assert out["petit_au_bout"] == "taker" and out["chelem"] == "taker"
    assert out["taker_points"] == 91 and out["bouts"] == 3
    assert out["value"] == (25 + 55 + 10) * 1 + 200
    # a petit two tricks before the end does not count
    early = ["0:T1", "1:7H", "2:8H", "3:9H"]
    out = outcome(c, tricks((4, 0, rest(c, early, before[1:], last)), (4, 0, early),
                            (4, 0, ["0:T2"] + before[1:]), (4, 0, last)))
    assert out["petit_au_bout"] is None


def test_fr_half_point_rounding():
    # fr3 garde: 6 half points in the écart; the taker's tricks: T21 T1, four kings, 3 queens
    c = contract_for("fr3", "garde", taker=0, chelem=False, poignees=False)
    won = ["T21", "T1", "KS", "KH", "KD", "KC", "QS", "QH", "QD"]   # 75 half points
    for dog, points, value in ((DOG, 40.5, -(25 + 1) * 2),             # 40.5 needing 41: lost by 1
                               (DOG[:5] + ["JS"], 41.5, (25 + 1) * 2)):  # 41.5: made by 1
        c2 = dataclasses.replace(c, outside=(tuple(map(card, dog)), ()))
        others = [x for x in rest(c2, won) if x != "JS"]
        if "JS" not in dog:
            others.append("JS")
        out = outcome(c2, tricks((3, 0, won), (3, 1, others)))
        assert out["taker_points"] == points and out["bouts"] == 2
        assert out["value"] == value and out["made"] == (value > 0)


def test_fr_chelem_bonuses():
    c = fr4_contract("prise")
    cards = rest(c)                                # T1 is not in the last trick
    slam = tricks((4, 0, cards))
    base = (25 + 55) * 1                           # all 91 points, 3 bouts
    assert outcome(c, slam)["value"] == base + 200             # not announced
    assert outcome(dataclasses.replace(c, chelem=True), slam)["value"] == base + 400
    # announced and failed: -200 on top of the game (not multiplied)
    one_lost = slam[:5] + [slam[5]._replace(winner=2)] + slam[6:]
    plain = outcome(c, one_lost)
    assert plain["chelem"] is None and plain["made"]
    assert outcome(dataclasses.replace(c, chelem=True), one_lost)["value"] == plain["value"] - 200
    # the defence makes the slam: -200 for the taker (garde contre: the dog is theirs too)
    c0 = fr4_contract("garde_contre")
    out = outcome(c0, tricks((4, 1, rest(c0))))
    assert out["chelem"] == "defence" and out["taker_points"] == 0
    assert out["value"] == -(25 + 56) * 6 - 200
    # announced by the taker and made by the defence: one −200, not two (docs/rules.md)
    out = outcome(dataclasses.replace(c0, chelem=True), tricks((4, 1, rest(c0))))
    assert out["chelem"] == "defence" and out["value"] == -(25 + 56) * 6 - 200


def test_fr_poignees():
    c = fr4_contract("garde")
    ts = tricks((4, 0, rest(c)))
    plain = outcome(c, ts)["value"]
    both = dataclasses.replace(c, poignees=((1, "simple"), (2, "double")))
    assert outcome(both, ts)["value"] == plain + 20 + 30    # fr4: every poignée counts
    # for the camp that wins, whoever declared it
    lost = tricks((4, 1, rest(c)))
    assert outcome(both, lost)["value"] == outcome(c, lost)["value"] - 50
    c5 = dataclasses.replace(contract_for("fr5", "garde", taker=0, chelem=False, poignees=False),
                             outside=((card("2S"), card("3S"), card("4S")), ()))
    ts5 = tricks((5, 0, rest(c5)))
    both5 = dataclasses.replace(c5, poignees=((1, "simple"), (2, "triple")))
    assert outcome(both5, ts5)["value"] == outcome(c5, ts5)["value"] + 40  # fr5: the largest


def test_fr5_scores_partner_and_alone():
    c = fr5_contract()
    out = outcome(c, tricks((5, 0, rest(c))))
    v = out["value"]
    assert out["scores"] == [2 * v, -v, -v, v, -v]
    alone = dataclasses.replace(c, partner=None, camp=(0, 1, 1, 1, 1))
    out = outcome(alone, tricks((5, 0, rest(c))))
    assert out["scores"] == [4 * out["value"]] + [-out["value"]] * 4


def test_fr_score_examples_of_the_rulebook():
    """docs/rules.md §1 "The score": the check values against seeds/000 §14, on deals built to
    have those points, bouts and bonuses (fr4 garde, 3 points in the écart; fr5 garde)."""
    petit_won = (["0:T1", "1:2H", "2:3H", "3:4H"], 0)      # the taker wins T1 in the last trick
    petit_lost = (["1:T1", "2:2H", "3:3H", "0:4H"], 1)     # the defence does
    cases = [  # (the taker's other tricks, the last trick, poignées, S)
        (["T21", "T1", "KS", "KH", "KD", "KC", "QS", "QH", "QD", "NS",
          "2H", "3H", "4H", "5H", "6H", "7H"], None, (), 60),        # 46 points, 2 bouts
        (["T21", "EX", "KS", "KH", "KD", "KC", "NS", "5H"], petit_won, (), 76),  # 39, 3 bouts
        (["T21", "EX", "KS", "KH", "KD", "KC", "QS", "NS", "NH", "5H", "6H", "7H"],
         petit_lost, (), -72),                                        # 40, 2 bouts
        (["T21", "EX", "KS", "KH", "KD", "KC", "QS", "NS", "NH", "JS", "5H", "6H"],
         petit_lost, (), 30),                                         # 41, 2 bouts
        (["T21", "T1", "EX", "KS", "KH", "KD", "KC", "NS", "JS", "2H", "3H", "4H"],
         None, ((1, "simple"),), 78),                                 # 40, 3 bouts, poignée
    ]
    for won, last, poignees, want in cases:
        c = fr4_contract("garde", taker=0, poignees=poignees)
        last_cards, last_winner = last or ([], None)
        ts = tricks((4, 0, won), (4, 1, rest(c, won, last_cards)))
        if last:
            ts += tricks((4, last_winner, last_cards))
        out = outcome(c, ts)
        assert out["value"] == want, (won, out)
        assert out["scores"] == [3 * want] + [-want] * 3
    # five players, garde, 43 points, 2 bouts, a poignée: 74 (taker +148, partner +74)
    c5 = fr5_contract(poignees=((0, "simple"),))
    won = ["T21", "T1", "KS", "KH", "KD", "KC", "QS", "QH", "QD", "JS",
           "5H", "6H", "7H", "8H", "9H"]
    out = outcome(c5, tricks((5, 0, won), (5, 1, rest(c5, won))))
    assert (out["taker_points"], out["bouts"], out["value"]) == (43, 2, 74)
    assert out["scores"] == [148, -74, -74, 74, -74]


def test_fr_excuse_in_last_trick_won_by_the_partner_changes_camp():
    """docs/rules.md §1 "Where the Excuse goes": in the last trick the Excuse goes to the camp
    opposite the player who played it, *whoever wins the trick* — also when that player's
    own partner (fr5) wins it (no slam: the defence won the other tricks)."""
    c = fr5_contract()
    last = ["0:EX", "1:2H", "2:3H", "3:KH", "4:4H"]       # the partner's king wins
    out = outcome(c, tricks((5, 1, rest(c, last)), (5, 3, last)))
    # the taker's camp: the dog (3 half points) and 2H 3H KH 4H (12): not the Excuse
    assert out["taker_points"] == (3 + 12) / 2 and out["bouts"] == 0
    assert out["defence_points"] == 91 - out["taker_points"]


def test_fr_contract_made_with_exactly_the_points_needed():
    """docs/rules.md §1 "Camps and what is counted": the contract is made when m ≥ 0, so exactly
    the points needed make it (by 0); half a point less loses it by 1."""
    c = fr4_contract("garde", taker=0)
    won = ["T21", "T1", "KS", "KH", "KD", "KC", "QS", "QH", "JS", "JH", "2H", "3H"]  # 76 half
    out = outcome(c, tricks((4, 0, won), (4, 1, rest(c, won))))
    assert out["taker_points"] == 41 and out["bouts"] == 2 and out["needed"] == 41
    assert out["made"] and out["margin"] == 0 and out["value"] == 25 * 2
    assert out["scores"] == [3 * 50, -50, -50, -50]


def test_fr_bouts_in_the_dog():
    """docs/rules.md §1 "Camps and what is counted": garde sans, the dog counts for the taker —
    a bout in it too (51 needed with one bout); garde contre, for the defence."""
    dog = ["T21", "2S", "3S", "4S", "5S", "6S"]
    c = fr4_contract("garde_sans", dog=dog)
    out = outcome(c, tricks((4, 1, rest(c))))
    assert out["bouts"] == 1 and out["needed"] == 51 and out["taker_points"] == (9 + 5) / 2
    c = fr4_contract("garde_contre", dog=dog)
    out = outcome(c, tricks((4, 0, rest(c))))
    assert out["bouts"] == 2 and out["needed"] == 41 and out["taker_points"] == 91 - 7


def test_fr_petit_before_the_last_trick_is_not_au_bout():
    """docs/rules.md §1 "Bonuses": the petit counts as au bout from the second-to-last trick only
    in the slam case, when the Excuse wins the last trick — not when a plain card wins it."""
    c = fr4_contract("prise", taker=0)
    before = ["0:T1", "1:1H", "2:2H", "3:3H"]
    last = ["1:4H", "2:5H", "3:6H", "0:7H"]          # the taker's slam, won by 7H
    out = outcome(c, tricks((4, 0, rest(c, before, last)), (4, 0, before), (4, 0, last)))
    assert out["chelem"] == "taker" and out["petit_au_bout"] is None
    assert out["value"] == (25 + 55) * 1 + 200


def test_fr3_scores():
    """docs/rules.md §1 "The score": per seat, fr3 taker +2S, each defender −S."""
    c = contract_for("fr3", "garde", taker=1, chelem=False, poignees=False)
    c = dataclasses.replace(c, outside=(tuple(map(card, DOG)), ()))
    for winner_seat in (1, 0):
        out = outcome(c, tricks((3, winner_seat, rest(c))))
        v = out["value"]
        assert out["scores"] == [-v, 2 * v, -v] and v != 0


def test_fr5_camps_when_the_taker_holds_the_called_card_or_it_is_in_the_dog():
    """docs/rules.md §1 "Camps and what is counted": fr5, the holder of the called card is the
    taker's partner; if the taker holds it or it is in the dog, the taker plays alone."""
    for where in ("taker", "dog", "partner"):
        obj = random_position(random.Random(3), "fr5", "garde", taker=2, called_where=where,
                              chelem=False, poignees=False)
        c = parse_position(obj).contract
        holder = next((s for s, h in enumerate(obj["hands"]) if obj["contract"]["called"] in h),
                      None)
        if where == "partner":
            assert holder not in (None, 2) and c.partner == holder
            assert c.camp == tuple(0 if s in (2, holder) else 1 for s in range(5))
        else:
            assert holder == (2 if where == "taker" else None)
            assert c.partner is None and c.camp == (1, 1, 0, 1, 1)


def _fr5_partner_trick_slam():
    """fr5, garde sans, KH called: the partner (seat 1) wins trick 1 with KD, the taker (seat
    0) every other trick with its trumps T9..T21 and leads the Excuse to the last.  Played."""
    hands = [["2D", "EX"] + [f"T{n}" for n in range(9, 22)],
             ["KH", "KD", "T2", "T3"] + [r + "S" for r in "1 2 3 4 5 6 7 8 9 10 J".split()],
             ["1D", "3D", "4D", "5D", "T1", "T4"] + [r + "H" for r in "1 2 3 4 5 6 7 8 9".split()],
             ["6D", "7D", "8D", "9D", "T5", "T6", "10H", "JH", "NH", "QH",
              "1C", "2C", "3C", "4C", "5C"],
             ["10D", "JD", "ND", "QD", "T7", "T8", "NS", "QS", "KS",
              "6C", "7C", "8C", "9C", "10C", "JC"]]
    obj = {"game": "fr5", "hands": hands, "first": 0, "played": [],
           "contract": {"taker": 0, "bid": "garde_sans", "dog": ["NC", "QC", "KC"],
                        "called": "KH"}}
    pos = parse_position(obj)
    assert pos.contract.partner == 1
    while not pos.is_finished():
        legal = pos.legal_cards()
        if pos.to_play == 0:
            if pos.trick_no == 0:
                pos.play(card("2D"))
            else:
                trumps = [c for c in legal if c != EXCUSE]
                pos.play(max(trumps) if trumps else EXCUSE)
        elif pos.to_play == 1 and pos.trick_no == 1 and not pos.trick:
            pos.play(card("T2"))
        else:
            pos.play(legal[0])
    return pos


def test_fr5_slam_case_counts_the_partners_tricks():
    """docs/rules.md §1 "Where the Excuse goes", slam case: it is the *camp* of the player of the
    Excuse that must have won every previous trick — in fr5 a trick won by the partner
    counts — and the Excuse then wins the last trick."""
    pos = _fr5_partner_trick_slam()
    assert pos.tricks[0].winner == 1 and all(t.winner == 0 for t in pos.tricks[1:])
    assert pos.tricks[-1].winning_card() == EXCUSE
    out = pos.outcome()
    assert out["chelem"] == "taker" and out["taker_points"] == 91 and out["bouts"] == 3
    assert out["value"] == (25 + 55) * 4 + 200


def test_fr_excuse_led_to_the_first_trick_does_not_win():
    """docs/rules.md §1 "Playing a trick": the Excuse never wins except in the slam case, which
    is about the *last* trick — led to trick 1 (no trick lost yet) it does not win."""
    pos = _slam_position(0, 0, "garde_sans")
    pos.play(EXCUSE)
    while pos.trick:
        pos.play(pos.legal_cards()[0])
    assert pos.tricks[0].winner != 0 and pos.tricks[0].winning_card() != EXCUSE


# -- Tessiner Priestertarock --------------------------------------------------------------

P5 = rules_for("priest5")


def test_priest_follow_and_no_obligation_to_beat():
    assert legal(P5, ["5H", "KH", "T2"], ["QH"]) == {"5H", "KH"}
    assert legal(P5, ["T2", "T20", "3S"], ["QH"]) == {"T2", "T20"}
    assert legal(P5, ["T2", "T20", "3S"], ["T5", "T10"]) == {"T2", "T20"}
    assert legal(P5, ["3S", "4C"], ["QH"]) == {"3S", "4C"}


def test_priest_narr_never_wins():
    assert winner(P5, ["T5", "EX", "T3", "2H", "T4"]) == 0
    assert winner(P5, ["3H", "EX", "2H", "4S", "1H"]) == 0


def test_priest_narr_when_it_may_and_must_be_played():
    # holding the led suit: never the Narr
    assert legal(P5, ["EX", "5H", "T3"], ["QH"]) == {"5H"}
    # void: the Narr may stand for a tarock
    assert legal(P5, ["EX", "T3", "2S"], ["QH"]) == {"EX", "T3"}
    # void, and the Narr is the only "tarock": it must be played
    assert legal(P5, ["EX", "2S", "3C"], ["QH"]) == {"EX"}
    # a tarock led: the Narr or a tarock
    assert legal(P5, ["EX", "T3", "2H"], ["T10"]) == {"EX", "T3"}
    assert legal(P5, ["EX", "2H"], ["T10"]) == {"EX"}


def test_priest_narr_led():
    assert legal(P5, ["T3", "5H", "KS"], ["EX"]) == {"T3"}
    assert legal(P5, ["T3", "5H", "KS"], ["EX", "2H"]) == {"T3"}
    # no tarock: follow the suit of the card played after the Narr
    assert legal(P5, ["7H", "5C", "KS"], ["EX", "2H"]) == {"7H"}
    assert legal(P5, ["5C", "KS"], ["EX", "2H"]) == {"5C", "KS"}
    assert legal(P5, ["5C", "KS"], ["EX"]) == {"5C", "KS"}
    # if no tarock falls, the highest card of that suit wins
    assert winner(P5, ["EX", "4H", "KH", "2S", "9H"]) == 2
    assert winner(P5, ["EX", "4H", "KH", "T2", "9H"]) == 3


def priest_contract(caller=0, partner=1, dealer=4, opened=("2S", "3S", "4S")):
    c = contract_for("priest5", caller=caller, dealer=dealer, alone=False)
    camp = tuple(0 if s in (caller, partner) else 1 for s in range(5))
    outside = [(), ()]
    outside[camp[dealer]] = tuple(map(card, opened))
    return dataclasses.replace(c, partner=partner, camp=camp, outside=tuple(outside), alone=False)


def test_priest_narr_stays_with_holder_and_is_late_worth_nothing():
    c = priest_contract()
    narr = ["0:EX", "1:2H", "2:3H", "3:4H", "4:KH"]   # caller's Narr, an opponent wins
    for index, total in ((0, 71), (9, 71), (10, 66), (14, 66)):
        others = tricks((5, 2, rest(c, narr)))
        ts = others[:index] + tricks((5, 4, narr)) + others[index:]
        out = outcome(c, ts)
        assert out["total"] == total
        assert out["caller_points"] == (5 if total == 71 else 0)
        assert out["value"] == out["caller_points"] - out["other_points"]


def test_priest_33_33_tie():
    # 66 points (the Narr late), 33:33: the party that did not hold the Narr wins
    c = priest_contract(opened=("2S", "3S", "4S"))         # open cards worth 0 for the dealer
    late_narr = ["0:EX", "1:2H", "2:3H", "3:4H", "4:5H"]
    caller_cards = ["KS", "KH", "KD", "KC", "QS", "QH", "JS", "5S", "6S", "7S",
                    "NS", "8S", "9S", "10S", "1S"]                   # 20 + 8 + 2 + 3 = 33
    assert sum(P5.points[card(x)] for x in caller_cards) == 33
    others = rest(c, late_narr, caller_cards)
    for narr, caller_wins in ((late_narr, False),                       # the caller's Narr
                              (["2:EX", "1:2H", "0:3H", "3:4H", "4:5H"], True)):  # an opponent's
        ts = tricks((5, 0, caller_cards), (5, 2, others))
        ts = ts[:10] + tricks((5, 4, narr)) + ts[10:]                    # Narr in trick 11
        out = outcome(c, ts)
        assert (out["caller_points"], out["other_points"], out["total"]) == (33, 33, 66)
        assert out["made"] == caller_wins
        assert out["scores"][0] == (2 if caller_wins else -2)


def test_priest_open_cards_count_for_the_dealer():
    c = priest_contract(caller=0, partner=1, dealer=1, opened=("KS", "KH", "T21"))
    out = outcome(c, tricks((5, 2, rest(c))))
    assert out["caller_points"] == 15 and out["total"] == 71


def test_priest_71_points_need_36():
    """docs/rules.md §2 "Result": with 71 points the party with 36 wins — 35 loses."""
    c = priest_contract(opened=("2S", "3S", "4S"))        # open cards worth 0 (the dealer's)
    zeros = ["5S", "6S", "7S", "8S", "9S", "10S", "1S"]
    for extra, caller_wins in ((["NS", "JS"], False),     # 30 + 3 + 2 = 35
                               (["QS", "JS"], True)):     # 30 + 4 + 2 = 36
        caller_cards = ["KS", "KH", "KD", "KC", "T21", "T1"] + extra + zeros
        others = rest(c, caller_cards)                    # the Narr among them: trick 4
        out = outcome(c, tricks((5, 0, caller_cards), (5, 2, others)))
        assert out["total"] == 71 and out["needed"] == 36
        assert out["caller_points"] == (36 if caller_wins else 35)
        assert out["made"] == caller_wins
        assert out["scores"] == ([2, 1, -1, -1, -1] if caller_wins else [-2, -1, 1, 1, 1])


def test_priest_caller_alone_scores():
    """docs/rules.md §2 "Result": caller alone ±4, each opponent ∓1."""
    c = priest_contract()
    c = dataclasses.replace(c, partner=None, camp=(0, 1, 1, 1, 1), alone=True)
    out = outcome(c, tricks((5, 0, rest(c))))
    assert out["made"] and out["scores"] == [4, -1, -1, -1, -1]
    out = outcome(c, tricks((5, 2, rest(c))))
    assert not out["made"] and out["scores"] == [-4, 1, 1, 1, 1]


def test_priest_partner_from_the_called_card():
    """docs/rules.md §2 "Contract": the holder of the called card is the partner; if it is one of
    the 3 open cards the dealer is; if the caller holds it the caller is alone.  The open
    cards count for the dealer's party."""
    obj = random_position(random.Random(5), "priest5", caller=0, dealer=4, alone=False)
    opened = {card(x) for x in obj["contract"]["open"]}
    for called, partner in ((obj["contract"]["open"][0], 4), (obj["hands"][2][0], 2),
                            (obj["hands"][0][0], None)):
        obj["contract"]["called"] = called
        c = parse_position(obj).contract
        assert c.partner == partner and c.alone == (partner is None)
        assert c.camp == tuple(0 if s in (0, partner) else 1 for s in range(5))
        dealer_camp = c.camp[4]
        assert set(c.outside[dealer_camp]) == opened and c.outside[1 - dealer_camp] == ()


# -- Austrian Tarock: trick rules ---------------------------------------------------------------

def at4(bid, **kw):
    return rules_for("at4", bid, **kw)


def test_at4_follow_suit_then_tarock():
    r = at4("solorufer")
    assert legal(r, ["7S", "KS", "T3", "1H"], ["9S"]) == {"7S", "KS"}
    assert legal(r, ["T3", "EX", "1H"], ["9S"]) == {"T3", "EX"}
    assert legal(r, ["T3", "EX", "1H"], ["T9"]) == {"T3", "EX"}   # tarock is a suit: no beating
    assert legal(r, ["1H", "KD"], ["9S"]) == {"1H", "KD"}


def test_at4_stichzwang_in_negative_games():
    for bid in ("piccolo", "bettler", "trischaken", "zwiccolo_ouvert"):
        r = at4(bid)
        assert legal(r, ["10S", "8S", "T3"], ["9S"]) == {"10S"}
        assert legal(r, ["7S", "8S", "T3"], ["9S"]) == {"7S", "8S"}       # cannot beat
        assert legal(r, ["T5", "T12", "1H"], ["9S", "T10"]) == {"T12"}
        assert legal(r, ["T5", "T12", "EX"], ["T13"]) == {"EX"}
    assert legal(at4("solorufer"), ["10S", "8S"], ["9S"]) == {"10S", "8S"}


def test_at4_pagat_last_in_negative_games():
    r = at4("bettler")
    assert legal(r, ["T1", "T5", "7S"], ["9H"]) == {"T5"}
    assert legal(r, ["T1", "7S"], ["9H"]) == {"T1"}
    assert legal(r, ["T1", "T5", "7S"]) == {"T5", "7S"}   # leading
    assert legal(r, ["T1", "7S"]) == {"T1", "7S"}
    assert legal(at4("dreier"), ["T1", "T5"], ["9H"]) == {"T1", "T5"}


def test_at4_colour_games():
    for bid in ("farbensechser", "farbenrufer", "farbendreier", "farbensolo"):
        r = at4(bid)
        assert winner(r, ["9S", "T21", "KS", "T3"]) == 2     # tarock is not trump
        assert winner(r, ["9S", "T21", "8S", "T3"]) == 0
        assert winner(r, ["T2", "T21", "KS", "T3"]) == 1     # but wins a tarock-led trick
        assert legal(r, ["T5", "7S"]) == {"7S"}              # no tarock lead while holding suits
        assert legal(r, ["T5", "EX"]) == {"T5", "EX"}
        assert legal(r, ["T5", "1H"], ["9S"]) == {"T5"}      # void: still must play tarock
    r = at4("solorufer")
    assert winner(r, ["9S", "T2", "KS", "T3"]) == 3
    assert legal(r, ["T5", "7S"]) == {"T5", "7S"}


def test_at4_trull_trick():
    assert winner(at4("solorufer"), ["T21", "T1", "EX", "7S"]) == 1
    assert winner(at4("farbensolo"), ["7S", "T1", "EX", "T21"]) == 1
    assert winner(at4("piccolo"), ["T21", "T1", "EX", "T20"]) == 2   # not in negative games
    assert winner(at4("trischaken"), ["T21", "T1", "EX", "T20"]) == 2
    assert winner(at4("solorufer"), ["T21", "T1", "T20", "T2"]) == 0


def test_at4_suit_ranking():
    r = at4("dreier")
    assert winner(r, ["4H", "1H", "3H", "2H"]) == 1      # red: K Q N J 1 2 3 4
    assert winner(r, ["1D", "JD", "4D", "2D"]) == 1
    assert winner(r, ["10S", "7S", "9S", "8S"]) == 0     # black: K Q N J 10 9 8 7
    assert winner(r, ["JC", "10C", "NC", "7C"]) == 2
    assert winner(r, ["T2", "T20", "EX", "T21"]) == 2    # the Sküs is the highest tarock


def test_at4_trischaken_von_oben():
    r = at4("trischaken", von_oben=True)
    assert legal(r, ["T3", "T15", "7S"]) == {"T15"}
    assert legal(r, ["T3", "EX", "7S"]) == {"EX"}
    assert legal(r, ["7S", "KH"]) == {"7S", "KH"}
    assert legal(r, ["T1", "7S"]) == {"T1"}
    assert legal(at4("trischaken"), ["T3", "T15", "7S"]) == {"T3", "T15", "7S"}


def test_at4_colour_games_skus_is_a_tarock_lead():
    """docs/rules.md §3: in colour games nobody may lead a tarock while holding a suit card —
    the Sküs is a tarock."""
    for bid in ("farbensechser", "farbenrufer", "farbendreier", "farbensolo"):
        assert legal(at4(bid), ["EX", "7S"]) == {"7S"}
        assert legal(at4(bid), ["EX", "T1", "KH"]) == {"KH"}


def test_at4_pagat_last_counts_the_skus_and_holds_in_every_negative_game():
    """docs/rules.md §3 "Negative games": the Pagat may be played only as the player's last
    tarock (the Sküs is a tarock), in Trischaken too."""
    for bid in ("trischaken", "piccolo", "zwiccolo", "triccolo", "bettler", "bettler_ouvert"):
        r = at4(bid)
        assert legal(r, ["T1", "EX", "7S"], ["9H"]) == {"EX"}
        assert legal(r, ["T1", "EX", "7S"]) == {"EX", "7S"}
        assert legal(r, ["T1", "T5", "7S"], ["9H"]) == {"T5"}
        assert legal(r, ["T1", "7S"], ["9H"]) == {"T1"}


def test_at4_red_pips_in_both_red_suits():
    """docs/rules.md §3: red suits ♥♦ rank K > Q > N > J > 1 > 2 > 3 > 4 (diamonds as
    hearts)."""
    r = at4("dreier")
    assert winner(r, ["4D", "1D", "3D", "2D"]) == 1
    assert winner(r, ["3D", "4D", "2D", "KS"]) == 2
    assert winner(r, ["4H", "3H", "2H", "1H"]) == 3


# -- Austrian Tarock: goals and counting ----------------------------------------------------------

def at4_contract(bid, declarer=0, partner=None, side=("7S", "8S", "9S", "10S", "7C", "8C"),
                 side_camp=1, **changes):
    c = contract_for("at4", bid, declarer=declarer, objective="contract")
    camp = tuple(0 if s in (declarer, partner) else 1 for s in range(4))
    outside = [(), ()]
    outside[side_camp] = tuple(map(card, side))
    return dataclasses.replace(c, camp=camp, partner=partner, outside=tuple(outside), **changes)


def test_at4_point_game_made_with_54():
    c = at4_contract("dreier")
    # declarer takes the 4 kings, T21, EX (30), 4 queens (16), 2 cavaliers (6) and 2 ones: 54
    won = ["KS", "KH", "KD", "KC", "T21", "EX", "QS", "QH", "QD", "QC", "NS", "NH",
           "T10", "T11", "T12", "T13"]
    assert sum(rules_for("at4").points[card(x)] for x in won) == 56
    won = won[:-2] + ["T14", "T15"]
    out = outcome(c, tricks((4, 0, won), (4, 1, rest(c, won))))
    assert out["declarer_points"] == 56 and out["made"] and out["value"] == 56
    won2 = won[:10] + ["T16", "T17", "T10", "T11", "T12", "T13"]      # 46 + 6 = 52: lost
    out = outcome(c, tricks((4, 0, won2), (4, 1, rest(c, won2))))
    assert out["declarer_points"] == 52 and not out["made"]
    assert out["scores"] == [-3, 1, 1, 1]


def test_at4_standard_counting():
    c = at4_contract("dreier", counting="standard")
    won = ["KS", "KH", "KD", "KC", "T21", "EX", "QS", "QH", "QD", "QC", "NS", "NH",
           "T14", "T15", "T10", "T11"]                         # 56 points, 16 cards
    out = outcome(c, tricks((4, 0, won), (4, 1, rest(c, won))))
    assert out["count"] == 3 * 56 - 2 * 16 == 136 and out["made"]
    # 36 points in 4 cards... made iff 3·S − 2·c ≥ 107 (that is 35⅔ in the count in threes)
    won = ["KS", "KH", "KD", "KC", "T21", "EX", "QS", "QH"]    # 38 points, 8 cards -> 98
    out = outcome(c, tricks((4, 0, won), (4, 1, rest(c, won))))
    assert out["count"] == 98 and not out["made"]
    won = ["KS", "KH", "KD", "KC", "T21", "EX", "QS", "QH", "QD", "QC", "NS", "NH"]  # 52, 12 -> 132
    out = outcome(c, tricks((4, 0, won), (4, 1, rest(c, won))))
    assert out["count"] == 132 and out["made"]
    # the threshold sits between 106 and 107
    assert out["value"] == out["count"]


def _bird_deal(c, bird, wins_it=True, extra=()):
    """The declarer's camp wins 4 kings, T21, EX, 4 queens (46) + extra; ``bird`` wins its
    trick by itself (or loses it)."""
    number = int(bird[1:])
    trick_no = 13 - number                          # 1-based
    bird_trick = (["0:" + bird, "1:" + "T5", "2:3H" if bird != "T5" else "2:T6", "3:2H"] if wins_it
                  else ["0:" + bird, "1:T20", "2:3H", "3:2H"])
    won = ["KS", "KH", "KD", "KC", "T21", "EX", "QS", "QH", "QD", "QC", "NS", "NH"] + list(extra)
    others = rest(c, bird_trick, won)
    ts = tricks((4, 0, won)) + tricks((4, 1, others))
    bt = tricks((4, 0 if wins_it else 1, bird_trick))
    ts = ts[:trick_no - 1] + bt + ts[trick_no - 1:]
    assert len(ts) == 12
    return ts


def test_at4_bird_rufer_goals():
    c = at4_contract("pagatrufer", partner=2, called=card("KH"))
    out = outcome(c, _bird_deal(c, "T1"))
    assert out["declarer_points"] >= 54 and out["made"] and out["value"] == 1
    assert out["scores"] == [1, -1, 1, -1]
    out = outcome(c, _bird_deal(c, "T1", wins_it=False))
    assert not out["made"] and out["value"] == 0
    # the bird wins but the game is lost: not made
    poor = tricks((4, 1, rest(c, ["0:T1", "1:2H", "2:3H", "3:4H"]))) + tricks((4, 0, ["0:T1", "1:2H", "2:3H", "3:4H"]))
    out = outcome(c, poor)
    assert out["value"] == 0
    for bid, bird in (("uhurufer", "T2"), ("kakadurufer", "T3"), ("maraburufer", "T4")):
        c2 = at4_contract(bid, partner=2, called=card("KH"))
        assert outcome(c2, _bird_deal(c2, bird))["value"] == 1
        assert outcome(c2, _bird_deal(c2, bird, wins_it=False))["value"] == 0


def test_at4_negative_game_goals():
    for bid, want in (("piccolo", 1), ("zwiccolo", 2), ("triccolo", 3), ("bettler", 0),
                      ("piccolo_ouvert", 1), ("bettler_ouvert", 0)):
        c = at4_contract(bid)
        for won in range(5):
            ts = tricks((4, 1, rest(c)))
            ts = [t._replace(winner=0) if i < won else t for i, t in enumerate(ts)]
            out = outcome(c, ts)
            assert out["made"] == (won == want) and out["value"] == int(won == want)
            assert out["scores"][0] == (3 if won == want else -3)


def test_at4_objectives():
    c = at4_contract("solorufer", partner=2, called=card("KH"))
    every = tricks((4, 0, rest(c)))
    assert outcome(dataclasses.replace(c, objective="volat"), every)["value"] == 1
    one_lost = every[:5] + [every[5]._replace(winner=1)] + every[6:]
    assert outcome(dataclasses.replace(c, objective="volat"), one_lost)["value"] == 0
    # pagat ultimo: T1 wins trick 12 by itself (the contract's points do not matter)
    ts = _bird_deal(c, "T1")
    assert outcome(dataclasses.replace(c, objective="pagat_ultimo"), ts)["value"] == 1
    assert outcome(dataclasses.replace(c, objective="uhu_ultimo"), ts)["value"] == 0
    ts = _bird_deal(c, "T2")
    assert outcome(dataclasses.replace(c, objective="uhu_ultimo"), ts)["value"] == 1
    # koenig ultimo: the called king in the last trick, won by the declarer's camp
    last = ["1:KH", "2:T3", "3:2H", "0:3H"]
    ts = tricks((4, 1, rest(c, last)), (4, 2, last))
    assert outcome(dataclasses.replace(c, objective="koenig_ultimo"), ts)["value"] == 1
    ts = tricks((4, 0, rest(c, last)), (4, 1, last))
    assert outcome(dataclasses.replace(c, objective="koenig_ultimo"), ts)["value"] == 0


def test_at4_trischaken_talon_and_values():
    c = contract_for("at4", "trischaken", for_seat=2, counting="seed")
    talon = tokens(c.talon)
    ts = tricks((4, 0, rest(c)))
    ts = [t._replace(winner=i % 4) for i, t in enumerate(ts)]
    out = outcome(c, ts)
    assert out["scores"] is None and sum(out["points"]) == 106
    pts = rules_for("at4").points
    for seat in range(4):
        want = sum(pts[x] for i, t in enumerate(ts) if t.winner == seat for _, x in t.cards)
        want += sum(pts[card(talon[i])] for i in range(6) if ts[i].winner == seat)
        assert out["points"][seat] == want
    assert out["value"] == out["points"][2]
    assert c.maximizer != c.camp[2]       # the analysed seat minimises its points
    std = dataclasses.replace(c, counting="standard")
    cards2 = 4 * 3 + sum(1 for i in range(6) if ts[i].winner == 2)
    assert outcome(std, ts)["value"] == 3 * out["points"][2] - 2 * cards2


def test_at4_rufer_partner_side_cards():
    # side cards count for the camp of the seat they are listed under
    c = at4_contract("solorufer", partner=2, called=card("KH"), side_camp=0,
                     side=("KS", "QS", "NS", "JS", "T21", "EX"))
    out = outcome(c, tricks((4, 1, rest(c))))
    assert out["declarer_points"] == 5 + 4 + 3 + 2 + 5 + 5
    assert out["declarer_cards"] == 6


def test_at4_point_game_threshold_54():
    """docs/rules.md §3: a positive game is made with 54 (seed counting) — 53 is lost."""
    c = at4_contract("dreier")
    base = ["KS", "KH", "KD", "KC", "T21", "EX", "QS", "QH", "QD", "QC",
            "T10", "T11", "T12", "T13", "T14"]                    # 46 + 5
    for extra, points in (("NS", 54), ("JS", 53)):
        won = base + [extra]
        out = outcome(c, tricks((4, 0, won), (4, 1, rest(c, won))))
        assert out["declarer_points"] == points and out["value"] == points
        assert out["made"] == (points >= 54)


def test_at4_standard_counting_threshold_107():
    """docs/rules.md §3: standard counting, made when 3·S − 2·c ≥ 107: 107 made, 106 lost."""
    c = at4_contract("dreier", counting="standard")
    top = ["KS", "KH", "KD", "KC", "T21", "EX", "T1", "JS"]                  # 37 points
    for won, count in ((top + ["JH"] + [f"T{n}" for n in range(2, 9)], 106),      # 46, 16
                       (top + [f"T{n}" for n in range(2, 14)], 107)):            # 49, 20
        out = outcome(c, tricks((4, 0, won), (4, 1, rest(c, won))))
        assert out["count"] == count and out["made"] == (count >= 107)


def test_at4_bird_must_win_for_the_declarers_camp_by_itself():
    """docs/rules.md §3 "Goals" and announcement objectives: the declarer's camp's bird must win
    its trick by itself — a bird of the other camp winning it, or the bird's trick won for
    the declarer's camp by another card, does not count."""
    c = at4_contract("pagatrufer", partner=2, called=card("KH"))
    won = ["KS", "KH", "KD", "KC", "T21", "EX", "QS", "QH", "QD", "QC", "NS", "NH",
           "ND", "NC", "JS", "JH"]                                             # 62 points
    for bird, bird_winner in ((["1:T1", "2:3H", "3:2H", "0:4H"], 1),    # the defence's Pagat
                              (["0:T1", "1:T5", "2:T20", "3:2H"], 2)):  # the partner's T20
        ts = tricks((4, 0, won), (4, 1, rest(c, won, bird)), (4, bird_winner, bird))
        out = outcome(c, ts)
        assert out["declarer_points"] >= 54 and out["value"] == 0 and not out["made"]
        ultimo = dataclasses.replace(c, bid="solorufer", objective="pagat_ultimo")
        assert outcome(ultimo, ts)["value"] == 0
    # the same trick won by the declarer's own Pagat: made
    bird = ["0:T1", "1:2H", "2:3H", "3:4H"]
    ts = tricks((4, 0, won), (4, 1, rest(c, won, bird)), (4, 0, bird))
    assert outcome(c, ts)["value"] == 1


def test_at4_koenig_ultimo_needs_the_called_king():
    """docs/rules.md §3 announcement objectives: koenig_ultimo — the called king is in the last
    trick and the declarer's camp wins it; winning the last trick without it is not enough."""
    c = at4_contract("solorufer", partner=2, called=card("KH"), objective="koenig_ultimo")
    last = ["0:KD", "1:1D", "2:2D", "3:3D"]
    ts = tricks((4, 1, rest(c, last)), (4, 0, last))
    assert outcome(c, ts)["value"] == 0
    last = ["0:KD", "1:1D", "2:KH", "3:3D"]
    ts = tricks((4, 1, rest(c, last)), (4, 0, last))
    assert outcome(c, ts)["value"] == 1


def test_at4_side_cards_count_for_the_camp_of_their_seat():
    """docs/rules.md §3 "Talon" and docs/format.md: side cards count for the camp of the seat they
    are listed under (the declarer's partner: the declarer's camp).  A Rufer with talon:
    the declarer and the next two seats each lay away what they took, each under its seat
    (docs/rules.md "Camps"); here the partner is one of those two."""
    for seed in range(200):
        obj = random_position(random.Random(seed), "at4", "vorhandrufer", declarer=0,
                              called_where="partner")
        partner = parse_position(obj).contract.partner
        if partner in (1, 2):
            break
    defender = 3 - partner
    side = {int(s): cs for s, cs in obj["contract"]["side_cards"].items()}
    c = parse_position(obj).contract
    assert set(tokens(c.outside[0])) == set(side[0]) | set(side[partner])
    assert set(tokens(c.outside[1])) == set(side[defender])
    # a negative game's talon, no one's, counts for the camp it is listed under too
    obj = random_position(random.Random(4), "at4", "bettler", declarer=0)
    six = [x for cs in obj["contract"]["side_cards"].values() for x in cs]
    for seat, c_camp in ((0, 0), (2, 1)):
        obj["contract"]["side_cards"] = {str(seat): six}
        c = parse_position(obj).contract
        assert set(tokens(c.outside[c_camp])) == set(six) and c.outside[1 - c_camp] == ()


def test_card_points_of_each_game():
    """docs/rules.md §1 "Cards and card points" (half points), §2 and §3 card points."""
    want = {"fr4": ({"K": 9, "Q": 7, "N": 5, "J": 3, "10": 1, "1": 1}, 9, 1, 182),
            "priest5": ({"K": 5, "Q": 4, "N": 3, "J": 2, "10": 0, "1": 0}, 5, 0, 71),
            "at4": ({"K": 5, "Q": 4, "N": 3, "J": 2, "10": 1, "1": 1}, 5, 1, 106)}
    for game, (faces, bout, trump, total) in want.items():
        r = rules_for(game)
        for s in "SHDC":
            for rank_tok, p in faces.items():
                if card(rank_tok + s) in r.deck_set:
                    assert r.points[card(rank_tok + s)] == p, (game, rank_tok + s)
        assert [r.points[card(x)] for x in ("T1", "T21", "EX", "T2", "T20")] == [bout] * 3 + [trump] * 2
        assert sum(r.points[c] for c in r.deck) == total
