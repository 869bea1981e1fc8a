# One search on several threads: ABDADA over the one shared table.
#
# Every thread searches the whole tree from the root, in the same window, on the same
# table (docs/search.md, "Threads").  What keeps them apart is a small shared table of
# the positions being searched right now (the busy marks): at a node with enough tricks
# left, a thread about to search a card other than the node's first one or two (``young``)
# looks up the position that card leads to, and when another thread is already searching
# it, puts the card off and takes the next one — and puts off the other cards of that suit too,
# whose subtrees share most of their table entries with it.  The cards put off are
# searched last, by when the other thread has usually stored their answer in the table.
# So at the nodes where every card must be refuted the threads spread over the cards, at
# any depth; where one card answers, they go down it together and spread below.
# (Weill's ABDADA, 1996, with the marks in a table of their own, as the "simplified
# ABDADA" of chess programs does, since our table's entries are patterns.)
#
# A thread that finishes a position says so in its mark; every thread checks the marks
# of its own line now and then (with the limits, every 1024 nodes), and one that finds a
# position of its line finished elsewhere gives up below it (``abandon``): the search
# there is no longer needed — a card of it cut off, or every card was refuted — and the
# node above takes the answer from the table.
#
# Why it is exact: each thread runs the ordinary alpha-beta search; a thread only changes
# the order in which it tries a node's cards, and every answer it takes from the table is
# a proven bound, whoever stored it.  What a thread gives up (a line abandoned, a search
# another thread answered first) returns without storing anything.  The root's answer is
# that of the first thread to finish; the others are stopped (``implied``).
#
# Threads join a search only once it has run alone for ``help_after`` nodes: most
# searches of an analysis or an endgame are over before that, and pay nothing.  The more
# threads, the sooner they join: what a search does alone is done at one thread's speed
# while the others wait, and that share caps the speed-up (Amdahl) — on the six 12-trick fr4
# positions 11 % of one thread's nodes lie in the first 2^15 nodes of their searches, which
# caps 16 threads at 6.0x, against 12.7x with 2^11; 16 threads joining after 2^12 nodes
# searched no more nodes than after 2^15 (docs/search.md, "Threads").

DEF MAXTHREADS = 256
DEF HELP_AFTER = 1 << 15         # nodes a search runs alone before the helpers join (2 threads;
DEF HELP_AFTER_MIN = 1 << 9      # halved as the threads double; see help_after_for)
DEF DEFER_TRICKS = 3             # nodes with this many tricks left or more share their cards
# On up to FEW_THREADS threads a node's first two cards are searched by every thread that
# comes: after the first card failed, the second still answers often, and a thread sent
# to the third meanwhile is a large share of the machine working for nothing (two
# threads, 16 12-trick fr4 positions: 1.42-1.44x the nodes of one when the second card was
# shared out too, 1.12-1.13x with it kept).  On more threads only the first.
DEF YOUNG_BROTHERS = 2
DEF FEW_THREADS = 4
# A young card is searched by every thread that comes within CROWD_TRICKS tricks of the
# search's root, where a card is a big share of the search and a thread sent to the next
# card would search a big subtree that a cut-off makes useless.  Further down, by at most
# CROWD threads at once: the others take the node's next cards at once.  Every thread that
# joins a search under way walks its line again and searches what the others search (in
# lockstep, 16 threads on a 12-trick probe searched the same trick starts 2-3 times each,
# 1.1-1.2 times as many different ones as one thread), and sixteen threads arriving together
# at a node of few cards pile into its first.  Sixteen threads in lockstep, nodes over one
# thread's (median of seeds 1-3): six 12-trick fr4 positions 1.65x with this, 2.19x without
# (CROWD 0), 2.88x under the rule before (two young brothers within three tricks of the
# root); fr4-mid12 2.05x, 2.35x, 2.87x.  CROWD 3: fr4-12 1.95x; CROWD_TRICKS 1 or 3: 1.65x,
# 1.82x, and fr4-mid12 2.84x with 1.  It loses on eight threads on fr4-mid12 (3.33x against
# 1.78x without) and on the three whole-deal probes on sixteen (1.94x against 1.65x, seed 1)
# (docs/search.md, "Threads in lockstep").
DEF CROWD = 2
DEF CROWD_TRICKS = 2
DEF BUSY_SLOTS = 1 << 15         # the busy marks (8 bytes each; cleared when helpers join)
DEF COUNT = (1 << 9) - 1         # a busy mark's threads searching the position,
DEF DONE = 1 << 9                # and whether one has finished it
DEF STACK_BYTES = 4 << 20        # a helper's stack: search() nests a frame per card
# The table's pages are mapped ahead (map_table) once the engine has searched this many
# nodes per page of it: mapping a page costs about as much as six nodes, and a small
# search touches few of a big table's pages (an 8-trick endgame never maps its 16 MB;
# a 12-trick fr4 position maps its 256 MB after a million nodes, a whole deal its 4 GB
# after 16 million).
DEF MAP_NODES_PER_PAGE = 16

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    ctypedef struct pthread_attr_t:
        pass
    int pthread_attr_init(pthread_attr_t* attr)
    int pthread_attr_setstacksize(pthread_attr_t* attr, size_t size)
    int pthread_attr_destroy(pthread_attr_t* attr)
    int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                       void* (*start)(void*) noexcept nogil, void* arg)
    int pthread_join(pthread_t thread, void** result)

