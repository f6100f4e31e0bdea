/* Stopping a long kernel loop from outside: Ctrl-C, a caller's stop.
 *
 * The kernel's loops (perft, playouts, self-check, batches, the search) run
 * without the GIL, so Python never sees a signal while they run.  Each loop
 * ticks a halt_t now and then; every HALT_EVERY ticks it calls the owner's
 * poll hook (the bindings take the GIL there, now and then, and let Python
 * handle pending signals), and once a poll says stop the loop unwinds and
 * returns early.  A loop given no halt_t (NULL) runs to its end.  This header
 * knows nothing of Python.
 */
#ifndef EMERGO_HALT_H
#define EMERGO_HALT_H

#define HALT_EVERY 1024 /* ticks between polls: each is a node, a game ply or a position */

typedef struct halt halt_t;
struct halt {
    int stopped;              /* set once a poll said stop: every loop unwinds */
    unsigned ticks;
    int (*poll)(halt_t *h);   /* nonzero: stop (NULL: never) */
};

/* Poll now; nonzero once stopped. */
static inline int halt_poll(halt_t *h)
{
    if (h && !h->stopped && h->poll && h->poll(h))
        h->stopped = 1;
    return h && h->stopped;
}

/* One unit of work done; nonzero once stopped (polls every HALT_EVERY ticks). */
static inline int halt_tick(halt_t *h)
{
    if (!h)
        return 0;
    if (++h->ticks % HALT_EVERY == 0)
        return halt_poll(h);
    return h->stopped;
}

#endif
