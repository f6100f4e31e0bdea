/* Legal move generation (R8-R17): majority captures, restricted entries, steps. */
#include "movegen.h"

#include <stdlib.h>
#include <string.h>

void ml_free(mlist_t *l)
{
    free(l->heap);
    l->heap = NULL;
}

move_t *ml_grow(mlist_t *l)
{
    size_t cap = l->cap ? l->cap * 2 : K_INLINE_MOVES;
    if (cap < l->cap || cap > SIZE_MAX / sizeof(move_t))
        return NULL;
    move_t *v;
    if (l->heap) {
        v = realloc(l->heap, cap * sizeof(move_t));
    } else {
        v = malloc(cap * sizeof(move_t));
        if (v && l->n)
            memcpy(v, l->v, l->n * sizeof(move_t));
    }
    if (!v)
        return NULL;
    l->v = l->heap = v;
    l->cap = cap;
    return &l->v[l->n++];
}

/* The route search (R9-R11).  The jumped stacks are changed in place (caps
 * and prisoners of the position, the opp and empty bitboards here) and put
 * back on the way out, so the position is unchanged afterwards. */
typedef struct capctx {
    pos_t *p;
    const geo_t *g;
    bb_t opp, empty;
    int best;      /* jumps of the longest complete route so far */
    size_t count;  /* routes of that length */
    mlist_t *out;  /* NULL: count only */
    size_t base;   /* out->n before the search */
    int oom;
    int len;
    uint8_t path[K_MAXPATH];
} capctx_t;

static void record(capctx_t *c)
{
    int n = c->len - 1;
    if (n > c->best) { /* R11: only the routes taking the most men */
        c->best = n;
        c->count = 0;
        if (c->out)
            c->out->n = c->base;
    }
    if (n == c->best) {
        c->count++;
        if (c->out) {
            move_t *m = ml_push(c->out);
            if (!m) {
                c->oom = 1;
                c->count--;
                return;
            }
            m->kind = MK_CAPTURE;
            m->len = (uint8_t)c->len;
            m->men = (uint8_t)n;
            memcpy(m->path, c->path, (size_t)c->len);
        }
    }
}

static void search(capctx_t *c, int sq, int back)
{
    pos_t *p = c->p;
    const jump_t *jp = c->g->jumps[sq];
    int went_on = 0;
    for (int j = c->g->njumps[sq]; j > 0; j--, jp++) {
        int over = jp->over;
        if (jp->dir == back || !((c->opp >> over) & 1) || !((c->empty >> jp->land) & 1))
            continue;
        went_on = 1;
        uint8_t k = p->caps[over], pr = p->pris[over];
        bb_t bit = BB1(over);
        if (k > 1) { /* R9: take the top man only */
            p->caps[over] = (uint8_t)(k - 1);
        } else if (pr) { /* R9: the prisoners are liberated: ours now, not jumpable */
            c->opp ^= bit;
            p->caps[over] = pr;
            p->pris[over] = 0;
        } else { /* R9 (decision): a jumped single man leaves at once */
            c->opp ^= bit;
            c->empty |= bit;
            p->caps[over] = 0;
        }
        c->path[c->len++] = jp->land;
        search(c, jp->land, jp->dir ^ 1); /* R10: go on, but never straight back */
        c->len--;
        p->caps[over] = k;
        p->pris[over] = pr;
        if (k == 1) {
            c->opp |= bit;
            c->empty &= ~bit;
        }
    }
    if (!went_on && c->len > 1) /* R10: a route ends only where no jump is left */
        record(c);
}

