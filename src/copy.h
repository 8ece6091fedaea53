/* copy.h -- copy standard input to ktee's outputs.
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

#include "outputs.h"

/* --copy-method.  */
enum copy_method
  {
    copy_method_auto,   /* Read and write a small input, splice the rest.  */
    copy_method_splice, /* Splice wherever the kernel allows.  */
    copy_method_rw      /* Read and write, always.  */
  };

/* Copy standard input to every output of OUTS by METHOD, with the engine
   that copy.c's table gives for its kind.  */
void copy_input (struct outputs *outs, enum copy_method method);

#endif
