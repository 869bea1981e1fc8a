# A table that grows, and the play memory with it.
#
# The size a search needs shows only as it runs: a whole deal's 12-trick probe outgrows
# 256 MB, while a short search pays the page faults of a big table for nothing
# (docs/search.md, "Memory").  So a table starts at the size its position's cards suggest
# and grows, four times at a step up to its cap, once it has given up a quarter of its
# capacity's worth of entries for want of room.  Every entry is placed again: its coarse
# key is its check word XOR the seal of its other words.
DEF GROW_EVICTIONS = 16          # evictions per bucket before the table grows


# The table on huge pages (2 MB) where that pays.  Each search starts on a fresh table,
# mapped lazily: a bucket first read maps the kernel's shared zero page, and its first write
# replaces that mapping, which on several threads interrupts every CPU they run on to flush
# it (a TLB shootdown) - per 4 KB page, a million times over a 4 GB table.  On huge pages
# that happens once per 2 MB, and the random reads of the table miss the TLB far less.  Six
# 12-trick fr4 positions on two threads: 0.72x the time (the kernel's share of it from 2.0 s
# to 0.44 s); on one thread 0.92x (docs/search.md, "Memory").  But a huge page is cleared
# whole at its first touch, and a whole deal's 4 GB table on one thread is touched sparsely:
# there 1.34x the time (2.4 GB cleared instead of 1.2 GB).  So: tables up to 1 GB, and any
# table searched on several threads.  ATOUT_HUGE_PAGES=0 never (1: always), for measuring
# and for a machine whose memory is too fragmented for huge pages (the kernel then falls
# back to small pages anyway).
DEF HUGE_MAX_BYTES = (1 << 30) + 64

cdef extern from *:
    """
    #include <stdint.h>
    #include <stdlib.h>
    #include <sys/mman.h>
    #ifndef MADV_HUGEPAGE
    #define MADV_HUGEPAGE 14
    #endif
    /* Ask for huge pages on the whole pages of [p, p + bytes) (advice: errors ignored). */
    static inline void atout_advise_huge(const void* p, size_t bytes) {
        uintptr_t start = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
        uintptr_t end = ((uintptr_t)p + bytes) & ~(uintptr_t)4095;
        if (end > start)
            madvise((void*)start, end - start, MADV_HUGEPAGE);
    }
    /* ATOUT_HUGE_PAGES: 0 never, 1 always, -1 (unset or anything else) by the rule. */
    static inline int atout_huge_setting(void) {
        const char* env = getenv("ATOUT_HUGE_PAGES");
        return env && env[0] == '0' && !env[1] ? 0 : env && env[0] == '1' && !env[1] ? 1 : -1;
    }
    """
    void advise_huge "atout_advise_huge" (const void* p, size_t bytes) nogil
    int huge_setting "atout_huge_setting" () nogil


cdef inline void table_pages(void* raw, size_t bytes, int threads) noexcept nogil:
    """Huge pages for a table allocation of ``bytes`` searched on ``threads`` threads,
    where they pay (above)."""
    cdef int setting = huge_setting()
    if setting == 1 or (setting == -1 and (bytes <= HUGE_MAX_BYTES or threads > 1)):
        advise_huge(raw, bytes)


cdef inline Bucket* aligned_buckets(void* raw) noexcept nogil:
    """Buckets aligned on a cache line inside an allocation 64 bytes larger."""
    return <Bucket*>((<size_t>raw + 63) & ~(<size_t>63))


cdef inline uint64_t play_slots(uint64_t buckets) noexcept nogil:
    """The play memory beside a table of ``buckets``: 16 slots a bucket, 2^20 at least (a
    whole deal's search overwrote 2^20 before their guesses came back: docs/search.md)."""
    cdef uint64_t slots = PLAY_SLOTS
    while slots < 16 * buckets:
        slots *= 2
    return slots


cdef void grow_table(Ctx* ctx) noexcept nogil:
    """Four times the buckets (at most ``cap_buckets``), every entry placed again, and the
    play memory grown with them (each old slot copied to every slot its keys now reach).
    Called only where no thread but this one uses the table.  Without the memory to
    grow into, the table stays as it is and stops trying."""
    cdef uint64_t old_n = ctx.mask + 1, n = old_n * 4, b, coarse, m, slots, k
    cdef uint64_t old_slots = ctx.plays_mask + 1
    cdef Bucket* table
    cdef Bucket* ob
    cdef Bucket* nb
    cdef const Entry* e
    cdef uint32_t* plays = ctx.plays
    cdef void* raw
    cdef void* raw_plays = NULL
    cdef int i, j
    if n > ctx.cap_buckets:
        n = ctx.cap_buckets
    ctx.grow_at = 0
    if n <= old_n:
        return
    raw = calloc(n * sizeof(Bucket) + 64, 1)
    slots = play_slots(n)
    if raw != NULL and slots > old_slots:
        raw_plays = malloc(slots * sizeof(uint32_t))
        if raw_plays == NULL:
            free(raw)
            raw = NULL
    if raw == NULL:
        return
    table_pages(raw, n * sizeof(Bucket) + 64, ctx.team.threads if ctx.team != NULL else 1)
    table = aligned_buckets(raw)
    for b in range(old_n):
        ob = ctx.table + b
        for i in range(BUCKET):
            if ob.tag[i] == 0:
                continue
            e = &ob.e[i]
            coarse = e.check ^ seal(e)
            nb = table + (coarse & (n - 1))
            m = tag_matches(nb.tag, 0)
            if m == 0:
                continue                 # (a full bucket: the entry is given up)
            j = __builtin_ctzll(m)
            nb.e[j] = e[0]
            nb.depth[j] = ob.depth[i]
            nb.tag[j] = ob.tag[i]
    free(ctx.raw_table)
    ctx.raw_table, ctx.table, ctx.mask = raw, table, n - 1
    ctx.mapped = 0                       # (new pages: see threads.pxi, map_table)
    if raw_plays != NULL:
        plays = <uint32_t*>raw_plays
        for k in range(slots):           # a key reaching slot k reached k mod old_slots before
            plays[k] = ctx.plays[k & (old_slots - 1)]
        free(ctx.raw_plays)
        ctx.raw_plays, ctx.plays, ctx.plays_mask = raw_plays, plays, slots - 1
    ctx.evictions = 0
    ctx.grow_at = n * GROW_EVICTIONS if n < ctx.cap_buckets else 0
