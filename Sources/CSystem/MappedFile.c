#define _GNU_SOURCE
#include "CSystem.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// Guarded mappings. The SIGBUS handler reads this table without a lock: each slot's length
// is written before its address is published, and cleared address-first.
enum { SLOTS = 64 };
static struct {
    char *volatile address;
    volatile size_t length;
    volatile sig_atomic_t changed;
} slots[SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static struct sigaction previous;

static void on_sigbus(int sig, siginfo_t *info, void *context) {
    char *at = (char *)info->si_addr;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < SLOTS; i++) {
        char *base = slots[i].address;
        size_t length = slots[i].length;
        if (base == NULL || at < base || at >= base + length) continue;
        // The file ends before this page now: zeros from here to the mapping's end (mmap is
        // a plain system call on Linux, safe in a handler).
        char *from = (char *)((uintptr_t)at & ~(page - 1));
        if (mmap(from, (size_t)(base + length - from), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            slots[i].changed = 1;
            return;
        }
        break;
    }
    // Not a guarded mapping: what would have happened without us.
    if (previous.sa_flags & SA_SIGINFO && previous.sa_sigaction) { previous.sa_sigaction(sig, info, context); return; }
    if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler) { previous.sa_handler(sig); return; }
    signal(SIGBUS, SIG_DFL);
    raise(SIGBUS);
}

static void install_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous);
}

void *meridian_map_file(int fd, size_t length) {
    if (length == 0) { errno = EINVAL; return NULL; }
    pthread_once(&handler_once, install_handler);
    void *address = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fd, 0);
    if (address == MAP_FAILED) return NULL;
    // Needed soon, all of it: the kernel reads ahead while the parser starts.
    madvise(address, length, MADV_WILLNEED);
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i].address != NULL) continue;
        slots[i].changed = 0;
        slots[i].length = length;
        __atomic_store_n(&slots[i].address, (char *)address, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&slots_lock);
        return address;
    }
    pthread_mutex_unlock(&slots_lock);
    munmap(address, length);
    errno = EMFILE;
    return NULL;
}

int meridian_mapping_changed(const void *address) {
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i].address == address) return slots[i].changed;
    }
    return 0;
}

void meridian_release_mapped(const void *address, size_t from, size_t to) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i].address != address) continue;
        if (to > slots[i].length) to = slots[i].length;
        // Whole pages inside the range only: a page shared with bytes not yet read stays.
        uintptr_t start = ((uintptr_t)address + from + page - 1) & ~(page - 1);
        uintptr_t end = ((uintptr_t)address + to) & ~(page - 1);
        if (end > start) madvise((void *)start, end - start, MADV_DONTNEED);
        return;
    }
}

void meridian_unmap_file(void *address, size_t length) {
    pthread_mutex_lock(&slots_lock);
    for (int i = 0; i < SLOTS; i++) {
        if (slots[i].address != address) continue;
        __atomic_store_n(&slots[i].address, (char *)NULL, __ATOMIC_RELEASE);
        slots[i].length = 0;
    }
    pthread_mutex_unlock(&slots_lock);
    munmap(address, length);
}
