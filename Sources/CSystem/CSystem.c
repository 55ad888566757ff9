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
#include <spawn.h>
#include <fcntl.h>

void meridian_set_thread_name(const char *name) {
    char short_name[16];
    snprintf(short_name, sizeof short_name, "%s", name);
    pthread_setname_np(pthread_self(), short_name);
}

int meridian_set_thread_batch(int batch) {
    struct sched_param p = { .sched_priority = 0 };
    return pthread_setschedparam(pthread_self(), batch ? SCHED_BATCH : SCHED_OTHER, &p);
}

int meridian_set_thread_priority(int nice_value, int batch) {
    int policy = meridian_set_thread_batch(batch);
    // Linux nice values are per thread.
    int nice = setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice_value);
    return policy != 0 ? policy : nice;
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

extern char **environ;

int meridian_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
                   const char *dir, const char *out, const char *err) {
    posix_spawn_file_actions_t actions;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc != 0) return rc;
    rc = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (rc == 0) rc = posix_spawn_file_actions_addopen(&actions, 1, out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (rc == 0) rc = posix_spawn_file_actions_addopen(&actions, 2, err ? err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (rc == 0 && dir) rc = posix_spawn_file_actions_addchdir_np(&actions, dir);
    /* The window ignores SIGTERM and SIGINT (it ends its loop on them) and SIGXFSZ: an ignored
       signal stays ignored across exec, so the child gets the defaults back and no blocked
       signals, or terminating it would do nothing. */
    posix_spawnattr_t attr;
    if (rc == 0) rc = posix_spawnattr_init(&attr);
    if (rc != 0) { posix_spawn_file_actions_destroy(&actions); return rc; }
    sigset_t defaults, none;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGTERM); sigaddset(&defaults, SIGINT); sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGXFSZ); sigaddset(&defaults, SIGHUP); sigaddset(&defaults, SIGQUIT);
    sigemptyset(&none);
    rc = posix_spawnattr_setsigdefault(&attr, &defaults);
    if (rc == 0) rc = posix_spawnattr_setsigmask(&attr, &none);
    if (rc == 0) rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    if (rc == 0) rc = posix_spawn(pid, path, &actions, &attr, argv, envp ? envp : environ);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    return rc;
}
