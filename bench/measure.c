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

/* Usage: measure [-n REPS] [-i FILE | -t] [-o FILE] COMMAND... [-- COMMAND...]...
          measure -p [-n PAIRS] [-t] PRODUCER... -- A... -- B... -- CONSUMER...
          measure -p [-n PAIRS] -i FILE A... -- B... -- CONSUMER...

   Run the commands as a pipeline, as the shell would (pipes of the
   default size, standard error inherited), REPS times one after the
   other, and print one line:

     WALL USER SYS MAXRSS ALL_USER ALL_SYS

   WALL is the mean wall-clock seconds of one pipeline, from the first
   fork to the last child reaped.  USER and SYS are the mean CPU seconds
   of the second command alone -- the tee in "producer | tee | consumer",
   the consumer in "producer | consumer" -- taken from wait4(2), and
   MAXRSS its largest peak resident set, in KiB.  ALL_USER and ALL_SYS
   are the mean CPU seconds of all the commands of the pipeline: what
   the whole job cost, wherever a tee moves work (a consumer woken less
   often, a producer that blocks less).  With -o, the last
   command's standard output is FILE, created or truncated before each
   run; otherwise it is /dev/null.  A command that fails or dies of a
   signal fails the measurement.

   With -i, the first command's standard input is FILE, opened afresh
   for each run, and the pipeline has no producer: the command measured
   is the first one ("tee < FILE | consumer", "consumer < FILE").  With
   -t, the first command writes to a TCP connection on 127.0.0.1 instead
   of a pipe, and the second reads the socket accept(2) returned: a
   loopback connection, made by measure before each run, never listening
   longer than it takes to connect to itself.

   With -p, run PAIRS pairs of pipelines "PRODUCER | A | CONSUMER" and
   "PRODUCER | B | CONSUMER" (with -i, "A < FILE | CONSUMER" and
   "B < FILE | CONSUMER"), A first in even pairs and B first in odd
   ones, so that drifts of the machine and any advantage of running
   second hit both alike.  Each pair gives the ratios B/A of the wall
   times and of the CPU times of the middle command; the line printed is

     PAIRS WALL_A WALL_B WALL_RATIO WALL_LO WALL_HI
           CPU_A CPU_B CPU_RATIO CPU_LO CPU_HI MAXRSS_A MAXRSS_B

   (on one line), where WALL_A, WALL_B, CPU_A and CPU_B are medians in
   seconds, each RATIO the median of the per-pair ratios and LO..HI its
   95% confidence interval: order statistics of the ratios, which hold
   whatever their distribution.  */

#define _GNU_SOURCE 1

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MAX_STAGES = 4 };

/* The -i FILE and -t options.  */
static char const *input;
static bool tcp_link;

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

/* Set FD[0] and FD[1] to the read and write ends of a new link between
   two commands: a pipe, or with TCP a loopback connection, FD[0] being
   the socket accept(2) returned and FD[1] the one that connected.  */

static void
make_link (int fd[2], bool tcp)
{
  if (!tcp)
    {
      if (pipe (fd) != 0)
        die ("pipe");
      return;
    }

  /* One listener, close-on-exec, for all runs: a listener per run
     would take a new ephemeral port each time, and thousands of pairs
     of runs, their closed connections in TIME_WAIT, could use them all
     up.  */
  static int listener = -1;
  static struct sockaddr_in addr;
  if (listener < 0)
    {
      socklen_t len = sizeof addr;
      addr.sin_family = AF_INET;
      addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
      listener = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (listener < 0)
        die ("socket");
      if (bind (listener, (struct sockaddr *) &addr, sizeof addr) != 0
          || listen (listener, 1) != 0
          || getsockname (listener, (struct sockaddr *) &addr, &len) != 0)
        die ("listen on 127.0.0.1");
    }

  /* A loopback connect completes into the listen queue at once.  */
  fd[1] = socket (AF_INET, SOCK_STREAM, 0);
  if (fd[1] < 0)
    die ("socket");
  if (connect (fd[1], (struct sockaddr *) &addr, sizeof addr) != 0)
    die ("connect to 127.0.0.1");
  /* Accept our own connection, not one another local process made.  */
  struct sockaddr_in ours, peer;
  socklen_t len = sizeof ours;
  if (getsockname (fd[1], (struct sockaddr *) &ours, &len) != 0)
    die ("getsockname");
  for (;;)
    {
      len = sizeof peer;
      fd[0] = accept (listener, (struct sockaddr *) &peer, &len);
      if (fd[0] < 0)
        die ("accept");
      if (peer.sin_port == ours.sin_port)
        break;
      close (fd[0]);
    }
}

