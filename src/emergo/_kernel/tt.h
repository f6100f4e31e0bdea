/* Transposition table: Zobrist key -> value, bound, depth, best-move id (lockless, shareable).
 *
 * A bucket holds two 16-byte entries: slot 0 is depth-preferred (kept unless
 * the new entry searched at least as deep, or slot 0 is from an older search),
 * slot 1 is always replaced.  An entry is two 64-bit words, (key ^ data, data):
 * a reader recomputes key ^ data and accepts the entry only if it gives its
 * key, so a torn write by another thread reads as a miss, never as a wrong hit
 * (Hyatt's lockless hashing).  Words are read and written with relaxed atomics,
 * so several search threads may share one table without locks; a wrong move
 * id can still only cost move ordering, because the search plays the id only
 * when it matches a generated legal move.
 *
 * Win/loss values are stored relative to the node (distance from it), not to
 * the root: tt_value_to/from adjust them by the ply.
 */
#ifndef EMERGO_TT_H
#define EMERGO_TT_H

#include <stddef.h>
#include <stdint.h>

#include "position.h"

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

typedef struct tt_entry {
    uint64_t check; /* key ^ data */
    uint64_t data;  /* value:32 | move:16 | depth:8 | bound:2 | generation:6 */
} tt_entry_t;

typedef struct tt {
    tt_entry_t *table; /* nbuckets * 2 entries */
    size_t nbuckets;   /* a power of two */
    uint8_t generation;
} tt_t;

typedef struct tt_hit {
    int value, depth, bound;
    uint16_t move;
} tt_hit_t;

/* Allocate about mb megabytes (at least one bucket); -1 out of memory. */
int tt_init(tt_t *t, size_t mb);
void tt_free(tt_t *t);
void tt_clear(tt_t *t);
void tt_new_search(tt_t *t);
int tt_probe(const tt_t *t, uint64_t key, tt_hit_t *hit); /* 1 on a hit */
void tt_store(tt_t *t, uint64_t key, int value, int depth, int bound, uint16_t move);
/* Start loading the bucket of key into the cache (the probe follows soon). */
static inline void tt_prefetch(const tt_t *t, uint64_t key)
{
    __builtin_prefetch(&t->table[(key & (t->nbuckets - 1)) * 2]);
}
/* Per mille of the first 1000 buckets' entries written in this search. */
int tt_hashfull(const tt_t *t);

/* A 16-bit id of a move (0: none): entries and steps by squares, captures by a hash of the route. */
uint16_t move_id(const move_t *m);

#endif
