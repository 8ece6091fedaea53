/* packets.c -- find the packet-mode buffers that splice and tee pass on.
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

/* A writer whose end of a pipe is in packet mode (pipe2 with O_DIRECT,
   or F_SETFL later) makes each write a buffer of its own, and a reader
   of that pipe loses the rest of such a buffer after a short read.
   read and write join packets again, so GNU tee's outputs never lose a
   byte.  splice and tee do not: on kernels without the fix in ktee's
   kernel/ series they copy each buffer's packet flag into the pipe they
   fill, so a reader of ktee's standard output would lose bytes that no
   packet-mode writer ever wrote there.

   Nothing but the buffers shows it: the read end of such a pipe carries
   no O_DIRECT, and a pipe may have several writers, only one of them in
   packet mode, from any point of the stream on.  A read stops after a
   packet buffer, though, even if more was asked for and more is there;
   so reading a copy of the round tells, at the price of one pass over
   its bytes into a buffer small enough to stay in the cache.  */

#include <config.h>

#include "packets.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/param.h>
#include <sys/uio.h>
#include <unistd.h>

/* The probe reads SCRATCH_BYTES at a time into one buffer, up to
   SCRATCH_IOVS times a call.  */
enum { SCRATCH_BYTES = 16 * 1024, SCRATCH_IOVS = 64 };

/* Read and discard SIZE bytes that private pipe FD already holds.
   Return PROBE_PACKETS if a read came back short, which only a packet
   buffer makes happen.  */

static enum packet_probe
discard (int fd, size_t size)
{
  static char scratch[SCRATCH_BYTES];
  struct iovec iov[SCRATCH_IOVS];

  while (size)
    {
      int n_iov = 0;
      size_t want = 0;
      for (; n_iov < SCRATCH_IOVS && want < size; n_iov++)
        {
          iov[n_iov].iov_base = scratch;
          iov[n_iov].iov_len = MIN (SCRATCH_BYTES, size - want);
          want += iov[n_iov].iov_len;
        }

      ssize_t n = readv (fd, iov, n_iov);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = EIO;
          return PROBE_FAILED;
        }
      if (n < want)
        return PROBE_PACKETS;
      size -= n;
    }
  return PROBE_PLAIN;
}

/* Return whether any of the SIZE bytes at the head of private pipe SRC
   is in a packet buffer, using the empty private pipe PROBE, which is
   left empty unless the answer is not PROBE_PLAIN.  Reading all but the
   last byte also finds a packet buffer at the end: it takes its last
   byte with it.  A packet buffer of one byte goes unseen, and harmless:
   no read can be shorter.  */

enum packet_probe
probe_packets (int src, int probe[2], size_t size)
{
  ssize_t n;
  while ((n = tee (src, probe[1], size, 0)) < 0 && errno == EINTR)
    continue;
  if (n != size)
    {
      if (0 <= n)
        errno = EIO;
      return PROBE_FAILED;
    }

  enum packet_probe r = discard (probe[0], size - 1);
  if (r != PROBE_PLAIN)
    return r;

  int left;
  if (ioctl (probe[0], FIONREAD, &left) != 0)
    return PROBE_FAILED;
  return left == 0 ? PROBE_PACKETS : discard (probe[0], left);
}

/* Return true unless splice is known to leave packet mode behind: pass
   a packet of two bytes from a pipe in packet mode to a plain one, and
   see whether a read of one byte takes both.  A kernel with the fix
   gives the buffers the packet mode of the pipe they go into.  */

bool
kernel_passes_packets (void)
{
  int in[2], out[2];
  bool passes = true;

  /* A kernel without packet mode has no packet buffers to pass.  */
  if (pipe2 (in, O_DIRECT) != 0)
    return errno != EINVAL;
  if (pipe (out) == 0)
    {
      char buf[2] = "ab";
      int left;
      passes = ! (write (in[1], buf, 2) == 2
                  && splice (in[0], NULL, out[1], NULL, 2, 0) == 2
                  && read (out[0], buf, 1) == 1
                  && ioctl (out[0], FIONREAD, &left) == 0 && left == 1);
      close (out[0]);
      close (out[1]);
    }
  close (in[0]);
  close (in[1]);
  return passes;
}
