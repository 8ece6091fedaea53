/* pipes.c -- ktee's own pipes, and every splice and tee through them.
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


/* Every private pipe of ktee is made, sized, filled, copied, drained and
   read back here, and every zero-copy call made, for both zero-copy
   engines: copy-splice.c takes each round from a pipe or socket into a
   master; copy-file.c, for two or more outputs that take a large round
   through a pipe, splices it from the file once, and has every other
   output take its bytes from the file itself (file_give).  The socket
   pair that clears packet mode is packets.c's own.  */

#include <config.h>

#include "pipes.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/param.h>
#include <sys/sendfile.h>

#include "iopoll.h"
#include "safe-read.h"
#include "unistd--.h"

/* Make pipe P, unless it is made, trying to make it hold SIZE bytes.
   Return false if it cannot be made.  */

bool
pipe_open (struct own_pipe *p, size_t size)
{
  int fd[2];
  if (0 <= p->rd)
    return true;
  if (pipe (fd) != 0)
    return false;
  p->rd = fd[0];
  p->wr = fd[1];
  pipe_resize (p, size);
  return true;
}

/* Try to make pipe P hold SIZE bytes, and return how many it holds, or
   0 if that is unknown.  A refusal (EPERM beyond
   /proc/sys/fs/pipe-max-size or the per-user limit) only costs speed.  */

size_t
pipe_resize (struct own_pipe *p, size_t size)
{
  int got = fcntl (p->wr, F_SETPIPE_SZ, (int) size);
  if (got < 0)
    got = fcntl (p->wr, F_GETPIPE_SZ);
  p->size = 0 < got ? got : 0;
  return p->size;
}

/* Close pipe P, if made, and mark it closed: what it held is gone.  */

void
pipe_close (struct own_pipe *p)
{
  if (0 <= p->rd)
    {
      close (p->rd);
      close (p->wr);
      p->rd = p->wr = -1;
      p->size = 0;
    }
}

/* A zero-copy call on FD failed: return true if it is to be made
   again, interrupted, or after a wait for EVENTS where FD was not
   ready (EAGAIN).  Otherwise set *R to MOVE_REFUSED where the kernel
   declined, else to MOVE_FAILED; errno says why (poll's, if the wait
   failed, which says nothing of the call).  */

bool
call_again (int fd, short events, enum move_result *r)
{
  if (errno == EINTR)
    return true;
  if (errno == EAGAIN)
    {
      if (wait_ready (fd, events))
        return true;
      *r = MOVE_FAILED;
      return false;
    }
  *r = kernel_declined (errno) ? MOVE_REFUSED : MOVE_FAILED;
  return false;
}

/* Splice up to LEN bytes into pipe P from FD, at *POS unless POS is
   NULL, waiting while a non-blocking FD is empty.  Return MOVE_DONE
   with the count in *N, 0 at end of input or where splice says 0; else
   as call_again.  */

enum move_result
pipe_fill (struct own_pipe *p, int fd, off_t *pos, size_t len, size_t *n)
{
  enum move_result r;
  ssize_t got;
  while ((got = splice (fd, pos, p->wr, NULL, len, 0)) < 0)
    if (! call_again (fd, POLLIN, &r))
      return r;
  *n = got;
  return MOVE_DONE;
}

/* Put a copy of the LEN bytes at the head of pipe FROM into pipe TO.
   Return false, errno set, if fewer went.  */

bool
pipe_copy (struct own_pipe const *from, struct own_pipe *to, size_t len)
{
  ssize_t n;
  while ((n = tee (from->rd, to->wr, len, 0)) < 0 && errno == EINTR)
    continue;
  if (n == len)
    return true;
  if (0 <= n)
    errno = EIO;
  return false;
}

/* Put a copy of up to LEN bytes at the head of pipe P into output pipe
   FD, waiting while FD is full.  Return MOVE_DONE with the count in
   *DONE, which tee(2) may make short, or 0; else as call_again.  */

enum move_result
pipe_tee (struct own_pipe const *p, int fd, size_t len, size_t *done)
{
  enum move_result r;
  ssize_t n;
  while ((n = tee (p->rd, fd, len, 0)) < 0)
    if (! call_again (fd, POLLOUT, &r))
      return r;
  *done = n;
  return MOVE_DONE;
}

/* Splice the LEN bytes at the head of pipe P to output FD, waiting while
   a non-blocking FD is full.  Set *DONE to how many FD took; the rest
   stay in P.  Return MOVE_DONE if it took them all; MOVE_REFUSED, errno
   EINVAL, where splice says 0, which would leave ktee spinning: write
   then tells what is wrong, if anything; else as call_again.  */

