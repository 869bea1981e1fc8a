# Cheap bounds on the value at a trick start, from what each camp surely takes.
#
# Every bound here is something one camp can guarantee whatever the other does: a run of
# top trumps and long trumps (they win their tricks whatever happens), the Excuse (its
# camp can always play it in time), the leader's quick tricks (masters the others must
# follow), and, from the tricks a camp surely wins, the most the other camp can add.  The
# lower bound adds what the maximizing camp surely takes to what it has; the upper bound
# takes what the other camp surely takes from what is still in play.  Each bound also
# reports the cards whose owners it relied on, so that a table entry proven by it covers
# only positions where it holds too.  (Trischaken, where nobody wants points, counts only
# what a camp is forced to take: its trump tricks.)

DEF TRULL = (1 << EXBIT) | (1 << 20) | 1     # at4: Sküs, Mond and Pagat


cdef inline void sort_down(int* a, int n) noexcept nogil:
    """Insertion sort, largest first (n is small)."""
    cdef int i, j, tmp
    for i in range(1, n):
        tmp = a[i]
        j = i - 1
        while j >= 0 and a[j] < tmp:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = tmp


cdef inline int card_worth(const Game* g, int k, int b) noexcept nogil:
    """What a card adds to its camp's count: points (fr: half points), or in the at4
    count in threes 3 * points - 2 (every card, 1 at least)."""
    if (g.kind == KIND_AT4 or g.kind == KIND_TRISCHAKEN) and g.standard:
        return 3 * g.points[k][b] - 2
    return g.points[k][b]


cdef inline int worth_floor(const Game* g) noexcept nogil:
    """The least any card adds to the camp winning its trick (priest5: most cards are 0)."""
    return 0 if g.kind == KIND_PRIEST else 1


cdef inline uint32_t trump_mask(const Game* g) noexcept nogil:
    """The tarock bits that can win a trick: all of them in at4 (EX is the Sküs, the top),
    all but EX elsewhere (the Excuse and the Narr never win; the fr slam case aside)."""
    return 0x3FFFFF if g.excuse == EX_SKUS else 0x1FFFFF


cdef uint32_t sure_trumps(const Game* g, const State* s, int* camp, uint32_t* used) noexcept nogil:
    """At a trick start, in a game where tarock is trump: the run of top trumps held by
    one camp (its bits), or 0.  Each of them wins its trick or falls under a higher one of
    the same camp.

    fr: the Excuse beats them only in the slam case, so the run counts only when the
    other camp does not hold the Excuse or this camp has already won a trick.  at4: a
    Trull trick (Sküs, Mond and Pagat together) goes to the Pagat, so the run counts only
    when that cannot happen against the camp.
    ``used``: the trumps whose owners this depends on (the run and the trump below it).
    """
    cdef uint32_t held[2]
    cdef uint32_t all_trumps, run = 0, live = 0
    cdef int p, b, x, ex_camp = -1, pagat_camp = -1
    if not g.trumps_win:
        return 0
    held[0] = held[1] = 0
    for p in range(g.seats):
        held[g.camp[p]] |= s.hand[p][TAROCK] & trump_mask(g)
        live |= s.hand[p][TAROCK]
        if (s.hand[p][TAROCK] >> EXBIT) & 1:
            ex_camp = g.camp[p]
        if s.hand[p][TAROCK] & 1:
            pagat_camp = g.camp[p]
    all_trumps = held[0] | held[1]
    if not all_trumps:
        return 0
    b = top_bit(all_trumps)
    x = 0 if (held[0] >> b) & 1 else 1
    if g.excuse == EX_FRENCH and ex_camp == 1 - x and s.acc.tricks[x] == 0:
        return 0
    if g.trull and (live & TRULL) == TRULL and pagat_camp != x:
        return 0
    while all_trumps and (held[x] >> top_bit(all_trumps)) & 1:
        b = top_bit(all_trumps)
        run |= <uint32_t>1 << b
        all_trumps &= ~(<uint32_t>1 << b)
    camp[0] = x
    # With no trump left to the other camp the run is every trump, whatever their ranks
    # and whoever of the camp holds which (how many each seat holds is in the key).
    used[0] = (run | (<uint32_t>1 << top_bit(all_trumps))) if all_trumps else 0
    if g.trull:
        used[0] |= live & TRULL
    return run