# Words that several threads write: atomic loads and stores (relaxed where only the
# value matters, acquire/release where it publishes other memory).
cdef extern from *:
    """
    #include <stdint.h>
    static inline int atout_load(const int* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void atout_store(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int atout_add(int* p, int v) { return __atomic_add_fetch(p, v, __ATOMIC_ACQ_REL); }
    static inline int atout_claim(int* p) {
        int expected = 0;
        return __atomic_compare_exchange_n(p, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
    static inline uint64_t atout_load64(const uint64_t* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void atout_store64(uint64_t* p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static inline uint64_t atout_add64(uint64_t* p, uint64_t v) { return __atomic_add_fetch(p, v, __ATOMIC_RELAXED); }
    /* One more thread on the position of mark m (a slot of another position is taken over). */
    static inline void atout_enter64(uint64_t* p, uint64_t m) {
        uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED), want;
        do {
            want = (old & ~(uint64_t)0x3ff) == m && (old & 0x1ff) < 0x1ff ? old + 1 : (m | 1);
        } while (!__atomic_compare_exchange_n(p, &old, want, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    }
    /* One thread fewer on it, and the flag `done` set (nothing if the slot was taken over). */
    static inline void atout_leave64(uint64_t* p, uint64_t m, uint64_t done) {
        uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED), want;
        do {
            if ((old & ~(uint64_t)0x3ff) != m || (old & 0x1ff) == 0)
                return;
            want = (old - 1) | done;
        } while (!__atomic_compare_exchange_n(p, &old, want, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    }
    static inline void atout_pause(void) {
    #if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
    #endif
    }
    """
    int atomic_load "atout_load" (const int* p) nogil
    void atomic_store "atout_store" (int* p, int v) nogil
    int atomic_add "atout_add" (int* p, int v) nogil
    int atomic_claim "atout_claim" (int* p) nogil
    uint64_t atomic_load64 "atout_load64" (const uint64_t* p) nogil
    void atomic_store64 "atout_store64" (uint64_t* p, uint64_t v) nogil
    uint64_t atomic_add64 "atout_add64" (uint64_t* p, uint64_t v) nogil
    void atomic_enter64 "atout_enter64" (uint64_t* p, uint64_t m) nogil
    void atomic_leave64 "atout_leave64" (uint64_t* p, uint64_t m, uint64_t done) nogil
    void cpu_pause "atout_pause" () nogil


