#ifndef MERIDIAN_CSYSTEM_H
#define MERIDIAN_CSYSTEM_H

/// Makes the calling thread run only when no other thread wants the CPU (SCHED_IDLE);
/// where that is refused, lowers its nice value instead. Returns 0 on success.
int meridian_make_thread_background(void);

/// Names the calling thread (at most 15 bytes show) for debuggers and top.
void meridian_set_thread_name(const char *name);

#endif
