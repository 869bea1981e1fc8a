"""A deal in a link (atout/present/link.py, docs/format.md "A deal in a link"): the payload gives
back the position it was made from, for random deals of every game and contract; a link
that is not one is refused with a reason, never a traceback; `atout show --link` prints
the table a link shows and `atout show --svg` draws it.  The page's own reader and writer
(server/static/link.js) are checked against these in tests/test_viewer_link.py."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from atout.present import link
from atout.deal import BIDS, random_endgame
from atout.errors import PositionError
from atout.games import HAND_SIZE
from atout.position import parse_position

GAMES = ("fr4", "fr3", "fr5", "priest5", "at4")
IDS = st.one_of(st.none(), st.text(max_size=40), st.integers(-2**63, 2**63 - 1))


def random_deal(seed: int, game: str, which: int, ident) -> dict:
    """A random valid deal of ``game`` (its ``which``-th bid) played on at random."""
    rng = random.Random(seed)
    bids = BIDS[game] or (None,)
    obj = random_endgame(rng, game, rng.randrange(HAND_SIZE[game] + 1),
                         bid=bids[which % len(bids)])
    if ident is not None:
        obj["id"] = ident
    return obj


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), game=st.sampled_from(GAMES), which=st.integers(0, 30),
       ident=IDS)
def test_a_link_gives_back_its_deal(seed, game, which, ident):
    obj = random_deal(seed, game, which, ident)
    try:
        parse_position(obj)
    except PositionError:       # an id that is not Unicode text: no position, no link
        return
    payload = link.encode(obj)
    assert set(payload) <= set(link.ALPHABET)
    back = link.decode(payload)
    assert back == link.normalized(obj)
    a, b = parse_position(obj), parse_position(back)
    assert [sorted(h) for h in a.hands] == [sorted(h) for h in b.hands]
    assert a.played == b.played and a.contract.camp == b.contract.camp
    assert a.outcome() == b.outcome() if a.is_finished() else not b.is_finished()
    assert link.encode(back) == payload          # one deal, one link


def test_a_whole_deal_is_a_short_link():
    from atout.deal import random_finished

    sizes = {g: len(link.encode(random_finished(random.Random(7), g))) for g in GAMES}
    assert max(sizes.values()) <= 150, sizes


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=link.ALPHABET + "=+/%é", max_size=200))
def test_any_text_is_a_deal_or_a_reason(text):
    try:
        obj = link.decode(text)
    except link.LinkError as e:
        assert e.field == "d" and e.reason
        return
    try:
        parse_position(obj)
    except PositionError as e:
        assert e.reason


@pytest.mark.parametrize("change, reason", [
    (lambda p: p[:30], "cut short"),
    (lambda p: p + "AAAA", "longer than its deal"),
    (lambda p: "C" + p[1:], "version"),
    (lambda p: p[:10] + "*" + p[11:], "is not one of"),
    (lambda p: "", "holds no deal"),
])
def test_a_bad_link_says_what_is_wrong(change, reason):
    payload = link.encode(random_deal(3, "fr4", 1, "x"))
    with pytest.raises(link.LinkError) as e:
        link.decode(change(payload))
    assert reason in e.value.reason


@pytest.mark.parametrize("view", ["card=²", "seat=¹", "from=³&whatif=T1", "card=٣", "card=-1",
                                  "seat=1000"])
def test_a_view_number_that_is_not_ascii_digits_is_refused(view):
    """card, from and seat: ASCII digits only (a superscript two ended `atout show --link`
    in a traceback: a digit to str.isdigit(), not to int())."""
    url = link.make_link("http://h/", random_deal(3, "fr4", 1, "x"))
    with pytest.raises(link.LinkError) as e:
        link.read_link(f"{url}&{view}")
    assert e.value.field == view.split("=")[0]
    assert e.value.reason.startswith("must be a whole number of 1 to 3 digits")


@pytest.mark.parametrize("address", ["http://[x]/", "http://[::1/", "http://a]b/"])
def test_an_address_that_is_not_a_url_is_read_by_its_fragment(address):
    """Only the part after "#" is read, as the page reads location.hash (urlsplit raised
    "Invalid IPv6 URL" here: a traceback from `atout show --link`)."""
    r = _atout("show", "--link", f"{address}#d=AAAA")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr == "link: d: a link of version 0, made by another atout: this one reads " \
                       "version 1\n"
    obj = random_deal(3, "fr4", 1, "x")
    assert link.read_link(f"{address}#d={link.encode(obj)}")["position"] == link.normalized(obj)


@pytest.mark.parametrize("digits", ["+5", " 7 ", "5_0", "١٢", "007", "-0", "", "5.0",
                                    str(2 ** 63), str(-2 ** 63 - 1), "9" * 30])
def test_an_integer_id_is_its_decimal_digits_within_64_bits(digits):
    """Python's int() took "+5", " 7 ", "5_0" and "١٢" where the page refused them; both
    now read an integer id as atout writes one, and refuse one past 64 bits alike."""
    from link_corpus import with_integer_id
    obj = random_deal(4, "fr3", 0, None)
    with pytest.raises(link.LinkError) as e:
        link.decode(with_integer_id(obj, digits))
    assert e.value.field == "d" and "the deal's id is" in e.value.reason
    for good in ("0", "-7", str(2 ** 63 - 1), str(-2 ** 63)):
        assert link.decode(with_integer_id(obj, good))["id"] == int(good)
        assert with_integer_id(obj, good) == link.encode({**obj, "id": int(good)})


@pytest.mark.parametrize("part", ["d", "card", "from", "whatif", "seat", "deal"])
def test_a_part_given_twice_is_refused(part):
    """The command line took the last value, the page the first: neither is a guess now."""
    a, b = (link.encode(random_deal(s, "fr4", 1, None)) for s in (5, 6))
    value = b if part == "d" else "0"
    with pytest.raises(link.LinkError) as e:
        link.read_link(f"http://h/#{part}={value}&d={a}&{part}={value}")
    assert e.value.field == part and "given twice" in e.value.reason
    read = link.read_link(f"http://h/#d={a}&other=1&other=2")      # an unknown part: ignored
    assert read["position"] == link.decode(a)


def test_a_link_with_a_deal_that_breaks_a_rule_names_the_field():
    good = random_deal(5, "fr3", 0, None)
    good["played"] = []
    bits = link._Reader(link.encode(good)).bits
    # the first card of seat 0's hand put in seat 1's: its place (2 bits in fr3) 00 -> 01
    i = next(i for i, x in enumerate(link.deck_of("fr3")) if link.token(x) in good["hands"][0])
    at = 6 + 3 + 3 + 2 * i
    assert bits[at:at + 2] == [0, 0]
    bits[at:at + 2] = [0, 1]
    w = link._Writer()
    w.bits = bits
    with pytest.raises(PositionError) as e:
        link.read_link("http://h/#d=" + w.text())
    assert e.value.field.startswith("d.hands")


def _atout(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "atout.client.cli", *args], input=stdin,
                          capture_output=True, text=True, env={"PYTHONIOENCODING": "utf-8",
                                                              "PATH": "/usr/bin:/bin"})


def test_atout_show_link_prints_the_table_the_link_shows(tmp_path):
    deal = json.loads(open("tests/data/played.jsonl").readline())
    k = 40
    whatif = deal["played"][38:41]             # a line the rules accept
    url = link.make_link("http://127.0.0.1:8765/", deal) + f"&card={k}&from=38&whatif=" \
        + ",".join(whatif) + "&seat=1"
    r = _atout("show", "--link", url)
    assert r.returncode == 0, r.stderr
    assert "Garde contre" in r.stdout or "garde contre" in r.stdout
    assert "from seat 1's view" in r.stdout and "shown after card 40" in r.stdout
    shown = json.loads(_atout("show", "--link", url, "--json").stdout)
    assert shown["played"] == deal["played"][:38] + whatif[:2]
    assert link.normalized({**deal, "played": shown["played"]}) == shown
    # the position back as a link: the same deal
    again = _atout("show", "--make-link", stdin=json.dumps(deal) + "\n").stdout.strip()
    assert again.split("#d=")[1] == link.encode(deal)
    # a bad link: one line, the field and the reason, exit status 1
    bad = _atout("show", "--link", url.split("&")[0][:70])
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1
    assert bad.stderr.startswith("link: d: the link is cut short")
    assert "Traceback" not in bad.stderr


def test_atout_show_svg_draws_the_table(tmp_path):
    deal = json.loads(open("tests/data/played.jsonl").readline())
    pos = {**deal, "played": deal["played"][:64]}          # two tricks left: quick to solve
    src = tmp_path / "p.jsonl"
    src.write_text(json.dumps(pos) + "\n")
    r = _atout("show", str(src), "--svg", str(tmp_path / "deal"), "--values")
    assert r.returncode == 0, r.stderr
    svg = (tmp_path / "deal.svg").read_text()
    root = ET.fromstring(svg)                   # well-formed XML
    assert root.tag.endswith("svg")
    text = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "Garde contre by seat 3" in text and "Double-dummy value" in text
    p = parse_position(pos)
    for hand in p.held:                          # every card held is drawn
        for c in hand:
            tok = link.token(c)
            assert (tok[:-1] if tok[-1] in "SHDC" else tok.lstrip("T").replace("EX", "★")) in text
    # from one seat's view: the other hands face down, no values
    url = link.make_link("http://h/", pos) + "&seat=0"
    r = _atout("show", "--link", url, "--svg", "-", "--values")
    assert r.returncode == 0 and "cards unseen" in r.stdout and "Double-dummy" not in r.stdout


def test_atout_show_svg_chooses_the_card(tmp_path):
    """Issue 56, problem 4: a finished deal's picture is not drawn at its end, where no hand
    holds a card: before its first card by default, said on stderr; --card K chooses, as a
    link's card= does, for a file and for a link; a card beyond the deal is refused."""
    deal = json.loads(open("tests/data/played.jsonl").readline())
    src = tmp_path / "p.jsonl"
    src.write_text(json.dumps(deal) + "\n")
    r = _atout("show", str(src), "--svg", "-")
    assert r.returncode == 0, r.stderr
    assert "finished: drawn before its first card" in r.stderr and "--card K" in r.stderr
    assert "No card played yet" in r.stdout and "no cards left" not in r.stdout
    k = len(deal["played"]) - 8
    r = _atout("show", str(src), "--svg", "-", "--card", str(k), "--values", "--time-limit", "20")
    assert r.returncode == 0, r.stderr
    assert f"After card {k} of" in r.stdout and "Double-dummy value" in r.stdout
    assert r.stderr == ""
    url = link.make_link("http://h/", deal)
    r = _atout("show", "--link", url, "--card", str(k))
    assert r.returncode == 0 and f"shown after card {k}" in r.stdout
    r = _atout("show", "--link", url, "--card", str(k), "--json")
    assert json.loads(r.stdout)["played"] == deal["played"][:k]
    bad = _atout("show", str(src), "--card", "99")
    assert bad.returncode == 1 and bad.stderr.strip().endswith("card: 99 asked, only 72 played")
    neg = _atout("show", str(src), "--card", "-1")
    assert neg.returncode != 0 and "Traceback" not in neg.stderr and "card" in neg.stderr
