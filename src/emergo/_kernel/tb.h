/* Endgame tables (issue 23): every ending of two and three columns, solved by retrograde analysis.
 *
 * A table holds, for every position of its class, the value for the player to
 * move: 0 a draw, else the distance to the end in plies with best play (the
 * winner hurries, the loser delays): odd when the player to move wins, even
 * when he loses (the last move is the winner's).  The classes, with no men in
 * hand and so every man on the board (R5):
 *
 *   2 columns: one stack each.  A stack is its owner's top run over the
 *     other colour's men (R6), and with all men on the board a column's
 *     prisoners are the men of the other colour that are not in the other
 *     column's cap: (mover's square, opponent's square, mover's cap, opponent's
 *     cap) is the whole position.  The colour swap (the rules are
 *     colour-blind once every man is entered: R16 is about the first move
 *     only) puts the player to move first.
 *   3 columns: two stacks for one side (the pair), one for the other (the
 *     lone column).  The pair's caps and prisoners are free; the lone column's
 *     cap is the pair's men not under the pair, its prisoners the pair side's
 *     men not in the pair's caps.  The colour swap makes the pair's colour one
 *     colour, and a bit says whether the pair's side is to move.
 *
 * Both use the board's symmetries: every permutation of the squares that maps
 * each line direction onto a line direction (found from the geometry: 8 on
 * the square boards, D4; 12 on the hexagon, D6).  The index of a position is
 * that of its smallest image (tb.c, docs/tablebase.md has the layout).
 */
#ifndef EMERGO_TB_H
#define EMERGO_TB_H

#include "halt.h"
#include "position.h"

#define TB_MAXSYM 12        /* D6 */
#define TB_MAXDTM 999       /* below S_WIN - S_WIN_MIN of the search: a table's dtm fits a value */
#define TB_MAGIC "EMERGOTB" /* 8 bytes, no terminator in the file */
#define TB_VERSION 1
#define TB_HEADER 128 /* bytes before the entries */

enum { TB_DRAW = 0 };

/* What the tables of a variant share: square ranks and the symmetries. */
typedef struct tbgeo {
    const geo_t *g;
    int n;                            /* squares */
    uint8_t sq[K_MAXSQ];              /* rank -> square int (the order of R22) */
    uint8_t rank[K_MAXSQ];            /* square int -> rank, 0xff off the board */
    int nsym;                         /* symmetries, the identity first */
    uint8_t sym[TB_MAXSYM][K_MAXSQ];  /* rank -> rank */
} tbgeo_t;

/* The shape of one table: its class and its index. */
typedef struct tbdef {
    tbgeo_t tg;
    int columns;     /* 2 or 3 */
    int men;         /* per side (R4) */
    uint32_t nclass; /* canonical square tuples */
    uint8_t (*reps)[3];  /* class -> its tuple of ranks (2: mover, opponent; 3: lone, pair low, high) */
    uint32_t *cls;   /* dense tuple -> class (n^2 or n^3 slots) */
    uint16_t *mask;  /* 3 columns: dense tuple -> the symmetries that map it onto its class's tuple */
    uint32_t na, np; /* 3 columns: pair caps (a1, a2) and pair prisoners (p1, p2) combinations */
    uint64_t per_class; /* entries per class */
    uint64_t size;   /* entries */
} tbdef_t;

typedef struct tbstats {
    uint64_t positions;         /* canonical entries (each position once up to symmetry) */
    uint64_t wins, draws, losses;
    int max_dtm;                /* longest win or loss in plies */
    int max_win;                /* longest win in plies */
    uint64_t longest;           /* the first entry with the longest win */
} tbstats_t;