cdef int sure_run_worth(const Game* g, const State* s, uint32_t run, int camp,
                        int tricks_left, int* bouts, int* tricks) noexcept nogil:
    """What a camp surely takes with its run of top trumps: the trumps themselves and, in
    the tricks they win, at least the floor for every other card.  A seat holding t of
    them plays them in t different tricks, all its camp's (``tricks``: the largest t).
    (fr: no floor in the last trick, where the camp's own Excuse, if it plays it there,
    changes camp.)"""
    cdef int t = 0, p, k, n, total = 0
    for p in range(g.seats):
        n = popcount(run & s.hand[p][TAROCK])
        if g.camp[p] == camp and n > t:
            t = n
    tricks[0] = t
    if g.kind != KIND_FRENCH or tricks_left >= 2:
        total = (t * g.seats - popcount(run)) * worth_floor(g)
    while run:
        k = low_bit(run)
        run &= run - 1
        total += card_worth(g, TAROCK, k)
        bouts[0] += k == 0 or k == 20
    return total


cdef int spoilers(uint32_t mine, uint32_t others) noexcept nogil:
    """How many of ``mine`` (trump bits) the ``others`` can beat, one each: a trump spoils
    at most one trick, and only one of a lower trump.  Going down from the top, each of
    ``mine`` is matched to a higher trump of the others not matched yet (greedy is optimal:
    a higher spoiler can take anything a lower one can)."""
    cdef int free_ = 0, spoiled = 0, b
    cdef uint32_t all_ = mine | others
    while all_:
        b = top_bit(all_)
        all_ &= ~(<uint32_t>1 << b)
        if (others >> b) & 1:
            free_ += 1
        elif free_:
            free_ -= 1
            spoiled += 1
    return spoiled


cdef int cheapest_worth(const Game* g, int k, uint32_t cards, int m) noexcept nogil:
    """What the cheapest ``m`` of ``cards`` (suit k) are worth (all of them if fewer)."""
    cdef int w[32]
    cdef int n = 0, i, total = 0
    while cards:
        i = low_bit(cards)
        cards &= cards - 1
        w[n] = card_worth(g, k, i)
        n += 1
    sort_down(w, n)                          # (largest first: the cheapest at the end)
    for i in range(n - m if m < n else 0, n):
        total += w[i]
    return total


cdef int long_trumps_worth(const Game* g, const State* s, int camp, uint32_t run,
                           int tricks_left, int* tricks, uint32_t* used) noexcept nogil:
    """What a camp surely takes with the trumps of one of its seats, however low: every
    card gets played, so a seat's n trumps fall in n different tricks, and a trick that
    holds no higher trump of the other camp is the camp's.  The other camp's m trumps
    spoil at most one each (at4: its Pagat, which can win a Trull trick, is among them;
    fr: its Excuse may also take the last trick in the slam case).  So the seat's trumps
    win at least n - m tricks: its run trumps (sure anyway) and, for the rest, its
    cheapest other trumps; plus the floor for every other card of those tricks.  That
    needs only how many trumps each seat holds (and the bouts' owners), no rank.  By rank
    it can be more: a trump of the others spoils only a lower one, so only as many as can
    each be matched to a lower trump of the seat (``spoilers``); that count relies on the
    ranks of every trump down to the seat's lowest, which go into ``used``."""
    cdef int p, m, k, r, won, best = 0, total, i, slam = 0, sp, pagat
    cdef uint32_t mine, m_run, theirs = 0
    tricks[0] = 0
    if not g.trumps_win:
        return 0
    for p in range(g.seats):
        if g.camp[p] != camp:
            theirs |= s.hand[p][TAROCK] & trump_mask(g)
            if g.excuse == EX_FRENCH and (s.hand[p][TAROCK] >> EXBIT) & 1 and \
                    s.acc.tricks[camp] == 0:
                slam = 1
    m = popcount(theirs)
    pagat = g.trull and (theirs & 1)         # at4: it can win a Trull trick, so spoil any
    for p in range(g.seats):
        if g.camp[p] != camp:
            continue
        mine = s.hand[p][TAROCK] & trump_mask(g)
        # tricks the seat's trumps surely win: all but those the others' trumps spoil —
        # by rank at most m, and fewer when some of theirs are lower than all of mine
        sp = spoilers(mine, theirs & ~(<uint32_t>pagat)) + pagat
        k = popcount(mine) - sp - slam
        if sp < m and mine:
            used[0] |= <uint32_t>1 << low_bit(mine)   # the count relied on every trump above
        r = popcount(mine & run)             # of which its run trumps (sure anyway)
        won = k if k > r else r
        if won <= 0:
            continue
        total = 0
        m_run = mine & run
        while m_run:
            i = low_bit(m_run)
            m_run &= m_run - 1
            total += card_worth(g, TAROCK, i)
        total += cheapest_worth(g, TAROCK, mine & ~run, k - r)   # the k - r cheapest others
        if g.kind != KIND_FRENCH or tricks_left >= 2:
            total += won * (g.seats - 1) * worth_floor(g)
        if total > best:
            best = total
        if won > tricks[0]:
            tricks[0] = won
    return best


