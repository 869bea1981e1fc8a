# The search's vocabulary: card codes, the rule parameters of a game, the state of a deal.
# Included by _search.pyx (one compiled module: the C compiler inlines across these files).

DEF MAXSEATS = 5
DEF MAXMOVES = 32
DEF EXBIT = 21
DEF TAROCK = 4
DEF EXCODE = 4 * 32 + 21
DEF PETITCODE = 4 * 32 + 0
DEF T21CODE = 4 * 32 + 20

# games and their final values
DEF KIND_FRENCH = 0
DEF KIND_PRIEST = 1
DEF KIND_AT4 = 2
DEF KIND_TRISCHAKEN = 3
# what EX is
DEF EX_FRENCH = 0
DEF EX_NARR = 1
DEF EX_SKUS = 2
# at4 goals
DEF GOAL_POINTS = 0
DEF GOAL_NEGATIVE = 1
DEF GOAL_BIRD_GAME = 2
DEF GOAL_VOLAT = 3
DEF GOAL_ULTIMO = 4
DEF GOAL_KOENIG = 5

# techniques that can be switched off, to measure them (docs/search.md) and to check
# the search against its plain self (tests/test_plain.py)
DEF FEAT_PARTITION = 1           # patterns instead of exact positions
DEF FEAT_SURE = 2                # sure tricks of top trumps in the bounds
DEF FEAT_KILLER = 4              # a cut-off memory per depth in the move ordering
DEF FEAT_SMALL = 8                # plain cards shown rank-irrelevant searched once
DEF FEAT_POINTS = 16              # the last card of a trick: one card of a run, by points
DEF FEAT_GUESS = 64               # no guess given: start from the value of a quick playout
DEF FEAT_MEMORY = 128             # first the card that last answered with the same hand
DEF FEAT_ALL = 31 | FEAT_GUESS | FEAT_MEMORY
# A deliberately wrong pattern (trick winners forgotten), only for the test that shows a
# too-general pattern is caught: never part of FEAT_ALL.
DEF FEAT_LOOSE = 32
# A deliberately wrong table for deals taken one after the other on one engine
# (Engine.rebase): what was won counted from the search's root instead of from the deal's
# start, which is sound within one deal but not across deals whose pasts differ (a garde's
# écarts, whose points count for the taker) — only for the test that shows it is caught.
DEF FEAT_PAST_FROM_ROOT = 256
DEF FEAT_DEFAULT = FEAT_PARTITION | FEAT_SURE | FEAT_SMALL | FEAT_POINTS | FEAT_GUESS | FEAT_MEMORY

DEF FLAG_BIRD = 1
DEF FLAG_KOENIG = 2

# Near the end a search is cheaper than a cache miss: no table with fewer tricks left.
DEF TT_MIN_TRICKS = 2
DEF VALUE_MIN = -30000
DEF VALUE_MAX = 30000


cdef struct Game:
    int kind, seats, tricks, excuse
    int camp[MAXSEATS]
    int maxcamp
    int points[5][32]
    uint32_t special[5]          # cards never merged with a neighbour
    int trumps_win, overtrump, must_beat, pagat_last, trull, colour_lead, top_lead
    int called_code              # fr5 first-trick rule, -1 if none
    int narr_last_trick
    int total_points             # all card points of the pack (fr: half points)
    # French scoring
    int multiplier, poignee, chelem_announced
    # at4 scoring
    int standard, goal, goal_tricks, bird_code, bird_trick, koenig_code
    int talon_points[6]
    int talon_cards[6]
    int talon_len
    # What tells two cards apart for the search: the points that reach the value (0
    # everywhere when the value does not count points, e.g. at4 negative games) and a
    # class per card: 0 for the plain cards (the commonest point value, not special) that
    # a table pattern may swap for each other, a unique class for every other card.
    int value_points[5][32]
    uint8_t cls[5][32]
    uint32_t honours[5]          # the cards that are not plain, and EX
    uint32_t classed[5]          # the cards with a class of their own (cls != 0)
    # bounds.pxi: the honours worth more than the least card (fr: not the Excuse), by
    # worth, highest first: level_mask[i] holds the cards worth level_worth[i]; counted
    # holds all of them
    int nlevels
    int level_worth[16]
    uint32_t level_mask[16][5]
    uint32_t counted[5]


cdef struct Acc:                 # what each camp has won so far
    int pts[2]
    int cards[2]
    int tricks[2]
    int bouts[2]
    int pab                      # petit au bout: +1 camp 0, -1 camp 1, 0 none
    int petit_prev               # fr slam case: camp (+1/-1) that won T1 in the trick before last
    int flags                    # at4: FLAG_BIRD, FLAG_KOENIG


cdef struct State:
    uint32_t hand[MAXSEATS][5]
    int leader, trick_len, trick_no
    int tcard[MAXSEATS]
    int tseat[MAXSEATS]
    Acc acc
    uint64_t mark                # the cards played since the search's root (threads.pxi)

# -- small helpers -------------------------------------------------------------------------

cdef inline int popcount(uint32_t x) noexcept nogil:
    return __builtin_popcount(x)

cdef inline int top_bit(uint32_t x) noexcept nogil:
    return 31 - __builtin_clz(x)

cdef inline int low_bit(uint32_t x) noexcept nogil:
    return __builtin_ctz(x)

cdef extern from *:
    void __builtin_prefetch(const void*) nogil
    int __builtin_popcount(unsigned int) nogil
    int __builtin_clz(unsigned int) nogil
    int __builtin_ctz(unsigned int) nogil

cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9

cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    # splitmix64 finaliser: spreads the bits of the accumulator into a hash
    x ^= x >> 30
    x *= 0xbf58476d1ce4e5b9ULL
    x ^= x >> 27
    x *= 0x94d049bb133111ebULL
    x ^= x >> 31
    return x

cdef inline int to_play(const Game* g, const State* s) noexcept nogil:
    return (s.leader + s.trick_len) % g.seats

cdef inline int never_wins(const Game* g, int code) noexcept nogil:
    return code == EXCODE and g.excuse != EX_SKUS

