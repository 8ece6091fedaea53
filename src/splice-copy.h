/* splice-copy.h -- the splice engine's state, shared by its rounds.
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

#ifndef KTEE_SPLICE_COPY_H
#define KTEE_SPLICE_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "pipes.h"

/* The splice engine's state: copy-splice.c runs its rounds,
   splice-round.c delivers each.  */
struct splice_copy
{
  struct outputs *outs;
  struct round_pipes pipes; /* This round's bytes, as taken from the
                           input, and a copy of them for one output.  */
  int sock[2];          /* A socket pair that clears packet mode.  */
  size_t block;         /* Most bytes per round.  */
  size_t round;         /* Bytes in the current round.  */
  char *buf;            /* The round's bytes for outputs using write().  */
  bool packets_possible; /* The rounds may hold packet buffers that a pipe
                           output would keep: the input is a pipe, and
                           the kernel is not known to drop packet mode.  */
  bool kernel_checked;  /* Whether the kernel has been asked.  */
  uintmax_t stripped;   /* Bytes passed through SOCK.  */
};

/* How a round ended.  */
enum round_result
  {
    ROUND_SPLICED,      /* Delivered; the next round may splice again.  */
    ROUND_WRITTEN,      /* A fault on ktee's own pipes: the round was
                           finished with write(), and so must the rest.  */
    ROUND_LOST          /* Reading ktee's own pipe failed, diagnosed.  */
  };

enum round_result deliver_round (struct splice_copy *e);

#endif