cdef int quick_tricks(const Game* g, const State* s, int cap, uint32_t* used,
                      int* rounds, uint32_t* cashed) noexcept nogil:
    """At a trick start: what the leader's camp surely takes by cashing the leader's
    masters in the plain suits, as DDS's quick tricks, in at most ``cap`` tricks.

    Round q of a suit is sure when the leader's q-th card is above every card of the
    seats still holding the suit then (q cards or more; fr: q - 1 and the Excuse) — once
    they are all void, whatever its rank (long cards) — and every other seat must follow
    it or cannot win it with a tarock (holds none; in at4 colour games tarock never wins
    a suit trick, but for the Pagat of a Trull trick): no tarock enters the trick, so it
    is none of the sure-trump tricks, and the leader wins it and leads again.  A round
    is worth the leader's card plus the floor for every other card.  Past the cap, the
    best rounds count: a position with more rounds then never gets a lower bound (the
    table relies on it).
    ``used``: the masters counted in each suit whose rank mattered (the pattern keeps
    the cards above them); a long card's did not (the coarse key's counts decide it).
    ``cashed``: the leader's cards of those rounds, when every round counts (within the
    cap), and the cards of a seat that plays all its cards of the suit in them: they fall
    in the leader's camp's tricks."""
    cdef int L = s.leader, k, p, j, q, h, n = 0, i, total = 0, can_trump, threat, excuse_seat = -1
    cdef uint32_t mine, live
    cdef int value[56]
    cdef int trumps[MAXSEATS]
    cdef int held[MAXSEATS]              # of the suit: cards each other seat can still follow with
    cdef int top[MAXSEATS]               # and its highest
    cdef int ruff_round
    rounds[0] = 0
    for k in range(4):
        cashed[k] = 0
    if cap <= 0 or (g.called_code >= 0 and s.trick_no == 0):
        return 0                             # (fr5: the called suit may not open the deal)
    if g.top_lead and s.hand[L][TAROCK]:
        return 0                             # (the highest tarock must lead)
    live = 0
    for p in range(g.seats):
        live |= s.hand[p][TAROCK]
    # at4 colour games: tarock never wins a suit trick, except the Pagat of a Trull trick
    can_trump = g.trumps_win or (g.trull and (live & TRULL) == TRULL)
    for p in range(g.seats):
        trumps[p] = can_trump and (s.hand[p][TAROCK] & trump_mask(g)) != 0
        if g.excuse == EX_FRENCH and (s.hand[p][TAROCK] >> EXBIT) & 1:
            excuse_seat = p
    for k in range(4):
        mine = s.hand[L][k]
        if not mine:
            continue
        # Round q: a seat still holding the suit (q cards or more) may have kept its
        # highest card for it; one holding fewer is void by then (fr: a seat holding the
        # Excuse may play it instead of following once, and keep a card one round
        # longer).  So the leader's q-th card wins if it is above the highest card of
        # every seat still holding the suit — once all others are void, whatever its
        # rank (long cards) — and no round comes after the first a seat can ruff.
        ruff_round = 32
        for p in range(g.seats):
            held[p] = popcount(s.hand[p][k]) if p != L else 0
            top[p] = top_bit(s.hand[p][k]) if held[p] else -1
            if p != L and trumps[p] and held[p] < ruff_round:
                ruff_round = held[p] + 1
            held[p] += p == excuse_seat
        q = 0
        while mine:
            j = top_bit(mine)
            q += 1
            if q >= ruff_round:
                break
            threat = -1
            for p in range(g.seats):
                if held[p] >= q and top[p] > threat:
                    threat = top[p]
            if j < threat:
                break                        # not a master in this round
            value[n] = card_worth(g, k, j) + (g.seats - 1) * worth_floor(g)
            n += 1
            cashed[k] |= <uint32_t>1 << j
            if threat >= 0:
                used[k] |= <uint32_t>1 << j  # its rank mattered (a long card's does not)
            mine &= ~(<uint32_t>1 << j)
    if n > cap:
        for k in range(4):
            cashed[k] = 0                    # which rounds are cashed is not known
    else:
        # Every round counts: the other seats must follow them, so each gives at least
        # its cheapest cards of the suit, not the floor — a singleton queen falls under
        # the king.  (fr: the seat holding the Excuse may keep one card back.)  A seat
        # that plays all its cards of the suit there gives up those very cards.
        for k in range(4):
            q = popcount(cashed[k])
            if q == 0:
                continue
            for p in range(g.seats):
                if p != L and s.hand[p][k]:
                    j = q - (p == excuse_seat)
                    h = popcount(s.hand[p][k])
                    # (the rounds already count the floor for each of its cards)
                    total += cheapest_worth(g, k, s.hand[p][k], j) - \
                        (j if j < h else h) * worth_floor(g)
                    if h <= j:
                        cashed[k] |= s.hand[p][k]
    sort_down(value, n)                      # the best rounds first
    for i in range(n if n < cap else cap):
        total += value[i]
    rounds[0] = n if n < cap else cap
    return total


