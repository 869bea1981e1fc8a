# The transposition table of partition search: one entry covers many positions.
#
# After a trick start is searched, the search knows which cards decided something by
# their rank (won a trick over a card of their suit, set what a player had to beat, made
# a sure run of trumps): the "relevant" cards.  Below the lowest relevant card of a suit,
# the cards are interchangeable — except for their points.  So an entry stores:
#
#   coarse   what every position it covers agrees on: who leads, what each camp has won
#            so far (as far as the value needs it), the owner of every card that is not
#            plain (honours, bouts, called cards: each has a class of its own), and how
#            many plain cards of each suit each seat holds;
#   pattern  for each suit, the owners (and classes) of its k highest live cards, k down
#            to the lowest relevant card: ``kvec`` holds the five k's.
#
# A lookup computes the coarse key once, then for each entry of the bucket with that
# coarse key checks the entry's pattern against the position's own top-k cards — prefix
# hashes per suit make that a few XORs — so the most general pattern that matches is
# found whatever k it was stored with.  With FEAT_PARTITION off, every entry is stored
# with all live cards in its pattern: the plain exact-position table.

DEF MAXLIVE = 24                 # live cards of one suit, + 1 (tarock: T1..T21 and EX)
# A bucket is chosen by the coarse key alone (a lookup does not know the pattern yet), and
# one coarse key stands for dozens of patterns (the same counts, other trump ranks): with
# 4 entries a bucket thrashed while most of the table stood empty; 64 took six 12-trick fr4
# positions from 682 M nodes to 243 M (docs/search.md).  The line of tags in front of the
# entries keeps the scan of so big a bucket to the entries of the position's own coarse key.
DEF BUCKET = 64                  # entries per bucket (32 bytes each)
DEF TRACE = 256                  # the driver probes kept for measuring it (Engine.trace)


cdef struct Entry:
    # ``check`` is the coarse key sealed with the other words (seal): a lookup recomputes it,
    # so an entry torn by two threads writing at once never matches (lockless hashing).
    uint64_t check
    uint64_t pattern
    uint64_t data                # kvec (25 bits) | lo (16) << 32 | hi (16) << 48
    uint64_t more                # plo (8) | phi << 8 | best << 16 | depth << 24


cdef struct Bucket:
    uint32_t tag[BUCKET]         # the high half of the coarse key of each entry, 0 if empty
    uint8_t depth[BUCKET]        # each entry's subtree depth (its ``more`` >> 24): which to give up
    Entry e[BUCKET]


