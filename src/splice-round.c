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
#include "safe-read.h"
#include "xalloc.h"

/* Once this much has gone through the socket pair, ask whether the
   kernel passes packet mode on at all; see packets.c.  */
enum { STRIP_BEFORE_ASKING = 4 * 1024 * 1024 };

/* Read exactly SIZE bytes from private pipe FD into BUF.  The bytes are
   there already, so only an injected fault can make this fail; one that
   says "try again" is tried again, as every other read of ktee does.  */

static bool
read_back (int fd, char *buf, size_t size)
{
  while (size)
    {
      size_t n = safe_read (fd, buf, size);
      if (n == SAFE_READ_ERROR && errno == EAGAIN && wait_ready (fd, POLLIN))
        continue;
      if (n == SAFE_READ_ERROR || n == 0)
        {
          if (n == 0)
            errno = EIO;
          return false;
        }
      buf += n;
      size -= n;
    }
  return true;
}

/* Put a copy of the master's bytes in the copy pipe.  */

static bool
copy_master (struct splice_copy *e)
{
  ssize_t n;
  while ((n = tee (e->master[0], e->copy[1], e->round, 0)) < 0
         && errno == EINTR)
    continue;
  if (n == e->round)
    return true;
  if (0 <= n)
    errno = EIO;
  return false;
}

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
  if (write_wait (o, e->buf + from, e->round - from) < e->round - from)
    output_fail (e->outs, o, errno);
}

/* Splice the round from private pipe SRC to output I.  If the output
   refuses splice, write the rest of the round to it, and use write()
   for it from now on; if splice fails where write may not, write the
   rest of this round.  Return false if the bytes it did not take could
   not be read back from SRC.  */

static bool
splice_round (struct splice_copy *e, size_t i, int src)
{
  struct output *o = &e->outs->v[i];
  size_t done = 0;
  int err = 0;
  bool declined = false;

  while (done < e->round)
    {
      ssize_t n = splice (src, NULL, o->fd, NULL, e->round - done, 0);
      if (0 < n)
        done += n;
      else if (n < 0 && errno == EINTR)
        continue;
      else if (n < 0 && errno == EAGAIN)
        {
          if (wait_ready (o->fd, POLLOUT))
            continue;
          /* poll's error, which says nothing about splice: the output
             fails as it does when write_wait cannot wait.  */
          err = errno;
          break;
        }
      else
        {
          /* A zero return would leave us spinning; write() then tells
             what is wrong with this output.  */
          err = n < 0 ? errno : EINVAL;
          declined = kernel_declined (err);
          break;
        }
    }
  if (done == e->round)
    return true;

  /* The bytes left in SRC are this output's alone: take them to the
     buffer, at their offset in the round, which keeps it valid.  */
  if (! read_back (src, round_buffer (e) + done, e->round - done))
    return false;
  if (declined)
    {
      if (kernel_refused (err))
        output_fall_back (o);
      write_round (e, o, done);
    }
  else
    output_fail (e->outs, o, err);
  return true;
}

/* Return the index of the last live output that takes splice, or
   OUTS->n if there is none.  */

size_t
last_spliced (struct splice_copy const *e)
{
  for (size_t i = e->outs->n; 0 < i; i--)
    if (0 <= e->outs->v[i - 1].fd && e->outs->v[i - 1].way == OUTPUT_SPLICE)
      return i - 1;
  return e->outs->n;
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

/* Write the round, whole in the buffer, to output I and those after it,
   and the rest of the input too.  */

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
  if (! read_back (e->master[0], round_buffer (e), e->round))
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
  size_t sent, taken;
  if (strip_packets (e->master[0], e->sock, e->copy[1], e->round,
                     &sent, &taken))
    {
      int stripped[2] = { e->copy[0], e->copy[1] };
      e->copy[0] = e->master[0];
      e->copy[1] = e->master[1];
      e->master[0] = stripped[0];
      e->master[1] = stripped[1];
      return ROUND_SPLICED;
    }

  char *buf = round_buffer (e);
  if (! (read_back (e->copy[0], buf, taken)
         && read_back (e->sock[1], buf + taken, sent - taken)
         && read_back (e->master[0], buf + sent, e->round - sent)))
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

  size_t last = last_spliced (e);

  if (any_written (e))
    {
      if (! copy_master (e))
        return rescue_round (e, 0);
      if (! read_back (e->copy[0], round_buffer (e), e->round))
        {
          input_fail (e->outs, errno);
          return ROUND_LOST;
        }
    }

  for (size_t i = 0; i < e->outs->n; i++)
    {
      struct output *o = &e->outs->v[i];
      int src = e->master[0];
      if (o->fd < 0)
        continue;
      if (o->way == OUTPUT_WRITE)
        {
          write_round (e, o, 0);
          continue;
        }
      if (i != last)
        {
          if (! copy_master (e))
            return rescue_round (e, i);
          src = e->copy[0];
        }
      if (! splice_round (e, i, src))
        {
          input_fail (e->outs, errno);
          return ROUND_LOST;
        }
    }
  return ROUND_SPLICED;
}