cdef int guarded_masters(const Game* g, const State* s, int c, int top, uint32_t* own,
                         uint32_t* used) noexcept nogil:
    """At a trick start where camp c is not on lead but holds the run of top trumps
    (``top``: its highest, see sure_trumps, which also rules out the at4 Trull that
    would beat the Sküs): what the seat P holding the top trump surely takes with the
    masters it cannot lead now.  A master of a plain suit X (its highest card still in
    play) held by P falls in camp c's tricks when every other seat holding a trump holds
    a card of X.  Such a seat loses its cards of X only in tricks of X (void in another
    suit, it must play a tarock), so none can ruff the first trick of X — not the other
    camp, and not a partner either, which would win it and lead — and P plays the master
    there, or leads it as soon as it wins a trick.  P keeps the top trump as long as it
    may (played, it wins), so it is never stuck with a master alone in a last trick led
    in another suit: at the trick before it holds the top trump too (its Excuse or Narr,
    if any, played earlier), and any lead then lets it win that trick, with the top
    trump or a master, and lead the rest after.  Returns their worth above the floor
    (the trick of a master may be one of the camp's trump tricks, already counted with
    the floor for it); ``own`` gets the masters, ``used`` the top trump and each master
    (how many cards of each suit, and of tarock, each seat holds is in the coarse key).
    Only the first trick of each suit: a second master would fix the owners of every
    card above it in the table's pattern, which cost more nodes than its bound saved
    (docs/search.md)."""
    cdef int p, k, b, P = 0, ok, total = 0
    cdef uint32_t live
    for p in range(g.seats):
        if (s.hand[p][TAROCK] >> top) & 1:
            P = p
    for k in range(4):
        if not s.hand[P][k]:
            continue
        live = 0
        for p in range(g.seats):
            live |= s.hand[p][k]
        b = top_bit(live)
        if not (s.hand[P][k] >> b) & 1 or (own[5 * c + k] >> b) & 1:
            continue
        ok = 1
        for p in range(g.seats):
            if p != P and (s.hand[p][TAROCK] & trump_mask(g)) and not s.hand[p][k]:
                ok = 0
        if ok:
            own[5 * c + k] |= <uint32_t>1 << b
            used[k] |= <uint32_t>1 << b
            used[TAROCK] |= <uint32_t>1 << top
            total += card_worth(g, k, b) - worth_floor(g)
    return total


cdef inline int forced_only(const Game* g) noexcept nogil:
    """Trischaken: every player wants no points, so what a camp could take if it chose to
    bounds nothing; only what it is forced to take counts — its trumps must all be played
    and win their tricks (run, long trumps), not masters it may choose to cash."""
    return g.kind == KIND_TRISCHAKEN


cdef int petit_trapped(const Game* g, const State* s, uint32_t run, int room) noexcept nogil:
    """At a trick start where the leader's camp has a run of top trumps: whether the
    leader can draw the other camp's lowest trump (fr: the petit; at4, priest5: the
    Pagat) by leading run trumps, each of which wins its trick, until its holder D has
    no other tarock to play (one round more if D holds the Excuse or the Narr, which
    may be played instead once).  ``room``: the tricks that may hold those rounds.
    The leader leads its run trumps from the top.  A partner holding a higher one may
    have to play it (fr: it must overtrump; elsewhere when it holds no other tarock):
    the camp still wins that round, but the partner leads next and may have no run
    trump to go on with, and D may then ruff its petit safely.  So the rounds sure are
    the leader's run trumps above every partner's, and one more.
    Every count this uses is in the table's coarse key (each seat's tarocks, the owners
    of the petit and the Excuse); the run's owners are in ``used`` already."""
    cdef int p, d = -1, need, rounds, safe
    cdef uint32_t mine = run & s.hand[s.leader][TAROCK], partners = 0
    for p in range(g.seats):
        if s.hand[p][TAROCK] & 1:
            d = p
        if p != s.leader and g.camp[p] == g.camp[s.leader]:
            partners |= s.hand[p][TAROCK] & run
    if d < 0 or g.camp[d] == g.camp[s.leader]:
        return 0
    need = popcount(s.hand[d][TAROCK] & trump_mask(g) & ~(<uint32_t>1)) + 1
    if g.excuse != EX_SKUS and (s.hand[d][TAROCK] >> EXBIT) & 1:
        need += 1
    rounds = popcount(mine)
    if partners:
        # the leader's trumps above every partner's run trump, then the one a partner
        # may overtake (the camp wins that round too)
        safe = popcount(mine >> (top_bit(partners) + 1)) + 1
        if safe < rounds:
            rounds = safe
    return need <= room and rounds >= need


