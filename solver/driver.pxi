# The driver: from null-window probes (and, on a dear walk, wider windows) to the exact value.


cdef void value_range(const Game* g, const State* s, int features, int known_lo, int known_hi,
                      int* lo, int* hi) noexcept nogil:
    """Where the value can lie before any probe: the cheap bounds (the value itself at the
    end of the deal), narrowed by bounds already known."""
    cdef uint32_t used[5]
    bounds(g, s, lo, hi, used, features)
    if s.trick_no == g.tricks:
        lo[0] = hi[0] = final_value(g, &s.acc)
    if known_lo > lo[0]:
        lo[0] = known_lo
    if known_hi < hi[0]:
        hi[0] = known_hi


cdef int playout_value(const Game* g, const State* s, int features) noexcept nogil:
    """The value of one line to the end: every seat plays its move ordering's first card
    (cash masters, give points to a partner's trick, win cheaply, keep points).  Often
    within a few points of the value, so a fine first guess for the driver."""
    cdef State end = s[0]
    cdef int mv[MAXMOVES]
    cdef uint32_t unused[5]          # (what moves() relied on: no table entry here)
    while end.trick_no < g.tricks:
        moves(g, &end, mv, -1, -1, features & FEAT_POINTS, unused, NULL)
        play(g, &end, mv[0])
    return final_value(g, &end.acc)


cdef int cheap_answer(const Game* g) noexcept nogil:
    """Which answer is cheaper to prove: 1 for "no" (value < t), -1 for "yes", 0 neither.

    To prove "≥ t" every card of the other camp must be refuted, to prove "< t" every card
    of the maximizing camp: the camp with fewer seats has fewer such nodes in each trick
    (fr4: "< t" refutes the taker's card, one seat in four; "≥ t" the three defenders'
    cards, every combination).  Near the value the dear answer costs several times the
    cheap one, so the driver comes from the cheap side: only its last probe gets the dear
    answer."""
    cdef int p, nmax = 0
    for p in range(g.seats):
        nmax += g.camp[p] == g.maxcamp
    return 1 if 2 * nmax < g.seats else (-1 if 2 * nmax > g.seats else 0)


# A walk from the cheap side whose probe has cost WINDOW_NODES nodes asks WINDOW_WIDTH
# values at once from then on (measured: docs/search.md, "The driver").  Priestertarock
# opens the window sooner: its values move by single card points (most cards are worth
# nothing), so its walks are long, where a French probe's bound often jumps further.
DEF WINDOW_WIDTH = 4
DEF WINDOW_NODES = 1 << 24
DEF WINDOW_NODES_PRIEST = 1 << 20


cdef inline uint64_t window_nodes(const Game* g) noexcept nogil:
    """The game's own WINDOW_NODES."""
    return WINDOW_NODES_PRIEST if g.kind == KIND_PRIEST else WINDOW_NODES


