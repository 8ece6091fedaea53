/* stress-pattern.h -- the soak test's self-describing stream.
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

/* The stream for SEED is a sequence of 8-byte words in the machine's
   byte order; the word at byte offset 8*I is BASE + I*STEP, BASE being
   derived from SEED and STEP odd, so no two words of a stream shorter
   than 2**67 bytes are equal and no word of one seed's stream is likely
   at the same place in another's.  A byte lost, doubled or moved then
   changes the word it lands in, and a stale file from an earlier run
   with another seed differs from its first word on.  A stream whose
   length is not a multiple of 8 ends with the first bytes of the next
   word.  */

#ifndef KTEE_STRESS_PATTERN_H
#define KTEE_STRESS_PATTERN_H

#include <stdint.h>

struct pattern
{
  uint64_t base;
};

/* 2**64 divided by the golden ratio: odd, and its multiples spread.  */
#define PATTERN_STEP UINT64_C (0x9E3779B97F4A7C15)

static inline void
pattern_init (struct pattern *p, uint64_t seed)
{
  /* splitmix64's finalizer, so that nearby seeds give unrelated bases.  */
  uint64_t z = seed + PATTERN_STEP;
  z = (z ^ (z >> 30)) * UINT64_C (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94D049BB133111EB);
  p->base = z ^ (z >> 31);
}

/* Return word number I of the stream.  */

static inline uint64_t
pattern_word (struct pattern const *p, uint64_t i)
{
  return p->base + i * PATTERN_STEP;
}

#endif