cdef int sure_for_camps(const Game* g, const State* s, int* sure, int* bouts, int* tricks,
                        uint32_t* own, uint32_t* used) noexcept nogil:
    """What each camp surely takes (``sure``, in card_worth units; ``bouts``: fr bouts) and
    how many tricks it surely wins (``tricks``); ``own[5 * c + suit]``: the cards that
    surely fall in camp c's tricks (its run; the leader's masters cashed as quick tricks;
    the other camp's guarded masters; the petit its run draws).  Returns the camp that
    surely takes the petit (T1) with its run, or -1."""
    cdef int tricks_left = g.tricks - s.trick_no, run_camp = 0, ex_camp = -1, p, quick, cap
    cdef int lead_camp = g.camp[s.leader], petit_camp = -1, c, w, k, rounds = 0
    # fr: the leader holds the Excuse, which it must still play before the last trick
    cdef int leader_ex = g.kind == KIND_FRENCH and (s.hand[s.leader][TAROCK] >> EXBIT) & 1
    cdef uint32_t run
    cdef uint32_t cashed[4]
    sure[0] = sure[1] = bouts[0] = bouts[1] = tricks[0] = tricks[1] = 0
    run = sure_trumps(g, s, &run_camp, &used[TAROCK])
    if run:
        own[5 * run_camp + TAROCK] |= run
        sure[run_camp] += sure_run_worth(g, s, run, run_camp, tricks_left, &bouts[run_camp],
                                         &tricks[run_camp])
        if run & 1:
            petit_camp = run_camp
    for c in range(2):
        # the same tricks counted another way: keep the better count
        w = long_trumps_worth(g, s, c, run if (run and run_camp == c) else 0, tricks_left, &k,
                              &used[TAROCK])
        if w > sure[c]:
            sure[c] = w
        if k > tricks[c]:
            tricks[c] = k
    cap = tricks_left
    if g.kind == KIND_FRENCH:
        for p in range(g.seats):
            if (s.hand[p][TAROCK] >> EXBIT) & 1:
                ex_camp = g.camp[p]
        if ex_camp >= 0 and tricks_left >= 2:
            # The Excuse may be played at any time: its camp can always play it before
            # the last trick and keep it, a bout and at least 8 half points.
            sure[ex_camp] += 8
            bouts[ex_camp] += 1
        # While the Excuse is out the quick tricks stay out of the last trick (the Excuse
        # rules there), and the leader holding it needs a trick after them to play it in.
        # Once it has been played the last trick is a trick like the others.
        cap = tricks_left - (1 if ex_camp >= 0 else 0) - leader_ex
    # (no tarock in the quick tricks: they come on top of the trump tricks)
    # (not where only what a camp is forced to take counts: masters it may choose to cash)
    quick = quick_tricks(g, s, cap, used, &rounds, cashed) if not forced_only(g) else 0
    if quick:
        sure[lead_camp] += quick
        tricks[lead_camp] += rounds
        for k in range(4):
            own[5 * lead_camp + k] |= cashed[k]
    if run and run_camp != lead_camp and not forced_only(g):
        # the other camp's masters, which it cannot lead now
        sure[run_camp] += guarded_masters(g, s, run_camp, top_bit(run), own, used)
    if run and lead_camp == run_camp and not forced_only(g) and \
            petit_trapped(g, s, run, tricks_left - rounds - 2 * leader_ex):
        # The leader draws the other camp's petit with its run, after its quick tricks
        # (the others keep their tarocks through them: none can ruff, or they are not
        # counted) and before the last trick if it holds the Excuse, which it then leads
        # before the last.  (The rounds may take the last trick otherwise: the run wins it,
        # the petit is then au bout for the run's camp, and the slam case is no run.)
        sure[run_camp] += card_worth(g, TAROCK, 0) - worth_floor(g)
        own[5 * run_camp + TAROCK] |= 1
        if g.kind == KIND_FRENCH:
            bouts[run_camp] += 1
        petit_camp = run_camp
    return petit_camp


