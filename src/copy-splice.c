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

#include "splice-copy.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/param.h>
#include <unistd.h>

#include "iopoll.h"
#include "packets.h"
#include "rounds.h"

static void
close_pipes (struct splice_copy *e)
{
  round_pipes_close (&e->pipes);
  if (0 <= e->sock[0])
    {
      close (e->sock[0]);
      close (e->sock[1]);
    }
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
   it, the copy pipe; and for a pipe output of a pipe input, the socket
   pair that clears packet mode.  Set E->block to what the master holds.
   A pipe costs as much to make as a small input costs to copy, so a
   lone output that is not a pipe does without the copy it would never
   use.  Return false if a pipe cannot be made or the kernel does not
   let ktee splice and tee between them.  */

static bool
make_pipes (struct splice_copy *e)
{
  bool stripping = e->packets_possible && any_pipe_output (e->outs);

  e->pipes = (struct round_pipes) ROUND_PIPES_CLOSED;
  e->sock[0] = e->sock[1] = -1;
  e->block = round_pipes_open (&e->pipes, PIPE_BYTES,
                               1 < e->outs->live || stripping);
  if (e->block && (! stripping || make_stripper (e->sock))
      && round_pipes_allowed (&e->pipes))
    return true;
  close_pipes (e);
  return false;
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


/* Splice the next round from standard input into the master, waiting
   while a non-blocking input is empty; set *N to its size, 0 at end of
   input.  Return as round_fill.  */

static enum move_result
take_input (struct splice_copy *e, size_t *n)
{
  size_t size = round_limit (e->outs, e->block);
  enum move_result r = round_fill (&e->pipes, STDIN_FILENO, NULL, size);
  *n = e->pipes.held;
  return r;
}

/* Run rounds until end of input or until no output is left, adding the
   bytes taken from the input to *TAKEN; or until the read/write engine
   is to go on, COPY_PARTIAL: no output takes splice, splice says 0 or
   declines, or a round had to be written.  */

static enum copy_result
run_rounds (struct splice_copy *e, struct copy_plan const *plan,
            uintmax_t *taken)
{
  struct outputs *outs = e->outs;

  while (outs->live)
    {
      if (! pipe_takers (outs, 0, e->block))
        return COPY_PARTIAL;
      enum input_wait w = INPUT_READY;
      if (plan->watch_outputs
          && (w = await_input (outs, plan->input_timeout)) == INPUT_NO_OUTPUT)
        break;

      size_t n = 0;
      enum move_result r = (w == INPUT_READY ? take_input (e, &n)
                            : MOVE_FAILED);
      if (r == MOVE_REFUSED)
        return COPY_PARTIAL;
      if (r == MOVE_FAILED)
        {
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
