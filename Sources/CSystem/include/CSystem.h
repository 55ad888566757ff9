#ifndef MERIDIAN_CSYSTEM_H
#define MERIDIAN_CSYSTEM_H

/// Sets the calling thread's policy (SCHED_BATCH when `batch`, else SCHED_OTHER) and its nice
/// value. Only ever raise the nice value: without privileges it cannot be lowered again.
/// Returns 0 on success (Platform's ThreadPriority says which work gets what).
int meridian_set_thread_priority(int nice_value, int batch);

/// Switches the calling thread between SCHED_BATCH and SCHED_OTHER, its nice value kept
/// (a switch any thread may make either way). Returns 0 on success.
int meridian_set_thread_batch(int batch);

/// Names the calling thread (at most 15 bytes show) for debuggers and top.
void meridian_set_thread_name(const char *name);

#include <stddef.h>

/// Makes every allocation of 1 MiB or more a mapping of its own, returned to the system
/// when freed, and keeps one heap for all threads (see CSystem.c). (glibc otherwise raises that threshold after the first large free, and the
/// arrays of a parsed 100 MB track stay resident in its heaps once freed: 20 MB more.)
/// Tile pictures (256 KiB) stay below it: as mappings, each cost 64 page faults to make
/// and an munmap on the frame thread when evicted.
void meridian_tune_malloc(void);

/// Removes a folder and everything in it, links not followed; -1 if it could not be walked.
int meridian_remove_tree(const char *path);

/// Gives the memory freed since (tiles come and go in bursts) back to the system.
void meridian_trim_memory(void);

/// Maps `length` bytes of the open file `fd` read-only and guards the mapping: should the
/// file shrink while it is read (another program truncating it), touching the vanished part
/// reads zeros and marks the mapping changed instead of killing the process with SIGBUS.
/// Returns NULL on failure (errno set). At most 64 mappings are guarded at once; beyond
/// that NULL with errno EMFILE.
void *meridian_map_file(int fd, size_t length);

/// Whether the file under a guarded mapping shrank while it was mapped.
int meridian_mapping_changed(const void *address);

/// Drops the pages of [address + from, address + to) from the process's memory, when
/// `address` starts a mapping made by meridian_map_file (else nothing): bytes already read
/// stop counting as resident, and read back from the file should they be touched again.
void meridian_release_mapped(const void *address, size_t from, size_t to);

/// Unmaps and unguards a mapping made by meridian_map_file.
void meridian_unmap_file(void *address, size_t length);

/// Catches SIGINT and SIGTERM from now on: instead of ending the process, they set a flag
/// that meridian_interrupted() reads (a long job stops at its next step, keeping its work).
/// A second signal ends the process as the default would.
void meridian_watch_interrupts(void);

/// The signal caught since meridian_watch_interrupts, or 0.
int meridian_interrupted(void);

#include <sys/types.h>

/// Starts `path` with `argv` (NULL-terminated) and `envp` (NULL: this process's) in the
/// directory `dir` (NULL: this one's), standard input from /dev/null, output and error to the
/// files named (NULL: /dev/null; created or truncated). Returns 0 and the child's id in
/// `pid`, else an errno value. (posix_spawn's chdir action is a GNU extension Swift's Glibc
/// module does not show.)
int meridian_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
                   const char *dir, const char *out, const char *err);

#endif
