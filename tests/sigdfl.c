/* sigdfl -- run a program with known signal dispositions.
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

/* Usage: sigdfl [-i SIGNAL]... PROGRAM [ARG]...

   Set every signal to its default action and unblock it, ignore each
   SIGNAL named with -i (PIPE, INT, HUP, TERM, QUIT, XFSZ or a number),
   then run PROGRAM.  A shell cannot do this itself: signals that were ignored
   when it started stay ignored, and its background jobs start with
   SIGINT ignored, so the tees would not die of SIGPIPE or SIGINT as
   they do in a user's terminal.  */

#include <config.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int
signal_number (char const *name)
{
  static struct { char const *name; int sig; } const table[] =
    {
      { "PIPE", SIGPIPE }, { "INT", SIGINT }, { "HUP", SIGHUP },
      { "TERM", SIGTERM }, { "QUIT", SIGQUIT }, { "XFSZ", SIGXFSZ }
    };

  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp (name, table[i].name) == 0)
      return table[i].sig;

  char *end;
  long n = strtol (name, &end, 10);
  return *name && !*end && 0 < n && n < NSIG ? (int) n : -1;
}

int
main (int argc, char **argv)
{
  sigset_t none;

  for (int sig = 1; sig < NSIG; sig++)
    if (sig != SIGKILL && sig != SIGSTOP)
      signal (sig, SIG_DFL);
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);

  int i = 1;
  for (; i + 1 < argc && strcmp (argv[i], "-i") == 0; i += 2)
    {
      int sig = signal_number (argv[i + 1]);
      if (sig < 0)
        {
          fprintf (stderr, "sigdfl: unknown signal %s\n", argv[i + 1]);
          return 125;
        }
      signal (sig, SIG_IGN);
    }
  if (argc <= i)
    {
      fprintf (stderr, "Usage: sigdfl [-i SIGNAL]... PROGRAM [ARG]...\n");
      return 125;
    }

  execvp (argv[i], argv + i);
  perror (argv[i]);
  return 127;
}