enum move_result
pipe_drain (struct own_pipe *p, int fd, size_t len, size_t *done)
{
  enum move_result r;
  *done = 0;
  while (*done < len)
    {
      ssize_t n = splice (p->rd, NULL, fd, NULL, len - *done, 0);
      if (0 < n)
        *done += n;
      else if (n == 0)
        {
          errno = EINVAL;
          return MOVE_REFUSED;
        }
      else if (! call_again (fd, POLLOUT, &r))
        return r;
    }
  return MOVE_DONE;
}

/* Move up to LEN bytes of IN at *POS to output OUT through pipe P, made
   if need be, by two splices.  Add to *POS and set *DONE to what OUT
   took; bytes it did not take go with the pipe, and are to be taken
   from IN again.  Return as pipe_drain, or as pipe_fill; MOVE_DONE with
   *DONE 0 at end of input.  */

enum move_result
pipe_pass (struct own_pipe *p, int in, off_t *pos, int out, size_t len,
           size_t *done)
{
  off_t from = *pos;
  size_t n = 0;
  enum move_result r;

  *done = 0;
  if (! pipe_open (p, PIPE_BYTES))
    return MOVE_REFUSED;
  r = pipe_fill (p, in, &from, MIN (len, p->size ? p->size
                                          : KERNEL_PIPE_BYTES), &n);
  if (r != MOVE_DONE || n == 0)
    return r;
  r = pipe_drain (p, out, n, done);
  *pos += *done;
  if (r != MOVE_DONE)
    pipe_close (p);
  return r;
}

/* Move up to LEN bytes of file IN at *POS to output O its way: by
   copy_file_range, which the file system may make a reflink or a copy
   on the server, through pipe P where a pipe of ktee's costs less; by
   splice; or by sendfile.  Each call asks for the rest of the round: on
   ext4 and XFS, 16 KiB per call cost 1.3 to 2.6 times the CPU of whole
   rounds (bench/results-chunks.md).  Add to *POS and set *DONE to what
   O took, 0 at end of input.  Return MOVE_DONE, or as call_again.  */

enum move_result
file_give (int in, off_t *pos, struct own_pipe *p, struct output const *o,
           size_t len, size_t *done)
{
  if (takes_by_pipe (o, len) && o->way == OUTPUT_COPY_RANGE
      && pipe_open (p, PIPE_BYTES))
    return pipe_pass (p, in, pos, o->fd, len, done);

  enum move_result r;
  for (;;)
    {
      ssize_t n;
      switch (o->way)
        {
        case OUTPUT_COPY_RANGE:
          n = copy_file_range (in, pos, o->fd, NULL, len, 0);
          break;
        case OUTPUT_SPLICE:
          n = splice (in, pos, o->fd, NULL, len, 0);
          break;
        case OUTPUT_SENDFILE:
          n = sendfile (o->fd, in, pos, len);
          break;
        case OUTPUT_WRITE: default:
          errno = EINVAL;
          n = -1;
          break;
        }
      if (0 <= n)
        {
          *done = n;
          return MOVE_DONE;
        }
      if (! call_again (o->fd, POLLOUT, &r))
        return r;
    }
}

/* Read exactly LEN bytes from FD, a pipe or socket of ktee's own, into
   BUF.  The bytes are there already, so only an injected fault can make
   this fail; one that says "try again" is tried again, as every other
   read of ktee does.  Return false, errno set, if that fails.  */

bool
read_back (int fd, char *buf, size_t len)
{
  while (len)
    {
      size_t n = safe_read (fd, buf, len);
      if (n == SAFE_READ_ERROR && errno == EAGAIN && wait_ready (fd, POLLIN))
        continue;
      if (n == SAFE_READ_ERROR || n == 0)
        {
          if (n == 0)
            errno = EIO;
          return false;
        }
      buf += n;
      len -= n;
    }
  return true;
}

/* Make R's master, and if WITH_COPY its copy pipe, unless made, each
   holding SIZE bytes if the kernel allows, and as much as the other,
   so that a tee(2) from a full master into the empty copy takes all of
   it.  Return what the master holds, or 0 if a pipe could not be made
   or its size is unknown.  */

size_t
round_pipes_open (struct round_pipes *r, size_t size, bool with_copy)
{
  if (! pipe_open (&r->master, size) || ! r->master.size)
    return 0;
  if (! with_copy)
    return r->master.size;
  if (! pipe_open (&r->copy, r->master.size) || ! r->copy.size)
    return 0;
  if (r->copy.size < r->master.size)
    pipe_resize (&r->master, r->copy.size);
  else if (r->master.size < r->copy.size)
    pipe_resize (&r->copy, r->master.size);
  return r->master.size == r->copy.size ? r->master.size : 0;
}

