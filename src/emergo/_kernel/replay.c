/* Replaying given moves in a game: each path matched against the legal moves (R21). */
#include "replay.h"

#include <string.h>

int game_find(const game_t *gm, const move_t *want, move_t *out)
{
    for (size_t i = 0; i < gm->ms.count; i++) {
        ms_move(gm->pos.g, &gm->ms, i, out);
        if (out->len == want->len && !memcmp(out->path, want->path, want->len))
            return 0;
    }
    return -1;
}

int game_replay(game_t *gm, const move_t *paths, size_t n, int *term, size_t *bad)
{
    int winner;
    for (size_t ply = 0;; ply++) {
        *term = game_status(gm, &winner);
        if (*term == TERM_ERROR)
            return REPLAY_NOMEM;
        if (ply == n)
            return REPLAY_OK;
        *bad = ply;
        if (*term != TERM_NONE)
            return REPLAY_OVER;
        move_t m;
        if (game_find(gm, &paths[ply], &m) < 0)
            return REPLAY_ILLEGAL;
        if (game_play(gm, &m) < 0)
            return REPLAY_NOMEM;
    }
}

void path_text(const game_t *gm, const move_t *want, char *buf)
{
    const geo_t *g = gm->pos.g;
    int on_board = want->len > 0;
    for (int i = 0; i < want->len; i++)
        on_board &= want->path[i] < K_MAXSQ && ((g->mask >> want->path[i]) & 1);
    if (!on_board) {
        strcpy(buf, "(not a path on this board)");
        return;
    }
    move_t m = *want;
    m.kind = m.len == 2 && gm->ms.kind != MK_CAPTURE ? MK_STEP : MK_CAPTURE;
    move_format(g, &m, buf);
}
