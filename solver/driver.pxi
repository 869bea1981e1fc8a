# The driver: from null-window probes to the exact value.


cdef void value_range(const Game* g, const State* s, int features, int known_lo, int known_hi,
                      int* lo, int* hi) noexcept nogil:
    """Where the value can lie before any probe: the cheap bounds (the value itself at the
    end of the deal), narrowed by bounds already known."""
    cdef uint32_t used[5]
    bounds(g, s, VALUE_MIN, lo, hi, used, features)
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
    cdef uint32_t mrel[5]
    while end.trick_no < g.tricks:
        moves(g, &end, mv, -1, -1, features & FEAT_POINTS, mrel, NULL)
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


cdef int exact(const Game* g, const State* s, Ctx* ctx, int guess, int has_guess,
               int known_lo, int known_hi, int* lo_out, int* hi_out) noexcept nogil:
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
    off, bisection.  ``known_lo`` and
    ``known_hi`` narrow that range further (a card's value is at most its parent's at a
    max node).  Every probe returns a bound past its target (fail-soft), so a step jumps
    over values the deal cannot reach."""
    cdef int lo, hi, target, v, step = 1, direction = 0    # +1 galloping up, -1 down, 2 bisecting
    cdef uint32_t rel[5]
    cdef int cheap = cheap_answer(g)
    value_range(g, s, ctx.features, known_lo, known_hi, &lo, &hi)
    target = lo + (hi - lo + 1) // 2
    if not has_guess and (ctx.features & FEAT_GUESS) and lo < hi and cheap == 0:
        guess = playout_value(g, s, ctx.features)
        has_guess = 1
    if has_guess:
        target = guess
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
    cdef uint64_t before
    ctx.ntrace = 0
    while lo < hi:
        if target <= lo:
            target = lo + 1
        if target > hi:
            target = hi
        before = ctx.nodes
        v = probe(g, s, target, ctx, rel)
        if ctx.abort:
            break
        if ctx.ntrace < 64:
            ctx.trace_target[ctx.ntrace] = target
            ctx.trace_value[ctx.ntrace] = v
            ctx.trace_nodes[ctx.ntrace] = ctx.nodes - before
            ctx.ntrace += 1
        if v >= target:
            lo = v if v < hi else hi
        else:
            hi = v if v > lo else lo
        if direction != 2:
            if (v >= target and direction == -1) or (v < target and direction == 1):
                direction = 2                              # bracketed: bisect from now on
            elif step >= 2 and ((v >= target and cheap == 1) or (v < target and cheap == -1)):
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


# -- several threads ------------------------------------------------------------------------
#
# With more than one thread, each round of the driver asks several questions at once —
# "≥ t1?", "≥ t2?", … spread over what is left of the range — one thread each, all on the
# one table (entries are checked, so a torn entry is never read).  The first answer
# often settles the others' questions ("≥ t2" proven settles "≥ t1"): those threads stop
# at once.  (Spare threads on the same question with another move order — lazy SMP — were
# tried: slower, docs/search.md.)  Each round narrows the range more than a single probe, and the probes help
# each other through the table.  The engine's own thread is thread 0.

DEF MAXTHREADS = 8

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    int pthread_create(pthread_t* thread, const void* attr, void* (*start)(void*) noexcept nogil,
                       void* arg)
    int pthread_join(pthread_t thread, void** result)


cdef struct Question:
    const Game* g
    const State* s
    Ctx* ctx
    int target
    int value
    int answered                 # 1 when the probe finished (not stopped)
    Question* round              # every question of the round
    int count


cdef void ask(Question* q) noexcept nogil:
    cdef uint32_t rel[5]
    cdef int v, j
    cdef Question* o
    q.answered = 0
    v = probe(q.g, q.s, q.target, q.ctx, rel)
    if q.ctx.abort or q.ctx.implied:
        return
    q.value = v
    q.answered = 1
    for j in range(q.count):
        o = &q.round[j]
        if o != q and ((v >= q.target and o.target <= v) or (v < q.target and o.target > v)):
            o.ctx.implied = 1


cdef void* ask_thread(void* arg) noexcept nogil:
    ask(<Question*>arg)
    return NULL


cdef int exact_threads(const Game* g, const State* s, Ctx* ctx, Ctx* helpers, int threads,
                       int guess, int has_guess, int known_lo, int known_hi,
                       int* lo_out, int* hi_out) noexcept nogil:
    """:func:`exact` on ``threads`` threads (``helpers``: the contexts of threads 1..)."""
    cdef int lo, hi, m, i, size, first = 1
    cdef uint64_t start[MAXTHREADS]
    cdef Question q[MAXTHREADS]
    cdef pthread_t tid[MAXTHREADS]
    cdef int started[MAXTHREADS]
    cdef Ctx* c
    cdef int cheap = cheap_answer(g) if ctx.features & FEAT_GUESS else 0
    value_range(g, s, ctx.features, known_lo, known_hi, &lo, &hi)
    if not has_guess and cheap == 0 and (ctx.features & FEAT_GUESS) and lo < hi:
        guess = playout_value(g, s, ctx.features)
        has_guess = 1
    ctx.ntrace = 0
    while lo < hi and not ctx.abort:
        # the round's targets, lowest first, in (lo, hi]
        size = hi - lo
        m = threads if threads < size else size
        for i in range(m):
            if first and has_guess:
                q[i].target = guess + i                  # "≥ guess?", "≥ guess + 1?", …
            elif cheap == 1:
                q[i].target = hi - m + 1 + i                 # the top values (see exact())
            elif cheap == -1:
                q[i].target = lo + 1 + i                     # the bottom values
            elif m == 1:
                q[i].target = lo + (size + 1) // 2           # bisection
            elif size <= threads:
                q[i].target = lo + 1 + i                     # every value left, one each
            else:
                q[i].target = lo + ((i + 1) * size + m) // (m + 1)   # evenly spread
            if q[i].target <= lo:
                q[i].target = lo + 1
            if q[i].target > hi:
                q[i].target = hi
        first = 0
        for i in range(m):
            c = ctx if i == 0 else &helpers[i - 1]
            if i > 0:
                c.table, c.mask, c.features = ctx.table, ctx.mask, ctx.features
                c.deadline, c.node_limit, c.stop = ctx.deadline, ctx.node_limit, ctx.stop
                c.root = ctx.root
                c.abort = 0
            c.implied = 0
            start[i] = c.nodes
            q[i].g, q[i].s, q[i].ctx = g, s, c
            q[i].round, q[i].count = q, m
            q[i].answered = 0
        for i in range(1, m):
            started[i] = pthread_create(&tid[i], NULL, ask_thread, &q[i]) == 0
            if not started[i]:
                ask(&q[i])                             # no thread to be had: ask here
        ask(&q[0])
        for i in range(1, m):
            if started[i]:
                pthread_join(tid[i], NULL)
        for i in range(m):
            c = q[i].ctx
            if i > 0:
                ctx.nodes += c.nodes - start[i]
                if c.abort:
                    ctx.abort = 1
            if q[i].answered:
                if ctx.ntrace < 64:
                    ctx.trace_target[ctx.ntrace] = q[i].target
                    ctx.trace_value[ctx.ntrace] = q[i].value
                    ctx.trace_nodes[ctx.ntrace] = c.nodes - start[i]
                    ctx.ntrace += 1
                if q[i].value >= q[i].target:
                    if q[i].value > lo:
                        lo = q[i].value if q[i].value < hi else hi
                elif q[i].value < hi:
                    hi = q[i].value if q[i].value > lo else lo
        ctx.implied = 0
    lo_out[0] = lo
    hi_out[0] = hi
    return not ctx.abort
