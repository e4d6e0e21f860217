// The bounded pool of worker threads that runs deferred requests, apart from the event loops.
#ifndef LOOKD_WORKER_POOL_H
#define LOOKD_WORKER_POOL_H

typedef struct he_worker_pool he_worker_pool;

/// Runs one job on a worker thread (defined by the server: calls the handler, then posts the answer back to the
/// job's loop through its eventfd).
void he_worker_run(void *job);
/// Posts a job back to its loop unanswered (the pool is stopping); the loop answers 500.
void he_worker_cancel(void *job);

/// Starts `threads` shared workers and `reserved` workers that run only reserved-lane jobs, with room for `queue`
/// waiting jobs in each lane. Shared workers take a waiting reserved-lane job before a shared-lane one.
/// NULL when no shared thread can start.
he_worker_pool *he_worker_pool_start(int threads, int reserved, int queue);
/// Queues a job in the reserved lane (`reserved_lane` nonzero) or the shared one; returns -1 when that lane's
/// queue is full (the caller answers 503).
int he_worker_pool_submit(he_worker_pool *pool, void *job, int reserved_lane);
/// Lets running jobs finish, cancels waiting ones, joins the threads and frees the pool.
void he_worker_pool_stop(he_worker_pool *pool);

#endif