cdef int sure_petit_au_bout(const Game* g, const State* s) noexcept nogil:
    """fr, at a trick start: the camp that surely gets the petit au bout, or -1.

    The seat X holding the petit keeps it for the last trick, and no other camp's trump is
    left to beat it there, when X has trumps enough: A other trumps (the Excuse aside)
    against B side cards and the M trumps the other camp holds (no partner of X may hold
    one), A >= B + 2M, plus one more while M > 0 if the other camp holds the Excuse.
    X's play: on lead, a trump while the others have some (each of them holding one must
    play one, or the Excuse once), else a side card; otherwise follow suit, or ruff with
    another trump (never forced to the petit: it can overtrump nothing, and a lower trump
    is always allowed).  Counting A - B - 2M: a trump led, or one overtrumped, takes at
    least one of M, so the count never falls; it falls by one only when X ruffs a side
    card and wins, and then X leads next, which raises it again.  So X always has another
    trump when it must ruff, and the others' trumps are gone before the last trick.  (X's
    own Excuse goes in any trick before the last.)  Only the slam case could take the
    last trick from X's camp: the other camp's Excuse when that camp has won every trick
    before — not once X's camp has a trick.  Every card this relies on is in the table's
    coarse key (the bouts' and the Excuse's owners, each seat's count of plain cards per
    suit), so it adds nothing to the pattern."""
    cdef int p, x = -1, k, side = 0, others, them = 0, ex_camp = -1, camp
    cdef uint32_t t
    for p in range(g.seats):
        if s.hand[p][TAROCK] & 1:
            x = p
        if (s.hand[p][TAROCK] >> EXBIT) & 1:
            ex_camp = g.camp[p]
    if x < 0:
        return -1
    camp = g.camp[x]
    for p in range(g.seats):
        t = s.hand[p][TAROCK] & ~(<uint32_t>1 << EXBIT)
        if p != x and t:
            if g.camp[p] == camp:
                return -1                    # a partner's trumps are not counted here
            them += popcount(t)
    for k in range(4):
        side += popcount(s.hand[x][k])
    others = popcount(s.hand[x][TAROCK] & ~(<uint32_t>1 << EXBIT)) - 1
    if others < side + 2 * them + (1 if them and ex_camp == 1 - camp else 0):
        return -1
    if ex_camp == 1 - camp and s.acc.tricks[camp] == 0:
        return -1
    return camp


cdef void worth_levels(Game* g) noexcept nogil:
    """Group the honours worth more than the least card by worth (``Game.level_*``; not
    the fr Excuse, counted apart, nor the priest5 Narr, which stays with its holder's
    party), so that the best cards still in play are counted with
    a few popcounts, not sorted; ``Game.counted`` holds all of them."""
    cdef int k, b, w, any_
    g.nlevels = 0
    for k in range(5):
        g.counted[k] = 0
    for w in range(63, worth_floor(g), -1):             # (a card is worth 13 at most)
        if g.nlevels == 16:
            break
        any_ = 0
        for k in range(5):
            g.level_mask[g.nlevels][k] = 0
            for b in range(32):
                if (g.honours[k] >> b) & 1 and card_worth(g, k, b) == w and \
                        not (k == TAROCK and b == EXBIT and g.excuse != EX_SKUS):
                    g.level_mask[g.nlevels][k] |= <uint32_t>1 << b
                    g.counted[k] |= <uint32_t>1 << b
                    any_ = 1
        if any_:
            g.level_worth[g.nlevels] = w
            g.nlevels += 1


cdef inline int best_worth(const Game* g, const int* count, const uint32_t* hand, int cards,
                           int plain) noexcept nogil:
    """The worth of the best ``cards`` cards of a set holding ``count[i]`` honours of worth
    level i (or, ``count`` NULL, those of ``hand``, counted only as deep as needed) and
    ``plain`` cards of the plain worth."""
    cdef int total = 0, i = 0, n, k
    while i < g.nlevels and cards > 0:
        if count != NULL:
            n = count[i]
        else:
            n = 0
            for k in range(5):
                n += popcount(hand[k] & g.level_mask[i][k])
        if n > cards:
            n = cards
        total += n * g.level_worth[i]
        cards -= n
        i += 1
    return total + (cards if cards < plain else plain) * worth_floor(g)


