# The driver: from null-window probes to the exact value.


cdef int exact(const Game* g, const State* s, Ctx* ctx, int guess, int has_guess,
               int* lo_out, int* hi_out) noexcept nogil:
    """The exact value from fail-soft null-window probes; 0 if a limit stopped it (then
    [lo_out, hi_out] is what was proven).

    With a guess (the value of a sibling or of the parent, known to be close), probes
    step from it as MTD(f) does: "≥ guess?", then "≥ guess + 1?" or "≥ the bound just
    proven?" — two probes when the guess is right.  Without one, or when stepping stops
    paying, bisection over the range the cheap bounds leave.  Every probe returns a bound
    past its target (fail-soft), so a step jumps over values the deal cannot reach."""
    cdef int lo, hi, target, v, steps = 0
    cdef uint32_t rel[5]
    cdef uint32_t used = 0
    bounds(g, s, &lo, &hi, &used, ctx.features)
    if s.trick_no == g.tricks:
        lo = final_value(g, &s.acc)
        hi = lo
    target = lo + (hi - lo + 1) // 2
    if has_guess:
        target = guess if guess > lo else lo + 1
        if target > hi:
            target = hi
    cdef uint64_t before
    ctx.ntrace = 0
    while lo < hi:
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
        steps += 1
        if has_guess and steps < 4:
            target = lo + 1 if v >= target else hi     # step on from the side just proven
        else:
            target = lo + (hi - lo + 1) // 2
    lo_out[0] = lo
    hi_out[0] = hi
    return not ctx.abort
