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
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
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

/* Return how long, in ms, a blocking call on FD waits for EVENTS
   (POLLIN or POLLOUT) before it fails with EAGAIN: a socket's
   SO_RCVTIMEO or SO_SNDTIMEO, which poll(2) ignores.  -1 if it waits
   for ever, as on any descriptor without such an option, or if FD is
   non-blocking (ktee then waits for it in poll).  */

int
call_timeout (int fd, short events)
{
  int flags = fcntl (fd, F_GETFL);
  struct timeval tv;
  socklen_t len = sizeof tv;
  if (flags < 0 || (flags & O_NONBLOCK)
      || getsockopt (fd, SOL_SOCKET,
                     events & POLLIN ? SO_RCVTIMEO : SO_SNDTIMEO,
                     &tv, &len) != 0
      || (tv.tv_sec == 0 && tv.tv_usec == 0))
    return -1;
  if (INT_MAX / 1000 - 1 <= tv.tv_sec)
    return INT_MAX;
  return tv.tv_sec * 1000 + (tv.tv_usec + 999) / 1000;
}

/* A call on FD said EAGAIN: wait until FD is ready for EVENTS.  Return
   false, with errno set, if poll itself fails, or at once, with errno
   EAGAIN, if FD is a blocking socket with a timeout: the call has
   waited as long as GNU tee's would, and failed as GNU tee's does.  A
   hang-up or error also counts as ready: the next read or write on FD
   then reports it.  */

bool
wait_ready (int fd, short events)
{
  struct pollfd pfd = { .fd = fd, .events = events };

  if (0 <= call_timeout (fd, events))
    {
      errno = EAGAIN;
      return false;
    }
  while (poll (&pfd, 1, -1) < 0)
    if (! poll_again (errno))
      return false;
  return true;
}

/* Write SIZE bytes of BUF to output O, waiting whenever a non-blocking
   output is full, and set *DONE to how many were written.  Return
   MOVE_DONE, or MOVE_FAILED with errno set.  */

enum move_result
write_wait (struct output const *o, void const *buf, size_t size,
            size_t *done)
{
  char const *p = buf;

  *done = 0;
  while (*done < size)
    {
      *done += full_write (o->fd, p + *done, size - *done);
      if (*done < size && (errno != EAGAIN || ! wait_ready (o->fd, POLLOUT)))
        return MOVE_FAILED;
    }
  return MOVE_DONE;
}

/* Return true if poll(2) says that FD is readable whenever a read of
   it would return, so that ktee may wait for it there: a pipe, FIFO,
   socket or character device, open for reading, and not a listening
   socket.  A read of anything else is made at once, as GNU tee 9.1
   reads every input: a regular file never blocks, and on some
   descriptors a read fails at once where poll never says readable (the
   write end of a pipe, a listening socket, a terminal opened
   write-only).  */

bool
input_pollable (int fd)
{
  struct stat st;
  int flags = fcntl (fd, F_GETFL);
  if (flags < 0 || (flags & O_ACCMODE) == O_WRONLY || fstat (fd, &st) != 0)
    return false;
  if (S_ISSOCK (st.st_mode))
    {
      int listens = 0;
      socklen_t len = sizeof listens;
      return (getsockopt (fd, SOL_SOCKET, SO_ACCEPTCONN, &listens, &len) == 0
              && ! listens);
    }
  return S_ISFIFO (st.st_mode) || S_ISCHR (st.st_mode);
}

/* Poll input FD (none if negative) for POLLIN and every live pipe
   output of OUTS for its reader going away, for at most TIMEOUT ms (-1:
   no limit).  Return the output whose reader has gone, or NULL when the
   input is ready (input wins a tie, so queued data is still delivered),
   when poll fails, or when the time is up, setting *EXPIRED.  */

static struct output *
poll_outputs (int fd, struct outputs *outs, int timeout, bool *expired)
{
  static struct pollfd *pfds;
  static size_t pfds_alloc;
  size_t npfds = 0;
  int ready;

  *expired = false;
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

  while ((ready = poll (pfds, npfds, timeout)) < 0)
    if (! poll_again (errno))
      return NULL;
  *expired = ready == 0;
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
   output is a broken pipe, even while the input is idle.  Wait no
   longer than a read would: TIMEOUT ms, standard input's call_timeout
   (-1: for ever), bounds each wait.  Return INPUT_READY,
   INPUT_NO_OUTPUT if no output is left, or INPUT_TIMED_OUT, with errno
   EAGAIN as GNU tee's read would set it.  */

enum input_wait
await_input (struct outputs *outs, int timeout)
{
  struct output *broken;
  bool expired;
  while (outs->live
         && (broken = poll_outputs (STDIN_FILENO, outs, timeout, &expired)))
    output_fail (outs, broken, EPIPE);
  if (! outs->live)
    return INPUT_NO_OUTPUT;
  if (expired)
    {
      errno = EAGAIN;
      return INPUT_TIMED_OUT;
    }
  return INPUT_READY;
}

/* Return a live pipe output of OUTS whose reader has gone, or NULL.
   Do not wait.  */

struct output *
broken_pipe_output (struct outputs *outs)
{
  bool expired;
  return poll_outputs (-1, outs, 0, &expired);
}
