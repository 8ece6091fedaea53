/* splice-append -- does this kernel splice into an O_APPEND file?
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

/* Usage: splice-append FILE

   Exit 0 if splice(2) from a pipe into FILE opened with O_APPEND, with
   no offset, writes, 1 if the kernel refuses it with EINVAL (every
   kernel today: kernel/README.md says why the RFC that would have let
   it was dropped), 125 on any other failure.
   FILE ends up with one byte appended, or unchanged.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "Usage: splice-append FILE\n");
      return 125;
    }

  int p[2];
  int fd = open (argv[1], O_WRONLY | O_APPEND | O_CREAT, 0666);
  if (fd < 0 || pipe (p) != 0 || write (p[1], "x", 1) != 1)
    {
      fprintf (stderr, "splice-append: %s\n", strerror (errno));
      return 125;
    }
  if (splice (p[0], NULL, fd, NULL, 1, 0) == 1)
    return 0;
  if (errno == EINVAL)
    return 1;
  fprintf (stderr, "splice-append: splice: %s\n", strerror (errno));
  return 125;
}
