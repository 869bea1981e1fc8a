# cython: language_level=3
"""The double-dummy search: alpha-beta with a transposition table, in C without the GIL.

One engine for every game: a :c:type:`Game` holds the rule parameters (built in
``params.py`` from the readable rules engine) and the search never asks which game
it plays, only what the parameters say.

Cards are codes ``suit * 32 + bit``: suits 0..3, tarock 4; ``bit`` orders cards by
strength inside their suit (``power - 1``), so "higher" is simply a higher bit.
T1..T21 are bits 0..20 of suit 4 and EX is bit 21 (what EX does is a parameter).

Layout follows DDS: ``legal`` + ``moves`` (move generation: equivalent cards once,
best guesses first), ``finish_trick``/``final_value`` (counting), ``bounds`` (cheap
bounds from the points still in play), ``tt_*`` (the table), ``probe`` (the fail-soft
null-window search "value >= target?") and ``exact`` (the driver that turns probes
into the exact value).
"""

from libc.stdint cimport uint64_t, uint32_t, int16_t, uint8_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

DEF MAXSEATS = 5
DEF MAXMOVES = 32
DEF EXBIT = 21
DEF TAROCK = 4
DEF EXCODE = 4 * 32 + 21
DEF PETITCODE = 4 * 32 + 0
DEF T21CODE = 4 * 32 + 20

# games and their final values
DEF KIND_FRENCH = 0
DEF KIND_PRIEST = 1
DEF KIND_AT4 = 2
DEF KIND_TRISCHAKEN = 3
# what EX is
DEF EX_FRENCH = 0
DEF EX_NARR = 1
DEF EX_SKUS = 2
# at4 goals
DEF GOAL_POINTS = 0
DEF GOAL_NEGATIVE = 1
DEF GOAL_BIRD_GAME = 2
DEF GOAL_VOLAT = 3
DEF GOAL_ULTIMO = 4
DEF GOAL_KOENIG = 5

DEF FLAG_BIRD = 1
DEF FLAG_KOENIG = 2

# Near the end a search is cheaper than a cache miss: no table with fewer tricks left.
DEF TT_MIN_TRICKS = 2
DEF VALUE_MIN = -30000
DEF VALUE_MAX = 30000


cdef struct Game:
    int kind, seats, tricks, excuse
    int camp[MAXSEATS]
    int maxcamp
    int points[5][32]
    uint32_t special[5]          # cards never merged with a neighbour
    int trumps_win, overtrump, must_beat, pagat_last, trull, colour_lead, top_lead
    int called_code              # fr5 first-trick rule, -1 if none
    int narr_last_trick
    int total_points             # all card points of the pack (fr: half points)
    # French scoring
    int multiplier, poignee, chelem_announced
    # at4 scoring
    int standard, goal, goal_tricks, bird_code, bird_trick, koenig_code
    int talon_points[6]
    int talon_cards[6]
    int talon_len
    uint64_t zobrist[5][32]


cdef struct Acc:                 # what each camp has won so far
    int pts[2]
    int cards[2]
    int tricks[2]
    int bouts[2]
    int pab                      # petit au bout: +1 camp 0, -1 camp 1, 0 none
    int petit_prev               # fr slam case: camp (+1/-1) that won T1 in the trick before last
    int flags                    # at4: FLAG_BIRD, FLAG_KOENIG


cdef struct State:
    uint32_t hand[MAXSEATS][5]
    int leader, trick_len, trick_no
    int tcard[MAXSEATS]
    int tseat[MAXSEATS]
    Acc acc
    uint64_t cards_hash


cdef struct Entry:
    uint64_t key
    int16_t lo, hi               # value >= lo when the points won are >= plo; <= hi when <= phi
    uint8_t best, remaining
    uint8_t plo, phi


cdef struct Ctx:
    Entry* table
    uint64_t mask                # buckets - 1
    uint64_t nodes, node_limit
    double deadline
    int abort


# -- small helpers -------------------------------------------------------------------------

cdef inline int popcount(uint32_t x) noexcept nogil:
    return __builtin_popcount(x)

cdef inline int top_bit(uint32_t x) noexcept nogil:
    return 31 - __builtin_clz(x)

cdef inline int low_bit(uint32_t x) noexcept nogil:
    return __builtin_ctz(x)

