/* copy-splice.c -- copy standard input to the outputs with splice(2) and tee(2).
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

/* No byte is written from user space: each round splices what
   standard input holds into a private "master" pipe.  Every output but
   the last gets the round through a second private pipe, filled by
   tee(2) from the master; the last output takes the master itself.  So
   the input is consumed exactly once, by splice; and tee(2) only ever
   runs between ktee's own pipes, where no other process can make it
   return 0 early or block.  splice's answers are evidence, read(2)'s
   the verdict: when splice says 0, or fails where a read might not, the
   read/write engine reads on, from the same byte.

   An output that refuses splice (O_APPEND files, /dev/full, file
   systems without splice support) is written with write(2) from a
   buffer filled once per round; the others stay zero-copy.  When no
   output takes splice any more, or the kernel stops allowing it, the
   read/write engine takes over at a round boundary.  */

#include <config.h>

#include "copy.h"
#include "splice-copy.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/param.h>

#include "iopoll.h"
#include "packets.h"
#include "unistd--.h"

/* Big enough that a round costs few system calls per byte; see the
   measurements in bench/.  */
enum { PIPE_BYTES = 1024 * 1024 };

static void
close_pipes (struct splice_copy *e)
{
  close_pipe (e->master);
  close_pipe (e->copy);
  close_pipe (e->sock);
}

/* Return true if an output of OUTS is a pipe, whose reader could lose
   bytes to packet buffers.  */

static bool
any_pipe_output (struct outputs const *outs)
{
  for (size_t i = 0; i < outs->n; i++)
    if (0 <= outs->v[i].fd && outs->v[i].is_pipe)
      return true;
  return false;
}

/* Create the master and, if another output or a pipe output may need
   it, the copy pipe, with equal capacity so that a tee(2) from a full
   master into the empty copy always takes all of it; and for a pipe
   output of a pipe input, the socket pair that clears packet mode.  Set
   E->block to that capacity.  A pipe costs as much to make as a small
   input costs to copy, so a lone output that is not a pipe does without
   the copy it would never use.  */

static bool
make_pipes (struct splice_copy *e)
{
  bool stripping = e->packets_possible && any_pipe_output (e->outs);

  e->copy[0] = e->copy[1] = e->sock[0] = e->sock[1] = -1;
  if (pipe (e->master) != 0)
    return false;
  size_t size = set_pipe_size (e->master[1], PIPE_BYTES);

  if (stripping && ! make_stripper (e->sock))
    {
      close_pipe (e->master);
      return false;
    }

  if (1 < e->outs->live || stripping)
    {
      if (pipe (e->copy) != 0)
        {
          close_pipes (e);
          return false;
        }
      size_t copy_size = size ? set_pipe_size (e->copy[1], size) : 0;
      if (copy_size < size)
        size = set_pipe_size (e->master[1], copy_size);
      if (size != copy_size)
        size = 0;
    }

  e->block = size;
  if (size)
    return true;
  close_pipes (e);
  return false;
}

/* Return true if the kernel lets ktee splice and tee between its own
   pipes.  Both calls find an empty pipe and must say EAGAIN; a seccomp
   filter or an old kernel says otherwise, before any input is taken.
   Without a copy pipe, tee(2) is never used, and splice needs no
   trial: refused on the input, it takes nothing; refused on the output,
   it leaves the round in the master, to be written.  */

static bool
kernel_allows_splice (struct splice_copy *e)
{
  return (e->copy[1] < 0
          || (tee (e->master[0], e->copy[1], 1, SPLICE_F_NONBLOCK) < 0
              && errno == EAGAIN
              && splice (e->master[0], NULL, e->copy[1], NULL, 1,
                         SPLICE_F_NONBLOCK) < 0
              && errno == EAGAIN));
}