# The tags of a bucket are compared four at a time (SSE2, in every x86-64 CPU): a lookup
# scans all 64 of them, and one by one that scan was a sixth of the probe's own time.
cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif
    /* Bit i set where tags[i] == tag, for the 64 tags of a bucket. */
    static inline uint64_t atout_tag_matches(const uint32_t* tags, uint32_t tag) {
        uint64_t m = 0;
        int i;
    #if defined(__SSE2__)
        const __m128i t = _mm_set1_epi32((int)tag);
        for (i = 0; i < 64; i += 4) {
            __m128i v = _mm_loadu_si128((const __m128i*)(tags + i));
            m |= (uint64_t)(unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, t))) << i;
        }
    #else
        for (i = 0; i < 64; i++)
            m |= (uint64_t)(tags[i] == tag) << i;
    #endif
        return m;
    }
    """
    uint64_t tag_matches "atout_tag_matches" (const uint32_t* tags, uint32_t tag) nogil
    int __builtin_ctzll(unsigned long long) nogil


cdef inline uint32_t tag_of(uint64_t coarse) noexcept nogil:
    return <uint32_t>(coarse >> 32) | 1


cdef struct Key:
    uint64_t coarse
    # prefix[k][i]: hash of the owners and classes of the i top live cards of suit k, worked
    # out only as deep as a lookup or a store asks (most patterns fix a few cards of a suit)
    uint64_t prefix[5][MAXLIVE]
    int done[5]                  # prefix[k][0..done[k]] are computed
    uint32_t rest[5]             # the live cards of suit k below those
    uint32_t live[5]
    const Game* g
    const State* s


cdef struct Team                   # the threads of one search (threads.pxi)


# Counters of where a search spends its nodes, for measuring the search (bench/ and the
# log of docs/search-log.md): compiled in only by a build with ATOUT_STATS=1 (setup.py), so
# that the search proper pays nothing for them.  Indexed by tricks left (the trick in
# progress counted) and, where it says so, by the card of the trick (0: the lead).
DEF STATS_TRICKS = 32
cdef struct Stats:
    uint64_t nodes[STATS_TRICKS][MAXSEATS]
    uint64_t starts[STATS_TRICKS]        # trick starts with a table (two tricks left or more)
    uint64_t by_plain[STATS_TRICKS]      # ... answered by the points still in play
    uint64_t by_table[STATS_TRICKS]      # ... by a table entry
    uint64_t by_sure[STATS_TRICKS]       # ... by the sure points
    uint64_t all_nodes[STATS_TRICKS][MAXSEATS]   # nodes that tried every card (no cut-off)
    uint64_t all_tried[STATS_TRICKS][MAXSEATS]   # the cards they tried
    uint64_t cut_nodes[STATS_TRICKS][MAXSEATS]   # nodes that cut off
    uint64_t cut_first[STATS_TRICKS][MAXSEATS]   # ... with the first card they tried

cdef struct Ctx:
    Bucket* table
    uint64_t mask                # buckets - 1
    uint64_t nodes, node_limit
    uint64_t check_mask          # check the limits when nodes & check_mask == 0 (1023; less in
                                 # lockstep.pxi's turns)
    double deadline
    int abort                    # a limit or a stop: the search is over
    int implied                  # another thread answered this one's question: stop
    int abandon                  # another thread finished the position below the node at
                                 # ply abandon - 1 on this thread's line: back up to it
    const int* stop              # the engine's stop switch (shared by its threads)
    Team* team                   # the engine's threads (threads.pxi)
    int share_tricks             # nodes with this many tricks left or more share their cards
    uint64_t start_nodes         # (a helper: its node count when it joined the search,
    uint64_t reported            # and when it last added its nodes to the team's count)
    uint64_t path[128]           # the mark of the card being searched at each ply
    int features
    int window                   # the driver's window on a dear walk (values; 1: probes only)
    uint64_t window_nodes        # a walk's probe that cost this many nodes makes it dear
    int killer[128]              # the last card that cut at each (trick, seat)
    uint32_t* plays              # the play memory (see play_key), shared by the threads
    uint64_t plays_mask
    uint64_t plays_salt          # mixed into its keys: a new one for each deal (Engine.rebase)
    void* raw_table              # what was allocated for the table (and the memory): the
    void* raw_plays              # first context owns them
    int mapped                   # threads.pxi: the table's pages are mapped (or being mapped)
    int map_seen                 # threads.pxi: the last mapping this thread did its share of
    uint64_t evictions           # entries given up for want of room since the table last grew
    uint64_t grow_at             # grow when evictions reach this (0: never)
    uint64_t cap_buckets         # the most buckets tt_mb allows
    const State* root            # the position being solved, and the best card its last
    int root_best                # probe found there (the answer of a stopped search)
    int* card_lo                 # what the probes proved of each card of the root, by code:
    int* card_hi                 # its value lies in [card_lo, card_hi] (shared by the threads)
    # the driver's last probes, for measuring it: target, answer, nodes
    int ntrace
    int trace_target[TRACE]
    int trace_value[TRACE]
    uint64_t trace_nodes[TRACE]
    Stats stats                  # (counted only in a build with ATOUT_STATS=1)


cdef inline int additive(const Game* g) noexcept nogil:
    """Is the value what was won so far plus what the rest of the deal adds?"""
    return g.kind == KIND_PRIEST or g.kind == KIND_TRISCHAKEN or \
        (g.kind == KIND_AT4 and g.goal == GOAL_POINTS)


cdef inline int tt_base(const Game* g, const State* s) noexcept nogil:
    """The part of the value already won, for games where values add up (else 0)."""
    if g.kind == KIND_PRIEST:
        return s.acc.pts[0] - s.acc.pts[1]
    if additive(g):
        return count(g, s.acc.pts[0], s.acc.cards[0])
    return 0


cdef inline int tt_points(const Game* g, const State* s) noexcept nogil:
    """fr: the taker's camp's half points so far.  The French score never falls when they
    grow, so one entry serves positions that differ only by them: a lower bound proven
    with p points holds with more, an upper bound with fewer.  Other games: 0."""
    return s.acc.pts[0] if g.kind == KIND_FRENCH else 0


cdef inline uint64_t rotl(uint64_t x, int r) noexcept nogil:
    return (x << r) | (x >> (64 - r))


cdef inline int holder(const State* s, int k, int b) noexcept nogil:
    """The seat holding the live card of bit ``b`` of suit ``k``."""
    cdef int p = 0
    while not (s.hand[p][k] >> b) & 1:
        p += 1
    return p


cdef void make_key(const Game* g, const State* s, Key* key) noexcept nogil:
    """The coarse key of a trick start; its prefix hashes come on demand (prefix_at)."""
    cdef const Acc* a = &s.acc
    cdef uint64_t coarse = 0x243f6a8885a308d3ULL, x, plain, owners
    cdef uint32_t live, mine
    cdef int k, p
    key.g, key.s = g, s
    for k in range(5):
        live = 0
        plain = 0
        owners = 0
        for p in range(g.seats):
            mine = s.hand[p][k]
            live |= mine
            plain += <uint64_t>popcount(mine & ~g.classed[k]) << (5 * p)   # how many plain cards each seat holds
            # the owner of every card with a class of its own (a card's class is fixed
            # by the game, so which seat holds which of them says it all)
            owners = owners * 0x100000001b3ULL + (mine & g.classed[k])
        key.live[k] = key.rest[k] = live
        key.done[k] = 0
        key.prefix[k][0] = mix(<uint64_t>(k + 1) * 0x9e3779b97f4a7c15ULL)
        # the suits' hashes are independent of each other: no chain of mixes to wait on
        coarse ^= mix(mix(owners ^ (<uint64_t>(k + 1) << 58)) ^ plain ^ (<uint64_t>(k + 1) << 40))
    if additive(g):
        x = 0                 # the future is stored apart from what was won so far
    elif g.kind == KIND_FRENCH:
        # The score needs the bouts won and whether each camp has a trick; the points
        # won are not in the key: the value only grows with them (see tt_points).
        x = (<uint64_t>a.bouts[0] << 10) | \
            (<uint64_t>(a.tricks[0] > 0) << 12) | (<uint64_t>(a.tricks[1] > 0) << 13) | \
            (<uint64_t>(a.petit_prev + 1) << 14)
    else:
        x = (<uint64_t>a.pts[0]) | (<uint64_t>a.cards[0] << 10) | \
            (<uint64_t>a.tricks[0] << 20) | (<uint64_t>a.tricks[1] << 25) | \
            (<uint64_t>a.flags << 30)
    x |= <uint64_t>s.leader << 40
    coarse = mix(coarse ^ mix(x + 0x9e3779b97f4a7c15ULL))
    key.coarse = coarse if coarse else 1              # 0 marks an empty entry


cdef inline uint64_t prefix_at(Key* key, int k, int depth) noexcept nogil:
    """The hash of the owners and classes of the ``depth`` top live cards of suit k."""
    cdef int b, p
    cdef uint64_t h
    while key.done[k] < depth:
        h = key.prefix[k][key.done[k]]
        b = top_bit(key.rest[k])
        key.rest[k] &= ~(<uint32_t>1 << b)
        p = holder(key.s, k, b)
        key.done[k] += 1
        key.prefix[k][key.done[k]] = mix(h ^ (<uint64_t>(p + 1) | (<uint64_t>key.g.cls[k][b] << 4)))
    return key.prefix[k][depth]


cdef inline uint64_t pattern_of(Key* key, uint32_t kvec) noexcept nogil:
    """The pattern hash of the position's ``kvec`` top cards (5 bits of k per suit)."""
    return prefix_at(key, 0, kvec & 31) ^ rotl(prefix_at(key, 1, (kvec >> 5) & 31), 13) ^ \
        rotl(prefix_at(key, 2, (kvec >> 10) & 31), 26) ^ \
        rotl(prefix_at(key, 3, (kvec >> 15) & 31), 39) ^ rotl(prefix_at(key, 4, (kvec >> 20) & 31), 52)