/* Run the NSTAGES commands in STAGE once, the last writing to OUTPUT
   (a file name or NULL), add the rusage of the command measured (the
   first with -i, the second otherwise) to *RU and the CPU times of all
   commands to *ALL, and return the
   wall-clock seconds the pipeline took.  */

static double
run_once (char **stage[], int nstages, char const *output,
          struct rusage *ru, struct rusage *all)
{
  int pipes[MAX_STAGES - 1][2];
  pid_t pids[MAX_STAGES];
  int measured = input ? 0 : 1;
  double start = now ();

  for (int i = 0; i < nstages - 1; i++)
    make_link (pipes[i], tcp_link && i == 0);
  int in = input ? open (input, O_RDONLY) : STDIN_FILENO;
  if (in < 0)
    die (input);
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
          move_fd (0 < i ? pipes[i - 1][0] : in, STDIN_FILENO);
          move_fd (i < nstages - 1 ? pipes[i][1] : out, STDOUT_FILENO);
          for (int j = 0; j < nstages - 1; j++)
            {
              close (pipes[j][0]);
              close (pipes[j][1]);
            }
          close (out);
          if (in != STDIN_FILENO)
            close (in);
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
  if (in != STDIN_FILENO)
    close (in);

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
      timeradd (&all->ru_utime, &r.ru_utime, &all->ru_utime);
      timeradd (&all->ru_stime, &r.ru_stime, &all->ru_stime);
      if (i == measured)
        {
          timeradd (&ru->ru_utime, &r.ru_utime, &ru->ru_utime);
          timeradd (&ru->ru_stime, &r.ru_stime, &ru->ru_stime);
          if (ru->ru_maxrss < r.ru_maxrss)
            ru->ru_maxrss = r.ru_maxrss;
        }
    }
  return now () - start;
}

static double
cpu_seconds (struct rusage const *ru)
{
  return seconds (ru->ru_utime) + seconds (ru->ru_stime);
}

static int
compare_doubles (void const *a, void const *b)
{
  double x = *(double const *) a, y = *(double const *) b;
  return (x > y) - (x < y);
}

/* Sort the N values in V and return their median; with LO and HI, also
   the bounds of its 95% confidence interval: the values of ranks
   N/2 -+ 1.96 sqrt(N)/2, the normal approximation of the binomial
   distribution of how many values fall below the true median.  */

