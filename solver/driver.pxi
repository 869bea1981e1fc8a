# The driver: from null-window probes to the exact value.


cdef int exact(const Game* g, const State* s, Ctx* ctx, int guess, int has_guess,
               int known_lo, int known_hi, int* lo_out, int* hi_out) noexcept nogil:
    """The exact value from fail-soft null-window probes; 0 if a limit stopped it (then
    [lo_out, hi_out] is what was proven).

    With a guess (the value of a sibling or of the parent, known to be close), probes
    start from it as MTD(f) does: "≥ guess?", then "≥ guess + 1?" — two probes when the
    guess is right — and gallop away from it (steps of 1, 2, 4, …) while the answers
    keep pointing the same way; once the value is bracketed, or without a guess,
    bisection over what is left of the range the cheap bounds allow.  ``known_lo``/``known_hi``
    narrow that range further (a card's value is at most its parent's at a max node).  Every probe returns a bound
    past its target (fail-soft), so a step jumps over values the deal cannot reach."""
    cdef int lo, hi, target, v, step = 1, direction = 0    # +1 galloping up, -1 down, 2 bisecting
    cdef uint32_t rel[5]
    cdef uint32_t used = 0
    bounds(g, s, &lo, &hi, &used, ctx.features)
    if s.trick_no == g.tricks:
        lo = final_value(g, &s.acc)
        hi = lo
    if known_lo > lo:
        lo = known_lo
    if known_hi < hi:
        hi = known_hi
    target = lo + (hi - lo + 1) // 2
    if has_guess:
        target = guess
    else:
        direction = 2
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
            elif v >= target:
                direction = 1
                target = lo + step
                step *= 2
            else:
                direction = -1
                target = hi - step + 1
                step *= 2
        if direction == 2:
            target = lo + (hi - lo + 1) // 2
    lo_out[0] = lo
    hi_out[0] = hi
    return not ctx.abort
