DEF KILLER_BONUS = 150            # a tie-break among guesses, not above them: measured (docs/search.md)

# -- move generation ---------------------------------------------------------------------------

cdef int moves(const Game* g, const State* s, int* out, int first_code, int killer) noexcept nogil:
    """Legal cards, one per group of equivalent cards, best guesses first: ``first_code``
    (the table's best card), then ``killer`` (the last card that cut at this depth), then
    by a simple guess of what is good for the seat's camp."""
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
                    and g.value_points[k][b] == g.value_points[k][prev]:
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
        if code == killer:
            sc += KILLER_BONUS
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


