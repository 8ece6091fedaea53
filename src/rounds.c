/* rounds.c -- how many bytes the next round of a copy takes.
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

#include "rounds.h"

#include <fcntl.h>
#include <stdint.h>
#include <sys/param.h>
#include <sys/vfs.h>

#include "engine.h"

/* A round holds at least what a pipe of the default size holds: fewer
   bytes cost more in calls than a reader gains.  */
enum { ROUND_MIN = KERNEL_PIPE_BYTES };

/* Rounds between two questions of a pipe output's size: asked every
   round, it cost 6 to 9% of ktee's CPU (bench/results-pipesize.md).  */
enum { PIPE_SIZE_ROUNDS = 16 };

/* What pipe output O holds, asked again every PIPE_SIZE_ROUNDS rounds:
   its reader may grow it after ktee has started.  0 if unknown.  */

static size_t
pipe_output_size (struct output *o)
{
  if (! o->pipe_bytes || PIPE_SIZE_ROUNDS <= ++o->pipe_age)
    {
      int size = fcntl (o->fd, F_GETPIPE_SZ);
      o->pipe_bytes = 0 < size ? size : 0;
      o->pipe_age = 0;
    }
  return o->pipe_bytes;
}

/* Return true if file output O's file system may fill up in a round of
   up to ROUND bytes to each of LIVE outputs: less than twice that is
   free, for blocks of metadata too.  Its free space is asked every
   round once it is within reach of PIPE_SIZE_ROUNDS such rounds, and
   every PIPE_SIZE_ROUNDS rounds before.  */

static bool
may_fill (struct output *o, size_t round, size_t live)
{
  uintmax_t reach = 2 * (uintmax_t) round * live;
  if (o->fs_free / PIPE_SIZE_ROUNDS < reach
      || o->fs_age++ % PIPE_SIZE_ROUNDS == 0)
    {
      struct statfs fs;
      o->fs_free = (fstatfs (o->fd, &fs) == 0
                    ? (uintmax_t) fs.f_bavail * fs.f_bsize : UINTMAX_MAX);
    }
  return o->fs_free < reach;
}

/* The most bytes per round, at most ROUND, where the file system of a
   file output may fill up: GNU's blocks, to one output and then the
   next, decide what each holds when two or more share the room left.  */

size_t
room_limit (struct outputs *outs, size_t round)
{
  if (outs->live < 2 || round <= GNU_TEE_BLOCK)
    return round;
  for (size_t i = 0; i < outs->n; i++)
    {
      struct output *o = &outs->v[i];
      if (0 <= o->fd && o->is_file && may_fill (o, round, outs->live))
        return GNU_TEE_BLOCK;
    }
  return round;
}

/* The most bytes per round of the zero-copy engines, at most ROUND.
   While ktee writes the other outputs, the reader of a pipe output has
   no more than its pipe holds to go on, and rounds larger than that
   leave it idle, where GNU tee's 8 KiB blocks keep it fed (doc/design.md,
   "Sizes of rounds and calls").  The other outputs may go, so that is
   looked at every round; and so is room_limit.  */

size_t
round_limit (struct outputs *outs, size_t round)
{
  size_t most = round;
  if (outs->live < 2)
    return most;
  for (size_t i = 0; i < outs->n; i++)
    {
      struct output *o = &outs->v[i];
      size_t size = 0 <= o->fd && o->is_pipe ? pipe_output_size (o) : 0;
      if (size)
        most = MIN (most, MAX (size, ROUND_MIN));
    }
  return room_limit (outs, most);
}

/* The most bytes in the next round of the file engine, at most ROUND.
   round_limit keeps the reader of a pipe output fed while ktee writes
   the other outputs; but an output that takes a reflink is written in
   next to no time, and smaller rounds would only cost it calls
   (doc/design.md, "Sizes of rounds and calls").  A second pipe output
   still keeps the first one's reader waiting.  */

size_t
file_round_limit (struct outputs *outs, size_t round)
{
  size_t pipes = 0;
  for (size_t i = 0; i < outs->n; i++)
    {
      struct output const *o = &outs->v[i];
      bool reflinked = o->way == OUTPUT_COPY_RANGE && o->reflinks;
      if (0 <= o->fd && (o->is_pipe ? 1 < ++pipes : ! reflinked))
        return round_limit (outs, round);
    }
  return round;
}
