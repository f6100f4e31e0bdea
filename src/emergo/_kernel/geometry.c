/* Registration of board geometries (R1-R4) given as data by emergo.geometry. */
#include "geometry.h"

#include <stdio.h>
#include <string.h>

static geo_t geos[K_MAXGEO];
static int ngeos;

const geo_t *geo_find(const char *name)
{
    for (int i = 0; i < ngeos; i++)
        if (strcmp(geos[i].name, name) == 0)
            return &geos[i];
    return NULL;
}

static int on_board(const geo_t *g, long sq) { return sq >= 0 && sq < K_MAXSQ && ((g->mask >> sq) & 1); }

const geo_t *geo_register(const char *name, int men, int centre, int ndirs, const int *dirs,
                          int nsq, const int *squares, const char *const *names, int njumps,
                          const int (*jumps)[4], char *err, size_t errlen)
{
    geo_t g;
    memset(&g, 0, sizeof g);
    if (strlen(name) == 0 || strlen(name) >= sizeof g.name) {
        snprintf(err, errlen, "bad variant name %s", name);
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
        if (len == 0 || len >= sizeof g.names[0]) {
            snprintf(err, errlen, "%s: bad name for square %d", name, sq);
            return NULL;
        }
        g.mask |= BB1(sq);
        g.squares[i] = (uint8_t)sq;
        memcpy(g.names[sq], names[i], len + 1);
    }
    if (!on_board(&g, centre)) {
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
    for (int i = 0; i < njumps; i++) {
        int sq = jumps[i][0], d = jumps[i][1];
        int found = 0;
        if (sq >= 0 && sq < K_MAXSQ)
            for (int k = 0; k < g.njumps[sq]; k++) {
                const jump_t *j = &g.jumps[sq][k];
                if (j->dir == d && j->over == jumps[i][2] && j->land == jumps[i][3])
                    found = 1;
            }
        if (!found) {
            snprintf(err, errlen, "%s: jump (%d, %d, %d, %d) disagrees with the direction offsets",
                     name, sq, d, jumps[i][2], jumps[i][3]);
            return NULL;
        }
    }
    geo_t *slot = (geo_t *)geo_find(name);
    if (!slot) {
        if (ngeos == K_MAXGEO) {
            snprintf(err, errlen, "too many geometries (at most %d)", K_MAXGEO);
            return NULL;
        }
        slot = &geos[ngeos++];
    }
    *slot = g;
    return slot;
}
