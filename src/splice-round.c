/* splice-round.c -- deliver one round of the zero-copy engine to every output.
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

/* A round is in the master pipe.  Every live output gets it in order,
   standard output first, as GNU tee writes each block: by splice from
   the master (the last such output) or from a tee(2) copy of it, or by
   write() from a buffer filled once per round, for outputs that refuse
   splice and for rounds that must not be spliced.  */

#include <config.h>

#include "splice-copy.h"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>

#include "iopoll.h"
#include "packets.h"
#include "xalloc.h"

/* Once this much has gone through the socket pair, ask whether the
   kernel passes packet mode on at all; see packets.c.  */
enum { STRIP_BEFORE_ASKING = 4 * 1024 * 1024 };

/* Return the buffer for outputs using write(), allocated on first use:
   most runs never need it.  */

static char *
round_buffer (struct splice_copy *e)
{
  if (! e->buf)
    e->buf = xmalloc (e->block);
  return e->buf;
}

/* Write the round from offset FROM of the buffer to output O.  */

static void
write_round (struct splice_copy *e, struct output *o, size_t from)
{
  size_t done;
  if (write_wait (o, e->buf + from, e->round - from, &done) != MOVE_DONE)
    output_fail (e->outs, o, errno);
}

/* Output I took DONE bytes of the round and stopped, as R says: the
   rest of its copy is in pipe REST.  If the output refused splice,
   write it the rest of the round, and use write() for it from now on;
   if splice failed where write may not, write it the rest of this
   round; else it failed.  Return false if its bytes could not be read
   back from REST.  */

static bool
finish_output (struct splice_copy *e, size_t i, enum move_result r,
               size_t done, struct own_pipe *rest)
{
  struct output *o = &e->outs->v[i];

  /* The bytes left in REST are this output's alone: take them to the
     buffer, at their offset in the round, which keeps it valid.  */
  int err = errno;
  if (! read_back (rest->rd, round_buffer (e) + done, e->round - done))
    return false;
  if (r == MOVE_REFUSED)
    {
      if (kernel_refused (err))
        output_fall_back (o);
      write_round (e, o, done);
    }
  else
    output_fail (e->outs, o, err);
  return true;
}

static bool
any_written (struct splice_copy const *e)
{
  for (size_t i = 0; i < e->outs->n; i++)
    if (0 <= e->outs->v[i].fd && e->outs->v[i].way == OUTPUT_WRITE)
      return true;
  return false;
}

/* Return true if a live output that takes splice is a pipe.  */

static bool
any_spliced_pipe (struct splice_copy const *e)
{
  for (size_t i = 0; i < e->outs->n; i++)
    if (0 <= e->outs->v[i].fd && e->outs->v[i].is_pipe
        && e->outs->v[i].way == OUTPUT_SPLICE)
      return true;
  return false;
}

/* Return true if the round must go through the socket pair: a pipe
   output would get packet buffers, unless the kernel is known not to
   pass them on.  Asking the kernel costs as much as a small input costs
   to pass, so it is asked only once a large one has shown itself.  */

static bool
must_strip (struct splice_copy *e)
{
  if (! e->packets_possible || ! any_spliced_pipe (e))
    return false;
  if (! e->kernel_checked && STRIP_BEFORE_ASKING <= e->stripped)
    {
      e->kernel_checked = true;
      e->packets_possible = kernel_passes_packets ();
      if (! e->packets_possible)
        return false;
    }
  e->stripped += e->round;
  return true;
}

/* Write the round, whole in the buffer, to output I and those after
   it; the read/write engine is to copy the rest of the input.  */

static enum round_result
write_rest (struct splice_copy *e, size_t i)
{
  for (; i < e->outs->n; i++)
    if (0 <= e->outs->v[i].fd)
      write_round (e, &e->outs->v[i], 0);
  return ROUND_WRITTEN;
}

/* After a fault on ktee's own pipes, finish the round from output I on
   with write(), from the master, which still holds the whole round.  */

static enum round_result
rescue_round (struct splice_copy *e, size_t i)
{
  if (! read_back (e->pipes.master.rd, round_buffer (e), e->round))
    {
      input_fail (e->outs, errno);
      return ROUND_LOST;
    }
  return write_rest (e, i);
}

/* Pass the round through the socket pair, into the copy pipe, which
   then serves as the master.  After a fault, gather it from where
   strip_packets left it, and write it.  */

static enum round_result
strip_round (struct splice_copy *e)
{
  struct round_pipes *p = &e->pipes;
  size_t sent, taken;
  if (strip_packets (p->master.rd, e->sock, p->copy.wr, e->round,
                     &sent, &taken))
    {
      struct own_pipe stripped = p->copy;
      p->copy = p->master;
      p->master = stripped;
      return ROUND_SPLICED;
    }

  char *buf = round_buffer (e);
  if (! (read_back (p->copy.rd, buf, taken)
         && read_back (e->sock[1], buf + taken, sent - taken)
         && read_back (p->master.rd, buf + sent, e->round - sent)))
    {
      input_fail (e->outs, errno);
      return ROUND_LOST;
    }
  return write_rest (e, 0);
}

/* Deliver the round to every live output in order, standard output
   first, as GNU tee writes each block.  The last output that takes
   splice empties the master; the buffer for outputs using write() is
   filled before that.  */

enum round_result
deliver_round (struct splice_copy *e)
{
  if (must_strip (e))
    {
      enum round_result r = strip_round (e);
      if (r != ROUND_SPLICED)
        return r;
    }

  if (any_written (e))
    {
      if (! pipe_copy (&e->pipes.master, &e->pipes.copy, e->round))
        return rescue_round (e, 0);
      if (! read_back (e->pipes.copy.rd, round_buffer (e), e->round))
        {
          input_fail (e->outs, errno);
          return ROUND_LOST;
        }
    }

  for (size_t i = 0; i < e->outs->n; i++)
    {
      struct output *o = &e->outs->v[i];
      if (o->fd < 0)
        continue;
      if (o->way == OUTPUT_WRITE)
        {
          write_round (e, o, 0);
          continue;
        }
      size_t done;
      struct own_pipe *rest;
      enum move_result r = round_deliver (&e->pipes, e->outs, i, false,
                                          e->round, &done, &rest);
      if (! rest)
        return rescue_round (e, i);
      if (r != MOVE_DONE && ! finish_output (e, i, r, done, rest))
        {
          input_fail (e->outs, errno);
          return ROUND_LOST;
        }
    }
  return ROUND_SPLICED;
}