cdef void best_cards_worth(const Game* g, const State* s, const int* tricks,
                           const uint32_t* own, int* most) noexcept nogil:
    """At most what each camp c adds in ``tricks[c]`` tricks (``most[c]``).  In the tricks
    a camp wins every seat plays one card each, so each seat gives them at most its own
    best ``tricks[c]`` cards (a seat holding four kings loses at most two in two tricks).
    Every card has the plain worth but the honours and bouts, so only those are counted,
    level by level of worth.  When no seat holds more honours than ``tricks[c]``, that is
    the same as the best ``tricks[c] * seats`` cards still in play, pooled, which is
    cheaper to count.  fr: the camp's own Excuse is counted whole, whether or not it falls
    in one of those tricks; the other camp's only as the low card given for it, a plain
    card (that camp can always play it before the last trick) — but in the last trick it
    changes camp whole.  The cards ``own[5 * (1 - c) + suit]`` (surely in the other camp's
    tricks: its run, its petit au bout, its leader's cashed masters) are none of camp c's."""
    cdef int k, p, i, c, left = g.tricks - s.trick_no, ex_seat = -1, plain, n, whole
    cdef int most_held = 0, c_plain, out_plain
    cdef const uint32_t* out
    cdef uint32_t hand[5]
    cdef int count[16]
    cdef int c_count[16]
    cdef int honours_held[MAXSEATS]
    cdef uint32_t live[5]
    for k in range(5):
        live[k] = 0
    for p in range(g.seats):
        n = 0
        for k in range(5):
            live[k] |= s.hand[p][k]
            n += popcount(s.hand[p][k] & g.counted[k])
        honours_held[p] = n
        if n > most_held:
            most_held = n
        if g.kind == KIND_FRENCH and (s.hand[p][TAROCK] >> EXBIT) & 1:
            ex_seat = p
    plain = left * g.seats                   # the cards still in hands (a trick start)
    for i in range(g.nlevels):
        n = 0
        for k in range(5):
            n += popcount(live[k] & g.level_mask[i][k])
        count[i] = n
        plain -= n
    for c in range(2):
        # the Excuse counted whole (else it is one of the plain cards)
        whole = ex_seat >= 0 and (g.camp[ex_seat] == c or left < 2)
        most[c] = card_worth(g, TAROCK, EXBIT) if whole else 0
        out = &own[5 * (1 - c)]
        if most_held <= tricks[c]:
            c_plain = plain - whole
            for k in range(5):
                c_plain -= popcount(out[k] & ~g.counted[k])
            for i in range(g.nlevels):
                c_count[i] = count[i]
                for k in range(5):
                    c_count[i] -= popcount(out[k] & g.level_mask[i][k])
            most[c] += best_worth(g, c_count, NULL, tricks[c] * g.seats, c_plain)
            continue
        for p in range(g.seats):
            out_plain = 0
            for k in range(5):
                hand[k] = s.hand[p][k] & ~out[k]
                out_plain += popcount(s.hand[p][k] & out[k] & ~g.counted[k])
            most[c] += best_worth(g, NULL, hand, tricks[c],
                                  left - honours_held[p] - (1 if whole and p == ex_seat else 0)
                                  - out_plain)


