/* valgrind-sigsuspend.c: preloaded into galleryssg under valgrind only (valgrind-ready.sh makes it).
 *
 * Valgrind 3.19 (Debian 12) writes into the signal mask a program hands to sigsuspend(), to take
 * its own signal out of it. libdispatch parks the main thread of a Swift program in
 * sigsuspend() with a `static const` mask, which lies in read-only memory, so valgrind itself
 * dies of SIGSEGV ("VALGRIND INTERNAL ERROR ... signal 11") as soon as galleryssg starts its
 * work. Passing a copy on the stack gives valgrind a mask it can write; the program behaves the
 * same, and a parked thread executes no instructions, so the counts are not changed. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
  sigset_t copy = *mask;
  return (int)syscall(SYS_rt_sigsuspend, &copy, (size_t)(_NSIG / 8));
}