# Memory is mapped lazily: a page first read maps the kernel's shared zero page, and its
# first write replaces that mapping — which, while other threads of the process run,
# makes the kernel interrupt each of their CPUs to flush the old mapping (a TLB shootdown,
# per page).  One thread pays only the faults; two threads searching a fresh table ran a
# fifth to a third slower each (docs/search.md, "Threads").  So once a search on several
# threads has run long enough, the table's pages are mapped writable ahead, their contents
# kept (MADV_POPULATE_WRITE, Linux 5.14: safe beside threads that use the memory), each
# thread mapping a slice.  Where the kernel cannot, the table stays lazily mapped.
cdef extern from *:
    """
    #include <stdint.h>
    #include <sys/mman.h>
    #ifndef MADV_POPULATE_WRITE
    #define MADV_POPULATE_WRITE 23
    #endif
    /* The whole pages of [p, p + bytes) mapped writable, contents kept: 0, else -1. */
    static inline int atout_populate(const void* p, size_t bytes) {
        uintptr_t start = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
        uintptr_t end = ((uintptr_t)p + bytes) & ~(uintptr_t)4095;
        return end <= start ? 0 : madvise((void*)start, end - start, MADV_POPULATE_WRITE);
    }
    """
    int populate "atout_populate" (const void* p, size_t bytes) nogil


cdef struct Place                  # a thread's place in the lockstep (lockstep.pxi)

cdef struct Team:
    # how the engine's threads search (set_threads)
    int threads                  # this many threads per search, the caller's included
    uint64_t help_after          # nodes a search runs alone before the helpers join
    int defer_tricks             # nodes with this many tricks left or more share their cards
    int young                    # a node's first this many cards are never put off,
    int young_tricks             # and at least two within this many tricks of the root,
    int crowd                    # unless this many threads are on one already (0: never)
    int crowd_tricks             # and it lies further than this many tricks from the root
    Ctx* main                    # the caller's context, and the helpers' (threads - 1)
    Ctx* helpers
    pthread_t* tid
    int* started
    uint64_t* busy               # the busy marks: the positions being searched now
    uint64_t busy_mask
    # the search under way
    const Game* g
    const State* s
    int alpha, beta
    int root_ply
    uint64_t start_at            # the caller's node count at which the helpers join
    int helping                  # the helpers are running: the busy marks are in use
    int claimed                  # a thread has finished the search: its answer is value
    int value
    int best                     # (and its best card at the root)
    uint64_t helper_nodes        # the helpers' nodes, as they last reported them (node limit)
    int running                  # the threads inside the search
    int grow                     # the caller grows the table: the others wait (park)
    int parked
    uint64_t evictions           # the helpers' evictions, for the decision to grow
    int map_round                # map_table: a mapping to do, each thread its slice (0: none)
    # for measuring and testing: the searches the helpers joined, and those a helper answered
    uint64_t joined
    uint64_t helper_answers
    # lockstep.pxi, for measuring: the threads take turns of ``lockstep`` nodes (0: off)
    int lockstep
    uint32_t lockstep_seed       # (0: every turn ``lockstep`` nodes; else drawn from it)
    int lockstep_every           # the threads check their node count every this many nodes
    int rotating                 # the turns are in force (the helpers are in the search)
    Place* places                # each thread's place (0: the caller)


cdef inline uint64_t help_after_for(int threads) noexcept nogil:
    """The nodes a search runs alone before ``threads`` threads join it: 2^15 on two,
    halved as the threads double (2^14 on four); on more than FEW_THREADS, a quarter of
    that (2^11 on eight, 2^10 on sixteen), never under 2^9.  Measured on two cores for two,
    in lockstep for more: on the six 12-trick fr4 positions sixteen threads joining after
    2^10 nodes searched 1.65x one thread's nodes, after 2^12 1.88x; eight after 2^11 1.30x,
    after 2^13 1.62x (but fr4-mid12-005 on eight: 2.8-5.8x against 1.6-1.9x; docs/search.md,
    "Threads in lockstep")."""
    cdef uint64_t nodes = (<uint64_t>HELP_AFTER * 2) // <uint64_t>max(threads, 2)
    if threads > FEW_THREADS:
        nodes //= 4
    return nodes if nodes > HELP_AFTER_MIN else HELP_AFTER_MIN