cdef int exact(const Game* g, const State* s, Ctx* ctx, int guess, int has_guess, int known_lo,
               int known_hi, int* lo_out, int* hi_out) noexcept nogil:
    """The exact value from fail-soft null-window probes; 0 if a limit stopped it (then
    [lo_out, hi_out] is what was proven).

    With a guess (the value of a sibling or of the parent, known to be close), probes
    start from it as MTD(f) does: "≥ guess?", then "≥ guess + 1?" — two probes when the
    guess is right — and gallop away from it (steps of 1, 2, 4, …) while the answers
    keep pointing the same way; once the value is bracketed (or when the guess proves off
    towards the dear answer, see ``cheap``), from the cheap side towards the dear one —
    or bisection when neither side is cheaper.  Without a guess (FEAT_GUESS): from the
    cheap end of the range the cheap bounds allow, and when neither answer is cheaper,
    from the value of a quick playout (docs/search.md measures both); with FEAT_GUESS
    off, bisection.  ``known_lo`` and ``known_hi`` narrow that range further (a card's
    value is at most its parent's at a max node).  Every probe returns a bound past its
    target (fail-soft), so a step jumps over values the deal cannot reach."""
    cdef int lo, hi, target, v, step = 1, direction = 0    # +1 galloping up, -1 down, 2 bisecting
    cdef int past_guess = 0      # the first probe asks past the guess, not the guess itself
    cdef int cheap = cheap_answer(g)
    value_range(g, s, ctx.features, known_lo, known_hi, &lo, &hi)
    target = lo + (hi - lo + 1) // 2
    if not has_guess and (ctx.features & FEAT_GUESS) and lo < hi and cheap == 0:
        guess = playout_value(g, s, ctx.features)
        has_guess = 1
    if has_guess:
        target = guess
        # The guess may be a known bound (a card's value at a node of the minimizing camp
        # is at least the node's): then the first probe asks past it, and an answer against
        # the guess is already the dear one — no second dear probe to confirm it.
        past_guess = guess <= lo or guess > hi
    else:
        direction = 2
        if not (ctx.features & FEAT_GUESS):
            cheap = 0          # bisection, to measure the rest against
        elif cheap == 1:
            # No guess where one answer is cheap: from that end of the range.  A playout
            # can be a hundred points off, and each probe between it and the value would
            # then get the dear answer; far from the value the cheap ones cost little.
            target = hi
        elif cheap == -1:
            target = lo + 1
    cdef uint64_t before, cost = 0
    cdef int a, b, windows = 0
    ctx.ntrace = 0
    while lo < hi:
        if target <= lo:
            target = lo + 1
        if target > hi:
            target = hi
        a, b = target - 1, target
        # A walk from the cheap side whose steps have grown dear (a whole deal: each probe
        # near the value tens of millions of nodes, each moving the bound by one score
        # unit) asks for ``window`` values at once: a search in that window costs about
        # one probe while the value lies below it, and gives the value itself when it lies
        # inside (docs/search.md, "The driver").
        if cost >= ctx.window_nodes and ctx.window > 1 and direction == 2 and cheap != 0:
            windows = 1
        if windows and cheap == 1:
            a, b = hi - ctx.window, hi + 1        # the values hi - window + 1 .. hi at once
            if a < lo - 1:
                a = lo - 1
        elif windows and cheap == -1:
            a, b = lo - 1, lo + ctx.window
            if b > hi + 1:
                b = hi + 1
        before = ctx.nodes
        v = team_search(g, s, a, b, ctx)
        if ctx.abort:
            break
        cost = ctx.nodes - before
        if ctx.ntrace < TRACE:
            ctx.trace_target[ctx.ntrace] = target
            ctx.trace_value[ctx.ntrace] = v
            ctx.trace_nodes[ctx.ntrace] = cost
            ctx.ntrace += 1
        if a < v < b:
            lo = hi = v                                # inside the window: the value itself
            break
        if v >= b:
            lo = v if v < hi else hi
        else:
            hi = v if v > lo else lo
        target = b if v >= b else a + 1          # the question a window answered
        if direction != 2:
            if (v >= target and direction == -1) or (v < target and direction == 1):
                direction = 2                              # bracketed: bisect from now on
            elif (step >= 2 or past_guess) and \
                    ((v >= target and cheap == 1) or (v < target and cheap == -1)):
                direction = 2          # the guess is off towards the dear side: go on from the cheap one
            elif v >= target:
                direction = 1
                target = lo + step
                step *= 2
            else:
                direction = -1
                target = hi - step + 1
                step *= 2
        if direction == 2:
            if cheap == 1:
                target = hi            # from the top down: "no" after "no", then one "yes"
            elif cheap == -1:
                target = lo + 1        # from the bottom up
            else:
                target = lo + (hi - lo + 1) // 2
    lo_out[0] = lo
    hi_out[0] = hi
    return not ctx.abort
