/* pty -- run a program with a terminal as its standard output.
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

/* Usage: pty PROGRAM [ARG]...

   Open a pseudo-terminal and run PROGRAM with its slave as standard
   output, copying what comes out of the master, as the terminal's line
   discipline made it, to this program's standard output until PROGRAM
   has exited and all it wrote is read.  Then exit as PROGRAM did, dying
   of the same signal if it died of one.  Exit 125 if there is no
   pseudo-terminal to be had (no /dev/ptmx or /dev/pts), so that a test
   can skip.  (Sockets are tests/sockio.c's.)  */

#include <config.h>

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "full-write.h"

_Noreturn static void
die (char const *what)
{
  fprintf (stderr, "pty: %s: %s\n", what, strerror (errno));
  exit (125);
}

/* Copy what the master FROM holds now to standard output, waiting at
   most TIMEOUT ms for it to have something.  Return false once it has
   nothing more to give: EIO, the slave being closed and its data read.  */

static bool
copy_out (int from, int timeout)
{
  static char buf[64 * 1024];
  struct pollfd pfd = { .fd = from, .events = POLLIN };
  if (poll (&pfd, 1, timeout) <= 0)
    return true;
  ssize_t n = read (from, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN))
    return true;
  return 0 < n && full_write (STDOUT_FILENO, buf, n) == n;
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "Usage: pty PROGRAM [ARG]...\n");
      return 125;
    }

  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0 || grantpt (master) != 0 || unlockpt (master) != 0)
    die ("/dev/ptmx");
  char const *name = ptsname (master);
  int slave = name ? open (name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
  if (slave < 0)
    die (name ? name : "ptsname");

  pid_t pid = fork ();
  if (pid < 0)
    die ("fork");
  if (pid == 0)
    {
      if (dup2 (slave, STDOUT_FILENO) < 0)
        die ("dup2");
      execvp (argv[1], argv + 1);
      perror (argv[1]);
      _exit (127);
    }

  /* Keep a copy of the slave until PROGRAM has exited, so that the
     master cannot say EIO while the last of PROGRAM's output is still
     on its way through the terminal; then close it and read the rest.  */
  signal (SIGPIPE, SIG_IGN);
  int status;
  pid_t done;
  while ((done = waitpid (pid, &status, WNOHANG)) == 0
         || (done < 0 && errno == EINTR))
    copy_out (master, 50);
  if (done < 0)
    die ("waitpid");
  close (slave);
  while (copy_out (master, -1))
    continue;
  if (WIFSIGNALED (status))
    {
      signal (WTERMSIG (status), SIG_DFL);
      raise (WTERMSIG (status));
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 125;
}
