/* Static evaluation of Emergo positions: a linear sum of named terms (weights from data).
 *
 * Every term is a count taken from the position (R5, R6, R9, R14, R15); the
 * value is sum(weight[i] * term[i]) in centi-men (100 = one man), from the
 * view of the player to move.  Most terms are "mine minus his" differences of
 * the same count for both colours; the threat terms look at the player to
 * move only (at a quiet leaf only he can be attacked: had he a capture, he
 * would have to make it, R8).  Being linear, the evaluation is fitted by
 * logistic regression (tools/tune.py) on features from eval_terms().
 *
 * The evaluation never returns 0, so a search value of exactly 0 means a
 * proven draw (R19); its magnitude stays far below the win values.
 */
#ifndef EMERGO_EVAL_H
#define EMERGO_EVAL_H

#include "position.h"

/* X-macro of the terms: name, hand-set default (centi-men per unit), meaning. */
#define EVAL_TERMS(X)                                                                         \
    X(men, 100, "men in the stacks owned, caps and prisoners (R5, R6)")                      \
    X(hand, 100, "men in hand (R13)")                                                          \
    X(pieces, 15, "stacks owned")                                                              \
    X(prisoners, 0, "prisoners held under own caps (R9)")                                      \
    X(thin_prisoners, -35, "prisoners under a cap of one man: one jump frees them (R9)")      \
    X(cap2_prisoners, -12, "prisoners under a cap of two men")                                 \
    X(safe_prisoners, 20, "prisoners on squares no jump can reach (board edge)")               \
    X(exposed_thin, -12, "prisoners under a one-man cap with both neighbours on a line vacant")\
    X(mobility, 3, "step moves (R17)")                                                         \
    X(blocked, -8, "stacks with no vacant neighbour")                                          \
    X(edge, 4, "stacks on squares no jump can reach")                                          \
    X(shadow, 15, "men in hand when the opponent has none: the shadowpiece to come (R14)")    \
    X(threat_pieces_enter, -40, "mover's stacks the opponent can jump, entering phase")        \
    X(threat_pieces_move, -25, "mover's stacks the opponent can jump, movement phase")         \
    X(threat_liberate_enter, -70, "prisoners the opponent could free by a jump, entering")     \
    X(threat_liberate_move, -50, "prisoners the opponent could free by a jump, movement")      \
    X(threat_single, -20, "mover's single men the opponent can jump (the piece vanishes)")    \
    X(tempo_enter, 10, "side to move, entering phase")                                         \
    X(tempo_move, 10, "side to move, movement phase")

enum {
#define EV_ENUM(name, def, doc) EV_##name,
    EVAL_TERMS(EV_ENUM)
#undef EV_ENUM
    EV_NTERMS
};

extern const char *const eval_names[EV_NTERMS];
extern const char *const eval_docs[EV_NTERMS];
extern const int eval_defaults[EV_NTERMS];

/* The term counts of a position, from the view of the player to move. */
void eval_terms(const pos_t *p, int out[EV_NTERMS]);

#define EVAL_MAX 100000 /* |evaluate| <= EVAL_MAX */
#define EV_MAXWEIGHT 10000 /* |weight| <= EV_MAXWEIGHT: sums stay far from int overflow */

/* sum(w[i] * term[i]) clamped to EVAL_MAX, never 0 (see above). */
int evaluate(const pos_t *p, const int *w);

#endif
