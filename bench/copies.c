/* copies.c -- copy a file to another by copy_file_range or through a pipe.
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

/* Usage: copies range|pipe IN OUT BYTES

   Copy file IN to a new file OUT, BYTES per call: by copy_file_range(2)
   ("range"), or by splice(2) from IN into a pipe of 1 MiB and from the
   pipe into OUT ("pipe"), as ktee's file engine gives a file each way.
   Print the CPU seconds (user + system) the copy took.  bench/copies
   runs it.  */

#define _GNU_SOURCE 1

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static int
copy_by_pipe (int in, int out, size_t bytes)
{
  int p[2];
  if (pipe (p) != 0 || fcntl (p[1], F_SETPIPE_SZ, 1024 * 1024) < 0)
    return -1;
  off_t off = 0;
  ssize_t n;
  while (0 < (n = splice (in, &off, p[1], NULL, bytes, 0)))
    while (0 < n)
      {
        ssize_t m = splice (p[0], NULL, out, NULL, n, 0);
        if (m <= 0)
          return -1;
        n -= m;
      }
  return n;
}

static int
copy_by_range (int in, int out, size_t bytes)
{
  off_t off = 0;
  ssize_t n;
  while (0 < (n = copy_file_range (in, &off, out, NULL, bytes, 0)))
    continue;
  return n;
}

int
main (int argc, char **argv)
{
  if (argc != 5 || (strcmp (argv[1], "range") && strcmp (argv[1], "pipe")))
    {
      fprintf (stderr, "Usage: copies range|pipe IN OUT BYTES\n");
      return 2;
    }
  int in = open (argv[2], O_RDONLY);
  int out = open (argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  size_t bytes = strtoul (argv[4], NULL, 0);
  if (in < 0 || out < 0 || bytes == 0)
    {
      perror ("copies");
      return 1;
    }
  int r = (strcmp (argv[1], "pipe") == 0 ? copy_by_pipe (in, out, bytes)
           : copy_by_range (in, out, bytes));
  if (r != 0)
    {
      perror ("copies");
      return 1;
    }
  struct rusage ru;
  getrusage (RUSAGE_SELF, &ru);
  printf ("%.3f\n", ru.ru_utime.tv_sec + ru.ru_stime.tv_sec
          + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
  return 0;
}
