/* outputs.c -- open, drop and close ktee's outputs.
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

#include "outputs.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "fcntl--.h"
#include "gettext.h"
#include "quotef.h"
#include "xalloc.h"

/* GNU tee's messages, in the coreutils domain (see ktee.c).  */
#define _(msgid) gettext (msgid)

static void
output_init (struct output *o, int fd, char const *name)
{
  o->fd = fd;
  o->name = name;
  o->way = OUTPUT_WRITE;
  o->is_pipe = false;
  o->reflinks = false;
  o->copies_by_pipe = false;
  o->pipe_bytes = 0;
  o->pipe_age = 0;
  o->is_file = false;
  o->takes_records = false;
  o->fs_free = 0;
  o->fs_age = 0;
}

/* Open FILES as GNU tee does: in order, created with mode 0666 less the
   umask, "-" being an ordinary name.  A failure is diagnosed and the rest
   go on, unless MODE says to exit.  New descriptors are never 0, 1 or 2,
   so a closed standard stream cannot capture a FILE.  */

void
outputs_open (struct outputs *outs, char *const *files, size_t nfiles,
              bool append, enum output_error mode)
{
  int flags = O_WRONLY | O_CREAT | O_BINARY | (append ? O_APPEND : O_TRUNC);

  outs->v = xnmalloc (nfiles + 1, sizeof *outs->v);
  outs->n = nfiles + 1;
  outs->live = 1;
  outs->mode = mode;
  outs->ok = true;
  output_init (&outs->v[0], STDOUT_FILENO, _("standard output"));

  for (size_t i = 0; i < nfiles; i++)
    {
      int fd = open (files[i], flags,
                     S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH);
      if (fd < 0)
        {
          error (exits_on_error (mode) ? EXIT_FAILURE : 0, errno, "%s",
                 quotef (files[i]));
          outs->ok = false;
        }
      else
        outs->live++;
      output_init (&outs->v[i + 1], fd, files[i]);
    }
}

/* Drop output O after an error ERRNUM writing to it, diagnosing it and
   setting the exit status or exiting as the --output-error mode says.
   This is the only place that knows that policy.  */

void
output_fail (struct outputs *outs, struct output *o, int errnum)
{
  bool fail = (errnum != EPIPE
               || outs->mode == output_error_exit
               || outs->mode == output_error_warn);
  if (fail)
    {
      error (exits_on_error (outs->mode) ? EXIT_FAILURE : 0, errnum, "%s",
             quotef (o->name));
      outs->ok = false;
    }

  /* Standard output stays open for close_stdout, as in GNU tee.  */
  if (o->fd != STDOUT_FILENO)
    close (o->fd);
  o->fd = -1;
  outs->live--;
}

/* Output O refused its way: take the next one.  sendfile copies between
   any two files, through the page cache, where copy_file_range will not
   (across file systems on most kernels, or before Linux 4.5); write(2)
   takes anything, and says what is wrong with an output that takes
   nothing.  This is the only place where an output's way changes once
   the copy has started.  */

void
output_fall_back (struct output *o)
{
  o->way = o->way == OUTPUT_COPY_RANGE ? OUTPUT_SENDFILE : OUTPUT_WRITE;
}

/* Diagnose an error ERRNUM reading standard input; copying then stops.  */

void
input_fail (struct outputs *outs, int errnum)
{
  error (0, errnum, _("read error"));
  outs->ok = false;
}

/* Close the FILEs that are still open, but not standard output.  */

void
outputs_close (struct outputs *outs)
{
  for (size_t i = 1; i < outs->n; i++)
    {
      struct output *o = &outs->v[i];
      if (0 <= o->fd && close (o->fd) != 0)
        {
          error (0, errno, "%s", quotef (o->name));
          outs->ok = false;
        }
    }
  free (outs->v);
  outs->v = NULL;
}
