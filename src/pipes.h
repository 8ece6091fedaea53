/* pipes.h -- ktee's own pipes, and every splice and tee through them.
   Copyright (C) 2026 the ktee developers.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.

   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.

   You should have received a copy of the GNU General Public License
   along with this program.  If not, see <https://www.gnu.org/licenses/>.  */


#ifndef KTEE_PIPES_H
#define KTEE_PIPES_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "outputs.h"

/* ktee's own pipes hold this much, and so its largest rounds: few
   system calls per byte (bench/results-piped.md).  */
enum { PIPE_BYTES = 1024 * 1024 };

/* What a pipe holds unless it is made larger: the kernel's default,
   and the size of the kernel's own pipe inside copy_file_range,
   sendfile and splice.  */
enum { KERNEL_PIPE_BYTES = 64 * 1024 };

/* A pipe of ktee's own; RD and WR are -1 while it is not made.  */
struct own_pipe
{
  int rd;
  int wr;
  size_t size;          /* What it holds; 0 if that is unknown.  */
};

/* A round held in a master pipe and given to its takers in turn: the
   outputs that take it through a pipe (takes_by_pipe), each but the
   last a tee(2) of it, the last the master's own.  So the input's bytes
   are taken, or looked up, once.  */
struct round_pipes
{
  struct own_pipe master;
  struct own_pipe copy;
  size_t held;          /* Bytes of the round at the master's head; 0
                           once it is of no more use.  */
};

#define OWN_PIPE_CLOSED { -1, -1, 0 }
#define ROUND_PIPES_CLOSED { OWN_PIPE_CLOSED, OWN_PIPE_CLOSED, 0 }

bool call_again (int fd, short events, enum move_result *r);
bool takes_by_pipe (struct output const *o, size_t len);
size_t pipe_takers (struct outputs const *outs, size_t i, size_t len);
enum move_result file_give (int in, off_t *pos, struct own_pipe *p,
                            struct output const *o, size_t len,
                            size_t *done);
bool pipe_open (struct own_pipe *p, size_t size);
size_t pipe_resize (struct own_pipe *p, size_t size);
void pipe_close (struct own_pipe *p);
enum move_result pipe_fill (struct own_pipe *p, int fd, off_t *pos,
                            size_t len, size_t *n);
bool pipe_copy (struct own_pipe const *from, struct own_pipe *to,
                size_t len);
enum move_result pipe_tee (struct own_pipe const *p, int fd, size_t len,
                           size_t *done);
enum move_result pipe_drain (struct own_pipe *p, int fd, size_t len,
                             size_t *done);
bool read_back (int fd, char *buf, size_t len);

enum move_result pipe_pass (struct own_pipe *p, int in, off_t *pos, int out,
                           size_t len, size_t *done);

size_t round_pipes_open (struct round_pipes *r, size_t size, bool with_copy);
bool round_pipes_allowed (struct round_pipes *r);
enum move_result round_fill (struct round_pipes *r, int fd, off_t *pos,
                             size_t len);
enum move_result round_deliver (struct round_pipes *r,
                                struct outputs const *outs, size_t i,
                                bool again, size_t len, size_t *done,
                                struct own_pipe **rest);
void round_drop (struct round_pipes *r);
void round_pipes_close (struct round_pipes *r);

/* The answers of the zero-copy calls are evidence, not a verdict: where
   the kernel declines to copy a way, the bytes go another way, and
   read(2) and write(2) have the last word on what is wrong.  */

/* Return true if the kernel declined to copy this way between two
   descriptors, rather than failing: the output, or the whole engine,
   then falls back to another way, which tells what is wrong, if
   anything, as GNU tee's read or write would.
   - EINVAL: the pair cannot do it (splice into an O_APPEND file, a file
     system without splice or copy_file_range);
   - ENOSYS, EPERM: the kernel or a seccomp filter lacks the call;
   - EOPNOTSUPP: the file system or device does not offer it;
   - EXDEV: copy_file_range across file systems (before Linux 5.3);
   - EBADF: copy_file_range says it of an output it will not take.  */
static inline bool
kernel_refused (int err)
{
  return (err == EINVAL || err == ENOSYS || err == EPERM || err == EOPNOTSUPP
          || err == EXDEV || err == EBADF);
}

/* Return true if a zero-copy call failed with ERR where read(2) and
   write(2) of the same bytes may not: for want of a pipe buffer (the
   per-user limit hits the kernel's own pipe for copy_file_range,
   sendfile and splice), of memory or buffer space for a large call, of
   room for a large write near a full file system or quota or file size
   limit, or because the call made a datagram too long.  Those bytes then
   go by read and write, which tell what is wrong, if anything.  */
static inline bool
kernel_short_of (int err)
{
  return (err == ENOMEM || err == ENOBUFS || err == EMSGSIZE
          || err == ENOSPC || err == EDQUOT || err == EFBIG);
}

/* Return true if a zero-copy call failed with ERR in a way that sends
   its bytes by read and write before anything is diagnosed.  */
static inline bool
kernel_declined (int err)
{
  return kernel_refused (err) || kernel_short_of (err);
}

#endif
