// Time: the loop's clock, the cached Date field, and the sweep that enforces the deadlines (head, body, idle,
// write, lingering) and the minimum data rate of heads and bodies.
#define _GNU_SOURCE
#include "engine.h"

#include <sys/socket.h>
#include <time.h>

double he_monotonic_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

void he_loop_clock(loop *l) {
    struct timespec real;
    l->now = he_monotonic_now();
    clock_gettime(CLOCK_REALTIME, &real);
    l->realtime_offset = (double)real.tv_sec + (double)real.tv_nsec / 1e9 - l->now;
}

void he_refresh_date(loop *l) {
    time_t second = time(NULL);
    if (second == l->date_second) return;
    l->date_second = second;
    struct tm parts;
    gmtime_r(&second, &parts);
    l->date_len = strftime(l->date, sizeof l->date, "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &parts);
}

/// A head or body that has been arriving for longer than the grace period at less than the minimum data rate.
static int too_slow(const connection *c, const he_config *config, double now) {
    double elapsed = now - c->rate_since;
    return elapsed > config->rate_grace && (double)c->rate_bytes < config->min_data_rate * elapsed;
}

void he_sweep(loop *l) {
    he_server *server = l->server;
    const he_config *config = &server->config;
    int draining = atomic_load(&server->draining);
    for (int i = l->connection_count - 1; i >= 0; i--) {
        if (i >= l->connection_count) continue;
        connection *c = l->connections[i];
        if (c->job_pending) continue;
        if (c->pending > 0) {
            // A reader that stops reading is reset (its unsent bytes dropped); one that keeps reading is never cut.
            if (l->now - c->write_progress > config->write_timeout) {
                struct linger reset = {.l_onoff = 1, .l_linger = 0};
                setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
                he_close_connection(c);
            }
            continue;
        }
        switch (c->state) {
        case STATE_LINGERING:
            if (l->now - c->state_since > LINGER_SECONDS) he_close_connection(c);
            break;
        case STATE_IDLE:
            if (draining || l->now - c->idle_since > config->idle_timeout) he_close_connection(c);
            break;
        case STATE_HEAD:
            if (l->now - c->state_since > config->head_timeout || too_slow(c, config, l->now)) {
                he_refusal slow = {408, "request_timeout", "the request head did not arrive in time"};
                c->head.keep_alive = 0;
                he_refuse_request(c, &slow);
                he_flush(c);
                he_update_interest(c);
            }
            break;
        case STATE_BODY:
            if (l->now - c->state_since > config->body_timeout || too_slow(c, config, l->now)) {
                he_refusal slow = {408, "request_timeout", "the request body stopped arriving or arrived too slowly"};
                he_refuse_request(c, &slow);
                he_flush(c);
                he_update_interest(c);
            }
            break;
        default:
            break;
        }
    }
}
