#define _GNU_SOURCE
#include "CSystem.h"
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int meridian_make_thread_background(void) {
    struct sched_param p = { .sched_priority = 0 };
    if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &p) == 0) return 0;
    // Linux nice values are per thread.
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
}
