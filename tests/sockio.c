/* sockio -- run a program with standard input or output a socket.
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

/* Usage: sockio FD KIND PROGRAM [ARG]...

   Run PROGRAM with descriptor FD (0 or 1) one end of a stream socket of
   KIND: "unix" (a socketpair), "tcp" (a connection on 127.0.0.1), or
   "tcp-reset" (the same, reset by the peer before it sends anything;
   FD 0 only).  sockio relays between the other end and what FD was:
   for 0 it sends what it reads on its standard input, then shuts the
   connection down; for 1 it writes what comes to its standard output.
   It then waits for PROGRAM and exits as PROGRAM did, dying of the same
   signal if PROGRAM died of one, so that a test sees PROGRAM's status
   and, for FD 1, all of its output in place when sockio has exited.  */

#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "full-write.h"

_Noreturn static void
die (char const *what)
{
  perror (what);
  exit (125);
}

/* Make a connected pair of TCP sockets on the loopback interface.  */

static void
tcp_pair (int sv[2])
{
  struct sockaddr_in sa = { .sin_family = AF_INET };
  socklen_t len = sizeof sa;
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  int l = socket (AF_INET, SOCK_STREAM, 0);
  if (l < 0 || bind (l, (struct sockaddr *) &sa, sizeof sa) != 0
      || listen (l, 1) != 0
      || getsockname (l, (struct sockaddr *) &sa, &len) != 0)
    die ("sockio: listen");
  sv[0] = socket (AF_INET, SOCK_STREAM, 0);
  if (sv[0] < 0 || connect (sv[0], (struct sockaddr *) &sa, sizeof sa) != 0)
    die ("sockio: connect");
  sv[1] = accept (l, NULL, NULL);
  if (sv[1] < 0)
    die ("sockio: accept");
  close (l);
}

/* Copy FROM to TO until end of file or an error on either.  */

static void
relay (int from, int to)
{
  char buf[65536];
  ssize_t n;
  while ((n = read (from, buf, sizeof buf)) != 0)
    {
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 || full_write (to, buf, n) != n)
        return;
    }
}

int
main (int argc, char **argv)
{
  if (argc < 4 || ! (strcmp (argv[1], "0") == 0 || strcmp (argv[1], "1") == 0))
    {
      fprintf (stderr, "Usage: sockio 0|1 unix|tcp|tcp-reset PROGRAM [ARG]...\n");
      return 125;
    }
  int fd = atoi (argv[1]);
  char const *kind = argv[2];
  int sv[2];

  if (strcmp (kind, "unix") == 0)
    {
      if (socketpair (AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        die ("sockio: socketpair");
    }
  else if (strcmp (kind, "tcp") == 0 || strcmp (kind, "tcp-reset") == 0)
    tcp_pair (sv);
  else
    {
      fprintf (stderr, "sockio: unknown kind %s\n", kind);
      return 125;
    }

  pid_t pid = fork ();
  if (pid < 0)
    die ("sockio: fork");
  if (pid == 0)
    {
      if (dup2 (sv[0], fd) < 0)
        die ("sockio: dup2");
      close (sv[0]);
      close (sv[1]);
      execvp (argv[3], argv + 3);
      perror (argv[3]);
      _exit (127);
    }
  close (sv[0]);

  /* A PROGRAM that stops reading early must not kill the relay.  */
  signal (SIGPIPE, SIG_IGN);
  if (strcmp (kind, "tcp-reset") == 0)
    {
      struct linger lg = { .l_onoff = 1, .l_linger = 0 };
      setsockopt (sv[1], SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    }
  else if (fd == 0)
    {
      relay (STDIN_FILENO, sv[1]);
      shutdown (sv[1], SHUT_WR);
    }
  else
    {
      close (STDIN_FILENO);
      relay (sv[1], STDOUT_FILENO);
    }
  close (sv[1]);

  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      die ("sockio: waitpid");
  if (WIFSIGNALED (status))
    {
      signal (WTERMSIG (status), SIG_DFL);
      raise (WTERMSIG (status));
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 125;
}
