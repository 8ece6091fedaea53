/* copy.h -- the ways ktee moves bytes from standard input to its outputs.
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

#ifndef KTEE_COPY_H
#define KTEE_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outputs.h"

/* GNU tee's read size.  Where an exit can cut a round short, ktee takes
   no more than this per round, so every output holds what it would hold
   with GNU tee.  */
enum { GNU_TEE_BLOCK = 8192 };

/* --copy-method.  */
enum copy_method
  {
    copy_method_auto,   /* Read and write a small input, splice the rest.  */
    copy_method_splice, /* Splice wherever the kernel allows.  */
    copy_method_rw      /* Read and write, always.  */
  };

struct copy_plan
{
  size_t block;         /* Most bytes to take from the input per round.  */
  bool blocks_show;     /* GNU tee's blocks show in what the outputs hold:
                           where an early stop leaves them, or how the
                           copies of outputs that are one file interleave.  */
  bool sigpipe_kills;   /* A write to a broken pipe kills ktee.  */
  bool watch_outputs;   /* Drop broken pipe outputs while input is idle.  */
};

/* Copy standard input to every output of OUTS by METHOD, with the engine
   that engine.c's table gives for its kind.  */
void copy_input (struct outputs *outs, enum copy_method method);

/* Each engine copies standard input to every live output of OUTS until
   end of input or until no output is left, reporting failures through
   outputs.c.

   The read/write engine adds the bytes it reads to *TAKEN and, unless
   LIMIT is RW_NO_LIMIT, stops early after the read that brings *TAKEN
   to LIMIT or more.  It returns true if the copy is over.  Counts are
   uintmax_t, and "no limit" is not a count: a 32-bit size_t reaches
   SIZE_MAX after 4 GiB.  */
enum { RW_NO_LIMIT = 0 };
bool copy_rw (struct outputs *outs, struct copy_plan const *plan,
              uintmax_t *taken, uintmax_t limit);

/* The zero-copy engines return false if copy_rw must copy the rest of
   standard input: all of it if they could not take it at all.  */
bool copy_splice_pipe (struct outputs *outs, struct copy_plan const *plan);
bool copy_splice_socket (struct outputs *outs, struct copy_plan const *plan);
bool copy_file (struct outputs *outs, struct copy_plan const *plan);

/* The most bytes the zero-copy engines take in their next round.  */
size_t round_limit (struct outputs const *outs);

/* How the file engine gives an output the bytes of a regular file.  */
enum output_way
  {
    OUTPUT_COPY_RANGE,  /* copy_file_range(2): reflink, server-side copy.  */
    OUTPUT_SPLICE,      /* splice(2) from the page cache into a pipe.  */
    OUTPUT_SENDFILE,    /* sendfile(2): sockets, devices, other files.  */
    OUTPUT_WRITE        /* pread(2) and write(2), as GNU tee.  */
  };

enum output_way output_way (struct output const *o);

#endif
