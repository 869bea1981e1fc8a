# The minimizing camp (the defence in French Tarot) leading a plain card into a ruff of the
# other camp makes it spend a trump for little: that lead goes before the other low leads, and
# a trump that is not a master after them (any weight from 15 to 80 gave the same order;
# docs/search.md has the figures).
DEF FORCE_W = 30
DEF KILLER_BONUS = 150            # a tie-break among guesses, not above them: measured (docs/search.md)

# -- the play memory -----------------------------------------------------------------------------
# A card that answered a question for a seat is often the answer again wherever that seat
# holds the very same hand at the same point of a trick, whatever the others hold — which
# the table cannot say, since it serves only positions its patterns cover.  So each node
# remembers the card that cut there under a key of what the seat sees: its own hand and,
# inside a trick, the suit led, the card winning so far and how many cards lie on the
# table.  A slot holds 24 bits of the key and the card; a wrong or stale guess costs only
# an ordering.  (Keys that also held which seats still hold each suit, or every card of
# the trick, found fewer answers: docs/search.md.)
DEF PLAY_SLOTS = 1 << 20          # 4 MB per engine at least (more with a big table: _search.pyx)


cdef inline uint64_t play_key(const Game* g, const State* s) noexcept nogil:
    cdef int seat = to_play(g, s), w
    cdef uint64_t trick = 0
    cdef const uint32_t* h = s.hand[seat]
    if s.trick_len:
        w = winning_index(g, s.tcard, s.trick_len)          # (-1: only the Excuse so far)
        trick = <uint64_t>((s.tcard[0] >> 5) + 1) | \
            (<uint64_t>(s.tcard[w] + 1 if w >= 0 else 0) << 8) | (<uint64_t>s.trick_len << 16)
    return mix(mix(mix((<uint64_t>h[0] | (<uint64_t>h[1] << 32)) ^ (<uint64_t>(seat + 1) << 58)) ^
                   (<uint64_t>h[2] | (<uint64_t>h[3] << 32))) ^
               <uint64_t>h[4] ^ mix(trick + 0x9e3779b97f4a7c15ULL))


# -- move generation ---------------------------------------------------------------------------

cdef int settled_camp(const Game* g, const State* s, int code, uint32_t* rel) noexcept nogil:
    """The camp that wins the trick if the seat to play plays ``code``, when no seat still
    to play can change that; else -1.  The last card of a trick always settles it.
    Before that, no later seat of the other camp may hold a card that could beat the card
    then winning (any card of theirs, legal or not: a higher card of the winning camp
    only makes it safer, since beating is transitive — but for the at4 Trull, whose Pagat
    beats everything, so a possible Trull leaves it open)."""
    cdef int cards[MAXSEATS]
    cdef int k, w, wc, ws, wcamp, p, j, seat = to_play(g, s), n = s.trick_len + 1, pinned = 0
    cdef uint32_t above, winners, held, trull = 0
    for k in range(s.trick_len):
        cards[k] = s.tcard[k]
    cards[s.trick_len] = code
    w = winning_index(g, cards, n)
    if w < 0:
        return -1                               # only the Excuse so far
    wcamp = g.camp[s.tseat[w] if w < s.trick_len else seat]
    if n == g.seats:
        return wcamp
    wc = cards[w]
    ws = wc >> 5
    winners = trump_mask(g) if ws == TAROCK else ~(<uint32_t>0)     # the cards of ws that can win
    above = winners & ~((<uint32_t>2 << (wc & 31)) - 1)
    for k in range(s.trick_len):
        if (s.tcard[k] >> 5) == ws and g.camp[s.tseat[k]] != wcamp and not never_wins(g, s.tcard[k]):
            pinned = 1              # the winning card beat one of the other camp's by rank
    if g.trull:
        for k in range(n):
            if cards[k] == PETITCODE or cards[k] == T21CODE or cards[k] == EXCODE:
                trull |= <uint32_t>1 << (cards[k] & 31)
    for j in range(1, g.seats - s.trick_len):
        p = (seat + j) % g.seats
        if g.trull:
            trull |= s.hand[p][TAROCK] & TRULL
        if g.camp[p] == wcamp:
            continue
        held = s.hand[p][ws] & winners
        if held & above:
            return -1
        if g.trumps_win and ws != TAROCK and (s.hand[p][TAROCK] & trump_mask(g)):
            return -1
        if held:
            pinned = 1              # a later seat of the other camp holds lower cards of it
    if g.trull and trull == TRULL:
        return -1
    if pinned:
        # Then the trick is settled by who holds the cards above the winning one: a
        # pattern must keep them all (its closure does, from this card up).  Otherwise it
        # is settled by suits alone — every card of the winning suit in the trick is the
        # winning camp's, and no later seat of the other camp holds that suit (nor a trump
        # against a plain card) — which the key keeps (how many cards of each suit each
        # seat holds): settled wherever the pattern is used, with nothing to add.
        rel[ws] |= <uint32_t>1 << (wc & 31)
    return wcamp


