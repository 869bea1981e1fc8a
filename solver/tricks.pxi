# Trick rules, playing a card, counting a trick, the final value.

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

