# The search proper: a fail-soft alpha-beta search in a window — mostly the null-window
# probe "is the value >= target?" — which also reports the cards whose rank decided its
# answer (partition search).
#
# ``rel`` (five suit masks) is what a probe hands back to its parent: the cards that
# mattered by their rank in the subtree it searched.  A node that cut off needs only the
# cutting child's cards; a node that tried every card needs all of its children's.  To
# that a node adds the cards that set its own legal cards (the trump to overtrump, the
# card to beat) and, when a trick ends, the winning card if it beat a card of its suit.
# At a trick start the set is closed upwards (every live card above a relevant one is
# relevant too) and becomes the pattern of the table entry.


cdef inline void narrow_card(Ctx* ctx, int code, int lo, int hi) noexcept nogil:
    """What is proven of one of the root's cards: its value lies in [lo, hi] too."""
    if lo > ctx.card_lo[code]:
        ctx.card_lo[code] = lo
    if hi < ctx.card_hi[code]:
        ctx.card_hi[code] = hi


cdef inline void note_root_card(Ctx* ctx, int code, int v, int alpha, int beta) noexcept nogil:
    """Keep what a search of one of the root's cards in the window (alpha, beta) proved
    (fail-soft: ``v`` >= beta means at least v, ``v`` <= alpha at most v, in between
    exactly v): `solve` then asks only what is still open."""
    if v > alpha:
        narrow_card(ctx, code, v, VALUE_MAX)
    if v < beta:
        narrow_card(ctx, code, VALUE_MIN, v)


cdef inline void add_card(uint32_t* rel, int code) noexcept nogil:
    rel[code >> 5] |= <uint32_t>1 << (code & 31)


cdef void trick_relevance(const Game* g, const int* cards, int n, uint32_t* rel) noexcept nogil:
    """A whole trick: its winner counts by rank when it beat a card of its own suit."""
    cdef int w = winning_index(g, cards, n), i, wc
    if w < 0:
        return
    wc = cards[w]
    for i in range(n):
        if i != w and (cards[i] >> 5) == (wc >> 5) and not never_wins(g, cards[i]):
            add_card(rel, wc)
            return


cdef void legal_relevance(const Game* g, const State* s, uint32_t* rel) noexcept nogil:
    """The cards that decide which cards the seat to play may play, by their rank."""
    cdef int seat = to_play(g, s), k, top = -1, led, w
    cdef const uint32_t* h = s.hand[seat]
    if s.trick_len == 0:
        if g.top_lead and h[TAROCK]:
            add_card(rel, TAROCK * 32 + top_bit(h[TAROCK]))     # the highest tarock must lead
        return
    if g.excuse == EX_FRENCH and g.overtrump:
        led = s.tcard[0] >> 5
        if s.tcard[0] == EXCODE:
            led = s.tcard[1] >> 5 if s.trick_len > 1 else -1
        if led >= 0 and (led == TAROCK or not h[led]) and (h[TAROCK] & ~(<uint32_t>1 << EXBIT)):
            for k in range(s.trick_len):       # the trump to overtrump
                if (s.tcard[k] >> 5) == TAROCK and s.tcard[k] != EXCODE and (s.tcard[k] & 31) > top:
                    top = s.tcard[k] & 31
            if top >= 0:
                add_card(rel, TAROCK * 32 + top)
    if g.must_beat:
        w = winning_index(g, s.tcard, s.trick_len)
        if w >= 0:
            add_card(rel, s.tcard[w])                               # the card to beat


cdef int last_trick(const Game* g, const State* s, uint32_t* rel) noexcept nogil:
    """One card each left: every play is forced, so just play them out."""
    cdef State end = s[0]
    cdef int seat, k, n = s.trick_len, code
    cdef int cards[MAXSEATS]
    for k in range(n):
        cards[k] = s.tcard[k]
    while end.trick_no < g.tricks:
        seat = to_play(g, &end)
        for k in range(5):
            if end.hand[seat][k]:
                code = k * 32 + low_bit(end.hand[seat][k])
                cards[n] = code
                n += 1
                play(g, &end, code)
                break
    trick_relevance(g, cards, g.seats, rel)
    return final_value(g, &end.acc)


cdef inline int probe(const Game* g, const State* s, int target, Ctx* ctx, uint32_t* rel) noexcept nogil:
    """A fail-soft null-window search around ``target``: returns v >= target when the
    value is at least v, and v < target when the value is at most v — the bound is often
    far beyond the target, which saves whole tests.  ``rel`` receives the cards whose
    rank the answer depends on (see above)."""
    return search(g, s, target - 1, target, ctx, rel)


