# Lockstep: the threads of one search advancing as they would on as many cores, on any
# machine — for measuring the parallel search (Engine.set_lockstep; docs/search.md, "Threads").
#
# Sixteen threads on two cores are time-sliced: each runs for milliseconds (thousands of
# nodes) while the others stand still, so they search one after the other more than side
# by side, and find each other's answers in the table where on sixteen cores they would
# still be searching them.  Their node overhead on two cores was 1.2x where sixteen real
# cores showed 2.3-3x.  In lockstep the threads take turns: one thread runs at a time, for
# a turn of ``turn`` nodes, and then hands the turn to the next thread still in the search,
# round and round — so that every thread has searched the same nodes, give or take a turn,
# at every moment, as on N equal cores.  Short turns are closer to true concurrency and
# cost more hand-overs (a hand-over is a futex wake and wait: a few microseconds).
#
# One thread runs at a time, and what it does depends only on the nodes searched so far:
# a search in lockstep gives the same node counts run after run, on any machine (time
# limits and Ctrl-C aside).  With a ``seed``, each turn lasts from half to one and a half
# ``turn`` nodes, drawn from the seed: another order of the same kind, for the spread that
# real cores show from run to run.
#
# Who is in the turn: the threads inside the search.  The caller alone before its helpers
# join, a helper that has finished or was stopped, a helper parked while the table grows:
# out.  Only the thread holding the turn changes who is in (every other thread in waits for
# the turn), so the round needs no lock.  When the search is answered or stopped, the
# lockstep ends and every thread runs free to its end (it searches nothing more).

DEF OUT = 0                      # a thread's place: not in the search (or not started)
DEF IN = 1                       # in the search, searching when it holds the turn
DEF PARKED = 2                   # waiting while the table grows (threads.pxi)

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__linux__)
    #include <linux/futex.h>
    #include <sys/syscall.h>
    #include <unistd.h>
    /* Sleep while *p == v (a futex: woken by atout_wake, or at once if *p != v). */
    static inline void atout_sleep_while(int* p, int v) {
        syscall(SYS_futex, p, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
    }
    static inline void atout_wake(int* p) {
        syscall(SYS_futex, p, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
    }
    #else
    #include <sched.h>
    static inline void atout_sleep_while(int* p, int v) {
        if (__atomic_load_n(p, __ATOMIC_ACQUIRE) == v)
            sched_yield();
    }
    static inline void atout_wake(int* p) { (void)p; }
    #endif
    /* The word's value, and 0 left in it. */
    static inline int atout_take(int* p) { return __atomic_exchange_n(p, 0, __ATOMIC_ACQ_REL); }
    """
    void sleep_while "atout_sleep_while" (int* p, int v) nogil
    void wake "atout_wake" (int* p) nogil
    int take "atout_take" (int* p) nogil


cdef struct Place:               # a thread's place in the round (a cache line each)
    int go                       # 1: its turn (the futex word it sleeps on)
    int state                    # OUT, IN or PARKED
    uint32_t rng                 # its turns' lengths (with a seed)
    int turn_left                # the checks of its node count left in its turn
    int pad[12]


cdef inline int thread_index(const Team* t, const Ctx* ctx) noexcept nogil:
    """0 for the caller, 1 + i for helper i."""
    return 0 if ctx == t.main else 1 + <int>(ctx - t.helpers)


cdef inline int turn_checks(Team* t, Place* p) noexcept nogil:
    """How many checks of a thread's node count (every ``t.lockstep_every`` nodes) its
    next turn lasts: ``turn`` nodes, or with a seed 2 to 6 quarters of it."""
    cdef uint32_t x
    if not t.lockstep_seed:
        return 1
    x = p.rng                    # xorshift32
    x ^= x << 13
    x ^= x >> 17
    x ^= x << 5
    p.rng = x
    return 2 + <int>(x % 5)


cdef void lockstep_begin(Team* t) noexcept nogil:
    """start_helpers, before the helpers are started: the caller holds the turn and every
    helper is in (a helper that cannot be started is taken out: lockstep_leave)."""
    cdef int i
    for i in range(t.threads):
        t.places[i].go = 0
        t.places[i].state = IN
        t.places[i].rng = (t.lockstep_seed * 0x9e3779b9u) ^ (<uint32_t>(i + 1) * 0x85ebca6bu) | 1
        t.places[i].turn_left = turn_checks(t, &t.places[i])
    atomic_store(&t.rotating, 1)


cdef int hand_on(Team* t, int i) noexcept nogil:
    """Thread ``i``, holding the turn, gives it to the next thread in, if there is one
    (then 1)."""
    cdef int k, j
    for k in range(1, t.threads):
        j = (i + k) % t.threads
        if t.places[j].state == IN:
            atomic_store(&t.places[j].go, 1)
            wake(&t.places[j].go)
            return 1
    return 0


cdef void wait_turn(Team* t, int i) noexcept nogil:
    """Thread ``i`` waits for its turn (or for the lockstep to end)."""
    while not take(&t.places[i].go):
        if not atomic_load(&t.rotating):
            return
        sleep_while(&t.places[i].go, 0)
    t.places[i].turn_left = turn_checks(t, &t.places[i])


cdef inline void lockstep_tick(Ctx* ctx) noexcept nogil:
    """check_limits, in lockstep: one check more of this thread's turn; at its end the
    turn goes to the next thread, and this one waits for its next."""
    cdef Team* t = ctx.team
    cdef int i = thread_index(t, ctx)
    t.places[i].turn_left -= 1
    if t.places[i].turn_left <= 0:
        if hand_on(t, i):
            wait_turn(t, i)
        else:
            t.places[i].turn_left = turn_checks(t, &t.places[i])


cdef void lockstep_leave(Team* t, int i) noexcept nogil:
    """Thread ``i`` is out of the search (finished, stopped, or never started); holding the
    turn, it hands it on."""
    t.places[i].state = OUT
    if atomic_load(&t.rotating):
        hand_on(t, i)


cdef void lockstep_end(Team* t) noexcept nogil:
    """The search is answered or stopped: every thread runs free to its end."""
    cdef int i
    if not t.lockstep or not atomic_load(&t.rotating):
        return
    atomic_store(&t.rotating, 0)
    for i in range(t.threads):
        atomic_store(&t.places[i].go, 1)
        wake(&t.places[i].go)


cdef void lockstep_park(Team* t, int i) noexcept nogil:
    """Helper ``i``, holding the turn, waits while the table grows: out of the round until
    the caller, done growing, puts it back in (lockstep_unpark); then it waits for its turn."""
    t.places[i].state = PARKED
    hand_on(t, i)
    while atomic_load(&t.grow):
        sleep_while(&t.grow, 1)
    atomic_add(&t.parked, -1)
    wait_turn(t, i)


cdef void lockstep_unpark(Team* t) noexcept nogil:
    """The caller, done growing the table (or giving it up): the parked helpers back in the
    round (before ``grow`` is cleared: they wait for their turn from then on)."""
    cdef int i
    for i in range(1, t.threads):
        if t.places[i].state == PARKED:
            t.places[i].state = IN
