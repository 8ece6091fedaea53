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

/* Usage: sockio FD KIND[,OPTION]... PROGRAM [ARG]...

   Run PROGRAM with descriptor FD (0 or 1) one end of a socket of KIND:
   "unix" (a stream socketpair), "tcp" (a connection on 127.0.0.1),
   "tcp-reset" (the same, reset by the peer before it sends anything;
   FD 0 only), "tcp-listen" (a socket listening on 127.0.0.1, which
   nobody connects to; nothing is relayed), "unix-dgram" (a datagram
   socketpair) or "unix-seqpacket" (a seqpacket socketpair, whose
   records are relayed as datagrams are, and whose end is a read of 0).
   sockio relays between the other end and what FD was: for 0 it sends
   what it reads on its standard input, then shuts the connection down
   (a datagram socket sends datagrams of the size that the size option
   gives, and last an empty one, which a read takes for end of file);
   for 1 it writes what comes to its standard output, and for a
   datagram socket each datagram's size, a line each, to the file
   "datagrams".  It then
   waits for PROGRAM and exits as PROGRAM did, dying of the same signal
   if PROGRAM died of one, so that a test sees PROGRAM's status and, for
   FD 1, all of its output in place when sockio has exited.

   OPTIONs: "oob=N": after N bytes, send one byte of urgent data
   (MSG_OOB; tcp); "rcvtimeo=MS", "sndtimeo=MS": set that timeout on
   PROGRAM's end; "size=N": datagrams of N bytes (default 16384);
   "stall": for FD 1, read nothing until PROGRAM has exited.  */

#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "full-read.h"
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

/* Make SV[0] a TCP socket listening on the loopback interface.  */

static void
tcp_listener (int sv[2])
{
  struct sockaddr_in sa = { .sin_family = AF_INET };
  sa.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  sv[0] = socket (AF_INET, SOCK_STREAM, 0);
  if (sv[0] < 0 || bind (sv[0], (struct sockaddr *) &sa, sizeof sa) != 0
      || listen (sv[0], 1) != 0)
    die ("sockio: listen");
  sv[1] = -1;
}

/* The options of KIND.  */
struct options
{
  long long oob;        /* Send urgent data after this many bytes; -1.  */
  int rcvtimeo;         /* In ms, 0 for none.  */
  int sndtimeo;
  size_t size;          /* Of each datagram sent.  */
  bool stall;
};

/* Copy FROM to TO until end of file or an error on either; with urgent
   data after OPT->oob bytes.  */

static void
relay (int from, int to, struct options const *opt)
{
  char buf[65536];
  ssize_t n;
  long long sent = 0;
  while ((n = read (from, buf, sizeof buf)) != 0)
    {
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return;
      ssize_t first = n;
      if (sent <= opt->oob && opt->oob < sent + n)
        first = opt->oob - sent;
      if (full_write (to, buf, first) != first)
        return;
      if (first < n)
        {
          if (send (to, "!", 1, MSG_OOB) != 1)
            die ("sockio: send MSG_OOB");
          if (full_write (to, buf + first, n - first) != n - first)
            return;
        }
      sent += n;
    }
}

/* Send standard input as datagrams of SIZE bytes, then an empty one.  */

static void
send_datagrams (int to, size_t size)
{
  char *buf = malloc (size);
  size_t n;
  if (! buf)
    die ("sockio: malloc");
  while ((n = full_read (STDIN_FILENO, buf, size)) != 0)
    if (send (to, buf, n, 0) != (ssize_t) n)
      die ("sockio: send");
  if (send (to, buf, 0, 0) != 0)
    die ("sockio: send");
  free (buf);
}

/* Wait for PID to exit, and set *STATUS.  */

static void
wait_program (pid_t pid, int *status)
{
  while (waitpid (pid, status, 0) < 0)
    if (errno != EINTR)
      die ("sockio: waitpid");
}

/* Receive datagrams from FROM until PID has exited and none is left,
   or until the end of a seqpacket socket, writing each to standard
   output and its size to SIZES; set *STATUS to PID's.  */

static void
receive_datagrams (int from, pid_t pid, FILE *sizes, int *status)
{
  static char buf[1 << 20];
  bool exited = false;
  for (;;)
    {
      struct pollfd pfd = { .fd = from, .events = POLLIN };
      if (! exited && waitpid (pid, status, WNOHANG) == pid)
        exited = true;
      if (poll (&pfd, 1, exited ? 0 : 50) <= 0)
        {
          if (exited)
            return;
          continue;
        }
      ssize_t n = recv (from, buf, sizeof buf, MSG_DONTWAIT);
      if (n < 0)
        continue;
      /* A seqpacket socket's end; PROGRAM writes no empty datagram.  */
      if (n == 0)
        {
          if (! exited)
            wait_program (pid, status);
          return;
        }
      fprintf (sizes, "%zd\n", n);
      if (full_write (STDOUT_FILENO, buf, n) != (size_t) n)
        die ("sockio: write");
    }
}

