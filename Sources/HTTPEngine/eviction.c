// Eviction: which open connection makes room for a newcomer when the connection table is full, so that slow or idle
// clients never lock others out (http_engine.h, connections_for_new_addresses), and the hand-over of a newcomer to
// the next loop when the loop that accepted it has no connection it may close.
#define _GNU_SOURCE
#include "engine.h"

#include <string.h>
#include <unistd.h>

/// How little a connection is worth keeping, in `*score` (lower goes first): a lingering one (refused, its input
/// drained) below everything, then idle keep-alive connections (the longest idle lowest), then requests still
/// arriving, by bytes per second since their head or body began (the first second counted whole, so a connection
/// just opened is judged by what it sent, not by a division by almost nothing). Returns 0 for a connection never
/// evicted: a request being handled, or one with a response or pipelined requests still to write or read.
static int eviction_score(const connection *c, double now, double *score) {
    if (c->job_pending || c->pending > 0) return 0;
    switch (c->state) {
    case STATE_LINGERING:
        *score = -2e12;
        return 1;
    case STATE_IDLE:
        if (c->in_len > 0) return 0;
        *score = -1e12 - (now - c->idle_since);
        return 1;
    case STATE_HEAD:
    case STATE_BODY: {
        double elapsed = now - c->rate_since;
        *score = (double)c->rate_bytes / (elapsed > 1 ? elapsed : 1);
        return 1;
    }
    default:
        return 0;
    }
}

int he_evict_for(loop *l, const he_address *address, int count) {
    he_server *server = l->server;
    connection *victim = NULL;
    double best = 0;
    for (int i = 0; i < l->connection_count; i++) {
        connection *c = l->connections[i];
        double score;
        if (!eviction_score(c, l->now, &score)) continue;
        if (victim && score >= best) continue;
        if (memcmp(&c->address, address, sizeof *address) == 0) continue;
        // Fairness: an address never loses a request still arriving to one that holds more connections than it does.
        // An idle keep-alive connection (or a refused one draining) goes for any newcomer: closing it loses no request,
        // as a server may close an idle connection at any time and its client opens a new one (RFC 9112 §9.5, §9.3.1).
        // Counting those too refused an address holding one busy connection (a publish being handled) a second one
        // whenever the idle connections all came from single-connection addresses (docs/hardening.md, `make abuse`).
        int in_progress = c->state == STATE_HEAD || c->state == STATE_BODY;
        if (in_progress && he_address_table_count(server->addresses, &c->address) < count) continue;
        victim = c;
        best = score;
    }
    if (!victim) return 0;
    he_close_connection(victim);
    return 1;
}

int he_hand_over(loop *l, int fd, const he_address *address, int count, int hops) {
    he_server *server = l->server;
    if (hops >= server->loop_count || atomic_load(&server->stopping)) return -1;
    loop *next = &server->loops[(l->index + 1) % server->loop_count];
    pthread_mutex_lock(&next->done_lock);
    int queued = next->handover_count < MAX_HANDOVERS;
    if (queued) next->handovers[next->handover_count++] = (handover){fd, *address, count, hops};
    pthread_mutex_unlock(&next->done_lock);
    if (!queued) return -1;
    he_wake_loop(next);
    return 0;
}

void he_take_handovers(loop *l) {
    handover taken[MAX_HANDOVERS];
    pthread_mutex_lock(&l->done_lock);
    int count = l->handover_count;
    memcpy(taken, l->handovers, (size_t)count * sizeof *taken);
    l->handover_count = 0;
    pthread_mutex_unlock(&l->done_lock);
    he_server *server = l->server;
    for (int i = 0; i < count; i++) {
        handover *h = &taken[i];
        if (he_evict_for(l, &h->address, h->count)) {
            he_start_connection(l, h->fd, &h->address);
        } else if (he_hand_over(l, h->fd, &h->address, h->count, h->hops + 1) != 0) {
            atomic_fetch_sub(&server->open, 1);
            he_address_table_release(server->addresses, &h->address);
            he_refuse_connection(h->fd);
        }
    }
}

void he_drop_handovers(loop *l) {
    pthread_mutex_lock(&l->done_lock);
    for (int i = 0; i < l->handover_count; i++) close(l->handovers[i].fd);
    l->handover_count = 0;
    pthread_mutex_unlock(&l->done_lock);
}
