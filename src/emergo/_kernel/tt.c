/* Transposition table: two-slot buckets, lockless XOR entries (see tt.h). */
#include "tt.h"

#include "rng.h"

#include <stdlib.h>
#include <string.h>

#define GEN_BITS 14
#define GEN_MASK ((1u << GEN_BITS) - 1)

static inline uint64_t load(const uint64_t *w) { return __atomic_load_n(w, __ATOMIC_RELAXED); }
static inline void store(uint64_t *w, uint64_t v) { __atomic_store_n(w, v, __ATOMIC_RELAXED); }

/* Values stay far inside 24 bits (|v| <= S_WIN + a ply count, about 2^20). */
static inline uint64_t pack(int value, int depth, int bound, uint16_t move, uint32_t gen)
{
    return ((uint64_t)(uint32_t)value & 0xffffff) | (uint64_t)move << 24 |
           (uint64_t)(uint8_t)depth << 40 | (uint64_t)(bound & 3) << 48 |
           (uint64_t)(gen & GEN_MASK) << 50;
}

static inline int d_value(uint64_t d) { return (int)((int32_t)((uint32_t)d << 8) >> 8); }
static inline uint16_t d_move(uint64_t d) { return (uint16_t)(d >> 24); }
static inline int d_depth(uint64_t d) { return (int)(uint8_t)(d >> 40); }
static inline int d_bound(uint64_t d) { return (int)((d >> 48) & 3); }
static inline uint32_t d_gen(uint64_t d) { return (uint32_t)(d >> 50); }

/* Written since the last clear?  (A stored entry's bound is never 0, so data is never 0.) */
static inline int live(const tt_t *t, uint64_t d)
{
    return d && ((t->generation - d_gen(d)) & GEN_MASK) < t->live;
}

int tt_init(tt_t *t, size_t mb)
{
    size_t bytes = mb << 20, n = 1;
    while (n * 2 * 2 * sizeof(tt_entry_t) <= bytes)
        n *= 2;
    t->table = calloc(n * 2, sizeof(tt_entry_t)); /* zero pages on first touch, not now */
    if (!t->table)
        return -1;
    t->nbuckets = n;
    t->generation = 0;
    t->live = 1;
    t->salt_state = 0x7474656d6572676fULL;
    t->salt = 0;
    return 0;
}

void tt_free(tt_t *t)
{
    free(t->table);
    t->table = NULL;
    t->nbuckets = 0;
}

void tt_clear(tt_t *t)
{
    t->generation = (t->generation + 1) & GEN_MASK;
    t->live = 1;
    t->salt = splitmix64(&t->salt_state);
}

void tt_new_search(tt_t *t)
{
    t->generation = (t->generation + 1) & GEN_MASK;
    if (t->live <= GEN_MASK)
        t->live++;
}

static inline tt_entry_t *bucket(const tt_t *t, uint64_t key)
{
    return &t->table[(key & (t->nbuckets - 1)) * 2];
}

int tt_probe(const tt_t *t, uint64_t key, tt_hit_t *hit)
{
    tt_entry_t *b = bucket(t, key);
    for (int i = 0; i < 2; i++) {
        uint64_t data = load(&b[i].data), check = load(&b[i].check);
        if (live(t, data) && (check ^ data ^ t->salt) == key) {
            hit->value = d_value(data);
            hit->depth = d_depth(data);
            hit->bound = d_bound(data);
            hit->move = d_move(data);
            return 1;
        }
    }
    return 0;
}

static inline void write(const tt_t *t, tt_entry_t *e, uint64_t key, uint64_t data)
{
    store(&e->data, data);
    store(&e->check, key ^ data ^ t->salt);
}

void tt_store(tt_t *t, uint64_t key, int value, int depth, int bound, uint16_t move)
{
    tt_entry_t *b = bucket(t, key);
    uint32_t gen = t->generation;
    if (depth < 0)
        depth = 0;
    if (depth > 255)
        depth = 255;
    uint64_t d0 = load(&b[0].data), k0 = load(&b[0].check) ^ d0 ^ t->salt;
    uint64_t d1 = load(&b[1].data), k1 = load(&b[1].check) ^ d1 ^ t->salt;
    if (!live(t, d0)) /* from before the last clear: empty */
        d0 = 0;
    if (!live(t, d1))
        d1 = 0;
    /* Keep the best move of the position when this search found none. */
    if (!move) {
        if (d0 && k0 == key)
            move = d_move(d0);
        else if (d1 && k1 == key)
            move = d_move(d1);
    }
    uint64_t data = pack(value, depth, bound, move, gen);
    if (!d0 || k0 == key || depth >= d_depth(d0) || d_gen(d0) != gen) {
        /* The new entry takes the depth-preferred slot; the one it displaces,
         * if about another position, moves to the always-replace slot. */
        if (d0 && k0 != key)
            write(t, &b[1], k0, d0);
        else if (d1 && k1 == key)
            store(&b[1].data, 0);
        if (d0 && k0 == key && depth < d_depth(d0) && d_gen(d0) == gen && bound != TT_EXACT)
            return; /* a deeper result of the same position stays */
        write(t, &b[0], key, data);
    } else {
        write(t, &b[1], key, data);
    }
}

int tt_hashfull(const tt_t *t)
{
    size_t n = t->nbuckets * 2 < 1000 ? t->nbuckets * 2 : 1000, used = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t d = load(&t->table[i].data);
        used += live(t, d) && d_gen(d) == t->generation;
    }
    return (int)(used * 1000 / (n ? n : 1));
}

uint16_t move_id(const move_t *m)
{
    if (m->kind == MK_ENTER)
        return (uint16_t)(1 + m->path[0]);
    if (m->kind == MK_STEP)
        return (uint16_t)(0x4000 | m->path[0] << 7 | m->path[1]);
    uint32_t h = 2166136261u; /* FNV-1a of the route */
    for (int i = 0; i < m->len; i++)
        h = (h ^ m->path[i]) * 16777619u;
    return (uint16_t)(0x8000 | ((h ^ (h >> 15)) & 0x7fff));
}
