# cython: language_level=3
"""The double-dummy search: alpha-beta with a partition-search table, in C without the GIL.

One engine for every game: a :c:type:`Game` holds the rule parameters (built in
``params.py`` from the readable rules engine) and the search never asks which game
it plays, only what the parameters say.

Cards are codes ``suit * 32 + bit``: suits 0..3, tarock 4; ``bit`` orders cards by
strength inside their suit (``power - 1``), so "higher" is simply a higher bit.
T1..T21 are bits 0..20 of suit 4 and EX is bit 21 (what EX does is a parameter).

One job per file, as in DDS (``docs/search.md`` tells the whole story):

    core.pxi     card codes, the rule parameters (Game), the state of a deal (State)
    tricks.pxi   legal cards, playing a card, counting a trick, the final value
    bounds.pxi   cheap bounds: the points still in play, sure runs of top trumps
    table.pxi    the partition-search transposition table, and a search's context (Ctx:
                 its table, root, counters and what the probes proved of each card)
    moves.pxi    move generation: equivalent cards once, best guesses first
    grow.pxi     the table (and the play memory) growing while a search needs room
    threads.pxi  one search on several threads (ABDADA over the shared table)
    lockstep.pxi those threads taking turns, to measure them as on as many cores
    probe.pxi    the fail-soft search in a window (null-window probes and wider) and the
                 cards that mattered
    driver.pxi   from probes (and windows) to the exact value
"""

from libc.stdint cimport uint64_t, uint32_t, uint16_t, int16_t, uint8_t, int8_t
from libc.stdlib cimport calloc, malloc, free
from libc.string cimport memset, memcmp
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

include "core.pxi"
include "tricks.pxi"
include "bounds.pxi"
include "table.pxi"
include "moves.pxi"
include "grow.pxi"
include "threads.pxi"
include "lockstep.pxi"
include "probe.pxi"
include "driver.pxi"

# -- the Python face -----------------------------------------------------------------------------

cdef int card_code(int code) except -1:
    """``code`` if it names a card (suit * 32 + bit), else ValueError: it indexes arrays."""
    if not 0 <= code < 5 * 32:
        raise ValueError(f"not a card code: {code}")
    return code


cdef void fill_game(Game* g, dict params) except *:
    """The rule parameters of ``params`` (built by params.py) into ``g``, zeroed first."""
    cdef int k, b, seat
    memset(g, 0, sizeof(Game))
    g.kind = params["kind"]; g.seats = params["seats"]; g.tricks = params["tricks"]
    g.excuse = params["excuse"]; g.maxcamp = params["maxcamp"]
    g.trumps_win = params["trumps_win"]; g.overtrump = params["overtrump"]
    g.must_beat = params["must_beat"]; g.pagat_last = params["pagat_last"]
    g.trull = params["trull"]; g.colour_lead = params["colour_lead"]
    g.top_lead = params["top_lead"]; g.called_code = params["called_code"]
    g.narr_last_trick = params["narr_last_trick"]; g.total_points = params["total_points"]
    g.multiplier = params["multiplier"]; g.poignee = params["poignee"]
    g.chelem_announced = params["chelem_announced"]; g.standard = params["standard"]
    g.goal = params["goal"]; g.goal_tricks = params["goal_tricks"]
    g.bird_code = params["bird_code"]; g.bird_trick = params["bird_trick"]
    g.koenig_code = params["koenig_code"]
    for seat in range(g.seats):
        g.camp[seat] = params["camp"][seat]
    for k in range(5):
        g.special[k] = params["special"][k]
        for b in range(32):
            g.points[k][b] = params["points"][k][b]
            g.value_points[k][b] = params["value_points"][k][b]
            g.cls[k][b] = params["cls"][k][b]
            if g.cls[k][b] or (k == TAROCK and b == EXBIT):
                g.honours[k] |= <uint32_t>1 << b
            if g.cls[k][b]:
                g.classed[k] |= <uint32_t>1 << b
    worth_levels(g)
    g.talon_len = len(params["talon_points"])
    for k in range(g.talon_len):
        g.talon_points[k] = params["talon_points"][k]
        g.talon_cards[k] = 1