cdef inline uint64_t card_mark(int code) noexcept nogil:
    """A random word per card: a position's mark is the XOR of the cards played since the
    search's root (the same cards played in another order: the same mark — a transposition
    is busy too; marks only decide the order of the cards, so a clash costs nothing)."""
    return mix(<uint64_t>(code + 1) * 0x9e3779b97f4a7c15ULL) & ~(<uint64_t>(DONE | COUNT))


cdef inline int ply_of(const State* s) noexcept nogil:
    return s.trick_no * MAXSEATS + s.trick_len


# A busy slot holds a position's mark (its low 10 bits clear), in bits 0-8 how many threads
# are searching that position now (COUNT), and whether a thread has finished it (DONE).

cdef inline uint64_t slot_of(Team* t, uint64_t mark) noexcept nogil:
    """The slot's word if it is this position's, else 0."""
    cdef uint64_t slot = atomic_load64(&t.busy[(mark >> 10) & t.busy_mask])
    return slot if (slot & ~(<uint64_t>(DONE | COUNT))) == mark else 0


cdef inline int busy(Team* t, uint64_t mark) noexcept nogil:
    """How many threads are searching the position of ``mark`` (0: none)."""
    return <int>(slot_of(t, mark) & COUNT)


cdef inline int finished(Team* t, uint64_t mark) noexcept nogil:
    """Has a thread finished searching the position of ``mark`` (in this search)?"""
    return (slot_of(t, mark) & DONE) != 0


cdef inline void mark_busy(Team* t, uint64_t mark) noexcept nogil:
    atomic_enter64(&t.busy[(mark >> 10) & t.busy_mask], mark)


cdef inline void clear_busy(Team* t, uint64_t mark, int done) noexcept nogil:
    """One thread fewer on the position; ``done``: it finished the search there."""
    atomic_leave64(&t.busy[(mark >> 10) & t.busy_mask], mark, DONE if done else 0)


cdef struct Later:
    int card[MAXMOVES]           # the node's cards put off (their indices), in move order,
    uint64_t mark[MAXMOVES]      # and the marks of the positions they lead to
    int count
    int next                     # the first not searched yet (0: the first pass)
    int suits                    # the suits of the cards put off


cdef inline int young_at(const Team* t, int ply) noexcept nogil:
    """How many of a node's first cards (at ``ply``) are never put off."""
    if t.young < YOUNG_BROTHERS and ply - t.root_ply < t.young_tricks * MAXSEATS:
        return YOUNG_BROTHERS
    return t.young


cdef inline int put_off(Team* t, Later* later, int i, int code, uint64_t mark, int ply) noexcept nogil:
    """Is the node's card ``code`` (its i-th, at ``ply``) to be searched after the others?
    One of its first young_at cards only when ``crowd`` threads are on it already, further
    than ``crowd_tricks`` tricks from the search's root (CROWD).  Another card when another
    thread is searching it, and when a card of its suit was put off: cards of one suit lead
    to positions that the table's patterns largely share, so the second, searched after the
    first, is mostly answered by the table, where searched at once both pay in full
    (docs/search.md, "Threads")."""
    cdef int suit = code >> 5
    if i < young_at(t, ply):
        if t.crowd == 0 or ply - t.root_ply < t.crowd_tricks * MAXSEATS or busy(t, mark) < t.crowd:
            return 0
    elif not (later.suits >> suit) & 1 and not busy(t, mark):
        return 0
    later.card[later.count] = i
    later.mark[later.count] = mark
    later.count += 1
    later.suits |= 1 << suit
    return 1