static double
median (double *v, long n, double *lo, double *hi)
{
  qsort (v, n, sizeof *v, compare_doubles);
  if (lo)
    {
      long half = (long) ceil (1.96 * sqrt (n) / 2);
      long l = n / 2 - half, h = (n - 1) / 2 + half;
      *lo = v[l < 0 ? 0 : l];
      *hi = v[h >= n ? n - 1 : h];
    }
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void *
xcalloc (long n, size_t size)
{
  void *p = calloc (n, size);
  if (!p)
    die ("calloc");
  return p;
}

/* Run PAIRS pairs of "P | A | C" and "P | B | C" as the -p option says,
   STAGE being P, A, B, C (with -i, "A < FILE | C" and "B < FILE | C",
   STAGE being A, B, C), and print their line.  */

static void
run_pairs (char **stage[], long pairs)
{
  /* With -i there is no producer: STAGE is A, B, C.  */
  int nstages = input ? 2 : 3;
  char **pipeline[2][3];
  for (int t = 0; t < 2; t++)
    if (input)
      {
        pipeline[t][0] = stage[t];
        pipeline[t][1] = stage[2];
      }
    else
      {
        pipeline[t][0] = stage[0];
        pipeline[t][1] = stage[1 + t];
        pipeline[t][2] = stage[3];
      }
  double *wall[2], *cpu[2], *wall_ratio, *cpu_ratio;
  long maxrss[2] = { 0, 0 };
  for (int t = 0; t < 2; t++)
    {
      wall[t] = xcalloc (pairs, sizeof (double));
      cpu[t] = xcalloc (pairs, sizeof (double));
    }
  wall_ratio = xcalloc (pairs, sizeof (double));
  cpu_ratio = xcalloc (pairs, sizeof (double));

  for (long i = 0; i < pairs; i++)
    {
      for (int j = 0; j < 2; j++)
        {
          int t = (i + j) % 2;
          struct rusage ru = { 0 }, all = { 0 };
          wall[t][i] = run_once (pipeline[t], nstages, NULL, &ru, &all);
          cpu[t][i] = cpu_seconds (&ru);
          if (maxrss[t] < ru.ru_maxrss)
            maxrss[t] = ru.ru_maxrss;
        }
      wall_ratio[i] = wall[1][i] / wall[0][i];
      cpu_ratio[i] = cpu[0][i] > 0 ? cpu[1][i] / cpu[0][i] : 1;
    }

  double wlo, whi, clo, chi;
  double wr = median (wall_ratio, pairs, &wlo, &whi);
  double cr = median (cpu_ratio, pairs, &clo, &chi);
  printf ("%ld %.6f %.6f %.4f %.4f %.4f %.6f %.6f %.4f %.4f %.4f %ld %ld\n",
          pairs, median (wall[0], pairs, NULL, NULL),
          median (wall[1], pairs, NULL, NULL), wr, wlo, whi,
          median (cpu[0], pairs, NULL, NULL),
          median (cpu[1], pairs, NULL, NULL), cr, clo, chi,
          maxrss[0], maxrss[1]);
}

int
main (int argc, char **argv)
{
  long reps = 1;
  char const *output = NULL;
  bool paired = false;
  int c;

  while ((c = getopt (argc, argv, "+i:n:o:pt")) != -1)
    switch (c)
      {
      case 'i':
        input = optarg;
        break;
      case 't':
        tcp_link = true;
        break;
      case 'p':
        paired = true;
        break;
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
  int first = input ? 1 : 2;   /* the fewest commands a pipeline has */
  if (reps < 1 || (input && tcp_link)
      || (paired
          ? nstages != first + 2 || output
          : nstages < first || nstages > first + 1))
    {
      fputs ("Usage: measure [-n REPS] [-i FILE | -t] [-o FILE] COMMAND..."
             " [-- COMMAND...]...\n"
             "       measure -p [-n PAIRS] [-t] PRODUCER... -- A... -- B..."
             " -- CONSUMER...\n"
             "       measure -p [-n PAIRS] -i FILE A... -- B..."
             " -- CONSUMER...\n", stderr);
      return EXIT_FAILURE;
    }

  /* A SIGPIPE default the shell may have changed would alter how the
     commands end.  */
  signal (SIGPIPE, SIG_DFL);

  if (paired)
    {
      run_pairs (stage, reps);
      return EXIT_SUCCESS;
    }

  struct rusage ru = { 0 }, all = { 0 };
  double wall = 0;
  for (long r = 0; r < reps; r++)
    wall += run_once (stage, nstages, output, &ru, &all);

  printf ("%.6f %.6f %.6f %ld %.6f %.6f\n", wall / reps,
          seconds (ru.ru_utime) / reps, seconds (ru.ru_stime) / reps,
          ru.ru_maxrss, seconds (all.ru_utime) / reps,
          seconds (all.ru_stime) / reps);
  return EXIT_SUCCESS;
}