/* Return true if the kernel lets ktee splice and tee between R's pipes.
   Both calls find an empty master and must say EAGAIN; a seccomp filter
   or an old kernel says otherwise, before any input is taken.  Without
   a copy pipe, tee(2) is never used, and splice needs no trial: refused
   on the input, it takes nothing; refused on an output, it leaves the
   round in the master, to be written.  */

bool
round_pipes_allowed (struct round_pipes *r)
{
  return (r->copy.rd < 0
          || (tee (r->master.rd, r->copy.wr, 1, SPLICE_F_NONBLOCK) < 0
              && errno == EAGAIN
              && splice (r->master.rd, NULL, r->copy.wr, NULL, 1,
                         SPLICE_F_NONBLOCK) < 0
              && errno == EAGAIN));
}

/* Splice up to LEN bytes from FD, at *POS unless POS is NULL, into R's
   master as the round, and set R->held to their count: 0 at end of
   input, or where splice says 0.  Return as pipe_fill.  */

enum move_result
round_fill (struct round_pipes *r, int fd, off_t *pos, size_t len)
{
  size_t n = 0;
  enum move_result res = pipe_fill (&r->master, fd, pos,
                                    MIN (len, r->master.size), &n);
  r->held = n;
  return res;
}

/* Return true if output O takes LEN bytes through a pipe: by splice, or
   by copy_file_range on a file system that would copy them through a
   pipe of the kernel's, KERNEL_PIPE_BYTES at a time, where a pipe of
   ktee's costs less (bench/results-piped.md).  */

bool
takes_by_pipe (struct output const *o, size_t len)
{
  return (0 <= o->fd
          && (o->way == OUTPUT_SPLICE
              || (o->way == OUTPUT_COPY_RANGE && o->copies_by_pipe
                  && KERNEL_PIPE_BYTES < len)));
}

/* How many outputs of OUTS from the Ith on take LEN bytes through a
   pipe.  */

size_t
pipe_takers (struct outputs const *outs, size_t i, size_t len)
{
  size_t n = 0;
  for (; i < outs->n; i++)
    n += takes_by_pipe (&outs->v[i], len);
  return n;
}

/* Give output I of OUTS up to LEN bytes of the round at the head of R's
   master: the last output that takes them through a pipe splices them
   out of the master; any other a tee(2) of them, through the copy pipe.
   Set *DONE to how many it took.  Return as pipe_drain.

   If AGAIN, the input gives the bytes again at an offset (a file): a
   pipe output then takes its tee(2) straight, perhaps short, and what
   an output does not take is dropped with the pipe it is in; the
   output is to take it from the input, as where the master gives it
   nothing or the kernel refuses: MOVE_DONE, with *DONE short or 0.

   If not, set *REST to the pipe that holds the bytes the output did not
   take; NULL, with MOVE_REFUSED and errno set, where the tee(2) into
   the copy pipe copied less: a fault, for that pipe is empty and as
   large as the master, which still holds the whole round.  */

enum move_result
round_deliver (struct round_pipes *r, struct outputs const *outs, size_t i,
               bool again, size_t len, size_t *done, struct own_pipe **rest)
{
  struct output const *o = &outs->v[i];
  size_t size = MIN (len, r->held);
  struct own_pipe *left = &r->master;
  enum move_result res;

  *done = 0;
  if (pipe_takers (outs, i + 1, len) == 0)
    {
      res = pipe_drain (&r->master, o->fd, size, done);
      r->held -= *done;
      if (again && r->held)
        round_drop (r);
    }
  else if (again && o->way == OUTPUT_SPLICE)
    res = pipe_tee (&r->master, o->fd, size, done);
  else if (! pipe_copy (&r->master, &r->copy, size))
    {
      left = NULL;
      res = MOVE_REFUSED;
    }
  else
    {
      left = &r->copy;
      res = pipe_drain (&r->copy, o->fd, size, done);
    }

  if (rest)
    *rest = left;
  if (! again)
    return res;
  if (left != &r->master && res != MOVE_DONE)
    pipe_close (&r->copy);
  return (res == MOVE_REFUSED && (! left || kernel_refused (errno))
          ? MOVE_DONE : res);
}

/* The master is of no more use this round: what it holds is not the
   round's from its start, or it failed.  */

void
round_drop (struct round_pipes *r)
{
  pipe_close (&r->master);
  r->held = 0;
}

void
round_pipes_close (struct round_pipes *r)
{
  pipe_close (&r->master);
  pipe_close (&r->copy);
}
