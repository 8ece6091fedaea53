/* ktee -- GNU tee that lets the kernel move the bytes.
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

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argmatch.h"
#include "closeout.h"
#include "copy.h"
#include "error.h"
#include "gettext.h"
#include "outputs.h"
#include "progname.h"

#define PROGRAM_NAME "ktee"
#define AUTHORS "the ktee developers"
#define COPYRIGHT_YEAR 2026

/* GNU tee's messages are coreutils' and are translated by the coreutils
   catalog the system has.  It is the text domain, so that gnulib's own
   messages (argmatch, quotearg's quotes, close_stdout) are looked up there
   too, as in coreutils.  Their msgids must stay byte for byte those of
   coreutils 9.1.  ktee's own messages are in its domain, PACKAGE.  */
#define GNU_DOMAIN "coreutils"
#define _(msgid) gettext (msgid)
#if ENABLE_NLS
# define K_(msgid) dgettext (PACKAGE, msgid)
#else
/* Not gettext.h's dgettext, whose comma operator hides the format string
   from the compiler's checks.  */
# define K_(msgid) (msgid)
#endif

static char const *const copy_method_args[] =
{
  "auto", "splice", "rw", NULL
};
static enum copy_method const copy_method_types[] =
{
  copy_method_auto, copy_method_splice, copy_method_rw
};
ARGMATCH_VERIFY (copy_method_args, copy_method_types);

static char const *const output_error_args[] =
{
  "warn", "warn-nopipe", "exit", "exit-nopipe", NULL
};
static enum output_error const output_error_types[] =
{
  output_error_warn, output_error_warn_nopipe,
  output_error_exit, output_error_exit_nopipe
};
ARGMATCH_VERIFY (output_error_args, output_error_types);

enum
  {
    COPY_METHOD_OPTION = CHAR_MAX + 1,
    HELP_OPTION,
    VERSION_OPTION
  };

static struct option const long_options[] =
{
  {"append", no_argument, NULL, 'a'},
  {"ignore-interrupts", no_argument, NULL, 'i'},
  {"output-error", optional_argument, NULL, 'p'},
  {"copy-method", required_argument, NULL, COPY_METHOD_OPTION},
  {"help", no_argument, NULL, HELP_OPTION},
  {"version", no_argument, NULL, VERSION_OPTION},
  {NULL, 0, NULL, 0}
};

_Noreturn void usage (int status);
_Noreturn static void version (void);
static void emit_ancillary_info (void);

void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    {
      fprintf (stderr, _("Try '%s --help' for more information.\n"),
               program_name);
      exit (status);
    }

  /* GNU tee's paragraphs, each one msgid as in coreutils, with ktee's own
     lines between them.  */
  printf (_("Usage: %s [OPTION]... [FILE]...\n"), program_name);
  fputs (_("\
Copy standard input to each FILE, and also to standard output.\n\
\n\
  -a, --append              append to the given FILEs, do not overwrite\n\
  -i, --ignore-interrupts   ignore interrupt signals\n\
"), stdout);
  fputs (_("\
  -p                        diagnose errors writing to non pipes\n\
      --output-error[=MODE]   set behavior on write error.  See MODE below\n\
"), stdout);
  fputs (K_("\
      --copy-method=METHOD  move the bytes with METHOD: 'splice' (tee(2)\n\
                              and splice(2) wherever the kernel allows),\n\
                              'rw' (read(2) and write(2)), or 'auto' (the\n\
                              default: rw for the first 256 to 320 KiB of\n\
                              a pipe or socket, then splice)\n\
"), stdout);
  fputs (_("      --help        display this help and exit\n"), stdout);
  fputs (_("      --version     output version information and exit\n"),
         stdout);
  fputs (_("\
\n\
MODE determines behavior with write errors on the outputs:\n\
  warn           diagnose errors writing to any output\n\
  warn-nopipe    diagnose errors writing to any output not a pipe\n\
  exit           exit on error writing to any output\n\
  exit-nopipe    exit on error writing to any output not a pipe\n\
The default MODE for the -p option is 'warn-nopipe'.\n\
The default operation when --output-error is not specified, is to\n\
exit immediately on error writing to a pipe, and diagnose errors\n\
writing to non pipe outputs.\n\
"), stdout);
  /* GNU tee 9.3 says so in the paragraph above, which 9.1's catalogs do
     not know.  */
  fputs (K_("\
With \"nopipe\" MODEs, exit immediately if all outputs become broken pipes.\n\
"), stdout);
  emit_ancillary_info ();
  exit (status);
}