cdef int search(const Game* g, const State* s, int alpha, int beta, Ctx* ctx,
                uint32_t* rel) noexcept nogil:
    """A fail-soft alpha-beta search in the window (alpha, beta): returns v >= beta when
    the value is at least v, v <= alpha when it is at most v, and the value itself when
    it lies in between.  :func:`probe` is the window (target - 1, target); the driver
    opens it wider where one search can then replace several probes."""
    cdef int lo, hi, n, i, k, v = 0, bound, best = 255, maximizing, base = 0, use_table, won = 0
    cdef int a, b                    # the window of the child being searched
    cdef int cut = 0, depth, killer = -1, last_card, low, suit
    cdef uint32_t skip[5]            # plain cards below these bits are known (see below)
    cdef int mv[MAXMOVES]
    cdef int lows[MAXMOVES]          # the lowest card of each move's group of equivalent cards
    cdef int cards[MAXSEATS]
    cdef uint32_t crel[5]
    cdef uint32_t trel[5]
    cdef uint32_t nrel[5]
    cdef uint32_t srel[5]            # what let this node try fewer cards than it holds (see below)
    cdef uint32_t kvec
    cdef uint64_t mkey
    cdef Key key
    cdef State child
    for k in range(5):
        rel[k] = 0
    ctx.nodes += 1
    IF STATS:
        cdef int st_t = g.tricks - s.trick_no, st_tried = 0
        if st_t >= STATS_TRICKS:
            st_t = STATS_TRICKS - 1
        ctx.stats.nodes[st_t][s.trick_len] += 1
    if (ctx.nodes & ctx.check_mask) == 0:
        check_limits(g, s, ctx)    # (and grow the table: no caller holds a pointer into it)
    if ctx.abort or ctx.implied or ctx.abandon:
        return 0
    if s.trick_no == g.tricks:
        return final_value(g, &s.acc)
    if s.trick_no == g.tricks - 1:
        return last_trick(g, s, rel)
    use_table = s.trick_len == 0 and g.tricks - s.trick_no >= TT_MIN_TRICKS
    if s.trick_len == 0:
        # Points change only when a trick ends: inside a trick the bounds are those of its
        # start, which were already tried against this target.  First the plain bounds
        # (the points still in play: nearly free), then the table, and only then the sure
        # points, which cost more than a table lookup: a trick start the table answers
        # never counts them (docs/search.md, "The probe").
        IF STATS:
            if use_table:
                ctx.stats.starts[st_t] += 1
        bounds(g, s, &lo, &hi, rel, ctx.features & ~FEAT_SURE)
        if lo >= beta or hi <= alpha or lo == hi:
            IF STATS:
                if use_table:
                    ctx.stats.by_plain[st_t] += 1
            return lo if lo >= beta or lo == hi else hi
        if use_table:
            make_key(g, s, &key)
            base = tt_base(g, s)
            won = tt_points(g, s)
            if ctx.features & FEAT_PAST_FROM_ROOT:      # (tests only: unsound, see core.pxi)
                base -= tt_base(g, ctx.root)
                won -= tt_points(g, ctx.root)
            if tt_lookup(ctx, &key, alpha, beta, base, won, &best, &v, rel):
                IF STATS:
                    ctx.stats.by_table[st_t] += 1
                return v
        if ctx.features & FEAT_SURE:
            bounds(g, s, &lo, &hi, rel, ctx.features)
            if lo >= beta or hi <= alpha or lo == hi:
                IF STATS:
                    if use_table:
                        ctx.stats.by_sure[st_t] += 1
                return lo if lo >= beta or lo == hi else hi
    cdef uint32_t check = 0, seen
    cdef int memory = ctx.features & FEAT_MEMORY
    if memory:
        mkey = play_key(g, s) ^ ctx.plays_salt
        check = <uint32_t>(mkey >> 40)
        seen = ctx.plays[mkey & ctx.plays_mask]
        if (seen >> 8) == check:
            # before the table's own best card: six 12-trick fr4 positions 52 M nodes
            # with the memory after it, 40 M with it first (docs/search.md)
            best = <int>(seen & 0xff)
    depth = s.trick_no * MAXSEATS + to_play(g, s)
    if ctx.features & FEAT_KILLER:
        killer = ctx.killer[depth]
    for k in range(5):
        nrel[k] = 0
        trel[k] = 0
        srel[k] = 0
    legal_relevance(g, s, nrel)
    n = moves(g, s, mv, best, killer, ctx.features & FEAT_POINTS, srel, lows)
    for k in range(5):
        rel[k] = nrel[k]                 # rel gathers every child's cards until one cuts
    maximizing = g.camp[to_play(g, s)] == g.maxcamp
    bound = VALUE_MIN if maximizing else VALUE_MAX
    best = mv[0]
    last_card = s.trick_len == g.seats - 1
    if last_card:
        for k in range(s.trick_len):
            cards[k] = s.tcard[k]
    for k in range(5):
        skip[k] = 0
    # On several threads a card that another thread is searching is put off until the
    # node's other cards are done (threads.pxi)
    cdef int share = g.tricks - s.trick_no >= ctx.share_tricks, ply = ply_of(s)
    cdef int next_card = 0, best_i = MAXMOVES
    cdef Later later
    later.count = later.next = later.suits = 0
    while True:
        if next_card < n:
            i = next_card
            next_card += 1
        elif later.next < later.count:
            i = take_later(g, ctx.team, mv, &later)
        else:
            break
        suit = mv[i] >> 5
        if (ctx.features & FEAT_SMALL) and g.cls[suit][mv[i] & 31] == 0 and \
                (mv[i] & 31) < <int>skip[suit]:
            continue       # a plain card like one already searched, below every card that mattered
        IF STATS:
            st_tried += 1
        child = s[0]
        if last_card:
            for k in range(5):
                trel[k] = 0
            cards[s.trick_len] = mv[i]
            if not (ctx.features & FEAT_LOOSE):
                trick_relevance(g, cards, g.seats, trel)
        play(g, &child, mv[i])
        # fail-soft alpha-beta: the best bound so far narrows the child's window
        a, b = alpha, beta
        if maximizing and bound > a:
            a = bound
        elif not maximizing and bound < b:
            b = bound
        if share:
            child.mark = s.mark ^ card_mark(mv[i])
            ctx.path[ply] = child.mark
            if ctx.team.helping:
                if later.next == 0 and put_off(ctx.team, &later, i, mv[i], child.mark, ply):
                    continue
                mark_busy(ctx.team, child.mark)
            v = search(g, &child, a, b, ctx, crel)
            if ctx.abandon == ply + 1:
                # another thread finished that card's position: the table has its answer
                # (searched again with no mark on the line, so as not to give it up again)
                ctx.abandon = 0
                ctx.path[ply] = 0
                v = search(g, &child, a, b, ctx, crel)
            if ctx.team.helping:       # (the helpers may have joined meanwhile: see start_helpers)
                clear_busy(ctx.team, child.mark,
                           not ctx.abort and not ctx.implied and not ctx.abandon)
        else:
            v = search(g, &child, a, b, ctx, crel)
        if ctx.abort or ctx.implied or ctx.abandon:
            return 0
        # The card stood for its whole group.  If its rank mattered, so do the others':
        # the group must stay a group (nothing between its cards) wherever the pattern is
        # used — if every card had to be tried (srel, below).
        if ((crel[suit] | trel[suit]) >> (mv[i] & 31)) & 1 and lows[i] != (mv[i] & 31):
            srel[suit] |= <uint32_t>1 << lows[i]
        # The best card is the one with the best bound; of equal bounds, the first in the
        # move order, whatever order the cards were searched in (threads put some off): at
        # a node where every card failed, that is what the table keeps as the next search's
        # first guess, and the move order's is the better one (docs/search.md, "Threads").
        if maximizing:
            if v > bound or (v == bound and i < best_i):
                bound = v
                best = mv[i]
                best_i = i
            cut = v >= beta
        else:
            if v < bound or (v == bound and i < best_i):
                bound = v
                best = mv[i]
                best_i = i
            cut = v <= alpha
        if s == ctx.root:
            note_root_card(ctx, mv[i], v, a, b)
            ctx.root_best = best                 # what a search stopped now can offer
        if cut:
            IF STATS:
                ctx.stats.cut_nodes[st_t][s.trick_len] += 1
                ctx.stats.cut_first[st_t][s.trick_len] += st_tried == 1
            for k in range(5):           # only this child's answer counts
                rel[k] = nrel[k] | crel[k] | trel[k]
            ctx.killer[depth] = mv[i]
            if memory:              # (the memory may have grown with the table meanwhile)
                # written only when it changes: threads on one line would otherwise take
                # the memory's cache lines from each other at every cut
                seen = (check << 8) | <uint32_t>mv[i]
                if ctx.plays[mkey & ctx.plays_mask] != seen:
                    ctx.plays[mkey & ctx.plays_mask] = seen
            break
        for k in range(5):
            rel[k] |= crel[k] | trel[k]
        # A plain card whose rank did not matter: any plain card of the same suit below the
        # lowest card that mattered leads to a position the same pattern covers.
        if g.cls[suit][mv[i] & 31] == 0:
            low = low_bit(crel[suit] | trel[suit]) if (crel[suit] | trel[suit]) else 32
            if (mv[i] & 31) < low and low > <int>skip[suit]:
                skip[suit] = low
    if not cut:
        IF STATS:
            ctx.stats.all_nodes[st_t][s.trick_len] += 1
            ctx.stats.all_tried[st_t][s.trick_len] += st_tried
        # Every card had to be tried, so what let the node try fewer than it holds counts:
        # the lowest card of each group whose rank mattered, and what settled a trick for a
        # point-aware run (moves).  A cut-off rests on its one card alone.
        for k in range(5):
            rel[k] |= srel[k]
    if use_table:
        kvec = kvec_of(ctx, &key, rel)
        # at least ``bound`` (it is >= beta), at most (<= alpha), or exactly (in between)
        tt_store(ctx, &key, kvec, bound - base if bound > alpha else VALUE_MIN,
                 bound - base if bound < beta else VALUE_MAX, won, best, g.tricks - s.trick_no)
    return bound