cdef extern from *:
    void __builtin_prefetch(const void*) nogil
    int __builtin_popcount(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil

cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9

cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    # splitmix64 finaliser: spreads the bits of the accumulator into a hash
    x ^= x >> 30
    x *= 0xbf58476d1ce4e5b9ULL
    x ^= x >> 27
    x *= 0x94d049bb133111ebULL
    x ^= x >> 31
    return x

cdef inline int to_play(const Game* g, const State* s) noexcept nogil:
    return (s.leader + s.trick_len) % g.seats

cdef inline int never_wins(const Game* g, int code) noexcept nogil:
    return code == EXCODE and g.excuse != EX_SKUS


# -- trick rules -----------------------------------------------------------------------------

cdef inline int beats(const Game* g, int c, int b) noexcept nogil:
    """Does card c beat card b, the one winning so far?"""
    cdef int cs = c >> 5, bs = b >> 5
    if g.trumps_win:
        if cs == TAROCK and bs != TAROCK:
            return 1
        if bs == TAROCK and cs != TAROCK:
            return 0
    if cs != bs:
        return 0
    return (c & 31) > (b & 31)


cdef int winning_index(const Game* g, const int* cards, int n) noexcept nogil:
    """Index of the card winning a (partial) trick, -1 if only an Excuse/Narr."""
    cdef int best = -1, i, has_petit = -1, has_21 = 0, has_ex = 0
    for i in range(n):
        if cards[i] == PETITCODE:
            has_petit = i
        elif cards[i] == T21CODE:
            has_21 = 1
        elif cards[i] == EXCODE:
            has_ex = 1
        if never_wins(g, cards[i]):
            continue
        if best < 0 or beats(g, cards[i], cards[best]):
            best = i
    if g.trull and has_petit >= 0 and has_21 and has_ex:
        return has_petit      # the Trull trick: the Pagat wins
    return best


cdef inline void pagat_last(const Game* g, const uint32_t* h, uint32_t* c) noexcept nogil:
    # the Pagat only as the player's last tarock
    if (c[TAROCK] & 1) and popcount(h[TAROCK]) > 1:
        c[TAROCK] &= ~(<uint32_t>1)


cdef void legal(const Game* g, const State* s, uint32_t* c) noexcept nogil:
    """The legal cards of the seat to play, as five suit masks."""
    cdef int seat = to_play(g, s), k, led, top, first, w
    cdef const uint32_t* h = s.hand[seat]
    cdef uint32_t trumps, over, suits, ex, beat
    for k in range(5):
        c[k] = h[k]
    suits = h[0] | h[1] | h[2] | h[3]
    if s.trick_len == 0:                                   # leading
        if g.called_code >= 0 and s.trick_no == 0:
            # fr5: the called suit may not open the deal, except the called card itself
            k = g.called_code >> 5
            c[k] = h[k] & (<uint32_t>1 << (g.called_code & 31))
        if g.colour_lead and suits:
            c[TAROCK] = 0
        if g.pagat_last:
            pagat_last(g, h, c)
        if g.top_lead and h[TAROCK]:
            for k in range(4):
                c[k] = 0
            c[TAROCK] = <uint32_t>1 << top_bit(h[TAROCK])
        if not (c[0] | c[1] | c[2] | c[3] | c[4]):
            for k in range(5):
                c[k] = h[k]
        return

    first = s.tcard[0]
    if g.excuse == EX_FRENCH:
        led = first >> 5 if first != EXCODE else (s.tcard[1] >> 5 if s.trick_len > 1 else -1)
        if led < 0:
            return                                          # only the Excuse so far
        ex = h[TAROCK] & (<uint32_t>1 << EXBIT)
        if led != TAROCK and h[led]:
            for k in range(5):
                c[k] = 0
            c[led] = h[led]
            c[TAROCK] = ex
            return
        trumps = h[TAROCK] & ~(<uint32_t>1 << EXBIT)
        if trumps:
            top = -1
            for k in range(s.trick_len):
                if (s.tcard[k] >> 5) == TAROCK and s.tcard[k] != EXCODE and (s.tcard[k] & 31) > top:
                    top = s.tcard[k] & 31
            over = trumps & ~((<uint32_t>2 << top) - 1) if top >= 0 and g.overtrump else trumps
            for k in range(4):
                c[k] = 0
            c[TAROCK] = (over if over else trumps) | ex
        return

    if g.excuse == EX_NARR:
        if first == EXCODE:                                 # a led Narr asks for tarock
            if h[TAROCK]:
                for k in range(4):
                    c[k] = 0
            elif s.trick_len > 1 and (s.tcard[1] >> 5) != TAROCK and h[s.tcard[1] >> 5]:
                led = s.tcard[1] >> 5
                for k in range(5):
                    c[k] = 0
                c[led] = h[led]
            return
        led = first >> 5
        if led != TAROCK and h[led]:
            for k in range(5):
                c[k] = 0
            c[led] = h[led]
        elif h[TAROCK]:                                     # the Narr counts as a tarock
            for k in range(4):
                c[k] = 0
        return

    # at4: follow suit (tarock is a suit); void, tarock
    led = first >> 5
    if h[led]:
        for k in range(5):
            c[k] = 0
        c[led] = h[led]
    elif h[TAROCK]:
        for k in range(4):
            c[k] = 0
    if g.pagat_last:
        pagat_last(g, h, c)
    if g.must_beat:
        w = s.tcard[winning_index(g, s.tcard, s.trick_len)]
        if h[led]:
            beat = c[led] & ~((<uint32_t>2 << (w & 31)) - 1) if (w >> 5) == led else 0
            if beat:
                c[led] = beat
        elif h[TAROCK]:
            if (w >> 5) != TAROCK:
                beat = c[TAROCK] if g.trumps_win else 0
            else:
                beat = c[TAROCK] & ~((<uint32_t>2 << (w & 31)) - 1)
            if beat:
                c[TAROCK] = beat


# -- playing and counting -----------------------------------------------------------------------

cdef void finish_trick(const Game* g, State* s) noexcept nogil:
    cdef int i, w, wc, code, owner, to, sign, last = s.trick_no == g.tricks - 1
    cdef int ex_seat = -1, has_petit = 0, win_code
    cdef Acc* a = &s.acc
    w = winning_index(g, s.tcard, g.seats)
    for i in range(g.seats):
        if s.tcard[i] == EXCODE:
            ex_seat = i
        if s.tcard[i] == PETITCODE:
            has_petit = 1
    if g.kind == KIND_FRENCH and last and ex_seat >= 0 and \
            a.tricks[1 - g.camp[s.tseat[ex_seat]]] == 0:
        w = ex_seat            # slam case: the Excuse wins the last trick
    win_code = s.tcard[w]
    w = s.tseat[w]
    wc = g.camp[w]
    a.tricks[wc] += 1
    a.cards[wc] += g.seats
    if g.kind == KIND_FRENCH:
        for i in range(g.seats):
            code = s.tcard[i]
            if code == EXCODE:
                owner = g.camp[s.tseat[i]]
                if last:
                    to = owner if s.tseat[i] == w else 1 - owner
                    a.pts[to] += 9
                    a.bouts[to] += 1
                elif owner == wc:
                    a.pts[wc] += 9
                    a.bouts[wc] += 1
                else:
                    a.pts[owner] += 8       # kept, a low card given in exchange
                    a.pts[wc] += 1
                    a.bouts[owner] += 1
            else:
                a.pts[wc] += g.points[code >> 5][code & 31]
                if code == PETITCODE or code == T21CODE:
                    a.bouts[wc] += 1
        sign = 1 if wc == 0 else -1
        if has_petit:
            if last:
                a.pab = sign
            elif s.trick_no == g.tricks - 2:
                a.petit_prev = sign
        elif last and win_code == EXCODE and a.petit_prev == sign:
            a.pab = sign
    elif g.kind == KIND_PRIEST:
        for i in range(g.seats):
            code = s.tcard[i]
            if code == EXCODE:              # the Narr stays with its holder's party
                if s.trick_no < g.narr_last_trick:
                    a.pts[g.camp[s.tseat[i]]] += g.points[TAROCK][EXBIT]
            else:
                a.pts[wc] += g.points[code >> 5][code & 31]
    else:
        for i in range(g.seats):
            code = s.tcard[i]
            a.pts[wc] += g.points[code >> 5][code & 31]
        if s.trick_no < g.talon_len:         # Trischaken: a talon card joins the trick
            a.pts[wc] += g.talon_points[s.trick_no]
            a.cards[wc] += g.talon_cards[s.trick_no]
        if s.trick_no == g.bird_trick and win_code == g.bird_code and wc == 0:
            a.flags |= FLAG_BIRD
        if last and wc == 0 and g.koenig_code >= 0:
            for i in range(g.seats):
                if s.tcard[i] == g.koenig_code:
                    a.flags |= FLAG_KOENIG
    s.leader = w
    s.trick_len = 0
    s.trick_no += 1


cdef inline void play(const Game* g, State* s, int code) noexcept nogil:
    cdef int seat = to_play(g, s)
    s.hand[seat][code >> 5] &= ~(<uint32_t>1 << (code & 31))
    s.cards_hash ^= g.zobrist[code >> 5][code & 31]
    s.tcard[s.trick_len] = code
    s.tseat[s.trick_len] = seat
    s.trick_len += 1
    if s.trick_len == g.seats:
        finish_trick(g, s)


# -- values -------------------------------------------------------------------------------------

cdef int french_value(const Game* g, int pts, int bouts, int pab, int chelem) noexcept nogil:
    cdef int needed, m, sign, margin
    if bouts == 0:
        needed = 56
    elif bouts == 1:
        needed = 51
    elif bouts == 2:
        needed = 41
    else:
        needed = 36
    m = pts - 2 * needed
    sign = 1 if m >= 0 else -1
    margin = ((m if m >= 0 else -m) + 1) // 2      # a half point goes to the winner
    return (sign * (25 + margin) + 10 * pab) * g.multiplier + sign * g.poignee + chelem


cdef inline int count(const Game* g, int pts, int cards) noexcept nogil:
    return 3 * pts - 2 * cards if g.standard else pts


cdef int final_value(const Game* g, const Acc* a) noexcept nogil:
    cdef int chelem, made
    if g.kind == KIND_FRENCH:
        if a.tricks[0] == g.tricks:
            chelem = 400 if g.chelem_announced else 200
        elif a.tricks[1] == g.tricks or g.chelem_announced:
            chelem = -200
        else:
            chelem = 0
        return french_value(g, a.pts[0], a.bouts[0], a.pab, chelem)
    if g.kind == KIND_PRIEST:
        return a.pts[0] - a.pts[1]
    if g.kind == KIND_TRISCHAKEN:
        return count(g, a.pts[0], a.cards[0])
    if g.goal == GOAL_POINTS:
        return count(g, a.pts[0], a.cards[0])
    if g.goal == GOAL_NEGATIVE:
        return a.tricks[0] == g.goal_tricks
    if g.goal == GOAL_VOLAT:
        return a.tricks[1] == 0
    if g.goal == GOAL_ULTIMO:
        return (a.flags & FLAG_BIRD) != 0
    if g.goal == GOAL_KOENIG:
        return (a.flags & FLAG_KOENIG) != 0
    made = count(g, a.pts[0], a.cards[0]) >= (107 if g.standard else 54)
    return made and (a.flags & FLAG_BIRD) != 0


cdef uint32_t sure_trumps(const Game* g, const State* s, int* camp) noexcept nogil:
    """fr, at a trick start: the run of top trumps held by one camp (its bits), or 0.

    The Excuse can beat them only in the slam case, so the run counts only when the
    other camp does not hold the Excuse or this camp has already won a trick.
    """
    cdef uint32_t held[2]
    cdef uint32_t all_trumps, run = 0
    cdef int p, b, x, ex_camp = -1
    held[0] = held[1] = 0
    for p in range(g.seats):
        held[g.camp[p]] |= s.hand[p][TAROCK] & ~(<uint32_t>1 << EXBIT)
        if (s.hand[p][TAROCK] >> EXBIT) & 1:
            ex_camp = g.camp[p]
    all_trumps = held[0] | held[1]
    if not all_trumps:
        return 0
    b = top_bit(all_trumps)
    x = 0 if (held[0] >> b) & 1 else 1
    if ex_camp == 1 - x and s.acc.tricks[x] == 0:
        return 0
    while all_trumps and (held[x] >> top_bit(all_trumps)) & 1:
        b = top_bit(all_trumps)
        run |= <uint32_t>1 << b
        all_trumps &= ~(<uint32_t>1 << b)
    camp[0] = x
    return run


cdef void bounds(const Game* g, const State* s, int* lo, int* hi) noexcept nogil:
    """Cheap bounds on the value: one camp takes everything still in play, or nothing."""
    cdef const Acc* a = &s.acc
    cdef int rest = g.total_points - a.pts[0] - a.pts[1]
    cdef int tricks_left = g.tricks - s.trick_no
    cdef int rest_cards = tricks_left * g.seats, k, bouts_left, pab_lo, pab_hi, ch_lo, ch_hi
    cdef int petit_out = 1, p, run_camp = 0
    cdef int sure_pts[2]
    cdef int sure_bouts[2]
    cdef uint32_t sure
    if g.kind == KIND_FRENCH:
        bouts_left = 3 - a.bouts[0] - a.bouts[1]
        for p in range(g.seats):
            if s.hand[p][TAROCK] & 1:
                petit_out = 0
        for k in range(s.trick_len):
            if s.tcard[k] == PETITCODE:
                petit_out = 0
        pab_lo, pab_hi = -1, 1
        if petit_out:             # T1 already counted: only the slam case can still move it
            pab_lo = -1 if a.petit_prev < 0 else 0
            pab_hi = 1 if a.petit_prev > 0 else 0
        if a.tricks[1] == 0:
            ch_hi = 400 if g.chelem_announced else 200
        else:
            ch_hi = -200 if g.chelem_announced else 0
        ch_lo = -200 if (a.tricks[0] == 0 or g.chelem_announced) else 0
        sure_pts[0] = sure_pts[1] = sure_bouts[0] = sure_bouts[1] = 0
        if s.trick_len == 0:
            sure = sure_trumps(g, s, &run_camp)
            if sure & 1:          # the petit is sure too: no petit au bout for the others
                if run_camp == 0:
                    pab_lo = 0
                else:
                    pab_hi = 0
            if sure:              # a sure trick: the other camp cannot slam
                if run_camp == 0:
                    ch_lo = -200 if g.chelem_announced else 0
                else:
                    ch_hi = -200 if g.chelem_announced else 0
            # Each of these trumps wins its trick or falls under a higher one of the same
            # camp: its points, and a bout, are that camp's whatever happens.
            while sure:
                k = low_bit(sure)
                sure &= sure - 1
                sure_pts[run_camp] += g.points[TAROCK][k]
                sure_bouts[run_camp] += k == 0 or k == 20
        hi[0] = french_value(g, a.pts[0] + rest - sure_pts[1], a.bouts[0] + bouts_left - sure_bouts[1],
                             pab_hi, ch_hi)
        lo[0] = french_value(g, a.pts[0] + sure_pts[0], a.bouts[0] + sure_bouts[0], pab_lo, ch_lo)
        return
    if g.kind == KIND_PRIEST:
        hi[0] = a.pts[0] + rest - a.pts[1]
        lo[0] = a.pts[0] - a.pts[1] - rest
        return
    for k in range(s.trick_no, g.talon_len):
        rest_cards += g.talon_cards[k]
    if g.kind == KIND_TRISCHAKEN or g.goal == GOAL_POINTS:
        # every card is worth 3 * points - 2 >= 1 in the count in threes: more is more
        lo[0] = count(g, a.pts[0], a.cards[0])
        hi[0] = count(g, a.pts[0] + rest, a.cards[0] + rest_cards)
        return
    lo[0], hi[0] = 0, 1
    if g.goal == GOAL_NEGATIVE:
        if a.tricks[0] > g.goal_tricks or a.tricks[0] + tricks_left < g.goal_tricks:
            hi[0] = 0
    elif g.goal == GOAL_VOLAT:
        if a.tricks[1] > 0:
            hi[0] = 0
    elif g.goal == GOAL_ULTIMO or g.goal == GOAL_BIRD_GAME:
        if s.trick_no > g.bird_trick and not (a.flags & FLAG_BIRD):
            hi[0] = 0
        elif g.goal == GOAL_BIRD_GAME and count(g, a.pts[0] + rest, a.cards[0] + rest_cards) < \
                (107 if g.standard else 54):
            hi[0] = 0


# -- move generation ---------------------------------------------------------------------------

cdef int moves(const Game* g, const State* s, int* out, int first_code) noexcept nogil:
    """Legal cards, one per group of equivalent cards, best guesses first."""
    cdef uint32_t c[5]
    cdef uint32_t live[5]
    cdef uint32_t m, between
    cdef int n = 0, k, b, prev, p, seat = to_play(g, s), code, i, j, tmp
    cdef int score[MAXMOVES]
    cdef int win = -1, win_camp = -1, mine, last_to_play, pts, wins, sc
    legal(g, s, c)
    for k in range(5):
        live[k] = 0
        for p in range(g.seats):
            live[k] |= s.hand[p][k]
    for k in range(s.trick_len):
        live[s.tcard[k] >> 5] |= <uint32_t>1 << (s.tcard[k] & 31)
    if s.trick_len:
        win = winning_index(g, s.tcard, s.trick_len)
        if win >= 0:
            win_camp = g.camp[s.tseat[win]]
    mine = g.camp[seat]
    last_to_play = s.trick_len == g.seats - 1
    for k in range(5):
        m = c[k]
        prev = -1
        while m:
            b = low_bit(m)
            m &= m - 1
            code = k * 32 + b
            # Same points, nothing alive between, nothing special: the same card.
            if prev >= 0 and not ((g.special[k] >> b) & 1) and not ((g.special[k] >> prev) & 1) \
                    and g.points[k][b] == g.points[k][prev]:
                between = live[k] & ((<uint32_t>1 << b) - 1) & ~((<uint32_t>2 << prev) - 1)
                if (between & ~s.hand[seat][k]) == 0:
                    out[n - 1] = code          # keep the highest of the group
                    prev = b
                    continue
            out[n] = code
            n += 1
            prev = b
    # ordering by a simple guess of what is good for the seat's camp
    for i in range(n):
        code = out[i]
        pts = g.points[code >> 5][code & 31]
        if code == first_code:
            sc = 1000000
        elif s.trick_len == 0:
            # lead a card that is the top of its suit, else a low one
            between = live[code >> 5] & ~((<uint32_t>2 << (code & 31)) - 1)
            sc = 1000 + pts if between == 0 else -pts * 4 - (code & 31)
        else:
            wins = win < 0 or (not never_wins(g, code) and beats(g, code, s.tcard[win]))
            if win_camp == mine and not wins:
                sc = 500 + pts * 8 - (code & 31)    # partner wins: give points
            elif wins and win_camp != mine:
                sc = 700 - (code & 31) + (pts * 8 if last_to_play else 0)   # win cheaply
            elif wins:
                sc = 300 - (code & 31)
            else:
                sc = -pts * 8 - (code & 31)       # cannot win: keep points
        score[i] = sc
    for i in range(1, n):                       # insertion sort, n is small
        tmp = out[i]
        sc = score[i]
        j = i - 1
        while j >= 0 and score[j] < sc:
            out[j + 1] = out[j]
            score[j + 1] = score[j]
            j -= 1
        out[j + 1] = tmp
        score[j + 1] = sc
    return n


# -- transposition table -------------------------------------------------------------------------

cdef inline int additive(const Game* g) noexcept nogil:
    """Is the value what was won so far plus what the rest of the deal adds?"""
    return g.kind == KIND_PRIEST or g.kind == KIND_TRISCHAKEN or \
        (g.kind == KIND_AT4 and g.goal == GOAL_POINTS)


cdef inline int tt_base(const Game* g, const State* s) noexcept nogil:
    """The part of the value already won, for games where values add up (else 0)."""
    if g.kind == KIND_PRIEST:
        return s.acc.pts[0] - s.acc.pts[1]
    if additive(g):
        return count(g, s.acc.pts[0], s.acc.cards[0])
    return 0


cdef inline int tt_points(const Game* g, const State* s) noexcept nogil:
    """fr: the taker's camp's half points so far.  The French score never falls when they
    grow, so one entry serves positions that differ only by them: a lower bound proven
    with p points holds with more, an upper bound with fewer.  Other games: 0."""
    return s.acc.pts[0] if g.kind == KIND_FRENCH else 0


cdef uint64_t tt_key(const Game* g, const State* s) noexcept nogil:
    """The table key of a trick start: who holds which of the live cards, up to rank.

    Cards are described by their order within the suit and their points (special
    cards also by their rank), not by their rank: two positions that differ only by which equal-point
    cards are already gone (2S played here, 3S there) are the same position and share
    an entry.  What each camp has won so far is part of the key too.
    """
    cdef const Acc* a = &s.acc
    cdef uint64_t h = 0x243f6a8885a308d3ULL, x
    cdef uint32_t live, m
    cdef int k, b, p
    for k in range(5):
        live = 0
        for p in range(g.seats):
            live |= s.hand[p][k]
        m = live
        while m:
            b = low_bit(m)
            m &= m - 1
            p = 0
            while not ((s.hand[p][k] >> b) & 1):
                p += 1
            # a special card keeps its identity (T1 and EX may both be the last tarock)
            h = mix(h ^ (<uint64_t>(p + 1) | (<uint64_t>g.points[k][b] << 3) |
                         (<uint64_t>(b + 1 if (g.special[k] >> b) & 1 else 0) << 11) |
                         (<uint64_t>(k + 1) << 17)))
        h = mix(h ^ 0x9e3779b97f4a7c15ULL)
    if additive(g):
        x = 0                 # the future is stored apart from what was won so far
    elif g.kind == KIND_FRENCH:
        # the score needs the points and bouts won, and whether each camp has a trick
        # The score needs the bouts won and whether each camp has a trick; the points
        # won are not in the key: the value only grows with them (see tt_points).
        x = (<uint64_t>a.bouts[0] << 10) | \
            (<uint64_t>(a.tricks[0] > 0) << 12) | (<uint64_t>(a.tricks[1] > 0) << 13) | \
            (<uint64_t>(a.petit_prev + 1) << 14)
    else:
        x = (<uint64_t>a.pts[0]) | (<uint64_t>a.cards[0] << 10) | \
            (<uint64_t>a.tricks[0] << 20) | (<uint64_t>a.tricks[1] << 25) | \
            (<uint64_t>a.flags << 30)
    x |= <uint64_t>s.leader << 40
    return h ^ mix(x + 0x9e3779b97f4a7c15ULL)


cdef inline Entry* tt_probe(Ctx* ctx, uint64_t key) noexcept nogil:
    cdef Entry* bucket = ctx.table + 4 * (key & ctx.mask)
    cdef int i
    for i in range(4):
        if bucket[i].key == key:
            return &bucket[i]
    return NULL


cdef void tt_store(Ctx* ctx, uint64_t key, int lo, int hi, int p, int best,
                   int remaining) noexcept nogil:
    """Store a lower bound (``hi`` = VALUE_MAX) or an upper bound (``lo`` = VALUE_MIN)
    proven with ``p`` points won so far (see :func:`tt_points`)."""
    cdef Entry* bucket = ctx.table + 4 * (key & ctx.mask)
    cdef Entry* e = NULL
    cdef int i
    for i in range(4):
        if bucket[i].key == key:
            e = &bucket[i]
            break
    if e == NULL:
        # full bucket: replace the entry of the smallest subtree (cheapest to redo)
        e = &bucket[0]
        for i in range(4):
            if bucket[i].key == 0:
                e = &bucket[i]
                break
            if bucket[i].remaining < e.remaining:
                e = &bucket[i]
        e.key = key
        e.lo, e.plo = VALUE_MIN, 0
        e.hi, e.phi = VALUE_MAX, 255
    # A lower bound holds for every position with at least its points won, an upper
    # bound for every one with at most: keep the new one unless the old one covers it.
    if lo != VALUE_MIN and not (e.lo != VALUE_MIN and e.plo <= p and e.lo >= lo):
        e.lo, e.plo = lo, p
    if hi != VALUE_MAX and not (e.hi != VALUE_MAX and e.phi >= p and e.hi <= hi):
        e.hi, e.phi = hi, p
    e.best = best
    e.remaining = remaining


# -- the search ---------------------------------------------------------------------------------

cdef int last_trick(const Game* g, const State* s) noexcept nogil:
    """One card each left: every play is forced, so just play them out."""
    cdef State end = s[0]
    cdef int seat, k
    while end.trick_no < g.tricks:
        seat = to_play(g, &end)
        for k in range(5):
            if end.hand[seat][k]:
                play(g, &end, k * 32 + low_bit(end.hand[seat][k]))
                break
    return final_value(g, &end.acc)


cdef int probe(const Game* g, const State* s, int target, Ctx* ctx) noexcept nogil:
    """A fail-soft null-window search around ``target``.

    Returns v >= target when the value is at least v, and v < target when the value is
    at most v: the bound is often far beyond the target, which saves whole tests.
    """
    cdef int lo, hi, n, i, v, bound, best = 255, maximizing, base = 0, use_table, won = 0
    cdef int mv[MAXMOVES]
    cdef uint64_t key = 0
    cdef Entry* e
    cdef State child
    ctx.nodes += 1
    if (ctx.nodes & 4095) == 0:
        if (ctx.node_limit and ctx.nodes >= ctx.node_limit) or \
                (ctx.deadline > 0 and now() > ctx.deadline):
            ctx.abort = 1
    if ctx.abort:
        return 0
    if s.trick_no == g.tricks:
        return final_value(g, &s.acc)
    if s.trick_no == g.tricks - 1:
        return last_trick(g, s)
    if s.trick_len == 0:
        # Points change only when a trick ends: inside a trick the bounds are those of its
        # start, which were already tried against this target.
        bounds(g, s, &lo, &hi)
        if lo >= target:
            return lo
        if hi < target:
            return hi
    else:
        lo, hi = VALUE_MIN, VALUE_MAX
    use_table = s.trick_len == 0 and g.tricks - s.trick_no >= TT_MIN_TRICKS
    if use_table:
        key = tt_key(g, s)
        base = tt_base(g, s)
        e = tt_probe(ctx, key)
        won = tt_points(g, s)
        if e != NULL:
            if e.lo != VALUE_MIN and won >= e.plo and e.lo + base >= target:
                return e.lo + base
            if e.hi != VALUE_MAX and won <= e.phi and e.hi + base < target:
                return e.hi + base
            best = e.best
    n = moves(g, s, mv, best)
    maximizing = g.camp[to_play(g, s)] == g.maxcamp
    bound = VALUE_MIN if maximizing else VALUE_MAX
    best = mv[0]
    for i in range(n):
        child = s[0]
        play(g, &child, mv[i])
        v = probe(g, &child, target, ctx)
        if ctx.abort:
            return 0
        if maximizing:
            if v > bound:
                bound = v
                best = mv[i]
            if v >= target:
                break
        else:
            if v < bound:
                bound = v
                best = mv[i]
            if v < target:
                break
    # The children's bounds cannot beat what the points still in play allow.
    if bound < lo:
        bound = lo
    if bound > hi:
        bound = hi
    if use_table:
        if bound >= target:
            tt_store(ctx, key, bound - base, VALUE_MAX, won, best, g.tricks - s.trick_no)
        else:
            tt_store(ctx, key, VALUE_MIN, bound - base, won, best, g.tricks - s.trick_no)
    return bound


cdef inline int test(const Game* g, const State* s, int target, Ctx* ctx) noexcept nogil:
    """1 if the value of the position is >= target under perfect play, else 0."""
    return probe(g, s, target, ctx) >= target


cdef int exact(const Game* g, const State* s, Ctx* ctx, int* lo_out, int* hi_out) noexcept nogil:
    """The exact value by bisection over fail-soft null-window probes; 0 if a limit
    stopped it (then [lo_out, hi_out] is what was proven)."""
    cdef int lo, hi, mid, v
    bounds(g, s, &lo, &hi)
    if s.trick_no == g.tricks:
        lo = final_value(g, &s.acc)
        hi = lo
    while lo < hi:
        mid = lo + (hi - lo + 1) // 2
        v = probe(g, s, mid, ctx)
        if ctx.abort:
            break
        if v >= mid:
            lo = v if v < hi else hi
        else:
            hi = v if v > lo else lo
    lo_out[0] = lo
    hi_out[0] = hi
    return not ctx.abort


# -- the Python face -----------------------------------------------------------------------------

cdef class Engine:
    """A search over one position: rule parameters, the root state and a table.

    Built by ``atout.solver`` from a :class:`~atout.position.Position`; every method
    releases the GIL while it searches.
    """
    cdef Game g
    cdef State root
    cdef Ctx ctx
    cdef void* raw_table

    def __cinit__(self, dict params, int tt_mb):
        cdef uint64_t buckets = 1
        cdef int k, b, seat
        cdef Game* g = &self.g
        cdef State* r = &self.root
        memset(&self.g, 0, sizeof(Game))
        memset(&self.root, 0, sizeof(State))
        memset(&self.ctx, 0, sizeof(Ctx))
        g.kind = params["kind"]; g.seats = params["seats"]; g.tricks = params["tricks"]
        g.excuse = params["excuse"]; g.maxcamp = params["maxcamp"]
        g.trumps_win = params["trumps_win"]; g.overtrump = params["overtrump"]
        g.must_beat = params["must_beat"]; g.pagat_last = params["pagat_last"]
        g.trull = params["trull"]; g.colour_lead = params["colour_lead"]
        g.top_lead = params["top_lead"]; g.called_code = params["called_code"]
        g.narr_last_trick = params["narr_last_trick"]; g.total_points = params["total_points"]
        g.multiplier = params["multiplier"]; g.poignee = params["poignee"]
        g.chelem_announced = params["chelem_announced"]; g.standard = params["standard"]
        g.goal = params["goal"]; g.goal_tricks = params["goal_tricks"]
        g.bird_code = params["bird_code"]; g.bird_trick = params["bird_trick"]
        g.koenig_code = params["koenig_code"]
        for seat in range(g.seats):
            g.camp[seat] = params["camp"][seat]
        for k in range(5):
            g.special[k] = params["special"][k]
            for b in range(32):
                g.points[k][b] = params["points"][k][b]
                g.zobrist[k][b] = params["zobrist"][k][b]
        g.talon_len = len(params["talon_points"])
        for k in range(g.talon_len):
            g.talon_points[k] = params["talon_points"][k]
            g.talon_cards[k] = 1
        s = params["state"]
        for seat in range(g.seats):
            for k in range(5):
                r.hand[seat][k] = s["hand"][seat][k]
                for b in range(32):
                    if (r.hand[seat][k] >> b) & 1:
                        r.cards_hash ^= g.zobrist[k][b]
        r.leader = s["leader"]; r.trick_no = s["trick_no"]; r.trick_len = len(s["trick"])
        for k, (seat, code) in enumerate(s["trick"]):
            r.tseat[k] = seat
            r.tcard[k] = code
        for k in range(2):
            r.acc.pts[k] = s["pts"][k]; r.acc.cards[k] = s["cards"][k]
            r.acc.tricks[k] = s["tricks"][k]; r.acc.bouts[k] = s["bouts"][k]
        r.acc.pab = s["pab"]; r.acc.petit_prev = s["petit_prev"]; r.acc.flags = s["flags"]
        if tt_mb < 1:
            tt_mb = 1
        while buckets * 2 * 4 * sizeof(Entry) <= (<uint64_t>tt_mb) << 20:
            buckets *= 2
        # Buckets of 4 entries = 64 bytes, aligned so that a bucket is one cache line.
        # calloc maps fresh zero pages for a large table: no time spent clearing it.
        self.raw_table = calloc(buckets * 4 * sizeof(Entry) + 64, 1)
        self.ctx.table = <Entry*>((<size_t>self.raw_table + 63) & ~(<size_t>63)) \
            if self.raw_table != NULL else NULL
        if self.ctx.table == NULL:
            raise MemoryError(f"cannot allocate a {tt_mb} MB transposition table")
        self.ctx.mask = buckets - 1

    def __dealloc__(self):
        free(self.raw_table)

    def set_limits(self, uint64_t node_limit, double seconds):
        """Stop searching after this many nodes / seconds from now (0: no limit)."""
        self.ctx.node_limit = self.ctx.nodes + node_limit if node_limit else 0
        self.ctx.deadline = now() + seconds if seconds > 0 else 0.0
        self.ctx.abort = 0

    def stop(self):
        """Ask a running search to stop (safe from another thread)."""
        self.ctx.abort = 1

    @property
    def nodes(self):
        return self.ctx.nodes

    @property
    def stopped(self):
        return bool(self.ctx.abort)

    def to_play(self):
        return to_play(&self.g, &self.root)

    def finished(self):
        return self.root.trick_no == self.g.tricks

    def legal_codes(self):
        """Every legal card code of the seat to play."""
        cdef uint32_t c[5]
        legal(&self.g, &self.root, c)
        return [k * 32 + b for k in range(5) for b in range(32) if (c[k] >> b) & 1]

    def move_codes(self):
        """One code per group of equivalent legal cards, in search order."""
        cdef int mv[MAXMOVES]
        cdef int n = moves(&self.g, &self.root, mv, -1)
        return [mv[i] for i in range(n)]

    def groups(self):
        """Legal codes grouped by equivalence: {representative: [codes...]}."""
        cdef uint32_t c[5]
        cdef int mv[MAXMOVES]
        cdef int n = moves(&self.g, &self.root, mv, -1)
        legal(&self.g, &self.root, c)
        reps = sorted(mv[i] for i in range(n))
        out = {r: [] for r in reps}
        for code in [k * 32 + b for k in range(5) for b in range(32) if (c[k] >> b) & 1]:
            rep = next(r for r in reps if r >= code and (r >> 5) == (code >> 5))
            out[rep].append(code)
        return out

    def value(self):
        """(complete, lo, hi): the exact value when complete, else the proven bounds."""
        cdef int lo = 0, hi = 0, done
        with nogil:
            done = exact(&self.g, &self.root, &self.ctx, &lo, &hi)
        return bool(done), lo, hi

    def at_least(self, int target):
        """(complete, answer): is the value of the root >= target?"""
        cdef int r
        with nogil:
            r = test(&self.g, &self.root, target, &self.ctx)
        return not self.ctx.abort, bool(r)

    def child_value(self, int code):
        """(complete, lo, hi) of the position after the seat to play plays ``code``."""
        cdef State child = self.root
        cdef int lo = 0, hi = 0, done
        play(&self.g, &child, code)
        with nogil:
            done = exact(&self.g, &child, &self.ctx, &lo, &hi)
        return bool(done), lo, hi

    def child_at_least(self, int code, int target):
        """(complete, answer): is the value after ``code`` >= target?"""
        cdef State child = self.root
        cdef int r
        play(&self.g, &child, code)
        with nogil:
            r = test(&self.g, &child, target, &self.ctx)
        return not self.ctx.abort, bool(r)

    def play(self, int code):
        """Play ``code`` at the root (the table stays warm for the next search)."""
        play(&self.g, &self.root, code)

    def bounds(self):
        """The cheap (lo, hi) bounds of the root."""
        cdef int lo = 0, hi = 0
        bounds(&self.g, &self.root, &lo, &hi)
        if self.root.trick_no == self.g.tricks:
            lo = hi = final_value(&self.g, &self.root.acc)
        return lo, hi

    def final_value(self):
        return final_value(&self.g, &self.root.acc)

    def maximizing(self):
        return self.g.camp[to_play(&self.g, &self.root)] == self.g.maxcamp