cdef inline uint32_t top_of(uint32_t live, int cnt) noexcept nogil:
    """The ``cnt`` highest cards of ``live``."""
    cdef uint32_t top = 0
    while cnt > 0:
        top |= <uint32_t>1 << top_bit(live & ~top)
        cnt -= 1
    return top


cdef inline void top_cards(const Key* key, uint32_t kvec, uint32_t* rel) noexcept nogil:
    """The cards a pattern fixes: the k top live cards of each suit."""
    cdef int k
    for k in range(5):
        rel[k] = top_of(key.live[k], (kvec >> (5 * k)) & 31)


cdef uint32_t kvec_of(const Ctx* ctx, const Key* key, uint32_t* rel) noexcept nogil:
    """The pattern that covers the relevant cards ``rel``: each suit down to its lowest
    relevant live card (everything above it is fixed too).  ``rel`` becomes those cards."""
    cdef uint32_t kvec = 0, m
    cdef int k, cnt
    for k in range(5):
        m = rel[k] & key.live[k]
        if not (ctx.features & FEAT_PARTITION):
            cnt = popcount(key.live[k])
            rel[k] = key.live[k]
        elif m:
            rel[k] = key.live[k] & ~((<uint32_t>1 << low_bit(m)) - 1)   # from the lowest up
            cnt = popcount(rel[k])
        else:
            cnt = 0
            rel[k] = 0
        kvec |= <uint32_t>cnt << (5 * k)
    return kvec


