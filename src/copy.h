/* copy.h -- the two ways ktee moves bytes from standard input to its outputs.
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

#include "outputs.h"

/* GNU tee's read size.  Where an exit can cut a round short, ktee takes
   no more than this per round, so every output holds what it would hold
   with GNU tee.  */
enum { GNU_TEE_BLOCK = 8192 };

struct copy_plan
{
  size_t block;         /* Most bytes to take from the input per round.  */
  bool watch_outputs;   /* Drop broken pipe outputs while input is idle.  */
  bool always_splice;   /* Splice even an input too small to gain.  */
};

/* Each engine copies standard input to every live output of OUTS until
   end of input or until no output is left, reporting failures through
   outputs.c.  */
void copy_rw (struct outputs *outs, struct copy_plan const *plan);

/* Return false if standard input cannot be spliced and nothing was
   taken from it; the caller then uses copy_rw.  */
bool copy_splice (struct outputs *outs, struct copy_plan const *plan);

#endif
