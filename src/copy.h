/* copy.h -- the ways ktee moves bytes from standard input to its outputs.
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

#ifndef KTEE_COPY_H
#define KTEE_COPY_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outputs.h"

/* GNU tee's read size.  Where an exit can cut a round short, ktee takes
   no more than this per round, so every output holds what it would hold
   with GNU tee.  */
enum { GNU_TEE_BLOCK = 8192 };

/* --copy-method.  */
enum copy_method
  {
    copy_method_auto,   /* Read and write a small input, splice the rest.  */
    copy_method_splice, /* Splice wherever the kernel allows.  */
    copy_method_rw      /* Read and write, always.  */
  };

struct copy_plan
{
  size_t block;         /* Most bytes to take from the input per round.  */
  bool blocks_show;     /* GNU tee's blocks show in what the outputs hold:
                           where an early stop leaves them, or how the
                           copies of outputs that are one file interleave.  */
  bool records;         /* The input's reads or an output's writes are
                           records (datagrams): read and write only, in
                           GNU tee's blocks.  */
  bool sigpipe_kills;   /* A write to a broken pipe kills ktee.  */
  bool watch_outputs;   /* Drop broken pipe outputs while input is idle.  */
  int input_timeout;    /* How long, in ms, a read of standard input
                           waits (SO_RCVTIMEO); -1: for ever.  */
};

/* Copy standard input to every output of OUTS by METHOD, with the engine
   that copy.c's table gives for its kind.  */
void copy_input (struct outputs *outs, enum copy_method method);

/* How an engine's copy ended: the one contract of every engine.  */
enum copy_result
  {
    COPY_DONE,          /* At end of input, or no output is left.  */
    COPY_PARTIAL,       /* Stopped early: another engine is to copy the
                           rest, from the byte the count says.  */
    COPY_FAILED         /* Reading the input failed, diagnosed.  */
  };

/* An engine copies standard input to every live output of OUTS, each
   output the way its WAY says, falling back as output_fall_back says,
   until end of input or until no output is left, and adds the bytes it
   takes from the input to *TAKEN.  Failures of outputs are reported
   through outputs.c; they end the copy only when no output is left.  An
   engine that cannot copy at all returns COPY_PARTIAL before it takes
   a byte.  Counts are uintmax_t: a 32-bit size_t reaches SIZE_MAX after
   4 GiB.  */
typedef enum copy_result copy_engine (struct outputs *outs,
                                      struct copy_plan const *plan,
                                      uintmax_t *taken);

/* The zero-copy engines: a pipe (copy-splice.c), a stream socket (the
   same, without packet buffers to clear), a regular file (copy-file.c).  */
copy_engine copy_splice_pipe, copy_splice_socket, copy_file;

/* The read/write engine, which can copy anything.  Unless LIMIT is
   RW_NO_LIMIT, it stops, COPY_PARTIAL, after the read that brings
   *TAKEN to LIMIT or more.  */
enum { RW_NO_LIMIT = 0 };
enum copy_result copy_rw (struct outputs *outs, struct copy_plan const *plan,
                          uintmax_t *taken, uintmax_t limit);

/* The most bytes an engine takes in its next round, at most ROUND:
   room_limit for every engine, round_limit for the zero-copy ones.  */
size_t room_limit (struct outputs *outs, size_t round);
size_t round_limit (struct outputs *outs, size_t round);

/* ktee's own pipes, of both zero-copy engines.  */
size_t set_pipe_size (int fd, int size);
void close_pipe (int fd[2]);

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