cdef inline uint64_t seal_of(uint64_t pattern, uint64_t data, uint64_t more) noexcept nogil:
    """What ``check`` XORs onto the coarse key.  The multiplications make it no linear
    function of the words: with a plain XOR, the words of two writers' versions of one
    entry (its pattern the same, ``data`` and ``more`` different) could mix into a third
    that still matched, say one version's bounds with the other's points."""
    return pattern ^ (data * 0x9e3779b97f4a7c15ULL) ^ (more * 0xc2b2ae3d27d4eb4fULL)


cdef inline uint64_t seal(const Entry* e) noexcept nogil:
    return seal_of(e.pattern, e.data, e.more)


cdef inline int entry_lo(const Entry* e) noexcept nogil:
    return <int16_t>((e.data >> 32) & 0xffff)

cdef inline int entry_hi(const Entry* e) noexcept nogil:
    return <int16_t>((e.data >> 48) & 0xffff)


cdef int tt_lookup(Ctx* ctx, Key* key, int alpha, int beta, int base, int won, int* best,
                   int* value, uint32_t* rel) noexcept nogil:
    """1 and the ``value`` bound when an entry covering this position decides the search
    in the window (alpha, beta) — a bound past it, or the exact value — (``rel`` then
    holds the cards its pattern fixed); else 0, with the best card of a covering entry in
    ``best`` when there is one."""
    cdef Bucket* bucket = ctx.table + (key.coarse & ctx.mask)
    cdef Entry e
    cdef int i, lo, hi
    cdef uint32_t kvec, tag = tag_of(key.coarse)
    cdef uint64_t m = tag_matches(bucket.tag, tag)
    while m:
        i = __builtin_ctzll(m)
        m &= m - 1
        e = bucket.e[i]                                # one copy: the checks below see one version
        if (e.check ^ seal(&e)) != key.coarse:
            continue
        kvec = <uint32_t>(e.data & 0x1ffffff)
        if pattern_of(key, kvec) != e.pattern:
            continue
        lo = entry_lo(&e)
        hi = entry_hi(&e)
        if lo != VALUE_MIN and won >= <int>(e.more & 0xff):
            lo += base
        else:
            lo = VALUE_MIN
        if hi != VALUE_MAX and won <= <int>((e.more >> 8) & 0xff):
            hi += base
        else:
            hi = VALUE_MAX
        if lo >= beta or hi <= alpha or lo == hi:
            value[0] = lo if lo >= beta or lo == hi else hi
            top_cards(key, kvec, rel)
            return 1
        best[0] = <int>((e.more >> 16) & 0xff)
    return 0