cdef void fill_state(const Game* g, State* r, dict params) except *:
    """The deal's start of ``params`` (its "state") into ``r``, zeroed first."""
    cdef int k, seat
    memset(r, 0, sizeof(State))
    s = params["state"]
    for seat in range(g.seats):
        for k in range(5):
            r.hand[seat][k] = s["hand"][seat][k]
    r.leader = s["leader"]; r.trick_no = s["trick_no"]; r.trick_len = len(s["trick"])
    for k, (seat, code) in enumerate(s["trick"]):
        r.tseat[k] = seat
        r.tcard[k] = code
    for k in range(2):
        r.acc.pts[k] = s["pts"][k]; r.acc.cards[k] = s["cards"][k]
        r.acc.tricks[k] = s["tricks"][k]; r.acc.bouts[k] = s["bouts"][k]
    r.acc.pab = s["pab"]; r.acc.petit_prev = s["petit_prev"]; r.acc.flags = s["flags"]


cdef class Engine:
    """A search over one position: rule parameters, the root state and a table.

    Built by ``atout.solver`` from a :class:`~atout.position.Position`; every method
    releases the GIL while it searches.
    """
    cdef Game g
    cdef State root
    cdef State origin                   # the root as built, before any play()
    cdef Ctx ctx
    cdef Team team                      # the threads of a search (threads.pxi)
    cdef int stop_flag
    cdef int card_lo[5 * 32]            # what is proven of each card of the root (Ctx.card_lo)
    cdef int card_hi[5 * 32]

    def __cinit__(self, dict params, int tt_mb, int features=FEAT_DEFAULT, int grow_to_mb=0):
        cdef uint64_t buckets = 1, cap = 1
        cdef int k
        cdef Game* g = &self.g
        memset(&self.ctx, 0, sizeof(Ctx))
        memset(&self.team, 0, sizeof(Team))
        self.team.threads = 1
        self.team.main = &self.ctx
        self.ctx.team = &self.team
        self.ctx.share_tricks = 1000         # (one thread: nothing to share)
        self.ctx.check_mask = 1023
        self.stop_flag = 0
        self.ctx.stop = &self.stop_flag
        fill_game(&self.g, params)
        self.ctx.features = features
        self.ctx.window = WINDOW_WIDTH
        self.ctx.window_nodes = window_nodes(g)
        self.ctx.root_best = -1
        self.ctx.root = &self.root
        self.ctx.card_lo, self.ctx.card_hi = self.card_lo, self.card_hi
        self.forget_cards()
        for k in range(128):
            self.ctx.killer[k] = -1
        fill_state(&self.g, &self.root, params)
        self.origin = self.root
        if tt_mb < 1:
            tt_mb = 1
        while buckets * 2 * sizeof(Bucket) <= (<uint64_t>tt_mb) << 20:
            buckets *= 2
        # The table may grow up to grow_to_mb while a search needs room (grow.pxi).
        while cap * 2 * sizeof(Bucket) <= (<uint64_t>(grow_to_mb if grow_to_mb > tt_mb else tt_mb)) << 20:
            cap *= 2
        self.ctx.cap_buckets = cap
        self.ctx.grow_at = buckets * GROW_EVICTIONS if cap > buckets else 0
        # Buckets (a line of tags, then the entries) aligned on a cache line.
        # calloc maps fresh zero pages for a large table: no time spent clearing it.
        self.ctx.raw_table = calloc(buckets * sizeof(Bucket) + 64, 1)
        if self.ctx.raw_table == NULL:
            raise MemoryError(f"cannot allocate a {tt_mb} MB transposition table")
        table_pages(self.ctx.raw_table, buckets * sizeof(Bucket) + 64, 1)
        self.ctx.table = aligned_buckets(self.ctx.raw_table)
        self.ctx.mask = buckets - 1
        # The play memory grows with the table (16 slots a bucket, 1/37 of its bytes):
        # a whole deal's search overwrites a small one before its guesses are used again.
        cdef uint64_t slots = play_slots(buckets)
        self.ctx.raw_plays = calloc(slots, sizeof(uint32_t))
        if self.ctx.raw_plays == NULL:
            raise MemoryError("cannot allocate the play memory")
        self.ctx.plays, self.ctx.plays_mask = <uint32_t*>self.ctx.raw_plays, slots - 1

    cdef int exact(self, const State* s, int guess, int has_guess, int known_lo, int known_hi,
                   int* lo, int* hi) noexcept nogil:
        return exact(&self.g, s, &self.ctx, guess, has_guess, known_lo, known_hi, lo, hi)

    cdef void forget_cards(self):
        for k in range(5 * 32):
            self.card_lo[k] = VALUE_MIN
            self.card_hi[k] = VALUE_MAX

    def __dealloc__(self):
        free(self.ctx.raw_table)
        free(self.ctx.raw_plays)
        self.free_helpers()

    cdef void free_helpers(self):
        free(self.team.helpers)
        free(self.team.tid)
        free(self.team.started)
        free(self.team.busy)
        free(self.team.places)
        self.team.helpers, self.team.tid, self.team.started, self.team.busy = NULL, NULL, NULL, NULL
        self.team.places = NULL

    def set_limits(self, uint64_t node_limit, double seconds):
        """Stop searching after this many nodes / seconds from now (0: no limit)."""
        self.ctx.node_limit = self.ctx.nodes + node_limit if node_limit else 0
        self.ctx.deadline = now() + seconds if seconds > 0 else 0.0
        self.ctx.abort = 0
        self.stop_flag = 0

    def set_window(self, int width, long long after_nodes=-1):
        """The driver's window on a dear walk (for measuring and testing it): one search
        settles ``width`` values (1: null-window probes only) once a probe of the walk has
        cost ``after_nodes`` nodes (-1: the game's own).  Default: 4 values after 2^24
        nodes (priest5: 2^20)."""
        self.ctx.window = width if width > 1 else 1
        self.ctx.window_nodes = window_nodes(&self.g) if after_nodes < 0 else after_nodes

    def search_window(self, int alpha, int beta):
        """(complete, v): the fail-soft search of the root in the window (alpha, beta):
        v >= beta means the value is at least v, v <= alpha at most v, else exactly v."""
        cdef int v
        if not alpha < beta:
            raise ValueError("the window needs alpha < beta")
        self.ctx.root = &self.root
        with nogil:
            v = team_search(&self.g, &self.root, alpha, beta, &self.ctx)
        return not self.ctx.abort, v

    def set_threads(self, int threads, long long help_after=-1, int defer_tricks=-1,
                    int young=-1, int young_tricks=-1, int crowd=-1, int crowd_tricks=-1):
        """Search with this many threads (1 to MAX_THREADS), all on the one table.

        ``help_after``: the nodes a search runs on its own before the other threads join
        it (-1: 2^15 on two threads, 2^14 on four, 2^11 on eight, 2^10 on sixteen: see
        help_after_for); ``defer_tricks``: the nodes with this many tricks
        left or more share out their cards (-1: DEFER_TRICKS); ``young``: a node's first
        this many cards are searched by every thread that comes (-1: two on up to four
        threads, one on more); ``young_tricks``: within this many tricks of a search's root,
        two at least (-1: 0); ``crowd``: a young card is put off all the same when this many
        threads are on it already (-1: CROWD; 0: never), but not within ``crowd_tricks``
        tricks of the root (-1: CROWD_TRICKS).  All are for measuring and testing the
        parallel search (docs/search.md, "Threads")."""
        cdef int i
        if not 1 <= threads <= MAXTHREADS:
            raise ValueError(f"threads must be from 1 to {MAXTHREADS}")
        self.free_helpers()
        self.team.threads = 1
        self.ctx.share_tricks = 1000
        if threads > 1:
            self.team.helpers = <Ctx*>calloc(threads - 1, sizeof(Ctx))
            self.team.tid = <pthread_t*>calloc(threads - 1, sizeof(pthread_t))
            self.team.started = <int*>calloc(threads - 1, sizeof(int))
            self.team.busy = <uint64_t*>calloc(BUSY_SLOTS, sizeof(uint64_t))
            self.team.places = <Place*>calloc(threads, sizeof(Place))
            if self.team.helpers == NULL or self.team.tid == NULL or self.team.started == NULL \
                    or self.team.busy == NULL or self.team.places == NULL:
                self.free_helpers()
                raise MemoryError(f"cannot allocate {threads} threads")
            for i in range(threads - 1):
                for k in range(128):
                    self.team.helpers[i].killer[k] = -1
            self.team.busy_mask = BUSY_SLOTS - 1
            self.team.threads = threads
            self.team.defer_tricks = DEFER_TRICKS if defer_tricks < 0 else defer_tricks
            if young < 0:
                young = YOUNG_BROTHERS if threads <= FEW_THREADS else 1
            self.team.young = max(young, 1)
            self.team.young_tricks = max(young_tricks, 0)
            self.team.crowd = CROWD if crowd < 0 else crowd
            self.team.crowd_tricks = CROWD_TRICKS if crowd_tricks < 0 else crowd_tricks
            self.ctx.share_tricks = self.team.defer_tricks
            # (a table searched on several threads takes huge pages at any size: grow.pxi)
            table_pages(self.ctx.raw_table, (self.ctx.mask + 1) * sizeof(Bucket) + 64, threads)
        self.team.help_after = help_after_for(threads) if help_after < 0 else help_after

    def set_lockstep(self, int turn, unsigned int seed=0):
        """Make the threads take turns of ``turn`` nodes, one thread searching at a time,
        as if each had a core of its own (lockstep.pxi; 0: off, the default).  For
        measuring the parallel search on a machine with fewer cores than threads: the
        node counts of N threads in lockstep are those N equal cores would search, and
        the same run after run.  ``turn``: a power of two from 1 to 1024 (4 at least with a
        seed); ``seed``: not 0, each turn lasts from half to one and a half ``turn`` nodes,
        drawn from it (another order of the same kind).  Exact, like every order of the
        threads; it stays set when the threads change."""
        if turn < 0 or turn > 1024 or turn & (turn - 1):
            raise ValueError("turn must be 0 or a power of two from 1 to 1024")
        if seed and 0 < turn < 4:
            raise ValueError("a turn of 4 nodes at least with a seed")
        self.team.lockstep = turn
        self.team.lockstep_seed = seed if turn else 0
        # (every turn checks its node count 1 time, or with a seed 2 to 6 times a quarter turn)
        self.team.lockstep_every = (turn // 4 if seed else turn) if turn else 1024
        self.ctx.check_mask = self.team.lockstep_every - 1

    @property
    def threads(self):
        return self.team.threads

    def help_after(self):
        """The nodes a search runs on its own before the other threads join it."""
        return self.team.help_after

    def table_mapped(self):
        """Were the table's pages mapped ahead for the threads (threads.pxi, map_table)?"""
        return bool(self.ctx.mapped)

    def helper_nodes(self):
        """The nodes each helper thread has searched so far (for measuring the threads)."""
        return [self.team.helpers[i].nodes for i in range(self.team.threads - 1)]

    def thread_counts(self):
        """(searches the helpers joined, searches a helper answered first), for measuring
        and testing the threads."""
        return self.team.joined, self.team.helper_answers

    def stop(self):
        """Ask a running search to stop (safe from another thread)."""
        self.stop_flag = 1
        self.ctx.abort = 1

    @property
    def nodes(self):
        """The nodes searched so far, by every thread."""
        return self.ctx.nodes

    def table_fill(self):
        """(buckets, entries in use, full buckets): how full the table is."""
        cdef uint64_t b, used = 0, full = 0, n
        cdef int i
        with nogil:
            for b in range(self.ctx.mask + 1):
                n = 0
                for i in range(BUCKET):
                    n += self.ctx.table[b].tag[i] != 0
                used += n
                full += n == BUCKET
        return self.ctx.mask + 1, used, full

    def stats(self):
        """Where the searches of this engine spent their nodes (its calling thread's), by
        tricks left: a dict of lists (table.pxi, ``Stats``); None unless the module was
        built with ATOUT_STATS=1 (setup.py)."""
        IF STATS:
            cdef Stats* st = &self.ctx.stats
            return {"nodes": [list(st.nodes[t]) for t in range(STATS_TRICKS)],
                    "starts": list(st.starts), "by_plain": list(st.by_plain),
                    "by_table": list(st.by_table), "by_sure": list(st.by_sure),
                    "all_nodes": [list(st.all_nodes[t]) for t in range(STATS_TRICKS)],
                    "all_tried": [list(st.all_tried[t]) for t in range(STATS_TRICKS)],
                    "cut_nodes": [list(st.cut_nodes[t]) for t in range(STATS_TRICKS)],
                    "cut_first": [list(st.cut_first[t]) for t in range(STATS_TRICKS)]}
        ELSE:
            return None

    def trace(self):
        """The probes of the last exact value: [(target, bound returned, nodes)]."""
        return [(self.ctx.trace_target[i], self.ctx.trace_value[i], self.ctx.trace_nodes[i])
                for i in range(self.ctx.ntrace)]

    @property
    def stopped(self):
        return bool(self.ctx.abort)

    def to_play(self):
        return to_play(&self.g, &self.root)

    def finished(self):
        return self.root.trick_no == self.g.tricks

    def legal_codes(self):
        """Every legal card code of the seat to play."""
        cdef uint32_t c[5]
        legal(&self.g, &self.root, c)
        return [k * 32 + b for k in range(5) for b in range(32) if (c[k] >> b) & 1]

    def move_codes(self):
        """One code per group of equivalent legal cards, in search order."""
        cdef int mv[MAXMOVES]
        cdef int n = moves(&self.g, &self.root, mv, -1, -1, 0, NULL, NULL)
        return [mv[i] for i in range(n)]

    def groups(self):
        """Legal codes grouped by equivalence: {representative: [codes...]}."""
        cdef uint32_t c[5]
        cdef int mv[MAXMOVES]
        cdef int n = moves(&self.g, &self.root, mv, -1, -1, 0, NULL, NULL)
        legal(&self.g, &self.root, c)
        reps = sorted(mv[i] for i in range(n))
        out = {r: [] for r in reps}
        for code in [k * 32 + b for k in range(5) for b in range(32) if (c[k] >> b) & 1]:
            rep = next(r for r in reps if r >= code and (r >> 5) == (code >> 5))
            out[rep].append(code)
        return out

    def value(self, guess=None, at_least=None, at_most=None):
        """(complete, lo, hi): the exact value when complete, else the proven bounds.
        ``guess``: a value known to be close (the search steps from it); ``at_least`` /
        ``at_most``: bounds already known (they save probes)."""
        cdef int lo = 0, hi = 0, done, has_guess = guess is not None
        cdef int g_ = guess if has_guess else 0
        cdef int klo = VALUE_MIN if at_least is None else at_least
        cdef int khi = VALUE_MAX if at_most is None else at_most
        self.ctx.root = &self.root
        with nogil:
            done = self.exact(&self.root, g_, has_guess, klo, khi, &lo, &hi)
        return bool(done), lo, hi

    def learn(self, int code, int lo, int hi):
        """Tell the engine that the value after ``code`` lies in [lo, hi] (known from
        elsewhere, e.g. an analysis that solved that position already)."""
        narrow_card(&self.ctx, card_code(code), lo, hi)

    def at_least(self, int target):
        """(complete, answer): is the value of the root >= target?"""
        cdef int v
        with nogil:
            v = team_search(&self.g, &self.root, target - 1, target, &self.ctx)
        return not self.ctx.abort, v >= target

    def child_value(self, int code, guess=None, at_least=None, at_most=None):
        """(complete, lo, hi) of the position after the seat to play plays ``code``.
        ``at_least``/``at_most``: bounds already known (they save probes)."""
        cdef State child = self.root
        cdef int lo = 0, hi = 0, done, has_guess = guess is not None
        cdef int g_ = guess if has_guess else 0
        cdef int klo = VALUE_MIN if at_least is None else at_least
        cdef int khi = VALUE_MAX if at_most is None else at_most
        code = card_code(code)
        if self.card_lo[code] > klo:
            klo = self.card_lo[code]
        if self.card_hi[code] < khi:
            khi = self.card_hi[code]
        play(&self.g, &child, code)
        with nogil:
            done = self.exact(&child, g_, has_guess, klo, khi, &lo, &hi)
        narrow_card(&self.ctx, code, lo, hi)
        return bool(done), lo, hi

    def child_at_least(self, int code, int target):
        """(complete, answer): is the value after ``code`` >= target?  Answered without a
        search when an earlier probe already proved it."""
        cdef State child = self.root
        cdef int v
        code = card_code(code)
        if self.card_lo[code] >= target:
            return True, True
        if self.card_hi[code] < target:
            return True, False
        play(&self.g, &child, code)
        with nogil:
            v = team_search(&self.g, &child, target - 1, target, &self.ctx)
        if self.ctx.abort:
            return False, False
        note_root_card(&self.ctx, code, v, target - 1, target)
        return True, v >= target

    def card_bounds(self, int code):
        """(lo, hi): what the probes so far proved of the value after ``code`` (VALUE_MIN
        and VALUE_MAX where nothing is known)."""
        code = card_code(code)
        return self.card_lo[code], self.card_hi[code]

    def best_guess(self):
        """What a stopped search can still offer: the card with the best bound the probes
        at the root proved (a card proven to reach the target when one did), else the
        card the search would try first."""
        cdef int mv[MAXMOVES]
        if 0 <= self.ctx.root_best < 255:
            return self.ctx.root_best
        if moves(&self.g, &self.root, mv, -1, -1, 0, NULL, NULL) > 0:
            return mv[0]
        return None

    def child_bounds(self, int code):
        """What is known of the value after ``code``: (lo, hi) from the cheap bounds and
        from every probe of it so far."""
        cdef State child = self.root
        cdef int lo = 0, hi = 0
        code = card_code(code)
        play(&self.g, &child, code)
        value_range(&self.g, &child, self.ctx.features, self.card_lo[code], self.card_hi[code],
                    &lo, &hi)
        return lo, hi

    def rewind(self):
        """Back to the position the engine was built at (the table stays warm)."""
        self.root = self.origin
        self.ctx.root_best = -1
        self.forget_cards()

    def rebase(self, dict params):
        """Start again at another deal of the same game (``params`` as for the engine:
        :func:`atout.solver.params.engine_params`), keeping the table and the play memory
        warm.  Sound because an entry says nothing of how its position was reached: its
        key holds the cards still live and what the value needs of what was won so far,
        and its bound is net of that past (docs/search.md, "One table for many deals").
        The game's rule parameters must be the very same (ValueError otherwise): the
        entries' values are the game's values.  The contract table searches a garde's
        écarts so, one after the other on one table."""
        cdef Game other
        fill_game(&other, params)
        if memcmp(&other, &self.g, sizeof(Game)) != 0:
            raise ValueError("rebase needs the same game: its rule parameters differ")
        fill_state(&self.g, &self.origin, params)
        self.root = self.origin
        self.ctx.root_best = -1
        self.forget_cards()
        # The play memory's guesses are a seat's answers with its own hand, whatever the
        # others hold; another deal's answers misled the search (a garde's écarts on one
        # engine: 2-3x the nodes, docs/search-log.md), so they are left behind: its keys
        # change, at no cost, where clearing it would cost a pass over its 4-64 MB.
        self.ctx.plays_salt = mix(self.ctx.plays_salt + 0x9e3779b97f4a7c15ULL)

    def play(self, int code):
        """Play ``code`` at the root (the table stays warm for the next search)."""
        play(&self.g, &self.root, code)
        self.ctx.root_best = -1
        self.forget_cards()

    def bounds(self):
        """The cheap (lo, hi) bounds of the root."""
        cdef int lo = 0, hi = 0
        value_range(&self.g, &self.root, self.ctx.features, VALUE_MIN, VALUE_MAX, &lo, &hi)
        return lo, hi

    def bound_pattern(self):
        """At a trick start: the cheap (lo, hi) bounds and the cards a table entry proven
        by them would fix (five suit masks; the owners of every other card may change as
        the pattern allows, and the bounds must still hold).  For testing the bounds'
        relevant cards."""
        cdef int lo = 0, hi = 0
        cdef uint32_t used[5]
        cdef Key key
        bounds(&self.g, &self.root, &lo, &hi, used, self.ctx.features)
        make_key(&self.g, &self.root, &key)
        kvec_of(&self.ctx, &key, used)
        return lo, hi, [used[k] for k in range(5)]

    def search_pattern(self, int target):
        """At a trick start: one probe "is the value >= target?" on this engine's table,
        its fail-soft bound and the cards the table entry it stores at the root fixes (as
        :meth:`bound_pattern`).  For testing the search's relevant cards: the bound must
        hold in every position the pattern covers."""
        cdef uint32_t rel[5]
        cdef Key key
        cdef int v
        if self.root.trick_len != 0:
            raise ValueError("search_pattern needs a trick start")
        with nogil:
            v = probe(&self.g, &self.root, target, &self.ctx, rel)
        if self.ctx.abort:
            raise RuntimeError("search_pattern was stopped")
        make_key(&self.g, &self.root, &key)
        kvec_of(&self.ctx, &key, rel)
        return v, [rel[k] for k in range(5)]

    def final_value(self):
        return final_value(&self.g, &self.root.acc)

    def maximizing(self):
        return self.g.camp[to_play(&self.g, &self.root)] == self.g.maxcamp


#: the techniques that can be switched off (``Engine(..., features=...)``), by name
FEATURES = {"partition": FEAT_PARTITION, "sure": FEAT_SURE, "killer": FEAT_KILLER,
            "small": FEAT_SMALL, "points": FEAT_POINTS, "guess": FEAT_GUESS,
            "memory": FEAT_MEMORY}
ALL_FEATURES = FEAT_ALL
#: for tests only: a pattern that forgets trick winners (too general, so wrong)
LOOSE_FOR_TESTS = FEAT_LOOSE
#: for tests only: the table's past counted from the search's root, not from the deal's
#: start (sound for one deal, not across Engine.rebase to a deal with another past)
PAST_FROM_ROOT_FOR_TESTS = FEAT_PAST_FROM_ROOT
#: the most threads one search may use (Engine.set_threads)
MAX_THREADS = MAXTHREADS
#: what the engine uses unless told otherwise: the cut-off memory measured worse on the
#: French sets (docs/search.md), so it stays off
DEFAULT_FEATURES = FEAT_DEFAULT
