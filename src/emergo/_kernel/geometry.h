/* Board geometry as data (RULES.md R1-R4): squares, directions, jump tables.
 *
 * The kernel never computes coordinates: a board is a table registered at
 * import time from emergo.geometry (the one source of geometry).  Squares are
 * small ints below 128, so a set of squares is one 128-bit bitboard.  The
 * embedding must be padded so that a square plus a direction offset is either
 * the adjacent square or an off-board int (never another line's square); the
 * registration checks this, because the bitboard shifts of movegen.c rely on
 * it.  The square grids (9x9, 7x7) and a hexagon in axial coordinates with a
 * padding ring satisfy it, so the 37-cell board (R4) is a new table, not new
 * code.
 */
#ifndef EMERGO_GEOMETRY_H
#define EMERGO_GEOMETRY_H

#include <stddef.h>
#include <stdint.h>

#define K_MAXSQ 128 /* square ints fit one 128-bit bitboard */
#define K_MAXDIR 6  /* 4 on the square grids (R2), 6 on the hexagon (R4) */
#define K_MAXMEN 12 /* men per player in every variant (R4) */
/* A capture takes one opponent man per jump and the taken man is never
 * jumpable again (it sits under the capturer, R9), so a route has at most
 * K_MAXMEN jumps and K_MAXMEN + 1 squares. */
#define K_MAXPATH (K_MAXMEN + 1)
#define K_MAXGEO 8
#define K_NOSQ 0xff

__extension__ typedef unsigned __int128 bb_t;

#define BB1(sq) ((bb_t)1 << (sq))

static inline bb_t bb_shift(bb_t x, int k) { return k >= 0 ? x << k : x >> -k; }

static inline int popcount64(uint64_t x)
{
#if defined(__POPCNT__)
    return __builtin_popcountll(x);
#else
    /* SWAR: the libgcc fallback of __builtin_popcountll is a call. */
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

static inline int bb_count(bb_t x) { return popcount64((uint64_t)x) + popcount64((uint64_t)(x >> 64)); }

/* Index of the lowest set bit; x must not be 0. */
static inline int bb_lsb(bb_t x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* Index of the n-th (from 0) set bit of a word that has more than n: halve
 * the word by popcounts down to a byte, then clear the lowest bits. */
static inline int select64(uint64_t x, size_t n)
{
    int base = 0;
    for (int width = 32; width >= 8; width /= 2) {
        uint64_t low = x & ((1ULL << width) - 1);
        size_t c = (size_t)popcount64(low);
        if (n >= c) {
            n -= c;
            x >>= width;
            base += width;
        } else {
            x = low;
        }
    }
    while (n--)
        x &= x - 1;
    return base + __builtin_ctzll(x);
}

/* Index of the n-th (from 0) set bit of x, counting from the lowest. */
static inline int bb_nth(bb_t x, size_t n)
{
    uint64_t lo = (uint64_t)x;
    size_t c = (size_t)popcount64(lo);
    if (n >= c)
        return 64 + select64((uint64_t)(x >> 64), n - c);
    return select64(lo, n);
}

typedef struct jump {
    uint8_t dir, over, land;
} jump_t;

typedef struct geo {
    char name[8];          /* variant name of R22: "9x9", "7x7" */
    int men;               /* men per player (R4) */
    int nsq;               /* number of squares */
    int ndirs;             /* line directions; dir[d ^ 1] is the opposite of d */
    int centre;            /* the square White may not enter first (R16) */
    int dir[K_MAXDIR];     /* square-int offset of each direction */
    int npairs;                    /* lines through a square: ndirs / 2 */
    int pair_off[K_MAXDIR / 2];    /* the positive offset of each line */
    uint8_t pair_pos[K_MAXDIR / 2], pair_neg[K_MAXDIR / 2]; /* its two directions */
    bb_t mask;             /* all squares */
    uint8_t squares[K_MAXSQ];             /* canonical order (R22) */
    uint8_t njumps[K_MAXSQ];              /* jumps that stay on the board (R9) */
    jump_t jumps[K_MAXSQ][K_MAXDIR];      /* by direction order */
    char names[K_MAXSQ][4];               /* canonical (oblique) square names */
} geo_t;

/* Register a geometry; returns it, or NULL with a message in err.  The
 * jump table is given as (square, direction, over, land) rows.  Every input
 * is checked.  A variant is registered once: the same tables again return
 * the published one, other tables under its name are an error.  Published
 * tables are never written again.  Not thread-safe against itself (the
 * bindings hold the GIL); geo_find may run concurrently. */
const geo_t *geo_register(const char *name, int men, int centre, int ndirs, const int *dirs,
                          int nsq, const int *squares, const char *const *names, int njumps,
                          const int (*jumps)[4], char *err, size_t errlen);
const geo_t *geo_find(const char *name);

#endif
