/* engine.h -- the contract of ktee's engines, which copy standard input.
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

#ifndef KTEE_ENGINE_H
#define KTEE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outputs.h"
#include "pipes.h"

/* GNU tee's read size.  Where an exit can cut a round short, ktee takes
   no more than this per round, so every output holds what it would hold
   with GNU tee.  */
enum { GNU_TEE_BLOCK = 8192 };

struct copy_plan
{
  size_t block;         /* Most bytes to take from the input per round.  */
  bool blocks_show;     /* GNU tee's blocks show in what the outputs hold:
                           where an early stop leaves them, or how the
                           copies of outputs that are one file interleave.  */
  bool records;         /* The input's reads or an output's writes are
                           records (datagrams): read and write only, in
                           GNU tee's blocks.  */
  bool sigpipe_kills;   /* A write to a broken pipe kills ktee.  */
  bool watch_outputs;   /* Drop broken pipe outputs while input is idle.  */
  int input_timeout;    /* How long, in ms, a read of standard input
                           waits (SO_RCVTIMEO); -1: for ever.  */
};

/* How an engine's copy ended: the one contract of every engine.  */
enum copy_result
  {
    COPY_DONE,          /* At end of input, or no output is left.  */
    COPY_PARTIAL,       /* Stopped early: another engine is to copy the
                           rest, from the byte the count says.  */
    COPY_FAILED         /* Reading the input failed, diagnosed.  */
  };

/* An engine copies standard input to every live output of OUTS, each
   output the way its WAY says, falling back as output_fall_back says,
   until end of input or until no output is left, and adds the bytes it
   takes from the input to *TAKEN.  Failures of outputs are reported
   through outputs.c; they end the copy only when no output is left.  An
   engine that cannot copy at all returns COPY_PARTIAL before it takes
   a byte.  Counts are uintmax_t: a 32-bit size_t reaches SIZE_MAX after
   4 GiB.  */
typedef enum copy_result copy_engine (struct outputs *outs,
                                      struct copy_plan const *plan,
                                      uintmax_t *taken);

/* The zero-copy engines: a pipe (copy-splice.c), a stream socket (the
   same, without packet buffers to clear), a regular file (copy-file.c);
   copy.c chooses among them.  */
copy_engine copy_splice_pipe, copy_splice_socket, copy_file;

/* The read/write engine, which can copy anything.  Unless LIMIT is
   RW_NO_LIMIT, it stops, COPY_PARTIAL, after the read that brings
   *TAKEN to LIMIT or more.  */
enum { RW_NO_LIMIT = 0 };
enum copy_result copy_rw (struct outputs *outs, struct copy_plan const *plan,
                          uintmax_t *taken, uintmax_t limit);

/* The read/write engine's buffer.  Large enough that system calls cost
   little per byte: a pipe of the default size holds no more.  Small
   enough to stay in cache and to come from the heap: malloc takes 128 KiB
   and more from mmap, which costs a small input more than its copy
   does.  */
enum { RW_BUFSIZE = KERNEL_PIPE_BYTES };

#endif
