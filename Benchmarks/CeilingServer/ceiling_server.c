// See ceiling_server.h.
#define _GNU_SOURCE
#include "ceiling_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

enum { MAX_LOOPS = 16, BATCH = 64 };

/// One connection: how far into "\r\n\r\n" the last read ended.
typedef struct client {
    int fd;
    int matched;
} client;

static unsigned char *answer;
static size_t answer_len;
static int loop_count;
static int listeners[MAX_LOOPS];
static int epolls[MAX_LOOPS];
static pthread_t threads[MAX_LOOPS];
static atomic_int stopping;

static void *run(void *argument) {
    int index = (int)(intptr_t)argument;
    int epoll_fd = epolls[index], listen_fd = listeners[index];
    struct epoll_event events[256];
    unsigned char input[16384];
    struct iovec vectors[BATCH];
    while (!atomic_load(&stopping)) {
        int count = epoll_wait(epoll_fd, events, 256, 100);
        for (int i = 0; i < count; i++) {
            if (events[i].data.ptr == NULL) {
                for (;;) {
                    int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
                    if (fd < 0) break;
                    int one = 1;
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    client *c = calloc(1, sizeof *c);
                    c->fd = fd;
                    struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
                    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
                }
                continue;
            }
            client *c = events[i].data.ptr;
            ssize_t got = read(c->fd, input, sizeof input);
            if (got <= 0) {
                close(c->fd);
                free(c);
                continue;
            }
            // Count the heads that end in these bytes ("\r\n\r\n", possibly split across reads).
            int requests = 0;
            static const char end[] = "\r\n\r\n";
            for (ssize_t k = 0; k < got; k++) {
                if (input[k] == (unsigned char)end[c->matched]) {
                    if (++c->matched == 4) {
                        requests++;
                        c->matched = 0;
                    }
                } else {
                    c->matched = input[k] == '\r' ? 1 : 0;
                }
            }
            while (requests > 0) {
                int batch = requests < BATCH ? requests : BATCH;
                for (int k = 0; k < batch; k++) vectors[k] = (struct iovec){answer, answer_len};
                ssize_t ignored = writev(c->fd, vectors, batch);
                (void)ignored;
                requests -= batch;
            }
        }
    }
    return NULL;
}

int ceiling_start(const unsigned char *response, size_t length, int loops, uint16_t *port) {
    if (loops < 1 || loops > MAX_LOOPS) return -1;
    answer = malloc(length);
    if (!answer) return -1;
    memcpy(answer, response, length);
    answer_len = length;
    atomic_store(&stopping, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = 0};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    for (int i = 0; i < loops; i++) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
        if (fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, 4096) != 0) return -1;
        if (i == 0) {
            socklen_t size = sizeof address;
            getsockname(fd, (struct sockaddr *)&address, &size);
            *port = ntohs(address.sin_port);
        }
        listeners[i] = fd;
        epolls[i] = epoll_create1(EPOLL_CLOEXEC);
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = NULL};
        epoll_ctl(epolls[i], EPOLL_CTL_ADD, fd, &event);
    }
    loop_count = loops;
    for (int i = 0; i < loops; i++) {
        if (pthread_create(&threads[i], NULL, run, (void *)(intptr_t)i) != 0) return -1;
    }
    return 0;
}

void ceiling_stop(void) {
    atomic_store(&stopping, 1);
    for (int i = 0; i < loop_count; i++) pthread_join(threads[i], NULL);
    for (int i = 0; i < loop_count; i++) {
        close(listeners[i]);
        close(epolls[i]);
    }
    loop_count = 0;
    free(answer);
    answer = NULL;
}