cdef void tt_store(Ctx* ctx, Key* key, uint32_t kvec, int lo, int hi, int p, int best,
                   int depth) noexcept nogil:
    """Store a lower bound (``hi`` = VALUE_MAX) or an upper bound (``lo`` = VALUE_MIN)
    proven with ``p`` points won so far (see :func:`tt_points`) under the pattern ``kvec``."""
    cdef Bucket* bucket = ctx.table + (key.coarse & ctx.mask)
    cdef Entry* e = NULL
    cdef Entry old
    cdef uint64_t pattern = pattern_of(key, kvec)
    cdef uint32_t tag = tag_of(key.coarse)
    cdef int i, olo = VALUE_MIN, ohi = VALUE_MAX, plo = 0, phi = 255, odepth
    cdef uint64_t m = tag_matches(bucket.tag, tag)
    while m:
        i = __builtin_ctzll(m)
        m &= m - 1
        old = bucket.e[i]
        if old.pattern == pattern and (old.check ^ seal(&old)) == key.coarse:
            e = &bucket.e[i]
            olo, ohi = entry_lo(&old), entry_hi(&old)
            plo, phi = <int>(old.more & 0xff), <int>((old.more >> 8) & 0xff)
            break
    if e == NULL:
        # a new pattern: an empty slot, else the entry of the smallest subtree (cheapest to redo)
        m = tag_matches(bucket.tag, 0)
        if m:
            e = &bucket.e[__builtin_ctzll(m)]
        else:
            ctx.evictions += 1
            e = &bucket.e[0]
            odepth = 1000
            for i in range(BUCKET):
                if bucket.depth[i] < odepth:
                    odepth = bucket.depth[i]
                    e = &bucket.e[i]
    # A lower bound holds for every position with at least its points won, an upper
    # bound for every one with at most: keep the new one unless the old one covers it.
    if lo != VALUE_MIN and not (olo != VALUE_MIN and plo <= p and olo >= lo):
        olo, plo = lo, p
    if hi != VALUE_MAX and not (ohi != VALUE_MAX and phi >= p and ohi <= hi):
        ohi, phi = hi, p
    cdef uint64_t data = <uint64_t>kvec | (<uint64_t>(<uint16_t>olo) << 32) | \
        (<uint64_t>(<uint16_t>ohi) << 48)
    cdef uint64_t more = <uint64_t>plo | (<uint64_t>phi << 8) | (<uint64_t>(best & 0xff) << 16) | \
        (<uint64_t>depth << 24)
    e.pattern = pattern
    e.data = data
    e.more = more
    e.check = key.coarse ^ seal_of(pattern, data, more)
    bucket.depth[e - bucket.e] = <uint8_t>depth
    bucket.tag[e - bucket.e] = tag