/* Parse the options after KIND's first comma into OPT.  */

static void
parse_options (char *kind, struct options *opt)
{
  *opt = (struct options) { .oob = -1, .size = 16384 };
  char *o = strchr (kind, ',');
  if (o)
    *o++ = '\0';
  for (char *next; o && *o; o = next)
    {
      next = strchr (o, ',');
      if (next)
        *next++ = '\0';
      if (strncmp (o, "oob=", 4) == 0)
        opt->oob = atoll (o + 4);
      else if (strncmp (o, "rcvtimeo=", 9) == 0)
        opt->rcvtimeo = atoi (o + 9);
      else if (strncmp (o, "sndtimeo=", 9) == 0)
        opt->sndtimeo = atoi (o + 9);
      else if (strncmp (o, "size=", 5) == 0)
        opt->size = atol (o + 5);
      else if (strcmp (o, "stall") == 0)
        opt->stall = true;
      else
        {
          fprintf (stderr, "sockio: unknown option %s\n", o);
          exit (125);
        }
    }
}

static void
set_timeout (int fd, int name, int ms)
{
  struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = ms % 1000 * 1000 };
  if (ms && setsockopt (fd, SOL_SOCKET, name, &tv, sizeof tv) != 0)
    die ("sockio: setsockopt");
}

int
main (int argc, char **argv)
{
  if (argc < 4 || ! (strcmp (argv[1], "0") == 0 || strcmp (argv[1], "1") == 0))
    {
      fputs ("Usage: sockio 0|1 KIND[,OPTION]... PROGRAM [ARG]...\n",
             stderr);
      return 125;
    }
  int fd = atoi (argv[1]);
  char *kind = argv[2];
  struct options opt;
  int sv[2];

  parse_options (kind, &opt);
  int type = (strcmp (kind, "unix-dgram") == 0 ? SOCK_DGRAM
              : strcmp (kind, "unix-seqpacket") == 0 ? SOCK_SEQPACKET
              : SOCK_STREAM);
  bool dgram = type != SOCK_STREAM;
  if (strcmp (kind, "unix") == 0 || dgram)
    {
      if (socketpair (AF_UNIX, type, 0, sv) != 0)
        die ("sockio: socketpair");
    }
  else if (strcmp (kind, "tcp") == 0 || strcmp (kind, "tcp-reset") == 0)
    tcp_pair (sv);
  else if (strcmp (kind, "tcp-listen") == 0)
    tcp_listener (sv);
  else
    {
      fprintf (stderr, "sockio: unknown kind %s\n", kind);
      return 125;
    }
  set_timeout (sv[0], SO_RCVTIMEO, opt.rcvtimeo);
  set_timeout (sv[0], SO_SNDTIMEO, opt.sndtimeo);

  pid_t pid = fork ();
  if (pid < 0)
    die ("sockio: fork");
  if (pid == 0)
    {
      if (dup2 (sv[0], fd) < 0)
        die ("sockio: dup2");
      close (sv[0]);
      if (0 <= sv[1])
        close (sv[1]);
      execvp (argv[3], argv + 3);
      perror (argv[3]);
      _exit (127);
    }
  close (sv[0]);

  /* A PROGRAM that stops reading early must not kill the relay.  */
  signal (SIGPIPE, SIG_IGN);
  int status;
  bool waited = false;
  if (sv[1] < 0)
    ;
  else if (strcmp (kind, "tcp-reset") == 0)
    {
      struct linger lg = { .l_onoff = 1, .l_linger = 0 };
      setsockopt (sv[1], SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    }
  else if (fd == 0 && dgram)
    send_datagrams (sv[1], opt.size);
  else if (fd == 0)
    {
      relay (STDIN_FILENO, sv[1], &opt);
      shutdown (sv[1], SHUT_WR);
    }
  else if (dgram)
    {
      FILE *sizes = fopen ("datagrams", "w");
      if (! sizes)
        die ("sockio: datagrams");
      receive_datagrams (sv[1], pid, sizes, &status);
      waited = true;
      if (fclose (sizes) != 0)
        die ("sockio: datagrams");
    }
  else
    {
      close (STDIN_FILENO);
      if (opt.stall)
        {
          wait_program (pid, &status);
          waited = true;
        }
      relay (sv[1], STDOUT_FILENO, &opt);
    }
  if (0 <= sv[1])
    close (sv[1]);

  if (! waited)
    wait_program (pid, &status);
  if (WIFSIGNALED (status))
    {
      signal (WTERMSIG (status), SIG_DFL);
      raise (WTERMSIG (status));
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 125;
}
