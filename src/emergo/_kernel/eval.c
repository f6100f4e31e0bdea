/* Static evaluation: term counts from bitboards and one pass over the stacks (see eval.h). */
#include "eval.h"

const char *const eval_names[EV_NTERMS] = {
#define EV_NAME(name, def, doc) #name,
    EVAL_TERMS(EV_NAME)
#undef EV_NAME
};

const char *const eval_docs[EV_NTERMS] = {
#define EV_DOC(name, def, doc) doc,
    EVAL_TERMS(EV_DOC)
#undef EV_DOC
};

const int eval_defaults[EV_NTERMS] = {
#define EV_DEF(name, def, doc) def,
    EVAL_TERMS(EV_DEF)
#undef EV_DEF
};

void eval_terms(const pos_t *p, int out[EV_NTERMS])
{
    const geo_t *g = p->g;
    int me = p->turn, op = !me;
    bb_t occ = p->owned[0] | p->owned[1];
    bb_t empty = g->mask & ~occ;
    /* Per line: squares whose both neighbours on it exist (a piece there can be
     * jumped along it, R9); the rest of the board is safe from capture. */
    bb_t jumpable = 0, exposed = 0, free_nb = 0, victims[2] = {0, 0};
    int mobility[2] = {0, 0};
    for (int k = 0; k < g->npairs; k++) {
        int o = g->pair_off[k];
        bb_t line = (g->mask << o) & (g->mask >> o);
        bb_t up = empty >> o, down = empty << o; /* bit sq: sq + o / sq - o is vacant */
        jumpable |= line;
        exposed |= line & up & down;
        free_nb |= up | down;
        for (int c = 0; c < 2; c++) {
            mobility[c] += bb_count(p->owned[c] & up) + bb_count(p->owned[c] & down);
            /* c's piece on sq jumped by the other's piece on sq -/+ o (R9). */
            victims[c] |= p->owned[c] & (((p->owned[!c] << o) & up) | ((p->owned[!c] >> o) & down));
        }
    }
    bb_t safe = g->mask & ~jumpable;
    /* One pass per colour with local sums (branch-free bodies). */
    int caps[2], pris[2], thin[2], cap2[2], safe_p[2], exp_thin[2];
    for (int c = 0; c < 2; c++) {
        int sk = 0, sp = 0, st = 0, s2 = 0, ss = 0, se = 0;
        bb_t rest = p->owned[c];
        while (rest) {
            int sq = bb_lsb(rest);
            rest &= rest - 1;
            int k = p->caps[sq], pr = p->pris[sq];
            int t = k == 1 ? pr : 0;
            sk += k;
            sp += pr;
            st += t;
            s2 += k == 2 ? pr : 0;
            ss += (int)((safe >> sq) & 1) * pr;
            se += (int)((exposed >> sq) & 1) * t;
        }
        caps[c] = sk;
        pris[c] = sp;
        thin[c] = st;
        cap2[c] = s2;
        safe_p[c] = ss;
        exp_thin[c] = se;
    }
    int pieces[2] = {bb_count(p->owned[0]), bb_count(p->owned[1])};
    int edge[2] = {bb_count(p->owned[0] & safe), bb_count(p->owned[1] & safe)};
    int threat_pieces = 0, threat_lib = 0, threat_single = 0;
    bb_t v = victims[me];
    while (v) {
        int sq = bb_lsb(v);
        v &= v - 1;
        threat_pieces++;
        if (p->caps[sq] == 1) {
            threat_lib += p->pris[sq];
            threat_single += !p->pris[sq];
        }
    }
    int entering = p->hand[me] > 0; /* R8: he must enter, he cannot step away */
    int phase_enter = (p->hand[0] | p->hand[1]) > 0;
    out[EV_men] = caps[me] + pris[me] - caps[op] - pris[op];
    out[EV_hand] = p->hand[me] - p->hand[op];
    out[EV_pieces] = pieces[me] - pieces[op];
    out[EV_prisoners] = pris[me] - pris[op];
    out[EV_thin_prisoners] = thin[me] - thin[op];
    out[EV_cap2_prisoners] = cap2[me] - cap2[op];
    out[EV_safe_prisoners] = safe_p[me] - safe_p[op];
    out[EV_exposed_thin] = exp_thin[me] - exp_thin[op];
    out[EV_mobility] = mobility[me] - mobility[op];
    out[EV_blocked] = bb_count(p->owned[me] & ~free_nb) - bb_count(p->owned[op] & ~free_nb);
    out[EV_edge] = edge[me] - edge[op];
    out[EV_shadow] = (p->hand[op] ? 0 : p->hand[me]) - (p->hand[me] ? 0 : p->hand[op]); /* R14 */
    out[EV_threat_pieces_enter] = entering ? threat_pieces : 0;
    out[EV_threat_pieces_move] = entering ? 0 : threat_pieces;
    out[EV_threat_liberate_enter] = entering ? threat_lib : 0;
    out[EV_threat_liberate_move] = entering ? 0 : threat_lib;
    out[EV_threat_single] = threat_single;
    out[EV_tempo_enter] = phase_enter;
    out[EV_tempo_move] = !phase_enter;
}

int evaluate(const pos_t *p, const int *w)
{
    int t[EV_NTERMS];
    eval_terms(p, t);
    int v = 0;
    for (int i = 0; i < EV_NTERMS; i++)
        v += w[i] * t[i];
    if (v > EVAL_MAX) /* far below the win values of the search, whatever the weights */
        v = EVAL_MAX;
    else if (v < -EVAL_MAX)
        v = -EVAL_MAX;
    return v ? v : 1; /* 0 is kept for proven draws */
}
