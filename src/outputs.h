/* outputs.h -- the table of ktee's outputs and its one failure policy.
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

#ifndef KTEE_OUTPUTS_H
#define KTEE_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What to do when writing to an output fails; GNU tee's --output-error.  */
enum output_error
  {
    output_error_sigpipe,      /* SIGPIPE as inherited; diagnose others.  */
    output_error_warn,         /* Diagnose every error, EPIPE included.  */
    output_error_warn_nopipe,  /* Diagnose errors other than EPIPE.  */
    output_error_exit,         /* Exit on any error.  */
    output_error_exit_nopipe   /* Exit on any error other than EPIPE.  */
  };

static inline bool
exits_on_error (enum output_error mode)
{
  return mode == output_error_exit || mode == output_error_exit_nopipe;
}

/* The nopipe modes, which let broken pipes go without a word.  */
static inline bool
spares_pipes (enum output_error mode)
{
  return mode == output_error_warn_nopipe || mode == output_error_exit_nopipe;
}

/* How an output takes its bytes from a zero-copy engine; copy.c
   chooses, output_fall_back changes it.  */
enum output_way
  {
    OUTPUT_COPY_RANGE,  /* copy_file_range(2) from a file: reflink,
                           server-side copy.  */
    OUTPUT_SPLICE,      /* splice(2) from a pipe, ktee's own or the page
                           cache of a file.  */
    OUTPUT_SENDFILE,    /* sendfile(2) from a file: sockets, devices,
                           files on other file systems.  */
    OUTPUT_WRITE        /* write(2), as GNU tee.  */
  };

/* How moving bytes to one output ended, in every engine; the count of
   bytes moved goes by pointer, errno says why if not done.  */
enum move_result
  {
    MOVE_DONE,          /* All moved; or, from a file, fewer at its end.  */
    MOVE_REFUSED,       /* The kernel declined this way (kernel_declined):
                           the rest goes another way.  */
    MOVE_FAILED         /* The output, or the wait for it, failed.  */
  };

struct output
{
  int fd;               /* -1 once the output is dropped.  */
  enum output_way way;  /* How it takes its bytes now.  */
  char const *name;     /* For diagnostics, unquoted.  */
  bool is_pipe;         /* A FIFO, whose reader may go away; known once
                           copy.c has looked at the outputs.  */
  bool reflinks;        /* Its file system may make copy_file_range share
                           the input's blocks rather than copy them.  */
  bool copies_by_pipe;  /* Its file system copies the input with no more
                           than 64 KiB per pass in copy_file_range.  */
  size_t pipe_bytes;    /* What its pipe held when last asked, 0 if not
                           known; see round_limit.  */
  unsigned int pipe_age; /* Rounds since PIPE_BYTES was asked.  */
  bool is_file;         /* A regular file, which takes room on its file
                           system; known with IS_PIPE.  */
  bool takes_records;   /* A datagram or seqpacket socket; known with
                           IS_PIPE.  */
  uintmax_t fs_free;    /* Free bytes on its file system when last
                           asked; see round_limit.  */
  unsigned int fs_age;  /* Rounds since FS_FREE was asked.  */
};

struct outputs
{
  struct output *v;     /* Standard output first, then the FILEs.  */
  size_t n;             /* Entries in V, dropped ones included.  */
  size_t live;          /* Entries not dropped.  */
  enum output_error mode;
  bool ok;              /* False once any failure is to set exit status 1.  */
};

void outputs_open (struct outputs *outs, char *const *files, size_t nfiles,
                   bool append, enum output_error mode);
void output_fail (struct outputs *outs, struct output *o, int errnum);
void output_fall_back (struct output *o);
void input_fail (struct outputs *outs, int errnum);
void outputs_close (struct outputs *outs);

#endif
