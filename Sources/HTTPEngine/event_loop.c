// The event loops: one thread and one epoll set each, and the answers worker threads post back to them.
#define _GNU_SOURCE
#include "engine.h"

#include <sched.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <unistd.h>

/// An epoll_wait that took longer than this slept (a call that finds events ready takes a microsecond or two).
static const double SLEPT_SECONDS = 20e-6;
/// A loop that has found events ready on every wait for this long yields its core once (see run_loop).
static const double YIELD_AFTER_SECONDS = 500e-6;

void he_wake_loop(loop *l) {
    uint64_t one = 1;
    ssize_t ignored = write(l->wake_fd, &one, sizeof one);
    (void)ignored;
}

/// Queues the answers workers have finished and resumes their connections.
static void take_answers(loop *l) {
    pthread_mutex_lock(&l->done_lock);
    connection *done = l->done;
    l->done = NULL;
    pthread_mutex_unlock(&l->done_lock);
    while (done) {
        connection *c = done;
        done = c->done_next;
        c->job_pending = 0;
        if (c->fd < 0) {
            // Closed while its job ran: freed with this iteration's closed connections.
            if (!c->listed_closed) {
                c->next = l->closed;
                c->listed_closed = 1;
                l->closed = c;
            }
            continue;
        }
        he_prepared *answer = c->exchange.result;
        c->exchange.result = NULL;
        if (answer) {
            he_queue_prepared(c, answer, c->exchange.result_close);
            he_prepared_release(answer);
        } else {
            he_refusal lost = {500, "internal", "the request was not answered"};
            he_refuse_request(c, &lost);
        }
        he_finish_request(c);
        he_process(c);
        // Not a plain flush: when this answer took the output past the mark, he_process held the requests after it,
        // and if the write below empties the output, nothing would wake the connection for them again.
        he_write_and_resume(c);
        he_update_interest(c);
    }
}

void *he_run_loop(void *argument) {
    loop *l = argument;
    he_server *server = l->server;
    struct epoll_event events[256];
    double next_sweep = 0;
    int listening = 1;
    while (!atomic_load(&server->stopping)) {
        double waited = he_monotonic_now();
        int count = epoll_wait(l->epoll_fd, events, 256, SWEEP_MILLISECONDS);
        he_loop_clock(l);
        if (l->now - waited > SLEPT_SECONDS) {
            l->busy_since = l->now;
        } else if (l->now - l->busy_since > YIELD_AFTER_SECONDS) {
            // Busy without sleeping for a while: let the other runnable threads on this core (the sibling loop, a
            // co-located client or sidecar) run now. Otherwise they wait for the scheduler's next tick (4 ms at
            // 250 Hz), and so do the requests of every connection they serve. Nothing here depends on the number
            // of cores: it matters wherever a loop shares its core with another runnable thread, and where it
            // does not the call returns at once. Measured (docs/benchmarks.md, wrk -t2 -c64 on 2 shared cores):
            // keep-alive's p99 fell from 6.9-7.9 ms to 1.3-2.2 ms at the same throughput; a yield costs about
            // 1.6 us, at most once per 500 us of busy loop (under 0.4%).
            sched_yield();
            he_loop_clock(l);
            l->busy_since = l->now;
        }
        he_refresh_date(l);
        for (int i = 0; i < count; i++) {
            void *tag = events[i].data.ptr;
            if (tag == &l->listen_fd) {
                he_accept_connections(l);
            } else if (tag == &l->wake_fd) {
                uint64_t value;
                ssize_t ignored = read(l->wake_fd, &value, sizeof value);
                (void)ignored;
                he_take_handovers(l);
                take_answers(l);
            } else {
                he_on_event(tag, events[i].events);
            }
        }
        if (listening && atomic_load(&server->draining)) {
            epoll_ctl(l->epoll_fd, EPOLL_CTL_DEL, l->listen_fd, NULL);
            close(l->listen_fd);
            l->listen_fd = -1;
            listening = 0;
            next_sweep = 0;
        }
        if (l->now >= next_sweep) {
            he_sweep(l);
            next_sweep = l->now + SWEEP_MILLISECONDS / 1000.0;
        }
        he_free_closed(l);
    }
    while (l->connection_count > 0) he_close_connection(l->connections[0]);
    take_answers(l);
    he_free_closed(l);
    while (l->free_list) {
        connection *c = l->free_list;
        l->free_list = c->next;
        he_free_connection(c);
    }
    return NULL;
}

void he_post_answer(connection *c) {
    loop *l = c->loop;
    pthread_mutex_lock(&l->done_lock);
    c->done_next = l->done;
    l->done = c;
    pthread_mutex_unlock(&l->done_lock);
    he_wake_loop(l);
}

void he_worker_run(void *job) {
    connection *c = job;
    he_server *server = c->loop->server;
    he_exchange *exchange = &c->exchange;
    exchange->on_worker = 1;
    exchange->answered = 0;
    server->config.handler(server->config.context, &exchange->request, exchange, 1);
    int parked = HE_PARK_PARKED;
    // Parked and not answered yet: whoever answers posts it. Otherwise (not parked, or answered already) post now.
    if (atomic_compare_exchange_strong(&exchange->park, &parked, HE_PARK_RETURNED)) return;
    he_post_answer(c);
}

void he_worker_cancel(void *job) { he_post_answer(job); }
