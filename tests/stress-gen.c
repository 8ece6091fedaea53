/* stress-gen -- write the soak test's self-describing stream with vmsplice.
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

/* Usage: stress-gen [-p OFFSET]... SEED BYTES

   Write BYTES bytes of the stream that stress-pattern.h defines for
   SEED to standard output, which must be a pipe.  -p OFFSET stops
   after exactly OFFSET bytes until the reader has emptied the pipe, so
   that one of its reads ends there (offsets in increasing order): where
   a reader's count of bytes would reach the limit of its type.

   Checksumming every output of a 20 GiB soak would take longer than the
   soak itself, so the stream describes itself instead: every 8-byte
   word says where it belongs, and stress-check verifies each output at
   memory speed.

   The bytes reach the pipe with plain vmsplice(2), without
   SPLICE_F_GIFT: the pipe, and every pipe that tee(2) or splice(2)
   later moves them to, refers to this process's pages, so no byte is
   copied before a reader copies it out.  The bytes are written once,
   into a ring of RING_BYTES, and a slot of the ring is written again
   only when the stream has moved RING_BYTES past it.  By then no pipe
   can refer to it: between this process and the last reader, the bytes
   of a pipeline "stress-gen | ktee | reader" sit in at most the input
   pipe (1 MiB, the biggest ktee asks for), ktee's current round (1 MiB)
   and one output pipe (1 MiB at most unless someone grows it beyond
   ktee's own size); 3 MiB in all, against 15 MiB of ring behind the
   slot being rewritten.  A ktee that kept references to pages longer
   than that would show up as corrupt data, which is a bug too.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

#include "stress-pattern.h"

enum { CHUNK_BYTES = 1024 * 1024, RING_CHUNKS = 16 };

static _Noreturn void
die (char const *what)
{
  fprintf (stderr, "stress-gen: %s: %s\n", what, strerror (errno));
  exit (EXIT_FAILURE);
}

/* The offsets to stop at, in increasing order, and how many are left.  */
static unsigned long long const *pauses;
static int npauses;

/* Bytes written so far.  */
static unsigned long long sent;

/* Wait until the reader of pipe FD has taken every byte in it, or has
   gone (POLLERR), which the next write then finds.  */

static void
wait_drained (int fd)
{
  struct pollfd pfd = { .fd = fd, .events = 0 };
  int queued;
  while (ioctl (fd, FIONREAD, &queued) == 0 && queued
         && ! (0 < poll (&pfd, 1, 1) && pfd.revents & POLLERR))
    continue;
}

/* Hand the SIZE bytes at BUF to pipe FD, all of them.  */

static void
vmsplice_all (int fd, char *buf, size_t size)
{
  while (size)
    {
      struct iovec iov = { buf, size };
      ssize_t n = vmsplice (fd, &iov, 1, 0);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          die ("vmsplice");
        }
      buf += n;
      size -= n;
    }
}

/* Send the SIZE bytes at BUF to standard output, stopping at each pause
   that falls within them.  */

static void
send (char *buf, size_t size)
{
  while (size)
    {
      size_t part = size;
      if (npauses && *pauses - sent < part)
        part = *pauses - sent;
      vmsplice_all (STDOUT_FILENO, buf, part);
      buf += part;
      size -= part;
      sent += part;
      if (npauses && sent == *pauses)
        {
          wait_drained (STDOUT_FILENO);
          pauses++;
          npauses--;
        }
    }
}

int
main (int argc, char **argv)
{
  int nargs = argc - 1;
  static unsigned long long offsets[16];
  char **arg = argv + 1;
  for (; 2 < nargs && strcmp (*arg, "-p") == 0; arg += 2, nargs -= 2)
    {
      unsigned long long at = strtoull (arg[1], NULL, 0);
      if (npauses == sizeof offsets / sizeof *offsets
          || (npauses && at <= offsets[npauses - 1]))
        nargs = 0;
      else
        offsets[npauses++] = at;
    }
  if (nargs != 2)
    {
      fputs ("Usage: stress-gen [-p OFFSET]... SEED BYTES\n", stderr);
      return EXIT_FAILURE;
    }
  pauses = offsets;
  struct pattern pat;
  pattern_init (&pat, strtoull (arg[0], NULL, 0));
  unsigned long long bytes = strtoull (arg[1], NULL, 0);

  uint64_t *ring;
  if (posix_memalign ((void **) &ring, 4096,
                      (size_t) CHUNK_BYTES * RING_CHUNKS) != 0)
    die ("memory");
  fcntl (STDOUT_FILENO, F_SETPIPE_SZ, CHUNK_BYTES);

  enum { WORDS = CHUNK_BYTES / sizeof (uint64_t) };
  for (uint64_t word = 0, slot = 0; bytes; slot = (slot + 1) % RING_CHUNKS)
    {
      uint64_t *chunk = ring + slot * WORDS;
      size_t size = bytes < CHUNK_BYTES ? bytes : CHUNK_BYTES;
      for (size_t i = 0; i < WORDS; i++)
        chunk[i] = pattern_word (&pat, word + i);
      send ((char *) chunk, size);
      word += WORDS;
      bytes -= size;
    }
  free (ring);
  return EXIT_SUCCESS;
}
