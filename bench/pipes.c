/* pipes.c -- give a program the private pipes of ktee's zero-copy engine.
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

/* Usage: KTEE_BENCH_PIPES=N LD_PRELOAD=pipes.so COMMAND...

   A library that, loaded into COMMAND, makes N pipes when it starts,
   grows them to 1 MiB as ktee grows its own, closes them when it exits,
   and does nothing else.  N=0 is the control: the same library, loaded
   the same way, making no pipe.  bench/run pairs GNU tee under N=0 with
   GNU tee under N=1 or 2, the pipes ktee makes: the difference is what
   those pipes alone cost, which ktee cannot avoid on an input that has
   not ended when it starts.  */

#define _GNU_SOURCE 1

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

enum { MAX_PIPES = 2, PIPE_BYTES = 1024 * 1024 };

static int fds[MAX_PIPES][2];
static int npipes;

__attribute__ ((constructor)) static void
make_pipes (void)
{
  char const *n = getenv ("KTEE_BENCH_PIPES");
  int want = n ? atoi (n) : 0;
  while (npipes < want && npipes < MAX_PIPES && pipe (fds[npipes]) == 0)
    fcntl (fds[npipes++][1], F_SETPIPE_SZ, PIPE_BYTES);
}

__attribute__ ((destructor)) static void
close_pipes (void)
{
  for (int i = 0; i < npipes; i++)
    {
      close (fds[i][0]);
      close (fds[i][1]);
    }
}