cdef int take_later(const Game* g, Team* t, const int* mv, Later* later) noexcept nogil:
    """The next of the cards put off to search: the first that no other thread is on any
    more (its answer is in the table by now), passing over a card while a card of its
    suit before it is still to come; when every one is taken, the first: this thread joins
    that search, and below it the two spread out again (of the searches under way, the one
    fewest threads are on)."""
    cdef int k, pick = -1, suit, pending = 0, n, fewest = 1000, least = later.next
    cdef int card
    cdef uint64_t mark
    for k in range(later.next, later.count):
        suit = mv[later.card[k]] >> 5
        n = busy(t, later.mark[k])
        if not (pending >> suit) & 1:
            if n == 0:
                pick = k
                break
            if n < fewest:
                fewest, least = n, k
        pending |= 1 << suit
    if pick < 0:
        pick = least
    card, mark = later.card[pick], later.mark[pick]
    later.card[pick], later.mark[pick] = later.card[later.next], later.mark[later.next]
    later.card[later.next], later.mark[later.next] = card, mark
    later.next += 1
    return card


cdef void claim(Team* t, Ctx* ctx, int v) noexcept nogil:
    """``ctx``'s thread finished the search with ``v``: the first to finish gives the
    answer, and every other thread is stopped."""
    cdef int i
    cdef Ctx* c
    if not atomic_claim(&t.claimed):
        return
    t.value = v
    t.best = ctx.root_best
    for i in range(t.threads):
        c = t.main if i == 0 else &t.helpers[i - 1]
        if c != ctx:
            atomic_store(&c.implied, 1)
    lockstep_end(t)


cdef void map_table(Ctx* ctx) noexcept nogil:
    """The caller, on several threads: once the engine has searched enough for it to pay
    (MAP_NODES_PER_PAGE), the table's pages are to be mapped ahead (above), a slice by each
    thread at its next count of nodes (``map_slice``); the play memory now."""
    cdef Team* t = ctx.team
    cdef size_t pages = (ctx.mask + 1) * sizeof(Bucket) >> 12
    if ctx.mapped or ctx.nodes + atomic_load64(&t.helper_nodes) < MAP_NODES_PER_PAGE * pages:
        return
    ctx.mapped = 1
    if populate(ctx.plays, (ctx.plays_mask + 1) * sizeof(uint32_t)) != 0:
        return                           # (a kernel before 5.14: left as it is)
    atomic_store(&t.map_round, atomic_load(&t.map_round) + 1)


cdef void map_slice(Ctx* ctx) noexcept nogil:
    """This thread's share of the mapping map_table asked for, if it has not done it."""
    cdef Team* t = ctx.team
    cdef int round = atomic_load(&t.map_round)
    cdef int i = 0 if ctx == t.main else 1 + <int>(ctx - t.helpers)
    cdef size_t bytes = (ctx.mask + 1) * sizeof(Bucket)
    cdef size_t per = ((bytes >> 12) + t.threads - 1) // t.threads * 4096
    if round == ctx.map_seen:
        return
    ctx.map_seen = round
    if i * per < bytes:
        # (a page further: the table starts inside a page, the slices too)
        populate(<char*>ctx.table + i * per, min(per + 4096, bytes - i * per))


cdef void* helper_main(void* arg) noexcept nogil:
    cdef Ctx* ctx = <Ctx*>arg
    cdef Team* t = ctx.team
    cdef uint32_t rel[5]
    cdef int v
    if t.lockstep:
        wait_turn(t, thread_index(t, ctx))
    v = search(t.g, t.s, t.alpha, t.beta, ctx, rel)
    if not ctx.abort and not ctx.implied and not ctx.abandon:
        claim(t, ctx, v)
    atomic_add(&t.running, -1)
    if t.lockstep:
        lockstep_leave(t, thread_index(t, ctx))
    return NULL


