/* nonblock -- run a program with O_NONBLOCK set on a file descriptor.
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

/* Usage: nonblock FD PROGRAM [ARG]...

   Set O_NONBLOCK on the open file description of FD, then run PROGRAM.
   The flag belongs to the description, so a pipe end made non-blocking
   here stays so for whatever else shares it.  */

#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "Usage: nonblock FD PROGRAM [ARG]...\n");
      return 125;
    }

  int fd = atoi (argv[1]);
  int flags = fcntl (fd, F_GETFL);
  if (flags < 0 || fcntl (fd, F_SETFL, flags | O_NONBLOCK) < 0)
    {
      perror ("nonblock");
      return 125;
    }

  execvp (argv[2], argv + 2);
  perror (argv[2]);
  return 127;
}
