/* packets -- run a program with a packet-mode pipe as standard input.
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

/* Usage: packets [-s SIZE] [-m MODE] [-p BYTES] PROGRAM [ARG]...

   Read all of standard input, then run PROGRAM with its standard input
   the read end of a pipe, and write the input into the pipe SIZE bytes
   (default 4) per write(2).  A write to a pipe end in packet mode
   (O_DIRECT, pipe(7)) is a packet: a read(2) returns at most one packet,
   and the part of a packet that does not fit the read's buffer is lost.
   MODE says which writes are packets:

     all    every one: the pipe is made with pipe2(O_DIRECT) (the default)
     late   those of the second half of the input: the writer sets
            O_DIRECT with fcntl(F_SETFL) half way
     mixed  every other one: there are two writers, two open file
            descriptions of the write end (the second opened through
            /proc/self/fd), of which only the second is in packet mode,
            writing in turn

   In every mode the read end does not show O_DIRECT: the flag belongs
   to the writer's file description.  -p makes the pipe hold BYTES
   (F_SETPIPE_SZ: no more than /proc/sys/fs/pipe-max-size without
   CAP_SYS_RESOURCE), so that it can hold more packets than a reader's
   1 MiB pipe.  Exit as PROGRAM did: its status, or 128 + the signal
   that killed it, as a shell reports it; 125 if this program fails.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

enum { FAILED = 125 };

static int
fail (char const *what)
{
  fprintf (stderr, "packets: %s: %s\n", what, strerror (errno));
  return FAILED;
}

/* All of standard input, in a buffer of *SIZE bytes.  */

static char *
slurp (size_t *size)
{
  size_t alloc = 64 * 1024, n = 0;
  char *buf = malloc (alloc);
  for (ssize_t got; buf; n += got)
    {
      if (n == alloc)
        buf = realloc (buf, alloc *= 2);
      if (! buf)
        break;
      got = read (STDIN_FILENO, buf + n, alloc - n);
      if (got < 0 && errno == EINTR)
        got = 0;
      else if (got <= 0)
        {
          *size = n;
          return got < 0 ? NULL : buf;
        }
    }
  errno = ENOMEM;
  return NULL;
}

static int
set_packet_mode (int fd)
{
  int flags = fcntl (fd, F_GETFL);
  return flags < 0 ? -1 : fcntl (fd, F_SETFL, flags | O_DIRECT);
}

int
main (int argc, char **argv)
{
  size_t packet = 4;
  char const *mode = "all";
  int pipe_bytes = 0;
  int opt;
  while ((opt = getopt (argc, argv, "+s:m:p:")) != -1)
    switch (opt)
      {
      case 's': packet = strtoul (optarg, NULL, 10); break;
      case 'm': mode = optarg; break;
      case 'p': pipe_bytes = atoi (optarg); break;
      default: packet = 0; break;
      }
  if (argc <= optind || packet == 0
      || (strcmp (mode, "all") && strcmp (mode, "late")
          && strcmp (mode, "mixed")))
    {
      fprintf (stderr, "Usage: packets [-s SIZE] [-m all|late|mixed]"
               " [-p BYTES] PROGRAM [ARG]...\n");
      return FAILED;
    }

  size_t size;
  char *data = slurp (&size);
  if (! data)
    return fail ("reading standard input");

  int p[2];
  if (pipe2 (p, O_CLOEXEC | (strcmp (mode, "all") == 0 ? O_DIRECT : 0)) != 0)
    return fail ("pipe2");
  if (pipe_bytes && fcntl (p[1], F_SETPIPE_SZ, pipe_bytes) < pipe_bytes)
    return fail ("F_SETPIPE_SZ");
  int writer[2] = { p[1], p[1] };
  if (strcmp (mode, "mixed") == 0)
    {
      char name[64];
      sprintf (name, "/proc/self/fd/%d", p[1]);
      writer[1] = open (name, O_WRONLY | O_CLOEXEC);
      if (writer[1] < 0 || set_packet_mode (writer[1]) != 0)
        return fail (name);
    }

  pid_t pid = fork ();
  if (pid < 0)
    return fail ("fork");
  if (pid == 0)
    {
      if (dup2 (p[0], STDIN_FILENO) < 0)
        _exit (fail ("dup2"));
      execvp (argv[optind], argv + optind);
      perror (argv[optind]);
      _exit (127);
    }
  close (p[0]);

  /* If PROGRAM quits early, the writes fail with EPIPE: stop there and
     report how PROGRAM ended.  */
  signal (SIGPIPE, SIG_IGN);
  size_t i = 0;
  for (size_t done = 0; done < size; i++)
    {
      if (strcmp (mode, "late") == 0 && done < size / 2
          && size / 2 <= done + packet && set_packet_mode (p[1]) != 0)
        return fail ("fcntl");
      size_t n = size - done < packet ? size - done : packet;
      ssize_t w = write (writer[i % 2], data + done, n);
      if (w < 0 && errno == EINTR)
        continue;
      if (w < 0)
        {
          if (errno != EPIPE)
            return fail ("write");
          break;
        }
      done += w;
    }
  close (writer[0]);
  if (writer[1] != writer[0])
    close (writer[1]);
  free (data);

  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      return fail ("waitpid");
  return WIFSIGNALED (status) ? 128 + WTERMSIG (status) : WEXITSTATUS (status);
}