cdef void start_helpers(Ctx* ctx, int ply) noexcept nogil:
    """The caller's search has run long enough: the helpers join it.  The cards the caller
    is searching now (its line from the root) are marked busy first, so that the helpers
    start on other cards."""
    cdef Team* t = ctx.team
    cdef pthread_attr_t attr
    cdef Ctx* h
    cdef int i, p
    memset(t.busy, 0, (t.busy_mask + 1) * sizeof(uint64_t))
    t.helper_nodes = 0
    t.evictions = 0
    t.parked = 0
    t.grow = 0
    t.running = t.threads
    for p in range(t.root_ply, ply):
        if t.g.tricks - p // MAXSEATS >= t.defer_tricks and ctx.path[p]:
            mark_busy(t, ctx.path[p])
    atomic_store(&t.helping, 1)
    if t.lockstep:
        lockstep_begin(t)
    pthread_attr_init(&attr)
    pthread_attr_setstacksize(&attr, STACK_BYTES)
    for i in range(t.threads - 1):
        h = &t.helpers[i]
        h.table, h.mask, h.features = ctx.table, ctx.mask, ctx.features
        h.plays, h.plays_mask, h.plays_salt = ctx.plays, ctx.plays_mask, ctx.plays_salt
        h.deadline, h.node_limit, h.stop = ctx.deadline, ctx.node_limit, ctx.stop
        h.root, h.card_lo, h.card_hi = ctx.root, ctx.card_lo, ctx.card_hi
        h.team, h.share_tricks = t, ctx.share_tricks
        h.abort = h.implied = h.abandon = 0
        h.evictions = h.grow_at = 0      # only the caller grows the table
        h.root_best = -1
        h.start_nodes = h.reported = h.nodes
        h.check_mask = ctx.check_mask
        t.started[i] = pthread_create(&t.tid[i], &attr, helper_main, h) == 0
        if not t.started[i]:
            atomic_add(&t.running, -1)   # no thread to be had: the others go on without it
            if t.lockstep:
                lockstep_leave(t, 1 + i)
    pthread_attr_destroy(&attr)


cdef void grow_with_helpers(Ctx* ctx) noexcept nogil:
    """Grow the table while the helpers run: they wait at their next node count check
    (where, as for the caller, nothing up their stack points into the table), the table
    grows, and they go on in the new one.  Given up if the search ends meanwhile."""
    cdef Team* t = ctx.team
    cdef int i
    atomic_store(&t.grow, 1)
    while atomic_load(&t.parked) < atomic_load(&t.running) - 1:
        if atomic_load(&t.claimed) or ctx.abort or ctx.implied or (ctx.stop != NULL and ctx.stop[0]):
            end_grow(t)
            return
        if t.lockstep and atomic_load(&t.rotating):
            if hand_on(t, 0):                # (the others park in their turns)
                wait_turn(t, 0)
        else:
            cpu_pause()
    ctx.evictions += t.evictions
    t.evictions = 0
    grow_table(ctx)
    for i in range(t.threads - 1):
        t.helpers[i].table, t.helpers[i].mask = ctx.table, ctx.mask
        t.helpers[i].plays, t.helpers[i].plays_mask = ctx.plays, ctx.plays_mask
    end_grow(t)


cdef void end_grow(Team* t) noexcept nogil:
    """The table has grown (or will not): the parked helpers go on."""
    if t.lockstep:
        lockstep_unpark(t)
    atomic_store(&t.grow, 0)
    if t.lockstep:
        wake(&t.grow)


