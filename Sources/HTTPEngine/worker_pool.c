// The bounded worker pool (see worker_pool.h): a ring of waiting jobs under one mutex and condition variable.
#include "worker_pool.h"

#include <pthread.h>
#include <stdlib.h>

struct he_worker_pool {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    void **jobs;
    int capacity, first, count;
    int stopping;
    pthread_t *threads;
    int thread_count;
};

static void *work(void *argument) {
    he_worker_pool *pool = argument;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        while (pool->count == 0 && !pool->stopping) pthread_cond_wait(&pool->ready, &pool->lock);
        if (pool->stopping) {
            pthread_mutex_unlock(&pool->lock);
            return NULL;
        }
        void *job = pool->jobs[pool->first];
        pool->first = (pool->first + 1) % pool->capacity;
        pool->count--;
        pthread_mutex_unlock(&pool->lock);
        he_worker_run(job);
    }
}

he_worker_pool *he_worker_pool_start(int threads, int queue) {
    he_worker_pool *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->jobs = calloc((size_t)queue, sizeof *pool->jobs);
    pool->threads = calloc((size_t)threads, sizeof *pool->threads);
    if (!pool->jobs || !pool->threads) {
        free(pool->jobs);
        free(pool->threads);
        free(pool);
        return NULL;
    }
    pool->capacity = queue;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->ready, NULL);
    for (int i = 0; i < threads; i++) {
        if (pthread_create(&pool->threads[i], NULL, work, pool) != 0) break;
        pool->thread_count++;
    }
    if (pool->thread_count == 0) {
        he_worker_pool_stop(pool);
        return NULL;
    }
    return pool;
}

int he_worker_pool_submit(he_worker_pool *pool, void *job) {
    pthread_mutex_lock(&pool->lock);
    if (pool->count == pool->capacity || pool->stopping) {
        pthread_mutex_unlock(&pool->lock);
        return -1;
    }
    pool->jobs[(pool->first + pool->count) % pool->capacity] = job;
    pool->count++;
    pthread_cond_signal(&pool->ready);
    pthread_mutex_unlock(&pool->lock);
    return 0;
}

void he_worker_pool_stop(he_worker_pool *pool) {
    pthread_mutex_lock(&pool->lock);
    pool->stopping = 1;
    pthread_cond_broadcast(&pool->ready);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->thread_count; i++) pthread_join(pool->threads[i], NULL);
    for (int i = 0; i < pool->count; i++) he_worker_cancel(pool->jobs[(pool->first + i) % pool->capacity]);
    pthread_mutex_destroy(&pool->lock);
    pthread_cond_destroy(&pool->ready);
    free(pool->jobs);
    free(pool->threads);
    free(pool);
}
