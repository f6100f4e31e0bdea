/* Self-check of the kernel: the invariants of every position of random games (see selfcheck.h). */
#include "selfcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void men_count(const pos_t *p, int men[2])
{
    men[0] = p->hand[0];
    men[1] = p->hand[1];
    bb_t occ = p->owned[0] | p->owned[1];
    while (occ) {
        int sq = bb_lsb(occ);
        occ &= occ - 1;
        int o = pos_owner(p, sq);
        men[o] += p->caps[sq];
        men[!o] += p->pris[sq];
    }
}

/* Invariants of one position and its moves; returns a message or NULL. */
static const char *check_ply(game_t *gm, const pos_t *root, mlist_t *l, char *msg, size_t len)
{
    pos_t *p = &gm->pos;
    if (pos_check(p, msg, len) < 0)
        return msg;
    int m0[2], m1[2];
    men_count(root, m0);
    men_count(p, m1);
    if (m0[0] != m1[0] || m0[1] != m1[1])
        return "men are not conserved (R5)";
    const moveset_t *ms = &gm->ms;
    moveset_t counted;
    gen_moveset(p, &counted, NULL);
    if (counted.kind != ms->kind || counted.count != ms->count || counted.size != ms->size)
        return "counting generation differs from listing generation";
    if ((ms->kind == MK_CAPTURE) != (pos_attackers(p, p->turn) != 0))
        return "capture priority (R8) violated";
    l->n = 0;
    if (gen_moves(p, l) != ms->kind || l->n != ms->count)
        return "gen_moves differs from the moveset";
    if (l->n > 1) /* an empty list may have no buffer at all: qsort wants one */
        qsort(l->v, l->n, sizeof(move_t), move_cmp);
    pos_t before = *p;
    for (size_t i = 0; i < l->n; i++) {
        const move_t *m = &l->v[i];
        if (i && !move_cmp(&l->v[i - 1], m))
            return "a move is generated twice";
        if (m->kind == MK_CAPTURE && (m->men != ms->size || m->len != ms->size + 1))
            return "a capture route has the wrong length (R11)";
        undo_t u;
        pos_make(p, m, &u);
        if (pos_check(p, msg, len) < 0) {
            pos_unmake(p, &u);
            return msg;
        }
        pos_unmake(p, &u);
        if (!pos_equal(p, &before) || p->key != before.key)
            return "unmake does not restore the position";
    }
    return NULL;
}

typedef struct check_ctx {
    const pos_t *root;
    mlist_t moves; /* scratch list of check_ply */
    checker_t *ck;
} check_ctx_t;

/* random_games' visitor: check the position, and end the game at its first failure. */
static int check_visit(game_t *gm, int term, uint64_t game_seed, void *ctx)
{
    check_ctx_t *c = ctx;
    if (term == TERM_NO_PIECES) /* R18: gm->ms is not filled */
        return 0;
    char msg[CHECK_ERROR_LEN - 64];
    const char *bad = check_ply(gm, c->root, &c->moves, msg, sizeof msg);
    if (!bad)
        return 0;
    checker_t *ck = c->ck;
    if (ck->nerr < CHECK_MAX_ERRORS)
        snprintf(ck->err[ck->nerr++], CHECK_ERROR_LEN, "seed %llu ply %zu: %s",
                 (unsigned long long)game_seed, gm->ply, bad);
    return 1;
}

int selfcheck(const pos_t *root, uint64_t n, uint64_t seed, checker_t *ck, halt_t *h)
{
    memset(ck, 0, sizeof *ck);
    check_ctx_t c = {.root = root, .ck = ck};
    ml_init(&c.moves, NULL, 0);
    int rc = random_games(root, n, seed, &ck->st, h, check_visit, &c);
    ml_free(&c.moves);
    return rc;
}