/* Enlarge the input pipe, whose size more than anything decides how
   fast splice goes.  Standard output is left as it is: how much it holds
   decides whether a reader that quits early makes ktee fail with EPIPE,
   and that must be as with GNU tee.  A socket has no pipe size.  */

static void
grow_input_pipe (void)
{
  int size = fcntl (STDIN_FILENO, F_GETPIPE_SZ);
  if (0 <= size && size < PIPE_BYTES)
    fcntl (STDIN_FILENO, F_SETPIPE_SZ, PIPE_BYTES);
}


/* take_input's return value when waiting for input failed: errno is
   then poll's, which must not be taken for a refusal to splice.  */
enum { WAIT_FAILED = -2 };

/* Splice the next round from standard input into the master, waiting
   while a non-blocking input is empty.  Return its size, 0 at end of
   input, -1 with errno set if splice failed, or WAIT_FAILED with errno
   set.  */

static ssize_t
take_input (struct splice_copy *e)
{
  size_t size = round_limit (e->outs, e->block);
  for (;;)
    {
      ssize_t n = splice (STDIN_FILENO, NULL, e->master[1], NULL, size, 0);
      if (0 <= n)
        return n;
      if (errno == EINTR)
        continue;
      if (errno != EAGAIN)
        return -1;
      if (! wait_ready (STDIN_FILENO, POLLIN))
        return WAIT_FAILED;
    }
}

/* Run rounds until end of input or until no output is left, adding the
   bytes taken from the input to *TAKEN.  */

static enum copy_result
run_rounds (struct splice_copy *e, struct copy_plan const *plan,
            uintmax_t *taken)
{
  struct outputs *outs = e->outs;

  while (outs->live)
    {
      if (last_spliced (e) == outs->n)
        return COPY_PARTIAL;
      enum input_wait w = INPUT_READY;
      if (plan->watch_outputs
          && (w = await_input (outs, plan->input_timeout)) == INPUT_NO_OUTPUT)
        break;

      ssize_t n = w == INPUT_READY ? take_input (e) : WAIT_FAILED;
      if (n < 0)
        {
          if (n != WAIT_FAILED && kernel_declined (errno))
            return COPY_PARTIAL;
          input_fail (outs, errno);
          return COPY_FAILED;
        }
      /* Not the end until read(2) says so: a TCP socket's splice says 0
         at an urgent mark, which read passes.  */
      if (n == 0)
        return COPY_PARTIAL;

      e->round = n;
      *taken += n;
      switch (deliver_round (e))
        {
        case ROUND_SPLICED:
          break;
        case ROUND_WRITTEN:
          return COPY_PARTIAL;
        case ROUND_LOST:
          return COPY_FAILED;
        }
    }
  return COPY_DONE;
}

/* Copy standard input, a pipe if PACKETS_POSSIBLE, else a stream
   socket.  */

static enum copy_result
copy_splice (struct outputs *outs, struct copy_plan const *plan,
             uintmax_t *taken, bool packets_possible)
{
  struct splice_copy e = { .outs = outs, .packets_possible = packets_possible };
  if (! make_pipes (&e))
    return COPY_PARTIAL;
  if (! kernel_allows_splice (&e))
    {
      close_pipes (&e);
      return COPY_PARTIAL;
    }

  grow_input_pipe ();
  if (plan->block && plan->block < e.block)
    e.block = plan->block;

  enum copy_result result = run_rounds (&e, plan, taken);

  close_pipes (&e);
  free (e.buf);
  return result;
}

/* A pipe's writers can make packet buffers.  */

enum copy_result
copy_splice_pipe (struct outputs *outs, struct copy_plan const *plan,
                  uintmax_t *taken)
{
  return copy_splice (outs, plan, taken, true);
}

/* A socket's bytes reach the master in buffers of splice's own.  */

enum copy_result
copy_splice_socket (struct outputs *outs, struct copy_plan const *plan,
                    uintmax_t *taken)
{
  return copy_splice (outs, plan, taken, false);
}