/* A table: its shape and its values (owned memory after a build, a mapping of its file). */
typedef struct tb {
    tbdef_t def;
    int width;            /* bytes per entry in the file: 1 or 2 */
    const uint8_t *data;  /* the entries (width bytes each, little-endian) */
    uint16_t *own;        /* entries as built (width 2 in memory), or NULL */
    void *map;            /* the file's mapping, or NULL */
    size_t maplen;
    uint32_t checksum;    /* CRC-32 (the zlib one) of the entries as written */
    tbstats_t stats;
} tb_t;

/* Progress of a long table call: a phase name, units done of a total; read by the poll hook. */
typedef struct tbprog {
    const char *phase;
    uint64_t done, total;
} tbprog_t;

int tbgeo_init(tbgeo_t *tg, const geo_t *g, char *err, size_t errlen);
int tbdef_init(tbdef_t *d, const geo_t *g, int columns, char *err, size_t errlen); /* -1: error */
void tbdef_free(tbdef_t *d);

/* Index of a position of the table's class, or -1 when it is not of that class (hands, stacks,
 * or fewer men than the variant's).  Every symmetric image and the colour swap give the same. */
int64_t tb_index(const tbdef_t *d, const pos_t *p);
/* The position of an entry (the pair's colour is White; 2 columns: White to move). */
void tb_decode(const tbdef_t *d, uint64_t i, pos_t *p);
/* The image of a position under symmetry s and, if swap, the colour swap. */
void tb_transform(const tbgeo_t *tg, const pos_t *src, int s, int swap, pos_t *dst);

static inline int tb_entry(const tb_t *t, uint64_t i)
{
    if (t->own)
        return t->own[i];
    if (t->width == 1)
        return t->data[i];
    return t->data[2 * i] | t->data[2 * i + 1] << 8;
}

/* The value of a position in one of the tables (any may be NULL), or -1 outside them. */
int tb_probe(const tb_t *t2, const tb_t *t3, const pos_t *p);

/* Build a table by retrograde analysis; a 3-column table needs the variant's 2-column table
 * (sub).  prog (may be NULL) is kept up to date, h (may be NULL) ticks per entry.  Returns 0,
 * -1 with a message in err, or -2 when stopped (h). */
int tb_build(const geo_t *g, int columns, const tb_t *sub, tb_t *out, tbprog_t *prog, halt_t *h,
             char *err, size_t errlen);

/* The file: header (magic, version, variant, columns, men, geometry fingerprint, sizes,
 * statistics, CRC-32 of the entries) and the entries.  tb_open maps a file and checks its
 * header against the registered geometry; verify also checks the CRC-32. */
int tb_write(const tb_t *t, const char *path, char *err, size_t errlen);
int tb_open(tb_t *t, const char *path, int verify, char *err, size_t errlen);
void tb_free(tb_t *t);
uint32_t tb_crc32(uint32_t crc, const uint8_t *p, size_t n);
uint64_t tb_fingerprint(const geo_t *g);

/* The checks of docs/tablebase.md.  tb_verify: every entry against its successors by the full
 * rules (a win has a move to a loss one ply shorter and none shorter, a loss has only moves to
 * wins and its distance is one more than the longest, a draw has no move to a loss and a move
 * to a draw unless blocked), every entry's position valid and its index its own (or, for a
 * symmetric tuple, that of its twin), and, with syms, its index the same under every symmetry
 * and the colour swap.  tb_check_raw: the same on every position of the class before the
 * reduction (every tuple of squares, both sides to move, every cap and prisoner count), each
 * compared with the entry it maps to; stride > 1 checks every stride-th only.  Both count problems in *bad and keep the first in err;
 * -2 when stopped, -1 out of memory. */
int tb_verify(const tb_t *t, const tb_t *sub, int syms, uint64_t *checked, uint64_t *bad,
              tbprog_t *prog, halt_t *h, char *err, size_t errlen);
int tb_check_raw(const tb_t *t, const tb_t *sub, uint64_t stride, uint64_t *checked,
                 uint64_t *bad, tbprog_t *prog, halt_t *h, char *err, size_t errlen);

#endif
