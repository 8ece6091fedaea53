/* packets.c -- clear the packet mode that splice and tee pass on.
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
   packet mode, from any point of the stream on.  Only a read looks at
   the flag, and finding it so costs a pass over every byte.  Clearing it
   costs less: a stream socket keeps references to the pages spliced into
   it, and splicing out of it makes buffers of the socket's own, which
   carry no flag.  So the round goes through a socket pair, and no byte
   is copied.  */

#include <config.h>

#include "packets.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "unistd-safer.h"

/* The most a socket is asked to hold; the kernel caps it lower
   (net.core.wmem_max), which only costs system calls.  */
enum { SOCKET_BYTES = 1024 * 1024 };

/* Make the connected, non-blocking stream socket pair SOCK, SOCK[0] to
   write, with descriptors above those of the standard streams, as every
   descriptor of ktee's own.  Return false with errno set on failure.  */

bool
make_stripper (int sock[2])
{
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sock) != 0)
    return false;
  sock[0] = fd_safer (sock[0]);
  sock[1] = fd_safer (sock[1]);
  if (sock[0] < 0 || sock[1] < 0)
    {
      int err = errno;
      if (0 <= sock[0])
        close (sock[0]);
      if (0 <= sock[1])
        close (sock[1]);
      sock[0] = sock[1] = -1;
      errno = err;
      return false;
    }
  int size = SOCKET_BYTES;
  setsockopt (sock[0], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
  return true;
}

/* Splice LEN bytes at most from FD_IN to FD_OUT without waiting.
   Return how many moved, 0 if none could now, or -1 with errno set.  */

static ssize_t
move (int fd_in, int fd_out, size_t len)
{
  ssize_t n;
  while ((n = splice (fd_in, NULL, fd_out, NULL, len, SPLICE_F_NONBLOCK)) < 0
         && errno == EINTR)
    continue;
  if (n < 0 && errno == EAGAIN)
    return 0;
  if (n == 0)
    {
      /* Neither a socket of ktee's own nor a pipe holding LEN bytes
         ends early.  */
      errno = EIO;
      return -1;
    }
  return n;
}

/* Move the SIZE bytes at the head of private pipe SRC into the empty
   private pipe DST, which holds as many buffers as SRC, through the
   socket pair SOCK.  Set *SENT to how many bytes left SRC and *TAKEN
   to how many reached DST.  Return false with errno set if not all did:
   the bytes are then in DST, SOCK[1] and SRC, in that order.  */

bool
strip_packets (int src, int const sock[2], int dst, size_t size,
               size_t *sent, size_t *taken)
{
  *sent = *taken = 0;
  while (*taken < size)
    {
      ssize_t in = 0;
      if (*sent < size)
        {
          in = move (src, sock[0], size - *sent);
          if (in < 0)
            return false;
          *sent += in;
        }
      ssize_t out = 0;
      if (*taken < *sent)
        {
          out = move (sock[1], dst, *sent - *taken);
          if (out < 0)
            return false;
          *taken += out;
        }

      /* The socket is full only while it holds bytes for DST, and DST
         has a buffer for every one of SRC's: no move can then fail to
         make room for another, but a fault could.  */
      if (in == 0 && out == 0)
        {
          errno = EIO;
          return false;
        }
    }
  return true;
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
