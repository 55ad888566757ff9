#define _GNU_SOURCE
#include "CSystem.h"
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <sched.h>

#include <ftw.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <signal.h>
#include <unistd.h>

void meridian_set_thread_name(const char *name) {
    char short_name[16];
    snprintf(short_name, sizeof short_name, "%s", name);
    pthread_setname_np(pthread_self(), short_name);
}

int meridian_make_thread_background(void) {
    struct sched_param p = { .sched_priority = 0 };
    if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &p) == 0) return 0;
    // Linux nice values are per thread.
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
}

void meridian_tune_malloc(void) {
    mallopt(M_MMAP_THRESHOLD, 1024 * 1024);
    // One heap for every thread. With one per thread (glibc's default, up to 8 per core),
    // each tile worker keeps the pictures it decoded, and what they leave free when freed,
    // in a heap of its own: 8-10 MiB more at the same view. Small allocations still take no
    // lock (the per-thread cache), and tile workers allocate a picture at a time.
    mallopt(M_ARENA_MAX, 1);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st; (void)type; (void)ftw;
    remove(path); // and keep going: remove what can be
    return 0;
}

int meridian_remove_tree(const char *path) {
    return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

void meridian_trim_memory(void) {
    malloc_trim(0);
}

static volatile sig_atomic_t interrupted_by = 0;

static void on_interrupt(int sig) {
    if (interrupted_by) { signal(sig, SIG_DFL); raise(sig); return; }
    interrupted_by = sig;
}

void meridian_watch_interrupts(void) {
    struct sigaction action = {0};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    // A parent may have started us with them blocked (Foundation's Process does).
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

int meridian_interrupted(void) { return interrupted_by; }
