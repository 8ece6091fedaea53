/* produce.c -- write a number of bytes to standard output, for bench/run.
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

/* Usage: produce vmsplice|write BYTES

   "vmsplice" is the fastest producer Linux allows: it hands the pages of
   one prepared 1 MiB buffer to the pipe with vmsplice(2), so no byte is
   copied on the producer's side, and it grows the pipe to 1 MiB first.
   The buffer is never changed, so every reader sees the same bytes.

   "write" is a plain producer, as cat(1) of a file in the page cache:
   write(2) of a 128 KiB buffer at a time, on the pipe as the shell made
   it (64 KiB).  It copies every byte once, into the pipe, and that
   copy alone bounds how fast anything downstream can go.  */

#define _GNU_SOURCE 1

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

enum { VMSPLICE_BYTES = 1024 * 1024, WRITE_BYTES = 128 * 1024 };

static void
die (char const *what)
{
  fprintf (stderr, "produce: %s: %s\n", what, strerror (errno));
  exit (EXIT_FAILURE);
}

/* Return a page-aligned buffer of SIZE bytes that are not all alike, so
   that no layer can take a shortcut for zero pages.  */

static char *
make_buffer (size_t size)
{
  char *buf;
  if (posix_memalign ((void **) &buf, 4096, size) != 0)
    die ("memory");
  unsigned int x = 12345;
  for (size_t i = 0; i < size; i++)
    {
      x = x * 1103515245 + 12345;
      buf[i] = 'a' + (x >> 16) % 26;
    }
  for (size_t i = 79; i < size; i += 80)
    buf[i] = '\n';
  return buf;
}

static void
produce_vmsplice (unsigned long long bytes)
{
  char *buf = make_buffer (VMSPLICE_BYTES);
  fcntl (STDOUT_FILENO, F_SETPIPE_SZ, VMSPLICE_BYTES);

  while (bytes)
    {
      /* Whole buffers only, so each vmsplice starts page-aligned.  */
      size_t off = 0;
      size_t size = bytes < VMSPLICE_BYTES ? bytes : VMSPLICE_BYTES;
      while (off < size)
        {
          struct iovec iov = { buf + off, size - off };
          ssize_t n = vmsplice (STDOUT_FILENO, &iov, 1, 0);
          if (n < 0)
            {
              if (errno == EINTR)
                continue;
              die ("vmsplice");
            }
          off += n;
        }
      bytes -= size;
    }
}

static void
produce_write (unsigned long long bytes)
{
  char *buf = make_buffer (WRITE_BYTES);

  while (bytes)
    {
      size_t size = bytes < WRITE_BYTES ? bytes : WRITE_BYTES;
      size_t off = 0;
      while (off < size)
        {
          ssize_t n = write (STDOUT_FILENO, buf + off, size - off);
          if (n < 0)
            {
              if (errno == EINTR)
                continue;
              die ("write");
            }
          off += n;
        }
      bytes -= size;
    }
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fputs ("Usage: produce vmsplice|write BYTES\n", stderr);
      return EXIT_FAILURE;
    }
  unsigned long long bytes = strtoull (argv[2], NULL, 10);

  if (strcmp (argv[1], "vmsplice") == 0)
    produce_vmsplice (bytes);
  else if (strcmp (argv[1], "write") == 0)
    produce_write (bytes);
  else
    {
      fprintf (stderr, "produce: unknown method '%s'\n", argv[1]);
      return EXIT_FAILURE;
    }
  return EXIT_SUCCESS;
}