int gen_moveset(pos_t *p, moveset_t *ms, mlist_t *routes)
{
    const geo_t *g = p->g;
    int me = p->turn, op = !me;
    bb_t mine = p->owned[me], theirs = p->owned[op];
    bb_t empty = g->mask & ~(mine | theirs);
    ms->routes = routes;
    ms->mask = 0;
    ms->size = 0;
    if (pos_lost(p, op)) { /* R18: the game is over (the mover, if lost, finds no move) */
        ms->count = 0;
        ms->kind = MK_NONE;
        return 0;
    }
    bb_t starters = attackers(g, mine, theirs, empty);
    if (starters) { /* R8: capture first, in both phases */
        capctx_t c;
        c.p = p;
        c.g = g;
        c.opp = theirs;
        c.empty = empty;
        c.best = 0;
        c.count = 0;
        c.out = routes;
        c.base = routes ? routes->n : 0;
        c.oom = 0;
        while (starters) {
            int sq = bb_lsb(starters);
            starters &= starters - 1;
            c.empty |= BB1(sq); /* R10: the start square is vacant once left */
            c.path[0] = (uint8_t)sq;
            c.len = 1;
            search(&c, sq, 0xff);
            c.empty &= ~BB1(sq);
        }
        ms->kind = MK_CAPTURE;
        ms->size = c.best;
        ms->count = c.count;
        return c.oom ? -1 : 0;
    }
    if (p->hand[me]) { /* R8: then enter (R13-R16) */
        bb_t vacant = entry_mask(p);
        ms->size = p->hand[op] ? 1 : p->hand[me]; /* R14: the shadowpiece */
        ms->mask = vacant;
        ms->count = (size_t)bb_count(vacant);
        ms->kind = vacant ? MK_ENTER : MK_NONE;
        return 0;
    }
    size_t count = 0; /* R17: step */
    for (int k = 0; k < g->npairs; k++) {
        int o = g->pair_off[k];
        bb_t up = mine & (empty >> o), down = mine & (empty << o);
        ms->steps[g->pair_pos[k]] = up;
        ms->steps[g->pair_neg[k]] = down;
        count += (size_t)(bb_count(up) + bb_count(down));
    }
    ms->count = count;
    ms->kind = count ? MK_STEP : MK_NONE;
    return 0;
}

void ms_move(const geo_t *g, const moveset_t *ms, size_t i, move_t *out)
{
    if (ms->kind == MK_CAPTURE) {
        *out = ms->routes->v[ms->routes->n - ms->count + i];
        return;
    }
    if (ms->kind == MK_ENTER) {
        out->kind = MK_ENTER;
        out->len = 1;
        out->men = (uint8_t)ms->size;
        out->path[0] = (uint8_t)bb_nth(ms->mask, i);
        return;
    }
    for (int d = 0; d < g->ndirs; d++) {
        size_t c = (size_t)bb_count(ms->steps[d]);
        if (i < c) {
            int sq = bb_nth(ms->steps[d], i);
            out->kind = MK_STEP;
            out->len = 2;
            out->men = 0;
            out->path[0] = (uint8_t)sq;
            out->path[1] = (uint8_t)(sq + g->dir[d]);
            return;
        }
        i -= c;
    }
}

int gen_moves(pos_t *p, mlist_t *out)
{
    moveset_t ms;
    if (gen_moveset(p, &ms, out) < 0)
        return -1;
    const geo_t *g = p->g;
    if (ms.kind == MK_ENTER) {
        bb_t m = ms.mask;
        while (m) {
            move_t *mv = ml_push(out);
            if (!mv)
                return -1;
            mv->kind = MK_ENTER;
            mv->len = 1;
            mv->men = (uint8_t)ms.size;
            mv->path[0] = (uint8_t)bb_lsb(m);
            m &= m - 1;
        }
    } else if (ms.kind == MK_STEP) {
        for (int d = 0; d < g->ndirs; d++) {
            bb_t m = ms.steps[d];
            while (m) {
                int sq = bb_lsb(m);
                m &= m - 1;
                move_t *mv = ml_push(out);
                if (!mv)
                    return -1;
                mv->kind = MK_STEP;
                mv->len = 2;
                mv->men = 0;
                mv->path[0] = (uint8_t)sq;
                mv->path[1] = (uint8_t)(sq + g->dir[d]);
            }
        }
    }
    return ms.kind;
}

int move_cmp(const void *a, const void *b)
{
    const move_t *x = a, *y = b;
    int n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->path, y->path, (size_t)n);
    return c ? c : x->len - y->len;
}
