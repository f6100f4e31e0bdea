/* The kernel's random numbers: splitmix64 (Zobrist keys, seeding) and xoshiro256** (playouts). */
#ifndef EMERGO_RNG_H
#define EMERGO_RNG_H

#include <stddef.h>
#include <stdint.h>

/* splitmix64 (Vigna): the next number of the sequence whose state is *s. */
static inline uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

typedef struct rng {
    uint64_t s[4];
} rng_t;

/* xoshiro256** seeded by splitmix64 from seed (as its authors advise). */
static inline void rng_seed(rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(rng_t *r) /* xoshiro256** */
{
    uint64_t *s = r->s;
    uint64_t result = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

/* Uniform in [0, n): the high word of a 64x64 product (bias below n / 2^64). */
static inline size_t rng_below(rng_t *r, size_t n)
{
    __extension__ typedef unsigned __int128 u128;
    return (size_t)(((u128)rng_next(r) * n) >> 64);
}

#endif
