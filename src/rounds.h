/* rounds.h -- how many bytes the next round of a copy takes.
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

#ifndef KTEE_ROUNDS_H
#define KTEE_ROUNDS_H

#include <stddef.h>

#include "outputs.h"

/* The most bytes an engine takes in its next round, at most ROUND:
   room_limit for every engine, round_limit for the zero-copy ones,
   file_round_limit for the file engine.  */
size_t room_limit (struct outputs *outs, size_t round);
size_t round_limit (struct outputs *outs, size_t round);
size_t file_round_limit (struct outputs *outs, size_t round);

#endif
