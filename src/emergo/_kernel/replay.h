/* Replaying given moves in a game (R21 paths against the legal moves, R18-R19 after each). */
#ifndef EMERGO_REPLAY_H
#define EMERGO_REPLAY_H

#include "playout.h"

/* Why a replay stopped early. */
enum { REPLAY_OK = 0, REPLAY_ILLEGAL = 1, REPLAY_OVER = 2, REPLAY_NOMEM = -1 };

/* The legal move of the game's current position (after game_status) whose
 * path is want's (squares only: the kind and size follow from the position,
 * R21); 0 and the move in *out, or -1 when no legal move has that path. */
int game_find(const game_t *gm, const move_t *want, move_t *out);

/* Play paths[0..n) from the game's current position.  Returns REPLAY_OK, or
 * REPLAY_ILLEGAL / REPLAY_OVER with *bad the index of the move that is not
 * legal or comes after the end of the game (R18, R19; *term says which), or
 * REPLAY_NOMEM.  *term is the game's status after the last move played. */
int game_replay(game_t *gm, const move_t *paths, size_t n, int *term, size_t *bad);

/* The R21 text of a path for a message: "(not a path on this board)" when
 * a square is off the board.  buf needs MOVE_TEXT_MAX bytes. */
void path_text(const game_t *gm, const move_t *want, char *buf);

#endif
