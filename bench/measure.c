/* measure.c -- time a pipeline and the resources of one of its stages.
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

/* Usage: measure [-n REPS] [-o FILE] COMMAND... -- COMMAND... [-- COMMAND...]

   Run the commands as a pipeline, as the shell would (pipes of the
   default size, standard error inherited), REPS times one after the
   other, and print one line:

     WALL USER SYS MAXRSS

   WALL is the mean wall-clock seconds of one pipeline, from the first
   fork to the last child reaped.  USER and SYS are the mean CPU seconds
   of the second command alone -- the tee in "producer | tee | consumer",
   the consumer in "producer | consumer" -- taken from wait4(2), and
   MAXRSS its largest peak resident set, in KiB.  With -o, the last
   command's standard output is FILE, created or truncated before each
   run; otherwise it is /dev/null.  A command that fails or dies of a
   signal fails the measurement.  */

#define _GNU_SOURCE 1

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MAX_STAGES = 3 };

static void
die (char const *what)
{
  fprintf (stderr, "measure: %s: %s\n", what, strerror (errno));
  exit (EXIT_FAILURE);
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
seconds (struct timeval tv)
{
  return tv.tv_sec + tv.tv_usec / 1e6;
}

/* Make FD the descriptor TARGET in a child about to exec.  */

static void
move_fd (int fd, int target)
{
  if (fd != target && dup2 (fd, target) < 0)
    _exit (127);
}

/* Run the NSTAGES commands in STAGE once, the last writing to OUTPUT
   (a file name or NULL), and add the rusage of stage 1 to *RU.  */

static void
run_once (char **stage[], int nstages, char const *output,
          struct rusage *ru)
{
  int pipes[MAX_STAGES - 1][2];
  pid_t pids[MAX_STAGES];

  for (int i = 0; i < nstages - 1; i++)
    if (pipe (pipes[i]) != 0)
      die ("pipe");
  int out = (output
             ? open (output, O_WRONLY | O_CREAT | O_TRUNC, 0644)
             : open ("/dev/null", O_WRONLY));
  if (out < 0)
    die (output ? output : "/dev/null");

  for (int i = 0; i < nstages; i++)
    {
      pids[i] = fork ();
      if (pids[i] < 0)
        die ("fork");
      if (pids[i] == 0)
        {
          if (0 < i)
            move_fd (pipes[i - 1][0], STDIN_FILENO);
          move_fd (i < nstages - 1 ? pipes[i][1] : out, STDOUT_FILENO);
          for (int j = 0; j < nstages - 1; j++)
            {
              close (pipes[j][0]);
              close (pipes[j][1]);
            }
          close (out);
          execvp (stage[i][0], stage[i]);
          fprintf (stderr, "measure: %s: %s\n", stage[i][0],
                   strerror (errno));
          _exit (127);
        }
    }

  for (int j = 0; j < nstages - 1; j++)
    {
      close (pipes[j][0]);
      close (pipes[j][1]);
    }
  close (out);

  for (int i = 0; i < nstages; i++)
    {
      int status;
      struct rusage r;
      while (wait4 (pids[i], &status, 0, &r) < 0)
        if (errno != EINTR)
          die ("wait4");
      if (! WIFEXITED (status) || WEXITSTATUS (status) != 0)
        {
          fprintf (stderr, "measure: %s: %s %d\n", stage[i][0],
                   WIFEXITED (status) ? "exit status" : "killed by signal",
                   WIFEXITED (status) ? WEXITSTATUS (status)
                   : WTERMSIG (status));
          exit (EXIT_FAILURE);
        }
      if (i == 1)
        {
          timeradd (&ru->ru_utime, &r.ru_utime, &ru->ru_utime);
          timeradd (&ru->ru_stime, &r.ru_stime, &ru->ru_stime);
          if (ru->ru_maxrss < r.ru_maxrss)
            ru->ru_maxrss = r.ru_maxrss;
        }
    }
}

int
main (int argc, char **argv)
{
  long reps = 1;
  char const *output = NULL;
  int c;

  while ((c = getopt (argc, argv, "+n:o:")) != -1)
    switch (c)
      {
      case 'n':
        reps = strtol (optarg, NULL, 10);
        break;
      case 'o':
        output = optarg;
        break;
      default:
        return EXIT_FAILURE;
      }

  /* Split the rest at each "--" into the commands.  */
  char **stage[MAX_STAGES];
  int nstages = 0;
  for (int i = optind; i < argc; )
    {
      if (nstages == MAX_STAGES)
        {
          fputs ("measure: too many commands\n", stderr);
          return EXIT_FAILURE;
        }
      stage[nstages++] = &argv[i];
      while (i < argc && strcmp (argv[i], "--") != 0)
        i++;
      if (i < argc)
        argv[i++] = NULL;
    }
  if (nstages < 2 || reps < 1)
    {
      fputs ("Usage: measure [-n REPS] [-o FILE] COMMAND... -- COMMAND..."
             " [-- COMMAND...]\n", stderr);
      return EXIT_FAILURE;
    }

  /* A SIGPIPE default the shell may have changed would alter how the
     commands end.  */
  signal (SIGPIPE, SIG_DFL);

  struct rusage ru = { 0 };
  double start = now ();
  for (long r = 0; r < reps; r++)
    run_once (stage, nstages, output, &ru);
  double wall = now () - start;

  printf ("%.6f %.6f %.6f %ld\n", wall / reps, seconds (ru.ru_utime) / reps,
          seconds (ru.ru_stime) / reps, ru.ru_maxrss);
  return EXIT_SUCCESS;
}
