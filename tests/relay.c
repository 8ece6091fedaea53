/* relay -- run a program with a terminal or a socket as one descriptor.
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

/* Usage: relay FD KIND PROGRAM [ARG]...

   Make a connected pair of KIND: "pty", a pseudo-terminal's master and
   slave; "unix", two connected AF_UNIX stream sockets; "tcp", the two
   ends of a TCP connection on 127.0.0.1, made through a listening socket
   on a port the kernel picks.  Run PROGRAM with FD one end (the slave of
   a pty), and relay between the other end and this program's own FD:
   with FD 0, copy standard input to PROGRAM, then shut the socket down
   for writing, so that PROGRAM sees the end of its input; otherwise copy
   what PROGRAM writes to FD until it has closed it.  A pty can only be
   an output: its input would need a line discipline's end of file.

   Exit as PROGRAM did: its status, or 128 + the signal that killed it,
   as a shell reports it.  Exit 77 if the pair cannot be made, as where
   the kernel lacks TCP/IP or /dev/pts, so that a test can skip; 125 for
   other failures of this program.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>

enum { CANNOT_PAIR = 77, FAILED = 125 };

static int
cannot_pair (char const *what)
{
  fprintf (stderr, "relay: %s: %s\n", what, strerror (errno));
  return -1;
}

/* Make the two ends of a pseudo-terminal: END[0] the master (ours),
   END[1] the slave (PROGRAM's).  */

static int
pty_pair (int end[2])
{
  end[0] = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (end[0] < 0 || grantpt (end[0]) != 0 || unlockpt (end[0]) != 0)
    return cannot_pair ("/dev/ptmx");
  char const *name = ptsname (end[0]);
  end[1] = name ? open (name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
  return end[1] < 0 ? cannot_pair ("pty slave") : 0;
}

/* Make a TCP connection on the loopback address: END[1] the client,
   END[0] what the listening socket accepted.  */

static int
tcp_pair (int end[2])
{
  struct sockaddr_in addr = { .sin_family = AF_INET };
  socklen_t len = sizeof addr;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  int listener = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0
      || bind (listener, (struct sockaddr *) &addr, sizeof addr) != 0
      || listen (listener, 1) != 0
      || getsockname (listener, (struct sockaddr *) &addr, &len) != 0)
    return cannot_pair ("TCP listener on 127.0.0.1");
  end[1] = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (end[1] < 0 || connect (end[1], (struct sockaddr *) &addr, len) != 0)
    return cannot_pair ("TCP connection to 127.0.0.1");
  end[0] = accept4 (listener, NULL, NULL, SOCK_CLOEXEC);
  if (end[0] < 0)
    return cannot_pair ("accept");
  close (listener);
  return 0;
}

static int
make_pair (char const *kind, int end[2])
{
  if (strcmp (kind, "pty") == 0)
    return pty_pair (end);
  if (strcmp (kind, "tcp") == 0)
    return tcp_pair (end);
  if (strcmp (kind, "unix") == 0)
    return (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, end) == 0
            ? 0 : cannot_pair ("AF_UNIX socket pair"));
  errno = EINVAL;
  return cannot_pair (kind);
}

/* Copy from FROM to TO until FROM ends.  A pty master reports the end,
   once the slave is closed and its data read, as EIO.  Stop quietly if
   TO goes away, as when PROGRAM quits before reading all its input.  */

static bool
copy (int from, int to)
{
  static char buf[64 * 1024];
  for (;;)
    {
      ssize_t n = read (from, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n == 0 || (n < 0 && errno == EIO))
        return true;
      if (n < 0)
        return false;
      for (ssize_t done = 0; done < n; )
        {
          ssize_t w = write (to, buf + done, n - done);
          if (w < 0 && errno == EINTR)
            continue;
          if (w < 0)
            return errno == EPIPE || errno == ECONNRESET;
          done += w;
        }
    }
}

int
main (int argc, char **argv)
{
  if (argc < 4)
    {
      fprintf (stderr, "Usage: relay FD KIND PROGRAM [ARG]...\n");
      return FAILED;
    }
  int fd = atoi (argv[1]);
  bool input = fd == 0;
  if (input && strcmp (argv[2], "pty") == 0)
    {
      fprintf (stderr, "relay: a pty can only be an output\n");
      return FAILED;
    }

  int end[2];
  if (make_pair (argv[2], end) != 0)
    return CANNOT_PAIR;

  pid_t pid = fork ();
  if (pid < 0)
    {
      perror ("relay: fork");
      return FAILED;
    }
  if (pid == 0)
    {
      if (dup2 (end[1], fd) < 0)
        {
          perror ("relay: dup2");
          _exit (FAILED);
        }
      execvp (argv[3], argv + 3);
      perror (argv[3]);
      _exit (127);
    }

  /* PROGRAM must hold the only copy of its end: a pty reports the end of
     PROGRAM's output, and a socket its end of input, only then.  */
  close (end[1]);
  signal (SIGPIPE, SIG_IGN);
  bool ok = input ? copy (STDIN_FILENO, end[0]) : copy (end[0], fd);
  if (! ok)
    perror ("relay");
  if (input)
    shutdown (end[0], SHUT_WR);

  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      {
        perror ("relay: waitpid");
        return FAILED;
      }
  return (WIFSIGNALED (status) ? 128 + WTERMSIG (status)
          : ok ? WEXITSTATUS (status) : FAILED);
}
