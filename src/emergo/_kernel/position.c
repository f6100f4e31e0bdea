/* Kernel state: setup, Zobrist keys, make/unmake (R9, R10, R13, R14, R17), R22/R21 texts. */
#include "position.h"
#include "rng.h"

#include <stdio.h>
#include <string.h>

/* Features: "square s holds a piece of owner o with k caps", "square s has p
 * prisoners" (p > 0), "colour c has h men in hand", "White to move". */
static uint64_t z_stack[K_MAXSQ][2][K_MAXMEN + 1];
static uint64_t z_pris[K_MAXSQ][K_MAXMEN + 1];
static uint64_t z_hand[2][K_MAXMEN + 1];
static uint64_t z_turn;

void zobrist_init(void)
{
    uint64_t s = 0x456d6572676f3836ULL; /* fixed: keys are stable across runs */
    for (int sq = 0; sq < K_MAXSQ; sq++)
        for (int o = 0; o < 2; o++)
            for (int k = 0; k <= K_MAXMEN; k++)
                z_stack[sq][o][k] = splitmix64(&s);
    for (int sq = 0; sq < K_MAXSQ; sq++) {
        z_pris[sq][0] = 0;
        for (int k = 1; k <= K_MAXMEN; k++)
            z_pris[sq][k] = splitmix64(&s);
    }
    for (int c = 0; c < 2; c++)
        for (int k = 0; k <= K_MAXMEN; k++)
            z_hand[c][k] = splitmix64(&s);
    z_turn = splitmix64(&s);
}

uint64_t pos_compute_key(const pos_t *p)
{
    uint64_t key = z_hand[BLACK][p->hand[BLACK]] ^ z_hand[WHITE][p->hand[WHITE]];
    if (p->turn == WHITE)
        key ^= z_turn;
    bb_t occ = p->owned[0] | p->owned[1];
    while (occ) {
        int sq = bb_lsb(occ);
        occ &= occ - 1;
        key ^= z_stack[sq][pos_owner(p, sq)][p->caps[sq]] ^ z_pris[sq][p->pris[sq]];
    }
    return key;
}

int pos_setup(pos_t *p, const geo_t *g, int turn, int hand_white, int hand_black, int nstacks,
              const uint8_t (*stacks)[4], char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->g = g;
    p->turn = turn ? WHITE : BLACK;
    if (hand_white < 0 || hand_white > g->men || hand_black < 0 || hand_black > g->men) {
        snprintf(err, errlen, "hands %d/%d: %s has %d men each", hand_white, hand_black, g->name,
                 g->men);
        return -1;
    }
    p->hand[WHITE] = (uint8_t)hand_white;
    p->hand[BLACK] = (uint8_t)hand_black;
    int men[2] = {hand_black, hand_white};
    for (int i = 0; i < nstacks; i++) {
        int sq = stacks[i][0], owner = stacks[i][1] ? WHITE : BLACK;
        int caps = stacks[i][2], pris = stacks[i][3];
        if (sq >= K_MAXSQ || !((g->mask >> sq) & 1)) {
            snprintf(err, errlen, "square int %d is not on the %s board", sq, g->name);
            return -1;
        }
        if (p->caps[sq]) {
            snprintf(err, errlen, "square %s is given twice", g->names[sq]);
            return -1;
        }
        if (caps < 1 || caps > g->men || pris > g->men) { /* R6 */
            snprintf(err, errlen, "square %s: stack of %d over %d is not a valid piece (R6)",
                     g->names[sq], caps, pris);
            return -1;
        }
        p->caps[sq] = (uint8_t)caps;
        p->pris[sq] = (uint8_t)pris;
        p->owned[owner] |= BB1(sq);
        men[owner] += caps;
        men[!owner] += pris;
    }
    if (men[WHITE] > g->men || men[BLACK] > g->men) {
        snprintf(err, errlen, "White has %d men and Black %d; %s has %d each", men[WHITE],
                 men[BLACK], g->name, g->men);
        return -1;
    }
    p->key = pos_compute_key(p);
    return 0;
}

static inline void save_sq(const pos_t *p, undo_t *u, int sq)
{
    sqsave_t *s = &u->save[u->n++];
    s->sq = (uint8_t)sq;
    s->owner = (uint8_t)pos_owner(p, sq);
    s->caps = p->caps[sq];
    s->pris = p->pris[sq];
}

/* Replace the stack on sq, keeping bitboards and key in step (caps 0: vacant). */
static inline void put(pos_t *p, int sq, int owner, int caps, int pris)
{
    if (p->caps[sq]) {
        int o = pos_owner(p, sq);
        p->key ^= z_stack[sq][o][p->caps[sq]] ^ z_pris[sq][p->pris[sq]];
        p->owned[o] &= ~BB1(sq);
    }
    p->caps[sq] = (uint8_t)caps;
    p->pris[sq] = (uint8_t)pris;
    if (caps) {
        p->owned[owner] |= BB1(sq);
        p->key ^= z_stack[sq][owner][caps] ^ z_pris[sq][pris];
    }
}

