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
 *
 * Clearing is O(1), by generation: every search starts a generation, and an
 * entry counts only if written in one of the `live` generations since the
 * last clear (older ones read as empty: no hit, free for any store).  A
 * clear starts a new generation with nothing live and changes the salt that
 * every check word is XORed with, so an entry from before it can never hit
 * even after the 14-bit generations wrap.  Nothing walks the table: the
 * allocation is calloc's (pages come zeroed when first touched), so a large
 * table costs nothing until used and a new game does not touch every page.
 */
#ifndef EMERGO_TT_H
#define EMERGO_TT_H

#include <stddef.h>
#include <stdint.h>

#include "position.h"

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

typedef struct tt_entry {
    uint64_t check; /* key ^ data ^ salt */
    uint64_t data;  /* value:24 | move:16 | depth:8 | bound:2 | generation:14 (0: empty) */
} tt_entry_t;

typedef struct tt {
    tt_entry_t *table;   /* nbuckets * 2 entries */
    size_t nbuckets;     /* a power of two */
    uint32_t generation; /* of the current search */
    uint32_t live;       /* generations that count: the current one and live - 1 before it */
    uint64_t salt, salt_state;
} tt_t;

typedef struct tt_hit {
    int value, depth, bound;
    uint16_t move;
} tt_hit_t;

/* Allocate about mb megabytes (at least one bucket); -1 out of memory. */
int tt_init(tt_t *t, size_t mb);
void tt_free(tt_t *t);
void tt_clear(tt_t *t); /* O(1): forget every entry */
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