cdef void bounds(const Game* g, const State* s, int* lo, int* hi, uint32_t* used,
                 int features) noexcept nogil:
    """Cheap bounds on the value: one camp takes everything still in play, or nothing,
    less (at a trick start, with FEAT_SURE) what the other camp surely takes.  The sure
    points cost more than the rest: the probe asks first without them (``features`` less
    FEAT_SURE), then the table, then with them.
    ``used`` (five suit masks): the cards whose owners these bounds depend on."""
    cdef const Acc* a = &s.acc
    cdef int rest = g.total_points - a.pts[0] - a.pts[1]
    cdef int tricks_left = g.tricks - s.trick_no
    cdef int rest_cards = tricks_left * g.seats, k, bouts_left, pab_lo, pab_hi, ch_lo, ch_hi
    cdef int petit_out = 1, p, petit_camp = -1, narr = 0, narr_camp = -1, sure_camps
    cdef int pab_camp = -1, c
    cdef uint32_t own[10]
    cdef uint32_t live
    cdef int rest_worth
    cdef int sure[2]
    cdef int sure_bouts[2]
    cdef int sure_tricks[2]
    cdef int open_tricks[2]
    cdef int most[2]
    for k in range(5):
        used[k] = 0
    sure[0] = sure[1] = sure_bouts[0] = sure_bouts[1] = sure_tricks[0] = sure_tricks[1] = 0
    for k in range(10):
        own[k] = 0
    # the games where the sure points apply: the value grows with what camp 0 takes
    # (Trischaken: the analysed seat's points; the tricks it is forced to win add to them,
    # those the others are forced to win do not)
    sure_camps = g.kind == KIND_FRENCH or g.kind == KIND_PRIEST or forced_only(g) or \
        (g.kind == KIND_AT4 and g.goal == GOAL_POINTS)
    if s.trick_len == 0 and (features & FEAT_SURE) and sure_camps and tricks_left >= 1:
        petit_camp = sure_for_camps(g, s, sure, sure_bouts, sure_tricks, own, used)
        if g.kind == KIND_FRENCH:
            pab_camp = sure_petit_au_bout(g, s)
            if pab_camp >= 0:
                own[5 * pab_camp + TAROCK] |= 1   # the petit falls in its camp's last trick,
                if petit_camp != pab_camp:   # a bout for it (unless its run has it)
                    sure_bouts[pab_camp] += 1
        # (Trischaken: the winners of tricks 1-6 also take a talon card each, which the
        # best cards of a number of tricks do not count.)
        if not forced_only(g):
            # Every card ends with one camp, so what one camp can add at most — the best
            # cards of the tricks the other camp does not surely win — is what the other
            # camp surely adds from what is left.
            if g.kind == KIND_PRIEST:
                # The honours in hands: the Narr is not counted (it stays with its
                # holder's party, and goes to no one late).  Only camp 0's lower bound
                # takes this: the upper bound made the walk's probes cheaper but the last
                # window of a whole deal 2.4x dearer (docs/search.md).
                rest_worth = 0
                for c in range(5):
                    live = 0
                    for p in range(g.seats):
                        live |= s.hand[p][c]
                    for k in range(g.nlevels):
                        rest_worth += popcount(live & g.level_mask[k][c]) * g.level_worth[k]
            else:
                rest_worth = rest if g.kind == KIND_FRENCH else count(g, rest, rest_cards)
            open_tricks[0] = tricks_left - sure_tricks[1]
            open_tricks[1] = tricks_left - sure_tricks[0]
            best_cards_worth(g, s, open_tricks, own, most)
            for k in range(1 if g.kind == KIND_PRIEST else 0, 2):
                if rest_worth - most[k] > sure[1 - k]:
                    sure[1 - k] = rest_worth - most[k]
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
        if petit_camp == 0:       # the petit is sure: no petit au bout for the others
            pab_lo = 0
        elif petit_camp == 1:
            pab_hi = 0
        if pab_camp == 0:         # the petit surely wins the last trick (sure_petit_au_bout)
            pab_lo = 1
        elif pab_camp == 1:
            pab_hi = -1
        if a.tricks[1] == 0 and not sure_tricks[1]:
            ch_hi = 400 if g.chelem_announced else 200
        else:
            ch_hi = -200 if g.chelem_announced else 0
        ch_lo = -200 if ((a.tricks[0] == 0 and not sure_tricks[0]) or g.chelem_announced) else 0
        hi[0] = french_value(g, a.pts[0] + rest - sure[1], a.bouts[0] + bouts_left - sure_bouts[1],
                             pab_hi, ch_hi)
        lo[0] = french_value(g, a.pts[0] + sure[0], a.bouts[0] + sure_bouts[0], pab_lo, ch_lo)
        return
    if g.kind == KIND_PRIEST:
        # The Narr stays with its holder's party (worth something only in tricks 1-10):
        # the other party never gets it.
        for p in range(g.seats):
            if (s.hand[p][TAROCK] >> EXBIT) & 1:
                narr = g.points[TAROCK][EXBIT]
                narr_camp = g.camp[p]
        rest -= narr
        hi[0] = a.pts[0] - a.pts[1] + rest - 2 * sure[1]
        lo[0] = a.pts[0] - a.pts[1] - rest + 2 * sure[0]
        if s.trick_no < g.narr_last_trick:
            if narr_camp == 0:
                hi[0] += narr
            elif narr_camp == 1:
                lo[0] -= narr
        return
    for k in range(s.trick_no, g.talon_len):
        rest_cards += g.talon_cards[k]
    if g.kind == KIND_TRISCHAKEN or g.goal == GOAL_POINTS:
        # every card is worth 3 * points - 2 >= 1 in the count in threes: more is more
        lo[0] = count(g, a.pts[0], a.cards[0]) + sure[0]
        hi[0] = count(g, a.pts[0] + rest, a.cards[0] + rest_cards) - sure[1]
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
