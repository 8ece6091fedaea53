/* packets.h -- clear the packet mode that splice and tee pass on.
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

#ifndef KTEE_PACKETS_H
#define KTEE_PACKETS_H

#include <stdbool.h>
#include <stddef.h>

bool kernel_passes_packets (void);
bool make_stripper (int sock[2]);
bool strip_packets (int src, int const sock[2], int dst, size_t size,
                    size_t *sent, size_t *taken);

#endif
