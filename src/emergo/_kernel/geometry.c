/* Registration of board geometries (R1-R4) given as data by emergo.geometry. */
#include "geometry.h"

#include <stdio.h>
#include <string.h>

/* Published tables: geos[0..ngeos).  A table is filled before ngeos counts it
 * (release/acquire) and never written again, so a search running without
 * the GIL may read its position's table while another variant registers. */
static geo_t geos[K_MAXGEO];
static int ngeos;

const geo_t *geo_find(const char *name)
{
    int n = __atomic_load_n(&ngeos, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++)
        if (strcmp(geos[i].name, name) == 0)
            return &geos[i];
    return NULL;
}

/* Same tables?  (Field by field: padding bytes may differ.) */
static int geo_same(const geo_t *a, const geo_t *b)
{
    if (strcmp(a->name, b->name) || a->men != b->men || a->nsq != b->nsq ||
        a->ndirs != b->ndirs || a->centre != b->centre || a->mask != b->mask ||
        memcmp(a->dir, b->dir, sizeof a->dir) || memcmp(a->squares, b->squares, sizeof a->squares))
        return 0;
    for (int sq = 0; sq < K_MAXSQ; sq++)
        if (strcmp(a->names[sq], b->names[sq]))
            return 0;
    return 1; /* the jump and line tables follow from squares and directions */
}

static int name_ok(const char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

static int on_board(const geo_t *g, long sq) { return sq >= 0 && sq < K_MAXSQ && ((g->mask >> sq) & 1); }

const geo_t *geo_register(const char *name, int men, int centre, int ndirs, const int *dirs,
                          int nsq, const int *squares, const char *const *names, int njumps,
                          const int (*jumps)[4], char *err, size_t errlen)
{
    geo_t g;
    memset(&g, 0, sizeof g);
    if (strlen(name) == 0 || strlen(name) >= sizeof g.name || !name_ok(name)) {
        snprintf(err, errlen, "variant name %.40s: 1..%d letters and digits are needed", name,
                 (int)sizeof g.name - 1);
        return NULL;
    }
    strcpy(g.name, name);
    if (men < 1 || men > K_MAXMEN) {
        snprintf(err, errlen, "%s: %d men per player; the kernel allows 1..%d", name, men, K_MAXMEN);
        return NULL;
    }
    if (ndirs < 2 || ndirs > K_MAXDIR || ndirs % 2) {
        snprintf(err, errlen, "%s: %d directions; the kernel allows 2, 4 or 6", name, ndirs);
        return NULL;
    }
    if (nsq < 1 || nsq > K_MAXSQ) {
        snprintf(err, errlen, "%s: %d squares; the kernel allows 1..%d", name, nsq, K_MAXSQ);
        return NULL;
    }
    g.men = men;
    g.ndirs = ndirs;
    g.nsq = nsq;
    for (int d = 0; d < ndirs; d++) {
        if (dirs[d] <= -K_MAXSQ || dirs[d] >= K_MAXSQ) {
            snprintf(err, errlen, "%s: direction %d has offset %d; the kernel allows -%d..%d",
                     name, d, dirs[d], K_MAXSQ - 1, K_MAXSQ - 1);
            return NULL;
        }
    }
    for (int d = 0; d < ndirs; d++) {
        g.dir[d] = dirs[d];
        if (dirs[d] == 0 || dirs[d ^ 1] != -dirs[d]) {
            snprintf(err, errlen, "%s: direction %d is not the opposite of direction %d", name,
                     d ^ 1, d);
            return NULL;
        }
    }
    g.npairs = ndirs / 2;
    for (int k = 0; k < g.npairs; k++) { /* bitboard shifts go by lines: no signed shifts */
        int d = dirs[2 * k] > 0 ? 2 * k : 2 * k + 1;
        g.pair_off[k] = dirs[d];
        g.pair_pos[k] = (uint8_t)d;
        g.pair_neg[k] = (uint8_t)(d ^ 1);
        if (dirs[d] >= K_MAXSQ / 2) {
            snprintf(err, errlen, "%s: direction offset %d is too large", name, dirs[d]);
            return NULL;
        }
    }
    for (int i = 0; i < nsq; i++) {
        int sq = squares[i];
        if (sq < 0 || sq >= K_MAXSQ || ((g.mask >> sq) & 1)) {
            snprintf(err, errlen, "%s: square int %d is out of range or repeated", name, sq);
            return NULL;
        }
        size_t len = strlen(names[i]);
        if (len == 0 || len >= sizeof g.names[0] || !name_ok(names[i])) {
            snprintf(err, errlen, "%s: square %d needs a name of 1..%d letters and digits", name,
                     sq, (int)sizeof g.names[0] - 1);
            return NULL;
        }
        for (int k = 0; k < i; k++)
            if (!strcmp(names[k], names[i])) {
                snprintf(err, errlen, "%s: square name %s is given twice", name, names[i]);
                return NULL;
            }
        g.mask |= BB1(sq);
        g.squares[i] = (uint8_t)sq;
        memcpy(g.names[sq], names[i], len + 1);
    }
    if (centre < 0 || !on_board(&g, centre)) {
        snprintf(err, errlen, "%s: centre %d is not a square", name, centre);
        return NULL;
    }
    g.centre = centre;
    /* The jump table must be exactly what offset arithmetic gives: the
     * bitboard shifts find the same jumps as the route search (R9). */
    int expected = 0;
    for (int i = 0; i < nsq; i++) {
        int sq = squares[i];
        for (int d = 0; d < ndirs; d++) {
            long over = sq + dirs[d], land = sq + 2L * dirs[d];
            if (on_board(&g, over) && on_board(&g, land)) {
                jump_t *j = &g.jumps[sq][g.njumps[sq]++];
                j->dir = (uint8_t)d;
                j->over = (uint8_t)over;
                j->land = (uint8_t)land;
                expected++;
            }
        }
    }
    if (njumps != expected) {
        snprintf(err, errlen, "%s: the jump table has %d jumps, offset arithmetic gives %d", name,
                 njumps, expected);
        return NULL;
    }
    uint8_t listed[K_MAXSQ][K_MAXDIR] = {{0}}; /* each jump once */
    for (int i = 0; i < njumps; i++) {
        int sq = jumps[i][0], d = jumps[i][1];
        int found = -1;
        if (sq >= 0 && sq < K_MAXSQ)
            for (int k = 0; k < g.njumps[sq]; k++) {
                const jump_t *j = &g.jumps[sq][k];
                if (j->dir == d && j->over == jumps[i][2] && j->land == jumps[i][3])
                    found = k;
            }
        if (found < 0 || listed[sq][found]++) {
            snprintf(err, errlen, "%s: jump (%d, %d, %d, %d) %s", name, sq, d, jumps[i][2],
                     jumps[i][3],
                     found < 0 ? "disagrees with the direction offsets" : "is given twice");
            return NULL;
        }
    }
    const geo_t *known = geo_find(name);
    if (known) { /* registered once: the same tables again change nothing */
        if (geo_same(known, &g))
            return known;
        snprintf(err, errlen, "variant %s is already registered with other tables", name);
        return NULL;
    }
    if (ngeos == K_MAXGEO) {
        snprintf(err, errlen, "too many geometries (at most %d)", K_MAXGEO);
        return NULL;
    }
    geos[ngeos] = g;
    __atomic_store_n(&ngeos, ngeos + 1, __ATOMIC_RELEASE); /* published: never written again */
    return &geos[ngeos - 1];
}
