/* limit -- run a program with fewer descriptors, a file size limit, a
   larger input pipe, or as another user.
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

/* Usage: limit [-c] [-n FILES] [-f BYTES] [-p BYTES] [-u UID] PROGRAM
                [ARG]...

   -c        close every descriptor above 2, so that -n counts from 3
             whatever the caller (make, a shell) left open
   -n FILES  set the soft RLIMIT_NOFILE to FILES
   -f BYTES  set the soft RLIMIT_FSIZE to BYTES, and RLIMIT_CORE to 0,
             so that a SIGXFSZ leaves no core file among the outputs
   -p BYTES  make the pipe on standard input hold BYTES (F_SETPIPE_SZ),
             as a reader that grows its pipe once it runs (GNU cat 9.11)
   -u UID    run PROGRAM as user and group UID, with no other groups

   The shells differ in ulimit's units (dash counts 512-byte blocks,
   bash 1024) and none can close descriptors it does not know of, hence
   this program.  With -u, PROGRAM is found in PATH and opened before
   root is dropped, and run from that descriptor: the test suite's PATH
   goes through a private directory the other user cannot search.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

extern char **environ;

static _Noreturn void
die (char const *what)
{
  perror (what);
  exit (125);
}

static long long
number (char const *arg)
{
  char *end;
  errno = 0;
  long long n = strtoll (arg, &end, 10);
  if (! *arg || *end || errno || n < 0)
    {
      fprintf (stderr, "limit: not a number: %s\n", arg);
      exit (125);
    }
  return n;
}

static void
set_soft_limit (int resource, rlim_t value, char const *name)
{
  struct rlimit rl;
  if (getrlimit (resource, &rl) != 0)
    die (name);
  rl.rlim_cur = value;
  if (setrlimit (resource, &rl) != 0)
    die (name);
}

static void
close_above_stderr (void)
{
  long max = sysconf (_SC_OPEN_MAX);
  for (long fd = STDERR_FILENO + 1; fd < max; fd++)
    close ((int) fd);
}

/* Open PROGRAM as execvp would find it, for fexecve.  */

static int
open_program (char const *program)
{
  if (strchr (program, '/'))
    return open (program, O_PATH | O_CLOEXEC);

  char const *path = getenv ("PATH");
  if (! path)
    path = "/bin:/usr/bin";
  size_t plen = strlen (program);
  while (*path)
    {
      size_t dlen = strcspn (path, ":");
      char *name = malloc (dlen + plen + 3);
      if (! name)
        die ("limit");
      /* An empty directory in PATH means the working directory.  */
      char *p = name;
      if (dlen)
        p = (char *) memcpy (p, path, dlen) + dlen;
      else
        *p++ = '.';
      *p++ = '/';
      strcpy (p, program);
      int fd = (access (name, X_OK) == 0
                ? open (name, O_PATH | O_CLOEXEC) : -1);
      free (name);
      if (0 <= fd)
        return fd;
      path += dlen + (path[dlen] == ':');
    }
  errno = ENOENT;
  return -1;
}

static void
become (uid_t uid)
{
  if (setgroups (0, NULL) != 0 || setgid (uid) != 0 || setuid (uid) != 0)
    die ("limit: -u");
}

int
main (int argc, char **argv)
{
  bool close_fds = false;
  long long files = -1;
  long long bytes = -1;
  long long pipe_bytes = -1;
  long long uid = -1;
  int c;

  while ((c = getopt (argc, argv, "+cn:f:p:u:")) != -1)
    switch (c)
      {
      case 'c':
        close_fds = true;
        break;
      case 'n':
        files = number (optarg);
        break;
      case 'f':
        bytes = number (optarg);
        break;
      case 'p':
        pipe_bytes = number (optarg);
        break;
      case 'u':
        uid = number (optarg);
        break;
      default:
        optind = argc;
        break;
      }
  if (argc <= optind)
    {
      fprintf (stderr, "Usage: limit [-c] [-n FILES] [-f BYTES] [-p BYTES]"
               " [-u UID] PROGRAM [ARG]...\n");
      return 125;
    }
  char **cmd = argv + optind;

  if (close_fds)
    close_above_stderr ();

  if (0 <= pipe_bytes
      && fcntl (STDIN_FILENO, F_SETPIPE_SZ, (int) pipe_bytes) < 0)
    die ("limit: -p");

  int prog = -1;
  if (0 <= uid)
    {
      prog = open_program (cmd[0]);
      if (prog < 0)
        die (cmd[0]);
      become (uid);
    }

  if (0 <= bytes)
    {
      set_soft_limit (RLIMIT_CORE, 0, "limit: RLIMIT_CORE");
      set_soft_limit (RLIMIT_FSIZE, bytes, "limit: -f");
    }
  /* Last, so that this program's own descriptors do not count.  */
  if (0 <= files)
    set_soft_limit (RLIMIT_NOFILE, files, "limit: -n");

  if (0 <= prog)
    fexecve (prog, cmd, environ);
  else
    execvp (cmd[0], cmd);
  perror (cmd[0]);
  return 127;
}