/* The closing lines of --help, in the form of coreutils' own: where to
   report bugs and where the documentation is.  The translations of GNU's
   messages are the Translation Project's, whose address GNU gives as it
   does, not in English locales (but in C, so that the man page has it).  */

static void
emit_ancillary_info (void)
{
  printf (K_("\nReport bugs to: <%s>\n"), PACKAGE_BUGREPORT);
  char const *lc_messages = setlocale (LC_MESSAGES, NULL);
  if (lc_messages && strncmp (lc_messages, "en_", 3) != 0)
    fputs (_("Report any translation bugs to "
             "<https://translationproject.org/team/>\n"), stdout);
  printf (K_("Full documentation: man %s\n"), PROGRAM_NAME);
}

/* gnulib's version_etc names the FSF as copyright holder, which ktee's
   authors are not, so the same layout is printed here, with its
   messages.  */

static void
version (void)
{
  printf ("%s (%s) %s\n", PROGRAM_NAME, PACKAGE_NAME, PACKAGE_VERSION);
  /* "(C)" is the copyright sign where the locale has it.  */
  printf ("Copyright %s %d %s.\n", _("(C)"), COPYRIGHT_YEAR, AUTHORS);
  printf (_("\
License GPLv3+: GNU GPL version 3 or later <%s>.\n\
This is free software: you are free to change and redistribute it.\n\
There is NO WARRANTY, to the extent permitted by law.\n\
"), "https://gnu.org/licenses/gpl.html");
  putchar ('\n');
  printf (_("Written by %s.\n"), AUTHORS);
  exit (EXIT_SUCCESS);
}

int
main (int argc, char **argv)
{
  bool append = false;
  bool ignore_interrupts = false;
  enum output_error mode = output_error_sigpipe;
  enum copy_method method = copy_method_auto;
  int optc;

  set_program_name (argv[0]);
  setlocale (LC_ALL, "");
  bindtextdomain (GNU_DOMAIN, COREUTILS_LOCALEDIR);
  bindtextdomain (PACKAGE, LOCALEDIR);
  textdomain (GNU_DOMAIN);
  atexit (close_stdout);

  while ((optc = getopt_long (argc, argv, "aip", long_options, NULL)) != -1)
    {
      switch (optc)
        {
        case 'a':
          append = true;
          break;

        case 'i':
          ignore_interrupts = true;
          break;

        case 'p':
          mode = (optarg
                  ? XARGMATCH ("--output-error", optarg,
                               output_error_args, output_error_types)
                  : output_error_warn_nopipe);
          break;

        case COPY_METHOD_OPTION:
          method = XARGMATCH ("--copy-method", optarg,
                              copy_method_args, copy_method_types);
          break;

        case HELP_OPTION:
          usage (EXIT_SUCCESS);

        case VERSION_OPTION:
          version ();

        default:
          usage (EXIT_FAILURE);
        }
    }

  if (ignore_interrupts)
    signal (SIGINT, SIG_IGN);

  if (mode != output_error_sigpipe)
    signal (SIGPIPE, SIG_IGN);

  /* POSIX requires tee to work without FILE operands: no warning.  */
  struct outputs outs;
  outputs_open (&outs, argv + optind, argc - optind, append, mode);

  copy_input (&outs, method);

  outputs_close (&outs);
  if (close (STDIN_FILENO) != 0)
    error (EXIT_FAILURE, errno, "%s", _("standard input"));

  return outs.ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
