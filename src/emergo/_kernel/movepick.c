/* Move ordering: capture gains by make/unmake, killers and butterfly history. */
#include "movepick.h"

#include <string.h>

#include "tt.h"


void order_clear(ordering_t *o) { memset(o, 0, sizeof *o); }

/* Is the piece on sq jumpable by color's pieces now (R9)? */
static int attacked_by(const pos_t *p, int sq, int color)
{
    const geo_t *g = p->g;
    bb_t occ = p->owned[0] | p->owned[1];
    for (int k = 0; k < g->npairs; k++) {
        int o = g->pair_off[k];
        int a = sq - o, b = sq + o;
        if (a < 0 || b >= K_MAXSQ || !((g->mask >> a) & 1) || !((g->mask >> b) & 1))
            continue;
        if ((((p->owned[color] >> a) & 1) && !((occ >> b) & 1)) ||
            (((p->owned[color] >> b) & 1) && !((occ >> a) & 1)))
            return 1;
    }
    return 0;
}

/* Capture routes tie in length (R11): prefer the one liberating the most of
 * our men (a jumped one-man cap over our prisoners, R9) and landing safe. */
static int capture_score(pos_t *p, const move_t *m)
{
    int me = p->turn;
    undo_t u;
    pos_make(p, m, &u);
    int freed = 0;
    for (int i = 1; i + 1 < u.n; i++) { /* saves: start, every jumped square, landing */
        const sqsave_t *s = &u.save[i];
        if (s->caps == 1 && s->owner != me)
            freed += s->pris;
    }
    int land = m->path[m->len - 1];
    int score = 64 * freed;
    if (attacked_by(p, land, !me))
        score -= p->caps[land] == 1 ? 32 + 16 * p->pris[land] : 16;
    pos_unmake(p, &u);
    return score;
}

void order_score(const ordering_t *o, pos_t *p, const move_t *moves, size_t n, int *scores,
                 uint16_t hash_move, int ply)
{
    int me = p->turn;
    for (size_t i = 0; i < n; i++) {
        const move_t *m = &moves[i];
        if (hash_move && move_id(m) == hash_move) {
            scores[i] = HASH_SCORE;
        } else if (m->kind == MK_CAPTURE) {
            scores[i] = n > 1 ? capture_score(p, m) : 0;
        } else if (move_same(m, &o->killers[ply][0])) {
            scores[i] = KILLER_SCORE;
        } else if (move_same(m, &o->killers[ply][1])) {
            scores[i] = KILLER_SCORE - 1;
        } else {
            int to = m->kind == MK_STEP ? m->path[1] : m->path[0];
            scores[i] = o->history[me][m->path[0]][to];
        }
    }
}

static void history_add(ordering_t *o, int color, const move_t *m, int bonus)
{
    int to = m->kind == MK_STEP ? m->path[1] : m->path[0];
    int *h = &o->history[color][m->path[0]][to];
    /* Gravity: entries saturate at HISTORY_MAX and decay towards new evidence. */
    /* The product in 64 bits: an entry pushed past HISTORY_MAX by many bonuses in one long
     * search times a bonus overflowed int (UBSan, depth 20 on 7x7); same value otherwise. */
    *h += bonus - (int)((long long)*h * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX);
}

void order_cutoff(ordering_t *o, int color, const move_t *best, const move_t *tried, size_t ntried,
                  int depth, int ply)
{
    if (best->kind == MK_CAPTURE)
        return;
    if (!move_same(best, &o->killers[ply][0])) {
        o->killers[ply][1] = o->killers[ply][0];
        o->killers[ply][0] = *best;
    }
    int bonus = depth * depth * 32;
    if (bonus > HISTORY_MAX / 4)
        bonus = HISTORY_MAX / 4;
    history_add(o, color, best, bonus);
    for (size_t i = 0; i < ntried; i++)
        if (!move_same(&tried[i], best))
            history_add(o, color, &tried[i], -bonus);
}