void pos_make(pos_t *p, const move_t *m, undo_t *u)
{
    int me = p->turn;
    u->key = p->key;
    u->hand[0] = p->hand[0];
    u->hand[1] = p->hand[1];
    u->n = 0;
    if (m->kind == MK_ENTER) { /* R13, R14: one man, or the whole hand as a shadowpiece */
        int sq = m->path[0];
        save_sq(p, u, sq);
        p->key ^= z_hand[me][p->hand[me]] ^ z_hand[me][p->hand[me] - m->men];
        p->hand[me] = (uint8_t)(p->hand[me] - m->men);
        put(p, sq, me, m->men, 0);
    } else if (m->kind == MK_STEP) { /* R17: the whole stack moves */
        int a = m->path[0], b = m->path[1];
        int k = p->caps[a], pr = p->pris[a];
        save_sq(p, u, a);
        save_sq(p, u, b);
        put(p, a, me, 0, 0);
        put(p, b, me, k, pr);
    } else {
        int a = m->path[0];
        int k = p->caps[a], pr = p->pris[a];
        save_sq(p, u, a);
        put(p, a, me, 0, 0); /* R10: the start is vacant once left */
        for (int i = 1; i < m->len; i++) {
            int over = (m->path[i - 1] + m->path[i]) / 2;
            int ko = p->caps[over], po = p->pris[over];
            save_sq(p, u, over);
            if (ko > 1)
                put(p, over, !me, ko - 1, po); /* R9: only the top man is taken */
            else
                put(p, over, me, po, 0); /* R9: prisoners liberated, or the square empties */
            pr++;                        /* R9: the taken man goes to the bottom */
        }
        int last = m->path[m->len - 1];
        save_sq(p, u, last);
        put(p, last, me, k, pr);
    }
    p->turn = (uint8_t)!me;
    p->key ^= z_turn;
}

void pos_unmake(pos_t *p, const undo_t *u)
{
    for (int i = u->n - 1; i >= 0; i--) {
        const sqsave_t *s = &u->save[i];
        bb_t bit = BB1(s->sq);
        p->owned[0] &= ~bit;
        p->owned[1] &= ~bit;
        if (s->caps)
            p->owned[s->owner] |= bit;
        p->caps[s->sq] = s->caps;
        p->pris[s->sq] = s->pris;
    }
    p->hand[0] = u->hand[0];
    p->hand[1] = u->hand[1];
    p->key = u->key;
    p->turn = (uint8_t)!p->turn;
}

int pos_equal(const pos_t *a, const pos_t *b)
{
    if (a->g != b->g || a->turn != b->turn || a->hand[0] != b->hand[0] ||
        a->hand[1] != b->hand[1] || a->owned[0] != b->owned[0] || a->owned[1] != b->owned[1])
        return 0;
    bb_t occ = a->owned[0] | a->owned[1];
    while (occ) {
        int sq = bb_lsb(occ);
        occ &= occ - 1;
        if (a->caps[sq] != b->caps[sq] || a->pris[sq] != b->pris[sq])
            return 0;
    }
    return 1;
}

static int run(char *buf, char letter, int n)
{
    if (n == 1) {
        buf[0] = letter;
        return 1;
    }
    return sprintf(buf, "%c%d", letter, n);
}

int pos_format(const pos_t *p, char *buf)
{
    const geo_t *g = p->g;
    int n = 0;
    if (strcmp(g->name, "9x9") != 0) /* R22: the default variant is left out */
        n += sprintf(buf + n, "%s ", g->name);
    n += sprintf(buf + n, "%c %d/%d", p->turn == WHITE ? 'w' : 'b', p->hand[WHITE],
                 p->hand[BLACK]);
    for (int i = 0; i < g->nsq; i++) {
        int sq = g->squares[i];
        if (!p->caps[sq])
            continue;
        int owner = pos_owner(p, sq);
        n += sprintf(buf + n, " %s:", g->names[sq]);
        if (p->pris[sq]) /* bottom to top: prisoners, then caps */
            n += run(buf + n, owner ? 'b' : 'w', p->pris[sq]);
        n += run(buf + n, owner ? 'w' : 'b', p->caps[sq]);
    }
    buf[n] = 0;
    return n;
}

int move_format(const geo_t *g, const move_t *m, char *buf)
{
    int n = 0;
    char sep = m->kind == MK_CAPTURE ? 'x' : '-';
    for (int i = 0; i < m->len; i++) {
        if (i)
            buf[n++] = sep;
        const char *name = g->names[m->path[i]];
        while (*name)
            buf[n++] = *name++;
    }
    buf[n] = 0;
    return n;
}

int pos_check(const pos_t *p, char *err, size_t errlen)
{
    const geo_t *g = p->g;
    int men[2] = {p->hand[0], p->hand[1]};
    if (p->owned[0] & p->owned[1]) {
        snprintf(err, errlen, "a square is owned by both colours");
        return -1;
    }
    if ((p->owned[0] | p->owned[1]) & ~g->mask) {
        snprintf(err, errlen, "a piece is off the board");
        return -1;
    }
    for (int sq = 0; sq < K_MAXSQ; sq++) {
        int occupied = (int)(((p->owned[0] | p->owned[1]) >> sq) & 1);
        if (occupied != (p->caps[sq] > 0) || (!occupied && p->pris[sq])) {
            snprintf(err, errlen, "square %d: bitboards and stack disagree", sq);
            return -1;
        }
        if (occupied) {
            int o = pos_owner(p, sq);
            men[o] += p->caps[sq];
            men[!o] += p->pris[sq];
        }
    }
    if (men[0] > g->men || men[1] > g->men) {
        snprintf(err, errlen, "too many men: %d white, %d black", men[1], men[0]);
        return -1;
    }
    if (p->key != pos_compute_key(p)) {
        snprintf(err, errlen, "incremental Zobrist key differs from the recomputed key");
        return -1;
    }
    return 0;
}
