/* iopoll.c -- every wait of ktee: poll() for input, output and broken pipes.
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

#include <config.h>

#include "iopoll.h"

#include <errno.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "full-write.h"
#include "xalloc.h"

/* Return true if a failed poll() is worth calling again: interrupted,
   or out of some resource that POSIX says may be there next time.  */

static bool
poll_again (int err)
{
  return err == EINTR || err == EAGAIN;
}

/* Wait until FD is ready for EVENTS.  Return false, with errno set, if
   poll itself fails.  A hang-up or error also counts as ready: the next
   read or write on FD then reports it.  */

bool
wait_ready (int fd, short events)
{
  struct pollfd pfd = { .fd = fd, .events = events };

  while (poll (&pfd, 1, -1) < 0)
    if (! poll_again (errno))
      return false;
  return true;
}

/* Write SIZE bytes of BUF to output O, waiting whenever a non-blocking
   output is full.  Return how many were written: fewer than SIZE, with
   errno set, on any other failure.  */

size_t
write_wait (struct output const *o, void const *buf, size_t size)
{
  char const *p = buf;
  size_t done = 0;

  while (done < size)
    {
      done += full_write (o->fd, p + done, size - done);
      if (done < size && (errno != EAGAIN || ! wait_ready (o->fd, POLLOUT)))
        break;
    }
  return done;
}

/* Return true if reading FD never blocks, so there is no idle time in
   which to watch the outputs.  */

bool
input_always_ready (int fd)
{
  struct stat st;
  return fstat (fd, &st) == 0 && (S_ISREG (st.st_mode)
                                  || S_ISBLK (st.st_mode));
}

/* Poll input FD (none if negative) for POLLIN and every live pipe
   output of OUTS for its reader going away, for at most TIMEOUT ms (-1:
   no limit).  Return the output whose reader has gone, or NULL when the
   input is ready (input wins a tie, so queued data is still delivered),
   the time is up, or poll fails.  */

static struct output *
poll_outputs (int fd, struct outputs *outs, int timeout)
{
  static struct pollfd *pfds;
  static size_t pfds_alloc;
  size_t npfds = 0;

  if (pfds_alloc < outs->n + 1)
    {
      pfds_alloc = outs->n + 1;
      pfds = xnrealloc (pfds, pfds_alloc, sizeof *pfds);
    }

  pfds[npfds++] = (struct pollfd) { .fd = fd, .events = POLLIN };
  for (size_t i = 0; i < outs->n; i++)
    if (0 <= outs->v[i].fd && outs->v[i].is_pipe)
      pfds[npfds++] = (struct pollfd) { .fd = outs->v[i].fd, .events = 0 };
  if (npfds == 1)
    return NULL;

  while (poll (pfds, npfds, timeout) < 0)
    if (! poll_again (errno))
      return NULL;
  if (pfds[0].revents)
    return NULL;

  for (size_t i = 1; i < npfds; i++)
    if (pfds[i].revents)
      for (size_t j = 0; j < outs->n; j++)
        if (outs->v[j].fd == pfds[i].fd)
          return &outs->v[j];
  return NULL;
}

/* Wait until standard input can be read, dropping meanwhile each pipe
   output of OUTS whose reader goes away, as a write to it would have
   failed with EPIPE.  This lets the nopipe modes end as soon as every
   output is a broken pipe, even while the input is idle.  Return false
   if no output is left.  */

bool
await_input (struct outputs *outs)
{
  struct output *broken;
  while (outs->live && (broken = poll_outputs (STDIN_FILENO, outs, -1)))
    output_fail (outs, broken, EPIPE);
  return 0 < outs->live;
}

/* Return a live pipe output of OUTS whose reader has gone, or NULL.
   Do not wait.  */

struct output *
broken_pipe_output (struct outputs *outs)
{
  return poll_outputs (-1, outs, 0);
}