cdef int moves(const Game* g, const State* s, int* out, int first_code, int killer,
               int point_aware, uint32_t* srel, int* lows) noexcept nogil:
    """Legal cards, one per group of equivalent cards, best guesses first: ``first_code``
    (the play memory's card, else the table's best card), then ``killer`` (the last card
    that cut at this depth), then by a simple guess of what is good for the seat's camp.

    Equivalent: same points, nothing alive between them, nothing special.  With
    ``point_aware``, a card whose trick is settled (the last card, or no later seat of the
    other camp can take the trick from the camp that then wins it: ``settled_camp``)
    also takes one card of a run of adjacent honours whose points differ: the most points
    when that is good for its camp (its camp wins the trick; in Trischaken, the analysed
    seat wins it and the card is the others'), the fewest otherwise (the run's cards have
    the same power now and later, so the other cards only move points the wrong way).
    Honours only: their owners are in every pattern's key, so the run is a run wherever
    the pattern is used.  What settled a trick before its last card goes into ``srel``,
    which the search adds to its pattern only when it had to try every card (a cut-off
    rests on its one card, not on the cards left out).
    ``lows`` (or NULL): for each card returned, the bit of the lowest card of its group —
    when the card's rank turns out to matter, its whole group must stay a group in the
    positions a pattern covers (see probe)."""
    cdef uint32_t c[5]
    cdef uint32_t live[5]
    cdef uint32_t m, between
    cdef int n = 0, k, b, prev, p, seat = to_play(g, s), code, i, j, tmp, rep
    cdef int score[MAXMOVES]
    cdef int low[MAXMOVES]
    cdef int high[MAXMOVES]          # the highest card of each move's group (read before the sort)
    cdef int win = -1, win_camp = -1, mine, last_to_play, pts, wins, sc, keep_most = 0, settled
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
            if prev >= 0 and not ((g.special[k] >> b) & 1) and not ((g.special[k] >> prev) & 1):
                between = live[k] & ((<uint32_t>1 << b) - 1) & ~((<uint32_t>2 << prev) - 1)
                if (between & ~s.hand[seat][k]) == 0:
                    rep = out[n - 1]
                    if g.value_points[k][b] == g.value_points[k][rep & 31]:
                        out[n - 1] = code      # the same card: keep the highest of the group
                        high[n - 1] = b
                        prev = b
                        continue
                    settled = -1
                    if point_aware and g.cls[k][rep & 31] != 0 and g.cls[k][b] != 0:
                        # (honours only: a run with a plain card holds only where the
                        # pattern keeps that card's owner, which cost more than it saved)
                        settled = settled_camp(g, s, code, srel)
                    if settled >= 0:
                        # the value grows with camp 0's points in every game (Trischaken:
                        # camp 0 is the analysed seat, whom the maximizing camp loads)
                        keep_most = (settled == 0) == (mine == g.maxcamp)
                        if (g.value_points[k][b] > g.value_points[k][rep & 31]) == keep_most:
                            out[n - 1] = code
                        high[n - 1] = b
                        prev = b
                        continue
            out[n] = code
            low[n] = b
            high[n] = b
            n += 1
            prev = b
    # ordering by a simple guess of what is good for the seat's camp
    cdef int ruffable = 0, ruffed    # the plain suits a seat of the other camp can ruff
    cdef uint32_t ruffers
    if s.trick_len == 0 and g.trumps_win:
        ruffers = trump_mask(g)
        for p in range(g.seats):
            if g.camp[p] != mine and (s.hand[p][TAROCK] & ruffers):
                for k in range(4):
                    if not s.hand[p][k]:
                        ruffable |= 1 << k
    for i in range(n):
        code = out[i]
        pts = g.points[code >> 5][code & 31]
        if code == first_code or ((first_code >> 5) == (code >> 5) and
                                  low[i] <= (first_code & 31) <= high[i]):
            sc = 1000000    # the guess, or a card of its group (which stands for it here)
        elif s.trick_len == 0:
            # lead a card that is the top of its suit, else a low one; a suit the other
            # camp can ruff has no master (its points would go to the ruff)
            between = live[code >> 5] & ~((<uint32_t>2 << (code & 31)) - 1)
            ruffed = (ruffable >> (code >> 5)) & 1
            sc = 1000 + pts if between == 0 and not ruffed else -pts * 4 - (code & 31)
            if mine != g.maxcamp:
                if ruffed and g.cls[code >> 5][code & 31] == 0:
                    sc += FORCE_W                   # force the other camp to ruff
                if (code >> 5) == TAROCK and g.trumps_win and between != 0:
                    sc -= FORCE_W                   # and lead no trump but a master
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
        if code == killer:
            sc += KILLER_BONUS
        score[i] = sc
    for i in range(1, n):                       # insertion sort, n is small
        tmp = out[i]
        sc = score[i]
        b = low[i]
        j = i - 1
        while j >= 0 and score[j] < sc:
            out[j + 1] = out[j]
            score[j + 1] = score[j]
            low[j + 1] = low[j]
            j -= 1
        out[j + 1] = tmp
        score[j + 1] = sc
        low[j + 1] = b
    if lows != NULL:
        for i in range(n):
            lows[i] = low[i]
    return n


