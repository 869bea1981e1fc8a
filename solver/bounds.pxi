cdef uint32_t sure_trumps(const Game* g, const State* s, int* camp, uint32_t* used) noexcept nogil:
    """fr, at a trick start: the run of top trumps held by one camp (its bits), or 0.

    The Excuse can beat them only in the slam case, so the run counts only when the
    other camp does not hold the Excuse or this camp has already won a trick.
    ``used``: the trumps whose owners this depends on (the run and the trump below it).
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
    used[0] = run | ((<uint32_t>1 << top_bit(all_trumps)) if all_trumps else 0)
    return run


cdef void bounds(const Game* g, const State* s, int* lo, int* hi, uint32_t* used,
                 int features) noexcept nogil:
    """Cheap bounds on the value: one camp takes everything still in play, or nothing;
    in French Tarot less what the other camp surely takes with a run of top trumps.
    ``used``: the trumps (suit 4 bits) whose owners these bounds depend on."""
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
        used[0] = 0
        if s.trick_len == 0 and (features & FEAT_SURE):
            sure = sure_trumps(g, s, &run_camp, used)
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


