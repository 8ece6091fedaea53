/* quotef.h -- quote a file name in a diagnostic as GNU programs do.
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

#ifndef KTEE_QUOTEF_H
#define KTEE_QUOTEF_H

#include "quotearg.h"

/* GNU coreutils' quotef: names with shell metacharacters are quoted,
   others are printed as they are, and a colon never looks like the end
   of the name.  */
#define quotef(arg) \
  quotearg_n_style_colon (0, shell_escape_quoting_style, arg)

#endif
