// The bounded worker pool (see worker_pool.h): two rings of waiting jobs (the reserved lane's and the shared
// lane's) under one mutex, and two condition variables: one the shared threads wait on, one the reserved threads
// wait on. A shared thread takes a reserved-lane job before a shared-lane one; a reserved thread takes only
// reserved-lane jobs, so those never wait behind shared-lane work however long it runs. A thread runs a shared-lane
// job at a lower CPU priority (SHARED_LANE_NICE): on busy cores, the event loops (SDK fetches, cache hits) and the
// reserved lane (fetch misses, publishes) run first, and shared-lane work takes the CPU they leave.
#define _GNU_SOURCE
#include "worker_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/// How much lower (in nice steps, Linux per-thread priority) a shared-lane job runs than the process: 10 steps give
/// it about a tenth of a core's time against one thread at the process's priority (CFS weights 1024 and 110).
enum { SHARED_LANE_NICE = 10 };

typedef struct lane {
    void **jobs;
    int capacity, first, count;
} lane;

struct he_worker_pool {
    pthread_mutex_t lock;
    pthread_cond_t shared_ready;
    pthread_cond_t reserved_ready;
    lane lanes[2]; // [0] shared, [1] reserved
    int stopping;
    pthread_t *threads;
    int thread_count, shared_threads;
};

static void *take(lane *queue) {
    void *job = queue->jobs[queue->first];
    queue->first = (queue->first + 1) % queue->capacity;
    queue->count--;
    return job;
}

/// Sets the calling thread's nice value (setpriority on its thread id). Returns 0, or -1 when not allowed: raising it
/// back needs CAP_SYS_NICE or RLIMIT_NICE, so without them a shared thread stays lowered for reserved-lane jobs too
/// (the reserved threads, never lowered, still run those at the process's priority).
static int set_thread_nice(int nice) { return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice); }

static void *work(he_worker_pool *pool, int reserved) {
    lane *mine = &pool->lanes[1], *shared = &pool->lanes[0];
    pthread_cond_t *ready = reserved ? &pool->reserved_ready : &pool->shared_ready;
    // The process's priority, the reserved lane's; a shared-lane job runs SHARED_LANE_NICE steps lower (at most 19).
    int base = getpriority(PRIO_PROCESS, 0);
    int lowered = base + SHARED_LANE_NICE > 19 ? 19 : base + SHARED_LANE_NICE;
    int current = base;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        while (mine->count == 0 && (reserved || shared->count == 0) && !pool->stopping) pthread_cond_wait(ready, &pool->lock);
        if (pool->stopping) {
            pthread_mutex_unlock(&pool->lock);
            return NULL;
        }
        int reserved_job = mine->count > 0;
        void *job = reserved_job ? take(mine) : take(shared);
        pthread_mutex_unlock(&pool->lock);
        int wanted = reserved_job ? base : lowered;
        if (wanted != current && set_thread_nice(wanted) == 0) current = wanted;
        he_worker_run(job);
    }
}

static void *shared_worker(void *argument) { return work(argument, 0); }
static void *reserved_worker(void *argument) { return work(argument, 1); }

he_worker_pool *he_worker_pool_start(int threads, int reserved, int queue) {
    if (reserved < 0) reserved = 0;
    he_worker_pool *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    for (int i = 0; i < 2; i++) {
        pool->lanes[i].jobs = calloc((size_t)queue, sizeof(void *));
        pool->lanes[i].capacity = queue;
    }
    pool->threads = calloc((size_t)(threads + reserved), sizeof *pool->threads);
    if (!pool->lanes[0].jobs || !pool->lanes[1].jobs || !pool->threads) {
        free(pool->lanes[0].jobs);
        free(pool->lanes[1].jobs);
        free(pool->threads);
        free(pool);
        return NULL;
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->shared_ready, NULL);
    pthread_cond_init(&pool->reserved_ready, NULL);
    for (int i = 0; i < threads + reserved; i++) {
        if (pthread_create(&pool->threads[i], NULL, i < threads ? shared_worker : reserved_worker, pool) != 0) break;
        // Named for `top -H`, perf and /proc/PID/task/*/comm (at most 15 bytes).
        pthread_setname_np(pool->threads[i], i < threads ? "lookd-shared" : "lookd-reserved");
        pool->thread_count++;
        if (i < threads) pool->shared_threads++;
    }
    if (pool->shared_threads == 0) {
        he_worker_pool_stop(pool);
        return NULL;
    }
    return pool;
}

int he_worker_pool_submit(he_worker_pool *pool, void *job, int reserved_lane) {
    lane *queue = &pool->lanes[reserved_lane ? 1 : 0];
    pthread_mutex_lock(&pool->lock);
    if (queue->count == queue->capacity || pool->stopping) {
        pthread_mutex_unlock(&pool->lock);
        return -1;
    }
    queue->jobs[(queue->first + queue->count) % queue->capacity] = job;
    queue->count++;
    // A reserved-lane job may be taken by either kind of thread: wake one of each (the one that finds nothing
    // waits again).
    if (reserved_lane) pthread_cond_signal(&pool->reserved_ready);
    pthread_cond_signal(&pool->shared_ready);
    pthread_mutex_unlock(&pool->lock);
    return 0;
}

void he_worker_pool_stop(he_worker_pool *pool) {
    pthread_mutex_lock(&pool->lock);
    pool->stopping = 1;
    pthread_cond_broadcast(&pool->shared_ready);
    pthread_cond_broadcast(&pool->reserved_ready);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->thread_count; i++) pthread_join(pool->threads[i], NULL);
    for (int l = 0; l < 2; l++) {
        lane *queue = &pool->lanes[l];
        for (int i = 0; i < queue->count; i++) he_worker_cancel(queue->jobs[(queue->first + i) % queue->capacity]);
        free(queue->jobs);
    }
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->shared_ready);
    pthread_cond_destroy(&pool->reserved_ready);
    free(pool->threads);
    free(pool);
}