cdef void check_limits(const Game* g, const State* s, Ctx* ctx) noexcept nogil:
    """Every 1024 nodes of each thread: the limits, growing the table, and the helpers
    joining a search that has run long enough."""
    cdef Team* t = ctx.team
    cdef uint64_t total = ctx.nodes
    cdef int helping
    if t != NULL and t.lockstep and atomic_load(&t.rotating):
        lockstep_tick(ctx)
    if (ctx.nodes & 1023) != 0:
        return                     # (in lockstep, called more often: see set_lockstep)
    helping = t != NULL and atomic_load(&t.helping)
    if helping:
        if ctx == t.main:
            total += atomic_load64(&t.helper_nodes)
        else:
            total = atomic_add64(&t.helper_nodes, ctx.nodes - ctx.reported) + t.main.nodes
            ctx.reported = ctx.nodes
            if ctx.evictions:
                atomic_add64(&t.evictions, ctx.evictions)
                ctx.evictions = 0
    if (ctx.node_limit and total >= ctx.node_limit) or \
            (ctx.deadline > 0 and now() > ctx.deadline) or (ctx.stop != NULL and ctx.stop[0]):
        ctx.abort = 1
        return
    if not helping:
        if ctx.grow_at and ctx.evictions >= ctx.grow_at:
            grow_table(ctx)        # safe here: no caller holds a pointer into the table
        if t != NULL and t.threads > 1 and ctx == t.main and t.s != NULL and ctx.nodes >= t.start_at:
            start_helpers(ctx, ply_of(s))
    else:
        map_slice(ctx)             # (done before a helper parks: the caller may free the table)
        if ctx == t.main:
            if ctx.grow_at and ctx.evictions + atomic_load64(&t.evictions) >= ctx.grow_at:
                grow_with_helpers(ctx)
            map_table(ctx)
        elif atomic_load(&t.grow):
            atomic_add(&t.parked, 1)
            if t.lockstep and atomic_load(&t.rotating):
                lockstep_park(t, thread_index(t, ctx))
            else:
                while atomic_load(&t.grow):
                    cpu_pause()
                atomic_add(&t.parked, -1)
        give_up_finished(g, s, ctx)


cdef void give_up_finished(const Game* g, const State* s, Ctx* ctx) noexcept nogil:
    """Stop searching below a position that another thread has finished meanwhile (a card
    of it cut off there, or every card was searched): what this thread would find there is
    no longer needed.  ``abandon`` makes every node below it return at once, storing
    nothing, and the node above it search it again: the table now answers it."""
    cdef Team* t = ctx.team
    cdef int p, ply = ply_of(s)
    for p in range(t.root_ply, ply):
        if g.tricks - p // MAXSEATS < t.defer_tricks:
            return
        if ctx.path[p] and finished(t, ctx.path[p]):
            ctx.abandon = p + 1
            return


cdef int team_search(const Game* g, const State* s, int alpha, int beta, Ctx* ctx) noexcept nogil:
    """:func:`search` of ``s`` in the window (alpha, beta) on the engine's threads: the
    caller's thread alone at first, the helpers joining once it has run ``help_after``
    nodes.  The answer of the first thread to finish, as search() would return it (a
    limit: ``ctx.abort``)."""
    cdef Team* t = ctx.team
    cdef uint32_t rel[5]
    cdef int v, i, claimed_by_helper
    cdef Ctx* h
    if t == NULL or t.threads <= 1 or s.trick_no >= g.tricks - 1:
        return search(g, s, alpha, beta, ctx, rel)
    t.g, t.s, t.alpha, t.beta = g, s, alpha, beta
    t.root_ply = ply_of(s)
    t.claimed = 0
    t.helping = 0
    t.start_at = ctx.nodes + t.help_after
    ctx.implied = ctx.abandon = 0
    if t.help_after == 0:
        start_helpers(ctx, t.root_ply)
    v = search(g, s, alpha, beta, ctx, rel)
    if not atomic_load(&t.helping):
        t.s = NULL
        return v
    if not ctx.abort and not ctx.implied and not ctx.abandon:
        claim(t, ctx, v)
    for i in range(t.threads - 1):               # stop the helpers (a limit, or the answer)
        atomic_store(&t.helpers[i].implied, 1)
    lockstep_end(t)
    end_grow(t)
    for i in range(t.threads - 1):
        if t.started[i]:
            pthread_join(t.tid[i], NULL)
    claimed_by_helper = t.claimed and ctx.implied
    t.joined += 1
    t.helper_answers += claimed_by_helper
    for i in range(t.threads - 1):
        h = &t.helpers[i]
        ctx.nodes += h.nodes - h.start_nodes
        ctx.evictions += h.evictions
        h.evictions = 0
    ctx.evictions += t.evictions
    t.evictions = 0
    atomic_store(&t.helping, 0)
    t.s = NULL
    ctx.implied = 0
    if not t.claimed:
        ctx.abort = 1              # a limit stopped every thread before one finished
        return 0
    if claimed_by_helper and s == ctx.root:
        ctx.root_best = t.best
    return t.value
