/* drain.c -- move standard input to standard output as cheaply as Linux can.
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

/* Usage: drain

   The consumer of every pipeline in bench/run, with standard output on
   /dev/null; and, with standard output on a file, the "file alone"
   baseline: the producer's bytes spliced straight into the file, which
   is what writing that file costs at the least.

   It grows its input pipe to 1 MiB and splices from it; if the kernel
   declines (input not a pipe, output that refuses splice), it falls
   back to read(2) and write(2) of 128 KiB.  */

#define _GNU_SOURCE 1

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PIPE_BYTES = 1024 * 1024, RW_BYTES = 128 * 1024 };

static void
die (char const *what)
{
  fprintf (stderr, "drain: %s: %s\n", what, strerror (errno));
  exit (EXIT_FAILURE);
}

static void
drain_rw (void)
{
  static char buf[RW_BYTES];

  for (;;)
    {
      ssize_t n = read (STDIN_FILENO, buf, sizeof buf);
      if (n == 0)
        return;
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          die ("read");
        }
      for (ssize_t off = 0; off < n; )
        {
          ssize_t w = write (STDOUT_FILENO, buf + off, n - off);
          if (w < 0)
            {
              if (errno == EINTR)
                continue;
              die ("write");
            }
          off += w;
        }
    }
}

int
main (void)
{
  fcntl (STDIN_FILENO, F_SETPIPE_SZ, PIPE_BYTES);

  for (;;)
    {
      ssize_t n = splice (STDIN_FILENO, NULL, STDOUT_FILENO, NULL,
                          PIPE_BYTES, SPLICE_F_MOVE);
      if (n == 0)
        return EXIT_SUCCESS;
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          if (errno == EINVAL || errno == ENOSYS)
            break;
          die ("splice");
        }
    }

  /* What splice did not take is still in the input.  */
  drain_rw ();
  return EXIT_SUCCESS;
}
